"""Benchmark: the exact per-hand table of all 6,972,147 classes (traditional game, gli way)
and the optimal blind strategy built from it.

Budget: under 15 minutes wall and 8 GB on 2 cores. Environment: PAIGOW_BENCH_VARIANT
(default traditional), PAIGOW_BENCH_WAY (default: the variant's house way), PAIGOW_BENCH_DECK (a
smaller deck, e.g. ``TJQKA:cdh+joker``, to try the script). Exits 1 when a check fails: every
hand meets C(n - 7, 7) dealer hands, and optimal play is never worse than the house way.
"""

from __future__ import annotations

import os
import sys
import tempfile
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps


def main() -> None:
    from analysis.games.variants import get_variant
    from analysis.pricing.optimal import evaluate
    from enumerate.engine import build_keys
    from enumerate.engine.perhand.table import run_per_hand
    from enumerate.houseways import get_way
    from enumerate.rules import Deck
    from enumerate.tables import hand_table
    from enumerate.waytables import way_table

    variant = get_variant(os.environ.get("PAIGOW_BENCH_VARIANT", "traditional"))
    way_name = os.environ.get("PAIGOW_BENCH_WAY", variant.house_way)
    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    checks = Checks()
    steps = Steps(f"per-hand table and optimal strategy, deck {deck.name}, {variant.name}, "
                  f"{way_name}")  # fmt: skip
    table = steps.run("hand table (cache)", lambda: hand_table(deck))
    way = get_way(way_name)
    keys = steps.run("keys (cache)", lambda: build_keys(table, way, flag_mask=variant.flag_mask))
    wt = way_table(way, deck)
    os.environ["PAIGOW_CACHE_DIR"] = tempfile.mkdtemp(prefix="paigow-perhand-")
    timings: dict[int, float] = {}
    per = steps.run(
        "per-hand counts, all levels (2 threads)",
        lambda: run_per_hand(table, keys, use_cache=False, timings=timings),
    )
    for k, secs in sorted(timings.items()):
        print(f"    level {k}: {secs:.1f} s")
    opt = steps.run("EVs and optimal settings",
                    lambda: evaluate(per, variant, table, way_name, wt.high.astype("int64"),
                                     wt.low.astype("int64"), wt.rule, wt.rule_names))  # fmt: skip
    he_way, he_opt = opt.house_edge(False), opt.house_edge(True)
    print(f"  classes: {len(per):,}  frontier points: {len(per.point_high):,}")
    checks.check("a row per class", len(per) == len(table), f"{len(per):,} of {len(table):,}")
    others = comb(deck.size - 7, 7)  # C(46, 7) = 53,524,680 for the full deck
    checks.check("every hand meets C(n - 7, 7) dealer hands",
                 (per.total.sum(axis=1) == others).all(), f"{others:,}")  # fmt: skip
    checks.check("optimal EV >= house-way EV, every class", (opt.best_ev >= opt.way_ev).all())
    checks.check("optimal edge <= house-way edge", he_opt <= he_way)
    print(f"  house edge, house way: {float(he_way) * 100:.6f}%  ({he_way})")
    print(f"  house edge, optimal:   {float(he_opt) * 100:.6f}%  ({he_opt})")
    print(f"  optimal play gains:    {float(he_way - he_opt) * 100:.6f}% of the bet")
    differ = int(table.orbit_size[~opt.way_is_best].sum())
    print(f"  hands where the house way is not optimal: {differ:,} of {table.total:,}")
    steps.report()
    checks.finish()


if __name__ == "__main__":
    main()
