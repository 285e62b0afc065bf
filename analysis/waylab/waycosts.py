"""What each rule of a dealer way is worth: its hands set below the house-optimal setting and
what they cost the house, per rule and by rank pattern (the dealer-side twin of the
optimal-strategy report).

A rank pattern is a hand's seven ranks (the joker written ``Jk``), with the two settings
described by their front and the category of their back: suits only enter through straights
and flushes, which the back's category names. Figures are exact fractions of a unit bet per
deal (so a rule's cost adds directly to the house edge).

>>> from enumerate.rules import Deck
>>> from analysis.waylab.wayedge import dealer_lab
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

from analysis.games.variants import Variant, get_variant
from analysis.pricing.patterns import PatternInput, by_pattern
from analysis.waylab.wayedge import DealerLab, HouseOptimal, house_optimal, settings_of
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
    pd_ = lab.per_dealer
    return by_pattern(
        PatternInput(lab.table.cards, lab.table.orbit_size, rule, way.rule_names, gap,
                     pd_.point_high[rows], pd_.point_low[rows], pd_.point_high[opt.rows],
                     pd_.point_low[opt.rows], opt.scale * lab.total),
        lab.table.rules, "house-optimal", top,
    )  # fmt: skip
