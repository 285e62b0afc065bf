"""A dense numbering of the suit classes of seven-card hands, computed from a hand's cards:
no lookup table of the 6,972,147 canonical codes, so a loop over millions of hands finds each
one's class with a few small-table reads instead of a hash probe in hundreds of megabytes.

A class is its canonical form (``symmetry``): one rank mask per suit, sorted by (number of
cards, mask) decreasing, and the joker. Group the four masks into blocks of equal popcount p:
a block of L masks, non-increasing, is a multiset of L of the C(r, p) masks of p of the deck's
r ranks; numbering the masks of each popcount by colex rank (the order of the mask as a
number), the multiset has a colex rank among the C(C(r, p) + L - 1, L) multisets (add L-1-t to
the t-th largest to make them distinct). A class is then numbered by the mixed-radix number of
its blocks' ranks, after the classes of every (joker, popcount pattern) before its own. Every
tuple of masks is some hand, so the numbers are exactly 0 .. classes - 1; ``class_index``
checks that on the hand table's codes (a bijection) before anyone relies on it.

The numbering is not the hand table's row order (rows sort by canonical code); it indexes
arrays made for it (``onehand.direct``).

>>> from enumerate.rules import Deck
>>> from enumerate.tables import hand_table
>>> deck = Deck.parse("TJQKA:cdh+joker")
>>> ix = class_index(deck)
>>> idx = ix.of_codes(hand_table(deck, use_cache=False).codes)
>>> ix.size, sorted(idx.tolist()) == list(range(ix.size))
(2055, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
from numba import njit

from enumerate.rules import Deck
from enumerate.runtime.threads import over_ranges
from enumerate.symmetry import partitions, popcount

_MASK = 0x1FFF  # one suit's 13 rank bits
_PATTERNS = 2 * 4096  # joker * 4096 + p0 * 512 + p1 * 64 + p2 * 8 + p3, popcounts p <= 7


@dataclass(frozen=True, eq=False)
class ClassIndex:
    """The small tables of the numbering of a deck's classes."""

    mask_rank: np.ndarray  # (8192,) int64 colex rank of a mask among those of its popcount
    n_masks: np.ndarray  # (8,) int64 masks of each popcount: C(ranks, p)
    binom: np.ndarray  # (top + 4, 5) int64 binomials C(n, k), k <= 4
    pattern_offset: np.ndarray  # (8192,) int64 first number of a (joker, popcounts), or -1
    size: int  # number of classes

    def of_codes(self, codes: np.ndarray) -> np.ndarray:
        """The number of each canonical code (int64)."""
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=np.int64)
        over_ranges(_of_codes, codes.shape[0], codes, self.mask_rank, self.n_masks, self.binom,
                    self.pattern_offset, out)  # fmt: skip
        return out

    def permutation(self, codes: np.ndarray) -> np.ndarray:
        """``of_codes(codes)`` of a hand table's codes, checked to be a bijection onto
        0 .. size - 1 (an AssertionError otherwise: the numbering or the table is wrong)."""
        idx = self.of_codes(codes)
        if len(idx) != self.size or not _is_permutation(idx):
            raise AssertionError("the class numbering is not a bijection onto the hand table")
        return idx


@cache
def class_index(deck: Deck) -> ClassIndex:
    """The numbering of ``deck``'s seven-card classes."""
    ranks = [r for r in range(13) if deck.rank_mask >> r & 1]
    n_r = len(ranks)
    mask_rank = np.full(_MASK + 1, -1, dtype=np.int64)
    for sub in range(1 << n_r):  # sub-masks of the deck's ranks, compacted
        mask, rank, t = 0, 0, 0
        for b in range(n_r):
            if sub >> b & 1:
                mask |= 1 << ranks[b]
                t += 1
                rank += comb(b, t)
        mask_rank[mask] = rank
    n_masks = np.array([comb(n_r, p) for p in range(8)], dtype=np.int64)
    top = int(n_masks.max())
    binom = np.array([[comb(n, k) for k in range(5)] for n in range(top + 4)], dtype=np.int64)
    offset = np.full(_PATTERNS, -1, dtype=np.int64)
    size = 0
    for joker in (0, 1) if deck.joker else (0,):
        for p in partitions(7 - joker, 4, min(7, n_r)):
            if sum(1 for x in p if x) > len(deck.suits):
                continue
            offset[joker * 4096 + p[0] * 512 + p[1] * 64 + p[2] * 8 + p[3]] = size
            count, i = 1, 0
            while i < 4:
                n_equal = sum(1 for x in p[i:] if x == p[i])
                count *= comb(comb(n_r, p[i]) + n_equal - 1, n_equal)
                i += n_equal
            size += count
    return ClassIndex(mask_rank, n_masks, binom, offset, size)


