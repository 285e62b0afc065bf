"""Suit symmetry: canonical forms of card sets and the enumeration of their classes.

Permuting the suits of a deck (the joker stays) changes no hand's value. A card set is
described by one 13-bit rank mask per suit plus the joker; its canonical form lists the masks
of the deck's suits sorted by (number of cards, mask) decreasing, and the canonical
representative deals the first mask to the deck's first suit, and so on. The orbit of a set has
``n_suits! / |stabiliser|`` members, the stabiliser permuting suits with equal masks.

>>> from enumerate.rules import Deck
>>> [len(orbits(Deck.full(), k)) for k in range(4)]
[1, 14, 182, 1924]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb, factorial

import numpy as np
from numba import njit

from enumerate.cards import JOKER_ID
from enumerate.rules import Deck

# code = joker << 52 | m0 << 39 | m1 << 26 | m2 << 13 | m3, masks in canonical order
# (``code_of_masks``)


def _sorted_masks(rank_mask: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All sub-masks of ``rank_mask`` sorted by (popcount, mask); block bounds per popcount."""
    subs = []
    m = rank_mask
    while True:
        subs.append(m)
        if m == 0:
            break
        m = (m - 1) & rank_mask
    subs.sort(key=lambda x: (x.bit_count(), x))
    arr = np.array(subs, dtype=np.int64)
    pcs = np.array([x.bit_count() for x in subs], dtype=np.int64)
    start = np.searchsorted(pcs, np.arange(14), side="left")
    end = np.searchsorted(pcs, np.arange(14), side="right")
    return arr, start.astype(np.int64), end.astype(np.int64)


@njit(cache=True)
def _fill(parts, masks, start, end, out, pos):
    """Emit every non-increasing 4-tuple of masks with popcounts ``parts`` (count if out is
    empty); returns the new write position."""
    p0, p1, p2, p3 = parts[0], parts[1], parts[2], parts[3]
    for i0 in range(start[p0], end[p0]):
        e1 = i0 + 1 if p1 == p0 else end[p1]
        for i1 in range(start[p1], e1):
            e2 = i1 + 1 if p2 == p1 else end[p2]
            for i2 in range(start[p2], e2):
                e3 = i2 + 1 if p3 == p2 else end[p3]
                if out.shape[0] == 0:
                    pos += max(0, e3 - start[p3])
                    continue
                for i3 in range(start[p3], e3):
                    out[pos, 0] = masks[i0]
                    out[pos, 1] = masks[i1]
                    out[pos, 2] = masks[i2]
                    out[pos, 3] = masks[i3]
                    pos += 1
    return pos


def partitions(n: int, parts: int, cap: int) -> list[tuple[int, ...]]:
    """Non-increasing tuples of ``parts`` numbers in 0..cap summing to n."""
    if parts == 0:
        return [()] if n == 0 else []
    out = []
    for first in range(min(n, cap), -1, -1):
        for rest in partitions(n - first, parts - 1, first):
            out.append((first, *rest))
    return out


@dataclass(frozen=True, eq=False)
class Orbits:
    """The suit classes of the k-card sets of a deck, sorted by canonical code.

    ``cards[i]`` are the representative's card ids (increasing), ``size[i]`` its orbit size.
    """

    deck: Deck
    k: int
    codes: np.ndarray  # int64, increasing
    cards: np.ndarray  # (n, k) int8
    size: np.ndarray  # int32

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    @property
    def total(self) -> int:
        """Number of k-card sets of the deck: the orbit sizes add up to C(deck size, k)."""
        return int(self.size.sum(dtype=np.int64))

    def index_of(self, ids: list[int] | tuple[int, ...]) -> int:
        """Row of the class of a card set (given as card ids of this deck)."""
        code = canonical_code(np.array(ids, dtype=np.int64), suit_positions(self.deck))
        i = int(np.searchsorted(self.codes, code))
        if i >= len(self) or self.codes[i] != code:
            raise ValueError("cards are not a set of this deck's size")
        return i


def suit_positions(deck: Deck) -> np.ndarray:
    """For each suit index 0..3, its position among the deck's suits (-1: not in the deck)."""
    pos = np.full(4, -1, dtype=np.int64)
    for p, s in enumerate(deck.suits):
        pos[s.order] = p
    return pos


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of ``x`` (numba)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _swap_desc(a, b):
    return (a, b) if a >= b else (b, a)


