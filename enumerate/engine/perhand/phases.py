"""The per-hand table's side of the two-phase pass (``levels.twophase``): phase one answers a
family's player groups (``perhand.kernels.per_hand_answers``), phase two adds them into the
class and point rows (``per_hand_adds``).

In one phase (``perhand.kernels.per_hand_orbits``, where each thread owns a range of the
classes and visits every family) each thread builds every family's grid and answers the groups
of its classes, so that a group met by classes of both threads is answered twice.
"""

from __future__ import annotations

import numpy as np

from enumerate.engine.kernels.grid import make_scratch
from enumerate.engine.kernels.records import family_buffers
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.twophase import Arena
from enumerate.engine.perhand.kernels import per_hand_adds, per_hand_answers, question_capacity
from enumerate.engine.perhand.sweep import sweep_buffers


class PerHandPhases:
    """``twophase.TwoPhaseWork`` of the per-hand table: the counts ``blocks`` (a row per class,
    a row per frontier point; ``point_offset``: each class's first point row), wins and
    losses by up-set (``cols``: ``AnswerSets.grid_maps``)."""

    def __init__(self, keys: EngineKeys, cols: tuple[np.ndarray, np.ndarray, np.ndarray],
                 blocks: tuple[np.ndarray, np.ndarray],
                 point_offset: np.ndarray) -> None:  # fmt: skip
        self.keys = keys
        self.cols = cols
        self.point_width = blocks[1].shape[1]
        self.flat_class, self.flat_point = (b.reshape(-1) for b in blocks)
        self.point_offset = point_offset
        self.level: LevelArrays | None = None
        self.parts: list[np.ndarray] = []
        self.buffers: list[tuple[np.ndarray, ...]] = []
        self.scratch: list[tuple[np.ndarray, ...]] = []
        self.cell_tot: list[np.ndarray] = []
        self.questions: list[np.ndarray] = []
        self.sweep: list[tuple[np.ndarray, ...]] = []

    def begin(self, level: LevelArrays, parts: list[np.ndarray]) -> None:
        sizes = np.diff(level.offsets)
        largest = int(sizes.max()) if len(sizes) else 1
        k = self.keys
        self.level, self.parts = level, parts
        self.buffers = [family_buffers(level.offsets, part)[1:] for part in parts]
        width = max(k.n_dealer_classes, len(self.cols[0]))  # grid columns: the sets'
        self.scratch = [make_scratch(largest, 1, width, len(k.player_groups[1])) for _ in parts]
        self.cell_tot = [np.zeros(k.n_dealer_classes, dtype=np.int64) for _ in parts]
        n_q = question_capacity(largest, k.frontier_size, k.player_groups[1])
        self.questions = [np.empty(n_q, dtype=np.int64) for _ in parts]
        self.sweep = [sweep_buffers(largest, n_q, len(self.cols[0])) for _ in parts]

    def answer(self, j: int, start: int, part: tuple[np.ndarray, ...]) -> tuple[int, int, int]:
        level, k = self.level, self.keys
        assert level is not None
        fam, frec, mult, occ = self.buffers[j]
        stop, n_items, _used, inexact = per_hand_answers(
            level.offsets, level.items, self.parts[j], start, level.sign, level.orbit_size,
            k.packed, k.player_high, k.player_low, k.frontier_size, k.frontier_high,
            k.frontier_low, k.player_groups[1], k.n_dealer_classes, self.cols, self.scratch[j],
            self.cell_tot[j], fam, frec, mult, occ, self.questions[j], self.sweep[j], *part,
        )  # fmt: skip
        return stop, n_items, inexact

    def add(self, arena: Arena, first: int, stop: int, j: int) -> None:
        per_hand_adds(arena.item_class, arena.item_factor, arena.item_row, arena.segments,
                      arena.rows, self.point_offset, self.keys.frontier_size,
                      self.keys.n_dealer_classes, self.point_width, self.flat_class,
                      self.flat_point, first, stop, arena.keys[j], arena.tmp[j])  # fmt: skip
