"""Optimal blind play: the best frontier setting is the best of all 21 settings (brute force),
and optimal play never does worse than the house way."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from analysis.games.variants import get_variant
from analysis.pricing.optimal import solve_optimal
from enumerate.bruteforce import deck_hands
from enumerate.deals import hand_keys
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules

DECK = Deck.parse("23579JQA:cd+joker")  # has every dealer class
# and three four-suit decks (suit orbits of 24 hands): royals, five aces and two jacks; the
# joker's wheel; natural wheels (every class of the 17-card decks, every 5th of the others)
CASES = [(DECK.name, v, 5) for v in ("traditional", "ez", "commission-free")] + [
    ("JQKA:cdhs+joker", "traditional", 1), ("A234:cdhs+joker", "traditional", 1),
    ("A2345:cdhs", "traditional", 5),
]  # fmt: skip


def _ev(variant, bits, win, loss):
    """Summed EV of one player setting over dealer hands (arrays), from the rule text."""
    total = Fraction(0)
    for b in np.unique(bits):
        at = bits == b
        w, lo = int((win & at).sum()), int((loss & at).sum())
        rule = variant.rule_for(int(b))
        if rule is None:
            total += variant.win_pays * w - lo
        elif rule.effect == "dealer-wins":
            total -= int(at.sum())
        elif rule.effect == "player-win-push":
            total -= lo
    return total


@pytest.mark.parametrize("deck_text,variant_name,step", CASES)
def test_optimal_equals_best_of_all_settings(deck_text, variant_name, step):
    deck = Deck.parse(deck_text)
    variant = get_variant(variant_name)
    opt = solve_optimal(variant, deck=deck, use_cache=False)
    assert opt.house_edge(optimal=True) <= opt.house_edge(optimal=False)
    way = get_way(variant.house_way)
    hands = deck_hands(deck)
    k = hand_keys(hands, Rules(), way, way, variant.flag_mask)
    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    index = {tuple(row.tolist()): i for i, row in enumerate(hands)}
    table = opt.table
    n_dealer = comb(deck.size - 7, 7)
    for row in range(0, len(table), step):
        x = index[tuple(int(c) for c in table.cards[row])]
        free = (masks & masks[x]) == 0
        assert free.sum() == n_dealer
        dh, dl, bits = k["dh"][free], k["dl"][free], k["bits"][free]
        evs = [
            _ev(variant, bits, (k["sh"][x, s] > dh) & (k["sl"][x, s] > dl),
                (k["sh"][x, s] <= dh) & (k["sl"][x, s] <= dl))
            for s in range(21) if k["sv"][x, s]
        ]  # fmt: skip
        assert opt.ev(int(opt.best_ev[row])) == max(evs) / n_dealer
        way_ev = _ev(variant, bits, (k["ph"][x] > dh) & (k["pl"][x] > dl),
                     (k["ph"][x] <= dh) & (k["pl"][x] <= dl))  # fmt: skip
        assert opt.ev(int(opt.way_ev[row])) == way_ev / n_dealer


def test_exposed_variants_have_no_blind_strategy():
    with pytest.raises(ValueError, match="best response"):
        solve_optimal("face-up", deck=DECK, use_cache=False)


def test_ties_go_to_the_house_way_then_to_the_highest_high_hand() -> None:
    """The tie rule of the module docstring, on hand-made EVs: class 0 has two best points and
    the way's setting is one of them; class 1's best points do not include the way's setting
    (the last, highest-high one wins); class 2 has one point."""
    from analysis.pricing.optimal import _choose

    offset = np.array([0, 3, 6, 7])
    point_ev = np.array([5, 7, 7, 7, 7, 2, -4])
    high = np.array([10, 20, 30, 10, 20, 30, 40])
    low = np.array([9, 8, 7, 9, 8, 7, 6])
    way_high, way_low = np.array([20, 30, 40]), np.array([8, 7, 6])
    best, best_ev = _choose(point_ev, offset, high, low, way_high, way_low)
    assert best.tolist() == [1, 4, 6]
    assert best_ev.tolist() == [7, 7, -4]
