"""Edge cases of the per-hand engine: int32 accumulators that wrap modulo 2^32 (the module
docstring's exactness argument) and the check of every division by an orbit size."""

from dataclasses import replace

import numpy as np
import pytest

from enumerate.engine import build_keys, perhand
from enumerate.engine.kernels import per_hand_orbits
from enumerate.engine.levels import build_level
from enumerate.houseways import get_way
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.test_perhand import assert_rows_match_dealer_loop

DECK = Deck.parse("TJQKA:cdh+joker")  # 16 cards: 11,440 hands, 36 dealer hands per hand
I32 = np.iinfo(np.int32)
FIELDS = ("total", "way_win", "way_loss", "win", "loss")  # the order of ``_accumulators``


@pytest.fixture(scope="module")
def setup():
    table = hand_table(DECK, use_cache=False)
    keys = build_keys(table, get_way("gli"), use_cache=False)
    return table, keys


def _wrap(x: np.ndarray) -> np.ndarray:
    """int64 values reduced to int32 the way int32 arithmetic does (modulo 2^32)."""
    return ((x + 2**31) % 2**32 - 2**31).astype(np.int32)


def _run_recording(monkeypatch, table, keys, starts):
    """``run_per_hand`` on two threads whose accumulators start at ``starts[j]``; returns the
    result and the threads' accumulators as they were just before they were summed."""
    alloc, summed = perhand._accumulators, perhand._sum_into_first
    seen: list[list[np.ndarray]] = []

    def preloaded(n_jobs, n, n_d, n_points):
        accs = alloc(n_jobs, n, n_d, n_points)
        for acc, start in zip(accs, starts, strict=True):
            for a in acc:
                a[...] = start
        return accs

    def recording(parts):
        seen.append([p.copy() for p in parts])
        return summed(parts)

    with monkeypatch.context() as m:
        m.setattr(perhand, "_accumulators", preloaded)
        m.setattr(perhand, "_sum_into_first", recording)
        got = perhand.run_per_hand(table, keys, n_jobs=len(starts), use_cache=False)
    return got, seen


def test_sum_into_first_wraps_modulo_2_32():
    """Partial sums past 2^31 in either direction still add up to the exact small total."""
    parts = [
        np.array([I32.max, I32.min + 1, 5, 0], dtype=np.int32),
        np.array([10, -7, I32.max, I32.max], dtype=np.int32),
        np.array([-I32.max, I32.max, I32.max - 3, I32.max], dtype=np.int32),
    ]
    exact = sum(p.astype(np.int64) for p in parts)
    got = perhand._sum_into_first([p.copy() for p in parts])
    assert got.dtype == np.int32
    assert got.tolist() == _wrap(exact).tolist()
    assert got[:2].tolist() == [10, -7]  # their partial sums left the int32 range, not these


def test_wrapping_accumulators_give_the_exact_counts(monkeypatch, setup):
    """Thread 0's accumulators start at +(2^31 - 1) and thread 1's at -(2^31 - 1): the
    offsets cancel, every partial sum leaves the int32 range, and the result is still the
    exact one (the plain run's, and a brute-force loop over the dealer hands)."""
    table, keys = setup
    plain, plain_parts = _run_recording(monkeypatch, table, keys, [0, 0])
    offset, offset_parts = _run_recording(monkeypatch, table, keys, [I32.max, -I32.max])
    assert len(plain_parts) == len(offset_parts) == len(FIELDS)
    starts = np.array([I32.max, -I32.max], dtype=np.int64)
    for name, zero, loaded in zip(FIELDS, plain_parts, offset_parts, strict=True):
        # the threads' own sums without offsets: small (no wrap on this deck)
        delta = [p.astype(np.int64) for p in zero]
        assert max(int(np.abs(d).max()) for d in delta) < 2**20
        true = [s + d for s, d in zip(starts, delta, strict=True)]  # unwrapped running sums
        # the accumulators really went past 2^31 (thread 0) and below -2^31 (thread 1) ...
        assert (true[0] > I32.max).any(), name
        assert (true[1] < I32.min).any(), name
        # ... and hold those sums modulo 2^32
        for t, p in zip(true, loaded, strict=True):
            assert p.tolist() == _wrap(t).tolist(), name
        # a sum that does not wrap (int64 of the int32 parts) would be wrong
        exact = getattr(plain, name)
        no_wrap = sum(p.astype(np.int64) for p in loaded)
        assert (no_wrap != exact).any(), name
        assert getattr(offset, name).tolist() == exact.tolist(), name
    assert offset.point_offset.tolist() == plain.point_offset.tolist()
    assert_rows_match_dealer_loop(table, get_way("gli"), offset, step=7)


def _call_kernel(level, keys, q):
    offset, _ph, _pl = perhand._flatten_frontiers(keys)
    (acc,) = perhand._accumulators(1, len(keys.player_high), keys.n_dealer_classes,
                                   int(offset[-1]))  # fmt: skip
    ids = np.arange(len(level.orbits), dtype=np.int64)
    return per_hand_orbits(
        level.offsets, level.items, ids, level.sign, q, keys.packed, keys.player_high,
        keys.player_low, keys.frontier_size, keys.frontier_high, keys.frontier_low,
        keys.player_groups[1], offset, keys.n_dealer_classes, *acc,
    )  # fmt: skip


@pytest.mark.parametrize("k", [1, 3, 6])
def test_kernel_counts_inexact_divisions(setup, k):
    """With the true orbit sizes every division is exact; with wrong ones (one more, or
    doubled where the counts are odd) the kernel reports the remainders."""
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
    real = perhand.level_arrays

    def wrong_sizes(table, k, **kw):
        level, seconds = real(table, k, **kw)
        if k != 4:
            return level, seconds
        return replace(level, orbit_size=level.orbit_size + 1), seconds

    monkeypatch.setattr(perhand, "level_arrays", wrong_sizes)
    with pytest.raises(AssertionError, match=r"per-hand level 4: [0-9]+ family counts"):
        perhand.run_per_hand(table, keys, n_jobs=2, use_cache=False)
