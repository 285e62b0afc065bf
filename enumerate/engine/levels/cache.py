"""The level cache: each inclusion-exclusion level's families, built once per deck and rules.

A level depends on the deck, the rules and this code only, not on the house ways or the
dealer flags, so every table built from the levels (the pair engine on either backend, the
per-hand and the per-dealer tables) reads the same files:
``<cache>/levels/<deck>-<rules hash>-<code fingerprint>/k<k>-{offsets,items,orbit_size}.npy``
and the sidecar ``k<k>.json`` (provenance, shapes, xxHash-128 digests; written last, so a
level is either whole or absent). About 3.6 GB for the full deck; reading them back
(memory-mapped, every digest and invariant checked) costs a small part of building them.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from enumerate.cache import (
    built_correctly,
    cache_dir,
    load_arrays,
    provenance,
    read_only,
    require,
    save_arrays,
)
from enumerate.engine.levels.build import LevelArrays, build_level
from enumerate.fingerprint import code_fingerprint
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges
from enumerate.tables import HandTable

LEVEL_ARRAYS = ("offsets", "items", "orbit_size")

# one build at a time per process: two threads asking for one level wait for one build
_BUILD_LOCK = threading.Lock()


def level_dir(deck: Deck, rules: Rules, cache: Path) -> Path:
    """Folder of the cached levels of a deck and rules, for this code."""
    tag = hashlib.sha256(f"{deck.key}|{rules.key}".encode()).hexdigest()[:8]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", deck.name)
    return cache / "levels" / f"{safe}-{tag}-{code_fingerprint(__name__)}"


def _level_prov(deck: Deck, rules: Rules, k: int) -> dict[str, Any]:
    return provenance(__name__, table="engine-level", deck=deck.key, rules=rules.key, k=k)


def save_level(level: LevelArrays, deck: Deck, rules: Rules, cache: Path) -> Path:
    """Write a level's arrays as ``.npy`` files, then the sidecar that makes them valid (with
    each array's shape, dtype and xxHash digest)."""
    arrays = {name: getattr(level, name) for name in LEVEL_ARRAYS}
    return save_arrays(level_dir(deck, rules, cache), f"k{level.k}", arrays,
                       _level_prov(deck, rules, level.k))  # fmt: skip


@njit(cache=True, nogil=True)
def _family_hands_range(lo, hi, offsets, items, class_orbit, n_classes, out, bad, unsorted):
    """Per orbit ``lo .. hi - 1``: the hands its family holds (class orbit sizes summed); the
    number of items that are not class rows; and the number that are below the item before
    them in their family (both 0 when the level is sound)."""
    for s in range(lo, hi):
        total = 0
        for t in range(offsets[s], offsets[s + 1]):
            c = items[t]
            if t > offsets[s] and c < items[t - 1]:
                unsorted[s] += 1
            if c < 0 or c >= n_classes:
                bad[s] += 1
            else:
                total += class_orbit[c]
        out[s] = total


def _family_hands(offsets: np.ndarray, items: np.ndarray, class_orbit: np.ndarray,
                  n_classes: int) -> tuple[np.ndarray, int, int]:  # fmt: skip
    """Per orbit, the hands its family holds; the items that are not class rows; the items
    below the one before them in their family (``_family_hands_range``)."""
    n = offsets.shape[0] - 1
    out = np.zeros(n, dtype=np.int64)
    bad = np.zeros(n, dtype=np.int64)
    unsorted = np.zeros(n, dtype=np.int64)
    over_ranges(_family_hands_range, n, offsets, items, class_orbit, n_classes, out, bad,
                unsorted)  # fmt: skip
    return out, int(bad.sum()), int(unsorted.sum())


def check_level(level: LevelArrays, deck: Deck, class_orbit: np.ndarray) -> None:
    """A level's invariants: offsets start at 0, every family is non-empty and the last offset
    ends the items; items are class rows, in increasing order within a family (the kernels
    merge a family's repeated classes as neighbours and skip families by their first and
    last class); and the family of orbit S holds, counted with class orbit sizes,
    ``|orbit S| * C(n - k, 7 - k)`` hands (each hand containing S once for every set of its
    orbit it contains: docs/design.md, "Suit symmetry and levels")."""
    off = np.asarray(level.offsets)
    require(len(off) == len(level.orbit_size) + 1 and off[0] == 0
            and off[-1] == len(level.items), "offsets do not span the items")  # fmt: skip
    require(bool((np.diff(off) > 0).all()), "a family is empty")
    # read-only views, as a level read back is: the check compiles once for both
    per_orbit, bad, unsorted = _family_hands(
        read_only(off), read_only(level.items), class_orbit.astype(np.int64), len(class_orbit)
    )
    require(bad == 0, "an item is not a class row")
    require(unsorted == 0, "a family's classes are not in increasing order")
    expected = np.asarray(level.orbit_size, dtype=np.int64) * comb(deck.size - level.k,
                                                                   7 - level.k)  # fmt: skip
    require(np.array_equal(per_orbit, expected), "a family does not hold the hands of its set")


def load_level(
    deck: Deck, rules: Rules, k: int, cache: Path, class_orbit: np.ndarray | None = None
) -> LevelArrays | None:
    """The cached level, memory-mapped, if this code made it for this deck and rules and it
    verifies: each array's digest, and with ``class_orbit`` (the hand table's orbit sizes)
    the level's invariants (``check_level``). A damaged level is reported and not served."""

    def level_of(arrays: dict[str, np.ndarray]) -> LevelArrays:
        return LevelArrays(k, arrays["offsets"], arrays["items"], arrays["orbit_size"])

    def check(arrays: dict[str, np.ndarray]) -> None:
        require(sorted(arrays) == sorted(LEVEL_ARRAYS), "the sidecar lists other arrays")
        if class_orbit is not None:
            check_level(level_of(arrays), deck, class_orbit)

    arrays = load_arrays(level_dir(deck, rules, cache), f"k{k}", _level_prov(deck, rules, k),
                         check)  # fmt: skip
    return None if arrays is None else level_of(arrays)


def level_arrays(
    table: HandTable, k: int, cache: Path | None = None, use_cache: bool = True
) -> tuple[LevelArrays, float]:
    """Level ``k`` of the table's deck and rules, and the seconds spent building it (0 when it
    was read): from the cache folder (default ``cache_dir()``) when it is there and verifies,
    else built, checked and (with ``use_cache``) saved, then served memory-mapped."""
    deck, rules = table.deck, table.rules
    if not use_cache:
        t0 = time.perf_counter()
        built = LevelArrays.of(build_level(table, k))
        return built, time.perf_counter() - t0
    root = cache or cache_dir()
    level = load_level(deck, rules, k, root, table.orbit_size)
    if level is not None:
        return level, 0.0
    with _BUILD_LOCK:
        level = load_level(deck, rules, k, root, table.orbit_size)  # built while we waited
        if level is not None:
            return level, 0.0
        t0 = time.perf_counter()
        built = LevelArrays.of(build_level(table, k))
        with built_correctly(f"level {k}"):
            check_level(built, deck, table.orbit_size)
        save_level(built, deck, rules, root)
        seconds = time.perf_counter() - t0
    # served mapped, so the built copy is freed and every thread reads the one page cache
    mapped = load_level(deck, rules, k, root)
    return (built if mapped is None else mapped), seconds
