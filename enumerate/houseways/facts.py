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
    ],
)


@njit(cache=True)
def hand_facts(cards, ids5, max_low, category5, royal_id):
    """Facts of seven increasing card ids."""
    rank = np.empty(7, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    joker = False
    for m in range(7):
        c = cards[m]
        if c == JOKER_ID:
            joker = True
            rank[m] = ACE
        else:
            rank[m] = c >> 2
        counts[rank[m]] += 1
    quads = np.full(7, NONE, dtype=np.int64)
    trips = np.full(7, NONE, dtype=np.int64)
    pairs = np.full(7, NONE, dtype=np.int64)
    singles = np.full(7, NONE, dtype=np.int64)
    nq = nt = np_ = ns = 0
    for r in range(12, -1, -1):
        if counts[r] >= 4:
            quads[nq] = r
            nq += 1
        elif counts[r] == 3:
            trips[nt] = r
            nt += 1
        elif counts[r] == 2:
            pairs[np_] = r
            np_ += 1
        elif counts[r] == 1:
            singles[ns] = r
            ns += 1
    high = np.empty(21, dtype=np.int64)
    low = np.empty(21, dtype=np.int64)
    valid = np.empty(21, dtype=np.bool_)
    cat = np.empty(21, dtype=np.int64)
    front_hi = np.empty(21, dtype=np.int64)
    front_lo = np.empty(21, dtype=np.int64)
    best_high = -1
    s = 0
    for i in range(7):
        for j in range(i + 1, 7):
            h = ids5[back_colex(cards, i, j)]
            lw = two_card_id_of(cards[i], cards[j])
            high[s] = h
            low[s] = lw
            valid[s] = lw <= max_low[h]
            cat[s] = category5[h]
            front_hi[s] = max(rank[i], rank[j])
            front_lo[s] = min(rank[i], rank[j])
            if h > best_high:
                best_high = h
            s += 1
    return HandFacts(
        cards, rank, joker, counts, quads, nq, trips, nt, pairs, np_, singles, ns,
        high, low, valid, cat, front_hi, front_lo, category5[best_high], royal_id,
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
    return _best_by(f.high, f.low, allowed, f.valid)


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
