"""The Fenwick tree (binary indexed tree) of the sweeps over a family: weights added at low
ids (0 .. 90, the two-card ids) as the sweep passes their high ids, and read back as the
weight at low ids below a bound, each in O(log 91).

A tree is a 1-D int64 array of at least ``N_LOW + 1`` entries, all zero to start; entry 0 is
not used. A table with several trees (one per column of dealer hands) keeps one row each and
passes the row.

>>> import numpy as np
>>> tree = np.zeros(92, dtype=np.int64)
>>> fenwick_add(tree, 0, 5); fenwick_add(tree, 7, 2); fenwick_add(tree, 90, 1)
>>> [int(fenwick_below(tree, low)) for low in (0, 1, 7, 8, 91)]
[0, 5, 5, 7, 8]
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, inline="always")
def fenwick_add(tree, low, w):
    """Add ``w`` at low id ``low``."""
    i = low + 1
    n = tree.shape[0]
    while i < n:
        tree[i] += w
        i += i & -i


@njit(cache=True, nogil=True, inline="always")
def fenwick_below(tree, low):
    """The weight added at low ids below ``low`` (``low + 1`` for those at or below it)."""
    s = 0
    i = low
    while i > 0:
        s += tree[i]
        i -= i & -i
    return s
