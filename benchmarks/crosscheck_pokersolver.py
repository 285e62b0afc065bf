"""Cross-check: the MGM Grand card (``data/ways/mgm-grand.toml``) against the open JavaScript
solver pokersolver, whose ``PaiGowPokerHelper`` sets hands by the MGM Grand way, on one hand
of every suit class of a deck (all 6,972,147 of the full deck by default).

A development-time check, never part of the toolkit: it needs ``node`` and ``npm`` and
installs pokersolver from the npm registry into a temporary folder (or uses ``--solver DIR``,
a folder holding ``node_modules/pokersolver``). Each class's hand goes to the solver, its
front and back come back, and the two settings are compared by value (the back's five-card
rank and the front's two-card rank, so two cards of one rank are interchangeable). The
disagreements are printed grouped by the card's rule, with the solver's setting beside the
card's, in hands (each class weighted by its orbit size).

    python benchmarks/crosscheck_pokersolver.py [--deck full] [--way mgm-grand]

Answers that do not hold the hand's seven cards (the solver drops a card of some hands) are
counted and shown apart. Exits 1 when the solver does not answer every hand.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps

# Our own harness for the solver: one hand per line in, "front|back" out.
HARNESS = r"""
const {PaiGowPokerHelper} = require('pokersolver');
const rl = require('readline').createInterface({input: process.stdin});
let out = [];
const name = c => c.value + c.suit;
rl.on('line', line => {
  const h = PaiGowPokerHelper.solve(line.trim().split(' '));
  out.push(h.loHand.cardPool.map(name).join(' ') + '|' + h.hiHand.cardPool.map(name).join(' '));
  if (out.length >= 20000) { process.stdout.write(out.join('\n') + '\n'); out = []; }
});
rl.on('close', () => { if (out.length) process.stdout.write(out.join('\n') + '\n'); });
"""
JOKER_NAME = "Or"  # the solver's joker: value "O", any suit letter


def solver_folder(given: str | None) -> Path:
    """A folder with ``node_modules/pokersolver`` and the harness, installing when needed."""
    if shutil.which("node") is None:
        sys.exit("crosscheck: needs node (and npm to install pokersolver)")
    folder = Path(given) if given else Path(tempfile.mkdtemp(prefix="pokersolver-"))
    if not (folder / "node_modules" / "pokersolver").is_dir():
        if shutil.which("npm") is None:
            sys.exit("crosscheck: needs npm to install pokersolver")
        subprocess.run(["npm", "install", "--silent", "--prefix", str(folder), "pokersolver"],
                       check=True)  # fmt: skip
    (folder / "harness.js").write_text(HARNESS)
    return folder


def card_names() -> list[str]:
    from enumerate.cards import Card

    return [str(Card(i)) for i in range(52)] + [JOKER_NAME]


def run_solver(folder: Path, lines: list[str], n_jobs: int = 2) -> list[str]:
    """The solver's answer to each line, in order, ``n_jobs`` node processes at once."""
    parts = np.array_split(np.arange(len(lines)), n_jobs)
    answers: list[list[str]] = [[] for _ in parts]

    def one(k: int) -> None:
        rows = parts[k]
        text = "\n".join(lines[i] for i in rows) + "\n"
        done = subprocess.run(["node", str(folder / "harness.js")], input=text, text=True,
                              capture_output=True, check=True, cwd=folder)  # fmt: skip
        answers[k] = done.stdout.splitlines()

    threads = [threading.Thread(target=one, args=(k,)) for k in range(len(parts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [a for part in answers for a in part]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deck", default="full")
    p.add_argument("--way", default="mgm-grand")
    p.add_argument("--solver", default=None, help="a folder with node_modules/pokersolver")
    p.add_argument("--examples", type=int, default=2, help="examples per group")
    args = p.parse_args()

    from enumerate.evaluate import SETTING_PAIRS, all_settings, five_card_table
    from enumerate.houseways import get_way
    from enumerate.rules import Deck, Rules
    from enumerate.tables import hand_table
    from enumerate.waytables import way_table

    steps, checks = Steps(f"pokersolver cross-check of {args.way}, deck {args.deck}"), Checks()
    deck, rules = Deck.parse(args.deck), Rules()
    folder = steps.run("install pokersolver", lambda: solver_folder(args.solver))
    table = steps.run("hand table", lambda: hand_table(deck, rules))
    way = get_way(args.way)
    ours = steps.run("card's way table", lambda: way_table(way, deck, rules))
    names = card_names()
    index = {n: i for i, n in enumerate(names)}
    cards = table.cards.astype(np.int64)
    n = len(cards)
    lines = steps.run("hands as text", lambda: [" ".join(names[c] for c in row) for row in cards])
    with steps.step("pokersolver sets every hand", f"{n:,} hands, 2 node processes"):
        answers = run_solver(folder, lines)
    checks.check("one answer per hand", len(answers) == n, f"{len(answers):,} of {n:,}")

    with steps.step("their settings as ids"):
        setting = np.full(n, -1, dtype=np.int64)
        position = {pair: s for s, pair in enumerate(SETTING_PAIRS)}
        bad, first_bad = 0, ""
        for h, answer in enumerate(answers):
            front, _, back = answer.partition("|")
            got = [index.get(t, -1) for t in front.split()]
            rest = sorted(index.get(t, -1) for t in back.split())
            row = cards[h].tolist()
            if len(got) != 2 or sorted(got + rest) != row:
                bad += 1
                first_bad = first_bad or f"e.g. {lines[h]} -> {answer}"
                continue
            i, j = sorted(row.index(c) for c in got)
            setting[h] = position[(i, j)]
        five = five_card_table(rules)
        high_all, low_all = all_settings(table.cards, five.ids)
        rows = np.arange(n)
        theirs_high = high_all[rows, np.maximum(setting, 0)].astype(np.int64)
        theirs_low = low_all[rows, np.maximum(setting, 0)].astype(np.int64)
    print(f"  answers that are not a setting of the hand: {bad:,} classes {first_bad}".rstrip())
    fouled = (setting >= 0) & ~_valid(theirs_high, theirs_low, five)
    checks.check("the solver never fouls", not fouled.any(), f"{int(fouled.sum()):,} fouls")

    weight = table.orbit_size.astype(np.int64)
    differ = (setting >= 0) & ((theirs_high != ours.high) | (theirs_low != ours.low))
    total, wrong = int(weight.sum()), int(weight[differ].sum())
    print(f"\n{args.way} vs pokersolver, deck {deck.name}: {total:,} hands, {n:,} classes; "
          f"they agree on {total - wrong:,} hands, differ on {wrong:,} "
          f"({int(differ.sum()):,} classes)\n")  # fmt: skip
    groups: dict[str, list[int]] = defaultdict(list)
    for h in np.flatnonzero(differ):
        groups[ours.rule_names[ours.rule[h]]].append(int(h))
    for rule, hs in sorted(groups.items(), key=lambda kv: -int(weight[kv[1]].sum())):
        print(f"- {rule}: {int(weight[hs].sum()):,} hands ({len(hs):,} classes)")
        for h in hs[: args.examples]:
            print(f"    {lines[h]}: card {_setting_text(lines[h], int(ours.setting[h]))}, "
                  f"solver {_setting_text(lines[h], int(setting[h]))}")  # fmt: skip
    steps.report()
    checks.finish()


def _valid(high: np.ndarray, low: np.ndarray, five) -> np.ndarray:
    """Whether the back outranks the front (five.max_low: the best front a back allows)."""
    return low <= five.max_low[high]


def _setting_text(line: str, s: int) -> str:
    from enumerate.evaluate import SETTING_PAIRS

    toks = line.split()
    i, j = SETTING_PAIRS[s]
    back = [t for k, t in enumerate(toks) if k not in (i, j)]
    return f"{toks[i]} {toks[j]} / {' '.join(back)}"


if __name__ == "__main__":
    main()