@njit(cache=True, inline="always")
def suit_keys(row, picks, suit_pos):
    """The canonical form of the cards ``row[picks]`` without allocating (numba; loops over
    billions of card sets call it): per suit, (cards << 13) | rank mask, the four sorted
    decreasing, and 1 if the joker is among them."""
    m0 = m1 = m2 = m3 = 0
    joker = 0
    for t in range(picks.shape[0]):
        card = int(row[picks[t]])  # int8 in the hand table
        if card == JOKER_ID:
            joker = 1
            continue
        bit = 1 << (card >> 2)
        p = suit_pos[card & 3]
        if p == 0:
            m0 |= bit
        elif p == 1:
            m1 |= bit
        elif p == 2:
            m2 |= bit
        else:
            m3 |= bit
    k0 = (popcount(m0) << 13) | m0
    k1 = (popcount(m1) << 13) | m1
    k2 = (popcount(m2) << 13) | m2
    k3 = (popcount(m3) << 13) | m3
    # a sorting network of four, decreasing
    k0, k1 = _swap_desc(k0, k1)
    k2, k3 = _swap_desc(k2, k3)
    k0, k2 = _swap_desc(k0, k2)
    k1, k3 = _swap_desc(k1, k3)
    k1, k2 = _swap_desc(k1, k2)
    return k0, k1, k2, k3, joker


@njit(cache=True, inline="always")
def code_of_masks(m0, m1, m2, m3, joker):
    """The canonical code of four rank masks in canonical order (or of ``suit_keys``' keys:
    the popcounts above bit 13 are dropped) and the joker."""
    code = (joker << 52) | ((m0 & 0x1FFF) << 39) | ((m1 & 0x1FFF) << 26)
    return code | ((m2 & 0x1FFF) << 13) | (m3 & 0x1FFF)


@njit(cache=True)
def canonical_code(ids: np.ndarray, suit_pos: np.ndarray) -> int:
    """Canonical code of a card set (numba).

    >>> from enumerate.cards import parse_cards
    >>> pos = suit_positions(Deck.full())
    >>> a = canonical_code(np.array([c.id for c in parse_cards("As Ks 2h Jk")]), pos)
    >>> a == canonical_code(np.array([c.id for c in parse_cards("Ad Kd 2c Jk")]), pos)
    True
    """
    k0, k1, k2, k3, joker = suit_keys(ids, np.arange(ids.shape[0]), suit_pos)
    return code_of_masks(k0, k1, k2, k3, joker)


@njit(cache=True)
def _materialise(masks, joker, suit_ids, k, n_suits, fact):
    n = masks.shape[0]
    cards = np.empty((n, k), dtype=np.int8)
    size = np.empty(n, dtype=np.int32)
    codes = np.empty(n, dtype=np.int64)
    for i in range(n):
        # cards in increasing id order: by rank, then suit
        pos = 0
        for r in range(13):
            for s in range(4):
                for p in range(n_suits):
                    if suit_ids[p] == s and (masks[i, p] >> r) & 1:
                        cards[i, pos] = 4 * r + s
                        pos += 1
        if joker[i]:
            cards[i, pos] = JOKER_ID
        stab = 1
        run = 1
        for p in range(1, n_suits):
            if masks[i, p] == masks[i, p - 1]:
                run += 1
            else:
                stab *= fact[run]
                run = 1
        stab *= fact[run]
        size[i] = fact[n_suits] // stab
        codes[i] = code_of_masks(masks[i, 0], masks[i, 1], masks[i, 2], masks[i, 3], joker[i])
    return cards, size, codes


@cache
def orbits(deck: Deck, k: int) -> Orbits:
    """Every suit class of k-card sets of ``deck`` with its orbit size.

    >>> o = orbits(Deck.full(), 2)
    >>> len(o), o.total
    (182, 1378)
    """
    if not 0 <= k <= deck.size:
        raise ValueError(f"cannot take {k} cards from a {deck.size}-card deck")
    masks, start, end = _sorted_masks(deck.rank_mask)
    n_suits = len(deck.suits)
    n_ranks = len(deck.ranks)
    blocks = []
    jokers = []
    for j in (0, 1) if deck.joker else (0,):
        for part in partitions(k - j, n_suits, n_ranks):
            parts = np.array([*part, *([0] * (4 - n_suits))], dtype=np.int64)
            count = _fill(parts, masks, start, end, np.empty((0, 4), dtype=np.int64), 0)
            out = np.empty((count, 4), dtype=np.int64)
            _fill(parts, masks, start, end, out, 0)
            blocks.append(out)
            jokers.append(np.full(count, j, dtype=np.int64))
    all_masks = np.concatenate(blocks) if blocks else np.empty((0, 4), dtype=np.int64)
    all_jokers = np.concatenate(jokers) if jokers else np.empty(0, dtype=np.int64)
    suit_ids = np.array([s.order for s in deck.suits], dtype=np.int64)
    fact = np.array([factorial(i) for i in range(5)], dtype=np.int64)
    cards, size, codes = _materialise(all_masks, all_jokers, suit_ids, k, n_suits, fact)
    order = np.argsort(codes, kind="stable")
    result = Orbits(deck, k, codes[order], cards[order], size[order])
    if result.total != comb(deck.size, k):
        raise AssertionError(f"orbit sizes add up to {result.total}, not C({deck.size},{k})")
    return result
