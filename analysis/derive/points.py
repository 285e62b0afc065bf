"""A point count from the exact tables: the chart that scores each back and each front by the
chance that it beats the dealer's hand of its size.

Pai gow pays when both hands win and takes the bet when both lose, so a setting's EV is close
to ``P(back wins) + P(front wins) - 1``: a setting is good in the measure that the sum of its
hands' chances is large. The chart (``enumerate.houseways.points``) gives each hand that
chance, in ten-thousandths, against the dealer's hands as his way sets them over every
seven-card hand of the deck (the card removal of the player's own hand left out: the chart is
the same for every hand). A chance of a back or front tied with the dealer's counts half.

Fronts are scored one by one (91 two-card hands). Backs are scored by groups: a no-pair back
by its two highest cards, a pair by its rank and highest kicker, any other back by its
category and leading rank (two pair by the higher pair, a straight by its top). A group's
points are the mean chance of its backs, weighted by how often the dealer's way sets them. A step
whose points do not exceed the step before it is left out. The card is one rule, "any hand:
the setting with the most points"; the derivation (``derive_strategy(..., base="points")``)
puts derived rules before it.

>>> from enumerate.rules import Deck
>>> card = points_card("traditional", "gli", deck=Deck.parse("23569JQA:cd+joker"),
...                    use_cache=False)
>>> card.name, card.points is not None and len(card.points.front) > 10
('traditional-points-vs-gli-23569jqa-cd-joker', True)
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np

from analysis.derive.words import card_file
from analysis.pricing.optimal import OptimalStrategy, blind_variant, solve_optimal
from enumerate.evaluate import N_LOW, FiveCardTable, five_card_table
from enumerate.houseways import HouseWay
from enumerate.houseways.cards import Card as RuleCard
from enumerate.houseways.cards import card_from_text, card_way
from enumerate.houseways.points import Points
from enumerate.houseways.registry import register
from enumerate.rules import Deck, Rules

SCALE = 10_000  # points of a hand that beats every dealer's hand
RULE = ("P", "any hand: the setting with the most points", "", "most points", None)


def _chances(counts: list[int]) -> list[Fraction]:
    """Per id, the chance that a dealer's hand of the ``counts`` is below it, ties half."""
    total = sum(counts)
    out, below = [], 0
    for c in counts:
        out.append(Fraction(2 * below + c, 2 * total))
        below += c
    return out


def _groups(five: FiveCardTable) -> np.ndarray:
    """Per five-card id, its group (see the module's text), from its key: the category in
    bits 20 up, then the ranks by count, then rank, a nibble each (a straight's order)."""
    keys = five.keys.astype(np.int64)
    cat, first = keys >> 20, (keys >> 16) & 15
    second = np.select([cat == 0, cat == 1], [(keys >> 12) & 15, (keys >> 8) & 15], 0)
    return (cat << 8) | (first << 4) | second


def _lowest_hands(five: FiveCardTable) -> np.ndarray:
    """Per five-card id, the colex index of a hand of five cards with that id."""
    ids, first = np.unique(five.ids, return_index=True)
    out = np.full(five.n_ids, -1, dtype=np.int64)
    out[ids] = first
    return out


def _cards_of(colex: int) -> tuple[int, ...]:
    """The five card ids of a colex index (the inverse of ``colex5``)."""
    from math import comb

    out = []
    for k in range(5, 0, -1):
        c = k - 1
        while comb(c + 1, k) <= colex:
            c += 1
        out.append(c)
        colex -= comb(c, k)
    return tuple(sorted(out))


def chart(opt: OptimalStrategy) -> Points:
    """The points chart of the dealer's way of ``opt`` (its settings of every class, each
    class weighted by its hands): see the module's text."""
    five = five_card_table(opt.table.rules)
    weight = opt.table.orbit_size.astype(np.float64)  # sums below 2^53: exact
    high = [int(x) for x in np.bincount(np.asarray(opt.way_high, dtype=np.int64), weight,
                                        minlength=five.n_ids)]  # fmt: skip
    low = [int(x) for x in np.bincount(np.asarray(opt.way_low, dtype=np.int64), weight,
                                       minlength=N_LOW)]  # fmt: skip
    p_high, p_low = _chances(high), _chances(low)
    groups = _groups(five).tolist()
    lowest = _lowest_hands(five)
    back: list[tuple[tuple[int, ...], int]] = []
    h = 0
    while h < five.n_ids:
        end = h
        num, den = Fraction(0), 0
        while end < five.n_ids and groups[end] == groups[h]:
            num += p_high[end] * high[end]
            den += high[end]
            end += 1
        mean = num / den if den else p_high[h]
        pts = round(mean * SCALE)
        if not back or pts > back[-1][1]:
            back.append((_cards_of(int(lowest[h])), pts))
        h = end
    front: list[tuple[int, int]] = []
    for lw in range(N_LOW):
        pts = round(p_low[lw] * SCALE)
        if not front or pts > front[-1][1]:
            front.append((lw, pts))
    return Points(tuple(back), tuple(front))


def points_card_text(opt: OptimalStrategy) -> str:
    """The card of one rule, the most points of ``chart(opt)``, as a file."""
    v, way, deck_name = opt.variant.name, opt.house_way, opt.table.deck.name
    name = f"{v}-points-vs-{way}"
    if deck_name != "full":
        name += "-" + re.sub(r"[^a-z0-9.]+", "-", deck_name.lower()).strip("-")
    title = f"point count for {v} against {way}: each hand's chance to beat the dealer's"
    source = (f"paigow derive points {v} --way {way} (deck {deck_name}): the chart of "
              "analysis.derive.points from the exact tables")  # fmt: skip
    notes = (f"Points: a back's or a front's chance, in {SCALE:,}ths, to beat the dealer's "
             f"hand of its size as {way} sets them over every hand of the deck (ties half). "
             "Backs by groups (no pair: its two highest cards; a pair: its rank and highest "
             "kicker; any other: its category and leading rank), fronts one by one.")
    five = five_card_table(opt.table.rules)
    return (card_file(name, "strategy", title, source, notes, [RULE]) + "\n"
            + chart(opt).toml(five))  # fmt: skip


def points_card(variant: str = "traditional", way: str | None = None,
                deck: Deck | None = None, rules: Rules | None = None,
                use_cache: bool = True, opt: OptimalStrategy | None = None) -> RuleCard:
    """The point-count card of a blind ``variant`` against the dealer's ``way`` (default the
    variant's), read and checked as a card."""
    v = blind_variant(variant)
    opt = opt or solve_optimal(v, way or v.house_way, deck, rules, use_cache)
    return card_from_text(points_card_text(opt), f"points card of {v.name}")


def points_way(variant: str = "traditional", way: str | None = None,
               deck: Deck | None = None, rules: Rules | None = None,
               use_cache: bool = True, opt: OptimalStrategy | None = None) -> HouseWay:
    """``points_card`` as a registered way: it prices like any card."""
    return register(card_way(points_card(variant, way, deck, rules, use_cache, opt)))
