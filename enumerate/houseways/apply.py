"""Setting hands by a house way: ``apply_way`` (and ``apply_ways``: several ways in one pass)
over rows of card ids, ``set_one_hand`` for one hand, and the numba kernels they run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SETTING_PAIRS, FiveCardTable, five_card_table
from enumerate.houseways.facts import NONE, hand_facts, highest_back
from enumerate.houseways.program import link
from enumerate.houseways.way import HouseWay
from enumerate.rules import Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import over_ranges


def royal_id(table: FiveCardTable) -> int:
    return int(np.flatnonzero(table.category == 8).max())


# The kernels: ``set_range`` for a ``choose(f)``, ``set_range_read`` for a ``choose(f, params)``
# and one or more readings; they set the hands ``lo <= h < hi`` and run in threads
# (``enumerate.runtime.threads``). Each takes the way's ``choose`` as an argument, which keeps it
# out of numba's disk cache (the argument's type is the function object, new in every process): a
# long compile in every process that sets hands. A module way may give a kernel of its own that
# calls one of these with its ``choose`` read as an attribute of its module (``HouseWay.kernel``:
# cached, compiled once per checkout); a way without one is set by these directly. Rule cards
# need neither: one cached kernel runs every card (``interpreter.set_range_cards``).


@njit(inline="always")
def _facts(cards, h, ids5, max_low, category5, royal_id):
    return hand_facts(cards[h].astype(np.int64), ids5, max_low, category5, royal_id)


@njit(cache=True)
def settle(f, s, r, n_rules):
    """The (setting, rule id) a way's choice ``(s, r)`` for the hand of facts ``f`` stands
    for: a setting that is not valid (or ``NONE``) becomes the strongest back, by the fallback
    rule ``n_rules`` (numba; the kernels and ``set_one_hand`` share it)."""
    if s == NONE or not f.valid[s]:
        return highest_back(f, np.ones(21, dtype=np.bool_)), n_rules
    return s, r


@njit(inline="always")
def _store(f, s, r, n_rules, h, setting, rule, high, low):
    """Write setting ``s`` by rule ``r`` for hand ``h`` (``settle``d)."""
    s, r = settle(f, s, r, n_rules)
    setting[h] = s
    rule[h] = r
    high[h] = f.high[s]
    low[h] = f.low[s]


@njit(cache=False, nogil=True)
def set_range(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, choose, setting, rule,
               high, low):  # fmt: skip
    for h in range(lo, hi):
        f = _facts(cards, h, ids5, max_low, category5, royal_id)
        s, r = choose(f)
        _store(f, s, r, n_rules, h, setting, rule, high, low)


@njit(cache=False, nogil=True)
def set_range_read(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, choose,
                    clauses_read, params, same, setting, rule, high, low):  # fmt: skip
    """Every reading of ``params`` (a row each, with its ``n_rules``) of one way at once: a
    hand's facts are worked out once for all of them, and a reading that agrees with an
    earlier one on every clause the hand's rule reads (``clauses_read(f)``; ``same``, from
    ``_same_readings``) copies that one's setting instead of setting the hand again."""
    every = same.shape[0] - 1  # all the clauses' bits
    for h in range(lo, hi):
        f = _facts(cards, h, ids5, max_low, category5, royal_id)
        read = clauses_read(f) & every
        for k in range(params.shape[0]):
            j = same[read, k]
            if j == k:
                s, r = choose(f, params[k])
                s, r = settle(f, s, r, n_rules[k])
            else:  # reading j's setting, by its rule (or by this reading's fallback)
                s, r = setting[h, j], rule[h, j]
                if r == n_rules[j]:
                    r = n_rules[k]
            setting[h, k] = s
            rule[h, k] = r
            high[h, k] = f.high[s]
            low[h, k] = f.low[s]


@njit(cache=True)
def every_clause(f):
    """``clauses_read`` of a way that says nothing of its readings: a hand may read them all."""
    return np.int64(-1)


MAX_BATCH_CLAUSES = 12  # ``_same_readings`` has a row per subset of the clauses


def _same_readings(params: np.ndarray) -> np.ndarray:
    """``same[m, k]``: the first reading (row of ``params``) that agrees with reading k on
    every clause of the bits ``m``; ``k`` itself when no earlier one does.

    >>> _same_readings(np.array([[0, 0], [1, 0], [0, 1]])).tolist()
    [[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 1, 2]]
    """
    n, q = params.shape
    if q > MAX_BATCH_CLAUSES:
        raise ValueError(f"a batch of readings of {q} clauses (at most {MAX_BATCH_CLAUSES})")
    same = np.empty((1 << q, n), dtype=np.int64)
    for m in range(1 << q):
        keys = [tuple(row[[c for c in range(q) if m >> c & 1]]) for row in params]
        first: dict[tuple[int, ...], int] = {}
        same[m] = [first.setdefault(key, k) for k, key in enumerate(keys)]
    return same


@dataclass(frozen=True)
class WayColumns:
    """A way's choice for many hands: setting index, rule id, back id and front id."""

    setting: np.ndarray
    rule: np.ndarray
    high: np.ndarray
    low: np.ndarray


