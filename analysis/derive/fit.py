"""A points chart refit to the exact EVs: the chart whose most-points setting earns the most.

A chart (``enumerate.houseways.points``) sets each hand by its most points. The chance chart
(``analysis.derive.points.chart``) scores a back and a front by their chances against the
dealer's hands, which leaves out the commission and the card removal of the player's own
hand. This fit moves the points themselves to where the settings they choose earn the most,
over every class and with the exact EVs of the optimal strategy's per-hand table.

It is a coordinate ascent with an exact line search. The points of one back group (or one
front) are the unknown, and everything else is held. Each class that has a setting in the
group then takes one of two settings: its best in the group, or its best outside it. It takes
the one in the group when the group's points reach a threshold (``_line``). The gain as a
function of the points is a step function over the classes' thresholds, and the best value
between the neighbouring groups' points (the chart stays non-decreasing, so a setting is never
dominated) is read off its prefix sums. Groups and fronts are taken in turn, weakest first;
sweeps repeat until one adds less than ``1 / STOP`` of the span from the start to optimal play,
or ``MAX_SWEEPS``. Every gain is an exact integer (EV numerators times class weights); the fit
is deterministic.

The fit counts a class's choice the way the kernel does: the most points, then the strongest
back (frontier points run by increasing back, so the last of the most). Only frontier points
compete: with a non-decreasing chart a dominated setting never earns more than the frontier
point above it, and loses to it on the tie-breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from enumerate.runtime.threads import over_ranges

MAX_SWEEPS = 12
STOP = 10_000  # a sweep that adds less than 1/STOP of the span ends the fit
LOWEST = np.int64(-(1 << 50))  # below every sum of points


@dataclass(frozen=True)
class Fit:
    """The refit points: of each back group and each front, and the exact gain numerator (the
    sum of class weight times EV numerator of the chosen settings) at the start and after each
    sweep."""

    back: np.ndarray  # (groups,) int64
    front: np.ndarray  # (fronts,) int64
    gains: tuple[int, ...]


@njit(cache=True, nogil=True)
def _choose_range(lo, hi, offset, high, low, group, back, front, out):  # pragma: no cover
    """For the classes ``lo <= c < hi``, the frontier point of the most points (the last of
    the most: the strongest back)."""
    for c in range(lo, hi):
        top, best = -1, LOWEST
        for p in range(offset[c], offset[c + 1]):
            s = back[group[high[p]]] + front[low[p]]
            if s >= best:
                top, best = p, s
        out[c] = top


def choose(offset: np.ndarray, high: np.ndarray, low: np.ndarray, group: np.ndarray,
           back: np.ndarray, front: np.ndarray) -> np.ndarray:  # fmt: skip
    """The point each class takes under the chart ``back`` (per group of ``group``, indexed by
    five-card id) and ``front`` (per two-card id), on both cores."""
    out = np.empty(offset.shape[0] - 1, dtype=np.int64)
    over_ranges(_choose_range, len(out), offset, high, low, group, back, front, out)
    return out


@njit(cache=True)
def _lists(offset, high, low, group, side, n_keys):  # pragma: no cover
    """Per back group (``side`` 0) or front (1), the classes that have a point of it, each
    once: (start of each one's run, the classes)."""
    count = np.zeros(n_keys + 1, dtype=np.int64)
    seen = np.full(n_keys, -1, dtype=np.int64)
    for c in range(offset.shape[0] - 1):
        for p in range(offset[c], offset[c + 1]):
            k = group[high[p]] if side == 0 else low[p]
            if seen[k] != c:
                seen[k] = c
                count[k + 1] += 1
    start = np.cumsum(count)
    at = start[:-1].copy()
    out = np.empty(start[-1], dtype=np.int32)
    seen[:] = -1
    for c in range(offset.shape[0] - 1):
        for p in range(offset[c], offset[c + 1]):
            k = group[high[p]] if side == 0 else low[p]
            if seen[k] != c:
                seen[k] = c
                out[at[k]] = c
                at[k] += 1
    return start, out


@njit(cache=True, nogil=True)
def _line_range(lo, hi, classes, offset, high, low, ev, weight, group, back, front, side, g,
                threshold, delta):  # fmt: skip  # pragma: no cover
    """For the classes ``classes[lo:hi]``, with the points of back group ``g`` (``side`` 0) or
    front ``g`` (``side`` 1) unknown: the least points at which the class takes its best
    point in ``g`` over its best outside, and what that changes (weight times EV numerator).
    A class with no point outside ``g`` changes nothing (threshold ``LOWEST``)."""
    for i in range(lo, hi):
        c = classes[i]
        mine, mine_rest = -1, LOWEST  # best in g, by the points of its other hand
        other, other_sum = -1, LOWEST  # best outside g, by its sum
        for p in range(offset[c], offset[c + 1]):
            k = group[high[p]] if side == 0 else low[p]
            rest = front[low[p]] if side == 0 else back[group[high[p]]]
            if k == g:
                if rest >= mine_rest:
                    mine, mine_rest = p, rest
            else:
                s = back[group[high[p]]] + front[low[p]]
                if s >= other_sum:
                    other, other_sum = p, s
        if other < 0:
            threshold[i], delta[i] = LOWEST, 0
            continue
        # ties go to the stronger back: the later point
        t = other_sum - mine_rest
        threshold[i] = t if mine > other else t + 1
        delta[i] = weight[c] * (ev[mine] - ev[other])


def _line(classes: np.ndarray, args: tuple[np.ndarray, ...], back: np.ndarray,
          front: np.ndarray, side: int, g: int, now: int, lo: int, hi: int) -> tuple[int, int]:
    """The points in ``lo .. hi`` of back group or front ``g`` that earn the most, and their
    gain over ``now`` (``now`` kept when nothing earns more)."""
    n = len(classes)
    threshold = np.empty(n, dtype=np.int64)
    delta = np.empty(n, dtype=np.int64)
    over_ranges(_line_range, n, classes, *args, back, front, side, g, threshold, delta)
    # a class whose threshold is at most lo takes g at every value, one above hi never: only
    # those between change with the value (the gain below is over the value lo)
    between = (threshold > lo) & (threshold <= hi)
    threshold, delta = threshold[between], delta[between]
    if not len(threshold):
        return now, 0
    order = np.argsort(threshold, kind="stable")
    threshold, total = threshold[order], np.cumsum(delta[order])
    values = np.unique(np.concatenate([np.array([lo, now], dtype=np.int64), threshold]))
    at = np.searchsorted(threshold, values, side="right")  # classes taking g at each value
    gain = np.where(at > 0, total[np.maximum(at - 1, 0)], 0)
    here = int(gain[np.searchsorted(values, now)])
    k = int(np.argmax(gain))
    if int(gain[k]) > here:
        return int(values[k]), int(gain[k]) - here
    return now, 0


def fit_points(offset: np.ndarray, high: np.ndarray, low: np.ndarray, ev: np.ndarray,
               weight: np.ndarray, group: np.ndarray, back: np.ndarray, front: np.ndarray,
               top: int, best_gain: int, stop: int | None = STOP,
               sweeps: int = MAX_SWEEPS) -> Fit:  # fmt: skip
    """Refit the chart ``back`` (points per back group; ``group`` maps each five-card id to
    its group, groups in increasing strength) and ``front`` (points per two-card id) to the
    frontier points' EV numerators ``ev`` of classes weighted by ``weight``; points stay in
    ``0 .. top`` and non-decreasing. ``best_gain``: the gain of optimal play, for the stop
    (``stop=None``: sweep until one moves no points, at most ``sweeps``)."""
    offset = np.ascontiguousarray(offset, dtype=np.int64)
    ev = np.ascontiguousarray(ev, dtype=np.int64)
    weight = np.ascontiguousarray(weight, dtype=np.int64)
    group = np.ascontiguousarray(group, dtype=np.int64)
    back = np.array(back, dtype=np.int64)
    front = np.array(front, dtype=np.int64)
    bound = int(np.abs(ev).max(initial=0)) * int(weight.sum())
    if bound >= 1 << 62:
        raise ValueError("the EVs are too large for an int64 fit")
    if len(offset) - 1 >= 1 << 31:
        raise ValueError("too many classes for a fit (the lists hold int32)")
    lists = tuple(_lists(offset, high, low, group, side, len(points))
                  for side, points in ((0, back), (1, front)))  # fmt: skip
    args = (offset, high, low, ev, weight, group)

    def gain_of() -> int:
        return int((weight * ev[choose(offset, high, low, group, back, front)]).sum())

    gains = [gain_of()]
    for _ in range(sweeps):
        moved = 0
        for side, points in ((0, back), (1, front)):
            start, classes = lists[side]
            for g in range(len(points)):
                if start[g] == start[g + 1]:
                    continue
                lo = int(points[g - 1]) if g else 0
                hi = int(points[g + 1]) if g + 1 < len(points) else top
                value, gain = _line(classes[start[g]:start[g + 1]], args, back, front, side, g,
                                    int(points[g]), lo, hi)  # fmt: skip
                points[g] = value
                moved += gain > 0
        gains.append(gain_of())
        if not moved or (stop and (gains[-1] - gains[-2]) * stop < best_gain - gains[0]):
            break
    return Fit(back, front, tuple(gains))
