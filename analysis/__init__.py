"""Exact pai gow poker analysis: the public API.

Everything a notebook or a script needs is importable from here::

    from analysis import Player, return_table, side_bet, optimal_strategy

    t = return_table("face-up", way="trump-plaza", player=Player.BEST_RESPONSE)
    t                # in Jupyter: the report's HTML table with its summary
    t.house_edge     # an exact Fraction
    t.table          # a DataFrame with the exact columns

The functions live in ``analysis.api`` (their docstrings say what each returns); they are
imported on first use, so that ``import analysis`` (and the command line) stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analysis.api import (
        Deck,
        Player,
        Rules,
        banking,
        best_settings,
        compare_tables,
        compare_ways,
        decimal,
        dominated_settings,
        envy_by_table,
        envy_table,
        five_card_name,
        hand,
        house_optimal_edge,
        house_ways,
        optimal_strategy,
        parse_cards,
        paytable,
        paytables,
        return_table,
        set_hand,
        seven_card_classes,
        side_bet,
        side_bets,
        two_card_name,
        variants,
        verify,
        way_costs,
        way_edge,
    )

__all__ = [
    "Deck",
    "Player",
    "Rules",
    "banking",
    "best_settings",
    "compare_tables",
    "compare_ways",
    "decimal",
    "dominated_settings",
    "envy_by_table",
    "envy_table",
    "five_card_name",
    "hand",
    "house_optimal_edge",
    "house_ways",
    "optimal_strategy",
    "parse_cards",
    "paytable",
    "paytables",
    "return_table",
    "set_hand",
    "seven_card_classes",
    "side_bet",
    "side_bets",
    "two_card_name",
    "variants",
    "verify",
    "way_costs",
    "way_edge",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("analysis.api"), name)
    raise AttributeError(f"module 'analysis' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
