"""Sorting a family's int64 records by the high id held in their low ``HIGH_BITS`` bits,
stably: every sweep over a family (pair counts, per-hand, per-dealer, the blind pass) visits
its hands by increasing high id."""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.records import N_HIGH_MAX

# How the kernels order a family's items by high id (``order_by_high``), by size: an
# insertion sort up to 24 items, a radix sort of two digits below 3,072, a counting sort over
# every high id from there; on random high ids each is the fastest at its size, and each is
# faster than numba's argsort. It matters most at level 5, whose 150,891 families hold about
# 935 items each.
INSERTION_SORT_MAX = 24
COUNTING_SORT_MIN = 3072
HIGH_BITS = 14  # a sort record holds a high id (at most N_HIGH_MAX) in its low bits
_DIGIT = 7  # bits of each of the radix sort's two digits


@njit(cache=True, nogil=True, inline="always")
def radix_pass(src, dst, n, shift, mask, count):
    """One stable pass of a radix sort, least significant digit first: ``src[:n]`` into
    ``dst`` by the digit ``(x >> shift) & mask`` (``count``: ``mask + 2`` counters)."""
    count[:] = 0
    for i in range(n):
        count[((src[i] >> shift) & mask) + 1] += 1
    for d in range(mask + 1):
        count[d + 1] += count[d]
    for i in range(n):
        d = (src[i] >> shift) & mask
        dst[count[d]] = src[i]
        count[d] += 1


@njit(cache=True, nogil=True)
def sort_by_high(recs, n, out, tmp):
    """``recs[:n]`` (int64 records with a high id in their low ``HIGH_BITS`` bits) stably sorted
    by high id into ``out`` (``tmp``: a buffer of n): an insertion sort for a few, a radix
    sort for hundreds, a counting sort for thousands. The records themselves move, so a pass
    after reads them in order."""
    mask = (1 << HIGH_BITS) - 1
    if n <= INSERTION_SORT_MAX:
        for i in range(n):
            r = recs[i]
            t = i
            while t > 0 and (out[t - 1] & mask) > (r & mask):
                out[t] = out[t - 1]
                t -= 1
            out[t] = r
    elif n < COUNTING_SORT_MIN:
        digit = (1 << _DIGIT) - 1
        count = np.empty(digit + 2, dtype=np.int64)
        radix_pass(recs, tmp, n, 0, digit, count)
        radix_pass(tmp, out, n, _DIGIT, digit, count)
    else:
        start = np.zeros(N_HIGH_MAX + 2, dtype=np.int64)
        for i in range(n):
            start[(recs[i] & mask) + 1] += 1
        for h in range(N_HIGH_MAX + 1):
            start[h + 1] += start[h]
        for i in range(n):
            h = recs[i] & mask
            out[start[h]] = recs[i]
            start[h] += 1


@njit(cache=True, nogil=True)
def order_by_high(highs, n, order):
    """Indices of ``highs[:n]`` (ids at most ``N_HIGH_MAX``) in increasing order, stable
    (``sort_by_high`` of records holding each index above its high id; a comparison sort of
    the hundreds of thousands of items of a large family would cost far more)."""
    return order_by_high_into(highs, n, order, np.empty(n, dtype=np.int64),
                              np.empty(n, dtype=np.int64))  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def order_by_high_into(highs, n, order, recs, tmp):
    """``order_by_high`` with its two buffers given (at least n each): for callers that
    order a million small sets, where two arrays allocated per call cost more than the
    sort (the per-dealer sweep of level 6's families, a few hundred points each)."""
    for i in range(n):
        recs[i] = (np.int64(i) << HIGH_BITS) | highs[i]
    sort_by_high(recs, n, order, tmp)
    for t in range(n):
        order[t] >>= HIGH_BITS
    return order[:n]
