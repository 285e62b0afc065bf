"""Edge cases of the per-hand engine: int32 accumulators that wrap modulo 2^32 (the module
docstring's exactness argument) and the check of every division by an orbit size."""

import itertools
from dataclasses import replace

import numpy as np
import pytest
from numba import njit

from enumerate.engine import build_keys
from enumerate.engine.kernels.prefetch import prefetch
from enumerate.engine.levels import passes as levelpass
from enumerate.engine.levels import twophase
from enumerate.engine.levels.build import build_level
from enumerate.engine.perhand import table as perhand
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.kernels import DIRECT_MAX, per_hand_orbits
from enumerate.houseways import get_way
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.test_perhand import assert_rows_match_dealer_loop

DECK = Deck.parse("TJQKA:cdh+joker")  # 16 cards: 11,440 hands, 36 dealer hands per hand
I32 = np.iinfo(np.int32)
FIELDS = ("total", "way_win", "way_loss", "win", "loss", "way_bank", "bank")  # ``_blocks``


@pytest.fixture(scope="module")
def setup():
    table = hand_table(DECK, use_cache=False)
    keys = build_keys(table, get_way("gli"), use_cache=False)
    return table, keys


def _wrap(x: np.ndarray) -> np.ndarray:
    """int64 values reduced to int32 the way int32 arithmetic does (modulo 2^32)."""
    return ((x + 2**31) % 2**32 - 2**31).astype(np.int32)


def _run_preloaded(monkeypatch, table, keys, start, n_jobs=2):
    """``run_per_hand`` whose shared blocks of counts start at ``start`` instead of 0."""
    alloc = perhand._blocks

    def preloaded(n, n_d, n_points, sets):
        acc = alloc(n, n_d, n_points, sets)
        for a in acc:
            a[...] = start
        return acc

    with monkeypatch.context() as m:
        m.setattr(perhand, "_blocks", preloaded)
        m.setattr(perhand, "check_per_hand", lambda *args: None)  # the offset breaks them
        return perhand.run_per_hand(table, keys, n_jobs=n_jobs, use_cache=False)


def test_sum_into_first_wraps_modulo_2_32():
    """Partial sums past 2^31 in either direction still add up to the exact small total."""
    parts = [
        np.array([I32.max, I32.min + 1, 5, 0], dtype=np.int32),
        np.array([10, -7, I32.max, I32.max], dtype=np.int32),
        np.array([-I32.max, I32.max, I32.max - 3, I32.max], dtype=np.int32),
    ]
    exact = sum(p.astype(np.int64) for p in parts)
    got = perhand.sum_into_first([p.copy() for p in parts])
    assert got.dtype == np.int32
    assert got.tolist() == _wrap(exact).tolist()
    assert got[:2].tolist() == [10, -7]  # their partial sums left the int32 range, not these


def test_wrapping_accumulators_give_the_exact_counts(monkeypatch, setup):
    """Accumulators that start at 2^31 - 1: the sums of both threads leave the int32 range
    and wrap, and the counts, less the start in int32 arithmetic, are still the exact ones
    (the plain run's, and a brute-force loop over the dealer hands)."""
    table, keys = setup
    start = I32.max
    plain = perhand.run_per_hand(table, keys, n_jobs=2, use_cache=False)
    loaded = _run_preloaded(monkeypatch, table, keys, start)
    for name in FIELDS:
        exact = getattr(plain, name).astype(np.int64)
        assert (start + exact > I32.max).any(), name  # the sums went past the int32 range
        got = getattr(loaded, name)
        assert got.dtype == np.int32
        assert got.tolist() == _wrap(start + exact).tolist(), name
        assert (got - np.int32(start)).tolist() == exact.tolist(), name
    assert loaded.point_offset.tolist() == plain.point_offset.tolist()
    assert_rows_match_dealer_loop(table, get_way("gli"), plain, step=7)


def test_threads_own_class_ranges(setup):
    """Threads that own ranges of the classes (any number of them) give the one-thread
    counts: every class is in exactly one range, and a class outside a thread's range gets
    nothing from it."""
    table, keys = setup
    one = perhand.run_per_hand(table, keys, n_jobs=1, use_cache=False)
    offset, _ph, _pl = perhand._flatten_frontiers(keys)
    for jobs in (2, 3, 5):
        ranges = perhand._class_ranges(offset, jobs)
        assert ranges[0][0] == 0 and ranges[-1][1] == len(table)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
        many = perhand.run_per_hand(table, keys, n_jobs=jobs, use_cache=False)
        for name in FIELDS:
            assert np.array_equal(getattr(many, name), getattr(one, name)), (jobs, name)