@njit(cache=True, inline="always")
def _block(number, p, n_equal, ra, rb, rc, rd, n_masks, binom):
    """``number`` times the multisets of ``n_equal`` masks of popcount p, plus the colex rank
    of the multiset with mask ranks ra >= rb >= rc >= rd (the first ``n_equal`` of them)."""
    rank = binom[ra + n_equal - 1, n_equal]
    if n_equal > 1:
        rank += binom[rb + n_equal - 2, n_equal - 1]
    if n_equal > 2:
        rank += binom[rc + n_equal - 3, n_equal - 2]
    if n_equal > 3:
        rank += rd
    return number * binom[n_masks[p] + n_equal - 1, n_equal] + rank


@njit(cache=True, inline="always")
def index_of_keys(k0, k1, k2, k3, joker, mask_rank, n_masks, binom, pattern_offset):
    """The number of the class whose suits' keys (popcount << 13 | mask), sorted decreasing,
    are k0 >= k1 >= k2 >= k3 (numba; negative for a popcount pattern the deck cannot hold)."""
    p0, p1, p2, p3 = k0 >> 13, k1 >> 13, k2 >> 13, k3 >> 13
    r0, r1 = mask_rank[k0 & _MASK], mask_rank[k1 & _MASK]
    r2, r3 = mask_rank[k2 & _MASK], mask_rank[k3 & _MASK]
    first = pattern_offset[joker * 4096 + p0 * 512 + p1 * 64 + p2 * 8 + p3]
    if first < 0:
        return -1
    # equal popcounts are adjacent (the keys are sorted): the blocks, largest popcount first
    if p0 == p3:
        n = _block(0, p0, 4, r0, r1, r2, r3, n_masks, binom)
    elif p0 == p2:
        n = _block(_block(0, p0, 3, r0, r1, r2, 0, n_masks, binom), p3, 1, r3, 0, 0, 0,
                   n_masks, binom)  # fmt: skip
    elif p1 == p3:
        n = _block(_block(0, p0, 1, r0, 0, 0, 0, n_masks, binom), p1, 3, r1, r2, r3, 0,
                   n_masks, binom)  # fmt: skip
    elif p1 == p2:
        n = _block(_block(0, p0, 1, r0, 0, 0, 0, n_masks, binom), p1, 2, r1, r2, 0, 0,
                   n_masks, binom)  # fmt: skip
        n = _block(n, p3, 1, r3, 0, 0, 0, n_masks, binom)
    else:  # p0 == p1 or not, p2 == p3 or not
        if p0 == p1:
            n = _block(0, p0, 2, r0, r1, 0, 0, n_masks, binom)
        else:
            n = _block(_block(0, p0, 1, r0, 0, 0, 0, n_masks, binom), p1, 1, r1, 0, 0, 0,
                       n_masks, binom)  # fmt: skip
        if p2 == p3:
            n = _block(n, p2, 2, r2, r3, 0, 0, n_masks, binom)
        else:
            n = _block(_block(n, p2, 1, r2, 0, 0, 0, n_masks, binom), p3, 1, r3, 0, 0, 0,
                       n_masks, binom)  # fmt: skip
    return first + n


@njit(cache=True, nogil=True)
def _of_codes(lo, hi, codes, mask_rank, n_masks, binom, pattern_offset, out):
    for i in range(lo, hi):
        c = codes[i]
        m0, m1, m2, m3 = (c >> 39) & _MASK, (c >> 26) & _MASK, (c >> 13) & _MASK, c & _MASK
        out[i] = index_of_keys(
            (popcount(m0) << 13) | m0, (popcount(m1) << 13) | m1, (popcount(m2) << 13) | m2,
            (popcount(m3) << 13) | m3, c >> 52, mask_rank, n_masks, binom, pattern_offset,
        )  # fmt: skip


@njit(cache=True)
def _is_permutation(idx):
    seen = np.zeros(idx.shape[0], dtype=np.bool_)
    for i in idx:
        if i < 0 or i >= idx.shape[0] or seen[i]:
            return False
        seen[i] = True
    return True
