"""Per-class tables of both sides of the table, cached as Parquet beside the hand table.

- ``way_table(way)``: for every suit class of seven-card hands (one entry per row of the hand
  table), the setting a house way chooses: setting index (``SETTING_PAIRS``), rule id (index
  into ``way.rule_names``), five-card id of the back and two-card id of the front.
- ``player_table()``: for every class, its frontier (the non-dominated valid settings as
  (high id, low id) points, by increasing high id) and its highest valid high id and low id.

Both are cached under ``cache_dir()`` with their provenance: the code, the deck, the rules, the
number of rows of the hand table they belong to, and for a way table the way's ``key`` (name,
version and a hash of its module's source), so that a new version of a way is rebuilt.

>>> from math import comb
>>> deck = Deck.parse("TJQKA:cdh+joker")
>>> w = way_table("gli", deck, use_cache=False)
>>> p = player_table(deck, use_cache=False)
>>> len(w) == len(p) == len(hand_table(deck))
True
>>> bool((w.high <= p.max_high).all() and (w.low <= p.max_low).all())
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
from numba import njit

from enumerate.cache import (
    LastRead,
    cache_dir,
    is_current,
    load_or_build,
    provenance,
    read_only,
    require,
)
from enumerate.evaluate import HIGH_ID_BOUND, N_LOW, SETTING_PAIRS
from enumerate.houseways import HouseWay, WayColumns, apply_way, apply_ways, get_way
from enumerate.rules import Deck, Rules
from enumerate.strategy import Frontiers, frontiers
from enumerate.tables import HandTable, hand_table, hand_table_is_cached


@dataclass(frozen=True, eq=False)
class WayTable:
    """How a house way sets every class of a deck (arrays aligned with the hand table rows)."""

    way: str  # the way's name
    way_key: str  # name@version#source-hash, as in the provenance
    rule_names: tuple[str, ...]  # by rule id, the fallback last
    deck: Deck
    rules: Rules
    setting: np.ndarray  # int8, index into SETTING_PAIRS
    rule: np.ndarray  # int8, index into rule_names
    high: np.ndarray  # int16 five-card id of the back
    low: np.ndarray  # int8 two-card id of the front
    from_cache: bool = False

    def __len__(self) -> int:
        return int(self.setting.shape[0])


@dataclass(frozen=True, eq=False)
class PlayerTable:
    """The player's choices for every class of a deck (arrays aligned with the hand table)."""

    deck: Deck
    rules: Rules
    size: np.ndarray  # int8 number of frontier points
    high: np.ndarray  # (n, width) int16 frontier high ids, increasing, -1 padded
    low: np.ndarray  # (n, width) int8 frontier low ids, decreasing, -1 padded
    max_high: np.ndarray  # int16 highest valid high id
    max_low: np.ndarray  # int8 highest valid low id
    from_cache: bool = False

    def __len__(self) -> int:
        return int(self.size.shape[0])

    @property
    def frontiers(self) -> Frontiers:
        return Frontiers(self.size, self.high, self.low)

    def frontier(self, row: int) -> list[tuple[int, int]]:
        """The (high id, low id) frontier points of one class, by increasing high id."""
        k = int(self.size[row])
        return [(int(self.high[row, j]), int(self.low[row, j])) for j in range(k)]

    def on_frontier(self, high: np.ndarray, low: np.ndarray) -> np.ndarray:
        """Whether each class's setting (``high[i]``, ``low[i]``) is a frontier point; a valid
        setting that is not is dominated."""
        high = np.ascontiguousarray(high, dtype=np.int64)
        low = np.ascontiguousarray(low, dtype=np.int64)
        if high.shape != (len(self),) or low.shape != (len(self),):
            raise ValueError(f"a setting per class is wanted: {len(self)}, not {high.shape}")
        out = np.zeros(len(self), dtype=np.bool_)
        _on_frontier(self.high, self.low, high, low, out)
        return out


@njit(cache=True, nogil=True)
def _on_frontier(fh, fl, high, low, out):
    """``out[i]``: some column j of row i has ``fh[i, j] == high[i]`` and ``fl[i, j] ==
    low[i]`` (a row at a time: numpy's column by column reads the (n, width) tables strided)."""
    for i in range(fh.shape[0]):
        for j in range(fh.shape[1]):
            if fh[i, j] == high[i] and fl[i, j] == low[i]:
                out[i] = True
                break


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def cache_stem(deck: Deck, rules: Rules) -> str:
    return f"{_safe(deck.name)}-wheel_{rules.wheel}"


def way_cache_path(way: HouseWay, deck: Deck, rules: Rules, cache: Path | None = None) -> Path:
    return (cache or cache_dir()) / f"way-{_safe(way.name)}-{cache_stem(deck, rules)}.parquet"


def player_cache_path(deck: Deck, rules: Rules, cache: Path | None = None) -> Path:
    return (cache or cache_dir()) / f"frontiers-{cache_stem(deck, rules)}.parquet"


