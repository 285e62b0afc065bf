"""The overall house edge of Fortune with its envy, by bet amount and other players.

The envy a bettor expects from one other player's hand is worked out here from the published
combinations of the seven-card classes (data/published/seven_card_classes.toml) and the one
count derived by hand (32 natural 7-card straight flushes: 8 runs of seven ranks in 4 suits;
the published 228 less those is the joker's), never from the code's hand table.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

from analysis.cli.main import main
from analysis.pricing.sidebets import paytable_envy_by_table, price_sidebet
from enumerate.rules import Deck
from tests.published import class_counts


def _published() -> dict[str, int]:
    return class_counts()


def _envy_5000() -> Fraction:
    """Dollars expected from one other hand under the 5000 envy table (docs/rules.md)."""
    c = _published()
    counts = {
        5000: 32,  # natural 7-card straight flush, by hand
        1000: c["royal flush + royal match"],
        500: c["natural 7-card straight flush + 7-card straight flush with joker"] - 32,
        250: c["five aces"],
        50: c["royal flush"],
        20: c["straight flush"],
        5: c["four of a kind"],
    }
    return sum((Fraction(a * n, comb(53, 7)) for a, n in counts.items()), Fraction(0))


def test_fortune_with_envy_by_bet_and_table_size():
    t = paytable_envy_by_table("fortune", "1", "5000", deck=Deck.full())
    own = price_sidebet("fortune", "1", Deck.full()).house_edge
    per = _envy_5000()
    assert t.per_other_player == per
    assert t.others == (0, 1, 2, 3, 4, 5)  # a 53-card deck deals 7 hands: the dealer, 6 players
    for amount in (5, 10, 25, 100):
        for k in t.others:
            assert t.edge(Fraction(amount), k) == own - k * per / amount
    # below the $5 minimum no envy is paid
    assert t.edge(Fraction(4), 5) == own
    with pytest.raises(ValueError, match="positive"):
        t.edge(Fraction(0), 1)


def test_chan_chu_with_its_own_table(tmp_path):
    """Chan Chu priced with a user table (the shipped TEMPLATE here): its own envy section."""
    t = paytable_envy_by_table("chan-chu", "template", deck=Deck.full())
    assert t.template and t.envy == "template"
    assert "TEMPLATE" in t.render("md")


def test_cli_by_table(capsys):
    assert main(["sidebet", "fortune", "--by-table", "--bets", "5,12.5", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["paytable"], data["envy"]) == ("1", "5000")
    cell = next(r for r in data["rows"] if r["bet"] == 12.5 and r["others"] == 3)
    own = price_sidebet("fortune", "1", Deck.full()).house_edge
    assert Fraction(cell["house_edge_fraction"]) == own - 3 * _envy_5000() / Fraction(25, 2)
    assert main(["sidebet", "fortune", "--by-table", "--bets", "5,-1"]) == 2
    assert "not a positive amount" in capsys.readouterr().err
    assert main(["sidebet", "tiger-9", "--by-table"]) == 2
    assert "no envy" in capsys.readouterr().err
