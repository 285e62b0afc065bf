"""``paigow set``, ``ways``, ``diff-ways`` and user-defined ways (``--way-module``,
``$PAIGOW_WAY_MODULES``).

Every expected setting is derived by hand from docs/rules.md (the comment says which rule); the
diff counts are checked against a plain loop over every hand of a small deck.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from analysis.cli.main import main
from analysis.waylab.ways import diff_ways, dominated_by_rule, dominated_counts
from enumerate.evaluate import all_settings, five_card_table
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck

EXAMPLE = Path(__file__).with_name("custom_way_example.py")
ROOT = Path(__file__).resolve().parents[1]
DECK = "9TJQKA:cdhs+joker"  # 25 cards


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("paigow: error: ")
    return captured.err


# ---------------------------------------------------------------------------------------------
# set


HAND = "Ks Kh 9c 7d 5h 3s 2c"


def test_set_json_one_pair(capsys):
    # gli rule 6, one pair: the two highest singletons (9, 7) in front, the kings behind
    data = _json(capsys, ["set", HAND, "--house-way", "gli", "--format", "json"])
    assert list(data) == ["high", "low", "rule", "alternatives"]
    assert data["high"] == ["Ks", "Kh", "5h", "3s", "2c"]
    assert data["low"] == ["9c", "7d"]
    assert data["rule"] == "6. one pair: two highest singletons in front"
    # 14 non-dominated settings (worked out in tests/test_waytables.py), strongest back first:
    # pair of kings 9-7-5 over 3-2 ... down to king high K-9-5-3-2 over K-7
    alts = data["alternatives"]
    assert len(alts) == 14
    assert all(set(a) == {"high", "low", "high_name", "low_name"} for a in alts)
    assert alts[0]["high"] == ["Ks", "Kh", "9c", "7d", "5h"] and alts[0]["low"] == ["3s", "2c"]
    assert alts[0]["high_name"] == "pair of kings, 9-7-5 kickers"
    assert alts[0]["low_name"] == "3-2"
    assert alts[-1]["low"] == ["Kh", "7d"] and alts[-1]["low_name"] == "K-7"
    assert {"high": data["high"], "low": data["low"], "high_name": "pair of kings, 5-3-2 kickers",
            "low_name": "9-7"} in alts  # fmt: skip
    for a in alts:
        assert sorted(a["high"] + a["low"]) == sorted(HAND.split(" "))


@pytest.mark.parametrize(
    "hand,way,high,low,rule",
    [
        # gli rule 7, no pair: the second and third highest cards in front
        ("Ac Kd 9h 7s 5c 3d 2h", "gli", "Ac 7s 5c 3d 2h", "Kd 9h",
         "7. no pair: second and third highest cards in front"),
        # gli rule 3: kings full of sevens, no pair of twos: the pair in front, trips behind
        ("Kc Kd Kh 7c 7d 4h 2s", "gli", "Kh Kd Kc 4h 2s", "7d 7c",
         "3. full house: pair in front, trips in back"),
        # gli rule 5: fives and threes with a queen (no ace): no split condition holds (the
        # low pair is below sevens and below sixes, no aces): keep both pairs, Q-9 in front
        ("5s 5h 3c 3d Qc 9s 2h", "gli", "5s 5h 3d 3c 2h", "Qc 9s",
         "5. two pair: both pairs in back, two highest singletons in front"),
        # Trump Plaza rule 3: low + low pairs without a king or ace singleton: split
        ("5s 5h 3c 3d Qc 9s 2h", "trump-plaza", "Qc 9s 5s 5h 2h", "3d 3c",
         "3. two pair: split, no singleton to keep them together"),
        # gli rule 8: the only straight is A-K-Q-J-T, so 3-2 must go in front; none of 8a-8d
        # applies (not king- or jack-high, no royal or straight flush): 8e
        ("Ah Kd Qc Js Tc 3d 2h", "gli", "Ah Kd Qc Js Tc", "3d 2h",
         "8e. highest front keeping a straight or flush"),
    ],
)  # fmt: skip
def test_set_json_by_the_rule_card(capsys, hand, way, high, low, rule):
    data = _json(capsys, ["set", hand, "--house-way", way, "--format", "json"])
    assert data["high"] == high.split()
    assert data["low"] == low.split()
    assert data["rule"] == rule


def test_set_text(capsys):
    assert main(["set", "Kc Kd Kh 7c 7d 4h 2s"]) == 0  # gli is the default way
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "hand: Kc Kd Kh 7c 7d 4h 2s"
    assert lines[1] == "house way: gli (version 1)"
    assert " ".join(lines[2].split()) == "high: Kh Kd Kc 4h 2s three of a kind, kings, 4-2 kickers"
    assert " ".join(lines[3].split()) == "low: 7d 7c pair of sevens"
    assert lines[4] == "rule: 3. full house: pair in front, trips in back"
    # frontier: full house over 4-2; three kings over 7-2, 7-4 and 7-7 (the way's, marked)
    rows = lines[lines.index("") + 2 :]
    assert len(rows) == 4
    assert [r.startswith("*") for r in rows] == [False, False, False, True]
    assert "full house, kings full of sevens / 4-2" in rows[0]
    assert "dominated" not in "\n".join(lines[:6])


def test_set_text_flags_a_dominated_setting(capsys):
    # gli read literally: rule 8 sends two pair with jacks and sixes to rule 5, which keeps both
    # pairs behind (jacks and sixes, no ace: no split condition read with "and") and puts 4-3
    # in front, breaking the club flush J-6-4-3-2: the flush behind with J-6 in front beats it
    # in both hands.
    assert main(["set", "Jd Jc 6h 6c 4c 3c 2c", "--house-way", "gli[two-pair=and]"]) == 0
    out = capsys.readouterr().out
    assert "rule: 5. two pair: both pairs in back, two highest singletons in front" in out
    assert "the way's setting is dominated" in out
    assert not any(line.startswith("*") for line in out.splitlines())


def test_set_accepts_the_wheel_option(capsys):
    # 5-4-3-2-A: with --wheel low it is the lowest straight; the way still keeps it behind
    data = _json(capsys, ["--wheel", "low", "set", "5c 4d 3h 2s Ac Kd Qh", "--format", "json"])
    assert sorted(data["high"]) == sorted(["5c", "4d", "3h", "2s", "Ac"])
    assert data["low"] == ["Kd", "Qh"]  # 8a: K-Q is king-high, the straight stays


# ---------------------------------------------------------------------------------------------
# ways


def test_ways_lists_the_registered_ways(capsys):
    assert main(["ways"]) == 0
    out = capsys.readouterr().out
    for name in ("gli", "trump-plaza", "max-back"):
        assert f"| {name} " in out
    data = _json(capsys, ["ways", "--format", "json"])
    by_name = {w["name"]: w for w in data}
    assert by_name["gli"]["version"] == "1"
    assert by_name["gli"]["rules"] == len(get_way("gli").rules)
    assert by_name["max-back"]["rules"] == 1
    assert by_name["trump-plaza"]["description"].startswith("Trump Plaza")
    assert main(["ways", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "name,version,rules,description"


# ---------------------------------------------------------------------------------------------
# diff-ways


def test_diff_ways_json_adds_up(capsys):
    data = _json(capsys, ["diff-ways", "gli", "trump-plaza", "--deck", DECK, "--format", "json"])
    assert data["total"] == comb(25, 7) == 480_700
    assert data["same"] + data["different"] == data["total"]
    assert data["different"] > 0
    assert sum(r["hands"] for r in data["rows"]) == data["different"]
    hands = [r["hands"] for r in data["rows"]]
    assert hands == sorted(hands, reverse=True)
    for r in data["rows"]:
        assert r["a_rule"] in get_way("gli").rule_names
        assert r["b_rule"] in get_way("trump-plaza").rule_names
        ex = r["example"]
        assert len(ex["hand"]) == 7 and set(ex["a_front"]) <= set(ex["hand"])
        assert ex["a_front"] != ex["b_front"]
    assert [d["way"] for d in data["dominated"]] == ["gli", "trump-plaza"]
    assert all(0 <= d["hands"] <= data["total"] for d in data["dominated"])


def test_a_way_against_itself_differs_nowhere(capsys):
    data = _json(capsys, ["diff-ways", "gli", "gli", "--deck", DECK, "--format", "json"])
    assert data["different"] == 0 and data["rows"] == []
    assert data["same"] == data["total"] == comb(25, 7)
    assert [d["way"] for d in data["dominated"]] == ["gli"]


def test_diff_ways_md_and_csv(capsys):
    assert main(["diff-ways", "gli", "trump-plaza", "--deck", DECK]) == 0
    out = capsys.readouterr().out
    assert "480,700 hands" in out and "set differently:" in out
    assert "| gli rule" in out and "trump-plaza rule" in out
    assert main(["diff-ways", "gli", "trump-plaza", "--deck", DECK, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("kind,gli rule,trump-plaza rule,hands,share")
    kinds = [line.split(",")[0] for line in lines[1:]]
    assert "same setting" in kinds and "total" in kinds
    assert kinds[-2:] == ["dominated: gli", "dominated: trump-plaza"]
    total = next(line for line in lines if line.startswith("total,"))
    assert ",480700,1," in total


def _every_hand(deck: Deck) -> np.ndarray:
    return np.array(list(combinations(sorted(deck.ids), 7)), dtype=np.int64)


def test_diff_and_dominated_counts_equal_a_loop_over_every_hand():
    """Weighting classes by orbit size counts the same hands as going through all 116,280
    hands of a deck one by one; "dominated" is checked from its definition (another valid
    setting at least as high in both hands and higher in one), not from the frontier. On this
    deck gli keeps jacks and sixes together even over a flush (rule 8 defers to rule 5), so
    it has dominated settings."""
    deck = Deck.parse("2346J:cdhs+joker")  # 21 cards
    hands = _every_hand(deck)
    assert len(hands) == comb(21, 7)
    a, b = get_way("gli[two-pair=and]"), get_way("trump-plaza")  # gli read literally
    ca, cb = apply_way(a, hands), apply_way(b, hands)
    differ = (ca.high != cb.high) | (ca.low != cb.low)
    by_rules = Counter(
        (a.rule_names[ra], b.rule_names[rb])
        for ra, rb in zip(ca.rule[differ], cb.rule[differ], strict=True)
    )
    d = diff_ways(a, b, deck)
    assert d.total == len(hands)
    assert d.different == int(differ.sum()) > 0
    got = {(r["a_rule"], r["b_rule"]): r["hands"] for r in d.rows.to_dict("records")}
    assert got == dict(by_rules)

    five = five_card_table()
    high, low = all_settings(hands, five.ids)
    high, low = high.astype(np.int64), low.astype(np.int64)
    valid = low <= five.max_low[high]
    dominated = {}
    for way, col in ((a, ca), (b, cb)):
        h, lo = col.high.astype(np.int64)[:, None], col.low.astype(np.int64)[:, None]
        beaten = valid & (high >= h) & (low >= lo) & ((high > h) | (low > lo))
        dominated[way.name] = int(beaten.any(axis=1).sum())
    assert dominated[a.name] > 0
    counts = dominated_counts([a, b], deck)
    assert dict(zip(counts["way"], counts["hands"], strict=True)) == dominated
    by_rule = dominated_by_rule(a, deck)
    assert int(by_rule["hands"].sum()) == dominated[a.name]


# ---------------------------------------------------------------------------------------------
# user-defined ways


def test_custom_way_through_the_cli(capsys):
    # the example way puts the highest pair the back still beats in front: with aces and kings
    # the aces would sit over a pair of kings (foul), so the kings go in front (rule 1)
    data = _json(capsys, ["--way-module", str(EXAMPLE), "set", "Ac Ad Kc Kd 9h Tc Jd",
                          "--house-way", "pair-in-front", "--format", "json"])  # fmt: skip
    assert data["low"] == ["Kd", "Kc"] and data["high"] == ["Ad", "Ac", "Jd", "Tc", "9h"]
    assert data["rule"] == "1. the highest pair the back still beats goes in front"
    # two queens only: Q-Q over A-K-J-T-9 (ace high) is foul, so rule 2: the strongest back,
    # the ace-high straight (with one queen), the other queen and the nine in front
    data = _json(capsys, ["--way-module", str(EXAMPLE), "set", "Qc Qd Ac Kd Jh Ts 9s",
                          "--house-way", "pair-in-front", "--format", "json"])  # fmt: skip
    assert [c[0] for c in data["high"]] == ["A", "K", "Q", "J", "T"]
    assert [c[0] for c in data["low"]] == ["Q", "9"]
    assert data["rule"].startswith("2. no pair can go in front")
    assert len(data["alternatives"]) == 3  # worked out in tests/test_waytables.py


def test_custom_way_diff_on_a_small_deck(capsys):
    data = _json(capsys, ["--way-module", str(EXAMPLE), "diff-ways", "pair-in-front", "gli",
                          "--deck", DECK, "--format", "json"])  # fmt: skip
    assert data["same"] + data["different"] == data["total"] == comb(25, 7)


def test_way_modules_from_the_environment(capsys, monkeypatch, tmp_path):
    other = tmp_path / "another_way.py"
    other.write_text(
        "from enumerate.houseways import HouseWay, register\n"
        "from tests.reference_ways import max_back\n"
        "register(HouseWay('another-way', '7', 'max-back under another name',\n"
        "                  max_back.RULES, max_back.choose, max_back))\n"
    )
    monkeypatch.setenv("PAIGOW_WAY_MODULES", f"{EXAMPLE}:{other}")
    data = _json(capsys, ["ways", "--format", "json"])
    by_name = {w["name"]: w for w in data}
    assert by_name["pair-in-front"]["rules"] == 2
    assert by_name["another-way"]["version"] == "7"


def test_way_module_in_a_fresh_process(tmp_path):
    env = {**os.environ, "PAIGOW_CACHE_DIR": str(tmp_path), "PAIGOW_WAY_MODULES": str(EXAMPLE)}
    proc = subprocess.run(
        [sys.executable, "-m", "analysis", "set", "Ac Ad Kc Kd 9h Tc Jd",
         "--house-way", "pair-in-front", "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["low"] == ["Kd", "Kc"]


# ---------------------------------------------------------------------------------------------
# errors: one line on stderr, exit code 2


@pytest.mark.parametrize(
    "argv,message",
    [
        (["set", "As Ks Qs Js Ts 2c Jk", "--house-way", "nope"],
         "unknown house way 'nope' (known: "),
        (["diff-ways", "gli", "nope", "--deck", DECK], "unknown house way 'nope' (known: "),
        (["diff-ways", "nope", "gli", "--deck", DECK], "unknown house way 'nope' (known: "),
        (["set", "As Ks Qs"], "expected 7 cards, got 3"),
        (["set", "As Ks Qs Js Ts 2c Zz"], "unknown card 'Zz'"),
        (["set", "As Ks Qs Js Ts 2c As"], "duplicate card 'As'"),
        (["set", "As Ks Qs Js Ts 2c Jk", "--format", "md"], "invalid choice"),
        (["diff-ways", "gli", "trump-plaza", "--deck", "AK:cq"], "deck 'AK:cq'"),
        (["diff-ways", "gli", "trump-plaza", "--deck", "AK:c"], "has 2 cards"),
        (["diff-ways", "gli", "--deck", DECK], "the following arguments are required: b"),
        (["--way-module", "/nonexistent/way.py", "ways"],
         "cannot load way module '/nonexistent/way.py': no such file"),
        (["--way-module", "no_such_module_xyz", "ways"],
         "No module named 'no_such_module_xyz'"),
    ],
)  # fmt: skip
def test_errors_are_one_line_exit_2(capsys, argv, message):
    assert message in _error(capsys, argv)


def test_unknown_way_lists_the_known_ones(capsys):
    err = _error(capsys, ["set", "As Ks Qs Js Ts 2c Jk", "--house-way", "x"])
    known = err.split("(known: ")[1].rstrip(")\n").split(", ")
    assert {"gli", "trump-plaza", "max-back"} <= set(known)
    assert err.startswith("paigow: error: unknown house way 'x' (known: ")


def test_broken_way_module_is_one_line(capsys, monkeypatch, tmp_path):
    bad = tmp_path / "bad_way.py"
    bad.write_text("raise RuntimeError('first line\\nsecond line')\n")
    err = _error(capsys, ["--way-module", str(bad), "ways"])
    assert "RuntimeError: first line second line" in err
    bad.write_text("x = (\n")
    monkeypatch.setenv("PAIGOW_WAY_MODULES", str(bad))
    assert "SyntaxError" in _error(capsys, ["ways"])


def test_the_docs_show_the_shipped_example():
    readme = (ROOT / "docs" / "extending.md").read_text()
    section = readme[readme.index("## A house way") :]
    block = section[section.index("```python\n") + len("```python\n") :]
    block = block[: block.index("```\n")]
    source = EXAMPLE.read_text()
    assert block == source[source.index("import sys") :]
