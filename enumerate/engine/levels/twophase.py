"""A pass over inclusion-exclusion levels in two phases, for a table that adds each family's
answers into the rows of its classes (the per-hand table: ``perhand.phases``).

Phase one: the threads split the level's families, and each writes the answers of its
families (a row per group met) and an item per class (the class, its factor ``sign * occ`` and
where its group's row starts) into a part of the arena of its own. Phase two: the threads
split the classes, in runs cut afresh each round to hold about as many of the round's items
(``_even_runs``), and each adds every part's items of its classes into the one set of counts,
in the order of the classes (``class_order``): the counts are read and written in one sweep of
increasing addresses instead of a cache miss per row, no two threads write one row, and one
set of counts serves both threads. Then the next families, until the level is done.

What a table answers and adds is its own (``TwoPhaseWork``); this module holds the arena, the
order of the items and the loop. The per-dealer table stays in one phase: its threads split
the families with no work done twice and add into counts of their own, and in two phases the
sort and the second pass would cost more than the ordered adds save.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from joblib import Parallel, delayed
from numba import njit

from enumerate.cache import release_pages
from enumerate.engine.kernels.sorting import radix_pass
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.cache import level_arrays
from enumerate.engine.levels.passes import split_orbits
from enumerate.tables import HandTable

# Items of a thread's part of the arena (13 bytes each, and 16 for ordering them) and int32
# entries of its rows (128 MB), both grown for a larger family. A larger arena adds more items
# of each class in one sweep of the counts, so fewer of a class's rows are fetched again, up to
# a size where the arena itself costs more than it saves and raises the peak memory; 2^22 items
# is close to the fastest size and leaves the report's optimal step the memory a larger arena
# would take.
ARENA_ITEMS = 1 << 22
ARENA_ENTRIES = 1 << 25
RADIX_BITS = 11  # digits of the sort of phase two (2,048 counters)


@dataclass
class Arena:
    """What phase one wrote for phase two: thread j writes items ``j * items ..`` and rows
    ``j * entries ..``; ``keys`` and ``tmp`` are each thread's buffers for ordering items."""

    parts: int
    items: int  # items of a part
    entries: int  # row entries of a part
    item_class: np.ndarray = field(init=False)  # int32
    item_factor: np.ndarray = field(init=False)  # int8: the inclusion-exclusion sign x occ
    item_row: np.ndarray = field(init=False)  # int64: where the item's group's row starts
    rows: np.ndarray = field(init=False)  # int32
    segments: np.ndarray = field(init=False)  # (parts, 2): first item and items written
    keys: list[np.ndarray] = field(init=False)
    tmp: list[np.ndarray] = field(init=False)

    def __post_init__(self) -> None:
        n = self.parts * self.items
        self.item_class = np.empty(n, dtype=np.int32)
        self.item_factor = np.empty(n, dtype=np.int8)
        self.item_row = np.empty(n, dtype=np.int64)
        self.rows = np.empty(self.parts * self.entries, dtype=np.int32)
        self.segments = np.zeros((self.parts, 2), dtype=np.int64)
        self.segments[:, 0] = np.arange(self.parts) * self.items
        self.keys = [np.empty(n, dtype=np.int64) for _ in range(self.parts)]
        self.tmp = [np.empty(n, dtype=np.int64) for _ in range(self.parts)]

    def grown(self) -> Arena:
        """Twice as large: a family did not fit in a part of it empty."""
        return Arena(self.parts, 2 * self.items, 2 * self.entries)

    def part(self, j: int) -> tuple[np.ndarray, ...]:
        """Thread j's items and rows: (item_class, item_factor, item_row, rows)."""
        i = slice(j * self.items, (j + 1) * self.items)
        e = slice(j * self.entries, (j + 1) * self.entries)
        return self.item_class[i], self.item_factor[i], self.item_row[i], self.rows[e]


class TwoPhaseWork(Protocol):
    """A table's side of the two phases."""

    def begin(self, level: LevelArrays, parts: list[np.ndarray]) -> None:
        """Before the level: thread j answers the orbits ``parts[j]``."""

    def answer(self, j: int, start: int, part: tuple[np.ndarray, ...]) -> tuple[int, int, int]:
        """Phase one for thread j: its families from ``parts[j][start]`` on, as many as fit
        in ``part`` (``Arena.part``), each written whole or not at all, the item rows
        relative to the part's rows; returns (index of the first family not written, items
        written, class weights that did not divide by their orbit size)."""
        ...

    def add(self, arena: Arena, first: int, stop: int, j: int) -> None:
        """Phase two for thread j: every part's items of the classes ``first <= c < stop``."""


