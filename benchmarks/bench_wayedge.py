"""Benchmark: the per-dealer table of one player family on the full deck, then any dealer way
priced from it in a fresh process, checked against the pair engine.

Budgets: building the per-dealer table under 5 minutes wall and 8 GB on 2 cores;
``paigow way-edge`` with the table cached under 5 s (whole process). The check: the table is
built with no dealer way at all (best-responding players), and ``way-edge`` for trump-plaza
and for gli on face-up and dealer-open must equal the pair engine's integers for those dealer
ways (engine counts from the cache, or one engine run each).

Environment: PAIGOW_BENCH_DECK (a smaller deck to try the script), PAIGOW_BENCH_PLAYER
("response", default, or "blind": players by gli, checked on traditional and commission-free).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import Checks, Steps  # noqa: E402


def _timed_cli(args: list[str]) -> tuple[float, float, dict]:
    """Wall seconds and peak RSS (MB) of one ``paigow`` process, and its JSON output."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", str(ROOT / ".venv/bin/paigow"), *args],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    wall = time.perf_counter() - t0
    peak = int(proc.stderr.strip().splitlines()[-1]) / 1024
    return wall, peak, json.loads(proc.stdout)


def main() -> None:
    from analysis.games.variants import get_variant
    from analysis.pricing.counts import pair_counts
    from analysis.waylab.wayedge import dealer_lab, house_optimal, way_counts
    from enumerate.engine.perdealer.table import PlayerSide, run_per_dealer
    from enumerate.houseways import get_way
    from enumerate.rules import Deck
    from enumerate.tables import hand_table
    from enumerate.waytables import way_table

    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    blind = os.environ.get("PAIGOW_BENCH_PLAYER", "response") == "blind"
    variants = ["traditional", "commission-free"] if blind else ["face-up", "dealer-open"]
    checks = Checks()
    steps = Steps(f"per-dealer table, deck {deck.name}, "
                  f"{'blind players by gli' if blind else 'best-responding players'}")  # fmt: skip
    table = steps.run("hand table (cache)", lambda: hand_table(deck))
    if blind:
        w = way_table(get_way("gli"), deck)
        side = PlayerSide("blind", f"house way {get_way('gli').key}", w.high, w.low)
    else:
        side = PlayerSide("response")
    timings: dict[str, float] = {}
    with steps.step("per-dealer table (built, or read from the cache)") as info:
        r = run_per_dealer(table, side, use_cache=True, timings=timings)
        levels = sum(v for k, v in timings.items() if k.startswith("level"))
        info["note"] = f"{len(r.win):,} settings of {len(r):,} classes; " + (
            "read from the cache" if r.from_cache else
            f"built: keys {timings['keys']:.1f} s, levels (building + kernels) {levels:.1f} s")
    del r
    deck_arg = "full" if deck.name == "full" else deck.key
    for way in ("trump-plaza", "gli"):  # the timed calls below price ways whose tables are cached
        steps.run(f"way table {way} (cache or build)",
                  lambda way=way: way_table(get_way(way), deck))  # fmt: skip
    for variant in variants:
        for way in ("trump-plaza", "gli"):
            args = ["way-edge", variant, "--way", way, "--deck", deck_arg, "--format", "json"]
            if blind:
                args += ["--player", "house-way", "--player-way", "gli"]
            wall, peak, out = _timed_cli(args)
            steps.rows.append((f"paigow way-edge {variant} --way {way} (cached)", wall,
                               f"peak {peak:.0f} MB; edge {out['house_edge'] * 100:.4f}%"))
            print(f"  way-edge {variant} {way}: {wall:.2f} s, {peak:.0f} MB", flush=True)
            checks.check(f"way-edge {variant} {way} under 5 s", wall < 5, f"{wall:.2f} s")
    mask = 0
    for variant in variants:
        mask |= get_variant(variant).flag_mask
    for way in ("trump-plaza", "gli"):  # one engine run per way serves both variants
        steps.run(f"pair engine, dealer {way}, flags {mask} (cache or run)",
                  lambda way=way: pair_counts(deck, None, way, "gli" if blind else way, mask))
    for variant in variants:
        v = get_variant(variant)
        lab = dealer_lab(v, "house-way" if blind else "best-response", "gli", deck)
        for way in ("trump-plaza", "gli"):
            bits, win, push, loss, deals = way_counts(lab, way, v.flag_mask)
            engine = pair_counts(deck, None, way, "gli" if blind else way, v.flag_mask)
            c = engine.counts
            ours = (bits, win.tolist(), push.tolist(), loss.tolist(), deals.tolist())
            if blind:
                theirs = (engine.dealer_class_bits, c.blind_win.tolist(), c.blind_push.tolist(),
                          c.blind_loss.tolist(), c.per_dealer_class.tolist())  # fmt: skip
            else:
                theirs = (engine.dealer_class_bits, c.br_win.tolist(), c.br_push.tolist(),
                          c.br_loss.tolist(), c.per_dealer_class.tolist())  # fmt: skip
            checks.check(f"{variant}, dealer {way}: per-dealer counts == pair engine",
                         ours == theirs, f"wins {sum(win):,}")  # fmt: skip
        ceiling = house_optimal(lab, v).house_edge
        steps.rows.append((f"house-optimal dealer, {variant}", 0.0,
                           f"ceiling {float(ceiling) * 100:.4f}% ({ceiling})"))
    steps.report()
    checks.finish()


if __name__ == "__main__":
    main()
