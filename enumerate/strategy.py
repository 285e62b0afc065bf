"""The player's side: the non-dominated valid settings of every hand.

A valid setting is dominated when another valid setting is at least as high in both hands and
higher in one. Against a dealer hand the player can see, only non-dominated settings matter;
the frontier of a hand lists their (high id, low id) points by increasing high id (so by
decreasing low id). Its last point holds the hand's highest valid high id, its first the highest
valid low id.

>>> from enumerate.cards import parse_cards
>>> f = frontier_of(parse_cards("Ac Ad 7h 7s 3c 3d 2h"))
>>> [(h, l) for h, l in f] == sorted(f)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SettingValue, five_card_table, settings_of
from enumerate.rules import Rules
from enumerate.runtime.threads import over_ranges

MAX_FRONTIER = 21


@njit(cache=True, nogil=True, inline="always")
def _frontier(high, low, max_low, keys, out_h, out_l):
    """Write the frontier of one hand's 21 settings into out_h/out_l; return its size.
    ``keys``: a buffer of 21 for the valid settings' (high, low) keys, sorted decreasing.

    Going down the high ids, a valid setting is on the frontier when its low id beats every
    low before it; ties of (high, low) are one point."""
    m = 0
    for s in range(21):
        if low[s] > max_low[high[s]]:
            continue  # foul
        key = np.int64(high[s]) * 128 + low[s]
        t = m  # insertion into keys[:m + 1], decreasing
        while t > 0 and keys[t - 1] < key:
            keys[t] = keys[t - 1]
            t -= 1
        keys[t] = key
        m += 1
    n = 0
    best_l = -1
    for k in range(m):  # the points found from the highest high down, into out_* from the end
        lw = keys[k] % 128
        if lw > best_l:
            out_h[20 - n] = keys[k] // 128
            out_l[20 - n] = lw
            n += 1
            best_l = lw
    for k in range(n):  # increasing high
        out_h[k] = out_h[21 - n + k]
        out_l[k] = out_l[21 - n + k]
    return n


@njit(cache=True, nogil=True)
def _frontiers_range(lo, hi, cards, ids5, max_low, size, fh, fl):
    """The frontiers of rows ``lo .. hi - 1`` of seven increasing card ids, with one set of
    buffers for all of them (a handful of arrays allocated per hand cost more than setting it:
    6,972,147 hands on the full deck)."""
    width = fh.shape[1]
    high = np.empty(21, dtype=np.int16)
    low = np.empty(21, dtype=np.int8)
    keys = np.empty(21, dtype=np.int64)
    oh = np.empty(21, dtype=np.int64)
    ol = np.empty(21, dtype=np.int64)
    for i in range(lo, hi):
        # the row as it is (int8 in a hand table): ``all_settings`` compiles the same
        # ``settings_of``, which an int64 copy would compile a second time
        settings_of(cards[i], ids5, high, low)
        k = _frontier(high, low, max_low, keys, oh, ol)
        size[i] = k
        for j in range(min(k, width)):
            fh[i, j] = oh[j]
            fl[i, j] = ol[j]


def _all_frontiers(cards: np.ndarray, ids5: np.ndarray, max_low: np.ndarray, width: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The frontiers of rows of seven increasing card ids, ``width`` points at most: (size,
    backs, fronts), -1 past a hand's points."""
    n = cards.shape[0]
    size = np.zeros(n, dtype=np.int8)
    fh = np.full((n, width), -1, dtype=np.int16)
    fl = np.full((n, width), -1, dtype=np.int8)
    over_ranges(_frontiers_range, n, cards, ids5, max_low, size, fh, fl)
    return size, fh, fl


@dataclass(frozen=True)
class Frontiers:
    """Frontiers of many hands: ``size[i]`` points in ``high[i, :size]``, ``low[i, :size]``."""

    size: np.ndarray  # int8
    high: np.ndarray  # (n, width) int16, -1 padded
    low: np.ndarray  # (n, width) int8, -1 padded

    @property
    def max_high(self) -> np.ndarray:
        """Highest valid high id of each hand."""
        return self.high[np.arange(len(self.size)), self.size.astype(np.int64) - 1]

    @property
    def max_low(self) -> np.ndarray:
        """Highest valid low id of each hand."""
        return self.low[:, 0]


def frontiers(cards: np.ndarray, rules: Rules | None = None) -> Frontiers:
    """Frontiers of rows of seven increasing card ids, as narrow as the widest frontier."""
    t = five_card_table(rules)
    size, fh, fl = _all_frontiers(cards, t.ids, t.max_low, MAX_FRONTIER)
    width = max(1, int(size.max())) if len(size) else 1
    return Frontiers(size, np.ascontiguousarray(fh[:, :width]), np.ascontiguousarray(fl[:, :width]))


def frontier_points(every: Iterable[SettingValue]) -> list[tuple[int, int]]:
    """The (high id, low id) frontier of one hand from its settings (``evaluate.settings``),
    by increasing high id: ``frontier_of`` without its kernel, which, made for whole tables,
    takes longer to load than to run on one hand. Going down the high ids, a valid point is on
    the frontier when its low id beats every low before it.

    >>> from enumerate.evaluate import settings
    >>> frontier_points(settings("As Ks Qs Js Ts 2c Jk")) == frontier_of("As Ks Qs Js Ts 2c Jk")
    True
    """
    points = sorted({(s.high_id, s.low_id) for s in every if s.valid}, reverse=True)
    out: list[tuple[int, int]] = []
    for h, lo in points:
        if not out or lo > out[-1][1]:
            out.append((h, lo))
    return out[::-1]


def frontier_of(cards: Sequence[Card] | str, rules: Rules | None = None) -> list[tuple[int, int]]:
    """The (high id, low id) frontier of one seven-card hand, by increasing high id."""
    hand = parse_cards(cards, count=7)
    row = np.array([sorted(c.id for c in hand)], dtype=np.int64)
    f = frontiers(row, rules)
    k = int(f.size[0])
    return [(int(f.high[0, j]), int(f.low[0, j])) for j in range(k)]
