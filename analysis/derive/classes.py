"""The classes as a derivation sees them: each class's facts (the rule-card language's, by which
a card's conditions tell hands apart) and the setting each candidate front makes of it.

A derived rule is a condition over the facts of ``DERIVE_FACTS`` (the card language's named
facts, ``enumerate.houseways.interpreter.FACTS``, and the fronts a few choices leave) and one of
the candidate fronts of ``FRONTS``. Classes with the same facts meet the same
conditions, so a derivation works on the distinct fact vectors (*keys*: a quarter million on the
full deck, against 6,972,147 classes) with, per key and front, the summed exact gain of the
classes under it. The settings are made by the card kernel's own ``choose_setting``: what a
derived card does to a hand is what the derivation counted.

A front is usable on a class only where it makes a valid setting that is not dominated (a point
of the class's frontier, ``enumerate.waytables.player_table``); elsewhere the class is *bad*
for that front, and a rule with that front must not reach it (``search``). The fronts' points
are found once per deck and read by every derivation on it (``ClassChoices.on``: as indices
among a per-hand or per-dealer table's points).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from enumerate.cache import (
    arrays_current,
    arrays_stem,
    cache_dir,
    load_or_build_arrays,
    provenance,
    release_pages,
    require,
)
from enumerate.conditions.settings import CARD_RANK_FACTS
from enumerate.evaluate import five_card_table
from enumerate.houseways.apply import royal_id
from enumerate.houseways.facts import (
    FACT_ROWS,
    NONE,
    T_FRONT_HI,
    T_FRONT_LO,
    T_HIGH,
    T_LOW,
    T_VALID,
    row_facts_into,
)
from enumerate.houseways.interpreter import (
    ALL_BACKS,
    CHOICE_WIDTH,
    FACTS,
    N_FACTS,
    SEL_RANKS,
    choose_setting,
    fill_facts,
    rank_argument,
)
from enumerate.houseways.program import compile_card
from enumerate.runtime.threads import over_ranges
from enumerate.tables import HandTable
from enumerate.waytables import flatten_rows, player_table

# The fronts a derived rule may choose, in the card language. Any frontier setting of a hand is
# one of them ("R1 R2" puts those ranks in front with the strongest back behind, which is the
# frontier point of that front when there is one); the list holds those a card names by the
# hand's own ranks, and the selectors of the shipped cards.
FRONTS: tuple[str, ...] = (
    "pair pair1", "pair pair2", "pair pair3", "pair trips1", "pair trips2", "pair quad1",
    *(f"single{i} single{j}" for i in range(1, 7) for j in range(i + 1, 8)),
    *(f"{x} single{i}" for x in ("pair1", "pair2", "pair3", "trips1", "quad1") for i in (1, 2)),
    "A single1", "A single2",
    "highest", "strongest back",
    *(f"highest keeping {b} or better" for b in ("pair", "two pair", "trips", "straight",
                                                   "flush", "full house")),
)  # fmt: skip

# Facts of a choice a derived condition reads beside the language's named facts: the front
# that a complete back leaves, as a card writes it (``front_high(FRONT)``, ``front_low(FRONT)``;
# -1 where the hand cannot make it). Chosen from the hands a card without them still sets worse:
# whether to break a pair for a straight or flush turns on what the straight leaves in front.
CHOICE_FACTS: tuple[tuple[str, str], ...] = (
    ("front_high", "highest keeping straight or better"),
    ("front_low", "highest keeping straight or better"),
)
# the facts a derived condition reads, in the order of a key table's columns
CHOICE_OF: dict[str, tuple[str, str]] = {f"{side}({front})": (side, front)
                                         for side, front in CHOICE_FACTS}  # by fact name
DERIVE_FACTS: tuple[str, ...] = (*FACTS, *CHOICE_OF)
N_DERIVE_FACTS = len(DERIVE_FACTS)
assert 4 * len(CHOICE_FACTS) <= 16  # packed beside a key's index (``_compute``)
RANK_FACTS = tuple(n for n in FACTS if n in CARD_RANK_FACTS)
_COUNT_TOP = {"n_quads": 1, "n_trips": 2, "n_pairs": 3, "n_singles": 7}
ROW_SLICE = 1 << 20  # classes read between two releases of the choices' pages (``by_slices``)
RANK_SLOTS = 16  # effective ranks of a front card, 0 .. 15 at most (``_choice_rows``)


def fact_domain(name: str) -> tuple[int, int]:
    """The lowest and highest value of a fact (a rank a hand lacks is -1).

    >>> fact_domain("pair2"), fact_domain("n_pairs"), fact_domain("best_five")
    ((-1, 12), (0, 3), (0, 9))
    """
    if name in RANK_FACTS or name in CHOICE_OF:
        return -1, 12
    if name in _COUNT_TOP:
        return 0, _COUNT_TOP[name]
    if name == "best_five":
        return 0, 9
    return 0, 1


DOMAIN = np.array([fact_domain(n) for n in DERIVE_FACTS], dtype=np.int64)
_KEY_FACTS = np.array([FACTS.index(n) for n in (*RANK_FACTS, "joker", "best_five",
                                                  "five_aces")], dtype=np.int64)  # fmt: skip


def _choice_columns() -> tuple[np.ndarray, np.ndarray]:
    """Per choice fact: the index of its front in ``FRONTS``, and whether it reads the front's
    lower rank."""
    fronts = np.array([FRONTS.index(front) for _, front in CHOICE_FACTS], dtype=np.int64)
    low = np.array([side == "front_low" for side, _ in CHOICE_FACTS], dtype=np.bool_)
    return fronts, low


def fronts_program() -> np.ndarray:
    """A card program whose choices table holds ``FRONTS`` in order (``choose_setting``'s
    choice ``k`` is ``FRONTS[k]``)."""
    prog = compile_card([("", front, 0) for front in FRONTS])
    assert int(prog[0]) == len(FRONTS)
    return prog


@njit(cache=True, nogil=True)
def _key(vals, key_facts):
    """The class's facts packed in an int64: 4 bits a fact (every fact of ``key_facts`` lies in
    -1 .. 14); the facts not packed follow from these (``check_keys``)."""
    k = np.int64(0)
    for i in range(key_facts.shape[0]):
        k = (k << 4) | (vals[key_facts[i]] + 1)
    return k


@njit(cache=True, nogil=True, inline="always")
def _choice_fact(t, prog, front, low, vals):
    """A choice fact of the hand of fact table ``t``: the higher (or ``low``: lower) rank of
    the front that choice ``front`` of ``prog`` sets, -1 where it sets none (what a card's
    ``front_high(FRONT)`` reads)."""
    s = choose_setting(t, prog, front, vals)
    if s == NONE:
        return -1
    return t[T_FRONT_LO, s] if low else t[T_FRONT_HI, s]


@njit(cache=True, nogil=True, inline="always")
def _choice_key(t, prog, cf_front, cf_low, vals):
    """The choice facts packed in an int64, 4 bits each (ranks -1 .. 12)."""
    k = np.int64(0)
    for e in range(cf_front.shape[0]):
        k = (k << 4) | (_choice_fact(t, prog, cf_front[e], cf_low[e], vals) + 1)
    return k


def _plain_ranks(prog: np.ndarray, n_fronts: int) -> np.ndarray:
    """Per choice of ``prog``: does it pick by the front's two ranks alone (no back category,
    royal or least-rank condition)? ``_choice_rows`` answers those from a per-hand table."""
    out = np.zeros(n_fronts, dtype=np.bool_)
    for k in range(n_fronts):
        at = int(prog[1]) + CHOICE_WIDTH * k
        sel, mask, royal, least = (int(prog[at + i]) for i in (0, 1, 2, 7))
        out[k] = sel == SEL_RANKS and mask == ALL_BACKS and royal == 0 and least < 0
    return out


@njit(cache=True, nogil=True)
def _choice_rows(lo, hi, cards, ids5, max_low, category5, royal_id, prog, n_fronts, plain,
                 offset, point_high, point_low, key_facts, cf_front, cf_low, key, key2,
                 loc):  # fmt: skip
    """For classes ``lo <= c < hi``: the packed facts (the named ones in ``key``, the choice
    facts in ``key2``), and per front the index (from the class's first point) of the point it
    sets, -1 where it sets none of them.

    A choice of ``plain`` ranks is answered from the hand's best setting of each pair of
    front ranks: what ``choose_setting`` returns for it (the valid setting with those ranks in
    front and the highest back, the first of equals), found once for all such choices."""
    vals = np.empty(N_FACTS, dtype=np.int64)
    by_ranks = np.full(RANK_SLOTS * RANK_SLOTS, NONE, dtype=np.int64)
    point = np.empty(21, dtype=np.int64)
    t = np.empty((FACT_ROWS, 21), dtype=np.int64)
    hand = np.empty(7, dtype=np.int64)
    for c in range(lo, hi):
        row_facts_into(cards, c, hand, ids5, max_low, category5, royal_id, t)
        fill_facts(t, vals)
        key[c] = _key(vals, key_facts)
        key2[c] = _choice_key(t, prog, cf_front, cf_low, vals)
        for s in range(21):
            point[s] = -1
            if t[T_VALID, s] == 0:
                continue
            for p in range(offset[c], offset[c + 1]):
                if point_high[p] == t[T_HIGH, s] and point_low[p] == t[T_LOW, s]:
                    point[s] = p - offset[c]
                    break
            i = t[T_FRONT_HI, s] * RANK_SLOTS + t[T_FRONT_LO, s]
            if by_ranks[i] == NONE or t[T_HIGH, s] > t[T_HIGH, by_ranks[i]]:
                by_ranks[i] = s
        for k in range(n_fronts):
            if plain[k]:
                at = prog[1] + CHOICE_WIDTH * k
                r1 = rank_argument(prog[at + 3], prog[at + 4], vals)
                r2 = rank_argument(prog[at + 5], prog[at + 6], vals)
                s = NONE
                if min(r1, r2) >= 0:
                    s = by_ranks[max(r1, r2) * RANK_SLOTS + min(r1, r2)]
            else:
                s = choose_setting(t, prog, k, vals)
            loc[c, k] = -1 if s == NONE else point[s]
        for s in range(21):
            if t[T_VALID, s] != 0:
                by_ranks[t[T_FRONT_HI, s] * RANK_SLOTS + t[T_FRONT_LO, s]] = NONE


@njit(cache=True, nogil=True)
def _facts_of(lo, hi, rows, cards, ids5, max_low, category5, royal_id, prog, cf_front, cf_low,
              out):  # fmt: skip
    vals = np.empty(N_FACTS, dtype=np.int64)
    t = np.empty((FACT_ROWS, 21), dtype=np.int64)
    hand = np.empty(7, dtype=np.int64)
    for i in range(lo, hi):
        row_facts_into(cards, rows[i], hand, ids5, max_low, category5, royal_id, t)
        fill_facts(t, vals)
        for j in range(N_FACTS):  # element by element: a row copy compiles far slower
            out[i, j] = vals[j]
        for e in range(cf_front.shape[0]):
            out[i, N_FACTS + e] = _choice_fact(t, prog, cf_front[e], cf_low[e], vals)


@njit(cache=True)
def _remap(offset, high, low, to_offset, to_high, to_low, loc):
    """``loc`` (per class and front, an index among the class's points ``offset``, ``high``,
    ``low``) as an index among the points ``to_*`` (-1 where the point is not among them)."""
    out = np.full(loc.shape, -1, dtype=np.int8)
    n, n_fronts = loc.shape
    for c in range(n):
        for j in range(n_fronts):
            if loc[c, j] < 0:
                continue
            p = offset[c] + loc[c, j]
            for q in range(to_offset[c], to_offset[c + 1]):
                if to_high[q] == high[p] and to_low[q] == low[p]:
                    out[c, j] = q - to_offset[c]
                    break
    return out


@dataclass(frozen=True, eq=False)
class ClassChoices:
    """Per class: its key (index into ``facts``) and, per front, the frontier point it sets
    (an index from the class's first point of the frontier ``offset``, ``high``, ``low``; -1:
    the front makes no valid setting, or a dominated one). ``facts`` holds each key's facts."""

    key: np.ndarray  # (n,) int32
    loc: np.ndarray  # (n, len(FRONTS)) int8
    facts: np.ndarray  # (K, N_DERIVE_FACTS) int64
    offset: np.ndarray  # (n + 1,) int64
    high: np.ndarray  # (P,) the frontier points: back ids
    low: np.ndarray  # (P,) front ids
    # the last remapping (``on``), for the next derivation on the same table
    _last: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=list, repr=False)

    @property
    def n_keys(self) -> int:
        return len(self.facts)

    def on(self, offset: np.ndarray, high: np.ndarray, low: np.ndarray) -> np.ndarray:
        """``loc`` as indices among another list of each class's settings (a per-hand table's
        points, the same frontier in the same order, or a per-dealer table's: every valid
        setting)."""
        for o, h, lo, loc in self._last:
            if h is high and lo is low and np.array_equal(o, offset):
                return loc
        same = len(high) == len(self.high) and np.array_equal(offset, self.offset) and (
            np.array_equal(high, self.high) and np.array_equal(low, self.low))
        loc = self.loc if same else _remap(self.offset, self.high, self.low,
                                           offset.astype(np.int64), high, low, self.loc)
        release(self.offset, self.high, self.low, *(() if same else (self.loc,)))
        self._last[:] = [(offset, high, low, loc)]
        return loc

    def release(self) -> None:
        """Give back the resident pages of the arrays mapped from the cache (``release``)."""
        release(self.key, self.loc, self.offset, self.high, self.low)

    def by_slices(self, kernel: Callable[..., None], *args: object) -> None:
        """``kernel(lo, hi, *args)`` over the classes a slice at a time, the slice's pages of
        ``key`` and ``loc`` given back after it (``release``)."""
        n = len(self.key)
        for lo in range(0, n, ROW_SLICE):
            hi = min(n, lo + ROW_SLICE)
            kernel(lo, hi, *args)
            release(self.key, self.loc, rows=(lo, hi))


