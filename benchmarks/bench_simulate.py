"""Benchmark: Monte Carlo cross-check, full deck, gli for dealer and player, all dealer flags.

Deals 10^7 random deals (seeded), evaluates both hands from their cards and settles them as the
brute force does; prints blind and best-response win/push/loss with standard errors, deals per
second and wall time. With ``PAIGOW_EXACT_COUNTS`` set to a Parquet file of exact counts
(``pyarrow.parquet.write_table(counts.to_arrow(), path)`` for the same keys), every cell is
compared by its z-score. A second, shorter run plays trump-plaza against trump-plaza blind, next
to the Wizard of Odds simulation of that game (its figures are read from data/published, the
``deals.trump-plaza.traditional.*`` entries). ``PAIGOW_BENCH_DECK`` runs a smaller deck (e.g.
``TJQKA:cdh+joker``, to try the script; the published figures are for the full deck and are
then not compared).

Exits 1 when a check fails: the number of deals, every cell within 4 standard errors of the
exact counts (when given), and each trump-plaza outcome within the published tolerance plus 4
standard errors of the published figure.

    python benchmarks/bench_simulate.py [n_deals [n_deals_trump_plaza [seed]]]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps

if TYPE_CHECKING:
    import pandas as pd

    from enumerate.engine.pairs.counts import PairCounts

PUBLISHED_TRUMP_PLAZA = "wizard_trump_plaza.toml"  # the report file of the blind outcomes


def published_trump_plaza() -> dict[str, dict[str, Any]]:
    """The published trump-plaza vs trump-plaza blind outcomes (a report file of
    data/published), by outcome: the lines' value, tolerance and source."""
    import tomllib
    from fractions import Fraction

    from analysis.mathreport.reportfile import PUBLISHED, parse_printed

    doc = tomllib.loads((PUBLISHED / PUBLISHED_TRUMP_PLAZA).read_text())
    defaults = doc.get("defaults", {})
    out = {}
    for raw in doc["line"]:
        line = {**defaults, **raw}
        if line.get("figure") == "probability" and line.get("event") in ("win", "push", "loss"):
            value = parse_printed(line["value"], PUBLISHED_TRUMP_PLAZA).value
            tolerance = Fraction(str(line.get("tolerance", 0)))
            out[line["event"]] = {"value": float(value), "tolerance": float(tolerance),
                                  "source": line.get("source", doc["source"])}  # fmt: skip
    missing = {"win", "push", "loss"} - set(out)
    if missing:
        raise SystemExit(f"data/published/{PUBLISHED_TRUMP_PLAZA} has no {min(missing)} line")
    return out


def check_published(checks: Checks, outcomes: pd.DataFrame,
                    published: dict[str, dict[str, Any]]) -> None:  # fmt: skip
    """Each blind outcome of a simulation within tolerance + 4 se of its published figure."""
    for _, r in outcomes[outcomes["play"] == "blind"].iterrows():
        e = published[r["outcome"]]
        diff = r["probability"] - e["value"]
        allowed = e.get("tolerance", 0) + 4 * r["se"]
        z = diff / r["se"] if r["se"] else float("inf") * (1 if diff >= 0 else -1)
        checks.check(
            f"trump-plaza blind {r['outcome']}", abs(diff) <= allowed,
            f"{r['probability']:.5f} ± {r['se']:.5f}, published {e['value']:.4f} "
            f"± {e.get('tolerance', 0)} ({e['source'].split(':')[0]}), difference "
            f"{z:+.1f} se",
        )  # fmt: skip


def _print_outcomes(counts: PairCounts) -> None:
    from analysis.checks.simulate import outcome_table

    for _, r in outcome_table(counts).iterrows():
        print(f"    {r['play']:<13} {r['outcome']:<4} {r['probability']:.6f} "
              f"± {r['se']:.6f} (se)   {r['count']:>12,}")  # fmt: skip


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    n = args[0] if args else 10_000_000
    n_tp = args[1] if len(args) > 1 else 2_000_000
    seed = args[2] if len(args) > 2 else 20261130
    from analysis.checks.simulate import compare_counts, outcome_table, simulate_counts
    from enumerate.engine import build_keys
    from enumerate.engine.pairs.counts import PairCounts
    from enumerate.houseways import get_way
    from enumerate.rules import Deck, Rules
    from enumerate.tables import hand_table
    from enumerate.vocabulary import ALL_DEALER_EVENTS, N_PLAYER_CLASSES

    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    published = published_trump_plaza()
    checks = Checks()
    flags = ALL_DEALER_EVENTS
    steps = Steps(f"simulation, deck {deck.name}, gli vs gli, flags {flags}, {n:,} deals, "
                  f"seed {seed}")  # fmt: skip
    gli, tp, rules = get_way("gli"), get_way("trump-plaza"), Rules()
    table = steps.run("hand table (cache)", lambda: hand_table(deck))
    keys = steps.run("keys: way + frontier tables (cache)", lambda: build_keys(table, gli))
    bits = keys.dealer_class_bits
    print(f"    dealer classes: {len(bits)}")
    steps.run("warm-up (numba compile, 1,000 deals)",
              lambda: simulate_counts(deck, rules, gli, gli, bits, flags, 1_000, seed))  # fmt: skip
    t0 = time.perf_counter()
    sim = steps.run(f"simulate {n:,} deals",
                    lambda: simulate_counts(deck, rules, gli, gli, bits, flags, n,
                                            seed))  # fmt: skip
    wall = time.perf_counter() - t0
    print(f"\n  gli vs gli, {sim.total:,} deals in {wall:.1f} s = {sim.total / wall:,.0f} deals/s")
    _print_outcomes(sim)
    checks.check("gli vs gli deals", sim.total == n, f"{sim.total:,} of {n:,}")

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
        checks.check("every cell within 4 se of the exact counts", cmp.ok,
                     f"cells: {len(z)}, |z| > 4: {int((z['z'].abs() > 4).sum())}")  # fmt: skip

    t0 = time.perf_counter()
    # one dealer class (flag_mask 0): only the blind totals are printed
    tp_sim = steps.run(f"simulate trump-plaza vs trump-plaza, {n_tp:,} deals",
                       lambda: simulate_counts(deck, rules, tp, tp, (0,), 0, n_tp, seed + 1))
    tp_wall = time.perf_counter() - t0
    print(f"\n  trump-plaza vs trump-plaza, blind, {n_tp:,} deals in {tp_wall:.1f} s "
          f"= {n_tp / tp_wall:,.0f} deals/s")  # fmt: skip
    checks.check("trump-plaza deals", tp_sim.total == n_tp, f"{tp_sim.total:,} of {n_tp:,}")
    if all(Deck.parse(str(e.get("deck", "full"))) == deck for e in published.values()):
        check_published(checks, outcome_table(tp_sim), published)
    else:
        print(f"    (the published figures are for another deck than {deck.name}: not compared)")
    steps.report()
    checks.finish()


if __name__ == "__main__":
    main()
