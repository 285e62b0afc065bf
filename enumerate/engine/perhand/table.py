"""Per-hand exact results (docs/design.md, "The per-hand table (optimal strategy)"): the
inclusion-exclusion sum grouped by the player hand instead of added up.

For every class row c, and ONE hand x of that class: against every dealer hand of the other
46 cards, how many (per dealer class d: ``total``) there are, and how many the house-way
setting of x wins (both hands higher) and loses (both lower or equal), and the same for every
non-dominated setting of x (its frontier points). Wins and losses are kept by up-set of dealer
flags (``answersets``: column j counts the dealer hands with every flag of set j, column 0
all of them): the variants need wins apart for one flag at a time, and a column per class
would move two thirds more counts. Pushes follow by subtraction. This is what the optimal
strategy of the blind games is chosen from.

The same pass counts each of those settings with x as the banker (player banking,
``analysis.pricing.banking``): the other hands are an opponent's, set by the same house way,
and copies
go to the banker, so x wins when both of the opponent's hands are lower or equal and loses when
both are higher (dealer classes summed: the opponent is a player, no dealer rule applies). The
banker's best setting is among the frontier points or the house way's, like the player's.

Counts are int32 everywhere: every final count is at most C(46,7) = 53,524,680 < 2^31, and int32
arithmetic is exact modulo 2^32, so partial sums that pass 2^31 and wrap still end at the exact
count. The threads share one set of counts, each owning a range of the classes. With the
columns of the blind variants (wins for three sets, losses for one) the whole table (60.7
million settings) is about 1.7 GB. The result is cached as Parquet.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from enumerate.cache import (
    READ_ERRORS,
    built_correctly,
    cache_dir,
    is_current,
    open_verified,
    provenance,
    release_unused,
    report_damaged,
    require,
    write_groups_atomic,
)
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levels.build import LevelArrays, subset_orbits
from enumerate.engine.levels.passes import over_levels
from enumerate.engine.levels.twophase import class_ranges, run_two_phases
from enumerate.engine.pairs.shards import default_jobs
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.check import check_per_hand
from enumerate.engine.perhand.check import flatten_frontiers as _flatten_frontiers
from enumerate.engine.perhand.kernels import class_width, per_hand_orbits, point_width
from enumerate.engine.perhand.phases import PerHandPhases
from enumerate.runtime.writebehind import write_behind
from enumerate.tables import HandTable

# What the files hold: row
# groups of CLASSES_PER_GROUP classes, the points file's groups aligned with them; the classes
# file holds each class's canonical code and house-way setting; the provenance names the dealer
# classes (so that one class can be read alone: ``perhand.row``); the banker's counts
# (``bank_win``/``bank_loss`` per point, ``way_bank_*`` per class); wins and losses by up-set
# (``answersets``), named in the provenance
CLASSES_PER_GROUP = 1 << 15
ONE_PHASE_LEVELS = (0, 1)  # levels of a few huge families, answered by both threads


@dataclass(frozen=True, eq=False)
class PerHand:
    """Exact counts of one hand of each class against all dealer hands disjoint from it."""

    dealer_class_bits: tuple[int, ...]
    sets: AnswerSets  # the dealer hands each win (W) and loss (L) column counts
    point_offset: np.ndarray  # (n + 1,) frontier points of class c: offset[c] .. offset[c+1]
    point_high: np.ndarray  # (P,) int16
    point_low: np.ndarray  # (P,) int8
    win: np.ndarray  # (P, W) int32
    loss: np.ndarray  # (P, L) int32
    way_win: np.ndarray  # (n, W) int32, the house-way setting
    way_loss: np.ndarray  # (n, L) int32
    total: np.ndarray  # (n, D) int32 dealer hands disjoint from the hand, by dealer class
    bank: np.ndarray  # (P, 2) int32 the hand as banker: (wins, losses) against an opponent
    way_bank: np.ndarray  # (n, 2) int32 the same for the house-way setting
    from_cache: bool = False
    # the dealer flags the counts keep apart (``EngineKeys.flag_mask``); 0 claims none, so a
    # variant whose rules need a flag is refused rather than priced without it
    flag_mask: int = 0

    def __len__(self) -> int:
        return int(self.total.shape[0])

    def points(self, row: int) -> slice:
        return slice(int(self.point_offset[row]), int(self.point_offset[row + 1]))

    @property
    def push(self) -> np.ndarray:
        """Pushes of every point against all dealer hands (column 0 of wins and losses)."""
        cls = np.repeat(np.arange(len(self)), np.diff(self.point_offset))
        return self.total[cls].sum(axis=1) - self.win[:, 0] - self.loss[:, 0]


# The fields of each block in the kernels' order (``perhand.kernels``), each a run of columns:
# one per dealer class ("by d"), per win set ("by win set"), per loss set ("by loss set"), or
# the banker's (win, loss).
CLASS_FIELDS = (("total", "by d"), ("way_win", "by win set"), ("way_loss", "by loss set"),
                ("way_bank", "bank"))  # fmt: skip
POINT_FIELDS = (("win", "by win set"), ("loss", "by loss set"), ("bank", "bank"))


def _field_columns(fields: tuple[tuple[str, str], ...], n_d: int,
                   sets: AnswerSets) -> list[tuple[str, list[str]]]:  # fmt: skip
    """Each field of a block with the Parquet names of its columns, in block order."""
    width = {"by d": n_d, "by win set": len(sets.win), "by loss set": len(sets.loss)}
    return [(name, [f"{name}_{d}" for d in range(width[kind])] if kind in width
             else [f"{name}_win", f"{name}_loss"]) for name, kind in fields]  # fmt: skip


def _blocks(n: int, n_d: int, n_points: int, sets: AnswerSets) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed int32 blocks of counts, a row per class and a row per frontier point, in the
    layout of ``perhand.kernels``."""
    n_w, n_l = len(sets.win), len(sets.loss)
    return (np.zeros((n, class_width(n_d, n_w, n_l)), dtype=np.int32),
            np.zeros((n_points, point_width(n_w, n_l)), dtype=np.int32))  # fmt: skip