def release(*arrays: np.ndarray, rows: tuple[int, int] | None = None) -> None:
    """Give back the resident pages of arrays mapped read-only from the cache (they stay in
    the page cache, and are mapped again when read), of their ``rows`` only if given; other
    arrays are left alone."""
    for a in arrays:
        if isinstance(a, np.memmap) and a.flags.c_contiguous:
            width = a.size // max(1, len(a))
            lo, hi = rows if rows is not None else (0, len(a))
            release_pages(a.reshape(-1), lo * width, hi * width)


def facts_of(table: HandTable, rows: np.ndarray) -> np.ndarray:
    """The fact vectors (``DERIVE_FACTS``) of the classes ``rows``."""
    five = five_card_table(table.rules)
    out = np.empty((len(rows), N_DERIVE_FACTS), dtype=np.int64)
    over_ranges(_facts_of, len(rows), rows.astype(np.int64), table.cards, five.ids,
                five.max_low, five.category, royal_id(five), fronts_program(),
                *_choice_columns(), out)  # fmt: skip
    return out


@njit(cache=True)
def _frontier_mask(offset, high, low):
    """Per point: no other point of its class is as strong in both hands (the points of a
    class are distinct)."""
    out = np.ones(high.shape[0], dtype=np.bool_)
    for c in range(offset.shape[0] - 1):
        for p in range(offset[c], offset[c + 1]):
            for q in range(offset[c], offset[c + 1]):
                if q != p and high[q] >= high[p] and low[q] >= low[p]:
                    out[p] = False
                    break
    return out


