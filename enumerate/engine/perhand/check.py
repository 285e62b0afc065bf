"""The invariants of a per-hand table (``perhand.table``), checked when it is built and whenever it
is read back: a table that fails them is never served."""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from enumerate.cache import require
from enumerate.engine.kernels.sums import weighted_rows
from enumerate.engine.keys import EngineKeys
from enumerate.runtime.threads import over_ranges
from enumerate.waytables import flatten_rows

if TYPE_CHECKING:
    from enumerate.engine.perhand.table import PerHand


def flatten_frontiers(keys: EngineKeys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frontier points of every class in one run: (offsets, highs, lows)."""
    size = keys.frontier_size.astype(np.int64)
    offset = np.zeros(len(size) + 1, dtype=np.int64)
    np.cumsum(size, out=offset[1:])
    return (offset, flatten_rows(keys.frontier_size, keys.frontier_high),
            flatten_rows(keys.frontier_size, keys.frontier_low))  # fmt: skip


_PROBLEMS = (
    "",
    "a count is negative",
    "a class's dealer hands are not all the hands of the other cards",
    "the house way's wins or losses exceed the dealer hands they count",
    "a setting's wins or losses exceed the dealer hands they count",
    "a setting's wins as the banker are fewer than as the player, or its losses more",
)


@njit(cache=True, nogil=True)
def _per_hand_problems(lo, hi, offset, total, way_win, way_loss, win, loss, way_bank, bank,
                       win_map, loss_map, dealer_hands, out):  # fmt: skip
    """``out[c]``, for the classes ``lo <= c < hi``: the index into ``_PROBLEMS`` of the
    class's first broken invariant (0: none). Column 0 of wins and losses counts every dealer
    hand (``answersets``)."""
    n_w, n_l = win_map.shape[0], loss_map.shape[0]
    hands_w = np.zeros(n_w, dtype=np.int64)  # the dealer hands each column counts
    hands_l = np.zeros(n_l, dtype=np.int64)
    for c in range(lo, hi):
        out[c] = _class_problem(c, offset, total, way_win, way_loss, win, loss, way_bank, bank,
                                win_map, loss_map, dealer_hands, hands_w, hands_l)  # fmt: skip


@njit(cache=True, nogil=True, inline="always")
def _class_problem(c, offset, total, way_win, way_loss, win, loss, way_bank, bank, win_map,
                   loss_map, dealer_hands, hands_w, hands_l):  # fmt: skip
    """``_per_hand_problems`` of class ``c`` (``hands_w``, ``hands_l``: buffers)."""
    s = 0
    hands_w[:] = 0
    hands_l[:] = 0
    for d in range(total.shape[1]):
        if total[c, d] < 0:
            return 1
        s += total[c, d]
        for j in range(win_map.shape[0]):
            hands_w[j] += win_map[j, d] * total[c, d]
        for j in range(loss_map.shape[0]):
            hands_l[j] += loss_map[j, d] * total[c, d]
    if s != dealer_hands:
        return 2
    if _beyond(way_win[c], way_loss[c], hands_w, hands_l, s):
        return 3 if _beyond(way_win[c], way_loss[c], hands_w, hands_l, -1) == 0 else 1
    for p in range(offset[c], offset[c + 1]):
        if _beyond(win[p], loss[p], hands_w, hands_l, s):
            return 4 if _beyond(win[p], loss[p], hands_w, hands_l, -1) == 0 else 1
    # the banker takes the copies: he wins at least what the player wins (both higher)
    # and loses at most what the player loses (both lower or equal)
    if _bank_problem(way_bank[c], way_win[c, 0], way_loss[c, 0], s):
        return 5
    for p in range(offset[c], offset[c + 1]):
        if _bank_problem(bank[p], win[p, 0], loss[p, 0], s):
            return 5
    return 0


@njit(cache=True, inline="always")
def _beyond(win, loss, hands_w, hands_l, s):
    """1 when a count is negative, or (``s`` >= 0) exceeds the dealer hands of its column, or
    the wins and losses of all dealer hands exceed ``s``; else 0."""
    for j in range(win.shape[0]):
        if win[j] < 0 or (s >= 0 and win[j] > hands_w[j]):
            return 1
    for j in range(loss.shape[0]):
        if loss[j] < 0 or (s >= 0 and loss[j] > hands_l[j]):
            return 1
    return 1 if s >= 0 and win[0] + loss[0] > s else 0


@njit(cache=True, inline="always")
def _bank_problem(bank, win, loss, hands):
    return (bank[0] < win or bank[1] > loss or bank[1] < 0
            or bank[0] + bank[1] > hands)  # fmt: skip


def check_per_hand(r: PerHand, keys: EngineKeys, deck_size: int) -> None:
    """A per-hand table's invariants: its settings are the keys' frontiers; every count is
    non-negative; each class's dealer hands are the C(n-7,7) hands of the other cards, and
    each setting's wins and losses fit in the dealer hands their columns count; and, weighted
    by class orbit sizes, the dealer hands of each dealer class are C(n-7,7) times the hands
    of that class (each dealer hand meets C(n-7,7) player hands)."""
    offset, ph, pl = flatten_frontiers(keys)
    require(np.array_equal(r.point_offset, offset) and np.array_equal(r.point_high, ph)
            and np.array_equal(r.point_low, pl), "the settings are not the frontiers")  # fmt: skip
    require(r.dealer_class_bits == keys.dealer_class_bits, "the dealer classes are not the keys'")
    n_w, n_l, n = len(r.sets.win), len(r.sets.loss), len(r)
    require(r.win.shape == (len(ph), n_w) and r.loss.shape == (len(ph), n_l)
            and r.way_win.shape == (n, n_w) and r.way_loss.shape == (n, n_l),
            "the wins and losses do not span their sets")  # fmt: skip
    unit = comb(deck_size - 7, 7)
    require(r.bank.shape == (len(r.point_high), 2) and r.way_bank.shape == (len(r), 2),
            "the banker's counts do not span the settings")  # fmt: skip
    win_map, loss_map = r.sets.maps(r.dealer_class_bits)
    problems = np.zeros(n, dtype=np.int8)
    over_ranges(_per_hand_problems, n, r.point_offset, r.total, r.way_win, r.way_loss, r.win,
                r.loss, r.way_bank, r.bank, win_map, loss_map, unit, problems)  # fmt: skip
    broken = np.flatnonzero(problems)
    require(broken.size == 0, _PROBLEMS[int(problems[broken[0]]) if broken.size else 0])
    orbit = keys.class_orbit.astype(np.int64)
    hands = np.zeros(keys.n_dealer_classes, dtype=np.int64)
    np.add.at(hands, keys.dealer_class.astype(np.int64), orbit)
    met = weighted_rows(r.total, np.arange(len(orbit), dtype=np.int64), orbit).tolist()
    require(met == [unit * int(h) for h in hands],
            "a dealer class's hands disagree with the hand table")  # fmt: skip