def _views(block: np.ndarray, fields: tuple[tuple[str, str], ...], n_d: int,
           sets: AnswerSets) -> dict[str, np.ndarray]:  # fmt: skip
    """The fields of a block as views into it."""
    out, at = {}, 0
    for name, columns in _field_columns(fields, n_d, sets):
        out[name] = block[:, at : at + len(columns)]
        at += len(columns)
    if at != block.shape[1]:  # a bug, not a user error (and it must survive python -O)
        raise AssertionError("the per-hand block layout disagrees with the kernels'")
    return out


def _from_blocks(keys: EngineKeys, sets: AnswerSets, offset: np.ndarray, ph: np.ndarray,
                 pl: np.ndarray, by_class: np.ndarray, by_point: np.ndarray,
                 cached: bool) -> PerHand:  # fmt: skip
    """The table whose counts are views into the two blocks (``perhand.kernels``)."""
    d = keys.n_dealer_classes
    return PerHand(
        keys.dealer_class_bits, sets, offset, ph, pl, **_views(by_class, CLASS_FIELDS, d, sets),
        **_views(by_point, POINT_FIELDS, d, sets), from_cache=cached, flag_mask=keys.flag_mask,
    )  # fmt: skip


def _class_ranges(point_offset: np.ndarray, parts: int) -> list[tuple[int, int]]:
    """``parts`` runs of classes ``(first, stop)`` with about equal adds each: a class visit
    adds into its three per-class rows and its frontier points' rows."""
    n = len(point_offset) - 1
    return class_ranges(point_offset + 3 * np.arange(n + 1, dtype=np.int64), parts)


def sum_into_first(parts: list[np.ndarray]) -> np.ndarray:
    """Sum int32 arrays in place into the first (exact: the sums fit, wrapping is modular)."""
    out = parts[0]
    for p in parts[1:]:
        out += p
    return out


def _path(keys: EngineKeys, sets: AnswerSets) -> Path:
    return cache_dir() / "perhand" / f"{keys.digest}-{sets.tag}.parquet"


def _prov(keys: EngineKeys, table: HandTable, sets: AnswerSets) -> dict[str, object]:
    return provenance(
        __name__, table="per-hand", keys=keys.label, digest=keys.digest,
        deck=table.deck.key, rules=table.rules.key, win_sets=list(sets.win),
        loss_sets=list(sets.loss), dealer_classes=[int(b) for b in keys.dealer_class_bits],
    )  # fmt: skip


def is_cached(table: HandTable, keys: EngineKeys, sets: AnswerSets) -> bool:
    """Is a current whole-table result for these keys and sets in the cache? (Its content is
    verified when it is read.)"""
    path = _path(keys, sets)
    prov = _prov(keys, table, sets)
    return is_current(path, prov) and is_current(classes_path(path), prov)


def classes_path(path: Path) -> Path:
    return path.with_suffix(".classes.parquet")


