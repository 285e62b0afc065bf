"""Per-hand exact results (DESIGN.md section 4): the inclusion-exclusion sum grouped by the
player hand instead of added up.

For every class row c, and ONE hand x of that class: against every dealer hand of the other
46 cards (per dealer class d), how many the house-way setting of x wins (both hands higher) and
loses (both lower or equal), and the same for every non-dominated setting of x (its frontier
points). Pushes follow by subtraction from ``total``. This is what the optimal strategy of the
blind games is chosen from.

The same pass counts each of those settings with x as the banker (player banking,
``analysis.banking``): the other hands are an opponent's, set by the same house way, and copies
go to the banker, so x wins when both of the opponent's hands are lower or equal and loses when
both are higher (dealer classes summed: the opponent is a player, no dealer rule applies). The
banker's best setting is among the frontier points or the house way's, like the player's.

Counts are int32 everywhere: every final count is at most C(46,7) = 53,524,680 < 2^31, and int32
arithmetic is exact modulo 2^32, so partial sums that pass 2^31 and wrap still end at the exact
count. The threads share one set of counts, each owning a range of the classes. With the four
dealer classes of the blind variants this keeps the whole table (60.7 million settings) near
2.3 GB. The result is cached as Parquet.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

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
from enumerate.engine.levelpass import over_levels
from enumerate.engine.levels import LevelArrays, subset_orbits
from enumerate.engine.perhand_kernels import class_width, per_hand_orbits, point_width
from enumerate.engine.perhand_phases import PerHandPhases
from enumerate.engine.run import default_jobs
from enumerate.engine.twophase import class_ranges, run_two_phases
from enumerate.tables import HandTable
from enumerate.waytables import flatten_rows
from enumerate.writebehind import write_behind

# 2: row groups of CLASSES_PER_GROUP classes, the points file's groups aligned with them; the
# classes file holds each class's canonical code and house-way setting; the provenance names
# the dealer classes (so that one class can be read alone: ``perhand_row``)
# 3: the banker's counts (``bank_win``/``bank_loss`` per point, ``way_bank_*`` per class)
SCHEMA_VERSION = 3
CLASSES_PER_GROUP = 1 << 15
ONE_PHASE_LEVELS = (0, 1)  # levels of a few huge families, answered by both threads


@dataclass(frozen=True, eq=False)
class PerHand:
    """Exact counts of one hand of each class against all dealer hands disjoint from it."""

    dealer_class_bits: tuple[int, ...]
    point_offset: np.ndarray  # (n + 1,) frontier points of class c: offset[c] .. offset[c+1]
    point_high: np.ndarray  # (P,) int16
    point_low: np.ndarray  # (P,) int8
    win: np.ndarray  # (P, D) int32
    loss: np.ndarray  # (P, D) int32
    way_win: np.ndarray  # (n, D) int32, the house-way setting
    way_loss: np.ndarray  # (n, D) int32
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
        cls = np.repeat(np.arange(len(self)), np.diff(self.point_offset))
        return self.total[cls] - self.win - self.loss


def _flatten_frontiers(keys: EngineKeys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    size = keys.frontier_size.astype(np.int64)
    offset = np.zeros(len(size) + 1, dtype=np.int64)
    np.cumsum(size, out=offset[1:])
    return (offset, flatten_rows(keys.frontier_size, keys.frontier_high),
            flatten_rows(keys.frontier_size, keys.frontier_low))  # fmt: skip


# The fields of each block in the kernels' order (``perhand_kernels``), each a run of columns:
# one per dealer class ("by d") or the banker's (win, loss).
CLASS_FIELDS = (("total", "by d"), ("way_win", "by d"), ("way_loss", "by d"), ("way_bank", "bank"))
POINT_FIELDS = (("win", "by d"), ("loss", "by d"), ("bank", "bank"))


def _field_columns(fields: tuple[tuple[str, str], ...], n_d: int) -> list[tuple[str, list[str]]]:
    """Each field of a block with the Parquet names of its columns, in block order."""
    return [(name, [f"{name}_{d}" for d in range(n_d)] if kind == "by d"
             else [f"{name}_win", f"{name}_loss"]) for name, kind in fields]  # fmt: skip


def _blocks(n: int, n_d: int, n_points: int) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed int32 blocks of counts, a row per class and a row per frontier point, in the
    layout of ``perhand_kernels``."""
    return (np.zeros((n, class_width(n_d)), dtype=np.int32),
            np.zeros((n_points, point_width(n_d)), dtype=np.int32))  # fmt: skip


