"""Numba kernels of the per-hand table (docs/design.md, "The per-hand table (optimal
strategy)"; ``perhand.table``): the inclusion-exclusion terms of each family, added into the
counts of every player class in it.

The counts live in two int32 blocks with one row per class and one per frontier point, each
row holding everything a visit adds to it side by side (``class_width``, ``point_width``):

- class row: ``[total by dealer class | way win by win set | way loss by loss set | way bank
  win, way bank loss]``;
- point row: ``[win by win set | loss by loss set | bank win, bank loss]``.

Wins and losses are counted by up-set of dealer flags (``answersets``): the family's dealer
grid has a column per set (``dealer_grid`` with ``col_map``), so each count is read off it
once, and the banker's from column 0 (every dealer hand).

A family visits its classes in scattered order, so each visit costs a cache miss per row it
touches: with the counts side by side a visit touches the class's row and one run of its
points' rows (about 7 cache lines on the full deck), where seven separate tables cost a miss
in each. A group's answers are laid out like a point row (the house way's setting first,
then the points), so the adds are two straight runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.grid import add_scaled, dealer_grid, make_scratch, row_of
from enumerate.engine.kernels.prefetch import prefetch
from enumerate.engine.kernels.records import (
    DEALER_CLASS_SHIFT,
    GROUP_SHIFT,
    N_LOW,
    SELECTED_SHIFT,
    family_buffers,
    merge_family,
    unpack_class,
)
from enumerate.engine.levels.twophase import class_order
from enumerate.engine.perhand.sweep import answer_by_sweep, ask

DIRECT_MAX = 8  # families of at most this many classes are answered without a grid (faster)
AHEAD = 6  # classes of a family between asking for a class's rows and adding into them


def class_width(n_d: int, n_w: int, n_l: int) -> int:
    """Columns of a class row: total by dealer class, then a point row (the way's setting)."""
    return n_d + point_width(n_w, n_l)


def point_width(n_w: int, n_l: int) -> int:
    """Columns of a point row (and of one setting's answers): win by win set, loss by loss
    set; bank win, bank loss."""
    return n_w + n_l + 2


@njit(cache=True, nogil=True, inline="always")
def _setting_answers(h, lo, win_col, loss_col, grid, rows, dense, hrank, uniq, cum_l, lcol, tot,
                     out, at):  # fmt: skip
    """One setting (high ``h``, low ``lo``) against the family's grid of up-set columns, into
    ``out[at : at + point_width]``: wins (both player hands higher) by win set (grid columns
    ``win_col``) and losses (both lower or equal) by loss set (``loss_col``), then the same
    hand as the banker against every dealer hand (grid column 0; the other hands are an
    opponent's set by the house way, copies go to the banker: wins = both opponent hands
    lower or equal, losses = both higher)."""
    r = row_of(h, hrank, uniq, rows, dense)
    ru = row_of(h + 1, hrank, uniq, rows, dense)  # distinct dealer highs at or below h
    col, col_up, all_lows = lcol[lo], lcol[lo + 1], lcol[N_LOW]  # grid columns (dealer_grid)
    n_w = win_col.shape[0]
    for j in range(n_w):
        out[at + j] = grid[r, col, win_col[j]]
    for j in range(loss_col.shape[0]):
        g = loss_col[j]
        out[at + n_w + j] = tot[g] - cum_l[lo, g] - grid[r, all_lows, g] + grid[r, col, g]
    at += n_w + loss_col.shape[0]
    at_or_below = grid[ru, col_up, 0]
    out[at] = at_or_below
    out[at + 1] = tot[0] - cum_l[lo + 1, 0] - grid[ru, all_lows, 0] + at_or_below


@njit(cache=True, nogil=True, inline="always")
def _setting_answers_direct(h, lo, cols, frec, mult, out, at):
    """``_setting_answers`` by testing the setting against every dealer item of the family
    (``frec``, ``mult``): for families too small to be worth a grid."""
    col_map, win_col, loss_col = cols
    n_w, n_l = win_col.shape[0], loss_col.shape[0]
    for t in range(n_w + n_l + 2):
        out[at + t] = 0
    for i in range(frec.shape[0]):
        dh, dl, d, _p, _o, _s, _g = unpack_class(frec[i])
        m = mult[i]
        if dh < h and dl < lo:
            for j in range(n_w):
                out[at + j] += m * col_map[win_col[j], d]
        elif dh >= h and dl >= lo:
            for j in range(n_l):
                out[at + n_w + j] += m * col_map[loss_col[j], d]
        if dh <= h and dl <= lo:
            out[at + n_w + n_l] += m
        elif dh > h and dl > lo:
            out[at + n_w + n_l + 1] += m


@njit(cache=True, nogil=True, inline="always")
def _group_answers(c, ph, pl, fsize, fh, fl, cols, grid, rows, dense, hrank, uniq, cum_l, lcol,
                   tot, frec, mult, out):  # fmt: skip
    """The answers (``_setting_answers``) of the settings of class c into ``out``: the house
    way's setting first, then its frontier points, a point row each; from the grid, or from
    the family's items when ``rows`` is 0 (``DIRECT_MAX``)."""
    win_col, loss_col = cols[1], cols[2]
    w = win_col.shape[0] + loss_col.shape[0] + 2
    m = fsize[c]
    for j in range(-1, m):
        h = np.int64(ph[c] if j < 0 else fh[c, j])
        lo = np.int64(pl[c] if j < 0 else fl[c, j])
        if rows == 0:
            _setting_answers_direct(h, lo, cols, frec, mult, out, w * (1 + j))
        else:
            _setting_answers(h, lo, win_col, loss_col, grid, rows, dense, hrank, uniq, cum_l,
                             lcol, tot, out, w * (1 + j))  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def _group_answers_direct(c, ph, pl, fsize, fh, fl, cols, frec, mult, out, at):
    """``_group_answers`` item by item (``_setting_answers_direct``), into ``out`` from
    ``at``."""
    w = cols[1].shape[0] + cols[2].shape[0] + 2
    for j in range(-1, fsize[c]):
        h = np.int64(ph[c] if j < 0 else fh[c, j])
        lo = np.int64(pl[c] if j < 0 else fl[c, j])
        _setting_answers_direct(h, lo, cols, frec, mult, out, at + w * (1 + j))


def question_capacity(max_items: int, fsize: np.ndarray, prep: np.ndarray) -> int:
    """The most questions one family can ask (``perhand.sweep.ask``): a question per setting
    (the house way's and each frontier point) of each player group met."""
    settings = int(fsize[prep].astype(np.int64).sum()) + len(prep)
    return max(1, min(settings, max_items * (1 + int(fsize.max(initial=0)))))


@njit(cache=True, nogil=True, inline="always")
def _family_grid(frec, mult, cols, scratch, cell_tot):
    """The family's dealer hands by dealer class (``cell_tot``) and, for a family of more than
    ``DIRECT_MAX`` classes, its ``dealer_grid`` over the up-set columns of ``cols``; a smaller
    family gets no grid (rows 0: its settings are answered item by item)."""
    cell_tot[:] = 0
    for i in range(frec.shape[0]):
        cell_tot[(frec[i] >> DEALER_CLASS_SHIFT) & 0x1F] += mult[i]
    if frec.shape[0] > DIRECT_MAX:
        return dealer_grid(frec, mult, cols[0].shape[0], scratch, cols[0])
    return scratch[2][:1].reshape((1, 1, 1)), 0, False


@njit(cache=True, nogil=True, inline="always")
def _ask_rows(fam, i, first, stop, point_offset, fsize, wc, wp, acc_class, acc_point):
    """Prefetch the rows of class ``fam[i]`` (when it is in this thread's range), and the
    offsets that locate the rows of the class ``AHEAD`` places after it."""
    if i + AHEAD < fam.shape[0]:
        later = fam[i + AHEAD]
        prefetch(point_offset, later)
        prefetch(fsize, later)
    c = fam[i]
    if c < first or c >= stop:
        return
    at = c * wc
    prefetch(acc_class, at)
    prefetch(acc_class, at + wc - 1)  # a row may cross into a second cache line
    at = point_offset[c] * wp
    end = at + fsize[c] * wp
    for a in range(at, end, 16):  # 16 int32 to a 64-byte line
        prefetch(acc_point, a)
    prefetch(acc_point, end - 1)


@njit(cache=True, nogil=True)
def family_per_hand(
    fam, frec, mult, occ, sign, ph, pl, fsize, fh, fl, prep, point_offset, cols, scratch,
    cell_tot, answers, acc_class, acc_point, first, stop,
):  # fmt: skip
    """Per player class, the inclusion-exclusion terms of this family (docs/design.md, "The
    per-hand table (optimal strategy)").

    For one hand x of class c, each k-subset T of x adds ``(-1)^k`` times the number of dealer
    hands containing T of each outcome; the family of orbit S holds class c once per subset of
    c's representative in that orbit (``occ``), and its weights ``mult`` count hands
    (``merge_family``). Outcomes are for fixed settings: the house way's (in the class row)
    and every frontier point (the rows ``point_offset[c]`` on), as the player by dealer class
    and as the banker (``_setting_answers``). ``acc_class``, ``acc_point``: the two blocks of
    the module docstring, flattened. Classes of one player group have the same settings, so a
    group's answers are read off the grid once (``answers``, one row per group met) and added
    to each of its classes. Classes not selected are skipped, and so are the classes outside
    ``first <= c < stop``: the threads own ranges of the classes, so that they add into one
    set of counts.
    """
    n = fam.shape[0]
    # the family's classes are increasing: skip it (and its grid) when none is in the range
    if n == 0 or fam[n - 1] < first or fam[0] >= stop:
        return
    n_d = cell_tot.shape[0]
    wp = cols[1].shape[0] + cols[2].shape[0] + 2
    wc = n_d + wp
    for i in range(min(AHEAD, n)):  # their rows arrive while the grid is built
        _ask_rows(fam, i, first, stop, point_offset, fsize, wc, wp, acc_class, acc_point)
    _highs, uniq, _grid_buf, hrank, cum_l, _band, _hist_p, tot, slot, met = scratch[:10]
    lcol = scratch[11]
    grid, rows, dense = _family_grid(frec, mult, cols, scratch, cell_tot)
    n_met = 0
    for i in range(n):
        if i + AHEAD < n:
            _ask_rows(fam, i + AHEAD, first, stop, point_offset, fsize, wc, wp, acc_class,
                      acc_point)  # fmt: skip
        c = fam[i]
        if c < first or c >= stop or (frec[i] >> SELECTED_SHIFT) & 1 == 0:
            continue
        g = frec[i] >> GROUP_SHIFT
        if slot[g] == 0:
            met[n_met] = g
            n_met += 1
            slot[g] = n_met
            _group_answers(prep[g], ph, pl, fsize, fh, fl, cols, grid, rows, dense, hrank, uniq,
                           cum_l, lcol, tot, frec, mult, answers[n_met - 1])  # fmt: skip
        ans = answers[slot[g] - 1]
        f = sign * occ[i]
        at = c * wc
        for d in range(n_d):
            acc_class[at + d] += f * cell_tot[d]
        add_scaled(acc_class, at + n_d, ans, 0, wp, f)
        add_scaled(acc_point, point_offset[c] * wp, ans, wp, fsize[c] * wp, f)
    for t in range(n_met):
        slot[met[t]] = 0


@njit(cache=True, nogil=True)
def per_hand_orbits(
    offsets, items, orbit_ids, sign, set_orbit, rec, ph, pl, fsize, fh, fl, prep, point_offset,
    n_d, cols, acc_class, acc_point, first, stop,
):  # fmt: skip
    """``family_per_hand`` over the orbits ``orbit_ids`` of one level for the classes
    ``first <= c < stop``, into the two blocks of counts (2-D, C order); returns the number
    of classes whose weight did not divide by the orbit size (``merge_family``; the caller
    fails on any)."""
    max_items, fam, frec, mult, occ = family_buffers(offsets, orbit_ids)
    n_groups = prep.shape[0]
    scratch = make_scratch(max_items, 1, max(n_d, cols[0].shape[0]), n_groups)
    cell_tot = np.zeros(n_d, dtype=np.int64)
    # int32: a family's counts of hands are at most C(53,7) < 2^31
    wp = cols[1].shape[0] + cols[2].shape[0] + 2
    answers = np.empty((min(max_items, n_groups), (1 + fh.shape[1]) * wp), dtype=np.int32)
    flat_class = acc_class.reshape(-1)
    flat_point = acc_point.reshape(-1)
    inexact = 0
    for s in orbit_ids:
        n, bad = merge_family(items, offsets[s], offsets[s + 1], set_orbit[s], rec, fam, frec,
                              mult, occ)  # fmt: skip
        inexact += bad
        family_per_hand(
            fam[:n], frec[:n], mult[:n], occ[:n], sign, ph, pl, fsize, fh, fl, prep,
            point_offset, cols, scratch, cell_tot, answers, flat_class, flat_point, first, stop,
        )  # fmt: skip
    return inexact


# Two phases, for the levels of many families (driven by ``levels.twophase``): the threads
# first split the families and write each family's answers once (``per_hand_answers``), then
# split the classes and add them (``per_hand_adds``). In one phase each thread would build every
# family's grid and answer the groups of its own classes, and a group met by the classes of both
# threads would be answered twice.


@njit(cache=True, nogil=True)
def per_hand_answers(
    offsets, items, orbit_ids, start, sign, set_orbit, rec, ph, pl, fsize, fh, fl, prep, n_d,
    cols, scratch, cell_tot, fam, frec, mult, occ, questions, sweep, item_class, item_factor,
    item_row, rows,
):  # fmt: skip
    """Phase one: the families ``orbit_ids[start:]``, in order, for as long as they fit.

    For each family: a row of ``rows`` per player group met among its selected classes
    (``[total by dealer class | the house way's answers | a point row per frontier point]``:
    a class row and its point rows, this module's docstring), and an item per
    selected class: the class, its factor ``sign * occ`` and where its group's row starts.
    The answers come from one sweep of the family's dealers and questions by high id
    (``perhand.sweep``), or for a family of at most ``DIRECT_MAX`` classes by testing each
    setting against each dealer. ``questions``, ``sweep``: the thread's buffers for it
    (``question_capacity``, ``perhand.sweep.sweep_buffers``).
    A family is written whole or not at all. Returns (the index into ``orbit_ids`` of the first
    family not written, items written, row entries written, classes whose weight did not
    divide by the orbit size); no family written when the first does not fit.
    """
    wp = cols[1].shape[0] + cols[2].shape[0] + 2
    wc = n_d + wp
    slot, met = scratch[8], scratch[9]
    n_items = 0
    used = 0
    inexact = 0
    t = start
    while t < orbit_ids.shape[0]:
        s = orbit_ids[t]
        n, bad = merge_family(items, offsets[s], offsets[s + 1], set_orbit[s], rec, fam, frec,
                              mult, occ)  # fmt: skip
        need = 0  # the row entries of its groups
        n_met = 0
        for i in range(n):
            g = frec[i] >> GROUP_SHIFT
            if (frec[i] >> SELECTED_SHIFT) & 1 and slot[g] == 0:
                slot[g] = 1
                met[n_met] = g
                n_met += 1
                need += wc + fsize[prep[g]] * wp
        for u in range(n_met):
            slot[met[u]] = 0
        if n_items + n > item_class.shape[0] or used + need > rows.shape[0]:
            break
        inexact += bad
        cell_tot[:] = 0
        for i in range(n):
            cell_tot[(frec[i] >> DEALER_CLASS_SHIFT) & 0x1F] += mult[i]
        n_met = 0
        # int64 from the start: with a literal 0 numba would compile answer_by_sweep (and its
        # sort) a second time, for the type n_q has in its first round of type inference
        n_q = np.int64(0)
        for i in range(n):
            if (frec[i] >> SELECTED_SHIFT) & 1 == 0:
                continue
            g = frec[i] >> GROUP_SHIFT
            if slot[g] == 0:
                met[n_met] = g
                n_met += 1
                slot[g] = used + 1
                for d in range(n_d):
                    rows[used + d] = cell_tot[d]
                if n <= DIRECT_MAX:  # a few dealers: each setting tested against each
                    _group_answers_direct(prep[g], ph, pl, fsize, fh, fl, cols, frec[:n],
                                          mult[:n], rows, used + n_d)  # fmt: skip
                else:  # answered below, all the family's questions in one sweep
                    n_q = ask(prep[g], ph, pl, fsize, fh, fl, wp, used + n_d, questions, n_q)
                used += wc + fsize[prep[g]] * wp
            item_class[n_items] = fam[i]
            item_factor[n_items] = sign * occ[i]
            item_row[n_items] = slot[g] - 1
            n_items += 1
        if n_q:
            answer_by_sweep(frec[:n], mult[:n], questions, n_q, cols, sweep, rows)
        for u in range(n_met):
            slot[met[u]] = 0
        t += 1
    return t, n_items, used, inexact


@njit(cache=True, nogil=True)
def per_hand_adds(item_class, item_factor, item_row, segments, rows, point_offset, fsize, n_d,
                  wp, acc_class, acc_point, first, stop, keys, tmp):  # fmt: skip
    """Phase two: add the items of ``per_hand_answers`` of the classes ``first <= c < stop``
    into the two blocks (flattened): factor x its group's row, the class row then the point
    rows (``wp`` columns each). ``segments[j]`` = (first item, items) of thread j's arena.

    The items are added in the order of their classes (sorted here, ``keys`` and ``tmp``
    its buffers): the counts are then read and written in one sweep of increasing
    addresses instead of a cache miss per row."""
    wc = n_d + wp
    order, m = class_order(item_class, segments, first, stop, keys, tmp)
    for u in range(m):
        if u + AHEAD < m:  # the rows of an item a few ahead: its counts and its answers
            i = order[u + AHEAD] & 0xFFFFFFFF
            c = item_class[i]
            at = point_offset[c] * wp
            end = at + fsize[c] * wp
            prefetch(acc_class, c * wc)
            prefetch(acc_class, c * wc + wc - 1)
            for a in range(at, end, 16):  # 16 int32 to a 64-byte line
                prefetch(acc_point, a)
            prefetch(acc_point, end - 1)
            for a in range(item_row[i], item_row[i] + wc + end - at, 16):
                prefetch(rows, a)
        i = order[u] & 0xFFFFFFFF
        c = item_class[i]
        a = item_row[i]
        add_scaled(acc_class, c * wc, rows, a, wc, item_factor[i])
        add_scaled(acc_point, point_offset[c] * wp, rows, a + wc, fsize[c] * wp, item_factor[i])
