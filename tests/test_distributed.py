"""The Dask backend gives the local backend's integers, survives a lost worker, and resumes.

One real ``LocalCluster`` (two single-threaded worker processes) serves the whole module; the
client and the workers share a temporary cache folder.
"""

from __future__ import annotations

import os
import shutil
import signal
from math import comb
from pathlib import Path

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

import enumerate.engine.pairs.shards as shards_mod  # noqa: E402
from enumerate.engine import build_keys, run_engine  # noqa: E402
from enumerate.engine.levels.cache import level_dir, load_level  # noqa: E402
from enumerate.engine.pairs.distributed import RunSpec, worker_state  # noqa: E402
from enumerate.engine.pairs.shards import LevelStats, ShardDone, plan_shards  # noqa: E402
from enumerate.houseways import get_way  # noqa: E402
from enumerate.rules import Deck  # noqa: E402
from enumerate.tables import hand_table  # noqa: E402

DECK = "TJQKA:cdh+joker"


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory):
    return tmp_path_factory.mktemp("paigow-cache")


@pytest.fixture(scope="module")
def cluster(cache_root):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PAIGOW_CACHE_DIR", str(cache_root))  # the worker processes inherit it
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            yield cluster


@pytest.fixture(scope="module")
def small(cache_root):
    """Table, keys and the local backend's counts (no cache) of the small deck."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PAIGOW_CACHE_DIR", str(cache_root))
        table = hand_table(Deck.parse(DECK))
        keys = build_keys(table, get_way("gli"), flag_mask=31)
    local = run_engine(table, keys, use_cache=False, progress=False)
    assert local.total == comb(16, 7) * comb(9, 7)
    return table, keys, local


@pytest.fixture
def fresh(cache_root, monkeypatch):
    """The module's cache folder (tables and levels kept), without finished shards."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(cache_root))
    shutil.rmtree(cache_root / "engine", ignore_errors=True)
    return cache_root


def computed(stats: dict[int, LevelStats]) -> int:
    return sum(s.shards for s in stats.values())


def test_dask_equals_local(cluster, small, fresh, monkeypatch):
    table, keys, local = small
    monkeypatch.setattr(shards_mod, "VISITS_PER_SHARD", 2_000)
    n = len(plan_shards(table))
    assert n > 20
    had_levels = load_level(table.deck, table.rules, 3, fresh) is not None
    with distributed.Client(cluster) as client:
        before = client.run(worker_state)
        stats: dict[int, LevelStats] = {}
        got = run_engine(
            table, keys, backend="dask", scheduler=cluster.scheduler_address, progress=False,
            stats=stats,
        )  # fmt: skip
        after = client.run(worker_state)
    assert got == local  # every integer of every field
    assert computed(stats) == n and sorted(stats) == list(range(8))
    assert len(list((fresh / "engine" / keys.digest).glob("*.parquet"))) == n  # written by workers
    # each level was built once, by one worker, for all: the others memory-map its .npy files
    built = sum(after[w]["levels_built"] - before.get(w, {}).get("levels_built", 0) for w in after)
    assert built == (0 if had_levels else 8)
    for k in range(8):
        level = load_level(table.deck, table.rules, k, fresh)
        assert level is not None and level.items.dtype.str.endswith("i4")
    assert len(list(level_dir(table.deck, table.rules, fresh).glob("k*.json"))) == 8


def test_user_way_on_cluster(cluster, fresh):
    """A way from a module file (``--way-module``) is imported by the workers too."""
    from analysis.waylab.ways import load_way_module

    load_way_module("tests/custom_way_example.py")
    table = hand_table(Deck.parse(DECK))
    keys = build_keys(table, get_way("pair-in-front"), get_way("gli"), flag_mask=4)
    local = run_engine(table, keys, use_cache=False, progress=False)
    got = run_engine(table, keys, scheduler=cluster.scheduler_address, backend="dask",
                     progress=False)  # fmt: skip
    assert got == local


def test_user_card_on_cluster(cluster, fresh, tmp_path):
    """A rule card read from a file by the client is registered on the workers from its
    text (they need not see the file)."""
    text = (Path("data/ways/trump-plaza.toml").read_text()
            .replace('name = "trump-plaza"', 'name = "my-card"'))  # fmt: skip
    path = tmp_path / "my-card.toml"
    path.write_text(text)
    table = hand_table(Deck.parse(DECK))
    keys = build_keys(table, get_way(str(path)), get_way("gli"), flag_mask=4)
    local = run_engine(table, keys, use_cache=False, progress=False)
    path.unlink()  # only the client ever read it
    got = run_engine(table, keys, scheduler=cluster.scheduler_address, backend="dask",
                     progress=False)  # fmt: skip
    assert got == local


