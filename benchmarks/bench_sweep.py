"""Benchmark: ``paigow sweep`` of {gli, trump-plaza} x {wheel second, low} x {traditional, face-up,
dealer-open} on the full deck, from an empty shard cache; wall time on this machine's cores.

The 12 cells need 4 engine runs (one per house way and wheel, dealer flags 7 covering the three
variants); the runs of one wheel share every level's families. Environment:

- ``PAIGOW_BENCH_DECK``: the deck (default ``full``), e.g. ``TJQKA:cdh+joker`` for a quick run;
- ``PAIGOW_BENCH_SCHEDULER``: a Dask scheduler address (default: local threads);
  ``PAIGOW_BENCH_BACKEND=dask`` without an address starts a local cluster of one worker
  process per core;
- ``PAIGOW_BENCH_TMP``: where the fresh cache folder is made (on a cluster: shared storage).

The hand, way and player tables already in the cache are linked into the fresh folder (the
missing ones are built in the "tables" step); shards and levels start empty. The folder is
removed at the end unless ``PAIGOW_BENCH_KEEP`` is set. Exits 1 when a check fails: 12 cells
from 4 engine runs, each run counting every deal of the deck, and every cell priced.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from fractions import Fraction
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Checks, Steps

VARIANTS = ["traditional", "face-up", "dealer-open"]
WAYS = ["gli", "trump-plaza"]
WHEELS = ["second", "low"]


def fresh_cache() -> Path:
    """A new cache folder holding links to the tables of the current one."""
    from enumerate.cache import cache_dir

    old = cache_dir()
    new = Path(tempfile.mkdtemp(prefix="paigow-sweep-", dir=os.environ.get("PAIGOW_BENCH_TMP")))
    for path in old.glob("*.parquet"):
        (new / path.name).symlink_to(path.resolve())
    os.environ["PAIGOW_CACHE_DIR"] = str(new)
    return new


def main() -> None:
    from analysis.pricing.sweep import sweep, variant_flag_mask
    from enumerate.engine import build_keys
    from enumerate.houseways import get_way
    from enumerate.rules import Deck, Rules
    from enumerate.tables import hand_table

    deck = Deck.parse(os.environ.get("PAIGOW_BENCH_DECK", "full"))
    scheduler = os.environ.get("PAIGOW_BENCH_SCHEDULER") or None
    backend = os.environ.get("PAIGOW_BENCH_BACKEND") or ("dask" if scheduler else "local")
    where = scheduler or ("local cluster" if backend == "dask" else "threads")
    steps = Steps(f"sweep, deck {deck.name}, {len(VARIANTS) * len(WAYS) * len(WHEELS)} cells, "
                  f"backend {backend} ({where})")  # fmt: skip
    folder = fresh_cache()
    print(f"  cache folder: {folder}")
    mask = 0
    for v in VARIANTS:
        mask |= variant_flag_mask(v)

    def tables() -> None:
        for wheel in WHEELS:
            table = hand_table(deck, Rules(wheel=wheel))  # type: ignore[arg-type]
            for way in WAYS:
                build_keys(table, get_way(way), flag_mask=mask)

    steps.run("tables: hands, ways, frontiers (cache)", tables)
    result = steps.run(
        "sweep: 4 engine runs + pricing",
        lambda: sweep(VARIANTS, WAYS, WHEELS, deck, backend=backend, scheduler=scheduler),
        note=f"(dealer flags {mask})",
    )
    print()
    print(result.render("md"))
    print(f"  sweep wall: {result.seconds:.1f} s")
    checks = Checks()
    n_cells = len(VARIANTS) * len(WAYS) * len(WHEELS)
    checks.check("cells", len(result.edges) == len(result.table) == n_cells,
                 f"{len(result.edges)} (expected {n_cells})")  # fmt: skip
    n_runs = len(WAYS) * len(WHEELS)  # one per house way and wheel, shared by the variants
    checks.check("engine runs", result.n_runs == n_runs, f"{result.n_runs} (expected {n_runs})")
    deals = comb(deck.size, 7) * comb(deck.size - 7, 7)
    checks.check("every run counts every deal",
                 all(d.total == deals for d in result.deals.values()), f"{deals:,}")  # fmt: skip
    checks.check("every cell has an exact house edge",
                 all(isinstance(e, Fraction) for e in result.edges.values()))  # fmt: skip
    steps.report()
    if not os.environ.get("PAIGOW_BENCH_KEEP"):
        shutil.rmtree(folder, ignore_errors=True)  # links only: the linked tables stay
    checks.finish()


if __name__ == "__main__":
    main()
