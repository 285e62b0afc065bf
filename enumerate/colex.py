"""Colex ranks of card sets: a k-set ``c0 < c1 < ... < c(k-1)`` of card ids has index
``C(c0, 1) + C(c1, 2) + ... + C(c(k-1), k)``, a dense number in ``0 .. C(n, k) - 1``.

>>> colex_index([0, 1, 2, 3, 4]), colex_index([48, 49, 50, 51, 52]) == comb(53, 5) - 1
(0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np
from numba import njit

MAX_N = 64
MAX_K = 8

BINOM = np.zeros((MAX_N + 1, MAX_K + 1), dtype=np.int64)
for _n in range(MAX_N + 1):
    for _k in range(MAX_K + 1):
        BINOM[_n, _k] = comb(_n, _k)


def colex_index(sorted_ids: Sequence[int]) -> int:
    """Colex index of a set given in increasing order."""
    ids = sorted(sorted_ids)
    return sum(comb(c, i + 1) for i, c in enumerate(ids))


@njit(cache=True, inline="always")
def colex5(a: int, b: int, c: int, d: int, e: int) -> int:
    """Colex index of five increasing ids (numba)."""
    return BINOM[a, 1] + BINOM[b, 2] + BINOM[c, 3] + BINOM[d, 4] + BINOM[e, 5]


@njit(cache=True)
def colex_of_row(row: np.ndarray) -> int:
    """Colex index of an increasing row of ids (numba)."""
    s = 0
    for i in range(row.shape[0]):
        s += BINOM[row[i], i + 1]
    return s


@njit(cache=True)
def combinations_at(pool, start, count, out):
    """Write into ``out`` the ``count`` 7-subsets of ``pool`` that follow, in lexicographic order
    of positions, the one of rank ``start``; returns how many there were (fewer at the end).

    >>> out = np.empty((3, 7), dtype=np.int64)
    >>> combinations_at(np.arange(9), 35, 3, out), out[0].tolist()
    (1, [2, 3, 4, 5, 6, 7, 8])
    """
    m = pool.shape[0]
    idx = np.arange(7)
    # unrank ``start`` in lexicographic order
    rem = start
    prev = -1
    for t in range(7):
        c = prev + 1
        while True:
            # number of combinations with idx[t] == c
            n_rest = m - c - 1
            k_rest = 6 - t
            cnt = 1
            for i in range(k_rest):
                cnt = cnt * (n_rest - i) // (i + 1)
            if rem < cnt:
                break
            rem -= cnt
            c += 1
        idx[t] = c
        prev = c
    for r in range(count):
        for t in range(7):
            out[r, t] = pool[idx[t]]
        t = 6
        while t >= 0 and idx[t] == m - 7 + t:
            t -= 1
        if t < 0:
            return r + 1
        idx[t] += 1
        for v in range(t + 1, 7):
            idx[v] = idx[v - 1] + 1
    return count
