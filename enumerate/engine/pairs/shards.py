"""The pair engine's unit of work: a shard (a contiguous range of one level's orbits), how a
level is split into shards, the counts of one shard, and the store of finished shards on disk
(``<cache>/engine/<keys digest>/``, Parquet with provenance). ``run`` and ``distributed`` run
them, on threads of this process or on a Dask cluster.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from math import ceil, comb
from pathlib import Path

import numpy as np
import pyarrow as pa

from enumerate.cache import (
    built_correctly,
    cache_dir,
    load_verified,
    provenance,
    write_atomic,
)
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.pairs.counts import PairCounts
from enumerate.engine.pairs.kernels import run_orbits
from enumerate.runtime.threads import cores
from enumerate.symmetry import orbits
from enumerate.tables import HandTable
from enumerate.vocabulary import N_PLAYER_CLASSES

VISITS_PER_SHARD = 60_000_000
ORBITS_PER_SHARD = 250_000


@dataclass(frozen=True)
class Shard:
    """Orbits ``lo <= s < hi`` of level ``k`` (or only ``only`` among them)."""

    k: int
    lo: int
    hi: int
    only: tuple[int, ...] | None = None

    @property
    def name(self) -> str:
        return f"k{self.k}-{self.lo}-{self.hi}"

    @property
    def orbit_ids(self) -> np.ndarray:
        if self.only is not None:
            return np.array(self.only, dtype=np.int64)
        return np.arange(self.lo, self.hi, dtype=np.int64)


def plan_shards(table: HandTable, levels: Iterable[int] = range(8)) -> list[Shard]:
    """Split every level into shards of about ``VISITS_PER_SHARD`` hand visits and at most
    ``ORBITS_PER_SHARD`` orbits (the levels of many small families cost more per visit: the
    1,097,447 families of level 6 in one shard would keep one core busy while the other
    idles)."""
    n = table.deck.size
    shards = []
    for k in levels:
        n_orbits = len(orbits(table.deck, k))
        visits = n_orbits * comb(n - k, 7 - k)  # hand visits of the orbit representatives
        want = max(ceil(visits / VISITS_PER_SHARD), ceil(n_orbits / ORBITS_PER_SHARD))
        parts = max(1, min(n_orbits, want))
        bounds = np.linspace(0, n_orbits, parts + 1).round().astype(int)
        shards += [Shard(k, int(a), int(b)) for a, b in pairwise(bounds)]
    return shards


def run_shard(level: LevelArrays, shard: Shard, table: HandTable, keys: EngineKeys) -> PairCounts:
    joint, bwin, bloss, rwin, rpush, inexact = run_orbits(
        level.offsets, level.items, shard.orbit_ids, level.orbit_size, keys.packed,
        keys.player_high, keys.player_low, keys.frontier_size, keys.frontier_high,
        keys.frontier_low, keys.player_groups[1], N_PLAYER_CLASSES, keys.n_dealer_classes,
    )  # fmt: skip
    if inexact:
        raise AssertionError(f"shard {shard.name}: {inexact} class weights not divisible by "
                             "the orbit size")
    return PairCounts(joint, bwin, bloss, rwin, rpush).scaled(level.sign)


def shard_pairs(table: HandTable, shard: Shard) -> int:
    """The (player, dealer) pairs a shard counts, with their sign, when every hand plays:
    each orbit S adds ``|orbit S| * |H_S|^2`` with ``|H_S| = C(n - k, 7 - k)``."""
    size = orbits(table.deck, shard.k).size[shard.orbit_ids].astype(np.int64)
    h = comb(table.deck.size - shard.k, 7 - shard.k)
    return (-1) ** shard.k * int(size.sum()) * h * h


class ShardStore:
    """Finished shards of one run, as Parquet files with provenance, verified when read."""

    def __init__(self, keys: EngineKeys, table: HandTable, root: Path | None = None) -> None:
        self.dir = (root or cache_dir()) / "engine" / keys.digest
        self.prov = provenance(
            __name__, table="engine-shard", keys=keys.label, digest=keys.digest,
            deck=table.deck.key, rules=table.rules.key,
        )  # fmt: skip
        self.n_d = keys.n_dealer_classes
        self.table = table
        self.every_hand = keys.spec.selection is None  # else totals depend on the selection

    def path(self, shard: Shard) -> Path:
        return self.dir / f"{shard.name}.parquet"

    def check(self, shard: Shard, counts: PairCounts) -> None:
        """A shard's invariants (``PairCounts.check``): signs, and its total of pairs."""
        total = shard_pairs(self.table, shard) if self.every_hand else None
        counts.check((-1) ** shard.k, total)

    def load(self, shard: Shard) -> PairCounts | None:
        """The shard's counts if it is on disk, current and verifies; else None."""

        def parse(arrow: pa.Table) -> PairCounts:
            counts = PairCounts.from_arrow(arrow, N_PLAYER_CLASSES, self.n_d)
            self.check(shard, counts)
            return counts

        return load_verified(self.path(shard), {**self.prov, "shard": shard.name}, parse)

    def save(self, shard: Shard, counts: PairCounts) -> None:
        with built_correctly(f"shard {shard.name}"):
            self.check(shard, counts)
        write_atomic(counts.to_arrow(), self.path(shard), {**self.prov, "shard": shard.name})


def default_jobs() -> int:
    return cores()


@dataclass
class LevelStats:
    """Where the time of a run went, per inclusion-exclusion level (shards computed by this
    run only; shards loaded from the cache are not counted)."""

    k: int
    orbits: int = 0
    hand_visits: int = 0  # sum over orbit representatives S of |H_S|
    build_seconds: float = 0.0  # building (or loading) the level, shared by runs of one deck
    shard_seconds: float = 0.0  # summed over threads or workers
    shards: int = 0  # shards computed


@dataclass(frozen=True)
class ShardDone:
    """A shard finished during a run, as ``on_shard`` callbacks see it."""

    run: int  # index of the run in ``run_engines`` (0 for ``run_engine``)
    shard: Shard
    seconds: float  # kernel time
    worker: str  # "local", or the address of the Dask worker
    pid: int  # the process that computed it
    computed: bool = True  # False: a worker found it on disk (finished before a worker loss)
