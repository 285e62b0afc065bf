"""Hand families by inclusion-exclusion level: which classes hold a subset in each orbit.

For a level k, every k-subset T of every class representative is mapped to the orbit of card
sets it belongs to. Grouped by orbit S, the list of classes c (one entry per such subset) with
multiplicity ``|orbit c|`` describes the family H_S of hands containing S, scaled by
``|orbit S|``: a class c occurs ``m(c, S)`` times and stands for
``n_S(c) = |orbit c| * m(c, S) / |orbit S|`` hands of H_S, a whole number (count the pairs
(hand of the class, subset in the orbit) both ways). The kernels weigh each class by
``n_S(c)`` (``kernels.records.merge_family``), so their counts over a family are counts of
hands, and the engine adds ``|orbit S| * F_S`` for the orbit.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np
from numba import njit

from enumerate.rules import Deck
from enumerate.runtime.threads import cores, over_ranges
from enumerate.symmetry import (
    Orbits,
    canonical_code,
    code_of_masks,
    orbits,
    suit_keys,
    suit_positions,
)
from enumerate.tables import HandTable

_EMPTY = -1  # canonical codes are >= 0


@njit(cache=True, inline="always")
def _slot(code, shift):
    """Fibonacci hashing: the top bits of code x 2^64 / golden ratio."""
    return np.int64((np.uint64(code) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))


@njit(cache=True)
def _code_table(codes):
    """An open-addressing hash table from canonical code to orbit index (a binary search
    per subset would be most of the time of building a level)."""
    bits = 1
    while (1 << bits) < 2 * codes.shape[0]:
        bits += 1
    keys = np.full(1 << bits, _EMPTY, dtype=np.int64)
    values = np.zeros(1 << bits, dtype=np.int32)
    mask = (1 << bits) - 1
    for i in range(codes.shape[0]):
        h = _slot(codes[i], 64 - bits)
        while keys[h] != _EMPTY:
            h = (h + 1) & mask
        keys[h] = codes[i]
        values[h] = i
    return keys, values, 64 - bits


@njit(cache=True, nogil=True)
def _subset_orbits_range(lo, hi, cards, subsets, suit_pos, keys, values, shift, out):
    """Orbit index of every k-subset of hands ``lo .. hi - 1`` (``suit_keys``: the code of
    ``canonical_code``, without allocations, as this runs a billion times), looked up in
    ``_code_table``; -1 for a code that is not an orbit's (never, if the orbit list is
    right)."""
    mask = keys.shape[0] - 1
    n_sub = subsets.shape[0]
    for c in range(lo, hi):
        for j in range(n_sub):
            k0, k1, k2, k3, joker = suit_keys(cards[c], subsets[j], suit_pos)
            code = code_of_masks(k0, k1, k2, k3, joker)
            h = _slot(code, shift)
            while keys[h] != code and keys[h] != _EMPTY:
                h = (h + 1) & mask
            out[c * n_sub + j] = values[h] if keys[h] == code else -1


def _subset_orbits(cards: np.ndarray, subsets: np.ndarray, suit_pos: np.ndarray,
                   keys: np.ndarray, values: np.ndarray, shift: int) -> np.ndarray:  # fmt: skip
    """Orbit index of every k-subset of every hand, hand by hand (``_subset_orbits_range``)."""
    out = np.empty(cards.shape[0] * subsets.shape[0], dtype=np.int32)
    over_ranges(_subset_orbits_range, cards.shape[0], cards, subsets, suit_pos, keys, values,
                shift, out)  # fmt: skip
    return out


@njit(cache=True, nogil=True)
def _chunk_counts(lo, hi, sidx, n_sub, bounds, counts):
    """counts[ch, s]: subsets of the classes of chunk ch (``lo .. hi - 1``) in orbit s."""
    for ch in range(lo, hi):
        for pos in range(bounds[ch] * n_sub, bounds[ch + 1] * n_sub):
            counts[ch, sidx[pos]] += 1


@njit(cache=True, nogil=True)
def _group(lo, hi, sidx, n_sub, bounds, starts, items):
    """Counting sort of (class) entries by orbit, chunks ``lo .. hi - 1``; each chunk writes
    its own slots, so the classes of an orbit stay in increasing order."""
    for ch in range(lo, hi):
        cursor = starts[ch].copy()
        for pos in range(bounds[ch] * n_sub, bounds[ch + 1] * n_sub):
            s = sidx[pos]
            items[cursor[s]] = pos // n_sub
            cursor[s] += 1


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


@dataclass(frozen=True, eq=False)
class LevelArrays:
    """What the kernels read of one level: the families by orbit and the orbit sizes (from a
    ``Level`` built in memory, or memory-mapped from the level cache, ``levels.cache``)."""

    k: int
    offsets: np.ndarray  # int64, len = number of orbits + 1
    items: np.ndarray  # int32 class rows
    orbit_size: np.ndarray  # int64

    @property
    def sign(self) -> int:
        return -1 if self.k % 2 else 1

    def __len__(self) -> int:
        """Number of orbits (families) of the level."""
        return int(self.orbit_size.shape[0])

    @classmethod
    def of(cls, level: Level) -> LevelArrays:
        return cls(level.k, level.offsets, level.items, level.orbits.size.astype(np.int64))


def build_level(table: HandTable, k: int) -> Level:
    """Group the k-subsets of every class by their orbit."""
    deck: Deck = table.deck
    orb = orbits(deck, k)
    n = len(table)
    if k == 7:  # every class is its own orbit (both are sorted by canonical code)
        return Level(k, orb, np.arange(n + 1, dtype=np.int64), np.arange(n, dtype=np.int32))
    subsets = np.array(list(combinations(range(7), k)), dtype=np.int64).reshape(comb(7, k), k)
    # the table's int8 cards as they are: a copy as int64 (390 MB on the full deck) would
    # cost every level the first touch of all its pages
    sidx = _subset_orbits(table.cards, subsets, suit_positions(deck), *_code_table(orb.codes))
    if sidx.min() < 0:
        raise AssertionError(f"level {k}: a subset's canonical code is not in the orbit list")
    n_chunks = max(1, min(n, 4 * cores()))
    bounds = np.linspace(0, n, n_chunks + 1).astype(np.int64)
    counts = np.zeros((n_chunks, len(orb)), dtype=np.int64)
    over_ranges(_chunk_counts, n_chunks, sidx, len(subsets), bounds, counts)
    offsets = np.zeros(len(orb) + 1, dtype=np.int64)
    np.cumsum(counts.sum(axis=0), out=offsets[1:])
    starts = offsets[:-1][None, :] + np.cumsum(counts, axis=0) - counts
    items = np.empty(int(offsets[-1]), dtype=np.int32)
    over_ranges(_group, n_chunks, sidx, len(subsets), bounds, starts, items)
    return Level(k, orb, offsets, items)


def subset_orbits(level: Level | LevelArrays, table: HandTable, rows: list[int]) -> np.ndarray:
    """Orbit ids of the level's k-subsets of the given classes' representatives: the only
    families in which those classes appear."""
    pos = suit_positions(table.deck)
    codes = orbits(table.deck, level.k).codes
    found = set()
    for r in rows:
        cards = [int(c) for c in table.cards[r]]
        for sub in combinations(cards, level.k):
            code = canonical_code(np.array(sub, dtype=np.int64), pos)
            found.add(int(np.searchsorted(codes, code)))
    return np.array(sorted(found), dtype=np.int64)
