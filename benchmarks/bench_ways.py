"""Benchmark: every registered house way's table and the player table of the full deck, from
an empty cache folder; then gli against trump-plaza and the dominated settings of every way.

Budget (house-way issue): under 60 s wall per house way for all 6,972,147 classes on 2 cores.
numba compiles a way's apply kernel once per process (``_apply``, or ``_apply_read`` shared by
every reading of a way with named readings such as gli: it takes the way's ``choose`` as an
argument, so it is not cached on disk); the first step compiles every way on a small deck so
that the full-deck figures measure the work, and the compile time is shown on its own.
``PAIGOW_BENCH_DECK`` runs a smaller deck (e.g. ``TJQKA:cdh+joker``, to try the script). Exits 1
when a check fails: fresh and cached tables, one row per class, and the hand counts of the
diff and of the dominated settings adding up.
"""

from __future__ import annotations

import os
import sys
import tempfile
from fractions import Fraction
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps


def _mb(path: Path) -> str:
    return f"{path.stat().st_size / 2**20:.0f} MB on disk"


def _pct(x: Fraction) -> str:
    return f"{100 * float(x):.4f}%"


def main() -> None:
    os.environ["PAIGOW_CACHE_DIR"] = tempfile.mkdtemp(prefix="paigow-bench-ways-")
    from analysis.waylab.ways import diff_ways, dominated_by_rule, dominated_counts
    from enumerate.houseways import registered_ways
    from enumerate.rules import Deck, Rules
    from enumerate.tables import hand_table
    from enumerate.waytables import player_cache_path, player_table, way_cache_path, way_table

    ways = registered_ways()
    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    steps = Steps(f"house-way and player tables from nothing, deck {deck.name}")
    checks = Checks()
    small = Deck.parse("A2345:cd+joker")
    with steps.step("compile kernels (small deck)") as info:
        for way in ways:
            way_table(way, small, use_cache=False)
        player_table(small, use_cache=False)
        info["note"] = f"{len(ways)} ways: {', '.join(w.name for w in ways)}"
    hands = steps.run("hand table (prerequisite)", lambda: hand_table(deck))
    print(f"    {len(hands):,} classes, {hands.total:,} hands")
    fresh = {}
    for way in ways:
        with steps.step(f"way table {way.name}: apply + Parquet") as info:
            t = way_table(way, deck)
            fresh[way.name] = (not t.from_cache, len(t))
            info["note"] = _mb(way_cache_path(way, deck, Rules()))
            del t
    with steps.step("player table: frontiers + Parquet") as info:
        p = player_table(deck)
        player_fresh = not p.from_cache
        info["note"] = (
            f"{int(p.size.sum(dtype='int64')):,} frontier points, widest {p.high.shape[1]}; "
            + _mb(player_cache_path(deck, Rules()))
        )
        del p
    with steps.step("way table gli from cache"):
        gli_cached = way_table("gli", deck).from_cache
    with steps.step("player table from cache"):
        player_cached = player_table(deck).from_cache
    diff = steps.run("diff-ways gli trump-plaza",
                     lambda: diff_ways("gli", "trump-plaza", deck, hands=hands))  # fmt: skip
    dominated = steps.run(
        "dominated settings, every way", lambda: dominated_counts(ways, deck, hands=hands)
    )
    by_rule = steps.run("dominated settings of gli by rule",
                        lambda: dominated_by_rule("gli", deck, hands=hands))  # fmt: skip
    steps.report()

    print()
    for name, (built, rows) in fresh.items():
        checks.check(f"way table {name} built fresh, one row per class",
                     built and rows == len(hands), f"{rows:,} rows")  # fmt: skip
    checks.check("player table built fresh", player_fresh)
    checks.check("way table gli and player table read back from the cache",
                 gli_cached and player_cached)  # fmt: skip
    n_hands = comb(deck.size, 7)
    checks.check("diff: hands = C(n, 7) = alike + differently",
                 diff.total == n_hands == diff.same + diff.different,
                 f"{diff.total:,} = {diff.same:,} + {diff.different:,}")  # fmt: skip
    checks.check("diff: the rows add up to the hands set differently",
                 int(diff.rows["hands"].sum()) == diff.different)  # fmt: skip
    gli_dominated = int(dominated.loc[dominated["way"] == "gli", "hands"].sum())
    checks.check("dominated settings of gli: the rules add up to the way's count",
                 int(by_rule["hands"].sum()) == gli_dominated, f"{gli_dominated:,}")  # fmt: skip

    print(f"\ngli vs trump-plaza, {diff.total:,} hands:")
    print(f"  set differently: {diff.different:,} ({_pct(Fraction(diff.different, diff.total))})")
    print(f"  set alike:       {diff.same:,}")
    for r in diff.rows.head(8).to_dict("records"):
        print(f"  {r['hands']:>10,}  gli [{r['a_rule']}]  vs  trump-plaza [{r['b_rule']}]")
    if len(diff.rows) > 8:
        print(f"  ... {len(diff.rows) - 8} more pairs of rules")
    print("\nhands set on a dominated setting:")
    for r in dominated.to_dict("records"):
        ex = f"  e.g. {r['example']} with {r['front']} in front" if r["hands"] else ""
        print(f"  {r['way']:<14} {r['hands']:>10,} ({_pct(r['share'])}){ex}")
    for r in by_rule.to_dict("records"):
        print(f"    gli {r['hands']:>8,}  [{r['rule']}]")
    checks.finish()


if __name__ == "__main__":
    main()