def run_per_hand(
    table: HandTable,
    keys: EngineKeys,
    n_jobs: int | None = None,
    use_cache: bool = True,
    timings: dict[int, float] | None = None,
    rows: list[int] | None = None,
    sets: AnswerSets | None = None,
) -> PerHand:
    """Exact per-hand counts for every class of the table (cached), or only for the classes
    ``rows`` (visiting only the families that hold them; the other rows stay zero); wins and
    losses by the up-sets ``sets`` (by default every set within a dealer class: nothing is
    lost against counts by class).

    Every division of a family's counts by its orbit size is checked: an AssertionError names
    the level where one left a remainder (a bug, never a user error).
    """
    sets = sets or AnswerSets.spanning(keys.dealer_class_bits)
    path = _path(keys, sets)
    cache_levels = use_cache  # the levels serve a selection too; a partial table is not kept
    if rows is not None:
        use_cache = False
        weight = np.zeros(len(table), dtype=np.int64)
        weight[rows] = 1
        keys = keys.with_player_weight(weight, f"rows {sorted(rows)}")
    elif use_cache and is_cached(table, keys, sets):
        cached = _load(path, keys, sets, table.deck.size)
        if cached is not None:
            return cached
    # One set of accumulators (~1.7 GB on the full deck with the blind variants' sets), each
    # thread adding into its own range of classes. The first two levels (15 families, the
    # largest of them all) in one phase: every thread visits every family and skips the
    # classes of the others; the others in two (``perhand.phases``). Against a set per thread
    # splitting the families, this costs a little more time per level and far less memory.
    # Selected rows: their families, one thread, one phase.
    n_jobs = 1 if rows is not None else n_jobs or default_jobs()
    if rows is None:  # the whole table: what reading the keys left in the pools goes first
        release_unused(drop_held=True)
    n, n_d = len(table), keys.n_dealer_classes
    offset, ph, pl = _flatten_frontiers(keys)
    by_class, by_point = _blocks(n, n_d, int(offset[-1]), sets)
    ranges = _class_ranges(offset, n_jobs)
    rec = keys.packed
    cols = sets.grid_maps(keys.dealer_class_bits)

    def work(level: LevelArrays, ids: np.ndarray, part: int) -> int:
        """Adds the orbits ``ids`` for the part's classes; returns the inexact class weights
        met."""
        first, stop = ranges[part]
        return int(per_hand_orbits(
            level.offsets, level.items, ids, level.sign, level.orbit_size,
            rec, keys.player_high, keys.player_low, keys.frontier_size, keys.frontier_high,
            keys.frontier_low, keys.player_groups[1], offset, n_d, cols, by_class, by_point, first,
            stop,
        ))  # fmt: skip

    selected: dict[int, np.ndarray] = {}  # per level, the orbits of the selected rows

    def parts_of(level: LevelArrays, first: int, stop: int) -> list[np.ndarray]:
        if rows is not None:
            if level.k not in selected:
                selected.clear()
                selected[level.k] = subset_orbits(level, table, rows)
            ids = selected[level.k]
            return [ids[(ids >= first) & (ids < stop)]]
        return [np.arange(first, stop, dtype=np.int64)] * n_jobs

    if rows is not None:
        over_levels(table, n_jobs, work, "per-hand", parts_of, timings, cache_levels)
    else:
        over_levels(table, n_jobs, work, "per-hand", parts_of, timings, cache_levels,
                    levels=ONE_PHASE_LEVELS)  # fmt: skip
        run_two_phases(table, PerHandPhases(keys, cols, (by_class, by_point), offset),
                       [k for k in range(8) if k not in ONE_PHASE_LEVELS], n_jobs, "per-hand",
                       timings, cache_levels)  # fmt: skip
    result = _from_blocks(keys, sets, offset, ph, pl, by_class, by_point, False)
    if rows is None:
        with built_correctly("the per-hand table"):
            check_per_hand(result, keys, table.deck.size)
    if use_cache:  # on a thread inside a ``writes_behind`` block (the report's)
        # what the write needs, not the keys: a write held until later would keep them
        # (about 0.8 GB on the full deck) alive until then
        prov, codes = _prov(keys, table, sets), table.codes
        way = {"way_high": keys.player_high, "way_low": keys.player_low}
        write_behind(lambda: _save(result, path, prov, codes, way))
    return result