def _views(block: np.ndarray, fields: tuple[tuple[str, str], ...],
           n_d: int) -> dict[str, np.ndarray]:  # fmt: skip
    """The fields of a block as views into it."""
    out, at = {}, 0
    for name, columns in _field_columns(fields, n_d):
        out[name] = block[:, at : at + len(columns)]
        at += len(columns)
    if at != block.shape[1]:  # a bug, not a user error (and it must survive python -O)
        raise AssertionError("the per-hand block layout disagrees with the kernels'")
    return out


def _from_blocks(keys: EngineKeys, offset: np.ndarray, ph: np.ndarray, pl: np.ndarray,
                 by_class: np.ndarray, by_point: np.ndarray, cached: bool) -> PerHand:  # fmt: skip
    """The table whose counts are views into the two blocks (``perhand_kernels``)."""
    d = keys.n_dealer_classes
    return PerHand(
        keys.dealer_class_bits, offset, ph, pl, **_views(by_class, CLASS_FIELDS, d),
        **_views(by_point, POINT_FIELDS, d), from_cache=cached, flag_mask=keys.flag_mask,
    )  # fmt: skip


def _class_ranges(point_offset: np.ndarray, parts: int) -> list[tuple[int, int]]:
    """``parts`` runs of classes ``(first, stop)`` with about equal adds each: a class visit
    adds into its three per-class rows and its frontier points' rows."""
    n = len(point_offset) - 1
    return class_ranges(point_offset + 3 * np.arange(n + 1, dtype=np.int64), parts)


def _sum_into_first(parts: list[np.ndarray]) -> np.ndarray:
    """Sum int32 arrays in place into the first (exact: the sums fit, wrapping is modular)."""
    out = parts[0]
    for p in parts[1:]:
        out += p
    return out


def _path(keys: EngineKeys) -> Path:
    return cache_dir() / "perhand" / f"{keys.digest}.parquet"


def _prov(keys: EngineKeys, table: HandTable) -> dict[str, object]:
    return provenance(
        SCHEMA_VERSION, table="per-hand", keys=keys.label, digest=keys.digest,
        deck=table.deck.key, rules=table.rules.key,
        dealer_classes=[int(b) for b in keys.dealer_class_bits],
    )  # fmt: skip


def is_cached(table: HandTable, keys: EngineKeys) -> bool:
    """Is a current whole-table result for these keys in the cache? (Its content is verified
    when it is read.)"""
    path = _path(keys)
    prov = _prov(keys, table)
    return is_current(path, prov) and is_current(_classes_path(path), prov)


def _classes_path(path: Path) -> Path:
    return path.with_suffix(".classes.parquet")


