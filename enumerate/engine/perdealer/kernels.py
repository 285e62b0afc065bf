"""Numba kernels of the per-dealer tables (docs/design.md, "The per-dealer table (any dealer
way)"): the inclusion-exclusion sum grouped by the dealer hand.

Inside one family H_S the roles of the pair engine swap: the player hands are the points, the
dealer's settings are the questions. For a dealer setting (h, l), every count needed is a
dominance count over weighted player points "high above h and low above l":

- blind players (one point (a, b) per hand): win = #(a > h, b > l); loss = #(a <= h, b <= l)
  = all - #(a > h) - #(b > l) + #(a > h, b > l);
- best-responding players: a frontier (a_0 < ... < a_(m-1), b_0 > ... > b_(m-1)) wins against
  (h, l) when some point is above both. The union of the rectangles below-left of its points is
  the sum of the corners (a_j, b_j) minus the inner corners (a_j, b_(j+1)), so the win count is
  one dominance count over signed points. The player pushes or wins unless both its highest
  high a_(m-1) and its highest low b_0 are at or below the dealer's: one more point per hand.

A family answers each dealer *group* (classes with the same list of valid setting points) once:
the questions are sorted by high with the player points, and swept from the highest down with a
Fenwick tree over the 91 low ids. Player hands of one player group (same blind setting and
frontier) are one point set with their summed weight (the weights count hands:
``kernels.records.merge_family``). The answers are added with the inclusion-exclusion sign to every
setting of every dealer class of the family, once per subset it holds in orbit S.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.fenwick import fenwick_add, fenwick_below
from enumerate.engine.kernels.grid import add_scaled
from enumerate.engine.kernels.prefetch import prefetch
from enumerate.engine.kernels.records import N_LOW, ORBIT_SHIFT, family_buffers, merge_family
from enumerate.engine.kernels.sorting import order_by_high_into

DIRECT_PAIRS = 256  # families with at most this many (point, question) pairs skip the sweep
AHEAD = 6  # classes of a family between asking for a class's counts and adding into them

BLIND = 0  # player mode: players set by one fixed setting per class; answers (win, loss)
RESPONSE = 1  # players see the dealer's setting and use their frontier; answers (win, push)

# Per-class record (``pack_dealer_records``): the orbit size where ``merge_family`` reads it,
# the player group below it and the dealer group above it.
_PG_BITS = ORBIT_SHIFT  # player group: bits 0 .. 28
_DG_SHIFT = ORBIT_SHIFT + 5  # dealer group: bits 34 ..
_DG_BITS = 63 - _DG_SHIFT


def pack_dealer_records(orbit: np.ndarray, player_group: np.ndarray,
                        dealer_group: np.ndarray) -> np.ndarray:  # fmt: skip
    """One int64 per class: orbit size, player group and dealer group.

    >>> r = pack_dealer_records(np.array([24]), np.array([223895]), np.array([1234567]))
    >>> [int(x) for x in unpack_dealer_record(r[0])]
    [24, 223895, 1234567]
    """
    fields = ((orbit, ORBIT_SHIFT, 5, "class orbit size"), (player_group, 0, _PG_BITS,
              "player group"), (dealer_group, _DG_SHIFT, _DG_BITS, "dealer group"))  # fmt: skip
    out = np.zeros(len(orbit), dtype=np.int64)
    for values, shift, bits, name in fields:
        v = np.asarray(values, dtype=np.int64)
        if len(v) and (v.min() < 0 or v.max() >= 1 << bits):
            raise ValueError(f"{name} out of the kernels' range [0, {1 << bits})")
        out |= v << shift
    return out


@njit(cache=True, nogil=True, inline="always")
def unpack_dealer_record(r):
    """(orbit size, player group, dealer group)."""
    return (r >> ORBIT_SHIFT) & 0x1F, r & ((1 << _PG_BITS) - 1), r >> _DG_SHIFT


def make_dealer_scratch(max_items: int, n_pgroups: int, n_dgroups: int, width: int,
                        dwidth: int) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Buffers one thread reuses for every family: player points, questions, answers."""
    max_pts = min(max_items, n_pgroups) * (2 * width + 1)
    max_q = min(max_items, n_dgroups) * dwidth
    return (
        np.zeros(n_pgroups, dtype=np.int64),  # summed weight of each player group met
        np.empty(min(max_items, n_pgroups), dtype=np.int64),  # player groups met
        np.zeros(n_dgroups, dtype=np.int64),  # slot of each dealer group met (+1)
        np.empty(min(max_items, n_dgroups) + 1, dtype=np.int64),  # dealer groups met, then
        np.empty(max_pts, dtype=np.int64),  # point highs
        np.empty(max_pts, dtype=np.int64),  # point lows
        np.empty(max_pts, dtype=np.int64),  # point weights
        np.empty(max_pts, dtype=np.int64),  # point channels
        np.empty(max_pts, dtype=np.int64),  # point order buffer
        np.empty(max_q, dtype=np.int64),  # question highs
        np.empty(max_q, dtype=np.int64),  # question lows
        np.empty(max_q, dtype=np.int64),  # question order buffer
        np.empty((max_q, 2), dtype=np.int32),  # answers
        np.empty((2, N_LOW + 1), dtype=np.int64),  # the sweep's Fenwick trees, by channel
        np.empty((2, N_LOW + 1), dtype=np.int64),  # the sweep's weight above each low id
        np.empty(2, dtype=np.int64),  # the sweep's weight inserted, by channel
        np.empty(max(max_pts, max_q), dtype=np.int64),  # the sweep's sort records
        np.empty(max(max_pts, max_q), dtype=np.int64),  # and their buffer
    )


