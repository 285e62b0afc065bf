"""A point count from the exact tables: the chart that scores each back and each front, and
the card of one rule that sets every hand by its most points.

Pai gow pays when both hands win and takes the bet when both lose, so a setting's EV is close
to ``P(back wins) + P(front wins) - 1``: a setting is good in the measure that the sum of its
hands' chances is large. The *chance chart* (``chart``) gives each hand that chance, in
ten-thousandths, against the dealer's hands as his way sets them over every seven-card hand
of the deck (the card removal of the player's own hand left out: the chart is the same for
every hand). A chance of a back or front tied with the dealer's counts half.

Fronts are scored one by one (91 two-card hands). Backs are scored by groups
(``back_groups``): a no-pair back by its two highest cards, any other back by its category and
leading rank (a pair by its rank, two pair by the higher pair, a straight by its top). A
group's points are the mean chance of its backs, weighted by how often the dealer's way sets
them. A step whose points do not exceed the step before it (or 0) is left out.

The point count a card carries is that chart *refit* to the exact EVs (``fitted_chart``,
``analysis.derive.fit``): the same groups and fronts, their points moved to where the settings
they choose earn the most over every class, the commission and card removal included. The
card is one rule, "any hand: the setting with the most points"; the derivation
(``derive_strategy(..., base="points")``) puts derived rules before it.

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

from analysis.derive.fit import fit_points
from analysis.derive.words import card_file
from analysis.pricing.banking import COMMISSION
from analysis.pricing.optimal import OptimalStrategy, blind_variant, solve_optimal
from enumerate.cache import (
    array_digest,
    arrays_stem,
    cache_dir,
    load_or_build_arrays,
    provenance,
    require,
)
from enumerate.evaluate import HIGH_ID_BOUND, N_LOW, FiveCardTable, five_card_table
from enumerate.houseways import HouseWay
from enumerate.houseways.cards import Card as RuleCard
from enumerate.houseways.cards import card_from_text, card_way
from enumerate.houseways.points import Points, expand
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
    """Per five-card id, its group's key (see the module's text), from its key: the category
    in bits 20 up, then the ranks by count, then rank, a nibble each (a straight's order)."""
    keys = five.keys.astype(np.int64)
    cat, first = keys >> 20, (keys >> 16) & 15
    second = np.where(cat == 0, (keys >> 12) & 15, 0)
    return (cat << 8) | (first << 4) | second


def back_groups(five: FiveCardTable) -> np.ndarray:
    """Per five-card id, the index of its back group: 0, 1, ... in increasing strength (the
    ids of a group are consecutive).

    >>> g = back_groups(five_card_table())
    >>> int(g[0]), bool((np.diff(g) >= 0).all() and (np.diff(g) <= 1).all())
    (0, True)
    """
    keys = _groups(five)
    out = np.zeros(len(keys), dtype=np.int64)
    out[1:] = np.cumsum(keys[1:] != keys[:-1])
    return out


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
    """The chance chart of the dealer's way of ``opt`` (its settings of every class, each
    class weighted by its hands): see the module's text."""
    five = five_card_table(opt.table.rules)
    weight = opt.table.orbit_size.astype(np.float64)  # sums below 2^53: exact
    high = [int(x) for x in np.bincount(np.asarray(opt.way_high, dtype=np.int64), weight,
                                        minlength=five.n_ids)]  # fmt: skip
    low = [int(x) for x in np.bincount(np.asarray(opt.way_low, dtype=np.int64), weight,
                                       minlength=N_LOW)]  # fmt: skip
    p_high, p_low = _chances(high), _chances(low)
    group = back_groups(five)
    back = np.zeros(int(group[-1]) + 1, dtype=np.int64)
    for g, ids in enumerate(np.split(np.arange(five.n_ids), np.flatnonzero(np.diff(group)) + 1)):
        den = sum(high[h] for h in ids)
        mean = (sum((p_high[h] * high[h] for h in ids), Fraction(0)) / den if den
                else p_high[int(ids[0])])  # fmt: skip
        back[g] = round(mean * SCALE)
    front = np.array([round(p * SCALE) for p in p_low], dtype=np.int64)
    return _steps(five, group, back, front)


def _steps(five: FiveCardTable, group: np.ndarray, back: np.ndarray, front: np.ndarray
           ) -> Points:  # fmt: skip
    """The chart of points per back group and per front: a step where the points rise above
    the step before (a hand below the first step earns 0, so a step of 0 is left out)."""
    lowest = _lowest_hands(five)
    steps: list[tuple[tuple[int, ...], int]] = []
    for h in np.flatnonzero(np.r_[True, np.diff(group) > 0]).tolist():
        pts = int(back[group[h]])
        if pts > (steps[-1][1] if steps else 0):
            steps.append((_cards_of(int(lowest[h])), pts))
    fronts: list[tuple[int, int]] = []
    for lw in range(N_LOW):
        if int(front[lw]) > (fronts[-1][1] if fronts else 0):
            fronts.append((lw, int(front[lw])))
    return Points(tuple(steps), tuple(fronts))


def _fit_names(opt: OptimalStrategy, start: np.ndarray, values: np.ndarray,
               banker: bool) -> tuple[str, dict[str, object]]:  # fmt: skip
    """The cache stem and provenance of a fitted chart: its inputs' digests."""
    per = opt.per_hand
    parts = {"offset": per.point_offset, "high": per.point_high, "low": per.point_low,
             "values": values, "weight": opt.table.orbit_size, "start": start}
    prov = provenance(__name__, table="points-fit", rules=opt.table.rules.key, scale=SCALE,
                      banker=banker,
                      **{k: array_digest(np.asarray(v)) for k, v in parts.items()})
    return arrays_stem("points-fit", prov), prov


def _check_fit(a: dict[str, np.ndarray], groups: int) -> None:
    for side, n in (("back", groups), ("front", N_LOW)):
        v = a[side]
        require(v.shape == (n,) and v.dtype == np.int64, f"the {side} points: one per {side}")
        require(bool((np.diff(v) >= 0).all()) and int(v.min()) >= 0 and int(v.max()) <= SCALE,
                f"the {side} points rise, within 0 .. {SCALE}")


def fit_values(opt: OptimalStrategy, banker: bool = False) -> tuple[np.ndarray, int]:
    """What a fit makes the most of, per frontier point: the player's EV numerator, or for the
    ``banker`` of traditional pai gow (player banking, one opponent by the house way) his
    wins less the commission less his losses, in whole numbers; and the same summed over the
    classes at each one's best point (the span a fit's stop is measured on)."""
    weight = opt.table.orbit_size.astype(np.int64)
    if not banker:
        return np.asarray(opt.point_ev), int((weight * opt.best_ev).sum())
    if opt.variant.name != "traditional":
        raise ValueError(f"the banker's point count is for traditional pai gow (player "
                         f"banking), not {opt.variant.name}")  # fmt: skip
    bank = opt.per_hand.bank
    c = COMMISSION
    values = ((c.denominator - c.numerator) * bank[:, 0].astype(np.int64)
              - c.denominator * bank[:, 1].astype(np.int64))  # fmt: skip
    offset = np.asarray(opt.per_hand.point_offset, dtype=np.int64)
    return values, int((weight * np.maximum.reduceat(values, offset[:-1])).sum())


def fitted_chart(opt: OptimalStrategy, use_cache: bool = True, banker: bool = False) -> Points:
    """The chance chart of ``opt`` refit to its exact EVs (``analysis.derive.fit``), or with
    ``banker`` to the banker's results (``fit_values``): from the cache (verified when read)
    or fitted, and written to it."""
    five = five_card_table(opt.table.rules)
    group = back_groups(five)
    values, best_gain = fit_values(opt, banker)
    start = chart(opt)
    points = expand(start, five)
    first = np.flatnonzero(np.r_[True, np.diff(group) > 0])
    back0, front0 = points[first], points[HIGH_ID_BOUND:]
    stem, prov = _fit_names(opt, np.concatenate([back0, front0]), values, banker)

    def build() -> dict[str, np.ndarray]:
        fit = fit_points(opt.per_hand.point_offset, opt.per_hand.point_high,
                         opt.per_hand.point_low, values, opt.table.orbit_size, group, back0,
                         front0, SCALE, best_gain)  # fmt: skip
        return {"back": fit.back, "front": fit.front}

    arrays, _ = load_or_build_arrays(cache_dir() / "derive", stem, prov, build,
                                     lambda a: _check_fit(a, len(first)),
                                     "the fitted points chart", use_cache)  # fmt: skip
    return _steps(five, group, np.asarray(arrays["back"]), np.asarray(arrays["front"]))


def points_card_text(opt: OptimalStrategy, fit: bool = True, use_cache: bool = True,
                     banker: bool = False) -> str:  # fmt: skip
    """The card of one rule, the most points of ``fitted_chart(opt)`` (``fit``; with
    ``banker``, fitted to the banker's results) or of ``chart(opt)``, as a file."""
    if banker and not fit:
        raise ValueError("the chance chart is the same for the banker: only a fitted chart is "
                         "the banker's")  # fmt: skip
    v, way, deck_name = opt.variant.name, opt.house_way, opt.table.deck.name
    name = f"{v}-{'banker-points' if banker else 'points' if fit else 'chances'}-vs-{way}"
    if deck_name != "full":
        name += "-" + re.sub(r"[^a-z0-9.]+", "-", deck_name.lower()).strip("-")
    what = ("fitted to the banker's exact results" if banker else "fitted to the exact EVs"
            if fit else "each hand's chance to beat the dealer's")  # fmt: skip
    title = f"point count for {'the banker of ' if banker else ''}{v} against {way}: {what}"
    flag = " --banker" if banker else "" if fit else " --chances"
    source = (f"paigow derive points {v} --way {way}{flag} (deck {deck_name}): the chart of "
              "analysis.derive.points from the exact tables")  # fmt: skip
    earn = ("the banker earns the most against an opponent who sets by " + way if banker
            else "they choose earn the most")  # fmt: skip
    notes = (f"Points: a back's or a front's chance, in {SCALE:,}ths, to beat the dealer's "
             f"hand of its size as {way} sets them over every hand of the deck (ties half)"
             + (f", then each group's and front's points moved to where the settings {earn}, "
                "exactly, over every hand of the deck" if fit else "")
             + ". Backs by groups (no pair: its two highest cards; any other: its category and "
             "leading rank), fronts one by one.")
    five = five_card_table(opt.table.rules)
    points = fitted_chart(opt, use_cache, banker) if fit else chart(opt)
    return (card_file(name, "strategy", title, source, notes, [RULE]) + "\n"
            + points.toml(five))  # fmt: skip


def points_card(variant: str = "traditional", way: str | None = None,
                deck: Deck | None = None, rules: Rules | None = None,
                use_cache: bool = True, opt: OptimalStrategy | None = None,
                fit: bool = True, banker: bool = False) -> RuleCard:  # fmt: skip
    """The point-count card of a blind ``variant`` against the dealer's ``way`` (default the
    variant's), read and checked as a card: the fitted chart, with ``banker`` the one fitted
    for the player who banks, or with ``fit=False`` the chance chart."""
    v = blind_variant(variant)
    opt = opt or solve_optimal(v, way or v.house_way, deck, rules, use_cache)
    return card_from_text(points_card_text(opt, fit, use_cache, banker),
                          f"points card of {v.name}")  # fmt: skip


def points_way(variant: str = "traditional", way: str | None = None,
               deck: Deck | None = None, rules: Rules | None = None,
               use_cache: bool = True, opt: OptimalStrategy | None = None,
               fit: bool = True, banker: bool = False) -> HouseWay:  # fmt: skip
    """``points_card`` as a registered way: it prices like any card."""
    return register(card_way(points_card(variant, way, deck, rules, use_cache, opt, fit,
                                         banker)))  # fmt: skip