def run_per_hand(
    table: HandTable,
    keys: EngineKeys,
    n_jobs: int | None = None,
    use_cache: bool = True,
    timings: dict[int, float] | None = None,
    rows: list[int] | None = None,
) -> PerHand:
    """Exact per-hand counts for every class of the table (cached), or only for the classes
    ``rows`` (visiting only the families that hold them; the other rows stay zero).

    Every division of a family's counts by its orbit size is checked: an AssertionError names
    the level where one left a remainder (a bug, never a user error).
    """
    path = _path(keys)
    cache_levels = use_cache  # the levels serve a selection too; a partial table is not kept
    if rows is not None:
        use_cache = False
        weight = np.zeros(len(table), dtype=np.int64)
        weight[rows] = 1
        keys = keys.with_player_weight(weight, f"rows {sorted(rows)}")
    elif use_cache and is_cached(table, keys):
        cached = _load(path, keys, table.deck.size)
        if cached is not None:
            return cached
    # One set of accumulators (~2.3 GB on the full deck with four dealer classes), each
    # thread adding into its own range of classes. The first two levels (15 families, the
    # largest of them all) in one phase: every thread visits every family and skips the
    # classes of the others; the others in two (``perhand_phases``). Measured on the full
    # deck against a set per thread splitting the families: 8-13% more time per level, 2.3 GB
    # less memory. Selected rows: their families, one thread, one phase.
    n_jobs = 1 if rows is not None else n_jobs or default_jobs()
    if rows is None:  # the whole table: what reading the keys left in the pools goes first
        release_unused(drop_held=True)
    n, n_d = len(table), keys.n_dealer_classes
    offset, ph, pl = _flatten_frontiers(keys)
    by_class, by_point = _blocks(n, n_d, int(offset[-1]))
    ranges = _class_ranges(offset, n_jobs)
    rec = keys.packed

    def work(level: LevelArrays, ids: np.ndarray, part: int) -> int:
        """Adds the orbits ``ids`` for the part's classes; returns the inexact class weights
        met."""
        first, stop = ranges[part]
        return int(per_hand_orbits(
            level.offsets, level.items, ids, level.sign, level.orbit_size,
            rec, keys.player_high, keys.player_low, keys.frontier_size, keys.frontier_high,
            keys.frontier_low, keys.player_groups[1], offset, n_d, by_class, by_point, first,
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
        run_two_phases(table, PerHandPhases(keys, (by_class, by_point), offset),
                       [k for k in range(8) if k not in ONE_PHASE_LEVELS], n_jobs, "per-hand",
                       timings, cache_levels)  # fmt: skip
    result = _from_blocks(keys, offset, ph, pl, by_class, by_point, False)
    if rows is None:
        with built_correctly("the per-hand table"):
            check_per_hand(result, keys, table.deck.size)
    if use_cache:  # on a thread inside a ``writes_behind`` block (the report's)
        # what the write needs, not the keys: a write held until later would keep them
        # (about 0.8 GB on the full deck) alive until then
        prov, codes = _prov(keys, table), table.codes
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
    by_class, by_point = (_named_columns(r, fields, n_d) for fields in (CLASS_FIELDS, POINT_FIELDS))

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
    write_groups_atomic(_classes_path(path), prov, (classes(a, b) for a, b in groups),
                        ["code"])  # fmt: skip


_PROBLEMS = (
    "",
    "a count is negative",
    "a class's dealer hands are not all the hands of the other cards",
    "the house way's wins and losses exceed a dealer class's hands",
    "a setting's wins and losses exceed a dealer class's hands",
    "a setting's wins as the banker are fewer than as the player, or its losses more",
)


@njit(cache=True)
def _per_hand_problem(offset, total, way_win, way_loss, win, loss, way_bank, bank,
                      dealer_hands):  # fmt: skip
    """Index into ``_PROBLEMS`` of the first broken invariant of a per-hand table (0: none)."""
    for c in range(total.shape[0]):
        s = 0
        for d in range(total.shape[1]):
            if total[c, d] < 0 or way_win[c, d] < 0 or way_loss[c, d] < 0:
                return 1
            if way_win[c, d] + way_loss[c, d] > total[c, d]:
                return 3
            s += total[c, d]
            for p in range(offset[c], offset[c + 1]):
                if win[p, d] < 0 or loss[p, d] < 0:
                    return 1
                if win[p, d] + loss[p, d] > total[c, d]:
                    return 4
        if s != dealer_hands:
            return 2
        # the banker takes the copies: he wins at least what the player wins (both higher)
        # and loses at most what the player loses (both lower or equal)
        if _bank_problem(way_bank[c], way_win[c].sum(), way_loss[c].sum(), s):
            return 5
        for p in range(offset[c], offset[c + 1]):
            if _bank_problem(bank[p], win[p].sum(), loss[p].sum(), s):
                return 5
    return 0


@njit(cache=True, inline="always")
def _bank_problem(bank, win, loss, hands):
    return (bank[0] < win or bank[1] > loss or bank[1] < 0
            or bank[0] + bank[1] > hands)  # fmt: skip


def check_per_hand(r: PerHand, keys: EngineKeys, deck_size: int) -> None:
    """A per-hand table's invariants: its settings are the keys' frontiers; every count is
    non-negative; each class's dealer hands are the C(n-7,7) hands of the other cards, and
    each setting's wins and losses fit in them; and, weighted by class orbit sizes, the
    dealer hands of each dealer class are C(n-7,7) times the hands of that class (each dealer
    hand meets C(n-7,7) player hands)."""
    offset, ph, pl = _flatten_frontiers(keys)
    require(np.array_equal(r.point_offset, offset) and np.array_equal(r.point_high, ph)
            and np.array_equal(r.point_low, pl), "the settings are not the frontiers")  # fmt: skip
    unit = comb(deck_size - 7, 7)
    require(r.bank.shape == (len(r.point_high), 2) and r.way_bank.shape == (len(r), 2),
            "the banker's counts do not span the settings")  # fmt: skip
    problem = _per_hand_problem(r.point_offset, r.total, r.way_win, r.way_loss, r.win, r.loss,
                                r.way_bank, r.bank, unit)  # fmt: skip
    require(problem == 0, _PROBLEMS[problem])
    orbit = keys.class_orbit.astype(np.int64)
    hands = np.zeros(keys.n_dealer_classes, dtype=np.int64)
    np.add.at(hands, keys.dealer_class.astype(np.int64), orbit)
    met = [int((orbit * r.total[:, d].astype(np.int64)).sum()) for d in range(r.total.shape[1])]
    require(met == [unit * int(h) for h in hands],
            "a dealer class's hands disagree with the hand table")  # fmt: skip


def _load(path: Path, keys: EngineKeys, deck_size: int) -> PerHand | None:
    """The cached table, read column by column with page checksums and checked
    (``check_per_hand``); None, reported on stderr, when it is damaged (both of its files
    are then removed: they are one table)."""
    reading = [path]  # the file being read, for the notice
    try:
        r = _read(path, keys, reading)
        check_per_hand(r, keys, deck_size)
    except READ_ERRORS as err:
        report_damaged(reading[-1], err)
        path.unlink(missing_ok=True)
        _classes_path(path).unlink(missing_ok=True)
        return None
    return r


def _named_columns(r: PerHand, fields: tuple[tuple[str, str], ...],
                   n_d: int) -> list[tuple[str, np.ndarray]]:  # fmt: skip
    """(Parquet name, column) of a block's fields, in block order (views, not copies)."""
    return [(column, getattr(r, name)[:, i]) for name, columns in _field_columns(fields, n_d)
            for i, column in enumerate(columns)]  # fmt: skip


def _names(fields: tuple[tuple[str, str], ...], n_d: int) -> list[str]:
    return [column for _name, columns in _field_columns(fields, n_d) for column in columns]


def _read(path: Path, keys: EngineKeys, reading: list[Path]) -> PerHand:
    """Both files of a per-hand table (``reading`` ends with the file being read)."""
    # into the blocks a row group at a time: the whole file as one Arrow table would double
    # the ~2 GB it holds
    def column(f: pq.ParquetFile, name: str) -> np.ndarray:
        return f.read(columns=[name]).column(0).to_numpy()

    def block(f: pq.ParquetFile, names: list[str]) -> np.ndarray:
        # a row group at a time: its rows of the block stay in cache while its columns are
        # written into them (a whole column at a time took a pass over the block for each)
        out = np.empty((f.metadata.num_rows, len(names)), dtype=np.int32)
        row = 0
        for g in range(f.num_row_groups):
            part = f.read_row_group(g, columns=names)
            for i in range(len(names)):
                out[row : row + part.num_rows, i] = part.column(i).to_numpy()
            row += part.num_rows
        return out

    n_d = keys.n_dealer_classes
    reading.append(_classes_path(path))
    cls = open_verified(reading[-1])
    points = column(cls, "points").astype(np.int64)
    require(np.array_equal(column(cls, "way_high"), keys.player_high)
            and np.array_equal(column(cls, "way_low"), keys.player_low),
            "the house way's settings are not the keys'")  # fmt: skip
    by_class = block(cls, _names(CLASS_FIELDS, n_d))
    reading.append(path)
    pts = open_verified(path)
    offset = np.zeros(len(points) + 1, dtype=np.int64)
    np.cumsum(points, out=offset[1:])
    high, low = column(pts, "high").astype(np.int16), column(pts, "low").astype(np.int8)
    by_point = block(pts, _names(POINT_FIELDS, n_d))
    return _from_blocks(keys, offset, high, low, by_class, by_point, True)