@njit(cache=True, nogil=True)
def _player_points(frec, mult, mode, pgrep, ph, pl, fsize, fh, fl, scratch):
    """The family's player points (high, low, weight, channel), one set per player group met.
    Returns (number of points, total weight)."""
    group_w, met = scratch[0], scratch[1]
    p_h, p_l, p_w, p_c = scratch[4], scratch[5], scratch[6], scratch[7]
    n_met = 0
    total = 0
    for i in range(frec.shape[0]):
        g = frec[i] & ((1 << _PG_BITS) - 1)
        if group_w[g] == 0:
            met[n_met] = g
            n_met += 1
        group_w[g] += mult[i]
        total += mult[i]
    n = 0
    for t in range(n_met):
        g = met[t]
        w = group_w[g]
        group_w[g] = 0
        c = pgrep[g]
        if mode == BLIND:
            p_h[n], p_l[n], p_w[n], p_c[n] = ph[c], pl[c], w, 0
            n += 1
            continue
        m = fsize[c]
        for j in range(m):
            p_h[n], p_l[n], p_w[n], p_c[n] = fh[c, j], fl[c, j], w, 0
            n += 1
            if j + 1 < m:  # the inner corner between points j and j + 1
                p_h[n], p_l[n], p_w[n], p_c[n] = fh[c, j], fl[c, j + 1], -w, 0
                n += 1
        p_h[n], p_l[n], p_w[n], p_c[n] = fh[c, m - 1], fl[c, 0], w, 1  # highest high and low
        n += 1
    return n, total


@njit(cache=True, nogil=True)
def _questions(frec, dgrep, dsize, dh, dl, scratch):
    """The dealer groups met (``slot[g]`` = 1 + their index) and their settings as questions;
    ``qbase[t]`` is where the questions of the t-th group met begin. Returns (groups, questions)."""
    slot, qbase = scratch[2], scratch[3]
    q_h, q_l = scratch[9], scratch[10]
    n_met = 0
    n_q = 0
    for i in range(frec.shape[0]):
        g = frec[i] >> _DG_SHIFT
        if slot[g] != 0:
            continue
        qbase[n_met] = n_q
        n_met += 1
        slot[g] = n_met
        c = dgrep[g]
        for j in range(dsize[c]):
            q_h[n_q] = dh[c, j]
            q_l[n_q] = dl[c, j]
            n_q += 1
    qbase[n_met] = n_q
    return n_met, n_q