def _save(r: PerHand, path: Path, prov: dict[str, object], codes: np.ndarray,
          way: dict[str, np.ndarray]) -> None:  # fmt: skip
    """Both files, in row groups of ``CLASSES_PER_GROUP`` classes and, in the points file, of
    the points of those classes: a class is then read through one row group of each. ``way``:
    the columns ``way_high`` and ``way_low``, the way's setting of each class (the one the
    ``way_win`` / ``way_loss`` counts are for)."""
    bounds = [*range(0, max(1, len(r)), CLASSES_PER_GROUP), len(r)]
    n_d = r.total.shape[1]
    by_class, by_point = (_named_columns(r, fields, n_d, r.sets)
                          for fields in (CLASS_FIELDS, POINT_FIELDS))  # fmt: skip

    def points(a: int, b: int) -> pa.Table:
        p, q = int(r.point_offset[a]), int(r.point_offset[b])
        cols: dict[str, np.ndarray] = {"high": r.point_high[p:q], "low": r.point_low[p:q]}
        cols.update((name, col[p:q]) for name, col in by_point)
        return pa.table(cols)

    def classes(a: int, b: int) -> pa.Table:
        cls: dict[str, np.ndarray] = {
            "code": codes[a:b], "points": np.diff(r.point_offset[a : b + 1]).astype(np.int8),
            **{name: col[a:b] for name, col in way.items()},
        }  # fmt: skip
        cls.update((name, col[a:b]) for name, col in by_class)
        return pa.table(cls)

    groups = list(itertools.pairwise(bounds))
    write_groups_atomic(path, prov, (points(a, b) for a, b in groups), False)
    # statistics of the codes only: they find a class's row group
    write_groups_atomic(classes_path(path), prov, (classes(a, b) for a, b in groups),
                        ["code"])  # fmt: skip


def _load(path: Path, keys: EngineKeys, sets: AnswerSets, deck_size: int) -> PerHand | None:
    """The cached table, read column by column with page checksums and checked
    (``check_per_hand``); None, reported on stderr, when it is damaged (both of its files
    are then removed: they are one table)."""
    reading = [path]  # the file being read, for the notice
    try:
        r = _read(path, keys, sets, reading)
        check_per_hand(r, keys, deck_size)
    except READ_ERRORS as err:
        report_damaged(reading[-1], err)
        path.unlink(missing_ok=True)
        classes_path(path).unlink(missing_ok=True)
        return None
    return r


def _named_columns(r: PerHand, fields: tuple[tuple[str, str], ...], n_d: int,
                   sets: AnswerSets) -> list[tuple[str, np.ndarray]]:  # fmt: skip
    """(Parquet name, column) of a block's fields, in block order (views, not copies)."""
    return [(column, getattr(r, name)[:, i])
            for name, columns in _field_columns(fields, n_d, sets)
            for i, column in enumerate(columns)]  # fmt: skip


def _names(fields: tuple[tuple[str, str], ...], n_d: int, sets: AnswerSets) -> list[str]:
    return [column for _name, columns in _field_columns(fields, n_d, sets) for column in columns]


def _read(path: Path, keys: EngineKeys, sets: AnswerSets, reading: list[Path]) -> PerHand:
    """Both files of a per-hand table (``reading`` ends with the file being read)."""
    # into the blocks a row group at a time: the whole file as one Arrow table would double
    # the ~2 GB it holds
    def column(f: pq.ParquetFile, name: str) -> np.ndarray:
        return f.read(columns=[name]).column(0).to_numpy()

    def block(f: pq.ParquetFile, names: list[str]) -> np.ndarray:
        # a row group at a time: its rows of the block stay in cache while its columns are
        # written into them (a whole column at a time would take a pass over the block for
        # each)
        out = np.empty((f.metadata.num_rows, len(names)), dtype=np.int32)
        row = 0
        for g in range(f.num_row_groups):
            part = f.read_row_group(g, columns=names)
            for i in range(len(names)):
                out[row : row + part.num_rows, i] = part.column(i).to_numpy()
            row += part.num_rows
        return out

    n_d = keys.n_dealer_classes
    reading.append(classes_path(path))
    cls = open_verified(reading[-1])
    points = column(cls, "points").astype(np.int64)
    require(np.array_equal(column(cls, "way_high"), keys.player_high)
            and np.array_equal(column(cls, "way_low"), keys.player_low),
            "the house way's settings are not the keys'")  # fmt: skip
    by_class = block(cls, _names(CLASS_FIELDS, n_d, sets))
    reading.append(path)
    pts = open_verified(path)
    offset = np.zeros(len(points) + 1, dtype=np.int64)
    np.cumsum(points, out=offset[1:])
    high, low = column(pts, "high").astype(np.int16), column(pts, "low").astype(np.int8)
    by_point = block(pts, _names(POINT_FIELDS, n_d, sets))
    return _from_blocks(keys, sets, offset, high, low, by_class, by_point, True)
