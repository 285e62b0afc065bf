"""Running the pair engine: levels of inclusion-exclusion, shards, backends, resumable caches.

    total = sum over levels k = 0..7 of (-1)^k * sum over orbits S of size k of |orbit S| * F_S

Each level's orbits are split into shards (contiguous ranges of orbits). A shard's counts are
written as Parquet under ``<cache>/engine/<keys digest>/`` with provenance; a run that is
interrupted (or loses a worker) resumes from the shards already on disk.

Two backends compute the shards that are not on disk yet:

- ``"local"`` (default): threads of this process (the numba kernels release the GIL),
  so the hand tables and the level's families are shared, not copied;
- ``"dask"``: one task per shard on a Dask cluster (``enumerate.engine.pairs.distributed``). A task
  carries names and numbers only; the workers load the tables and the levels from the shared
  cache folder and write each finished shard there.

``run_engines`` runs several (table, keys) pairs together: runs of one deck and rules share
each level's families (built once), and all their shards are spread over the same threads or
workers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from enumerate.cache import (
    cache_dir,
)
from enumerate.engine.keys import EngineKeys
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.cache import level_arrays
from enumerate.engine.pairs.counts import PairCounts
from enumerate.engine.pairs.distributed import dask_results
from enumerate.engine.pairs.shards import (
    LevelStats,
    Shard,
    ShardDone,
    ShardStore,
    default_jobs,
    plan_shards,
    run_shard,
)
from enumerate.symmetry import canonical_code, orbits, suit_positions
from enumerate.tables import HandTable
from enumerate.vocabulary import N_PLAYER_CLASSES

BACKENDS = ("local", "dask")


def run_engine(
    table: HandTable,
    keys: EngineKeys,
    n_jobs: int | None = None,
    use_cache: bool = True,
    progress: bool | None = None,
    levels: Iterable[int] = range(8),
    stats: dict[int, LevelStats] | None = None,
    backend: str | None = None,
    scheduler: Any = None,
    cache: Path | None = None,
    on_shard: Callable[[ShardDone], None] | None = None,
) -> PairCounts:
    """Exact counts over all ordered pairs of disjoint (player, dealer) hands of the deck.

    ``backend``: ``"local"`` (threads, ``n_jobs`` of them, default one per core) or
    ``"dask"``: shards are tasks of the Dask cluster at ``scheduler`` (an address such as
    ``"tcp://host:8786"`` or a ``distributed.Client``; ``None``: the current client, else a
    temporary local cluster of ``n_jobs`` worker processes). Default: ``"dask"`` when a
    ``scheduler`` is given, else ``"local"``.

    ``cache``: the folder of the finished shards and of the levels (default ``cache_dir()``);
    with dask also the folder the workers read the tables from (shared storage on a cluster).
    With ``use_cache`` every finished shard and level is kept there and a later run skips it
    (the levels serve every way and flag mask of the deck: ``levels.cache``).

    ``stats``, if given, is filled with per-level figures; ``on_shard`` is called with each
    finished shard (after it is saved).
    """
    return run_engines(
        [(table, keys)], n_jobs, use_cache, progress, levels,
        None if stats is None else [stats], backend, scheduler, cache, on_shard,
    )[0]  # fmt: skip


def run_engines(
    runs: Sequence[tuple[HandTable, EngineKeys]],
    n_jobs: int | None = None,
    use_cache: bool = True,
    progress: bool | None = None,
    levels: Iterable[int] = range(8),
    stats: Sequence[dict[int, LevelStats]] | None = None,
    backend: str | None = None,
    scheduler: Any = None,
    cache: Path | None = None,
    on_shard: Callable[[ShardDone], None] | None = None,
) -> list[PairCounts]:
    """``run_engine`` for several (table, keys) pairs at once; one ``PairCounts`` per run.

    Runs of one deck and rules share every level's families; the shards of all runs share the
    threads (local) or the cluster (dask). ``stats``, if given, holds one dict per run.
    """
    backend = backend or ("dask" if scheduler is not None else "local")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler address needs the dask backend")
    if stats is not None and len(stats) != len(runs):
        raise ValueError("stats: one dict per run")
    levels = list(levels)
    root = cache or (cache_dir() if use_cache or backend == "dask" else None)
    stores = [ShardStore(keys, table, root) if use_cache else None for table, keys in runs]
    totals = [PairCounts.zeros(N_PLAYER_CLASSES, keys.n_dealer_classes) for _, keys in runs]
    todo: list[tuple[int, Shard]] = []
    for i, (table, _) in enumerate(runs):
        store = stores[i]
        for shard in plan_shards(table, levels):
            cached = store.load(shard) if store else None
            if cached is None:
                todo.append((i, shard))
            else:
                totals[i] = totals[i] + cached
    if progress is None:
        progress = len(todo) > 4
    builds: dict[tuple[str, str, int], float] = {}
    run_stats: list[dict[int, LevelStats]] = [{} for _ in runs]
    results: Iterator[tuple[ShardDone, PairCounts]]
    if not todo:
        results = iter(())
    elif backend == "local":
        for _, keys in runs:
            _ = keys.packed  # once, before the threads would all compute it
        results = _local_results(runs, todo, n_jobs or default_jobs(), builds, root, use_cache)
    else:
        assert root is not None
        results = dask_results(runs, todo, scheduler, root, use_cache, n_jobs, builds)
    bar = tqdm(total=len(todo), unit="shard", disable=not progress, desc="pairs")
    try:
        for done, counts in results:
            store = stores[done.run]
            # dask workers save their shards; the client saves too when it cannot see them
            if store and (backend == "local" or not store.path(done.shard).exists()):
                store.save(done.shard, counts)
            totals[done.run] = totals[done.run] + counts
            if done.computed:
                st = run_stats[done.run].setdefault(done.shard.k, LevelStats(done.shard.k))
                st.shards += 1
                st.shard_seconds += done.seconds
                st.orbits += done.shard.hi - done.shard.lo
            bar.update(1)
            if on_shard is not None:
                on_shard(done)
    finally:
        bar.close()
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the threads or cancels the cluster's remaining tasks
    for i, (table, _) in enumerate(runs):
        n = table.deck.size
        for k, st in run_stats[i].items():
            st.hand_visits = st.orbits * comb(n - k, 7 - k)
            st.build_seconds = builds.get((table.deck.key, table.rules.key, k), 0.0)
        if stats is not None:
            stats[i].update(sorted(run_stats[i].items()))
    return totals


def _local_results(
    runs: Sequence[tuple[HandTable, EngineKeys]],
    todo: list[tuple[int, Shard]],
    n_jobs: int,
    builds: dict[tuple[str, str, int], float],
    root: Path | None,
    use_cache: bool,
) -> Iterator[tuple[ShardDone, PairCounts]]:
    """Compute shards in threads, one level at a time per deck and rules (a level is read from
    the level cache, or built once for every run of that deck and rules and kept there). The
    next level is read or built in a thread of its own while the shards of the current one
    run: building, the first time, is a sizeable part of the work, and it fills the cores
    left idle at the end of each level. At most two levels are in memory."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, (table, _) in enumerate(runs):
        groups.setdefault((table.deck.key, table.rules.key), []).append(i)
    pid = os.getpid()

    def build(table: HandTable, k: int) -> LevelArrays:
        level, seconds = level_arrays(table, k, root, use_cache)
        builds[(table.deck.key, table.rules.key, k)] = seconds
        return level

    # One pool for every shard, fed level after level: the shards of the next level start
    # while the last ones of a level finish (a barrier per level would leave a core idle at
    # the end of each). A level is released once its shards are done; at most two are submitted.
    with (
        ThreadPoolExecutor(n_jobs, thread_name_prefix="shard") as pool,
        ThreadPoolExecutor(1, thread_name_prefix="level-ahead") as ahead,
    ):
        running: list[set[Future[tuple[int, Shard, PairCounts, float]]]] = []
        try:
            for members in groups.values():
                table = runs[members[0]][0]
                mine = [(i, s) for i, s in todo if i in members]
                ks = sorted({s.k for _, s in mine})
                building = ahead.submit(build, table, ks[0])
                for t, k in enumerate(ks):
                    level = building.result()
                    if t + 1 < len(ks):
                        building = ahead.submit(build, table, ks[t + 1])
                    running.append({
                        pool.submit(_with_shard, level, s, runs[i][0], runs[i][1], i)
                        for i, s in mine if s.k == k
                    })  # fmt: skip
                    del level
                    while len(running) > 1:  # the older level's shards, as they finish
                        yield from _finished(running, pid, wait_for=running[0])
                        if not running[0]:
                            running.pop(0)
            while running:
                yield from _finished(running, pid, wait_for=running[0])
                if not running[0]:
                    running.pop(0)
        finally:
            for futures in running:
                for fut in futures:
                    fut.cancel()


