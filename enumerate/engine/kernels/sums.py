"""Sums over the classes of per-class (or per-point) count tables, weighted by orbit sizes."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def weighted_rows(table, rows, weight):
    """``(weight[:, None] * table[rows]).sum(axis=0)`` in int64, a row at a time: numpy would
    read the (n, columns) table strided or build (n, columns) temporaries.

    >>> t = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int32)
    >>> weighted_rows(t, np.array([2, 0]), np.array([10, 1])).tolist()
    [51, 62]
    """
    out = np.zeros(table.shape[1], dtype=np.int64)
    for c in range(rows.shape[0]):
        r = rows[c]
        w = weight[c]
        for s in range(table.shape[1]):
            out[s] += w * np.int64(table[r, s])
    return out