def check_way_table(rows: int, n_rules: int) -> Callable[[pa.Table], None]:
    """A way table's invariants: one row per class; settings, rule ids and rank ids in range."""

    def check(t: pa.Table) -> None:
        require(t.num_rows == rows, f"{t.num_rows} rows, not {rows}")
        for name, top in (("setting", len(SETTING_PAIRS)), ("rule", n_rules),
                          ("high", HIGH_ID_BOUND), ("low", N_LOW)):  # fmt: skip
            x = t.column(name).to_numpy()
            require(rows == 0 or (int(x.min()) >= 0 and int(x.max()) < top),
                    f"a {name} is out of range")  # fmt: skip

    return check


@njit(cache=True)
def _frontier_problem(size, offsets, high, low, max_high, max_low):
    """0, or 1 + the first class whose frontier is broken: its size differs from its list,
    highs do not increase or lows do not decrease along it, or its ends are not the highest
    valid high and low ids."""
    for i in range(size.shape[0]):
        a, b = offsets[i], offsets[i + 1]
        if size[i] < 1 or b - a != size[i]:
            return i + 1
        for j in range(a + 1, b):
            if high[j] <= high[j - 1] or low[j] >= low[j - 1]:
                return i + 1
        if high[b - 1] != max_high[i] or low[a] != max_low[i]:
            return i + 1
    return 0


def check_player_table(rows: int) -> Callable[[pa.Table], None]:
    """A frontier table's invariants (``_frontier_problem``), one row per class."""

    def check(t: pa.Table) -> None:
        require(t.num_rows == rows, f"{t.num_rows} rows, not {rows}")
        size = t.column("size").to_numpy()
        for h, lo, mh, ml in zip(
            t.column("frontier_high").chunks, t.column("frontier_low").chunks,
            t.column("max_high").chunks, t.column("max_low").chunks, strict=True,
        ):  # fmt: skip
            require(np.array_equal(h.offsets.to_numpy(), lo.offsets.to_numpy()),
                    "frontier highs and lows differ in length")  # fmt: skip
            n = len(h)
            bad = _frontier_problem(
                size[:n], h.offsets.to_numpy().astype(np.int64), h.values.to_numpy(),
                lo.values.to_numpy(), mh.to_numpy(), ml.to_numpy(),
            )  # fmt: skip
            require(bad == 0, f"the frontier of class {bad - 1} is broken")
            size = size[n:]

    return check


def _col(table: pa.Table, name: str, dtype: type) -> np.ndarray:
    return np.ascontiguousarray(table.column(name).to_numpy(), dtype=dtype)


def _way_prov(way: HouseWay, deck: Deck, rules: Rules, rows: int) -> dict[str, object]:
    return provenance(__name__, table="way", way=way.key, deck=deck.key,
                      rules=rules.key, rows=rows)  # fmt: skip


def way_is_cached(way: HouseWay, deck: Deck, rules: Rules, cache: Path | None = None) -> bool:
    """Is the table of ``way`` current in the cache? (Its content is verified when read.)
    Nothing is built to answer: without a current hand table, no."""
    if not hand_table_is_cached(deck, rules, cache):
        return False
    rows = len(hand_table(deck, rules, True, cache))
    return is_current(way_cache_path(way, deck, rules, cache), _way_prov(way, deck, rules, rows))


def way_table(
    way: HouseWay | str,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    cache: Path | None = None,
) -> WayTable:
    """The setting ``way`` (a ``HouseWay`` or a registered name) chooses for every class of
    ``deck`` under ``rules``, from the cache folder ``cache`` (default ``cache_dir()``) when it
    is current there."""
    way = get_way(way) if isinstance(way, str) else way
    hands = hand_table(deck or Deck.full(), rules or Rules(), use_cache, cache)
    return way_table_of(way, hands, use_cache, cache)


def way_table_of(
    way: HouseWay,
    hands: HandTable,
    use_cache: bool = True,
    cache: Path | None = None,
    columns: WayColumns | None = None,
) -> WayTable:
    """``way_table`` for a hand table already read (its deck and rules); ``columns``: the
    way's settings already worked out (``way_tables``), else set here."""
    deck, rules = hands.deck, hands.rules
    prov = _way_prov(way, deck, rules, len(hands))

    def build() -> pa.Table:
        col = apply_way(way, hands.cards.astype(np.int64), rules) if columns is None else columns
        return pa.table(
            {
                "setting": col.setting.astype(np.int8),
                "rule": col.rule.astype(np.int8),
                "high": col.high.astype(np.int16),
                "low": col.low.astype(np.int8),
            }
        )

    table, hit = load_or_build(way_cache_path(way, deck, rules, cache), prov, build, use_cache,
                               check_way_table(len(hands), len(way.rule_names)))  # fmt: skip
    return WayTable(
        way=way.name,
        way_key=way.key,
        rule_names=way.rule_names,
        deck=deck,
        rules=rules,
        setting=_col(table, "setting", np.int8),
        rule=_col(table, "rule", np.int8),
        high=_col(table, "high", np.int16),
        low=_col(table, "low", np.int8),
        from_cache=hit,
    )


