"""Benchmark: build every hand table of the full deck from nothing (empty cache folder).

Budget (issue 2): under 60 s wall and 4 GB on 2 cores. Numba's compiled kernels are cached on
disk after the first run; the first step warms them so the figures measure the work.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Steps


def main() -> None:
    os.environ["PAIGOW_CACHE_DIR"] = tempfile.mkdtemp(prefix="paigow-bench-")
    from enumerate.evaluate import five_card_table
    from enumerate.rules import Deck, Rules
    from enumerate.symmetry import orbits
    from enumerate.tables import hand_table
    from enumerate.walk import walk_classes

    steps = Steps("hand tables from nothing, full 53-card deck")
    small = Deck.parse("A2345:cd+joker")
    steps.run("compile kernels (small deck)", lambda: hand_table(small, use_cache=False).settings)
    five_card_table.cache_clear()
    orbits.cache_clear()
    five = steps.run("five-card table (2,869,685 hands)", lambda: five_card_table(Rules()))
    print(f"    {five.n_ids} distinct five-card ranks")
    with steps.step("suit classes, k = 0..7") as info:
        sizes = [len(orbits(Deck.full(), k)) for k in range(8)]
        info["note"] = str(sizes)
    orbits.cache_clear()
    table = steps.run("hand table: classes + classify + Parquet", lambda: hand_table())
    steps.run("21 settings of every class", lambda: table.settings)
    again = steps.run("hand table from cache", lambda: hand_table())
    assert again.from_cache
    with steps.step("direct walk of all 154,143,080 hands") as info:
        counts, _ = walk_classes()
        info["note"] = f"{int(counts.sum()):,} hands"
    steps.report()


if __name__ == "__main__":
    main()
