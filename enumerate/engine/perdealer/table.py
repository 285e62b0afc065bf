"""Per-dealer-hand tables (docs/design.md, "The per-dealer table (any dealer way)"): the
inclusion-exclusion sum grouped by the dealer hand.

For every class row c, ONE dealer hand y of that class, and each of y's distinct valid settings
(as (high id, low id) points): how many of the player hands of the other 46 cards win and lose
(blind players, one fixed setting per class) or win and push (players who see the dealer's
setting and answer with their best one). The counts do not depend on any dealer way, so the
house edge of every way is a sum over classes of orbit size x the row of the setting it picks
(``analysis.waylab.wayedge``), and the best setting for the house is an argmax per class.

Counts are int32 (every final count is at most C(46,7) < 2^31; int32 arithmetic is exact
modulo 2^32, so the threads' wrapping partial sums add up to the exact count). The table
(about 1 GB on the full deck) is cached as ``.npy`` arrays with an xxHash-128 digest each in a
JSON sidecar with its provenance, like the engine's level cache, and read memory-mapped: every
read checks the digests and the invariants (``check_per_dealer``). Decoding the same table from
Parquet on every read would cost more than the rest of pricing a way.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
from numba import njit

from enumerate.cache import (
    arrays_current,
    built_correctly,
    cache_dir,
    load_arrays,
    provenance,
    read_only,
    release_unused,
    require,
    save_arrays,
)
from enumerate.engine.keys import player_groups
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.passes import over_levels
from enumerate.engine.pairs.shards import default_jobs
from enumerate.engine.perdealer.kernels import (
    BLIND,
    RESPONSE,
    dealer_points,
    make_dealer_scratch,
    pack_dealer_records,
    per_dealer_orbits,
)
from enumerate.engine.perhand.table import sum_into_first
from enumerate.evaluate import all_settings, five_card_table
from enumerate.runtime.threads import over_ranges
from enumerate.runtime.writebehind import write_behind
from enumerate.tables import HandTable
from enumerate.waytables import flatten_rows, player_table

MODES = {"blind": BLIND, "response": RESPONSE}


@dataclass(frozen=True)
class PlayerSide:
    """Who the players are: ``mode`` "response" (best response to the dealer's setting), or
    "blind" with one setting per class (``high``, ``low``: a house way's or the optimal
    strategy's), named by ``label`` (it goes into the cache provenance)."""

    mode: str
    label: str = "best response"
    high: np.ndarray | None = None
    low: np.ndarray | None = None

    @property
    def key(self) -> str:
        return f"{self.mode}:{self.label}"


@dataclass(frozen=True, eq=False)
class PerDealer:
    """Exact counts of the player hands of the other cards against one dealer hand of each
    class, for each of its valid settings (points by increasing high, then low id)."""

    mode: str  # "blind" or "response"
    player: str  # PlayerSide.key
    point_offset: np.ndarray  # (n + 1,) int64: settings of class c at offset[c] .. offset[c+1]
    point_high: np.ndarray  # (P,) int16
    point_low: np.ndarray  # (P,) int8
    win: np.ndarray  # (P,) int32 player wins
    other: np.ndarray  # (P,) int32 player losses (blind) or pushes (response)
    unit: int  # C(n-7, 7): player hands of the other cards, for every dealer hand
    from_cache: bool = False

    def __len__(self) -> int:
        return len(self.point_offset) - 1

    @property
    def counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(win, push, loss) of the player at every point."""
        rest = self.unit - self.win - self.other
        if self.mode == "blind":
            return self.win, rest, self.other
        return self.win, self.other, rest

    def rows_of(self, high: np.ndarray, low: np.ndarray) -> np.ndarray:
        """The point index of the setting (high, low) of every class; a ValueError when a
        setting is not one of the class's valid settings."""
        idx = _find_points(self.point_offset, self.point_high, self.point_low,
                           high.astype(np.int64), low.astype(np.int64))  # fmt: skip
        bad = np.flatnonzero(idx < 0)
        if len(bad):
            raise ValueError(f"class {int(bad[0])}: the setting is not a valid setting")
        return idx


@njit(cache=True, nogil=True)
def _find_points(offset, ph, pl, high, low):
    out = np.full(high.shape[0], -1, dtype=np.int64)
    for c in range(high.shape[0]):
        for p in range(offset[c], offset[c + 1]):
            if ph[p] == high[c] and pl[p] == low[c]:
                out[c] = p
                break
    return out


def valid_points(table: HandTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(size, high, low): every class's distinct valid settings, padded (n, 21) arrays."""
    five = five_card_table(table.rules)
    high, low = all_settings(table.cards, five.ids)
    out_h = np.full(high.shape, -1, dtype=np.int16)
    out_l = np.full(high.shape, -1, dtype=np.int8)
    size = np.zeros(high.shape[0], dtype=np.int8)
    over_ranges(dealer_points, high.shape[0], high, low, five.max_low, out_h, out_l, size)
    return size, out_h, out_l


def _folder() -> Path:
    return cache_dir() / "perdealer"


def _stem(side: PlayerSide, digest: str) -> str:
    return f"{side.mode}-{digest}"


def _prov(table: HandTable, side: PlayerSide, digest: str) -> dict[str, object]:
    return provenance(__name__, table="per-dealer", player=side.key, digest=digest,
                      deck=table.deck.key, rules=table.rules.key, rows=len(table))  # fmt: skip


def _digest(table: HandTable, side: PlayerSide) -> str:
    """Names the table's files: the deck and the rules too, so that the tables of two decks
    (a report's warm-up on a tiny deck, ``analysis.report.warmup``, and the full deck) do not take
    turns at one file, each rebuilding the table the other wrote over."""
    h = hashlib.sha256(repr((side.key, table.deck.key, table.rules.key)).encode())
    for arr in (side.high, side.low):
        if arr is not None:
            h.update(np.ascontiguousarray(arr).data)  # its buffer: no copy
    return h.hexdigest()[:16]


def is_cached(table: HandTable, side: PlayerSide) -> bool:
    """Is a current table for these players in the cache? (It is verified when read.)"""
    digest = _digest(table, side)
    return arrays_current(_folder(), _stem(side, digest), _prov(table, side, digest))


def run_per_dealer(
    table: HandTable,
    side: PlayerSide,
    n_jobs: int | None = None,
    use_cache: bool = True,
    timings: dict[str, float] | None = None,
) -> PerDealer:
    """The per-dealer table of ``table`` for the players ``side`` (from the cache when it is
    current and verifies)."""
    if side.mode not in MODES:
        raise ValueError(f"unknown player mode {side.mode!r} (known: {', '.join(MODES)})")
    if side.mode == "blind" and (side.high is None or side.low is None):
        raise ValueError("blind players need a setting for every class")
    digest = _digest(table, side)
    stem, prov = _stem(side, digest), _prov(table, side, digest)
    unit = comb(table.deck.size - 7, 7)
    if use_cache:
        cached = _load(stem, prov, side, unit, len(table))
        if cached is not None:
            return cached
    t0 = time.perf_counter()
    result = _compute(table, side, n_jobs or default_jobs(), unit, timings, use_cache)
    with built_correctly("the per-dealer table"):
        check_per_dealer(result, len(table))
    if timings is not None:
        timings["total"] = time.perf_counter() - t0
    # read-only, as a table read from the cache is (memory-mapped): numba compiles a kernel
    # per argument type, so the kernels pricing the table serve both, and a warm-up on a
    # small deck's cached table compiles those a fresh full-deck table calls
    arrays = _arrays_of(result)
    for arr in arrays.values():
        arr.flags.writeable = False
    if use_cache:  # on a thread inside a ``writes_behind`` block (the report's lab step)

        def save() -> None:
            save_arrays(_folder(), stem, arrays, prov)

        write_behind(save)
    return result


def _compute(table: HandTable, side: PlayerSide, n_jobs: int, unit: int,
             timings: dict[str, float] | None, use_cache: bool) -> PerDealer:  # fmt: skip
    t0 = time.perf_counter()
    mode = MODES[side.mode]
    fr = player_table(table.deck, table.rules, use_cache)
    n = len(table)
    if mode == BLIND:
        assert side.high is not None and side.low is not None
        ph, pl = side.high.astype(np.int16), side.low.astype(np.int8)
        zero = np.zeros(n, dtype=np.int8)
        pgroup, pgrep = player_groups(ph, pl, zero, fr.high, fr.low)
    else:
        ph = np.zeros(n, dtype=np.int16)
        pl = np.zeros(n, dtype=np.int8)
        pgroup, pgrep = player_groups(ph, pl, fr.size, fr.high, fr.low)
    dsize, dh, dl = valid_points(table)
    zeros_h, zeros_l = np.zeros(n, dtype=np.int16), np.zeros(n, dtype=np.int8)
    dgroup, dgrep = player_groups(zeros_h, zeros_l, dsize, dh, dl)
    rec = pack_dealer_records(table.orbit_size, pgroup, dgroup)
    doff = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(dsize, out=doff[1:])
    n_points = int(doff[-1])
    if timings is not None:
        timings["keys"] = time.perf_counter() - t0
    # what reading the player table left, before the counts; the tables held for reuse stay
    # held (``LastRead``): this pass holds the frontiers through ``fr`` anyway, and the blind
    # pass after it needs them again (dropped, they would be read and verified once more)
    release_unused()
    accs = [np.zeros((n_points, 2), dtype=np.int32) for _ in range(n_jobs)]
    width, dwidth = fr.high.shape[1], dh.shape[1]

    def work(level: LevelArrays, ids: np.ndarray, part: int) -> int:
        acc = accs[part]
        size = np.diff(level.offsets)
        max_items = int(size[ids].max()) if len(ids) else 1
        scratch = make_dealer_scratch(max_items, len(pgrep), len(dgrep), width, dwidth)
        return int(per_dealer_orbits(
            level.offsets, level.items, ids, level.sign, level.orbit_size, rec, mode, pgrep, ph,
            pl, fr.size, fr.high, fr.low, dgrep, dsize, dh, dl, doff, scratch, acc,
        ))  # fmt: skip

    levels: dict[int, float] = {}
    over_levels(table, n_jobs, work, "per-dealer", timings=levels, use_cache=use_cache)
    if timings is not None:
        timings.update({f"level {k}": secs for k, secs in levels.items()})
    acc = sum_into_first(accs)
    accs.clear()  # frees the other threads' accumulators
    flat_h, flat_l = flatten_rows(dsize, dh), flatten_rows(dsize, dl)
    return PerDealer(side.mode, side.key, doff, flat_h, flat_l, np.ascontiguousarray(acc[:, 0]),
                     np.ascontiguousarray(acc[:, 1]), unit)  # fmt: skip


@njit(cache=True)
def _per_dealer_problem(offset, high, low, win, other, unit):
    """0 when the invariants hold, else the index of the first broken one (``_PROBLEMS``)."""
    for c in range(offset.shape[0] - 1):
        if offset[c + 1] <= offset[c]:
            return 1
        for p in range(offset[c], offset[c + 1]):
            if p > offset[c] and (high[p] < high[p - 1]
                                  or (high[p] == high[p - 1] and low[p] <= low[p - 1])):
                return 2
            if win[p] < 0 or other[p] < 0:
                return 3
            if win[p] + other[p] > unit:
                return 4
    return 0


_PROBLEMS = (
    "",
    "a class has no valid setting",
    "a class's settings are not distinct and increasing",
    "a count is negative",
    "a setting's two counts exceed the player hands of the other cards",
)


def check_per_dealer(r: PerDealer, rows: int) -> None:
    """A per-dealer table's invariants: one run of settings per class, distinct and
    increasing; counts non-negative and within the C(n-7,7) player hands of the other cards."""
    require(len(r) == rows and r.point_offset[0] == 0
            and r.point_offset[-1] == len(r.point_high) == len(r.win) == len(r.other),
            "the settings do not span the classes")  # fmt: skip
    # read-only views, as a table read back is: the check compiles once for both
    problem = _per_dealer_problem(read_only(r.point_offset), read_only(r.point_high),
                                  read_only(r.point_low), read_only(r.win),
                                  read_only(r.other), r.unit)  # fmt: skip
    require(problem == 0, _PROBLEMS[problem])


def _arrays_of(r: PerDealer) -> dict[str, np.ndarray]:
    """The table's arrays by file name."""
    return {"point_offset": r.point_offset, "point_high": r.point_high,
            "point_low": r.point_low, "win": r.win, "other": r.other}  # fmt: skip


def _load(stem: str, prov: dict[str, object], side: PlayerSide, unit: int,
          rows: int) -> PerDealer | None:  # fmt: skip
    """The cached table, memory-mapped and verified (digests, then ``check_per_dealer``);
    None when missing, stale or damaged (reported in one line, then rebuilt)."""
    def table_of(a: dict[str, np.ndarray]) -> PerDealer:
        return PerDealer(side.mode, side.key, a["point_offset"], a["point_high"],
                         a["point_low"], a["win"], a["other"], unit, from_cache=True)  # fmt: skip

    def check(a: dict[str, np.ndarray]) -> None:
        require(sorted(a) == sorted(_arrays_of(table_of(a))), "the sidecar lists other arrays")
        check_per_dealer(table_of(a), rows)

    arrays = load_arrays(_folder(), stem, prov, check)
    return None if arrays is None else table_of(arrays)


