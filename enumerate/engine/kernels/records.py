"""The packed per-class records the family kernels read, and the merge that copies a family's
records into a buffer of its own.

A family's classes are scattered over the whole hand table, so each separate per-class array
would cost a cache miss per item: one int64 record per class holds everything a family pass
reads of it, ``merge_family`` reads it once (prefetched a few items ahead), and the passes after
it read the family's own copy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.engine.kernels.prefetch import prefetch
from enumerate.evaluate import HIGH_ID_BOUND, N_LOW

N_HIGH_MAX = HIGH_ID_BOUND  # bound on five-card ids (7,463 under either wheel rule)
MERGE_AHEAD = 16  # items between asking for a class's record and reading it (merge_family)
__all__ = ["MERGE_AHEAD", "N_HIGH_MAX", "N_LOW", "family_buffers", "merge_family",
           "pack_classes", "unpack_class"]

DEALER_LOW_SHIFT, DEALER_CLASS_SHIFT, PLAYER_CLASS_SHIFT = 13, 20, 25
ORBIT_SHIFT, SELECTED_SHIFT, GROUP_SHIFT = 29, 34, 35
_FIELD_LIMITS = {  # field: (shift, bound)
    "dealer high": (0, 1 << 13),
    "dealer low": (DEALER_LOW_SHIFT, 1 << 7),
    "dealer class": (DEALER_CLASS_SHIFT, 1 << 5),
    "player class": (PLAYER_CLASS_SHIFT, 1 << 4),
    "class orbit size": (ORBIT_SHIFT, 1 << 5),
    "player selected": (SELECTED_SHIFT, 2),
    "player group": (GROUP_SHIFT, 1 << 28),
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
        r & 0x1FFF, (r >> DEALER_LOW_SHIFT) & 0x7F, (r >> DEALER_CLASS_SHIFT) & 0x1F,
        (r >> PLAYER_CLASS_SHIFT) & 0xF,
        (r >> ORBIT_SHIFT) & 0x1F, (r >> SELECTED_SHIFT) & 1, r >> GROUP_SHIFT,
    )  # fmt: skip


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
    both ways (``levels.build``). So every count a kernel makes of a family is already a count of
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
        scaled = occ[i] * ((frec[i] >> ORBIT_SHIFT) & 0x1F)
        inexact += scaled % q != 0
        mult[i] = scaled // q
    return n, inexact
