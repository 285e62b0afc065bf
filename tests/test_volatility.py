"""Variance, standard deviation, hit frequency, top award and edge per resolved bet, from
independent truth.

(a) On a small deck with every special dealer event, a loop over every deal settles each one
from the rule text (docs/rules.md: both hands higher wins, both lower or copies loses, else a push;
then the variant's dealer rule) and sums the net result, its square, the hits and the pushes;
the return table's figures must equal those sums exactly. (b) The Fortune top award on the full
deck: the natural seven-card straight flush, 32 hands (7 running ranks, A-7 up to 8-A, in one
of four suits), derived by hand. (c) The figures reach every output format.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb, isqrt

import numpy as np
import pytest

from analysis.cli.main import main
from analysis.pricing.optimal import optimal_return_table
from analysis.pricing.returns import analyze
from analysis.pricing.sidebets import price_sidebet
from analysis.pricing.volatility import sqrt_floor, volatility
from enumerate.bruteforce import deck_hands
from enumerate.deals import hand_keys
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import ACE_HIGH_PAI_GOW_EVENTS, ALL_DEALER_EVENTS, DealerEvent

DECK_TEXT = "23569JQA:cd+joker"  # every special dealer event happens on it
DECK = Deck.parse(DECK_TEXT)


@pytest.fixture(scope="module")
def deals():
    """Per player hand: the house-way outcome (+1 win, 0 push, -1 loss) against each dealer
    hand of the other cards, and that dealer hand's event bits."""
    hands = deck_hands(DECK)
    gli = get_way("gli")
    k = hand_keys(hands, Rules(), gli, gli, ALL_DEALER_EVENTS)
    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    out = []
    for x in range(len(hands)):
        y = np.flatnonzero((masks & masks[x]) == 0)
        win = (k["ph"][x] > k["dh"][y]) & (k["pl"][x] > k["dl"][y])
        loss = (k["ph"][x] <= k["dh"][y]) & (k["pl"][x] <= k["dl"][y])
        out.append((win.astype(np.int64) - loss.astype(np.int64), k["bits"][y]))
    return out


def _settle(name: str, outcome: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Twenty times the net result of a unit bet on each deal (integers: a commissioned win
    pays 19/20), from the rule text of the variant."""
    if name == "traditional":
        return np.select([outcome == 1, outcome == -1], [19, -20], 0)
    x = 20 * outcome
    if name == "face-up":  # dealer ace-high pai gow (joker or natural ace): every bet pushes
        return np.where(bits & ACE_HIGH_PAI_GOW_EVENTS, 0, x)
    if name == "dealer-open":  # dealer two or more jacks: the dealer wins
        return np.where(bits & DealerEvent.TWO_JACKS, -20, x)
    if name == "ez":  # dealer queen-high pai gow: every bet pushes
        return np.where(bits & DealerEvent.QUEEN_HIGH, 0, x)
    if name == "ez[winning-bets-push]":  # the reading: only a player's win pushes
        return np.where(((bits & DealerEvent.QUEEN_HIGH) != 0) & (outcome == 1), 0, x)
    raise AssertionError(name)


@pytest.mark.parametrize("name", ["traditional", "face-up", "dealer-open", "ez",
                                  "ez[winning-bets-push]"])  # fmt: skip
def test_figures_equal_a_loop_over_the_deals(deals, name):
    n = s1 = s2 = hits = pushes = tops = 0
    top = 19 if name == "traditional" else 20
    for outcome, bits in deals:
        x = _settle(name, outcome, bits).astype(np.int64)
        n += len(x)
        s1 += int(x.sum())
        s2 += int((x * x).sum())
        hits += int((x > 0).sum())
        pushes += int((x == 0).sum())
        tops += int((x == top).sum())
    assert n == comb(DECK.size, 7) * comb(DECK.size - 7, 7)
    mean, second = Fraction(s1, 20 * n), Fraction(s2, 400 * n)
    v = analyze(name, "gli", "house-way", DECK).volatility
    assert v.mean == mean
    assert v.variance == second - mean**2
    assert v.hit_frequency == Fraction(hits, n)
    assert v.push_probability == Fraction(pushes, n)
    assert v.edge_per_resolved == -mean / (1 - Fraction(pushes, n))
    assert (v.top_pays, v.top_probability, v.top_odds) == (Fraction(top, 20), Fraction(tops, n),
                                                           Fraction(n, tops))  # fmt: skip
    # every digit of the standard deviation is right: d^2 <= variance < (d + 1 ulp)^2
    d = sqrt_floor(v.variance, 12)
    assert Fraction(d, 10**12) ** 2 <= v.variance < Fraction(d + 1, 10**12) ** 2


def test_optimal_play_carries_the_figures():
    """The optimal player's table: the same function of its rows (pushes are the rows of
    outcome push), and it is at least as good as the house way's."""
    opt = optimal_return_table("traditional", "gli", DECK)
    rows = opt.records[:-1]
    again = volatility((r["pays"], r["probability"], r["outcome"]) for r in rows)
    assert opt.volatility.variance == again.variance
    assert opt.volatility.mean >= analyze("traditional", "gli", "house-way", DECK).volatility.mean


