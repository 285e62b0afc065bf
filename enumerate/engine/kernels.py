"""Numba kernels of the pair engine: exact counts over all ordered pairs of one hand family.

A family is a list of hand classes with multiplicities (``items``, ``mult``); every item is both
a possible player hand and a possible dealer hand. Over all ordered pairs (player x, dealer y)
the kernel adds:

- ``joint[p, d]``: pairs by player class p and dealer class d;
- blind play (the player has one setting): ``bwin[d]`` both player hands higher,
  ``bloss[d]`` both lower or equal (copies go to the dealer);
- best response (the player sees the dealer's setting and may use any frontier setting):
  ``rwin[d]`` some frontier point beats both dealer hands; ``rpush[d]`` no win, but the highest
  valid high hand or the highest valid low hand beats its dealer hand.

Method (DESIGN.md section 3): the dealer points are sorted by high id and cut into rows, one per
distinct high id; a grid ``G[r, lcol[l], d]`` counts dealers of class d in the first r rows
whose low id is below l, with a column per distinct dealer low of the family (``lcol[l]``: how
many are below l). A player query at high id h reads row ``r(h)`` = number of distinct dealer
highs below h, so every rectangle ``[0, h) x [a, b)`` costs two grid reads. A frontier (points by
increasing high id) covers the staircase cut into disjoint rectangles
``[0, h_i) x [l_(i+1), l_i)`` with ``l_m = 0``.

What keeps it fast (full deck: 1.9 billion hand visits in under a minute on two cores):
player hands of one *group* (equal blind setting and frontier; 223,896 groups for 6,972,147
classes) ask the grid the same questions, so a family answers each group once with its summed
weight; every class is one packed int64 record (``pack_classes``) copied per family by
``merge_family``, so the passes over a family read its own array instead of taking a cache miss
per class in each of seven tables; large families are sorted by counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.prefetch import prefetch

N_LOW = 91
N_HIGH_MAX = 8192  # bound on five-card ids (7,463 under the standard rules)
_W = N_LOW + 1  # grid columns: low id bounds 0..91
DIRECT_MAX = 40  # families this small are counted pair by pair
MERGE_AHEAD = 16  # items between asking for a class's record and reading it (merge_family)


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
        np.empty(rows * _W * n_d, dtype=np.int32),  # grid
        np.zeros(N_HIGH_MAX + 1, dtype=np.int64),  # hrank
        np.zeros((_W, n_d), dtype=np.int64),  # cum_l
        np.zeros((_W, n_d), dtype=np.int64),  # band
        np.zeros(n_p, dtype=np.int64),  # hist_p
        np.zeros(n_d, dtype=np.int64),  # tot
        np.zeros(n_groups, dtype=np.int64),  # group_w: summed player weight of each group
        np.empty(min(max_items, n_groups), dtype=np.int64),  # groups met in this family
        np.empty(max_items, dtype=np.int64),  # order of the items by dealer high
        np.zeros(_W, dtype=np.int64),  # lcol: the grid column of each low bound
    )


# How the kernels order a family's items by high id (``_order_by_high``), by size, measured
# on random high ids: insertion sort up to 24 items (0.07 us for 16, a third of a radix
# sort's), a radix sort of two digits below 3,072 (3.1 us for 935 items against numba's
# argsort 12.4 us), a counting sort over every high id from there (24.9 us for 12,000 items
# against 37.7 us). Level 5's 150,891 families hold about 935 items each: their argsort was
# 4.7 of the engine's 17 thread-seconds there.
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
def _order_by_high(highs, n, order):
    """Indices of ``highs[:n]`` (ids at most ``N_HIGH_MAX``) in increasing order, stable
    (``sort_by_high`` of records holding each index above its high id; a comparison sort of
    700,000 items per family was a third of the grid time)."""
    return order_by_high_into(highs, n, order, np.empty(n, dtype=np.int64),
                              np.empty(n, dtype=np.int64))  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def order_by_high_into(highs, n, order, recs, tmp):
    """``_order_by_high`` with its two buffers given (at least n each): for callers that
    order a million small sets, where two arrays allocated per call cost more than the
    sort (the per-dealer sweep of level 6's families, a few hundred points each)."""
    for i in range(n):
        recs[i] = (np.int64(i) << HIGH_BITS) | highs[i]
    sort_by_high(recs, n, order, tmp)
    for t in range(n):
        order[t] >>= HIGH_BITS
    return order[:n]


# One int64 record per class holds everything a family pass reads of it: a family's classes
# are scattered over the whole table, so each separate per-class array cost a cache miss per
# item; ``merge_family`` now reads one record per class and the passes after it read the
# family's own copy.
_DL_SHIFT, _DC_SHIFT, _PC_SHIFT, _ORBIT_SHIFT, _SEL_SHIFT, _GROUP_SHIFT = 13, 20, 25, 29, 34, 35
_FIELD_LIMITS = {  # field: (shift, bound)
    "dealer high": (0, 1 << 13),
    "dealer low": (_DL_SHIFT, 1 << 7),
    "dealer class": (_DC_SHIFT, 1 << 5),
    "player class": (_PC_SHIFT, 1 << 4),
    "class orbit size": (_ORBIT_SHIFT, 1 << 5),
    "player selected": (_SEL_SHIFT, 2),
    "player group": (_GROUP_SHIFT, 1 << 28),
}


def pack_classes(**fields: np.ndarray) -> np.ndarray:
    """The per-class records of the kernels from the fields of ``_FIELD_LIMITS`` (by name,
    spaces as underscores).

    >>> r = pack_classes(dealer_high=np.array([7462]), dealer_low=np.array([90]),
    ...     dealer_class=np.array([3]), player_class=np.array([11]),
    ...     class_orbit_size=np.array([24]), player_selected=np.array([1]),
    ...     player_group=np.array([223895]))
    >>> [int(x) for x in unpack_class(r[0])]
    [7462, 90, 3, 11, 24, 1, 223895]
    """
    out = np.zeros(len(next(iter(fields.values()))), dtype=np.int64)
    for name, (shift, bound) in _FIELD_LIMITS.items():
        values = np.asarray(fields[name.replace(" ", "_")], dtype=np.int64)
        if len(values) and (values.min() < 0 or values.max() >= bound):
            raise ValueError(f"{name} out of the kernels' range [0, {bound})")
        out |= values << shift
    return out


@njit(cache=True, nogil=True, inline="always")
def unpack_class(r):
    """(dealer high, dealer low, dealer class, player class, orbit size, selected, group)."""
    return (
        r & 0x1FFF, (r >> _DL_SHIFT) & 0x7F, (r >> _DC_SHIFT) & 0x1F, (r >> _PC_SHIFT) & 0xF,
        (r >> _ORBIT_SHIFT) & 0x1F, (r >> _SEL_SHIFT) & 1, r >> _GROUP_SHIFT,
    )  # fmt: skip


@njit(cache=True, nogil=True)
def family_counts_direct(
    fam, frec, mult, ph, pl, fsize, fh, fl, n_d, joint, bwin, bloss, rwin, rpush,
):  # fmt: skip
    """The same counts by testing every pair: for small families.

    ``rpush`` receives push-or-win counts, as in ``family_counts``.
    """
    n = fam.shape[0]
    for i in range(n):
        x = fam[i]
        _h, _l, _d, px, _o, sel, _g = unpack_class(frec[i])
        w = mult[i] * sel
        if w == 0:
            continue
        m = fsize[x]
        hmax = fh[x, m - 1]
        lmax = fl[x, 0]
        for k in range(n):
            yh, yl, d, _p, _o, _s, _g = unpack_class(frec[k])
            wy = w * mult[k]
            joint[px, d] += wy
            if ph[x] > yh and pl[x] > yl:
                bwin[d] += wy
            elif ph[x] <= yh and pl[x] <= yl:
                bloss[d] += wy
            # the first frontier point above the dealer's high has the best low among them
            j = 0
            while j < m and fh[x, j] <= yh:
                j += 1
            if j < m and fl[x, j] > yl:
                rwin[d] += wy
            if hmax > yh or lmax > yl:
                rpush[d] += wy


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
    (``answersets``). Without it numba compiles the branch away (a None argument).
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
    for lo in range(1, _W):
        present = False
        for d in range(n_d):
            present = present or cum_l[lo, d] != 0
        lcol[lo] = lcol[lo - 1] + present
    width = lcol[_W - 1] + 1  # bounds 0..(distinct lows)
    for lo in range(1, _W):
        for d in range(n_d):
            cum_l[lo, d] += cum_l[lo - 1, d]
    order = _order_by_high(highs, n, order_buf)
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
def _row(h, hrank, uniq, rows, dense):
    """Number of distinct dealer highs below h."""
    return hrank[h] if dense else np.searchsorted(uniq[:rows], h)


@njit(cache=True, nogil=True)
def family_counts(
    frec, mult, ph, pl, fsize, fh, fl, prep, n_p, n_d, scratch, joint, bwin, bloss, rwin, rpush,
):  # fmt: skip
    """Add the counts of all ordered pairs of the family into the outputs (not reset).

    ``rpush`` receives push-OR-win counts (the caller subtracts ``rwin``). Player classes of
    one group (with representative class ``prep[group]``) ask the same questions of the grid,
    so each group is answered once with its summed weight.
    """
    n = frec.shape[0]
    if n == 0:
        return
    grid, rows, dense = dealer_grid(frec, mult, n_d, scratch)
    _highs, uniq, _grid_buf, hrank, cum_l, _band, hist_p, tot, group_w, met = scratch[:10]
    lcol = scratch[11]
    all_lows = lcol[N_LOW]
    hist_p[:] = 0
    n_met = 0
    for i in range(n):
        _h, _l, _d, p, _o, sel, g = unpack_class(frec[i])
        if sel == 0:
            continue
        w = mult[i]
        hist_p[p] += w
        if group_w[g] == 0:
            met[n_met] = g
            n_met += 1
        group_w[g] += w
    for p in range(n_p):
        for d in range(n_d):
            joint[p, d] += hist_p[p] * tot[d]
    for t in range(n_met):
        g = met[t]
        w = group_w[g]
        group_w[g] = 0
        c = prep[g]
        r = _row(ph[c], hrank, uniq, rows, dense)
        lo = pl[c]
        col = lcol[lo]
        for d in range(n_d):
            below = grid[r, col, d]
            bwin[d] += w * below
            bloss[d] += w * (tot[d] - cum_l[lo, d] - grid[r, all_lows, d] + below)
        m = fsize[c]
        for j in range(m):
            r = _row(fh[c, j], hrank, uniq, rows, dense)
            top = lcol[fl[c, j]]
            bottom = lcol[fl[c, j + 1]] if j + 1 < m else 0
            for d in range(n_d):
                rwin[d] += w * (grid[r, top, d] - grid[r, bottom, d])
            if j == m - 1:  # the highest high: push or win
                lmax = fl[c, 0]
                cmax = lcol[lmax]
                for d in range(n_d):
                    rpush[d] += w * (grid[r, all_lows, d] + cum_l[lmax, d] - grid[r, cmax, d])


@njit(cache=True, nogil=True, inline="always")
def add_scaled(acc, at, src, a, n, f):
    """``acc[at : at + n] += f * src[a : a + n]``, wrapping modulo 2^32 in int32. Through
    views, whose indices from ``range`` numba knows are not negative: indexing the arrays
    themselves with ``at + t`` kept a wraparound test per entry, and the loop was not
    vectorized (full deck, level 4: a round of 8.4 million items' adds 0.87 s against
    0.37 s)."""
    dst = acc[at : at + n]
    part = src[a : a + n]
    g = np.int32(f)
    for t in range(n):
        dst[t] += g * part[t]


@njit(cache=True, nogil=True)
def family_buffers(offsets, orbit_ids):
    """(largest family size, and the ``fam``, ``frec``, ``mult``, ``occ`` buffers of
    ``merge_family`` for it) over the orbits ``orbit_ids`` of a level."""
    max_items = 1
    for s in orbit_ids:
        max_items = max(max_items, offsets[s + 1] - offsets[s])
    return (max_items, np.empty(max_items, dtype=np.int64), np.empty(max_items, dtype=np.int64),
            np.empty(max_items, dtype=np.int64), np.empty(max_items, dtype=np.int64))


@njit(cache=True, nogil=True)
def merge_family(items, a, b, q, rec, fam, frec, mult, occ):
    """The family ``items[a:b]`` of an orbit of ``q`` sets, equal classes (adjacent) merged:
    ``fam[i]`` occurs ``occ[i]`` times (its representative holds that many sets of the orbit)
    and stands for ``mult[i]`` = occurrences x its orbit size / ``q`` hands that contain the
    orbit's representative set; its record is copied to ``frec[i]``.

    ``mult`` is a whole number: count the pairs (hand of the class, set of the orbit inside it)
    both ways (``levels``). So every count a kernel makes of a family is already a count of
    hands, and nothing is divided after it. Returns (length, inexact): the classes whose
    occurrences x orbit size did not divide by ``q`` (never, if the level is right)."""
    n = 0
    for t in range(a, b):
        # the records of a family's classes are scattered over the table (56 MB on the full
        # deck): ask for one a few items ahead, so that the misses overlap
        prefetch(rec, items[min(t + MERGE_AHEAD, b - 1)])
        c = items[t]
        if n > 0 and fam[n - 1] == c:
            occ[n - 1] += 1
        else:
            r = rec[c]
            fam[n] = c
            frec[n] = r
            occ[n] = 1
            n += 1
    inexact = 0
    for i in range(n):
        scaled = occ[i] * ((frec[i] >> _ORBIT_SHIFT) & 0x1F)
        inexact += scaled % q != 0
        mult[i] = scaled // q
    return n, inexact


@njit(cache=True, nogil=True)
def run_orbits(
    offsets, items, orbit_ids, set_orbit, rec, ph, pl, fsize, fh, fl, prep, n_p, n_d,
):  # fmt: skip
    """Sum ``F_S * |orbit S|`` over the orbits ``orbit_ids`` of one level.

    ``rec``: the packed class records (``pack_classes``); ``prep``: a class of each player
    group. Returns (joint, bwin, bloss, rwin, rpush, inexact): ``inexact`` counts the classes
    whose weight in a family did not divide by the orbit size (``merge_family``: never, if the
    levels are right).
    """
    joint = np.zeros((n_p, n_d), dtype=np.int64)
    bwin = np.zeros(n_d, dtype=np.int64)
    bloss = np.zeros(n_d, dtype=np.int64)
    rwin = np.zeros(n_d, dtype=np.int64)
    rpush = np.zeros(n_d, dtype=np.int64)
    l_joint = np.zeros((n_p, n_d), dtype=np.int64)
    l_bwin = np.zeros(n_d, dtype=np.int64)
    l_bloss = np.zeros(n_d, dtype=np.int64)
    l_rwin = np.zeros(n_d, dtype=np.int64)
    l_rpush = np.zeros(n_d, dtype=np.int64)
    max_items, fam, frec, mult, occ = family_buffers(offsets, orbit_ids)
    scratch = make_scratch(max_items, n_p, n_d, prep.shape[0])
    inexact = 0
    for s in orbit_ids:
        q = set_orbit[s]
        n, bad = merge_family(items, offsets[s], offsets[s + 1], q, rec, fam, frec, mult, occ)
        inexact += bad
        l_joint[:] = 0
        l_bwin[:] = 0
        l_bloss[:] = 0
        l_rwin[:] = 0
        l_rpush[:] = 0
        if n <= DIRECT_MAX:
            family_counts_direct(
                fam[:n], frec[:n], mult[:n], ph, pl, fsize, fh, fl, n_d,
                l_joint, l_bwin, l_bloss, l_rwin, l_rpush,
            )  # fmt: skip
        else:
            family_counts(
                frec[:n], mult[:n], ph, pl, fsize, fh, fl, prep, n_p, n_d, scratch,
                l_joint, l_bwin, l_bloss, l_rwin, l_rpush,
            )  # fmt: skip
        l_rpush -= l_rwin  # the kernel counted push-or-win
        # the family's pairs of hands count once for each of the q sets of the orbit
        for p in range(n_p):
            for d in range(n_d):
                joint[p, d] += q * l_joint[p, d]
        for d in range(n_d):
            bwin[d] += q * l_bwin[d]
            bloss[d] += q * l_bloss[d]
            rwin[d] += q * l_rwin[d]
            rpush[d] += q * l_rpush[d]
    return joint, bwin, bloss, rwin, rpush, inexact
