"""The blind half of the pair counts of several house ways in one pass over the levels.

For a way W setting both hands of every deal (player x, dealer y), the pair engine counts
``joint[p, d]`` (deals by player class and dealer class), ``blind_win[d]`` (both of the
player's hands higher) and ``blind_loss[d]`` (both lower or equal) and, with the player
seeing the dealer's setting, the best-response counts. Those last ones are sums of the
per-dealer table of best-responding players at W's settings (``analysis.waylab.wayedge``,
``way_counts``), which a report builds anyway; this pass counts the rest, for every way of a
report at once, and costs far less than an engine run per way: inside a family H_S a player's
only question is one point, so every item is swept once, by high id, with a Fenwick tree over
the low ids (docs/design.md, "Keys: bucketing hands by dealer rank"), with no dealer grid of ten
dealer classes and no staircase per player group.

Counts are exact int64: a family adds at most |H_S|^2 x |orbit S| <= C(53,7)^2 deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from enumerate.engine.kernels.fenwick import fenwick_add, fenwick_below
from enumerate.engine.kernels.records import N_LOW, ORBIT_SHIFT, family_buffers, merge_family
from enumerate.engine.kernels.sorting import HIGH_BITS, sort_by_high
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.passes import over_levels
from enumerate.engine.pairs.shards import default_jobs
from enumerate.tables import HandTable
from enumerate.vocabulary import N_PLAYER_CLASSES

# A class's rider (int32), for one way: what its hands are as a player and as a dealer of
# that way. High id in bits 0-13 (where ``sort_by_high`` reads it), low id 14-20, dealer class
# 21-24, player class 25-28; the sort records put the family weight above them (bits 32-).
_LOW_SHIFT, _DCLASS_SHIFT, _PCLASS_SHIFT, _WEIGHT_SHIFT = HIGH_BITS, 21, 25, 32
_HIGH_MASK = (1 << HIGH_BITS) - 1
DIRECT_MAX = 12  # families this small test every pair (at this size faster than the sweep)


@dataclass(frozen=True, eq=False)
class BlindCounts:
    """The blind half of one way's pair counts (``PairCounts`` fields of the same names)."""

    dealer_class_bits: tuple[int, ...]
    joint: np.ndarray  # (player classes, dealer classes) int64
    blind_win: np.ndarray  # (dealer classes,) int64
    blind_loss: np.ndarray


def riders(keys: EngineKeys) -> np.ndarray:
    """One int32 per class: the way's setting, dealer class and player class (the bits above).
    The keys must set the player's hands by the dealer's way (one way, both sides)."""
    if not (np.array_equal(keys.player_high, keys.dealer_high)
            and np.array_equal(keys.player_low, keys.dealer_low)):  # fmt: skip
        raise ValueError("blind pairs: the player must set his hands by the dealer's way")
    fields = ((keys.dealer_high, 0, _LOW_SHIFT), (keys.dealer_low, _LOW_SHIFT, 7),
              (keys.dealer_class, _DCLASS_SHIFT, 4),
              (keys.player_class, _PCLASS_SHIFT, 4))  # fmt: skip
    out = np.zeros(len(keys.dealer_high), dtype=np.int32)
    for values, shift, bits in fields:
        v = values.astype(np.int32)
        if len(v) and (v.min() < 0 or v.max() >= 1 << bits):
            raise ValueError("blind pairs: a class's keys do not fit in its rider")
        out |= v << shift
    return out


