"""The per-hand pass over a level in two phases (``perhand_kernels.per_hand_answers`` and
``per_hand_adds``), for the levels of many families.

Phase one: the threads split the level's families, and each writes the answers of its families
(a row per player group met, built from the family's dealer grid) and an item per class into
an arena of its own. Phase two: the threads split the classes, and each adds every arena's
items of its classes into the one set of counts. Then the next families, until the level is
done. In one phase (``perhand_kernels.per_hand_orbits``, where each thread owns a range of the
classes and visits every family) each thread built every family's grid and answered the
groups of its classes, so that a group met by classes of both threads was answered twice.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed

from enumerate.cache import release_pages
from enumerate.engine.kernels import family_buffers, make_scratch
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levelcache import level_arrays
from enumerate.engine.levelpass import split_orbits
from enumerate.engine.perhand_kernels import per_hand_adds, per_hand_answers
from enumerate.tables import HandTable

ARENA_ITEMS = 1 << 20  # items of a thread's part of the arena (9 bytes each)
ARENA_ENTRIES = 1 << 23  # int32 entries of its rows (32 MB); both grown for a larger family


@dataclass
class _Arena:
    """What phase one wrote for phase two: thread j writes items ``j * items .. `` and rows
    ``j * entries ..``; ``keys`` and ``tmp`` are each thread's buffers for sorting items."""

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

    def grown(self) -> _Arena:
        """Twice as large: a family did not fit in a part of it empty."""
        return _Arena(self.parts, 2 * self.items, 2 * self.entries)

    def part(self, j: int) -> tuple[np.ndarray, ...]:
        """Thread j's items and rows."""
        i, e = slice(j * self.items, (j + 1) * self.items), slice(j * self.entries,
                                                                   (j + 1) * self.entries)
        return self.item_class[i], self.item_factor[i], self.item_row[i], self.rows[e]


def two_phase_levels(
    table: HandTable,
    keys: EngineKeys,
    levels: Sequence[int],
    n_jobs: int,
    blocks: tuple[np.ndarray, np.ndarray],
    point_offset: np.ndarray,
    ranges: list[tuple[int, int]],
    timings: dict[int, float] | None = None,
    use_cache: bool = True,
) -> None:
    """Add the levels ``levels`` into ``blocks`` (the per-hand counts, a row per class and a row
    per frontier point), on ``n_jobs`` threads, thread j adding the classes ``ranges[j]`` in
    phase two. Fails with an AssertionError naming the level when a class weight did not
    divide by its orbit size (a bug, never a user error)."""
    n_d = keys.n_dealer_classes
    prep = keys.player_groups[1]
    flat_class, flat_point = (b.reshape(-1) for b in blocks)
    arena = [_Arena(n_jobs, ARENA_ITEMS, ARENA_ENTRIES)]  # replaced when it grows
    with Parallel(n_jobs=n_jobs, backend="threading") as par:
        for k in levels:
            t0 = time.perf_counter()
            level, _ = level_arrays(table, k, use_cache=use_cache)
            parts = split_orbits(level, n_jobs)
            sizes = np.diff(level.offsets)
            largest = int(sizes.max()) if len(sizes) else 1
            buffers = [family_buffers(level.offsets, part)[1:] for part in parts]
            scratch = [make_scratch(largest, 1, n_d, len(prep)) for _ in parts]
            cursor = [0] * n_jobs

            def answer(j: int, level=level, parts=parts, buffers=buffers, scratch=scratch,
                       cursor=cursor) -> tuple[int, int, int]:  # fmt: skip
                """Phase one for thread j: its next families, as many as fit in its part of
                the arena; returns the inexact class weights met and the range of the
                families written (indices into its orbits)."""
                start = cursor[j]
                fam, frec, mult, occ = buffers[j]
                a = arena[0]
                item_class, item_factor, item_row, rows = a.part(j)
                stop, n_items, _used, inexact = per_hand_answers(
                    level.offsets, level.items, parts[j], start, level.sign, level.orbit_size,
                    keys.packed, keys.player_high, keys.player_low, keys.frontier_size,
                    keys.frontier_high, keys.frontier_low, prep, n_d, scratch[j], fam, frec,
                    mult, occ, item_class, item_factor, item_row, rows,
                )  # fmt: skip
                item_row[:n_items] += j * a.entries  # where its rows start in the arena
                a.segments[j, 1] = n_items
                cursor[j] = stop
                return inexact, start, stop

            def add(j: int) -> None:
                """Phase two for thread j: every part's items of its classes."""
                a = arena[0]
                per_hand_adds(a.item_class, a.item_factor, a.item_row, a.segments, a.rows,
                              point_offset, keys.frontier_size, n_d, flat_class, flat_point,
                              *ranges[j], a.keys[j], a.tmp[j])  # fmt: skip

            inexact = 0
            while any(cursor[j] < len(parts[j]) for j in range(n_jobs)):
                done = par(delayed(answer)(j) for j in range(n_jobs))
                if all(stop == start for _, start, stop in done):
                    # the next family of every thread that has one did not fit in its part
                    arena[0] = arena[0].grown()
                    continue
                par(delayed(add)(j) for j in range(n_jobs))
                for j, (bad, start, stop) in enumerate(done):
                    inexact += bad
                    if stop > start:  # the families read: their pages go back
                        release_pages(level.items, int(level.offsets[parts[j][start]]),
                                      int(level.offsets[parts[j][stop - 1] + 1]))  # fmt: skip
            if inexact:  # not an assert statement: this check must survive python -O
                raise AssertionError(
                    f"per-hand level {k}: {inexact} class weights did not divide by the orbit "
                    "size (a bookkeeping bug in the levels or the kernels)"
                )
            if timings is not None:
                timings[k] = time.perf_counter() - t0
