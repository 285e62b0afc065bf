"""Passes over the inclusion-exclusion levels that add into per-class counts (the per-hand and
per-dealer tables): a level at a time from the level cache, its orbits cut into slices and
parts for the threads, the pages of each slice's families given back once they are read."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence

import numpy as np
from joblib import Parallel, delayed

from enumerate.cache import release_pages
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.cache import level_arrays
from enumerate.tables import HandTable


def split_orbits(level: LevelArrays, parts: int, first: int = 0, stop: int | None = None,
           ) -> list[np.ndarray]:  # fmt: skip
    """Orbit ids ``first <= s < stop`` of a level in ``parts`` runs of about equal item
    counts."""
    stop = len(level) if stop is None else stop
    off = level.offsets
    cuts = np.searchsorted(off, np.linspace(off[first], off[stop], parts + 1))
    cuts = np.clip(cuts, first, stop)
    cuts[0], cuts[-1] = first, stop
    return [np.arange(a, b, dtype=np.int64) for a, b in itertools.pairwise(cuts)]


SLICE_ITEMS = 1 << 25  # a level's families are run in slices of about this many items


def _slices(level: LevelArrays, items: int = SLICE_ITEMS) -> list[tuple[int, int]]:
    """Runs ``(first, stop)`` of a level's orbits of about ``items`` items each."""
    n = len(level)
    pieces = max(1, -(-int(level.offsets[-1]) // items))
    cuts = np.searchsorted(level.offsets, np.linspace(0, level.offsets[-1], pieces + 1))
    cuts = np.unique(np.clip(cuts, 0, n))
    cuts[0], cuts[-1] = 0, n
    return [(int(a), int(b)) for a, b in itertools.pairwise(cuts) if b > a]


def over_levels(
    table: HandTable,
    n_jobs: int,
    work: Callable[[LevelArrays, np.ndarray, int], int],
    what: str,
    parts_of: Callable[[LevelArrays, int, int], list[np.ndarray]] | None = None,
    timings: dict[int, float] | None = None,
    use_cache: bool = True,
    levels: Sequence[int] = range(8),
) -> None:
    """Run ``work(level, orbit ids, part)`` over the levels k of ``levels`` (from the level cache,
    ``levels.cache``), in threads; fail with an AssertionError naming the level when the parts
    met class weights that did not divide by the orbit size (``work`` returns their number;
    ``kernels.records.merge_family``). ``timings[k]``: seconds of level k.

    A level's orbits are cut into slices (``_slices``), each slice into ``n_jobs`` parts of
    about equal size (or ``parts_of(level, first, stop)``); thread j runs its part of every
    slice in turn and gives back the pages of a slice's families when it is done with it
    (``release_pages``): the largest levels hold a gigabyte of families, of which only the
    slices the threads are in are then resident. The threads do not wait for each other at
    the end of a slice: pages one gives back that the other still reads are mapped again
    from the page cache."""

    def run_part(level: LevelArrays, plan: list[tuple[int, int, list[np.ndarray]]],
                 j: int) -> int:  # fmt: skip
        inexact = 0
        for first, stop, parts in plan:
            inexact += work(level, parts[j], j)
            release_pages(level.items, int(level.offsets[first]), int(level.offsets[stop]))
        return inexact

    with Parallel(n_jobs=n_jobs, backend="threading") as par:
        for k in levels:
            t0 = time.perf_counter()
            level, _ = level_arrays(table, k, use_cache=use_cache)
            plan = [(first, stop, split_orbits(level, n_jobs, first, stop) if parts_of is None
                     else parts_of(level, first, stop)) for first, stop in _slices(level)]
            n_parts = len(plan[0][2])
            if any(len(parts) != n_parts for _, _, parts in plan):
                raise AssertionError(f"{what} level {k}: slices cut into unequal numbers of parts")
            inexact = sum(par(delayed(run_part)(level, plan, j) for j in range(n_parts)))
            if inexact:  # not an assert statement: this check must survive python -O
                raise AssertionError(
                    f"{what} level {k}: {inexact} class weights did not divide by the orbit "
                    "size (a bookkeeping bug in the levels or the kernels)"
                )
            del level
            if timings is not None:
                timings[k] = time.perf_counter() - t0