@njit(cache=True, nogil=True)
def family_blind_pairs(fam, mult, factor, riders, n_d, scratch, joint, win, loss):
    """Add ``factor`` (the sign x the orbit's q sets) times the family's deals into
    ``joint[w]``, ``win[w]`` and ``loss[w]`` for every way w of ``riders``.

    Sorted by high id, the items are swept up: before the items of high h are asked, every
    item of high at most h has been added to a Fenwick tree over the low ids. Of those, the
    ones of low at most l are the players an item (h, l) as dealer beats or ties in both hands
    (the player's loss); the players above both are those of low above l less those of high
    at most h and low above l (the player's win)."""
    n = fam.shape[0]
    recs, ordered, tmp, tree, above, hp, td = scratch
    n_p = hp.shape[0]
    for w in range(riders.shape[1]):
        for i in range(n):
            r = np.int64(riders[fam[i], w])
            recs[i] = (mult[i] << _WEIGHT_SHIFT) | r
            hp[(r >> _PCLASS_SHIFT) & 15] += mult[i]
            td[(r >> _DCLASS_SHIFT) & 15] += mult[i]
        for p in range(n_p):
            if hp[p] != 0:
                for d in range(n_d):
                    joint[w, p, d] += factor * hp[p] * td[d]
                hp[p] = 0
        td[:] = 0
        if n <= DIRECT_MAX:
            for y in range(n):
                hy, ly = recs[y] & _HIGH_MASK, (recs[y] >> _LOW_SHIFT) & 127
                beat = 0
                beaten = 0
                for x in range(n):
                    hx, lx = recs[x] & _HIGH_MASK, (recs[x] >> _LOW_SHIFT) & 127
                    if hx > hy and lx > ly:
                        beat += recs[x] >> _WEIGHT_SHIFT
                    elif hx <= hy and lx <= ly:
                        beaten += recs[x] >> _WEIGHT_SHIFT
                d = (recs[y] >> _DCLASS_SHIFT) & 15
                m = factor * (recs[y] >> _WEIGHT_SHIFT)
                win[w, d] += m * beat
                loss[w, d] += m * beaten
            continue
        sort_by_high(recs, n, ordered, tmp)
        tree[:] = 0
        above[:] = 0
        for i in range(n):
            above[(ordered[i] >> _LOW_SHIFT) & 127] += ordered[i] >> _WEIGHT_SHIFT
        run = 0  # above[l] becomes the weight of low above l
        for lo in range(N_LOW, -1, -1):
            here = above[lo]
            above[lo] = run
            run += here
        inserted = 0
        t = 0
        while t < n:
            h = ordered[t] & _HIGH_MASK
            u = t
            while u < n and ordered[u] & _HIGH_MASK == h:
                m = ordered[u] >> _WEIGHT_SHIFT
                fenwick_add(tree, (ordered[u] >> _LOW_SHIFT) & 127, m)
                inserted += m
                u += 1
            for v in range(t, u):
                lo = (ordered[v] >> _LOW_SHIFT) & 127
                at_or_below = fenwick_below(tree, lo + 1)
                d = (ordered[v] >> _DCLASS_SHIFT) & 15
                m = factor * (ordered[v] >> _WEIGHT_SHIFT)
                win[w, d] += m * (above[lo] - inserted + at_or_below)
                loss[w, d] += m * at_or_below
            t = u


@njit(cache=True, nogil=True)
def blind_pairs_orbits(offsets, items, orbit_ids, sign, set_orbit, orbit_rec, riders, n_p, n_d,
                       joint, win, loss):  # fmt: skip
    """``family_blind_pairs`` over the orbits ``orbit_ids`` of one level (``orbit_rec``: each
    class's orbit size where ``merge_family`` reads it); returns the classes whose weight did
    not divide by the orbit size (the caller fails on any)."""
    max_items, fam, frec, mult, occ = family_buffers(offsets, orbit_ids)
    scratch = (np.empty(max_items, dtype=np.int64), np.empty(max_items, dtype=np.int64),
               np.empty(max_items, dtype=np.int64), np.zeros(N_LOW + 2, dtype=np.int64),
               np.zeros(N_LOW + 1, dtype=np.int64), np.zeros(n_p, dtype=np.int64),
               np.zeros(n_d, dtype=np.int64))  # fmt: skip
    inexact = 0
    for s in orbit_ids:
        q = set_orbit[s]
        n, bad = merge_family(items, offsets[s], offsets[s + 1], q, orbit_rec, fam, frec, mult,
                              occ)  # fmt: skip
        inexact += bad
        # the family's deals count once for each of the q sets of the orbit
        family_blind_pairs(fam[:n], mult[:n], sign * q, riders, n_d, scratch, joint, win, loss)
    return inexact


def run_blind_pairs(table: HandTable, keys: list[EngineKeys], n_jobs: int | None = None,
                    use_cache: bool = True) -> list[BlindCounts]:  # fmt: skip
    """The blind half of the pair counts of each of ``keys`` (one way on both sides, every
    player; ``riders``), in one pass over the levels (from the level cache with
    ``use_cache``) on ``n_jobs`` threads."""
    if any(k.player_weight.min(initial=1) != 1 for k in keys):
        raise ValueError("blind pairs count every player hand: no selection")
    n_jobs = n_jobs or default_jobs()
    rid = np.ascontiguousarray(np.stack([riders(k) for k in keys], axis=1))
    orbit_rec = table.orbit_size.astype(np.int64) << ORBIT_SHIFT
    n_p = N_PLAYER_CLASSES
    n_d = max(k.n_dealer_classes for k in keys)
    parts = [(np.zeros((len(keys), n_p, n_d), dtype=np.int64),
              np.zeros((len(keys), n_d), dtype=np.int64),
              np.zeros((len(keys), n_d), dtype=np.int64)) for _ in range(n_jobs)]  # fmt: skip

    def work(level: LevelArrays, ids: np.ndarray, part: int) -> int:
        joint, win, loss = parts[part]
        return int(blind_pairs_orbits(level.offsets, level.items, ids, level.sign,
                                      level.orbit_size, orbit_rec, rid, n_p, n_d, joint, win,
                                      loss))  # fmt: skip

    over_levels(table, n_jobs, work, "blind pairs", use_cache=use_cache)
    joint, win, loss = (np.sum([p[i] for p in parts], axis=0) for i in range(3))
    return [BlindCounts(k.dealer_class_bits, joint[w, :, : k.n_dealer_classes],
                        win[w, : k.n_dealer_classes], loss[w, : k.n_dealer_classes])
            for w, k in enumerate(keys)]  # fmt: skip
