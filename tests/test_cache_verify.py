"""Every cache kind is verified when read: bytes flipped inside a file's data (not only a
truncated file) are reported on stderr in one line, the file is rebuilt and the public call
returns the right numbers; numbers that break an invariant are caught the same way; two
processes building one cache at once both finish with the right numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from analysis.pricing.counts import ALL_FLAGS, cache_path, pair_counts
from enumerate.cache import read_provenance, release_unused, write_atomic
from enumerate.engine import build_keys, run_engine
from enumerate.engine.perhand.table import run_per_hand
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.waytables import player_table, way_table

DECK = Deck.parse("TJQKA:cdh+joker")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    return tmp_path


def flip_data(path: Path, n: int = 100, column: int = 0) -> None:
    """Flip ``n`` bytes in the middle of one column chunk's data pages (inside the data, so
    only a checksum can tell)."""
    meta = pq.ParquetFile(path).metadata
    chunk = meta.row_group(0).column(column)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    size = chunk.total_compressed_size
    flip_at(path, start + size // 2 - n // 2, n)


def flip_at(path: Path, at: int, n: int) -> None:
    data = bytearray(path.read_bytes())
    for i in range(max(0, at), min(len(data), at + n)):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def notice(capfd, path: Path) -> None:
    """Exactly one line on stderr, naming the damaged file."""
    err = capfd.readouterr().err
    lines = [x for x in err.splitlines() if "failed verification" in x]
    assert len(lines) == 1, err
    assert str(path) in lines[0] and "rebuilding it" in lines[0]


def quiet(capfd) -> None:
    assert "failed verification" not in capfd.readouterr().err


def test_hand_table(cache, capfd):
    first = hand_table(DECK)
    path = next(cache.glob("hands-*.parquet"))
    for column in (0, 7, 8):  # a card column, the codes, the orbit sizes
        flip_data(path, 40, column)
        again = hand_table(DECK)
        notice(capfd, path)
        assert not again.from_cache
        assert np.array_equal(again.codes, first.codes)
        assert np.array_equal(again.orbit_size, first.orbit_size)
        assert np.array_equal(again.cards, first.cards)
        assert hand_table(DECK).from_cache  # rebuilt and served again
        quiet(capfd)


def test_hand_table_read_once_while_its_file_is_unchanged(cache, capfd, monkeypatch):
    """A table read and verified is served again from memory while its file is the same
    (inode, size, modification time); a file rewritten or damaged since is read and checked
    again, so a damaged file is still reported and never served."""
    from enumerate import tables

    hand_table(DECK)  # builds and writes it
    first = hand_table(DECK)  # reads and verifies it
    reads = []
    real = tables.load_or_build
    monkeypatch.setattr(tables, "load_or_build", lambda *a, **k: reads.append(1) or real(*a, **k))
    assert hand_table(DECK) is first and reads == []
    path = next(cache.glob("hands-*.parquet"))
    flip_data(path, 40, 8)
    again = hand_table(DECK)
    notice(capfd, path)
    assert reads == [1] and again is not first and not again.from_cache
    assert np.array_equal(again.orbit_size, first.orbit_size)


def test_player_table_read_once_while_its_file_is_unchanged(cache, capfd, monkeypatch):
    """The frontier table too: built, then served from memory while its file is unchanged;
    damaged, reported, rebuilt and never served."""
    from enumerate import waytables

    first = player_table(DECK)  # builds and writes it
    reads = []
    real = waytables.load_or_build
    monkeypatch.setattr(waytables, "load_or_build",
                        lambda *a, **k: reads.append(1) or real(*a, **k))  # fmt: skip
    again = player_table(DECK)
    assert reads == [] and again.from_cache and again.high is first.high
    release_unused(drop_held=True)  # before a pass allocates: held tables are let go
    assert player_table(DECK).high is not first.high and reads == [1]
    reads.clear()
    path = next(cache.glob("frontiers-*.parquet"))
    flip_data(path, 40, 1)
    rebuilt = player_table(DECK)
    notice(capfd, path)
    assert reads == [1] and not rebuilt.from_cache
    assert np.array_equal(rebuilt.high, first.high) and np.array_equal(rebuilt.low, first.low)


def test_arrays_verified_once_while_unchanged(tmp_path, capfd, monkeypatch):
    """A set of arrays this process verified is mapped again without its digests while its
    files are unchanged, if they were written well before the verification (a rewrite in the
    clock tick of the verification could keep the stamp); a rewrite since is verified again,
    and damaged, reported and not served."""
    from enumerate import cache as c

    values = np.arange(1000, dtype=np.int32)
    c.save_arrays(tmp_path, "t", {"a": values}, {"x": 1})
    digests: list[int] = []
    real = c.array_digest
    monkeypatch.setattr(c, "array_digest", lambda a: digests.append(1) or real(a))
    for expected in (1, 2):  # just written: not settled, verified every time
        got = c.load_arrays(tmp_path, "t", {"x": 1})
        assert got is not None and np.array_equal(got["a"], values) and len(digests) == expected
    old = time.time() - 10
    for path in tmp_path.iterdir():
        os.utime(path, (old, old))
    for expected in (3, 3):  # settled: verified once, then mapped as it is
        got = c.load_arrays(tmp_path, "t", {"x": 1})
        assert got is not None and np.array_equal(got["a"], values) and len(digests) == expected
    flip_at(tmp_path / "t-a.npy", 200, 8)  # inside the data (the .npy header is 128 bytes)
    assert c.load_arrays(tmp_path, "t", {"x": 1}) is None
    notice(capfd, tmp_path / "t-a.npy")


def test_way_and_player_tables(cache, capfd):
    way, player = way_table("gli", DECK), player_table(DECK)
    for prefix, load in (("way-gli-", lambda: way_table("gli", DECK)),
                         ("frontiers-", lambda: player_table(DECK))):  # fmt: skip
        path = next(cache.glob(f"{prefix}*.parquet"))
        flip_data(path, 60, 2)
        again = load()
        notice(capfd, path)
        assert not again.from_cache
        assert load().from_cache
        quiet(capfd)
    assert np.array_equal(way_table("gli", DECK).setting, way.setting)
    assert np.array_equal(player_table(DECK).high, player.high)


def test_pair_counts_and_the_cli(cache, capfd):
    """The case of the issue: 100 bytes flipped in the middle of a pair-counts file."""
    from analysis.cli.main import main

    first = pair_counts(DECK, flag_mask=ALL_FLAGS)
    path = cache_path(DECK, Rules(), get_way("gli"), get_way("gli"), ALL_FLAGS)
    size = path.stat().st_size
    flip_at(path, size // 2 - 50, 100)
    assert main(["analyze", "dealer-open", "--deck", DECK.name, "--format", "json"]) == 0
    out = capfd.readouterr()
    assert "failed verification" in out.err and str(path) in out.err
    assert json.loads(out.out)["total"] == comb(16, 7) * comb(9, 7)
    assert not path.exists()  # removed: dealer-open's own counts (flags 4) were built
    again = pair_counts(DECK, flag_mask=ALL_FLAGS)
    assert again.source == "engine" and again.counts == first.counts  # from cached shards
    quiet(capfd)
    flip_data(path, 30, 2)  # the values column
    assert pair_counts(DECK, flag_mask=ALL_FLAGS).counts == first.counts
    notice(capfd, path)


def test_numbers_that_break_an_invariant(cache, capfd):
    """A file with intact checksums whose numbers are wrong (as if written by a bug, or
    edited): the invariants catch it."""
    first = pair_counts(DECK, flag_mask=ALL_FLAGS)
    path = cache_path(DECK, Rules(), get_way("gli"), get_way("gli"), ALL_FLAGS)
    table = pq.read_table(path)
    values = table.column("value").to_numpy().copy()
    values[0] += 1  # one more deal than there are
    bad = table.set_column(2, "value", [values])
    write_atomic(bad, path, read_provenance(path) or {})
    assert pair_counts(DECK, flag_mask=ALL_FLAGS).counts == first.counts
    notice(capfd, path)


def test_engine_shards(cache, capfd):
    table = hand_table(DECK)
    keys = build_keys(table, get_way("gli"))
    first = run_engine(table, keys, progress=False)
    shards = sorted((cache / "engine" / keys.digest).glob("*.parquet"))
    victim = shards[len(shards) // 2]
    flip_data(victim, 20, 2)
    stats: dict = {}
    assert run_engine(table, keys, progress=False, stats=stats) == first
    notice(capfd, victim)
    assert sum(s.shards for s in stats.values()) == 1  # only the damaged shard was recomputed


def test_per_hand_table(cache, capfd):
    table = hand_table(DECK)
    keys = build_keys(table, get_way("trump-plaza"))
    first = run_per_hand(table, keys)
    for name in ("*[0-9a-f].parquet", "*.classes.parquet"):
        path = next((cache / "perhand").glob(name))
        flip_data(path, 50, 3)
        again = run_per_hand(table, keys)
        notice(capfd, next((cache / "perhand").glob(name)))
        assert not again.from_cache
        for f in ("win", "loss", "way_win", "way_loss", "total", "point_high"):
            assert np.array_equal(getattr(again, f), getattr(first, f))
        assert run_per_hand(table, keys).from_cache
        quiet(capfd)


def test_engine_levels(cache, capfd):
    from enumerate.engine.levels import cache as lc
    from enumerate.engine.levels.build import LevelArrays, build_level
    from enumerate.engine.pairs import distributed as dist

    table = hand_table(DECK)
    level = LevelArrays.of(build_level(table, 3))
    sidecar = lc.save_level(level, DECK, Rules(), cache)
    good = lc.load_level(DECK, Rules(), 3, cache, table.orbit_size)
    assert good is not None and np.array_equal(good.items, level.items)
    items = sidecar.parent / "k3-items.npy"
    flip_at(items, items.stat().st_size // 2, 8)
    assert lc.load_level(DECK, Rules(), 3, cache, table.orbit_size) is None
    notice(capfd, items)  # the notice names the array that failed its checksum
    # a worker's level task rebuilds it and the rebuilt level is served
    dist._LEVELS.clear()
    dist.level_task(DECK.key, Rules().key, 3, str(cache), dist.code_fingerprint(dist.__name__))
    quiet(capfd)
    again = lc.load_level(DECK, Rules(), 3, cache, table.orbit_size)
    assert again is not None and np.array_equal(again.items, level.items)
    # right checksums, wrong numbers: the invariants catch a level that lost a family member
    broken = LevelArrays(3, level.offsets, level.items[::-1].copy(), level.orbit_size)
    lc.save_level(broken, DECK, Rules(), cache)
    assert lc.load_level(DECK, Rules(), 3, cache, table.orbit_size) is None
    notice(capfd, sidecar)
    # an item that is not a class row (the digests made right for it) is caught too
    bad = level.items.copy()
    bad[len(bad) // 2] = len(table)
    lc.save_level(LevelArrays(3, level.offsets, bad, level.orbit_size), DECK, Rules(), cache)
    assert lc.load_level(DECK, Rules(), 3, cache, table.orbit_size) is None
    notice(capfd, sidecar)
    # one family's classes reversed: the same hands (so the counts hold), but out of the
    # order the kernels rely on (neighbours merged, families skipped by first and last class)
    off = level.offsets
    s = next(s for s in range(len(level)) if level.items[off[s]] != level.items[off[s + 1] - 1])
    shuffled = level.items.copy()
    shuffled[off[s] : off[s + 1]] = shuffled[off[s] : off[s + 1]][::-1]
    lc.save_level(LevelArrays(3, off, shuffled, level.orbit_size), DECK, Rules(), cache)
    with pytest.raises(ValueError, match="not in increasing order"):
        lc.check_level(LevelArrays(3, off, shuffled, level.orbit_size), DECK, table.orbit_size)
    assert lc.load_level(DECK, Rules(), 3, cache, table.orbit_size) is None
    notice(capfd, sidecar)


def test_local_engine_reads_and_rebuilds_the_level_cache(cache, capfd):
    """The local backend, the per-hand and the per-dealer tables read the levels the first
    run built (no build the second time); a damaged level is reported once, rebuilt, and the
    counts are the same integers."""
    from enumerate.engine import build_keys, run_engine
    from enumerate.engine.levels import cache as lc
    from enumerate.engine.pairs.shards import LevelStats
    from enumerate.houseways import get_way

    table = hand_table(DECK)
    keys = build_keys(table, get_way("gli"), flag_mask=0)
    first: dict[int, LevelStats] = {}
    counts = run_engine(table, keys, use_cache=False, stats=first, cache=cache)
    assert not list(cache.glob("levels/*/k*.json"))  # use_cache=False keeps nothing
    run_engine(table, keys, stats=first, cache=cache)
    assert all(st.build_seconds > 0 for st in first.values())
    assert len(list(lc.level_dir(DECK, Rules(), cache).glob("k*.json"))) == 8
    second: dict[int, LevelStats] = {}
    shards = cache / "engine" / keys.digest
    for f in shards.glob("*.parquet"):
        f.unlink()
    again = run_engine(table, keys, stats=second, cache=cache)
    assert all(st.build_seconds == 0 for st in second.values())
    assert again == counts
    items = lc.level_dir(DECK, Rules(), cache) / "k4-items.npy"
    flip_at(items, items.stat().st_size // 3, 4)
    for f in shards.glob("*.parquet"):
        f.unlink()
    third: dict[int, LevelStats] = {}
    assert run_engine(table, keys, stats=third, cache=cache) == counts
    notice(capfd, items)
    assert third[4].build_seconds > 0 and third[3].build_seconds == 0


def test_unreadable_footer_is_reported(cache, capfd):
    first = hand_table(DECK)
    path = next(cache.glob("hands-*.parquet"))
    size = path.stat().st_size
    flip_at(path, size - 200, 50)  # inside the footer (the schema and its metadata)
    again = hand_table(DECK)
    assert np.array_equal(again.codes, first.codes)
    err = capfd.readouterr().err
    # a footer that no longer parses is damage; one whose provenance text changed is stale
    assert err.count("failed verification") <= 1


CONCURRENT = """
import sys
from analysis.pricing.counts import pair_counts
from enumerate.rules import Deck
c = pair_counts(Deck.parse("TJQKA:cdh+joker"), flag_mask=31)
print(c.total, int(c.counts.blind_win.sum()), int(c.counts.br_win.sum()))
"""


def test_two_concurrent_builders(tmp_path):
    """Two processes build the same caches (hand, way, frontier, shards, pair counts) in one
    empty folder at the same time: both finish with the right numbers, and what they leave
    verifies."""
    env = {**os.environ, "PAIGOW_CACHE_DIR": str(tmp_path)}
    procs = [
        subprocess.Popen([sys.executable, "-c", CONCURRENT], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]  # fmt: skip
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1] for o in outs]
    truth = pair_counts(DECK, flag_mask=ALL_FLAGS, use_cache=False)
    expected = f"{truth.total} {int(truth.counts.blind_win.sum())} {int(truth.counts.br_win.sum())}"
    assert [o[0].strip() for o in outs] == [expected, expected]
    assert all("failed verification" not in o[1] for o in outs)
    again = subprocess.run([sys.executable, "-c", CONCURRENT], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert again.stdout.strip() == expected and "failed verification" not in again.stderr


def test_five_card_table_read_again_after_its_verification(cache):
    """A loader whose check builds the table (the five-card table) still gets one when the
    arrays are mapped again without their check (verified earlier in the process)."""
    from enumerate import evaluate

    evaluate.five_card_table.cache_clear()
    try:
        first = evaluate.five_card_table()  # built and written
        old = time.time() - 10
        for path in (cache / "fivecard").iterdir():
            os.utime(path, (old, old))
        for _ in range(2):  # verified, then mapped again without the check
            evaluate.five_card_table.cache_clear()
            again = evaluate.five_card_table()
            assert np.array_equal(again.ids, first.ids)
            assert np.array_equal(again.category, first.category)
    finally:
        evaluate.five_card_table.cache_clear()


def test_bet_groups(cache, capfd):
    """A bet's grouped classes: damaged data or groups that no longer add up to the deck are
    rebuilt, never served."""
    from analysis.pricing.betfiles import price_bet

    first = price_bet("fortune-1", DECK)
    path = next(cache.glob("betgroups-*.parquet"))
    flip_data(path, 40, 0)
    assert price_bet("fortune-1", DECK).counts == first.counts
    notice(capfd, path)
    table = pq.read_table(path)
    weight = table.column("weight").to_numpy().copy()
    weight[0] += 1  # one hand more than the deck holds
    bad = table.set_column(table.column_names.index("weight"), "weight", [weight])
    write_atomic(bad, path, read_provenance(path) or {})
    assert price_bet("fortune-1", DECK).counts == first.counts
    notice(capfd, path)
    quiet(capfd)


def test_derived_cards_choices(cache, capfd):
    """The derived cards' choices (``derive/``): damaged data, or a front's point outside its
    class, are reported, rebuilt and never served: the card stays the same."""
    from analysis.derive import derive_strategy
    from analysis.derive.classes import forget
    from enumerate import cache as c

    first = derive_strategy("traditional", "gli", 3, deck=DECK).card_text(3)
    forget()
    folder = cache / "derive"
    loc = next(folder.glob("choices-*-loc.npy"))
    flip_at(loc, loc.stat().st_size // 2, 64)
    assert derive_strategy("traditional", "gli", 3, deck=DECK).card_text(3) == first
    notice(capfd, loc)
    forget()
    stem = loc.name.removesuffix("-loc.npy")
    prov = json.loads((folder / f"{stem}.json").read_text())
    prov.pop("arrays")
    arrays = {p.name.removeprefix(f"{stem}-").removesuffix(".npy"): np.load(p)
              for p in folder.glob(f"{stem}-*.npy")}
    arrays["loc"][0, 0] = 21  # a point past the class's settings, digests made anew
    c.save_arrays(folder, stem, arrays, prov)
    assert derive_strategy("traditional", "gli", 3, deck=DECK).card_text(3) == first
    notice(capfd, folder / f"{stem}.json")
    quiet(capfd)


def test_fitted_points_chart(cache, capfd):
    """The fitted points chart (``derive/points-fit-*``): damaged data, or points that fall
    where the chart must rise, are reported, rebuilt and never served."""
    from analysis.derive.points import fitted_chart
    from analysis.pricing.optimal import solve_optimal
    from enumerate import cache as c

    opt = solve_optimal("traditional", "gli", DECK)
    first = fitted_chart(opt)
    folder = cache / "derive"
    back = next(folder.glob("points-fit-*-back.npy"))
    flip_at(back, back.stat().st_size - 8, 8)
    assert fitted_chart(opt) == first
    notice(capfd, back)
    stem = back.name.removesuffix("-back.npy")
    prov = json.loads((folder / f"{stem}.json").read_text())
    prov.pop("arrays")
    arrays = {p.name.removeprefix(f"{stem}-").removesuffix(".npy"): np.load(p)
              for p in folder.glob(f"{stem}-*.npy")}
    arrays["front"][-1] = arrays["front"][-2] - 1  # a front worth less than the one below
    c.save_arrays(folder, stem, arrays, prov)
    assert fitted_chart(opt) == first
    notice(capfd, folder / f"{stem}.json")
    quiet(capfd)
