"""Benchmark: Monte Carlo cross-check, full deck, gli for dealer and player, all dealer flags.

Deals 10^7 random deals (seeded), evaluates both hands from their cards and settles them as the
brute force does; prints blind and best-response win/push/loss with standard errors, deals per
second and wall time. With ``PAIGOW_EXACT_COUNTS`` set to a Parquet file of exact counts
(``pyarrow.parquet.write_table(counts.to_arrow(), path)`` for the same keys), every cell is
compared by its z-score. A second, shorter run plays trump-plaza against trump-plaza blind, next
to the Wizard of Odds simulation (player 28.55%, tie 41.47%, banker 29.98%).

    python benchmarks/bench_simulate.py [n_deals [n_deals_trump_plaza [seed]]]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Steps

if TYPE_CHECKING:
    from enumerate.engine.counts import PairCounts

WIZARD_TRUMP_PLAZA = {"win": 0.2855, "push": 0.4147, "loss": 0.2998}


def _print_outcomes(counts: PairCounts) -> None:
    from analysis.simulate import outcome_table

    for _, r in outcome_table(counts).iterrows():
        print(f"    {r['play']:<13} {r['outcome']:<4} {r['probability']:.6f} "
              f"± {r['se']:.6f} (se)   {r['count']:>12,}")  # fmt: skip


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    n = args[0] if args else 10_000_000
    n_tp = args[1] if len(args) > 1 else 2_000_000
    seed = args[2] if len(args) > 2 else 20261130
    from analysis.simulate import compare_counts, outcome_table, simulate_counts
    from enumerate.engine import build_keys
    from enumerate.engine.counts import PairCounts
    from enumerate.houseways import get_way
    from enumerate.rules import Deck, Rules
    from enumerate.tables import hand_table
    from enumerate.vocabulary import N_PLAYER_CLASSES

    steps = Steps(f"simulation, full deck, gli vs gli, flags 31, {n:,} deals, seed {seed}")
    gli, tp, deck, rules = get_way("gli"), get_way("trump-plaza"), Deck(), Rules()
    table = steps.run("hand table (cache)", hand_table)
    keys = steps.run("keys: way + frontier tables (cache)", lambda: build_keys(table, gli))
    bits = keys.dealer_class_bits
    print(f"    dealer classes: {len(bits)}")
    steps.run("warm-up (numba compile, 1,000 deals)",
              lambda: simulate_counts(deck, rules, gli, gli, bits, 31, 1_000, seed))  # fmt: skip
    t0 = time.perf_counter()
    sim = steps.run(f"simulate {n:,} deals",
                    lambda: simulate_counts(deck, rules, gli, gli, bits, 31, n, seed))  # fmt: skip
    wall = time.perf_counter() - t0
    print(f"\n  gli vs gli, {sim.total:,} deals in {wall:.1f} s = {sim.total / wall:,.0f} deals/s")
    _print_outcomes(sim)

    exact_path = os.environ.get("PAIGOW_EXACT_COUNTS")
    if exact_path:
        import pyarrow.parquet as pq

        exact = PairCounts.from_arrow(pq.read_table(exact_path), N_PLAYER_CLASSES, len(bits))
        cmp = steps.run("compare with exact counts", lambda: compare_counts(sim, exact, bits))
        z = cmp.table
        print(f"\n  exact counts: {exact_path} ({exact.total:,} pairs)")
        head = z[z["cell"].str.endswith("[all]")]
        print("    cell               exact       simulated   se          z")
        for _, r in head.iterrows():
            print(f"    {r['cell']:<18} {r['exact']:.8f}  {r['simulated']:.8f}  "
                  f"{r['se']:.8f}  {r['z']:+.2f}")  # fmt: skip
        worst = z.reindex(z["z"].abs().sort_values(ascending=False).index).head(5)
        print("    largest |z|:")
        for _, r in worst.iterrows():
            print(f"      {r['z']:+7.2f}  {r['cell']}  (exact {r['exact']:.3g}, "
                  f"expected {r['exact'] * sim.total:,.1f} deals)")  # fmt: skip
        print(f"    cells: {len(z)}, |z| > 4: {int((z['z'].abs() > 4).sum())}, "
              f"all within 4 se: {cmp.ok}")  # fmt: skip

    t0 = time.perf_counter()
    # one dealer class (flag_mask 0): only the blind totals are printed
    tp_sim = steps.run(f"simulate trump-plaza vs trump-plaza, {n_tp:,} deals",
                       lambda: simulate_counts(deck, rules, tp, tp, (0,), 0, n_tp, seed + 1))
    tp_wall = time.perf_counter() - t0
    print(f"\n  trump-plaza vs trump-plaza, blind, {n_tp:,} deals in {tp_wall:.1f} s "
          f"= {n_tp / tp_wall:,.0f} deals/s")  # fmt: skip
    t = outcome_table(tp_sim)
    for _, r in t[t["play"] == "blind"].iterrows():
        woo = WIZARD_TRUMP_PLAZA[r["outcome"]]
        print(f"    {r['outcome']:<4} {r['probability']:.5f} ± {r['se']:.5f}   Wizard of Odds "
              f"{woo:.4f}   difference {(r['probability'] - woo) / r['se']:+.1f} se")  # fmt: skip
    steps.report()


if __name__ == "__main__":
    main()
