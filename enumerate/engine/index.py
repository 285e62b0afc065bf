"""Local card indices of a deck and the class of every seven-card hand, by colex index.

A deck of n cards numbers its cards 0..n-1 in increasing id order; a hand's colex index over
those local numbers addresses ``hand_class``, which holds the row of the hand's suit class in
the hand table (int32, C(n,7) entries: 616 MB for the full deck).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit, prange

from enumerate.cards import JOKER_ID
from enumerate.colex import BINOM
from enumerate.rules import Deck
from enumerate.tables import HandTable


def local_of(deck: Deck) -> np.ndarray:
    """Map card id -> local index in the deck (-1 for cards not in it)."""
    loc = np.full(53, -1, dtype=np.int64)
    for i, cid in enumerate(sorted(deck.ids)):
        loc[cid] = i
    return loc


def suit_permutations(deck: Deck) -> np.ndarray:
    """Every permutation of the deck's suits, as maps suit index -> suit index (rows of 4)."""
    suits = [s.order for s in deck.suits]
    rows = []
    for perm in permutations(suits):
        row = list(range(4))
        for a, b in zip(suits, perm, strict=True):
            row[a] = b
        rows.append(row)
    return np.array(rows, dtype=np.int64)


@njit(cache=True, parallel=True)
def _fill_index(cards, perms, loc, out):
    n = cards.shape[0]
    k = cards.shape[1]
    for c in prange(n):
        img = np.empty(k, dtype=np.int64)
        for p in range(perms.shape[0]):
            for t in range(k):
                cid = cards[c, t]
                if cid == JOKER_ID:
                    img[t] = loc[cid]
                else:
                    img[t] = loc[(cid & ~3) | perms[p, cid & 3]]
            img.sort()
            col = 0
            for t in range(k):
                col += BINOM[img[t], t + 1]
            out[col] = c


def hand_index(table: HandTable) -> np.ndarray:
    """``hand_class[colex of local ids] = row`` for every seven-card hand of the table's deck."""
    n = table.deck.size
    out = np.full(int(BINOM[n, 7]), -1, dtype=np.int32)
    _fill_index(table.cards.astype(np.int64), suit_permutations(table.deck), local_of(table.deck), out)
    if (out < 0).any():
        raise AssertionError("some hand has no class")
    return out
