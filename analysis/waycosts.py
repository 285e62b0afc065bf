"""What each rule of a dealer way is worth: its hands set below the house-optimal setting and
what they cost the house, per rule and by rank pattern (the dealer-side twin of the
optimal-strategy report).

A rank pattern is a hand's seven ranks (the joker written ``Jk``), with the two settings
described by their front and the category of their back: suits only enter through straights
and flushes, which the back's category names. Figures are exact fractions of a unit bet per
deal (so a rule's cost adds directly to the house edge).

>>> from enumerate.rules import Deck
>>> from analysis.wayedge import dealer_lab
>>> deck = Deck.parse("JQKA:cdhs+joker")
>>> lab = dealer_lab("dealer-open", deck=deck, use_cache=False)
>>> rules = rule_costs(lab, "dealer-open", "gli")
>>> bool((rules["cost"] >= 0).all())
True
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.variants import Variant, get_variant
from analysis.wayedge import DealerLab, HouseOptimal, house_optimal, settings_of
from enumerate.cards import JOKER_ID, RANKS
from enumerate.evaluate import Category, five_card_table, two_card_ranks
from enumerate.houseways import HouseWay, get_way


def _gaps(lab: DealerLab, variant: Variant, way: HouseWay, opt: HouseOptimal | None
          ) -> tuple[HouseOptimal, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """(house-optimal, way's rule per class, way's row per class, gap per class): the gap is
    what the way's setting gives the player above the house-optimal one (units 1/scale)."""
    opt = opt or house_optimal(lab, variant)
    w, rows = settings_of(lab, way)
    gap = opt.values_at(rows) - opt.values
    return opt, w.rule.astype(np.int64), rows, gap


def rule_costs(lab: DealerLab, variant: Variant | str, way: HouseWay | str,
               opt: HouseOptimal | None = None) -> pd.DataFrame:  # fmt: skip
    """One row per rule of ``way``: the hands it sets, how many of them below the
    house-optimal setting, and what that costs the house (exact fraction of a bet per deal,
    and as a decimal percentage); rules in the way's order, a total row last. ``opt``: the
    variant's house-optimal dealer, if already at hand."""
    variant = get_variant(variant)
    way = get_way(way) if isinstance(way, str) else way
    opt, rule, _rows, gap = _gaps(lab, variant, way, opt)
    orbit = lab.table.orbit_size.astype(np.int64)
    n_rules = len(way.rule_names)
    hands = np.zeros(n_rules, dtype=np.int64)
    np.add.at(hands, rule, orbit)
    below = np.zeros(n_rules, dtype=np.int64)
    np.add.at(below, rule, orbit * (gap > 0))
    weighted = orbit * gap  # int64: at most 24 x 53.5 million x 2 x scale
    sums = np.zeros(n_rules, dtype=np.int64)
    np.add.at(sums, rule, weighted)
    denom = opt.scale * lab.total
    records = []
    for r, name in enumerate(way.rule_names):
        if hands[r] == 0:
            continue
        records.append({"rule": name, "hands": int(hands[r]), "below optimal": int(below[r]),
                        "cost": Fraction(int(sums[r]), denom)})  # fmt: skip
    records.append({"rule": "total", "hands": int(hands.sum()), "below optimal": int(below.sum()),
                    "cost": Fraction(int(sums.sum()), denom)})  # fmt: skip
    return pd.DataFrame(records)


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


def pattern_costs(
    lab: DealerLab, variant: Variant | str, way: HouseWay | str, top: int | None = 40,
    opt: HouseOptimal | None = None,
) -> pd.DataFrame:
    """Hands the way sets below the house-optimal setting, grouped by rank pattern and by the
    two settings (front ranks, back category), most costly first: the list a dealer trainer or
    a way designer reads. ``top`` rows (all when None)."""
    variant = get_variant(variant)
    way = get_way(way) if isinstance(way, str) else way
    opt, rule, rows, gap = _gaps(lab, variant, way, opt)
    at = np.flatnonzero(gap > 0)
    pd_ = lab.per_dealer
    five = five_card_table(lab.table.rules)
    orbit = lab.table.orbit_size.astype(np.int64)[at]
    frame = pd.DataFrame({
        "rule": rule[at],
        "pattern": _pattern_codes(lab.table.cards[at].astype(np.int64)),
        "way_low": pd_.point_low[rows[at]].astype(np.int64),
        "way_cat": five.category[pd_.point_high[rows[at]]].astype(np.int64),
        "opt_low": pd_.point_low[opt.rows[at]].astype(np.int64),
        "opt_cat": five.category[pd_.point_high[opt.rows[at]]].astype(np.int64),
        "hands": orbit,
        "cost": orbit * gap[at],
    })  # fmt: skip
    keys = ["rule", "pattern", "way_low", "way_cat", "opt_low", "opt_cat"]
    g = frame.groupby(keys, sort=False, as_index=False)[["hands", "cost"]].sum()
    g = g.sort_values(["cost", "pattern"], ascending=[False, False], kind="stable")
    if top is not None:
        g = g.head(top)
    denom = opt.scale * lab.total
    return pd.DataFrame({
        "rule": [way.rule_names[r] for r in g["rule"]],
        "hand": [_pattern_text(int(c)) for c in g["pattern"]],
        "way front": [_front_text(int(x)) for x in g["way_low"]],
        "way back": [_category(int(x)) for x in g["way_cat"]],
        "house-optimal front": [_front_text(int(x)) for x in g["opt_low"]],
        "house-optimal back": [_category(int(x)) for x in g["opt_cat"]],
        "hands": [int(x) for x in g["hands"]],
        "cost": [Fraction(int(x), denom) for x in g["cost"]],
    })  # fmt: skip
