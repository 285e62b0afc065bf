"""What a house way looks at: the facts of one seven-card hand, computed once (numba).

``HandFacts`` is a named tuple of plain scalars and arrays so that rule functions compiled by numba
can read it. Ranks are indices 0 (deuce) .. 12 (ace); *effective* ranks read the joker as an ace, as
docs/rules.md asks for every "ace" condition and for pairs (joker + ace = a pair of aces).

The 21 settings are numbered as in ``enumerate.evaluate.SETTING_PAIRS``: setting ``s`` puts the
sorted hand's cards ``i < j`` in front (the two-card low hand) and the other five in back.

Primitives for rules:
- ``by_front_ranks(f, r1, r2)``: the valid setting whose front holds effective ranks r1 and r2,
  keeping the strongest back among equivalent choices (suits can matter for a flush);
- ``highest_front(f, allowed)``: among allowed valid settings, the highest front, then back.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from enumerate.cards import JOKER_ID
from enumerate.evaluate import back_colex, two_card_id_of

ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX = 12, 11, 10, 9, 8, 7, 6, 5, 4
TWO = 0
NONE = -1  # "this rule does not apply" / no such setting

# categories of five-card hands (enumerate.evaluate.Category)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_ACES = (
    range(10)
)

# A hand's facts as one int64 table of 21 columns (``facts_into``): the kernels that set many
# hands fill one table per thread and pass that, not a ``HandFacts`` of separate arrays, whose
# every array numba counts references to at every call
T_HIGH, T_LOW, T_VALID, T_CAT, T_FRONT_HI, T_FRONT_LO = range(6)  # rows by setting, 21 columns
T_RANK, T_COUNTS, T_QUADS, T_TRIPS, T_PAIRS, T_SINGLES = range(6, 12)  # 7 columns (T_COUNTS: 13)
T_SCALARS = 12  # a row of the scalar facts, at these columns:
T_JOKER, T_N_QUADS, T_N_TRIPS, T_N_PAIRS, T_N_SINGLES, T_BEST_CAT, T_ROYAL = range(7)
FACT_ROWS = 13

HandFacts = namedtuple(
    "HandFacts",
    [
        "cards",  # (7,) card ids, increasing (the joker, 52, last)
        "rank",  # (7,) effective rank of each card (joker = ace)
        "joker",  # the hand holds the joker
        "counts",  # (13,) cards of each effective rank
        "quads",  # (7,) ranks held four times (or more: five aces), high to low; n_quads of them
        "n_quads",
        "trips",  # ranks held three times, high to low
        "n_trips",
        "pairs",  # ranks held twice, high to low
        "n_pairs",
        "singles",  # ranks held once, high to low
        "n_singles",
        "high",  # (21,) five-card id of each setting's back
        "low",  # (21,) two-card id of each setting's front
        "valid",  # (21,) back ranks at least as high as front
        "cat",  # (21,) category of each setting's back
        "front_hi",  # (21,) higher effective rank in front
        "front_lo",  # (21,) lower effective rank in front
        "best_cat",  # category of the best five cards of the hand
        "royal_id",  # five-card id of a royal flush
        "table",  # (FACT_ROWS, 21) the same facts as one table (``facts_into``)
    ],
)


@njit(cache=True, nogil=True, inline="always")
def facts_into(cards, ids5, max_low, category5, royal_id, t):
    """The facts of seven increasing card ids into the table ``t`` (``FACT_ROWS`` x 21 int64),
    with no allocation."""
    for r in range(13):
        t[T_COUNTS, r] = 0
    joker = 0
    for m in range(7):
        c = cards[m]
        if c == JOKER_ID:
            joker = 1
            t[T_RANK, m] = ACE
        else:
            t[T_RANK, m] = c >> 2
        t[T_COUNTS, t[T_RANK, m]] += 1
    for m in range(7):
        t[T_QUADS, m] = NONE
        t[T_TRIPS, m] = NONE
        t[T_PAIRS, m] = NONE
        t[T_SINGLES, m] = NONE
    nq = nt = np_ = ns = 0
    for r in range(12, -1, -1):
        n = t[T_COUNTS, r]
        if n >= 4:
            t[T_QUADS, nq] = r
            nq += 1
        elif n == 3:
            t[T_TRIPS, nt] = r
            nt += 1
        elif n == 2:
            t[T_PAIRS, np_] = r
            np_ += 1
        elif n == 1:
            t[T_SINGLES, ns] = r
            ns += 1
    best_high = -1
    s = 0
    for i in range(7):
        for j in range(i + 1, 7):
            h = ids5[back_colex(cards, i, j)]
            lw = two_card_id_of(cards[i], cards[j])
            t[T_HIGH, s] = h
            t[T_LOW, s] = lw
            t[T_VALID, s] = lw <= max_low[h]
            t[T_CAT, s] = category5[h]
            t[T_FRONT_HI, s] = max(t[T_RANK, i], t[T_RANK, j])
            t[T_FRONT_LO, s] = min(t[T_RANK, i], t[T_RANK, j])
            if h > best_high:
                best_high = h
            s += 1
    t[T_SCALARS, T_JOKER] = joker
    t[T_SCALARS, T_N_QUADS] = nq
    t[T_SCALARS, T_N_TRIPS] = nt
    t[T_SCALARS, T_N_PAIRS] = np_
    t[T_SCALARS, T_N_SINGLES] = ns
    t[T_SCALARS, T_BEST_CAT] = category5[best_high]
    t[T_SCALARS, T_ROYAL] = royal_id


@njit(cache=True, nogil=True, inline="always")
def row_facts_into(cards, row, hand, ids5, max_low, category5, royal_id, t):
    """``facts_into`` of the hand in row ``row`` of ``cards`` (seven ids of any integer type
    a row), through ``hand`` (seven int64)."""
    for m in range(7):
        hand[m] = cards[row, m]
    facts_into(hand, ids5, max_low, category5, royal_id, t)


@njit(cache=True)
def hand_facts(cards, ids5, max_low, category5, royal_id):
    """Facts of seven increasing card ids (``HandFacts``: views of one table)."""
    t = np.empty((FACT_ROWS, 21), dtype=np.int64)
    facts_into(cards, ids5, max_low, category5, royal_id, t)
    return HandFacts(
        cards, t[T_RANK, :7], t[T_SCALARS, T_JOKER] != 0, t[T_COUNTS, :13], t[T_QUADS, :7],
        t[T_SCALARS, T_N_QUADS], t[T_TRIPS, :7], t[T_SCALARS, T_N_TRIPS], t[T_PAIRS, :7],
        t[T_SCALARS, T_N_PAIRS], t[T_SINGLES, :7], t[T_SCALARS, T_N_SINGLES], t[T_HIGH],
        t[T_LOW], t[T_VALID] != 0, t[T_CAT], t[T_FRONT_HI], t[T_FRONT_LO],
        t[T_SCALARS, T_BEST_CAT], royal_id, t,
    )  # fmt: skip


@njit(cache=True)
def by_front_ranks(f, r1, r2):
    """The valid setting with effective ranks ``r1`` and ``r2`` in front and the strongest back
    among such settings; ``NONE`` if there is none."""
    hi, lo = max(r1, r2), min(r1, r2)
    best = NONE
    for s in range(21):
        if f.valid[s] and f.front_hi[s] == hi and f.front_lo[s] == lo:
            if best == NONE or f.high[s] > f.high[best]:
                best = s
    return best


@njit(cache=True)
def _best_by(first, second, allowed, valid):
    """Among valid allowed settings, the highest ``first``, then the highest ``second``."""
    best = NONE
    for s in range(21):
        if allowed[s] and valid[s]:
            if best == NONE or first[s] > first[best] or (
                first[s] == first[best] and second[s] > second[best]
            ):
                best = s
    return best


@njit(cache=True)
def highest_front(f, allowed):
    """Among valid settings with ``allowed[s]``, the one with the highest front, then the highest
    back; ``NONE`` if none is allowed."""
    return _best_by(f.low, f.high, allowed, f.valid)


@njit(cache=True)
def highest_back(f, allowed):
    """Among valid settings with ``allowed[s]``, the one with the highest back, then front."""
    return highest_back_in(f.table, allowed)


@njit(cache=True, nogil=True)
def highest_back_in(t, allowed):
    """``highest_back`` of the hand of fact table ``t`` (``facts_into``)."""
    return _best_by(t[T_HIGH], t[T_LOW], allowed, t[T_VALID])


@njit(cache=True)
def two_highest_singles(f):
    """The setting with the two highest singleton ranks in front (``NONE`` with fewer than
    two singletons)."""
    if f.n_singles < 2:
        return NONE
    return by_front_ranks(f, f.singles[0], f.singles[1])


@njit(cache=True)
def low_id_of_ranks(r1, r2):
    """Two-card id of a front hand with ranks r1, r2 (pair when equal)."""
    return two_card_id_of(4 * r1, 4 * r2 + (1 if r1 == r2 else 0))


@njit(cache=True)
def is_complete(f):
    """The hand's best five cards are a straight, flush or straight flush."""
    return f.best_cat in (STRAIGHT, FLUSH, STRAIGHT_FLUSH)


@njit(cache=True)
def holds_ace(f):
    """An ace or the joker is in the hand (the joker counts as an ace in ace conditions)."""
    return f.counts[ACE] > 0


@njit(cache=True)
def singleton_ace(f):
    """Exactly one ace (natural or the joker) in the hand."""
    return f.counts[ACE] == 1
