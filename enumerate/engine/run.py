"""Running the pair engine: levels of inclusion-exclusion, shards, joblib, resumable caches.

    total = sum over levels k = 0..7 of (-1)^k * sum over orbits S of size k of |orbit S| * F_S

Each level's orbits are split into shards (contiguous ranges of orbits). A shard's counts are
written as Parquet under ``<cache>/engine/<keys digest>/`` with provenance; a run that is
interrupted resumes from the shards already on disk. Shards run in threads (the numba kernels
release the GIL), so the hand tables are shared, not copied.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, pairwise
from math import ceil, comb
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from tqdm.auto import tqdm

from enumerate.cache import cache_dir, provenance, read_provenance, write_atomic
from enumerate.engine.counts import PairCounts
from enumerate.engine.kernels import run_orbits
from enumerate.engine.keys import N_PLAYER_CLASSES, EngineKeys
from enumerate.engine.levels import Level, build_level
from enumerate.symmetry import canonical_code, orbits, suit_positions
from enumerate.tables import HandTable

SCHEMA_VERSION = 1
VISITS_PER_SHARD = 60_000_000


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
    """Split every level into shards of about ``VISITS_PER_SHARD`` hand visits."""
    n = table.deck.size
    shards = []
    for k in levels:
        n_orbits = len(orbits(table.deck, k))
        visits = n_orbits * comb(n - k, 7 - k)  # hand visits of the orbit representatives
        parts = max(1, min(n_orbits, ceil(visits / VISITS_PER_SHARD)))
        bounds = np.linspace(0, n_orbits, parts + 1).round().astype(int)
        shards += [Shard(k, int(a), int(b)) for a, b in pairwise(bounds)]
    return shards


def _run_shard(level: Level, shard: Shard, table: HandTable, keys: EngineKeys) -> PairCounts:
    joint, bwin, bloss, rwin, rpush, inexact = run_orbits(
        level.offsets, level.items, shard.orbit_ids, level.orbits.size.astype(np.int64),
        table.orbit_size.astype(np.int64), keys.dealer_high, keys.dealer_low, keys.dealer_class,
        keys.player_high, keys.player_low, keys.frontier_size, keys.frontier_high,
        keys.frontier_low, keys.player_class, keys.player_weight, N_PLAYER_CLASSES,
        keys.n_dealer_classes,
    )  # fmt: skip
    if inexact:
        raise AssertionError(f"shard {shard.name}: {inexact} counts not divisible by orbit size")
    return PairCounts(joint, bwin, bloss, rwin, rpush).scaled(level.sign)


class ShardStore:
    """Finished shards of one run, as Parquet files with provenance."""

    def __init__(self, keys: EngineKeys, table: HandTable, root: Path | None = None) -> None:
        self.dir = (root or cache_dir()) / "engine" / keys.digest
        self.prov = provenance(
            SCHEMA_VERSION, table="engine-shard", keys=keys.label, digest=keys.digest,
            deck=table.deck.key, rules=table.rules.key,
        )  # fmt: skip
        self.n_d = keys.n_dealer_classes

    def path(self, shard: Shard) -> Path:
        return self.dir / f"{shard.name}.parquet"

    def load(self, shard: Shard) -> PairCounts | None:
        path = self.path(shard)
        if not path.exists() or read_provenance(path) != {**self.prov, "shard": shard.name}:
            return None
        import pyarrow.parquet as pq

        return PairCounts.from_arrow(pq.read_table(path), N_PLAYER_CLASSES, self.n_d)

    def save(self, shard: Shard, counts: PairCounts) -> None:
        write_atomic(counts.to_arrow(), self.path(shard), {**self.prov, "shard": shard.name})


def default_jobs() -> int:
    return os.cpu_count() or 1


@dataclass
class LevelStats:
    """Where the time of a run went, per inclusion-exclusion level."""

    k: int
    orbits: int = 0
    hand_visits: int = 0  # sum over orbit representatives S of |H_S|
    build_seconds: float = 0.0
    shard_seconds: float = 0.0  # summed over threads


def run_engine(
    table: HandTable,
    keys: EngineKeys,
    n_jobs: int | None = None,
    use_cache: bool = True,
    progress: bool | None = None,
    levels: Iterable[int] = range(8),
    stats: dict[int, LevelStats] | None = None,
) -> PairCounts:
    """Exact counts over all ordered pairs of disjoint (player, dealer) hands of the deck.

    ``stats``, if given, is filled with per-level figures.
    """
    n_jobs = n_jobs or default_jobs()
    shards = plan_shards(table, levels)
    store = ShardStore(keys, table) if use_cache else None
    total = PairCounts.zeros(N_PLAYER_CLASSES, keys.n_dealer_classes)
    todo: dict[int, list[Shard]] = {}
    for shard in shards:
        done = store.load(shard) if store else None
        if done is None:
            todo.setdefault(shard.k, []).append(shard)
        else:
            total = total + done
    n_todo = sum(len(v) for v in todo.values())
    if progress is None:
        progress = n_todo > 4
    bar = tqdm(total=n_todo, unit="shard", disable=not progress, desc="pairs")
    n = table.deck.size
    with Parallel(n_jobs=n_jobs, backend="threading", return_as="generator_unordered") as par:
        for k in sorted(todo):
            st = LevelStats(k)
            t0 = time.perf_counter()
            level = build_level(table, k)
            st.build_seconds = time.perf_counter() - t0
            jobs = (delayed(_with_shard)(level, s, table, keys) for s in todo[k])
            for shard, counts, seconds in par(jobs):
                if store:
                    store.save(shard, counts)
                total = total + counts
                st.shard_seconds += seconds
                st.orbits += shard.hi - shard.lo
                bar.update(1)
            st.hand_visits = st.orbits * comb(n - k, 7 - k)
            if stats is not None:
                stats[k] = st
            del level
    bar.close()
    return total


def _with_shard(
    level: Level, shard: Shard, table: HandTable, keys: EngineKeys
) -> tuple[Shard, PairCounts, float]:
    t0 = time.perf_counter()
    counts = _run_shard(level, shard, table, keys)
    return shard, counts, time.perf_counter() - t0


def run_for_hands(
    table: HandTable, keys: EngineKeys, rows: Iterable[int]
) -> dict[int, PairCounts]:
    """Exact counts for single player hands: for each class row, the counts of ONE hand of
    that class (the player) against every dealer hand of the other cards.

    Only the orbits of subsets of the hand matter, so this visits 128 families per hand.
    """
    rows = [int(r) for r in rows]
    pos = suit_positions(table.deck)
    out = {r: PairCounts.zeros(N_PLAYER_CLASSES, keys.n_dealer_classes) for r in rows}
    for k in range(8):
        level = build_level(table, k)
        for r in rows:
            weight = np.zeros(len(table), dtype=np.int64)
            weight[r] = 1
            one = keys.with_player_weight(weight, f"row {r}")
            cards = [int(c) for c in table.cards[r]]
            ids = sorted(
                {int(np.searchsorted(level.orbits.codes,
                                     canonical_code(np.array(sub, dtype=np.int64), pos)))
                 for sub in combinations(cards, k)}
            )  # fmt: skip
            shard = Shard(k, 0, len(level.orbits), tuple(ids))
            out[r] = out[r] + _run_shard(level, shard, table, one)
        del level
    result = {}
    for r, counts in out.items():
        size = int(table.orbit_size[r])
        scaled = counts.scaled(1)
        for f in ("joint", "blind_win", "blind_loss", "br_win", "br_push"):
            arr = getattr(scaled, f)
            if (arr % size).any():
                raise AssertionError("orbit counts are not a multiple of the orbit size")
            arr //= size
        result[r] = scaled
    return result