def _way_columns(n: int, readings: int) -> tuple[np.ndarray, ...]:
    """Empty (setting, rule, high, low) columns: a row per hand, its readings side by side."""
    shape = (n, readings)
    return (np.empty(shape, dtype=np.int8), np.empty(shape, dtype=np.int8),
            np.empty(shape, dtype=np.int16), np.empty(shape, dtype=np.int8))  # fmt: skip


def apply_way(way: HouseWay, cards: np.ndarray, rules: Rules | None = None) -> WayColumns:
    """Set every hand (rows of seven increasing card ids) the way ``way`` does."""
    return apply_ways([way], cards, rules)[0]


def apply_ways(ways: Sequence[HouseWay], cards: np.ndarray,
               rules: Rules | None = None) -> list[WayColumns]:  # fmt: skip
    """``apply_way`` of each way; the readings of one way (the ways with ``params`` sharing a
    ``choose``) in one pass over the hands (``set_range_read``), each by its way's own kernel
    when it has one (``HouseWay.kernel``)."""
    t = five_card_table(rules)
    n = cards.shape[0]
    table = (cards, t.ids, t.max_low, t.category, royal_id(t))
    out: dict[int, WayColumns] = {}
    batches: dict[int, list[int]] = {}
    cards_at = [i for i, way in enumerate(ways) if way.program is not None]
    if cards_at:  # every rule card in one pass: the facts of a hand worked out once
        from enumerate.houseways.interpreter import batch, set_range_cards

        progs, same, remap = batch([link(ways[i].program, t, ways[i].name)  # type: ignore[arg-type]
                                    for i in cards_at], [ways[i].rules for i in cards_at])
        n_rules = np.array([len(ways[i].rules) for i in cards_at], dtype=np.int64)
        cols = _way_columns(n, len(cards_at))
        over_ranges(set_range_cards, n, *table, n_rules, progs, same, remap, *cols)
        for k, i in enumerate(cards_at):
            out[i] = WayColumns(*(np.ascontiguousarray(c[:, k]) for c in cols))
    for i, way in enumerate(ways):
        if way.program is not None:
            continue
        if way.params is None:
            one = [c[:, 0] for c in _way_columns(n, 1)]
            if way.kernel is not None:
                over_ranges(way.kernel, n, *table, len(way.rules), *one)
            else:
                over_ranges(set_range, n, *table, len(way.rules), way.choose, *one)
            out[i] = WayColumns(*one)
        else:
            batches.setdefault(id(way.choose), []).append(i)
    for members in batches.values():
        first = ways[members[0]]
        params = np.array([ways[i].params for i in members], dtype=np.int64)
        n_rules = np.array([len(ways[i].rules) for i in members], dtype=np.int64)
        cols = _way_columns(n, len(members))
        same = _same_readings(params)
        if first.kernel is not None:
            over_ranges(first.kernel, n, *table, n_rules, params, same, *cols)
        else:
            over_ranges(set_range_read, n, *table, n_rules, first.choose,
                        first.clauses_read or every_clause, params, same, *cols)  # fmt: skip
        for k, i in enumerate(members):
            out[i] = WayColumns(*(np.ascontiguousarray(c[:, k]) for c in cols))
    return [out[i] for i in range(len(ways))]


@dataclass(frozen=True)
class WaySetting:
    """How a way sets one hand."""

    way: str
    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_id: int
    low_id: int
    rule: str


def set_one_hand(way: HouseWay, cards: Any, rules: Rules | None = None) -> WaySetting:
    """Set one seven-card hand by ``way``.

    >>> from enumerate.houseways import get_way
    >>> s = set_one_hand(get_way("max-back"), "As Ks Qs Js Ts 2c 3d")
    >>> " ".join(map(str, s.low))
    '3d 2c'
    """
    hand = parse_cards(cards, count=7)
    ordered = sorted(hand)
    t = five_card_table(rules)
    # one hand: the facts and the way's choose called from Python, not ``apply_way``, whose
    # kernels take ``choose`` as an argument and so compile in every process; and
    # run as Python (``in_python``): starting numba's JIT would take longer than the hand
    f = in_python(hand_facts)(np.array([c.id for c in ordered], dtype=np.int64), t.ids,
                              t.max_low, t.category, royal_id(t))  # fmt: skip
    choose = in_python(way.choose)
    if way.program is not None:
        from enumerate.houseways.interpreter import N_FACTS, STACK

        s, r = choose(f, link(way.program, t, way.name), np.empty(N_FACTS, np.int64),
                      np.empty(STACK, np.int64))
        if r < 0:
            s = NONE
    elif way.params is None:
        s, r = choose(f)
    else:
        s, r = choose(f, np.array(way.params, dtype=np.int64))
    s, r = (int(x) for x in in_python(settle)(f, s, r, len(way.rules)))
    i, j = SETTING_PAIRS[s]
    back = tuple(sorted((c for m, c in enumerate(ordered) if m not in (i, j)), reverse=True))
    return WaySetting(
        way=way.name,
        high=back,
        low=(ordered[j], ordered[i]),
        high_id=int(f.high[s]),
        low_id=int(f.low[s]),
        rule=way.rule_names[r],
    )