def way_tables(
    ways: Sequence[HouseWay | str],
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    cache: Path | None = None,
) -> list[WayTable]:
    """``way_table`` of each way; those not in the cache are set together (``apply_ways``: the
    readings of one way share one pass over the hands, so 28 readings cost about three)."""
    found = [get_way(w) if isinstance(w, str) else w for w in ways]
    deck = deck or Deck.full()
    rules = rules or Rules()
    hands = hand_table(deck, rules, use_cache, cache)
    missing = [w for w in found if not use_cache or not way_is_cached(w, deck, rules, cache)]
    built = {}
    if len(missing) > 1:
        columns = apply_ways(missing, hands.cards.astype(np.int64), rules)
        built = {w.key: c for w, c in zip(missing, columns, strict=True)}
    return [way_table_of(w, hands, use_cache, cache, built.get(w.key)) for w in found]


@njit(cache=True)
def _flatten(size, padded, out):
    """The first ``size[i]`` entries of every row of ``padded``, one row after another."""
    k = 0
    for i in range(size.shape[0]):
        for j in range(size[i]):
            out[k] = padded[i, j]
            k += 1


def flatten_rows(size: np.ndarray, padded: np.ndarray) -> np.ndarray:
    """The first ``size[i]`` entries of every row of the 2-D ``padded``, one row after
    another (a loop, not a boolean mask over the whole array: on the full deck's frontiers,
    highs and lows, the loop is several times faster).

    >>> flatten_rows(np.array([1, 2]), np.array([[5, -1], [6, 7]])).tolist()
    [5, 6, 7]
    """
    out = np.empty(int(size.astype(np.int64).sum()), dtype=padded.dtype)
    _flatten(read_only(size), read_only(padded), out)  # one compiled kernel per dtype
    return out


@njit(cache=True)
def _unflatten(size, offsets, values, out):
    """Inverse of ``_flatten`` into ``out`` (already filled with the padding)."""
    for i in range(size.shape[0]):
        start = offsets[i]
        for j in range(size[i]):
            out[i, j] = values[start + j]


def _build_player(hands: HandTable) -> pa.Table:
    fr = frontiers(hands.cards, hands.rules)
    offsets = np.zeros(len(fr.size) + 1, dtype=np.int64)
    np.cumsum(fr.size, out=offsets[1:])
    flat_high = flatten_rows(fr.size, fr.high)
    flat_low = flatten_rows(fr.size, fr.low)
    list_offsets = pa.array(offsets.astype(np.int32))
    return pa.table(
        {
            "size": fr.size,
            "frontier_high": pa.ListArray.from_arrays(list_offsets, flat_high),
            "frontier_low": pa.ListArray.from_arrays(list_offsets, flat_low),
            "max_high": fr.max_high.astype(np.int16),
            "max_low": fr.max_low.astype(np.int8),
        }
    )


def _padded(column: pa.ChunkedArray, size: np.ndarray, dtype: type) -> np.ndarray:
    """A list column back to a (n, width) array padded with -1."""
    width = max(1, int(size.max())) if len(size) else 1
    out: np.ndarray = np.full((len(size), width), -1, dtype=dtype)
    row = 0
    for chunk in column.chunks:
        n = len(chunk)
        offsets = np.asarray(chunk.offsets.to_numpy(), dtype=np.int64)
        values: np.ndarray = np.asarray(chunk.values.to_numpy(), dtype=dtype)
        _unflatten(size[row : row + n], offsets, values, out[row : row + n])
        row += n
    return out


_LAST_PLAYER: LastRead[PlayerTable] = LastRead()  # the last player table read or written


def player_table(
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    cache: Path | None = None,
) -> PlayerTable:
    """The frontier and the highest valid high and low ids of every class of ``deck`` under
    ``rules``, from the cache folder ``cache`` (default ``cache_dir()``) when it is current."""
    deck = deck or Deck.full()
    rules = rules or Rules()
    hands = hand_table(deck, rules, use_cache, cache)
    path = player_cache_path(deck, rules, cache)
    held = _LAST_PLAYER.get(path) if use_cache else None
    if held is not None and held.deck == deck and held.rules == rules:
        return replace(held, from_cache=True)
    prov = provenance(
        __name__, table="frontiers", deck=deck.key, rules=rules.key,
        rows=len(hands),
    )  # fmt: skip
    table, hit = load_or_build(
        path, prov, lambda: _build_player(hands), use_cache, check_player_table(len(hands)),
    )
    size = _col(table, "size", np.int8)
    result = PlayerTable(
        deck=deck,
        rules=rules,
        size=size,
        high=_padded(table.column("frontier_high"), size, np.int16),
        low=_padded(table.column("frontier_low"), size, np.int8),
        max_high=_col(table, "max_high", np.int16),
        max_low=_col(table, "max_low", np.int8),
        from_cache=hit,
    )
    if use_cache:  # read and verified, or built, checked and written: the file holds it
        _LAST_PLAYER.hold(path, result)
    return result