def _finished(
    running: list[set[Future[tuple[int, Shard, PairCounts, float]]]],
    pid: int,
    wait_for: set[Future[tuple[int, Shard, PairCounts, float]]],
) -> Iterator[tuple[ShardDone, PairCounts]]:
    """Wait until one shard of ``wait_for`` is done; yield every shard done by then (of any
    level still running), removing it from ``running``."""
    wait(wait_for, return_when=FIRST_COMPLETED)
    for futures in running:
        for fut in [f for f in futures if f.done()]:
            futures.discard(fut)
            i, shard, counts, seconds = fut.result()
            yield ShardDone(i, shard, seconds, "local", pid), counts


def _with_shard(
    level: LevelArrays, shard: Shard, table: HandTable, keys: EngineKeys, run: int
) -> tuple[int, Shard, PairCounts, float]:
    t0 = time.perf_counter()
    counts = run_shard(level, shard, table, keys)
    return run, shard, counts, time.perf_counter() - t0


def run_for_hands(
    table: HandTable, keys: EngineKeys, rows: Iterable[int], use_cache: bool = True
) -> dict[int, PairCounts]:
    """Exact counts for single player hands: for each class row, the counts of ONE hand of
    that class (the player) against every dealer hand of the other cards.

    Only the orbits of subsets of the hand matter, so this visits 128 families per hand.
    """
    rows = [int(r) for r in rows]
    pos = suit_positions(table.deck)
    out = {r: PairCounts.zeros(N_PLAYER_CLASSES, keys.n_dealer_classes) for r in rows}
    for k in range(8):
        arrays, _ = level_arrays(table, k, use_cache=use_cache)
        codes = orbits(table.deck, k).codes
        for r in rows:
            weight = np.zeros(len(table), dtype=np.int64)
            weight[r] = 1
            one = keys.with_player_weight(weight, f"row {r}")
            cards = [int(c) for c in table.cards[r]]
            ids = sorted(
                {int(np.searchsorted(codes, canonical_code(np.array(sub, dtype=np.int64), pos)))
                 for sub in combinations(cards, k)}
            )  # fmt: skip
            shard = Shard(k, 0, len(arrays), tuple(ids))
            out[r] = out[r] + run_shard(arrays, shard, table, one)
        del arrays
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
