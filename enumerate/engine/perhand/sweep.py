"""A family's per-hand answers by one sweep over the high ids (``perhand.kernels``, phase one
of ``levels.twophase``): the dealer hands and the settings' questions sorted by high id, the dealers
put into Fenwick trees over the 91 low ids (a tree per up-set column, ``answersets``) as the
sweep passes their high, each question read off the trees.

A question (the house way's setting or a frontier point, high h and low l) needs, per up-set
column g, the dealer hands with high < h and low < l (wins), from which the losses (both at or
above) follow with the family's totals; and, in column 0 (every dealer hand), those with high
<= h and low <= l (the hand as the banker). So the questions of one high id are answered twice:
once the dealers below it are in the trees, and again once those equal to it are in.

A dealer grid per family (a row per distinct dealer high, a column per distinct dealer low, a
cell per up-set column: the counts below each corner) would be filled cell by cell: about 20
billion cells on the full deck for some 700 million questions (level 5: 150,891 families of
about 400 x 40 x 3 cells, for about 1,300 questions each), and its reads would miss the cache
(a grid of level 4 is a few MB). The sweep touches each dealer and each question once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.fenwick import fenwick_add, fenwick_below
from enumerate.engine.kernels.records import N_LOW, unpack_class
from enumerate.engine.kernels.sorting import HIGH_BITS, sort_by_high

_HIGH = (1 << HIGH_BITS) - 1
_LOW_AT, _POS_AT = HIGH_BITS, HIGH_BITS + 7  # a question: high id, low id, where it answers


def sweep_buffers(max_items: int, n_questions: int, n_cols: int) -> tuple[np.ndarray, ...]:
    """One thread's buffers for ``answer_by_sweep``: the dealers' sort records (three of
    ``max_items``), the questions' (three of ``n_questions``), the trees, the family's counts
    by column, and per low id the question last answered there."""
    d, q = max(1, max_items), max(1, n_questions)
    return (np.empty(d, dtype=np.int64), np.empty(d, dtype=np.int64),
            np.empty(d, dtype=np.int64), np.empty(q, dtype=np.int64),
            np.empty(q, dtype=np.int64), np.empty(q, dtype=np.int64),
            np.zeros((n_cols, N_LOW + 1), dtype=np.int64),  # Fenwick trees, one per column
            np.zeros((N_LOW + 2, n_cols), dtype=np.int64),  # dealers with low < l, by column
            np.zeros(n_cols, dtype=np.int64),  # dealers of each column in the trees
            np.zeros(n_cols, dtype=np.int64),  # dealers of each column in the family
            np.zeros(n_cols, dtype=np.int64),  # one question's counts, by column
            # per low id, where a question answered there in this run of one high id wrote
            np.full(N_LOW + 1, -1, dtype=np.int64))  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def ask(c, ph, pl, fsize, fh, fl, w, at, questions, n_q):
    """Append the questions of class c's settings (the house way's, then its frontier
    points), each answered into ``w`` entries from ``at``, ``at + w``, ...; returns the new
    number of questions."""
    for j in range(-1, fsize[c]):
        h = np.int64(ph[c] if j < 0 else fh[c, j])
        lo = np.int64(pl[c] if j < 0 else fl[c, j])
        questions[n_q] = (np.int64(at + w * (1 + j)) << _POS_AT) | (lo << _LOW_AT) | h
        n_q += 1
    return n_q


@njit(cache=True, nogil=True, inline="always")
def _insert(tree, col_map, d, lo, m, inside):
    """Dealer hands (``m`` of them, class d, low id lo) into the trees of their columns."""
    for g in range(col_map.shape[0]):
        if col_map[g, d]:
            inside[g] += m
            fenwick_add(tree[g], lo, m)


@njit(cache=True, nogil=True, inline="always")
def _below(tree, lo, out):
    """``out[g]``: the dealers in the trees with low id < lo, per column."""
    for g in range(out.shape[0]):
        out[g] = fenwick_below(tree[g], lo)


@njit(cache=True, nogil=True)
def answer_by_sweep(frec, mult, questions, n_q, cols, buffers, out):
    """Answer the family's questions (``ask``) into ``out``, as ``perhand.kernels`` lays a
    setting's answers out: wins by win set, losses by loss set, then the banker's win and
    loss against every dealer hand. ``frec``, ``mult``: the family's dealer records and hands
    (``kernels.records.merge_family``)."""
    col_map, win_col, loss_col = cols
    n_w, n_l = win_col.shape[0], loss_col.shape[0]
    recs, by_high, tmp, _q, q_sorted, q_tmp, tree, below_l, inside, total, part, seen = buffers
    n = frec.shape[0]
    tree[:] = 0
    below_l[:] = 0
    inside[:] = 0
    total[:] = 0
    for i in range(n):
        dh, dl, d, _p, _o, _s, _g = unpack_class(frec[i])
        recs[i] = (np.int64(i) << HIGH_BITS) | dh
        for g in range(col_map.shape[0]):
            if col_map[g, d]:
                total[g] += mult[i]
                below_l[dl + 1, g] += mult[i]
    for lo in range(1, N_LOW + 2):
        for g in range(col_map.shape[0]):
            below_l[lo, g] += below_l[lo - 1, g]
    sort_by_high(recs, n, by_high, tmp)
    sort_by_high(questions, n_q, q_sorted, q_tmp)
    t = 0  # dealers in the trees: by_high[:t]
    u = 0
    while u < n_q:
        h = q_sorted[u] & _HIGH
        while t < n and (by_high[t] & _HIGH) < h:
            i = by_high[t] >> HIGH_BITS
            _dh, dl, d, _p, _o, _s, _g = unpack_class(frec[i])
            _insert(tree, col_map, d, dl, mult[i], inside)
            t += 1
        # Questions of one high id share its trees; those of one low id too (a family's groups
        # repeat settings: 43% of level 3's questions are distinct, 72% of level 5's), which
        # copy the answers of the first instead of reading the trees again.
        v = u
        while v < n_q and (q_sorted[v] & _HIGH) == h:  # both hands higher; both at or below
            q = q_sorted[v]
            lo, at = (q >> _LOW_AT) & 0x7F, q >> _POS_AT
            if seen[lo] >= 0:
                for j in range(n_w + n_l):
                    out[at + j] = out[seen[lo] + j]
            else:
                seen[lo] = at
                _below(tree, lo, part)
                for j in range(n_w):
                    out[at + j] = part[win_col[j]]
                for j in range(n_l):
                    g = loss_col[j]
                    out[at + n_w + j] = total[g] - below_l[lo, g] - inside[g] + part[g]
            v += 1
        while t < n and (by_high[t] & _HIGH) == h:
            i = by_high[t] >> HIGH_BITS
            _dh, dl, d, _p, _o, _s, _g = unpack_class(frec[i])
            _insert(tree, col_map, d, dl, mult[i], inside)
            t += 1
        for k in range(u, v):  # the banker: every dealer hand at or below, both above
            q = q_sorted[k]
            lo, at = (q >> _LOW_AT) & 0x7F, q >> _POS_AT
            first = seen[lo]
            if first != at:  # its low met before in this run: the same answers
                out[at + n_w + n_l] = out[first + n_w + n_l]
                out[at + n_w + n_l + 1] = out[first + n_w + n_l + 1]
                continue
            at_or_below = fenwick_below(tree[0], lo + 1)
            out[at + n_w + n_l] = at_or_below
            out[at + n_w + n_l + 1] = total[0] - below_l[lo + 1, 0] - inside[0] + at_or_below
        for k in range(u, v):
            seen[(q_sorted[k] >> _LOW_AT) & 0x7F] = -1
        u = v
