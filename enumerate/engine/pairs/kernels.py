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

Method (docs/design.md, "Keys: bucketing hands by dealer rank"): the dealer points are sorted
by high id and cut into rows, one per distinct high id; a grid ``G[r, lcol[l], d]`` counts
dealers of class d in the first r rows whose low id is below l, with a column per distinct
dealer low of the family (``lcol[l]``: how many are below l). A player query at high id h reads
row ``r(h)`` = number of distinct dealer highs below h, so every rectangle ``[0, h) x [a, b)``
costs two grid reads. A frontier (points by increasing high id) covers the staircase cut into
disjoint rectangles ``[0, h_i) x [l_(i+1), l_i)`` with ``l_m = 0``.

What keeps it fast over the full deck's 1.9 billion hand visits: player hands of one *group*
(equal blind setting and frontier; 223,896 groups for 6,972,147 classes) ask the grid the same
questions, so a family answers each group once with its summed weight; every class is one
packed int64 record (``pack_classes``) copied per family by ``merge_family``, so the passes over
a family read its own array instead of taking a cache miss per class in each of seven tables;
large families are sorted by counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.grid import dealer_grid, make_scratch, row_of
from enumerate.engine.kernels.records import N_LOW, family_buffers, merge_family, unpack_class

DIRECT_MAX = 40  # families this small are counted pair by pair


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
        r = row_of(ph[c], hrank, uniq, rows, dense)
        lo = pl[c]
        col = lcol[lo]
        for d in range(n_d):
            below = grid[r, col, d]
            bwin[d] += w * below
            bloss[d] += w * (tot[d] - cum_l[lo, d] - grid[r, all_lows, d] + below)
        m = fsize[c]
        for j in range(m):
            r = row_of(fh[c, j], hrank, uniq, rows, dense)
            top = lcol[fl[c, j]]
            bottom = lcol[fl[c, j + 1]] if j + 1 < m else 0
            for d in range(n_d):
                rwin[d] += w * (grid[r, top, d] - grid[r, bottom, d])
            if j == m - 1:  # the highest high: push or win
                lmax = fl[c, 0]
                cmax = lcol[lmax]
                for d in range(n_d):
                    rpush[d] += w * (grid[r, all_lows, d] + cum_l[lmax, d] - grid[r, cmax, d])


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