def test_worker_loss_and_resume(cluster, small, fresh, monkeypatch):
    """SIGKILL the worker that sent the first shard: the run still ends with the same integers;
    a second run computes nothing."""
    table, keys, local = small
    monkeypatch.setattr(shards_mod, "VISITS_PER_SHARD", 1_000)
    n = len(plan_shards(table))
    killed: list[ShardDone] = []

    def kill_first(done: ShardDone) -> None:
        if not killed:
            killed.append(done)
            os.kill(done.pid, signal.SIGKILL)  # the nanny restarts it; its tasks move

    stats: dict[int, LevelStats] = {}
    got = run_engine(
        table, keys, backend="dask", scheduler=cluster.scheduler_address, progress=False,
        stats=stats, on_shard=kill_first,
    )  # fmt: skip
    assert killed and killed[0].pid != os.getpid()
    assert got == local
    assert computed(stats) <= n  # shards the lost worker had saved are read, not recomputed
    assert len(list((fresh / "engine" / keys.digest).glob("*.parquet"))) == n
    again_stats: dict[int, LevelStats] = {}
    calls: list[ShardDone] = []
    again = run_engine(
        table, keys, backend="dask", scheduler=cluster.scheduler_address, progress=False,
        stats=again_stats, on_shard=calls.append,
    )  # fmt: skip
    assert again == local
    assert computed(again_stats) == 0 and calls == []


def test_interrupted_dask_run_resumes(cluster, small, fresh, monkeypatch):
    """A client that stops mid-run leaves whole shards only; the next run computes the rest."""
    table, keys, local = small
    monkeypatch.setattr(shards_mod, "VISITS_PER_SHARD", 2_000)
    n = len(plan_shards(table))

    class Stop(Exception):
        pass

    seen: list[ShardDone] = []

    def stop_after_five(done: ShardDone) -> None:
        seen.append(done)
        if len(seen) == 5:
            raise Stop

    with pytest.raises(Stop):
        run_engine(
            table, keys, backend="dask", scheduler=cluster.scheduler_address, progress=False,
            on_shard=stop_after_five,
        )  # fmt: skip
    folder = fresh / "engine" / keys.digest
    on_disk = len(list(folder.glob("*.parquet")))
    assert 5 <= on_disk < n
    stats: dict[int, LevelStats] = {}
    got = run_engine(
        table, keys, backend="dask", scheduler=cluster.scheduler_address, progress=False,
        stats=stats,
    )  # fmt: skip
    assert got == local
    # every shard is computed at most once in all: the resumed run did what was missing
    # (tasks cancelled late may still have finished and saved theirs)
    assert computed(stats) <= n - on_disk
    assert len(list(folder.glob("*.parquet"))) == n


def test_sweep_on_cluster(cluster, fresh):
    """The sweep's cells run on the cluster and give the local sweep's house edges."""
    from analysis.pricing.sweep import sweep

    deck = Deck.parse("A2345K:cdh+joker")  # the ways and the wheel options differ on it
    grid = (["traditional", "face-up"], ["gli", "trump-plaza"], ["second", "low"], deck)
    local = sweep(*grid, progress=False)  # also caches the tables the workers read
    shutil.rmtree(fresh / "engine")
    remote = sweep(*grid, progress=False, scheduler=cluster.scheduler_address)
    assert remote.backend == "dask" and remote.n_runs == 4 and len(remote.edges) == 8
    assert remote.edges == local.edges
    assert remote.table.equals(local.table)


def test_dask_backend_errors(small, tmp_path):
    table, keys, _ = small
    one = keys.with_player_weight(np.ones(len(table), dtype=np.int64), "all")
    with pytest.raises(ValueError, match="local backend"):
        RunSpec.of(table, one, tmp_path, True)  # a selection of player hands runs locally
    with pytest.raises(ValueError, match="dask backend"):
        run_engine(table, keys, backend="local", scheduler="tcp://127.0.0.1:1", progress=False)
    with pytest.raises(ValueError, match="unknown backend"):
        run_engine(table, keys, backend="spark", progress=False)
