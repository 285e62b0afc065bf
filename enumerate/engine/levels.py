"""Hand families by inclusion-exclusion level: which classes hold a subset in each orbit.

For a level k, every k-subset T of every class representative is mapped to the orbit of card
sets it belongs to. Grouped by orbit S, the list of classes c (one entry per such subset) with
multiplicity ``|orbit c|`` describes the family H_S of hands containing S, scaled by
``|orbit S|``: a class c occurs ``m(c, S)`` times and stands for
``n_S(c) = |orbit c| * m(c, S) / |orbit S|`` hands of H_S (count the pairs (hand, subset) both
ways). So the engine's pair counts over an item list are ``|orbit S|^2 * F_S``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np
from numba import njit, prange

from enumerate.rules import Deck
from enumerate.symmetry import Orbits, canonical_code, orbits, suit_positions
from enumerate.tables import HandTable


@njit(cache=True, parallel=True)
def _subset_orbits(cards, subsets, codes, suit_pos):
    n = cards.shape[0]
    n_sub = subsets.shape[0]
    k = subsets.shape[1]
    out = np.empty(n * n_sub, dtype=np.int32)
    for c in prange(n):
        sub = np.empty(k, dtype=np.int64)
        for j in range(n_sub):
            for t in range(k):
                sub[t] = cards[c, subsets[j, t]]
            code = canonical_code(sub, suit_pos)
            out[c * n_sub + j] = np.searchsorted(codes, code)
    return out


@njit(cache=True)
def _group(sidx, n_sub, offsets):
    cursor = offsets[:-1].copy()
    items = np.empty(sidx.shape[0], dtype=np.int32)
    for pos in range(sidx.shape[0]):
        s = sidx[pos]
        items[cursor[s]] = pos // n_sub
        cursor[s] += 1
    return items


@dataclass(frozen=True, eq=False)
class Level:
    """The families H_S of one level: ``items[offsets[s]:offsets[s+1]]`` for orbit s."""

    k: int
    orbits: Orbits
    offsets: np.ndarray  # int64, len = number of orbits + 1
    items: np.ndarray  # int32 class rows

    @property
    def sign(self) -> int:
        return -1 if self.k % 2 else 1


def build_level(table: HandTable, k: int) -> Level:
    """Group the k-subsets of every class by their orbit."""
    deck: Deck = table.deck
    orb = orbits(deck, k)
    subsets = np.array(list(combinations(range(7), k)), dtype=np.int64).reshape(comb(7, k), k)
    sidx = _subset_orbits(table.cards.astype(np.int64), subsets, orb.codes, suit_positions(deck))
    counts = np.bincount(sidx, minlength=len(orb)).astype(np.int64)
    offsets = np.zeros(len(orb) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    items = _group(sidx, len(subsets), offsets)
    return Level(k, orb, offsets, items)
