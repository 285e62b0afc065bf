"""Benchmark: the full-deck pair engine, best response and blind play, gli way, all dealer
classes, from an empty shard cache.

Budget (issue 4): under 3 minutes wall (aim 60 s) and 6 GB on 2 cores; PAIGOW_BENCH_FLAGS=0 runs
one dealer class (a plain variant), the default 31 all ten. Prints the time per
inclusion-exclusion level, hand visits per second, and the closed-form checks.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Steps


def main() -> None:
    from enumerate.engine import build_keys, run_engine
    from enumerate.vocabulary import ALL_DEALER_EVENTS, DealerEvent

    flag_mask = int(os.environ.get("PAIGOW_BENCH_FLAGS", str(ALL_DEALER_EVENTS)))
    TWO_JACKS = DealerEvent.TWO_JACKS
    from enumerate.engine.run import LevelStats
    from enumerate.houseways import get_way
    from enumerate.tables import hand_table

    steps = Steps("pair engine, full deck, gli, best response + blind + joint classes")
    table = steps.run("hand table (cache)", hand_table)
    keys = steps.run("keys: way + frontier tables (cache)",
                     lambda: build_keys(table, get_way("gli"), flag_mask=flag_mask))  # fmt: skip
    print(f"    dealer classes: {keys.n_dealer_classes}")
    os.environ["PAIGOW_CACHE_DIR"] = tempfile.mkdtemp(prefix="paigow-engine-")
    stats: dict[int, LevelStats] = {}
    t0 = time.perf_counter()
    counts = steps.run("engine, all levels (2 threads)",
                       lambda: run_engine(table, keys, progress=False, stats=stats))  # fmt: skip
    wall = time.perf_counter() - t0
    visits = sum(s.hand_visits for s in stats.values())
    print("\n  level  orbits      hand visits   build s  shards s (thread-summed)")
    for k, s in sorted(stats.items()):
        print(f"  {k:>5}  {s.orbits:>9,}  {s.hand_visits:>15,}  {s.build_seconds:7.1f}"
              f"  {s.shard_seconds:8.1f}")  # fmt: skip
    print(f"  hand visits: {visits:,} in {wall:.1f} s = {visits / wall / 1e6:.1f} M/s")
    deals = comb(53, 7) * comb(46, 7)
    print(f"  total pairs: {counts.total:,} (expected {deals:,}): {counts.total == deals}")
    jacks = sum(
        int(counts.per_dealer_class[d])
        for d, bits in enumerate(keys.dealer_class_bits)
        if bits & TWO_JACKS
    )
    if flag_mask & TWO_JACKS:
        closed = (comb(53, 7) - comb(49, 7) - 4 * comb(49, 6)) * comb(46, 7)
        print(f"  dealer two+ jacks: {jacks:,} (closed form {closed:,}): {jacks == closed}")
    win, loss = int(counts.br_win.sum()), int(counts.br_loss.sum())
    print(f"  best response: win {win:,} push {int(counts.br_push.sum()):,} loss {loss:,}")
    bwin, bloss = int(counts.blind_win.sum()), int(counts.blind_loss.sum())
    print(f"  blind (gli vs gli): win {bwin:,} push {int(counts.blind_push.sum()):,} "
          f"loss {bloss:,}")  # fmt: skip
    steps.report()


if __name__ == "__main__":
    main()