@njit(cache=True, nogil=True)
def _sweep(n_pts, n_q, total, mode, scratch):
    """Answer every question of the family into ``answers``."""
    p_h, p_l, p_w, p_c, p_order = scratch[4:9]
    q_h, q_l, q_order, answers = scratch[9:13]
    recs, tmp = scratch[16], scratch[17]
    by_p = order_by_high_into(p_h, n_pts, p_order, recs, tmp)
    by_q = order_by_high_into(q_h, n_q, q_order, recs, tmp)
    tree, above, inserted = scratch[13:16]  # above[ch, l]: weight with low > l
    tree[:] = 0
    above[:] = 0
    inserted[:] = 0
    for t in range(n_pts):
        if p_l[t] > 0:
            above[p_c[t], p_l[t] - 1] += p_w[t]
    for ch in range(2):
        for lo in range(N_LOW - 1, -1, -1):
            above[ch, lo] += above[ch, lo + 1]
    t = n_pts - 1
    for u in range(n_q - 1, -1, -1):
        k = by_q[u]
        h, lo = q_h[k], q_l[k]
        while t >= 0 and p_h[by_p[t]] > h:
            i = by_p[t]
            fenwick_add(tree[p_c[i]], p_l[i], p_w[i])
            inserted[p_c[i]] += p_w[i]
            t -= 1
        both = inserted[0] - fenwick_below(tree[0], lo + 1)  # weight above h and above l
        if mode == BLIND:
            a = both
            b = total - inserted[0] - above[0, lo] + both
        else:
            a = both
            b = inserted[1] + above[1, lo] - (inserted[1] - fenwick_below(tree[1], lo + 1)) - both
        answers[k, 0] = a
        answers[k, 1] = b


@njit(cache=True, nogil=True)
def _sweep_direct(n_pts, n_q, mode, scratch):
    """``_sweep`` by testing every question against every player point: for families with
    few of either (``DIRECT_PAIRS``), where sorting and the trees cost more."""
    p_h, p_l, p_w, p_c = scratch[4:8]
    q_h, q_l, answers = scratch[9], scratch[10], scratch[12]
    for k in range(n_q):
        h, lo = q_h[k], q_l[k]
        a = 0  # channel 0 above both (the player wins)
        b = 0  # blind: channel 0 at or below both; best response: channel 1 above either
        for t in range(n_pts):
            above_h, above_l = p_h[t] > h, p_l[t] > lo
            if p_c[t] == 0:
                if above_h and above_l:
                    a += p_w[t]
                elif mode == BLIND and not above_h and not above_l:
                    b += p_w[t]
            elif above_h or above_l:
                b += p_w[t]
        if mode != BLIND:
            b -= a  # push: the highest hands beat one dealer hand, and no point wins
        answers[k, 0] = a
        answers[k, 1] = b


@njit(cache=True, nogil=True, inline="always")
def _ask_rows(fam, i, doff, dsize, flat):
    """Prefetch the counts of the settings of class ``fam[i]`` (``flat``: ``acc`` flattened),
    and the offsets that locate those of the class ``AHEAD`` places after it."""
    if i + AHEAD < fam.shape[0]:
        later = fam[i + AHEAD]
        prefetch(doff, later)
        prefetch(dsize, later)
    c = fam[i]
    at = 2 * doff[c]
    end = at + 2 * dsize[c]
    for a in range(at, end, 16):  # 16 int32 to a 64-byte line
        prefetch(flat, a)
    prefetch(flat, end - 1)