def frontier(offset: np.ndarray, high: np.ndarray, low: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The frontier points (``offset``, ``high``, ``low``) among a table's points: a per-hand
    table's are the frontier already, a per-dealer table's are every valid setting."""
    keep = _frontier_mask(offset, high, low)
    if keep.all():
        return offset, high, low
    counts = np.add.reduceat(keep.astype(np.int64), offset[:-1]) if len(keep) else keep
    out = np.zeros(len(offset), dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out, high[keep], low[keep]


_LAST: list[tuple[tuple[str, str, int], ClassChoices]] = []  # the last deck's, for its next use


def _folder() -> Path:
    return cache_dir() / "derive"


def _names(table: HandTable) -> tuple[str, dict[str, object]]:
    """The cache files' stem and provenance of a deck's choices (the fronts hashed in)."""
    fronts = hashlib.sha256("\n".join((*FRONTS, *DERIVE_FACTS)).encode()).hexdigest()[:16]
    prov = provenance(__name__, table="derive-choices", deck=table.deck.key,
                      rules=table.rules.key, rows=len(table), fronts=fronts)  # fmt: skip
    return arrays_stem("choices", prov), prov


def _check(a: dict[str, np.ndarray], rows: int) -> None:
    """A deck's choices' invariants: a key per class, a point of the class (or -1) per front."""
    require(a["key"].shape == (rows,) and a["loc"].shape == (rows, len(FRONTS)),
            "a key and a point per front for every class")  # fmt: skip
    require(a["facts"].ndim == 2 and a["facts"].shape[1] == N_DERIVE_FACTS,
            "the facts of each key")  # fmt: skip
    require(int(a["key"].min(initial=0)) >= 0 and int(a["key"].max(initial=0)) <
            len(a["facts"]), "the keys index the facts")  # fmt: skip
    offset = a["offset"]
    require(offset.shape == (rows + 1,) and offset[0] == 0 and offset[-1] == len(a["high"])
            == len(a["low"]) and bool((np.diff(offset) >= 1).all()),
            "every class has its points")  # fmt: skip
    require(int(a["loc"].min(initial=0)) >= -1 and bool(
        (a["loc"].max(axis=1) < np.diff(offset)).all()), "every point lies in its class")


def choices_cached(table: HandTable) -> bool:
    """Are a deck's choices in the cache? (They are verified when read.)"""
    stem, prov = _names(table)
    return arrays_current(_folder(), stem, prov)


def class_choices(table: HandTable, points: tuple[np.ndarray, np.ndarray, np.ndarray] | None
                  = None, use_cache: bool = True) -> ClassChoices:  # fmt: skip
    """The keys of ``table``'s classes and the frontier point of every front: from the cache
    (verified when read) or one pass over the classes, written to it. The frontier is taken
    from ``points`` (a table's ``offset``, ``high``, ``low``: ``frontier``) or the deck's
    frontiers. The last deck's is kept in memory for the next derivation on it (``forget``)."""
    ident = (table.deck.key, table.rules.key, len(table))
    if _LAST and _LAST[0][0] == ident:
        return _LAST[0][1]
    _LAST.clear()
    stem, prov = _names(table)
    arrays, _ = load_or_build_arrays(_folder(), stem, prov, lambda: _compute(table, points),
                                     lambda a: _check(a, len(table)),
                                     "the derivation's choices", use_cache)  # fmt: skip
    out = ClassChoices(arrays["key"], arrays["loc"], arrays["facts"], arrays["offset"],
                       arrays["high"], arrays["low"])  # fmt: skip
    out.release()  # the pages the checks read
    _LAST.append((ident, out))
    return out


def _compute(table: HandTable, points: tuple[np.ndarray, np.ndarray, np.ndarray] | None
             ) -> dict[str, np.ndarray]:  # fmt: skip

    if points is None:
        fr = player_table(table.deck, table.rules)
        offset = np.zeros(len(table) + 1, dtype=np.int64)
        np.cumsum(fr.size, out=offset[1:])
        high, low = flatten_rows(fr.size, fr.high), flatten_rows(fr.size, fr.low)
        del fr
    else:
        offset, high, low = frontier(points[0].astype(np.int64), points[1], points[2])
    five = five_card_table(table.rules)
    n = len(table)
    packed, packed2 = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    loc = np.empty((n, len(FRONTS)), dtype=np.int8)
    prog = fronts_program()
    over_ranges(_choice_rows, n, table.cards, five.ids, five.max_low, five.category,
                royal_id(five), prog, len(FRONTS), _plain_ranks(prog, len(FRONTS)), offset,
                high, low, _KEY_FACTS, *_choice_columns(), packed, packed2, loc)  # fmt: skip
    # the named facts' keys, then those with the choice facts beside them (4 bits each)
    named = np.unique(packed, return_inverse=True)[1].astype(np.int64).reshape(-1)
    del packed
    _, first, key = np.unique((named << (4 * len(CHOICE_FACTS))) | packed2,
                              return_index=True, return_inverse=True)  # fmt: skip
    del named, packed2
    return {"key": key.astype(np.int32), "loc": loc, "facts": facts_of(table, first),
            "offset": offset, "high": high, "low": low}


def forget() -> None:
    """Drop the kept choices (about 400 MB on the full deck)."""
    _LAST.clear()
