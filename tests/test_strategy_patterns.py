"""Strategy by rank pattern: where the house way and optimal play differ, grouped by rank
pattern and settings. Its figures must add up to what the optimal strategy gains over the
house way (the house edge difference, priced independently in test_optimal), and every row
must describe hands that really are set that way."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analysis.pricing.optimal import solve_optimal
from enumerate.cards import Hand
from enumerate.rules import Deck

DECKS = ["23569JQA:cd+joker", "TJQKA:cdh+joker"]


@pytest.mark.parametrize("text", DECKS)
def test_patterns_add_up_to_the_optimal_gain(text):
    deck = Deck.parse(text)
    opt = solve_optimal("traditional", "gli", deck)
    df = opt.by_pattern(None)
    gain = opt.house_edge(False) - opt.house_edge(True)
    assert sum(df["cost"], Fraction(0)) == gain
    worse = opt.given_up() > 0
    assert int(df["hands"].sum()) == int(opt.table.orbit_size[worse].sum())
    assert (df["cost"] > 0).all()
    total = opt.table.total
    for cost, hands, per in zip(df["cost"], df["hands"], df["given up per hand"], strict=True):
        assert cost == per * hands / total  # a share of the house edge = EV x hands / all
    # most costly first; the top rows a reader sees
    assert list(df["cost"]) == sorted(df["cost"], reverse=True)
    assert len(opt.by_pattern(5)) == min(5, len(df))


def test_rows_describe_their_hands():
    """Each row's hands are the classes of that rank pattern the house way sets worse than
    optimal: the hands per pattern, worked out here from the cards' own ranks (the joker as
    Jk), equal the table's; and in every row the two settings differ."""
    deck = Deck.parse(DECKS[0])
    opt = solve_optimal("traditional", "gli", deck)
    df = opt.by_pattern(None)
    order = "23456789TJQKA"
    expected: dict[str, int] = {}
    for c in np.flatnonzero(opt.given_up() > 0):
        cards = Hand.from_ids(int(x) for x in opt.table.cards[c])
        ranks = sorted((14 if card.is_joker else order.index(str(card)[0]) for card in cards),
                       reverse=True)  # fmt: skip
        text = " ".join("Jk" if r == 14 else order[r] for r in ranks)
        expected[text] = expected.get(text, 0) + int(opt.table.orbit_size[c])
    assert df.groupby("hand")["hands"].sum().to_dict() == expected
    assert ((df["way front"] != df["optimal front"]) | (df["way back"] != df["optimal back"])).all()
