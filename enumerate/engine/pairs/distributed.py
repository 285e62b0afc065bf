"""The Dask backend of the pair engine: one task per shard, small arguments, a shared cache.

A run on a cluster (``run_engine(..., backend="dask", scheduler="tcp://host:8786")``) submits

- one *level task* per inclusion-exclusion level k (and deck and rules): it makes sure the
  level's families are in the cache folder, as ``.npy`` files that every worker memory-maps
  (``<cache>/levels/<deck>-<rules hash>-<code fingerprint>/k<k>-{offsets,items,orbit_size}.npy``
  and a sidecar ``k<k>.json`` with the provenance and the shapes, written last);
- one *shard task* per shard not yet on disk, depending on its level task. Its arguments are a
  ``RunSpec`` (deck, rules, way names and modules, flag mask, keys digest, code fingerprint,
  cache folder), the level's ``LevelReady`` and the ``Shard`` (level k, orbit range): a few
  hundred bytes. The worker loads the hand table, the way and player tables from their Parquet
  caches (``hand_table``, ``way_table``, ``player_table``; built there if missing), rebuilds
  the keys, checks that their digest is the client's, computes the shard and writes it as
  Parquet to the cache folder before returning its counts.

A worker keeps what it loaded (tables and keys by digest, levels by folder, in small LRU
caches) for its next tasks. Every file is written atomically, so a lost worker or an
interrupted client leaves only whole shards behind: the next run (or the scheduler's retry of
the lost tasks) skips them and ends with the same integers.

On a cluster the cache folder must be storage that the client and every worker see at the
same path (set ``PAIGOW_CACHE_DIR``, or pass ``cache=``). Without shared storage the run still
gives the right counts: each worker builds the levels it needs and the client saves the shards.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from enumerate.engine.keys import EngineKeys, build_keys
from enumerate.engine.levels.build import LevelArrays
from enumerate.engine.levels.cache import level_arrays
from enumerate.engine.pairs.counts import PairCounts
from enumerate.engine.pairs.shards import (
    Shard,
    ShardDone,
    ShardStore,
    default_jobs,
    run_shard,
)
from enumerate.fingerprint import code_fingerprint
from enumerate.houseways import HouseWay, get_way, register
from enumerate.houseways.registry import import_file
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table

MAX_RUNS = 4  # (table, keys) kept by a worker (about 0.7 GB each for the full deck)
MAX_LEVELS = 16  # memory-mapped levels kept by a worker

# --------------------------------------------------------------------------- task arguments


def _way_module(way: HouseWay) -> tuple[str, str | None] | None:
    """(module name, source file) of a user-defined way, for workers to import; None for the
    ways that ship with the package (registered by importing it)."""
    module = way.module
    if module is None or module.__name__.startswith("enumerate."):
        return None
    file = getattr(module, "__file__", None)
    return module.__name__, str(Path(file).resolve()) if file else None


def _way_card(way: HouseWay) -> str | None:
    """The text of a rule card that does not ship with the package (a file the client read),
    for workers to register; None for other ways."""
    from enumerate.houseways.cards import shipped_cards

    if way.program is None or any(c.text == way.text for c in shipped_cards()):
        return None
    return way.text


@dataclass(frozen=True)
class RunSpec:
    """What a worker needs to rebuild a run's keys: names and numbers only."""

    deck: str  # Deck.key
    rules: str  # Rules.key (JSON)
    dealer: str  # way names
    player: str
    flag_mask: int
    way_modules: tuple[tuple[str, str | None], ...]  # user-defined ways to import
    way_cards: tuple[str, ...]  # texts of user rule cards to register
    digest: str  # EngineKeys.digest the worker must reproduce
    code: str  # code fingerprint of the client
    cache: str  # cache folder
    save: bool  # write finished shards to the cache folder

    @classmethod
    def of(cls, table: HandTable, keys: EngineKeys, cache: Path, save: bool) -> RunSpec:
        """The spec of keys made by ``build_keys`` (a ``ValueError`` for other keys, such as
        a selection of player hands: those run on the local backend)."""
        spec = keys.spec
        if spec.selection is not None:
            raise ValueError(
                f"the dask backend runs keys made by build_keys; these select player hands "
                f"({spec.selection}): use the local backend"
            )
        ways = []
        for name, key in ((spec.dealer, spec.dealer_key), (spec.player, spec.player_key)):
            way = get_way(name)
            if way.key != key:
                raise ValueError(f"house way {way.name} changed since the keys were built")
            ways.append(way)
        modules = tuple(dict.fromkeys(x for x in map(_way_module, ways) if x is not None))
        cards = tuple(dict.fromkeys(x for x in map(_way_card, ways) if x is not None))
        return cls(
            table.deck.key, table.rules.key, spec.dealer, spec.player, spec.flag_mask,
            modules, cards, keys.digest, code_fingerprint(__name__), str(cache), save,
        )  # fmt: skip