@pytest.mark.parametrize("n", [1, 5, 4096, 4097, 6_972_147])
def test_even_runs_partition_the_classes(n):
    """Phase two's runs: one per thread, end to end over the ``n`` classes, each holding the
    items of its bins, the threads' items within one bin of an even share."""
    rng = np.random.default_rng(n)
    item_class = rng.integers(0, n, 50_000).astype(np.int32)
    item_class[:20_000] = rng.integers(0, max(1, n // 7), 20_000)  # crowded at the start
    shift = max(0, (n - 1).bit_length() - 12)
    counts = np.zeros((3, ((n - 1) >> shift) + 1), dtype=np.int64)
    for j in range(3):  # three threads' parts of the arena
        twophase._count_items(item_class, j * 20_000, min(20_000, 50_000 - j * 20_000), shift,
                              counts[j])  # fmt: skip
    runs = twophase._even_runs(counts, shift, n)
    assert len(runs) == 3 and runs[0][0] == 0 and runs[-1][1] == n
    assert all(a[1] == b[0] and a[0] <= a[1] for a, b in itertools.pairwise(runs))
    held = [int(((item_class >= a) & (item_class < b)).sum()) for a, b in runs]
    assert sum(held) == 50_000
    widest = np.bincount(item_class >> shift).max()
    assert max(held) - min(held) <= 2 * widest


def _call_kernel(level, keys, q):
    offset, _ph, _pl = perhand._flatten_frontiers(keys)
    n = len(keys.player_high)
    sets = AnswerSets.spanning(keys.dealer_class_bits)
    acc = perhand._blocks(n, keys.n_dealer_classes, int(offset[-1]), sets)
    ids = np.arange(len(level.orbits), dtype=np.int64)
    return per_hand_orbits(
        level.offsets, level.items, ids, level.sign, q, keys.packed, keys.player_high,
        keys.player_low, keys.frontier_size, keys.frontier_high, keys.frontier_low,
        keys.player_groups[1], offset, keys.n_dealer_classes,
        sets.grid_maps(keys.dealer_class_bits), *acc, 0, n,
    )  # fmt: skip


@pytest.mark.parametrize("k", [1, 3, 6])
def test_kernel_counts_inexact_divisions(setup, k):
    """With the true orbit sizes every class weight divides exactly; with wrong ones (one
    more, or doubled where the weights are odd) the kernel reports the remainders."""
    table, keys = setup
    level = build_level(table, k)
    q = level.orbits.size.astype(np.int64)
    assert _call_kernel(level, keys, q) == 0
    assert _call_kernel(level, keys, q + 1) > 0
    assert _call_kernel(level, keys, q * 2) > 0


def test_run_per_hand_fails_on_an_inexact_division(monkeypatch, setup):
    """A level whose orbit sizes are wrong makes ``run_per_hand`` raise an AssertionError
    naming the level (a bug, not a user error: never a ValueError)."""
    table, keys = setup
    real = levelpass.level_arrays

    def wrong_sizes(table, k, **kw):
        level, seconds = real(table, k, **kw)
        if k != 4:
            return level, seconds
        return replace(level, orbit_size=level.orbit_size + 1), seconds

    monkeypatch.setattr(levelpass, "level_arrays", wrong_sizes)
    monkeypatch.setattr(twophase, "level_arrays", wrong_sizes)
    with pytest.raises(AssertionError, match=r"per-hand level 4: [0-9]+ class weights"):
        perhand.run_per_hand(table, keys, n_jobs=2, use_cache=False)


def test_two_phases_in_small_arenas_give_the_same_counts(monkeypatch, setup):
    """Arenas too small for most families: phase one writes a few families a round and grows
    an arena for a family that does not fit in it empty; the counts are those of large
    arenas."""
    table, keys = setup
    expected = perhand.run_per_hand(table, keys, n_jobs=2, use_cache=False)
    monkeypatch.setattr(twophase, "ARENA_ITEMS", 4)
    monkeypatch.setattr(twophase, "ARENA_ENTRIES", 16)
    got = perhand.run_per_hand(table, keys, n_jobs=2, use_cache=False)
    for name in ("total", "way_win", "way_loss", "way_bank", "win", "loss", "bank"):
        assert np.array_equal(getattr(got, name), getattr(expected, name)), name


@pytest.mark.parametrize("deck_text", ["TJQKA:cdh+joker", "JQKA:cdhs+joker", "A2345:cdhs"])
def test_brute_force_decks_meet_both_answer_paths(deck_text):
    """The per-hand kernel answers families of at most ``DIRECT_MAX`` classes item by item
    and larger ones from a grid: the decks ``test_perhand`` checks against a dealer loop have
    families of both kinds, so both paths are checked."""
    table = hand_table(Deck.parse(deck_text), use_cache=False)
    sizes = []
    for k in range(8):
        level = build_level(table, k)
        items, offsets = level.items, level.offsets
        sizes += [len(np.unique(items[a:b])) for a, b in itertools.pairwise(offsets)]
    assert min(sizes) <= DIRECT_MAX < max(sizes)


@njit
def _prefetched_sum(a):
    s = 0
    for i in range(a.shape[0]):
        prefetch(a, i + 64)  # past the end near the last items: a hint never faults
        s += a[i]
    return s


def test_prefetch_is_only_a_hint():
    a = np.arange(1000, dtype=np.int32)
    assert _prefetched_sum(a) == int(a.sum())
    assert a.tolist() == list(range(1000))
