"""A blind player who sets every hand by a card of his own (a strategy, or another casino's
house way) against a dealer who sets by the house way: the exact return table.

Where the player's setting of every class is a point of the class's frontier, the per-hand
table of the dealer's way already holds its counts (``analysis.pricing.optimal``): the table
is summed at those points, with no engine run. Where some setting is off the frontier (a
dominated setting), the pair engine counts the deals of the two ways (``pair_counts`` with a
player way). Both give the same integers; the tests check it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analysis.games.players import Player
from analysis.games.variants import Variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.optimal import blind_variant, solve_optimal, strategy_returns
from analysis.pricing.returns import ReturnTable, price
from enumerate.engine.perhand.table import PerHand
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.waytables import way_table

METHODS = ("auto", "table", "engine")


@njit(cache=True)
def point_index(offset, point_high, point_low, high, low):
    """Per class c, the index of its frontier point (``point_high``, ``point_low`` between
    ``offset[c]`` and ``offset[c + 1]``) equal to the setting (``high[c]``, ``low[c]``); -1 when
    the setting is not on the frontier."""
    n = offset.shape[0] - 1
    out = np.full(n, -1, dtype=np.int64)
    for c in range(n):
        for p in range(offset[c], offset[c + 1]):
            if point_high[p] == high[c] and point_low[p] == low[c]:
                out[c] = p
                break
    return out


def points_of(per: PerHand, high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """``point_index`` of the settings (``high``, ``low``: one per class) among the frontier
    points of the per-hand table ``per``."""
    return point_index(per.point_offset.astype(np.int64), per.point_high.astype(np.int64),
                       per.point_low.astype(np.int64), high.astype(np.int64),
                       low.astype(np.int64))  # fmt: skip


def strategy_return_table(
    variant: Variant | str,
    strategy: HouseWay | str,
    way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    method: str = "auto",
) -> ReturnTable:
    """The return table of a blind ``variant`` when the player sets by ``strategy`` (a card or
    any way) and the dealer by ``way`` (default the variant's). ``method``: "table" sums the
    per-hand table (an error when a setting is off the frontier), "engine" counts the deals,
    "auto" the table when it can."""

    if method not in METHODS:
        raise ValueError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    v = blind_variant(variant)
    dealer = way or v.house_way
    player = get_way(strategy) if isinstance(strategy, str) else strategy
    deck, rules = deck or Deck.full(), rules or Rules()
    notes = (v.description,)
    if method != "engine":
        opt = solve_optimal(v, dealer, deck, rules, use_cache)
        per = opt.per_hand
        cols = way_table(player, deck, rules, use_cache)
        points = points_of(per, cols.high, cols.low)
        off = np.flatnonzero(points < 0)
        if not len(off):
            return strategy_returns(opt, points, str(Player.HOUSE_WAY),
                                    (*notes, "priced from the per-hand table"),
                                    player.name)  # fmt: skip
        if method == "table":
            raise ValueError(f"{player.name} sets {len(off):,} classes off the frontier (a "
                             "dominated setting): the per-hand table does not hold "
                             "them")  # fmt: skip

    deal = pair_counts(deck, rules, dealer, player, v.flag_mask, use_cache)
    return price(deal, v, Player.HOUSE_WAY)
