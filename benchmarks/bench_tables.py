"""Benchmark: build every hand table of the full deck from nothing (empty cache folder).

Budget: under 60 s wall and 4 GB on 2 cores. Numba's compiled kernels are cached on
disk after the first run; the first step warms them so the figures measure the work. Exits 1
when a check fails: the counts of five-card ranks, suit classes and hands, and the direct walk
of every hand equal to the class table.
"""

from __future__ import annotations

import os
import sys
import tempfile
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps

FIVE_CARD_RANKS = 7_463  # the 7,462 of a 52-card deck, and five aces
SEVEN_CARD_CLASSES = 6_972_147  # suit classes of seven cards of the 53-card deck


def main() -> None:
    os.environ["PAIGOW_CACHE_DIR"] = tempfile.mkdtemp(prefix="paigow-bench-")
    from enumerate.evaluate import five_card_table
    from enumerate.rules import Deck, Rules
    from enumerate.symmetry import orbits
    from enumerate.tables import hand_table
    from enumerate.vocabulary import SevenCardClass
    from enumerate.walk import walk_classes

    steps = Steps("hand tables from nothing, full 53-card deck")
    checks = Checks()
    small = Deck.parse("A2345:cd+joker")
    steps.run("compile kernels (small deck)", lambda: hand_table(small, use_cache=False).settings)
    five_card_table.cache_clear()
    orbits.cache_clear()
    five = steps.run("five-card table (2,869,685 hands)", lambda: five_card_table(Rules()))
    checks.check("distinct five-card ranks", five.n_ids == FIVE_CARD_RANKS,
                 f"{five.n_ids:,} (expected {FIVE_CARD_RANKS:,})")  # fmt: skip
    with steps.step("suit classes, k = 0..7") as info:
        sizes = [len(orbits(Deck.full(), k)) for k in range(8)]
        info["note"] = str(sizes)
    orbits.cache_clear()
    table = steps.run("hand table: classes + classify + Parquet", lambda: hand_table())
    steps.run("21 settings of every class", lambda: table.settings)
    again = steps.run("hand table from cache", lambda: hand_table())
    with steps.step("direct walk of all 154,143,080 hands") as info:
        counts, _ = walk_classes()
        info["note"] = f"{int(counts.sum()):,} hands"
    steps.report()
    print()
    hands = comb(53, 7)
    checks.check("suit classes of seven cards", sizes[7] == len(table) == SEVEN_CARD_CLASSES,
                 f"{sizes[7]:,} orbits, {len(table):,} rows "
                 f"(expected {SEVEN_CARD_CLASSES:,})")  # fmt: skip
    checks.check("hands in the table", table.total == hands,
                 f"{table.total:,} (C(53, 7) = {hands:,})")  # fmt: skip
    checks.check("the second read comes from the cache", again.from_cache)
    checks.check("walked hands", int(counts.sum()) == hands, f"{int(counts.sum()):,}")
    by_class = table.class_counts()
    checks.check("walk class counts = table class counts",
                 [by_class[c] for c in SevenCardClass] == counts.tolist())  # fmt: skip
    checks.finish()


if __name__ == "__main__":
    main()
