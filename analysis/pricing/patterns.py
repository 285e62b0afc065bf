"""Hands a strategy sets below a better setting, grouped by rank pattern: the lists a player, a
dealer trainer or a way designer studies (``OptimalStrategy.by_pattern`` against optimal play,
``analysis.waylab.waycosts.pattern_costs`` against the house-optimal setting).

A rank pattern is a hand's seven ranks (the joker written ``Jk``), with the two settings
described by their front and the category of their back: suits only enter through straights
and flushes, which the back's category names.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from enumerate.cards import JOKER_ID, RANKS
from enumerate.evaluate import Category, five_card_table, two_card_ranks
from enumerate.rules import Rules


@dataclass(frozen=True)
class PatternInput:
    """Per class: its cards and orbit size, the way's rule, what the way gives up against the
    better setting (``gap``, units of ``1 / denominator`` of a unit bet per deal, weighted by
    the orbit size), and both settings' back and front ids."""

    cards: np.ndarray
    orbit: np.ndarray
    rule: np.ndarray
    rule_names: tuple[str, ...]
    gap: np.ndarray
    way_high: np.ndarray
    way_low: np.ndarray
    best_high: np.ndarray
    best_low: np.ndarray
    denominator: int


def by_pattern(x: PatternInput, rules: Rules, better: str, top: int | None = 40
               ) -> pd.DataFrame:  # fmt: skip
    """The classes where the way gives something up (``gap > 0``), grouped by rule, rank
    pattern and the two settings (front ranks, back category; suits enter only through the
    straights and flushes the categories name), most costly first: hands, what they cost (a
    fraction of a unit bet per deal: it adds to the house edge) and what one such hand gives
    up on average (per unit bet on its deals). ``better`` names the other setting
    ("optimal", "house-optimal")."""
    at = np.flatnonzero(x.gap > 0)
    five = five_card_table(rules)
    orbit = x.orbit.astype(np.int64)[at]
    frame = pd.DataFrame({
        "rule": x.rule.astype(np.int64)[at],
        "pattern": _pattern_codes(x.cards[at].astype(np.int64)),
        "way_low": x.way_low[at].astype(np.int64),
        "way_cat": five.category[x.way_high[at]].astype(np.int64),
        "opt_low": x.best_low[at].astype(np.int64),
        "opt_cat": five.category[x.best_high[at]].astype(np.int64),
        "hands": orbit,
        "cost": orbit * x.gap[at],
    })  # fmt: skip
    keys = ["rule", "pattern", "way_low", "way_cat", "opt_low", "opt_cat"]
    g = frame.groupby(keys, sort=False, as_index=False)[["hands", "cost"]].sum()
    g = g.sort_values(["cost", "pattern"], ascending=[False, False], kind="stable")
    if top is not None:
        g = g.head(top)
    # the cost is per deal of every hand: per deal of these hands, times all hands over them
    total = int(x.orbit.astype(np.int64).sum())
    per_hand = [Fraction(int(c) * total, x.denominator * int(h))
                for c, h in zip(g["cost"], g["hands"], strict=True)]  # fmt: skip
    return pd.DataFrame({
        "rule": [x.rule_names[r] for r in g["rule"]],
        "hand": [_pattern_text(int(c)) for c in g["pattern"]],
        "way front": [_front_text(int(v)) for v in g["way_low"]],
        "way back": [_category(int(v)) for v in g["way_cat"]],
        f"{better} front": [_front_text(int(v)) for v in g["opt_low"]],
        f"{better} back": [_category(int(v)) for v in g["opt_cat"]],
        "hands": [int(v) for v in g["hands"]],
        "cost": [Fraction(int(v), x.denominator) for v in g["cost"]],
        "given up per hand": per_hand,
    })  # fmt: skip


def _pattern_codes(cards: np.ndarray) -> np.ndarray:
    """The seven ranks of each hand, high to low (the joker as 13), as one integer."""
    ranks = np.where(cards == JOKER_ID, 13, cards >> 2).astype(np.int64)
    ranks = -np.sort(-ranks, axis=1)
    code = np.zeros(len(cards), dtype=np.int64)
    for i in range(7):
        code = code * 14 + ranks[:, i]
    return code


def _pattern_text(code: int) -> str:
    digits = []
    for _ in range(7):
        code, d = divmod(code, 14)
        digits.append("Jk" if d == 13 else RANKS[d].value)
    return " ".join(reversed(digits))


def _front_text(low_id: int) -> str:
    hi, lo = two_card_ranks(low_id)
    return f"{RANKS[hi].value}{RANKS[lo].value}"


def _category(cat: int) -> str:
    return Category(cat).name.lower().replace("_", " ")