@dataclass(frozen=True)
class LevelReady:
    """A level task's answer: the level is in the cache folder (or the worker has it)."""

    deck: str
    rules: str
    k: int
    cache: str
    seconds: float  # spent building it (0 when it was on disk)


@dataclass(frozen=True, eq=False)
class ShardOutcome:
    """A shard task's answer."""

    counts: PairCounts
    seconds: float
    computed: bool  # False: it was already on disk
    worker: str
    pid: int


# --------------------------------------------------------------------------- worker state


def _rules(key: str) -> Rules:
    return Rules(**json.loads(key))


_STATE_LOCK = threading.Lock()  # the dicts below
_LOAD_LOCK = threading.RLock()  # loading and building: one at a time per worker process
_RUNS: OrderedDict[tuple[str, str], tuple[HandTable, EngineKeys]] = OrderedDict()
_TABLES: OrderedDict[tuple[str, str, str], HandTable] = OrderedDict()
_LEVELS: OrderedDict[tuple[str, str, str, int], LevelArrays] = OrderedDict()
_COUNTERS = {"levels_built": 0, "runs_loaded": 0}


def _lookup(cache: OrderedDict[Any, Any], key: Any) -> Any:
    with _STATE_LOCK:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
        return hit


def _keep(cache: OrderedDict[Any, Any], key: Any, value: Any, limit: int) -> None:
    with _STATE_LOCK:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > limit:
            cache.popitem(last=False)


def worker_state() -> dict[str, int]:
    """What this process holds and has done (for tests and diagnostics)."""
    with _STATE_LOCK:
        return {"runs": len(_RUNS), "levels": len(_LEVELS), "pid": os.getpid(), **_COUNTERS}


def _import_way_module(name: str, file: str | None) -> None:
    if name in sys.modules:
        return
    try:
        importlib.import_module(name)
        return
    except ModuleNotFoundError:
        if file is None:
            raise
    import_file(name, file)


def _check_code(code: str) -> None:
    mine = code_fingerprint(__name__)
    if code != mine:
        raise RuntimeError(
            f"worker pid {os.getpid()} runs other code (fingerprint {mine}, client "
            f"{code}): install the same version of paigow-exact on every worker"
        )


def _table(deck: str, rules: str, cache: str) -> HandTable:
    key = (cache, deck, rules)
    table = _lookup(_TABLES, key)
    if table is None:
        with _LOAD_LOCK:
            table = _lookup(_TABLES, key)
            if table is None:
                table = hand_table(Deck.parse(deck), _rules(rules), cache=Path(cache))
        _keep(_TABLES, key, table, MAX_RUNS)
    return table


def _run_state(run: RunSpec) -> tuple[HandTable, EngineKeys]:
    key = (run.cache, run.digest)
    hit = _lookup(_RUNS, key)
    if hit is not None:
        return hit
    with _LOAD_LOCK:
        hit = _lookup(_RUNS, key)
        if hit is not None:
            return hit
        table = _table(run.deck, run.rules, run.cache)
        for name, file in run.way_modules:
            _import_way_module(name, file)
        for text in run.way_cards:
            from enumerate.houseways.cards import card_from_text, card_way

            register(card_way(card_from_text(text, "a card from the client", False)))
        keys = build_keys(table, get_way(run.dealer), get_way(run.player), run.flag_mask,
                          cache=Path(run.cache))
        if keys.digest != run.digest:
            raise RuntimeError(
                f"worker pid {os.getpid()} built other keys ({keys.label}, digest {keys.digest}, "
                f"client {run.digest}): the house ways differ on this worker"
            )
        _keep(_RUNS, key, (table, keys), MAX_RUNS)
        _COUNTERS["runs_loaded"] += 1
    return table, keys


def _level(deck: str, rules: str, k: int, cache: str) -> tuple[LevelArrays, float]:
    """The level from this worker's memory, else the cache folder, else built (and saved)."""
    key = (cache, deck, rules, k)
    hit = _lookup(_LEVELS, key)
    if hit is not None:
        return hit, 0.0
    with _LOAD_LOCK:
        hit = _lookup(_LEVELS, key)
        if hit is not None:
            return hit, 0.0
        level, seconds = level_arrays(_table(deck, rules, cache), k, Path(cache))
        if seconds:
            _COUNTERS["levels_built"] += 1
        _keep(_LEVELS, key, level, MAX_LEVELS)
    return level, seconds


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return ""


