"""The dealer grid of a family and the adds of answers into per-class rows.

The dealer points of a family are sorted by high id and cut into rows, one per distinct high
id; ``grid[r, lcol[l], d]`` counts dealers of class d among the r lowest distinct highs with a
low id below l, so every rectangle ``[0, h) x [a, b)`` a player asks about costs two reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.records import N_HIGH_MAX, N_LOW, unpack_class
from enumerate.engine.kernels.sorting import order_by_high

W = N_LOW + 1  # grid columns: low id bounds 0..91


@njit(cache=True)
def make_scratch(max_items, n_p, n_d, n_groups=1):
    """Buffers reused by every family of a shard, so the kernels allocate little per family.

    The grid holds counts of hands of one family: at most |H_S| <= C(53,7) < 2^31, so int32
    is exact and halves the memory traffic. ``n_groups``: the number of
    player groups (``EngineKeys.player_groups``), for the summed weight of each group.
    """
    rows = min(max_items, N_HIGH_MAX) + 1
    return (
        np.empty(max_items, dtype=np.int64),  # highs
        np.empty(max_items, dtype=np.int64),  # distinct highs
        np.empty(rows * W * n_d, dtype=np.int32),  # grid
        np.zeros(N_HIGH_MAX + 1, dtype=np.int64),  # hrank
        np.zeros((W, n_d), dtype=np.int64),  # cum_l
        np.zeros((W, n_d), dtype=np.int64),  # band
        np.zeros(n_p, dtype=np.int64),  # hist_p
        np.zeros(n_d, dtype=np.int64),  # tot
        np.zeros(n_groups, dtype=np.int64),  # group_w: summed player weight of each group
        np.empty(min(max_items, n_groups), dtype=np.int64),  # groups met in this family
        np.empty(max_items, dtype=np.int64),  # order of the items by dealer high
        np.zeros(W, dtype=np.int64),  # lcol: the grid column of each low bound
    )


@njit(cache=True, nogil=True)
def dealer_grid(frec, mult, n_d, scratch, col_map=None):
    """Build the dealer grid of a family (records ``frec``) in ``scratch``.

    Fills ``tot[d]`` (dealers of class d), ``cum_l[l, d]`` (dealers with low < l), the distinct
    dealer highs and, for large families, ``hrank``. Returns (grid, rows, dense) where
    ``grid[r, lcol[l], d]`` counts dealers of class d among the r lowest distinct highs with
    low < l: the columns are the family's distinct dealer lows only (``lcol[l]``: how many of
    them are below l; ``scratch[11]``), as a small family holds a few of the 91 (a family of
    44 classes, 12 rows and some 20 lows, would otherwise fill 12 x 92 columns).

    With ``col_map`` (``n_d`` x dealer classes, 0 or 1) the last axis is its ``n_d`` columns
    instead, a dealer of class c counted in every column g with ``col_map[g, c]``
    (``perhand.answersets``). Without it numba compiles the branch away (a None argument).
    """
    n = frec.shape[0]
    highs, uniq, grid_buf, hrank, cum_l, band = scratch[:6]
    tot, order_buf, lcol = scratch[7], scratch[10], scratch[11]
    tot[:] = 0
    cum_l[:] = 0
    for i in range(n):
        h, lo, d, _p, _o, _s, _g = unpack_class(frec[i])
        if col_map is None:
            tot[d] += mult[i]
            cum_l[lo + 1, d] += mult[i]
        else:
            for g in range(n_d):
                if col_map[g, d]:
                    tot[g] += mult[i]
                    cum_l[lo + 1, g] += mult[i]
        highs[i] = h
    lcol[0] = 0
    for lo in range(1, W):
        present = False
        for d in range(n_d):
            present = present or cum_l[lo, d] != 0
        lcol[lo] = lcol[lo - 1] + present
    width = lcol[W - 1] + 1  # bounds 0..(distinct lows)
    for lo in range(1, W):
        for d in range(n_d):
            cum_l[lo, d] += cum_l[lo - 1, d]
    order = order_by_high(highs, n, order_buf)
    rows = 0
    for t in range(n):
        h = highs[order[t]]
        if rows == 0 or uniq[rows - 1] != h:
            uniq[rows] = h
            rows += 1
    grid = grid_buf[: (rows + 1) * width * n_d].reshape((rows + 1, width, n_d))
    grid[0] = 0
    t = 0
    for r in range(rows):
        band[:width] = 0
        while t < n and highs[order[t]] == uniq[r]:
            i = order[t]
            _h, lo, d, _p, _o, _s, _g = unpack_class(frec[i])
            if col_map is None:
                band[lcol[lo] + 1, d] += mult[i]
            else:
                for g in range(n_d):
                    if col_map[g, d]:
                        band[lcol[lo] + 1, g] += mult[i]
            t += 1
        for d in range(n_d):
            run = 0
            for j in range(width):
                run += band[j, d]
                grid[r + 1, j, d] = grid[r, j, d] + run
    dense = rows > 64
    if dense:  # hrank[h] = number of distinct dealer highs below h
        r = 0
        for h in range(N_HIGH_MAX + 1):
            while r < rows and uniq[r] < h:
                r += 1
            hrank[h] = r
    return grid, rows, dense


@njit(cache=True, nogil=True, inline="always")
def row_of(h, hrank, uniq, rows, dense):
    """Number of distinct dealer highs below h: ``np.searchsorted(uniq[:rows], h)``, as a plain
    binary search (numba's ``searchsorted`` compiles several times slower)."""
    if dense:
        return hrank[h]
    lo, hi = 0, rows
    while lo < hi:
        mid = (lo + hi) >> 1
        if uniq[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True, inline="always")
def add_scaled(acc, at, src, a, n, f):
    """``acc[at : at + n] += f * src[a : a + n]``, wrapping modulo 2^32 in int32. Through
    views, whose indices from ``range`` numba knows are not negative: indexing the arrays
    themselves with ``at + t`` keeps a wraparound test per entry, which stops the loop from
    being vectorized."""
    dst = acc[at : at + n]
    part = src[a : a + n]
    g = np.int32(f)
    for t in range(n):
        dst[t] += g * part[t]
