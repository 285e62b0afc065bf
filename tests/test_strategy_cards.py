"""A blind player who sets by a card of his own (``paigow analyze --player-way CARD``): priced
from the per-hand table of the dealer's way where every setting of the card is a frontier
point, and by the pair engine otherwise; the two give the same integers."""

from __future__ import annotations

import pytest

from analysis import Player, return_table
from analysis.pricing.strategy import strategy_return_table
from enumerate.rules import Deck

DECK = Deck.parse("9TJQKA:cdh+joker")

# a strategy that breaks a pair from the trips of a full house while a higher pair stays in
# back: a dominated setting, which the per-hand table (frontier points only) does not hold
DOMINATED = """
name = "breaks-full-houses"
kind = "strategy"
title = "a strategy with a dominated rule"
source = "tests/test_strategy_cards.py"

[[rule]]
id = "1"
text = "full house with a higher pair: a pair from the trips in front"
when = "full_house and not two_trips and n_pairs == 1 and pair1 > trips1"
front = "pair trips1"

[[rule]]
id = "2"
text = "everything else: the strongest back"
front = "strongest back"
"""


def _counts(t):
    return [(r["event"], r["combinations"]) for r in t.records]


@pytest.mark.parametrize("variant", ["traditional", "ez", "commission-free"])
@pytest.mark.parametrize("strategy", ["trump-plaza", "foxwoods"])
def test_the_per_hand_table_equals_the_engine(variant: str, strategy: str) -> None:
    table = strategy_return_table(variant, strategy, "gli", DECK, method="table")
    engine = strategy_return_table(variant, strategy, "gli", DECK, method="engine")
    assert _counts(table) == _counts(engine) and table.house_edge == engine.house_edge
    assert "priced from the per-hand table" in table.notes


def test_a_dominated_strategy_is_priced_by_the_engine(tmp_path) -> None:
    path = tmp_path / "breaks.toml"
    path.write_text(DOMINATED)
    with pytest.raises(ValueError, match="off the frontier"):
        strategy_return_table("traditional", str(path), "gli", DECK, method="table")
    auto = strategy_return_table("traditional", str(path), "gli", DECK)
    engine = strategy_return_table("traditional", str(path), "gli", DECK, method="engine")
    assert _counts(auto) == _counts(engine)
    # it gives something away against the same player without the dominated rule
    plain = strategy_return_table("traditional", "max-back", "gli", DECK)
    assert auto.house_edge > plain.house_edge


def test_the_api_and_the_cli_take_a_strategy(tmp_path, capsys) -> None:
    from analysis.cli.main import main

    t = return_table("ez", way="gli", player=Player.HOUSE_WAY, player_way="foxwoods", deck=DECK)
    assert t.house_edge == strategy_return_table("ez", "foxwoods", "gli", DECK).house_edge
    with pytest.raises(ValueError, match="blind player"):
        return_table("face-up", player=Player.BEST_RESPONSE, player_way="foxwoods", deck=DECK)
    argv = ["analyze", "traditional", "--way", "gli", "--player-way", "data/ways/foxwoods.toml",
            "--deck", DECK.name, "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    assert "foxwoods" in capsys.readouterr().out