@njit(cache=True, nogil=True)
def family_per_dealer(fam, frec, mult, occ, sign, mode, pgrep, ph, pl, fsize, fh, fl,
                      dgrep, dsize, dh, dl, doff, scratch, acc):  # fmt: skip
    """Add the family's inclusion-exclusion terms to every setting of its dealer classes.

    ``acc[doff[c] + j]`` gets, for setting j of class c, ``sign * occ`` times the family's
    (win, loss) of blind players or (win, push) of best-responding players against it (the
    weights ``mult`` count hands: ``merge_family``)."""
    n = fam.shape[0]
    flat = acc.reshape(-1)
    for i in range(min(AHEAD, n)):  # their rows arrive while the family is answered
        _ask_rows(fam, i, doff, dsize, flat)
    n_pts, total = _player_points(frec, mult, mode, pgrep, ph, pl, fsize, fh, fl, scratch)
    _groups, n_q = _questions(frec, dgrep, dsize, dh, dl, scratch)
    if n_pts * n_q <= DIRECT_PAIRS:
        _sweep_direct(n_pts, n_q, mode, scratch)
    else:
        _sweep(n_pts, n_q, total, mode, scratch)
    slot, qbase = scratch[2], scratch[3]
    flat_answers = scratch[12].reshape(-1)  # (win, other) of each question, side by side
    for i in range(n):
        if i + AHEAD < n:
            _ask_rows(fam, i + AHEAD, doff, dsize, flat)
        c = fam[i]
        base = qbase[slot[frec[i] >> _DG_SHIFT] - 1]
        add_scaled(flat, 2 * doff[c], flat_answers, 2 * base, 2 * dsize[c], sign * occ[i])
    for i in range(fam.shape[0]):
        slot[frec[i] >> _DG_SHIFT] = 0


@njit(cache=True, nogil=True)
def per_dealer_orbits(offsets, items, orbit_ids, sign, set_orbit, rec, mode, pgrep, ph, pl,
                      fsize, fh, fl, dgrep, dsize, dh, dl, doff, scratch, acc):  # fmt: skip
    """``family_per_dealer`` over the orbits ``orbit_ids`` of one level; returns the number of
    classes whose weight did not divide by the orbit size (``merge_family``; the caller fails
    on any)."""
    _max_items, fam, frec, mult, occ = family_buffers(offsets, orbit_ids)
    inexact = 0
    for s in orbit_ids:
        n, bad = merge_family(items, offsets[s], offsets[s + 1], set_orbit[s], rec, fam, frec,
                              mult, occ)  # fmt: skip
        inexact += bad
        family_per_dealer(
            fam[:n], frec[:n], mult[:n], occ[:n], sign, mode, pgrep, ph, pl, fsize, fh, fl,
            dgrep, dsize, dh, dl, doff, scratch, acc,
        )  # fmt: skip
    return inexact


@njit(cache=True, nogil=True)
def dealer_points(lo, hi, high, low, max_low, out_h, out_l, size):
    """For the classes ``lo <= c < hi``: the distinct valid settings as (high id, low id)
    points, increasing by high then low, from its 21 settings (``all_settings``), and their
    number ``size[c]``."""
    ks = np.empty(21, dtype=np.int64)
    for c in range(lo, hi):
        m = 0
        for s in range(21):
            if low[c, s] <= max_low[high[c, s]]:
                # insertion sort into ks[:m + 1]: 21 keys at most, and np.sort would
                # allocate an array per class (7 million of them on the full deck)
                key = np.int64(high[c, s]) * (N_LOW + 1) + low[c, s]
                t = m
                while t > 0 and ks[t - 1] > key:
                    ks[t] = ks[t - 1]
                    t -= 1
                ks[t] = key
                m += 1
        k = 0
        for t in range(m):
            if t == 0 or ks[t] != ks[t - 1]:
                out_h[c, k] = ks[t] // (N_LOW + 1)
                out_l[c, k] = ks[t] % (N_LOW + 1)
                k += 1
        size[c] = k
