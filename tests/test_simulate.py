"""The Monte Carlo simulation agrees with the exact engine counts on small decks, cell by cell,
within 4 standard errors, and the comparison does catch a wrong exact answer."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from analysis.checks.simulate import compare_counts, proportion_se, simulate_counts
from enumerate.deals import deal
from enumerate.engine import build_keys, run_engine
from enumerate.engine.pairs.counts import PairCounts
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS, N_PLAYER_CLASSES

N_DEALS = 1_000_000
CASES = [  # deck, dealer way, player way
    ("TJQKA:cdh+joker", "gli", "gli"),
    ("TJQKA:cdh+joker", "trump-plaza", "gli"),
    ("89TJQKA:cd+joker", "trump-plaza", "trump-plaza"),
    ("89TJQKA:cd+joker", "gli", "trump-plaza"),
    # ace-high pai gow with and without the joker, queen-high pai gow, nine-high low hands
    ("24689TQA:cd+joker", "gli", "gli"),
]


@cache
def _table(deck: str) -> HandTable:
    return hand_table(Deck.parse(deck), use_cache=False)


@pytest.fixture(scope="module", params=CASES, ids=["-".join(c) for c in CASES])
def case(request):
    """(dealer class bits, exact counts, simulated counts) of one deck and pair of ways."""
    deck, dealer, player = request.param
    table = _table(deck)
    keys = build_keys(table, get_way(dealer), get_way(player), use_cache=False)
    exact = run_engine(table, keys, use_cache=False, progress=False)
    sim = simulate_counts(Deck.parse(deck), Rules(), get_way(dealer), get_way(player),
                          keys.dealer_class_bits, ALL_DEALER_EVENTS, N_DEALS,
                          seed=20261130)  # fmt: skip
    return keys.dealer_class_bits, exact, sim


def test_simulation_agrees_with_exact_counts(case):
    bits, exact, sim = case
    assert sim.total == N_DEALS
    assert (sim.blind_push >= 0).all() and (sim.br_loss >= 0).all()
    table, ok = compare_counts(sim, exact, bits)
    worst = table.iloc[int(np.argmax(np.abs(table["z"].to_numpy())))]
    assert ok, f"{worst['cell']}: z = {worst['z']:.2f}"
    # every cell is compared: joint, and 6 outcomes per dealer class and over all of them
    n_d = len(bits)
    assert len(table) == N_PLAYER_CLASSES * n_d + 6 * (n_d + 1)
    assert np.isclose(table["exact"].iloc[: N_PLAYER_CLASSES * n_d].sum(), 1.0)
    assert np.isclose(table["simulated"].iloc[: N_PLAYER_CLASSES * n_d].sum(), 1.0)
    # an event the exact counts call impossible never happens in the simulation
    assert (table.loc[table["exact"] == 0, "simulated"] == 0).all()


def test_wrong_exact_answers_are_detected(case):
    bits, exact, sim = case
    blind_swapped = PairCounts(exact.joint, exact.blind_loss, exact.blind_win, exact.br_win,
                               exact.br_push)  # fmt: skip
    table, ok = compare_counts(sim, blind_swapped, bits)
    assert not ok
    assert table.loc[table["cell"] == "blind_win[all]", "z"].abs().item() > 4
    br_swapped = PairCounts(exact.joint, exact.blind_win, exact.blind_loss, exact.br_loss,
                            exact.br_push)  # fmt: skip
    assert not compare_counts(sim, br_swapped, bits).ok
    if len(bits) > 1:  # dealer classes in the wrong order
        fields = (exact.joint, exact.blind_win, exact.blind_loss, exact.br_win, exact.br_push)
        shifted = PairCounts(*(np.roll(a, 1, axis=-1) for a in fields))
        assert not compare_counts(sim, shifted, bits).ok


def _small(seed: int, n: int = 20_000, chunk: int = 250_000) -> PairCounts:
    deck = "TJQKA:cdh+joker"
    way = get_way("gli")
    bits = build_keys(_table(deck), way, use_cache=False).dealer_class_bits
    return simulate_counts(
        Deck.parse(deck), Rules(), way, way, bits, ALL_DEALER_EVENTS, n, seed, chunk=chunk
    )


def test_reproducible_for_a_seed_and_any_chunk():
    a = _small(5)
    assert a.total == 20_000
    assert a == _small(5)
    assert a == _small(5, chunk=3_001)  # the deals do not depend on the chunking
    assert a != _small(6)
    assert _small(5, n=0).total == 0


def test_deals_are_disjoint_sorted_and_uniform():
    deck = Deck.parse("89TJQKA:cd+joker")
    n = 100_000
    player, dealer = deal(deck, n, np.random.default_rng(1))
    assert player.shape == dealer.shape == (n, 7)
    both = np.concatenate([player, dealer], axis=1)
    assert np.isin(both, deck.ids).all()
    assert (np.diff(player, axis=1) > 0).all() and (np.diff(dealer, axis=1) > 0).all()
    assert (np.diff(np.sort(both, axis=1), axis=1) > 0).all()  # 14 distinct cards a deal
    # each card goes to the player with probability 7/15 and to the dealer with 7/15
    p = 7 / deck.size
    se = np.sqrt(p * (1 - p) / n)
    for hands in (player, dealer):
        freq = np.array([(hands == c).any(axis=1).mean() for c in deck.ids])
        assert (np.abs(freq - p) < 4 * se).all()
    # one stream: dealing in two calls gives the same deals as one call
    rng = np.random.default_rng(1)
    first, second = deal(deck, 300, rng), deal(deck, n - 300, rng)
    assert (np.concatenate([first[0], second[0]]) == player).all()
    assert (np.concatenate([first[1], second[1]]) == dealer).all()


def test_bad_inputs():
    way = get_way("gli")
    small, every = Deck.parse("TJQKA:cdh+joker"), ALL_DEALER_EVENTS
    with pytest.raises(ValueError, match="a deal needs 14"):
        simulate_counts(Deck.parse("AK:cdhs+joker"), Rules(), way, way, (0,), every, 10, 1)
    with pytest.raises(ValueError, match="not in dealer_class_bits"):
        simulate_counts(small, Rules(), way, way, (0,), every, 1000, 1)
    with pytest.raises(ValueError):
        simulate_counts(small, Rules(), way, way, (0,), every, -1, 1)


def test_proportion_se():
    assert proportion_se(50, 100) == pytest.approx(0.05)
    assert proportion_se(0, 100) == 0.0
    assert np.allclose(proportion_se(np.array([25, 75]), 100), np.sqrt(0.25 * 0.75 / 100))
    with pytest.raises(ValueError):
        proportion_se(1, 0)


def test_compare_counts_edge_cells():
    def counts(joint, bwin, bloss, rwin, rpush):
        a = np.array
        return PairCounts(a(joint, dtype=np.int64), a(bwin, dtype=np.int64),
                          a(bloss, dtype=np.int64), a(rwin, dtype=np.int64),
                          a(rpush, dtype=np.int64))  # fmt: skip

    exact = counts([[30, 0], [70, 0]], [20, 0], [50, 0], [40, 0], [30, 0])
    same = counts([[3, 0], [7, 0]], [2, 0], [5, 0], [4, 0], [3, 0])
    table, ok = compare_counts(same, exact, (0, 4))
    assert ok and (table["z"] == 0).all()
    assert table["cell"].iloc[0] == "joint[nothing | d0 normal]"
    # an event of exact probability 0 that the simulation saw: infinitely many errors off
    impossible = counts([[3, 0], [6, 1]], [2, 0], [5, 0], [4, 0], [3, 0])
    table, ok = compare_counts(impossible, exact)
    assert not ok
    assert np.isinf(table.loc[table["cell"] == "joint[three pair | d1]", "z"]).all()
    with pytest.raises(ValueError, match="shapes differ"):
        compare_counts(counts([[1]], [0], [0], [0], [0]), exact)


def test_simulate_command_agrees_with_exact(capsys):
    """paigow simulate: the exact house edge lies within 4 standard errors of the estimate."""
    import re

    from analysis.cli.main import main

    deck = "23579JQA:cd+joker"
    assert main(["simulate", "ez", "--deals", "100000", "--seed", "5", "--deck", deck]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    est, se = (float(x) for x in re.findall(r"([-\d.]+)%", line)[:2])
    assert main(["analyze", "ez", "--deck", deck, "--format", "json"]) == 0
    import json

    exact = json.loads(capsys.readouterr().out)["house_edge"] * 100
    assert abs(est - exact) <= 4 * se