def run_two_phases(
    table: HandTable,
    work: TwoPhaseWork,
    levels: Sequence[int],
    n_jobs: int,
    what: str,
    timings: dict[int, float] | None = None,
    use_cache: bool = True,
) -> None:
    """The levels ``levels`` in two phases on ``n_jobs`` threads, the classes of phase two cut
    afresh each round into runs holding about as many of the round's items each
    (``_count_items``). Fails with an AssertionError naming the level when a class weight did
    not divide by its orbit size (a bug, never a user error)."""
    arena = [Arena(n_jobs, ARENA_ITEMS, ARENA_ENTRIES)]  # replaced when it grows
    n = len(table)
    # each thread counts its items per bin of 2^shift classes (at most 4,096 bins); the
    # round's runs are cut between bins
    shift = max(0, (n - 1).bit_length() - 12)
    counts = np.zeros((n_jobs, ((n - 1) >> shift) + 1), dtype=np.int64)
    with Parallel(n_jobs=n_jobs, backend="threading") as par:
        for k in levels:
            t0 = time.perf_counter()
            level, _ = level_arrays(table, k, use_cache=use_cache)
            parts = split_orbits(level, n_jobs)
            work.begin(level, parts)
            cursor = [0] * n_jobs

            def answer(j: int, parts: list[np.ndarray] = parts,
                       cursor: list[int] = cursor) -> tuple[int, int, int]:  # fmt: skip
                a, start = arena[0], cursor[j]
                stop, n_items, inexact = work.answer(j, start, a.part(j))
                a.item_row[j * a.items : j * a.items + n_items] += j * a.entries
                _count_items(a.item_class, j * a.items, n_items, shift, counts[j])
                a.segments[j, 1] = n_items
                cursor[j] = stop
                return inexact, start, stop

            inexact = 0
            while any(cursor[j] < len(parts[j]) for j in range(n_jobs)):
                done = par(delayed(answer)(j) for j in range(n_jobs))
                if all(stop == start for _, start, stop in done):
                    # the next family of every thread that has one did not fit in its part
                    arena[0] = arena[0].grown()
                    continue
                cuts = _even_runs(counts, shift, n)
                par(delayed(work.add)(arena[0], *cuts[j], j) for j in range(n_jobs))
                for j, (bad, start, stop) in enumerate(done):
                    inexact += bad
                    if stop > start:  # the families read: their pages go back
                        release_pages(level.items, int(level.offsets[parts[j][start]]),
                                      int(level.offsets[parts[j][stop - 1] + 1]))  # fmt: skip
            if inexact:  # not an assert statement: this check must survive python -O
                raise AssertionError(
                    f"{what} level {k}: {inexact} class weights did not divide by the orbit "
                    "size (a bookkeeping bug in the levels or the kernels)"
                )
            if timings is not None:
                timings[k] = time.perf_counter() - t0


@njit(cache=True, nogil=True)
def _count_items(item_class, first, count, shift, out):
    """``out[b]``: how many of the items ``first ..`` (``count`` of them) are of classes of
    bin ``b`` (classes ``b << shift ..``)."""
    out[:] = 0
    for i in range(first, first + count):
        out[item_class[i] >> shift] += 1


def _even_runs(counts: np.ndarray, shift: int, n: int) -> list[tuple[int, int]]:
    """Runs of the ``n`` classes, one per thread, cut between bins, holding about as many of
    the round's items each (``counts``: each thread's items per bin). Fixed runs of about
    equal work over the whole table would leave a thread waiting for the other in phase two,
    as a round's items fall unevenly between them."""
    per_bin = counts.sum(axis=0)
    cum = np.zeros(len(per_bin) + 1, dtype=np.int64)
    np.cumsum(per_bin, out=cum[1:])
    return [(min(a << shift, n), min(b << shift, n)) for a, b in class_ranges(cum, len(counts))]


def class_ranges(work: np.ndarray, parts: int) -> list[tuple[int, int]]:
    """``parts`` runs of classes ``(first, stop)`` of about equal work, ``work`` the
    cumulative work before each class (n + 1 entries, from 0)."""
    n = len(work) - 1
    cuts = np.searchsorted(work, np.linspace(0, work[-1], parts + 1)).clip(0, n)
    cuts[0], cuts[-1] = 0, n
    return [(int(a), int(b)) for a, b in itertools.pairwise(cuts)]


@njit(cache=True, nogil=True)
def class_order(item_class, segments, first, stop, keys, tmp):
    """The items of every part (``segments[j]`` = first item, items) of the classes
    ``first <= c < stop``, in the order of their classes: returns (the array holding
    ``(c - first) << 32 | item`` sorted, their number). A radix sort, least significant digit
    first, ``RADIX_BITS`` a pass, each pass stable (``keys`` and ``tmp`` its buffers)."""
    m = 0
    for j in range(segments.shape[0]):
        for i in range(segments[j, 0], segments[j, 0] + segments[j, 1]):
            c = item_class[i]
            if first <= c < stop:
                keys[m] = (np.int64(c - first) << 32) | i
                m += 1
    span = stop - first
    bits = 1
    while (span - 1) >> bits:
        bits += 1
    mask = (1 << RADIX_BITS) - 1
    counts = np.zeros(mask + 2, dtype=np.int64)
    src, dst = keys, tmp
    for shift in range(32, 32 + bits, RADIX_BITS):
        radix_pass(src, dst, m, shift, mask, counts)
        src, dst = dst, src
    return src, m
