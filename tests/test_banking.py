"""Player banking, one on one, against a loop over every deal of small decks, settled from the
rule text (docs/rules.md, "Settling" and "Player banking"): the opponent sets by the house way and
wins only with both hands higher; copies go to the banker; the banker pays 5% on his net win.
For the optimal banker the loop tries every valid setting of the banker's hand against all the
opponent hands of the other cards and keeps the best (the house way's setting on a tie, else
the one with the highest high hand, as for the optimal player)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from analysis.cli.main import main
from analysis.pricing.banking import (
    banker_counts,
    banking_table,
    house_edge_banking,
    simulate_banking,
)
from analysis.pricing.returns import analyze
from enumerate.bruteforce import deck_hands
from enumerate.deals import deal_codes, hand_keys
from enumerate.engine.onehand.direct import dealer_keys, way_settings
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck, Rules

DECKS = ["23569JQA:cd+joker", "A2345:cdh+joker", "TJQKA:cdh+joker"]  # events, the wheel, suits


def _brute(deck: Deck, banker: str) -> tuple[int, int, int]:
    """(banker wins, pushes, losses) over every deal, one deal at a time."""
    hands = deck_hands(deck)
    gli = get_way("gli")
    k = hand_keys(hands, Rules(), gli, gli, 0)
    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    win = push = loss = 0
    for y in range(len(hands)):  # the banker's hand
        x = np.flatnonzero((masks & masks[y]) == 0)  # the opponent's hands
        ph, pl = k["ph"][x], k["pl"][x]
        if banker == "house-way":
            settings = [(int(k["dh"][y]), int(k["dl"][y]))]
        else:
            valid = {(int(h), int(lo)) for h, lo, v in zip(k["sh"][y], k["sl"][y], k["sv"][y],
                                                           strict=True) if v}  # fmt: skip
            scored = []
            for h, lo in valid:
                opp_win = int(((ph > h) & (pl > lo)).sum())
                opp_loss = int(((ph <= h) & (pl <= lo)).sum())
                scored.append((19 * opp_loss - 20 * opp_win, (h, lo)))
            top = max(v for v, _ in scored)
            best = sorted(s for v, s in scored if v == top)
            way = (int(k["dh"][y]), int(k["dl"][y]))
            settings = [way if way in best else best[-1]]
        h, lo = settings[0]
        w = int(((ph <= h) & (pl <= lo)).sum())  # the opponent loses: the banker wins
        lo_ = int(((ph > h) & (pl > lo)).sum())
        win, loss, push = win + w, loss + lo_, push + len(x) - w - lo_
    return win, push, loss


@pytest.mark.parametrize("text", DECKS)
@pytest.mark.parametrize("banker", ["house-way", "optimal"])
def test_one_on_one_equals_a_loop_over_the_deals(text, banker):
    deck = Deck.parse(text)
    c = banker_counts("gli", banker, deck)
    assert (c.win, c.push, c.loss) == _brute(deck, banker)
    t = banking_table("traditional", "gli", banker, deck)
    assert -t.house_edge == (Fraction(19, 20) * c.win - c.loss) / c.total


def test_the_optimal_banker_does_at_least_as_well():
    deck = Deck.parse(DECKS[0])
    way = -banking_table(banker="house-way", deck=deck).house_edge
    best = -banking_table(banker="optimal", deck=deck).house_edge
    assert best >= way


def test_house_edge_when_a_player_banks_one_round_in_n():
    deck = Deck.parse(DECKS[0])
    house = analyze("traditional", "gli", "house-way", deck).house_edge
    banker = -banking_table(deck=deck).house_edge
    assert house_edge_banking(1, deck=deck) == -banker
    assert house_edge_banking(5, deck=deck) == (4 * house - banker) / 5
    with pytest.raises(ValueError, match="at least 1"):
        house_edge_banking(0, deck=deck)


def test_simulated_one_opponent_agrees_with_the_exact_figure(monkeypatch):
    deck = Deck.parse(DECKS[0])
    exact = float(-banking_table(deck=deck).house_edge)  # the way table is cached now
    sim = simulate_banking(1, 200_000, seed=3, deck=deck)
    assert abs(sim.mean - exact) < 4 * sim.se
    assert sim == simulate_banking(1, 200_000, seed=3, deck=deck, chunk=70_000)
    # the dealt hands set one by one, as without a cached way table: the same rounds
    monkeypatch.setattr("enumerate.waytables.way_is_cached", lambda *args: False)
    assert sim == simulate_banking(1, 200_000, seed=3, deck=deck, chunk=70_000)


@pytest.mark.parametrize("deck", [*DECKS, "89TJQKA:cdhs+joker"])
def test_settings_read_by_class_are_the_settings_of_the_way(deck):
    d, gli = Deck.parse(deck), get_way("gli")
    hands, _ = deal_codes(d, 3000, np.random.default_rng(11))
    high, low = way_settings(hands, d, dealer_keys(d, Rules(), gli, 0))
    cols = apply_way(gli, hands, Rules())
    assert np.array_equal(high, cols.high) and np.array_equal(low, cols.low)


def test_simulation_with_more_opponents_is_reproducible_and_bounded():
    deck = Deck.full()
    a = simulate_banking(3, 20_000, seed=5, deck=deck)
    assert a == simulate_banking(3, 20_000, seed=5, deck=deck, chunk=7_000)
    assert -3 <= a.mean <= 3 * 0.95 and a.se > 0
    with pytest.raises(ValueError, match=r"1\.\.6"):
        simulate_banking(7, 100, deck=deck)


def test_banking_is_for_traditional():
    with pytest.raises(ValueError, match="traditional"):
        banking_table("ez")
    with pytest.raises(ValueError, match="banker strategy"):
        banking_table(banker="psychic")


def test_cli_player_banking(capsys):
    argv = ["analyze", "traditional", "--player", "banking", "--deck", DECKS[0],
            "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "banking (house-way)"
    assert Fraction(data["house_edge_fraction"]) == banking_table(deck=Deck.parse(DECKS[0])
                                                                  ).house_edge  # fmt: skip
    assert main(["analyze", "face-up", "--player", "banking", "--deck", DECKS[0]]) == 2
    assert "traditional" in capsys.readouterr().err


def test_cli_banking_report(capsys):
    deck = DECKS[0]
    assert main(["banking", "--deck", deck, "--rounds", "20000", "--every", "4",
                 "--format", "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert set(data["one_on_one"]) == {"house-way", "optimal"}
    expected = house_edge_banking(4, banker="optimal", deck=Deck.parse(deck))
    assert Fraction(data["house_edge_fraction"]["optimal"]) == expected
    (row,) = data["simulated"]["rows"]  # 17 cards deal one opponent only
    assert row["opponents"] == 1 and row["exact (one on one)"] is not None
    assert "NOT exact" in (main(["banking", "--deck", deck, "--rounds", "2000"]) == 0
                           and capsys.readouterr().out)  # fmt: skip
    assert main(["banking", "--deck", deck, "--rounds", "1"]) == 2
    assert "--rounds must be at least 2" in capsys.readouterr().err