# --------------------------------------------------------------------------- tasks


def level_task(deck: str, rules: str, k: int, cache: str, code: str) -> LevelReady:
    """Make sure level ``k`` of the deck and rules is in the cache folder."""
    _check_code(code)
    _, seconds = _level(deck, rules, k, cache)
    return LevelReady(deck, rules, k, cache, seconds)


def shard_task(run: RunSpec, ready: LevelReady, shard: Shard) -> ShardOutcome:
    """Count one shard (or read it, when a lost worker finished it) and save it."""
    _check_code(run.code)
    table, keys = _run_state(run)
    store = ShardStore(keys, table, Path(run.cache)) if run.save else None
    where, pid = _worker_address(), os.getpid()
    if store is not None:
        done = store.load(shard)
        if done is not None:
            return ShardOutcome(done, 0.0, False, where, pid)
    level, _ = _level(ready.deck, ready.rules, shard.k, ready.cache)
    t0 = time.perf_counter()
    counts = run_shard(level, shard, table, keys)
    seconds = time.perf_counter() - t0
    if store is not None:
        store.save(shard, counts)
    return ShardOutcome(counts, seconds, True, where, pid)


# --------------------------------------------------------------------------- client side


@contextmanager
def client_for(scheduler: Any, n_workers: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: ``scheduler`` itself if it is one, a new connection to an
    address, or (``None``) the current client, else a temporary local cluster of
    ``n_workers`` single-threaded worker processes."""
    from distributed import Client, LocalCluster, get_client

    if scheduler is None:
        current = None
        with suppress(ValueError):  # no current client
            current = get_client()
        if current is not None:
            yield current
            return
        with (
            LocalCluster(
                n_workers=n_workers or default_jobs(), threads_per_worker=1, processes=True,
                dashboard_address=None,
            ) as cluster,
            Client(cluster) as client,
        ):  # fmt: skip
            yield client
    elif isinstance(scheduler, str):
        with Client(scheduler) as client:
            yield client
    else:
        yield scheduler


def dask_results(
    runs: Sequence[tuple[HandTable, EngineKeys]],
    todo: list[tuple[int, Shard]],
    scheduler: Any,
    cache: Path,
    save: bool,
    n_workers: int | None,
    builds: dict[tuple[str, str, int], float],
) -> Iterator[tuple[ShardDone, PairCounts]]:
    """Run the shards ``todo`` (run index, shard) on a Dask cluster; yields each as it finishes.

    Closing the generator cancels the tasks not finished yet (those finished are on disk).
    """
    from distributed import as_completed

    specs = [RunSpec.of(table, keys, cache, save) for table, keys in runs]
    code = code_fingerprint(__name__)
    groups: dict[tuple[str, str], int] = {}
    for table, _ in runs:
        groups.setdefault((table.deck.key, table.rules.key), len(groups))

    def order(item: tuple[int, Shard]) -> tuple[int, int, int, int]:
        i, shard = item
        table = runs[i][0]
        return groups[(table.deck.key, table.rules.key)], shard.k, i, shard.lo

    tag = uuid.uuid4().hex[:8]
    with client_for(scheduler, n_workers) as client:
        level_futures: dict[tuple[str, str, int], Any] = {}
        futures: dict[Any, tuple[int, Shard]] = {}
        try:
            for i, shard in sorted(todo, key=order):  # level by level: the levels stay hot
                table = runs[i][0]
                lk = (table.deck.key, table.rules.key, shard.k)
                if lk not in level_futures:
                    level_futures[lk] = client.submit(
                        level_task, lk[0], lk[1], shard.k, str(cache), code, pure=False,
                        key=f"paigow-level-{len(level_futures)}-k{shard.k}-{tag}",
                    )  # fmt: skip
                fut = client.submit(
                    shard_task, specs[i], level_futures[lk], shard, pure=False,
                    key=f"paigow-shard-{specs[i].digest}-{shard.name}-{tag}",
                )  # fmt: skip
                futures[fut] = (i, shard)
            for fut, out in as_completed(list(futures), with_results=True):
                i, shard = futures.pop(fut)
                yield (
                    ShardDone(i, shard, out.seconds, out.worker, out.pid, out.computed),
                    out.counts,
                )
            for lk, fut in level_futures.items():
                builds[lk] = fut.result().seconds
        finally:
            pending = [f for f in [*futures, *level_futures.values()] if not f.done()]
            if pending:
                client.cancel(pending)