def test_fortune_top_award_is_the_natural_seven_card_straight_flush():
    """Fortune table 1 pays 5000 to 1 for a natural 7-card straight flush: 8 runs of seven
    ranks (A-7 .. 8-A) in 4 suits = 32 of the C(53,7) hands."""
    v = price_sidebet("fortune", "1", Deck.full()).volatility
    assert v.top_pays == 5000
    assert v.top_probability == Fraction(32, comb(53, 7))
    assert v.top_odds == Fraction(comb(53, 7), 32)
    assert v.top_event == "natural 7-card straight flush"


def test_sqrt_floor_against_isqrt():
    for num, den in [(2, 1), (1, 3), (10**9 + 7, 13), (0, 1), (144, 25)]:
        x = Fraction(num, den)
        for digits in (0, 3, 12):
            d = sqrt_floor(x, digits)
            assert d == isqrt(num * 10 ** (2 * digits) // den) or (
                Fraction(d, 10**digits) ** 2 <= x < Fraction(d + 1, 10**digits) ** 2
            )
            assert Fraction(d, 10**digits) ** 2 <= x < Fraction(d + 1, 10**digits) ** 2
    with pytest.raises(ValueError, match="negative"):
        sqrt_floor(Fraction(-1, 2), 3)


def test_rows_must_partition():
    with pytest.raises(AssertionError, match="sum to 1/2"):
        volatility([(Fraction(1), Fraction(1, 2), "win")])


@pytest.mark.parametrize("fmt", ["md", "csv", "json", "html"])
def test_every_format_carries_the_figures(capsys, fmt):
    assert main(["analyze", "face-up", "--deck", DECK_TEXT, "--format", fmt]) == 0
    out = capsys.readouterr().out
    v = analyze("face-up", "gli", "best-response", DECK).volatility
    if fmt == "json":
        data = json.loads(out)
        assert Fraction(data["variance_fraction"]) == v.variance
        assert Fraction(data["hit_frequency_fraction"]) == v.hit_frequency
        assert Fraction(data["house_edge_per_resolved_bet_fraction"]) == v.edge_per_resolved
        assert Fraction(data["top_award"]["probability_fraction"]) == v.top_probability
        assert data["standard_deviation"] == pytest.approx(float(v.variance) ** 0.5, rel=1e-12)
    elif fmt == "csv":
        block = out.split("\n\n")[1].splitlines()
        assert block[0] == "statistic,value,exact"
        stats = {line.split(",")[0]: line.split(",")[-1] for line in block[1:]}
        assert Fraction(stats["variance"]) == v.variance
        assert Fraction(stats["house edge per resolved bet"]) == v.edge_per_resolved
    else:
        for text in ("standard deviation: ", "hit frequency", "top award: ",
                     "house edge per resolved bet"):  # fmt: skip
            assert text in out
        assert v.standard_deviation_text() in out


def test_side_bets_leave_out_the_edge_per_resolved_bet(capsys):
    assert main(["sidebet", "fortune", "--deck", DECK_TEXT, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "variance_fraction" in data and "top_award" in data
    assert "house_edge_per_resolved_bet" not in data
