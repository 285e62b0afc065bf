"""Derived rule cards: the player strategy of k rules and the dealer's way of k rules that gain
the most over a base card, found from the exact tables and priced exactly (docs/derive.md).

- ``derive_strategy``: a blind game's player (traditional, ez, commission-free) against a
  dealer's way. The value of a setting is its exact EV from the per-hand table
  (``analysis.pricing.optimal``); the base is a card the player already knows (default the
  dealer's way, played as a strategy); the limit is optimal play.
- ``derive_way``: the dealer of a game (face-up and dealer-open against best-responding
  players, or a blind game against players who set by a way). The value of a dealer setting is
  what the player gets against it, from the per-dealer table (``analysis.waylab.wayedge``); the
  base is a casino way (default the game's); the limit is the house-optimal ceiling.

A card of k rules is k derived rules tried before the base card's own rules: what a player or
a dealer who knows the base card has to learn. The search (``search.grow``) adds one rule at a
time, the one of greatest exact gain, at any place in the list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from analysis.derive.classes import DOMAIN, FRONTS, ClassChoices, class_choices
from analysis.derive.points import points_way
from analysis.derive.search import SEARCHES, KeyTable, Search, Step, first_rule, grow
from analysis.derive.words import card_file, condition_text, condition_words, front_words
from analysis.games.variants import get_variant
from analysis.pricing.optimal import blind_variant, solve_optimal
from analysis.pricing.patterns import PatternInput, by_pattern
from analysis.pricing.strategy import points_of
from analysis.render.formats import decimal, markdown, to_json
from analysis.render.notebook import ShowsAsHtml
from analysis.waylab.wayedge import Pricing, dealer_lab, house_optimal, settings_of
from enumerate.evaluate import five_card_table
from enumerate.houseways import HouseWay, get_way
from enumerate.houseways.cards import CardRule, card_from_text, card_way
from enumerate.houseways.points import Points
from enumerate.houseways.registry import register
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable
from enumerate.waytables import WayTable, way_table

if TYPE_CHECKING:
    import pandas as pd

    from analysis.pricing.optimal import OptimalStrategy
    from analysis.waylab.wayedge import DealerLab, HouseOptimal

SIDES = ("strategy", "way")
MAX_RULES = 30
POINTS_BASE = "points"  # the base named so: the point count against the dealer's way


@njit(cache=True)
def _add_gains(lo, hi, key, loc, offset, value, base_value, orbit, sign, gains, bad):
    """Into ``gains`` and ``bad`` (per key and front), for classes ``lo <= c < hi``: the
    summed gain of its classes (``sign`` x orbit x (value of the front's point - value of the
    base)), and whether the front is unusable on one of them."""
    n_fronts = loc.shape[1]
    for c in range(lo, hi):
        k = key[c]
        w = sign * np.int64(orbit[c])
        for j in range(n_fronts):
            p = loc[c, j]
            if p < 0:
                bad[k, j] = True
            else:
                gains[k, j] += w * (value[offset[c] + p] - base_value[c])


def _gains(choices: ClassChoices, loc: np.ndarray, offset: np.ndarray, value: np.ndarray,
           base_value: np.ndarray, orbit: np.ndarray, sign: int
           ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per key and front: the summed gain of its classes and whether the front is unusable on
    one of them (``_add_gains``), a slice of classes at a time, each slice's pages of the
    choices given back after it (they are read again only by a card's settings)."""
    gains = np.zeros((choices.n_keys, loc.shape[1]), dtype=np.int64)
    bad = np.zeros(gains.shape, dtype=np.bool_)
    choices.by_slices(_add_gains, choices.key, loc, offset, value, base_value, orbit, sign,
                      gains, bad)  # fmt: skip
    return gains, bad


@njit(cache=True)
def _card_settings(lo, hi, first, key, fronts, loc, offset, point_high, point_low, value,
                   base_rule, rule, high, low, base_value, out_rule, out_high, out_low,
                   out_value):  # fmt: skip
    """For classes ``lo <= c < hi``: the rule that sets it (``first[key]``, the position of
    the derived rule of its key, or the base card's rule renumbered by ``base_rule``), the
    setting's back and front ids and the player's value."""
    n_rules = fronts.shape[0]
    for c in range(lo, hi):
        r = first[key[c]]
        if r < n_rules:
            p = offset[c] + loc[c, fronts[r]]
            out_rule[c] = r
            out_high[c] = point_high[p]
            out_low[c] = point_low[p]
            out_value[c] = value[p]
        else:
            out_rule[c] = base_rule[rule[c]]
            out_high[c] = high[c]
            out_low[c] = low[c]
            out_value[c] = base_value[c]


@dataclass(frozen=True, eq=False)
class Exact:
    """What a derivation reads, per class of the deck: the value of each of its settings (the
    player's exact EV numerators, or what the player gets against a dealer setting), the base
    card's setting and value, and the limit's (optimal play or the house-optimal dealer)."""

    table: HandTable
    offset: np.ndarray  # (n + 1,) the class's settings at offset[c] .. offset[c + 1]
    point_high: np.ndarray
    point_low: np.ndarray
    value: np.ndarray  # (P,) int64 the player's value of every setting
    base_value: np.ndarray  # (n,) int64
    base: WayTable  # the base card's settings and rules
    limit_value: np.ndarray  # (n,) int64
    limit_point: np.ndarray  # (n,) int64 the limit's setting, a point index
    choices: ClassChoices
    loc: np.ndarray  # (n, fronts) int8 each front's setting among the class's points


@dataclass(frozen=True, eq=False)
class Derivation(ShowsAsHtml):
    """The cards of 1 .. k rules over a base card, and their exact house edges."""

    side: str  # "strategy" (the player's card) or "way" (the dealer's)
    game: str
    deck: str
    against: str  # the dealer's way (strategy) or the players (way)
    base: HouseWay
    base_edge: Fraction  # the base card's house edge
    limit_edge: Fraction  # optimal play (strategy) or the house-optimal ceiling (way)
    steps: tuple[Step, ...]
    scale: int  # a gain over scale is a change of the house edge
    exact: Exact  # the exact tables it was derived from
    search: str = "greedy"  # how it searched (``search.SEARCHES``)

    @property
    def keys(self) -> int:
        """Distinct fact vectors: the hands a condition can tell apart."""
        return self.exact.choices.n_keys

    @property
    def sign(self) -> int:
        """+1 where a gain raises the house edge (the dealer's card), -1 where it lowers it."""
        return 1 if self.side == "way" else -1

    def edge(self, k: int) -> Fraction:
        """The exact house edge of the card of ``k`` rules (0: the base)."""
        gain = self.steps[k - 1].gain if k else 0
        return self.base_edge + self.sign * Fraction(gain, self.scale)

    def share(self, k: int) -> Fraction:
        """The part of the possible gain (base to limit) the card of ``k`` rules takes."""
        span = self.limit_edge - self.base_edge
        return (self.edge(k) - self.base_edge) / span if span else Fraction(1)

    def rules_for(self, share: float) -> int | None:
        """The fewest rules that take ``share`` of the possible gain (None: no card found)."""
        for k in range(len(self.steps) + 1):
            if self.share(k) >= share:
                return k
        return None

    def beats(self, edge: Fraction) -> int | None:
        """The fewest rules whose card is better than a card of house edge ``edge`` for its
        side (a higher edge for the dealer, a lower for the player); None: none found."""
        for k in range(len(self.steps) + 1):
            if self.sign * (self.edge(k) - edge) > 0:
                return k
        return None

    def beating(self, edges: dict[str, Fraction]) -> list[str]:
        """For each other card (its name and house edge in this game), the smallest derived
        card that beats it, in words."""
        k = len(self.steps)
        out = []
        for name, edge in edges.items():
            n = self.beats(edge)
            found = ("1 rule" if n == 1 else f"{n} rules") if n is not None else (
                f"none within {k} rules")  # fmt: skip
            out.append(f"{name} ({float(edge) * 100:.4f}%): {found}")
        return out

    def rule_lines(self, k: int) -> list[tuple[str, str, str]]:
        """The derived rules of the card of ``k`` rules: (words, when, front)."""
        out = []
        for rule in self.steps[k - 1].rules if k else ():
            front = FRONTS[rule.front]
            words = f"{condition_words(rule.literals)}: {front_words(front)}"
            out.append((words, condition_text(rule.literals), front))
        return out

    @cached_property
    def base_chart(self) -> Points | None:
        """The base card's points chart (a point count's), if it has one."""
        return card_from_text(self.base.text, self.base.name, every_reading=False).points

    @cached_property
    def _base_rules(self) -> list[tuple[str, str, str, str, str | None]]:
        return base_rules(self.base)

    def name(self, k: int) -> str:
        """The card's way name: ``traditional-strategy-12-vs-gli``, ``face-up-way-7`` (with
        the base when it is another card, and the deck when it is not the full one)."""
        def plain(text: str) -> str:
            return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-")

        if self.side == "strategy":
            name = f"{self.game}-strategy-{k}-vs-{plain(self.against)}"
            usual = self.against
        else:
            name = f"{self.game}-way-{k}"
            if self.against.startswith("players by "):
                name += f"-vs-{plain(self.against.removeprefix('players by '))}"

            usual = get_variant(self.game).house_way
        if self.base.name != usual:
            name += f"-over-{plain(self.base.name)}"
        if self.search != "greedy":
            name += f"-{self.search}"
        return name if self.deck == "full" else f"{name}-{plain(self.deck)}"

    def card_text(self, k: int) -> str:
        """The card of ``k`` rules as a rule-card file: the derived rules, then the base's."""
        side = ("player strategy for " if self.side == "strategy" else "dealer's way for ")
        title = (f"derived {side}{self.game} against {self.against}: {k} rules before "
                 f"{self.base.name}")  # fmt: skip
        option = "" if self.search == "greedy" else f" --search {self.search}"
        source = (f"paigow derive {self.side} {self.game} --rules {k}{option} (deck "
                  f"{self.deck}): the {self.search} exact search of docs/derive.md")  # fmt: skip
        notes = (f"House edge {float(self.edge(k)) * 100:.4f}% (exact: {self.edge(k)}); the "
                 f"base card {self.base.name} alone: {float(self.base_edge) * 100:.4f}%; "
                 f"the limit: {float(self.limit_edge) * 100:.4f}%. Rules D1-D{k} are the "
                 f"derived ones; the others are {self.base.name}'s, as printed.")  # fmt: skip
        rules = [(f"D{i + 1}", words, when, front, None)
                 for i, (words, when, front) in enumerate(self.rule_lines(k))]  # fmt: skip
        kind = "strategy" if self.side == "strategy" else "house way"
        text = card_file(self.name(k), kind, title, source, notes, [*rules, *self._base_rules])
        if self.base_chart is None:
            return text
        return f"{text}\n{self.base_chart.toml(five_card_table(self.exact.table.rules))}"

    def card(self, k: int) -> HouseWay:
        """The card of ``k`` rules as a registered way: it prices like any card."""
        return register(card_way(card_from_text(self.card_text(k), self.name(k))))

    def posted(self, k: int) -> str:
        """The card of ``k`` rules as a casino posts it: the derived rules in words, numbered,
        then the base card."""
        who = "Player strategy" if self.side == "strategy" else "House way"
        lines = [f"{who}, {self.game} (against {self.against}): {k} rules, then "
                 f"{self.base.name}", ""]  # fmt: skip
        for i, (words, _, _) in enumerate(self.rule_lines(k), 1):
            lines.append(f"D{i}. {words[0].upper()}{words[1:]}.")
        lines += [f"Any other hand: set it by {self.base.name}.", "",
                  f"House edge {float(self.edge(k)) * 100:.4f}% (the base card "
                  f"{float(self.base_edge) * 100:.4f}%, the limit "
                  f"{float(self.limit_edge) * 100:.4f}%)."]  # fmt: skip
        return "\n".join(lines) + "\n"

    def rule_names(self, k: int) -> tuple[str, ...]:
        """The rule names of the card of ``k`` rules, as its way table names them."""
        derived = [CardRule(f"D{i}", words, "", "").name
                   for i, (words, _, _) in enumerate(self.rule_lines(k), 1)]  # fmt: skip
        return tuple(dict.fromkeys([*derived, *self.exact.base.rule_names]))

    def settings(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per class, how the card of ``k`` rules sets it, from the derivation's own tables:
        (rule index into ``rule_names(k)``, back id, front id, the player's value)."""
        x = self.exact
        rules = self.steps[k - 1].rules if k else ()
        names = self.rule_names(k)
        base_rule = np.array([names.index(n) for n in x.base.rule_names], dtype=np.int64)
        first = covers(self, k)
        fronts = np.array([r.front for r in rules], dtype=np.int64)
        n = len(x.choices.key)
        out = (np.empty(n, dtype=np.int64), np.empty(n, dtype=x.base.high.dtype),
               np.empty(n, dtype=x.base.low.dtype), np.empty(n, dtype=np.int64))
        x.choices.by_slices(_card_settings, first, x.choices.key, fronts, x.loc, x.offset,
                            x.point_high, x.point_low, x.value, base_rule, x.base.rule,
                            x.base.high, x.base.low, x.base_value, *out)  # fmt: skip
        return out

    def still_worse(self, k: int, top: int | None = 20) -> pd.DataFrame:
        """The hands the card of ``k`` rules still sets worse than the limit (optimal play or
        the house-optimal setting), by rank pattern and the two settings, most given up
        first (``analysis.waylab.waycosts.by_pattern``)."""

        x = self.exact
        rule, high, low, value = self.settings(k)
        gap = -self.sign * (x.limit_value - value)  # what the card gives up, >= 0
        limit = "optimal" if self.side == "strategy" else "house-optimal"
        return by_pattern(PatternInput(x.table.cards, x.table.orbit_size, rule,
                                       self.rule_names(k), gap, high, low,
                                       x.point_high[x.limit_point], x.point_low[x.limit_point],
                                       self.scale), x.table.rules, limit, top)  # fmt: skip

    def curve(self) -> pd.DataFrame:
        """Per number of rules: the exact house edge, the share of the possible gain and the
        rule that step added."""
        import pandas as pd

        rows = []
        for k in range(len(self.steps) + 1):
            added = ""
            if k:
                new = set(self.steps[k - 1].rules) - set(self.steps[k - 2].rules if k > 1 else ())
                rule = next(iter(new))
                added = (f"{condition_words(rule.literals)}: "
                         f"{front_words(FRONTS[rule.front])}")  # fmt: skip
            rows.append({"rules": k, "house edge": self.edge(k), "share of gain": self.share(k),
                         "added": added})  # fmt: skip
        return pd.DataFrame(rows)

    def summary(self) -> list[str]:
        """The key points: the base, the limit and the rules for 50%, 90%, 99% of the gain."""
        limit = "optimal play" if self.side == "strategy" else "the house-optimal ceiling"
        lines = [
            f"base {self.base.name}: house edge {float(self.base_edge) * 100:.4f}%",
            f"{limit}: house edge {float(self.limit_edge) * 100:.4f}%",
        ]
        for share in (0.5, 0.9, 0.99):
            k = self.rules_for(share)
            lines.append(f"{share:.0%} of the gain: " + (
                f"{'1 rule' if k == 1 else f'{k} rules'} ({float(self.edge(k)) * 100:.4f}%)"
                if k is not None
                else f"not within {len(self.steps)} rules"))  # fmt: skip
        return lines

    def render(self, fmt: str = "md") -> str:
        """The curve (md, csv or json) with the summary lines."""

        curve = self.curve()
        if fmt == "json":
            return to_json({
                "side": self.side, "game": self.game, "deck": self.deck,
                "against": self.against, "base": self.base.name,
                "base_edge": self.base_edge, "limit_edge": self.limit_edge,
                "curve": [{"rules": int(r["rules"]), "house_edge": r["house edge"],
                           "added": r["added"]} for _, r in curve.iterrows()],
                "cards": {str(k): self.card_text(k) for k in range(1, len(self.steps) + 1)},
            }) + "\n"  # fmt: skip
        curve["house edge"] = [decimal(x, 8) for x in curve["house edge"]]
        curve["share of gain"] = [f"{float(x):.1%}" for x in curve["share of gain"]]
        if fmt == "csv":
            return curve.to_csv(index=False)
        if fmt != "md":
            raise ValueError(f"format {fmt!r}: expected md, csv or json")
        head = (f"Derived {'player strategy' if self.side == 'strategy' else 'dealer way'}, "
                f"{self.game}, against {self.against}, deck {self.deck}")  # fmt: skip
        return "  \n".join([head, *self.summary()]) + "\n\n" + markdown(curve) + "\n"


def base_rules(way: HouseWay) -> list[tuple[str, str, str, str, str | None]]:
    """A rule card's rules under the way's reading, as (id, text, when, front, back) with every
    quoted clause replaced: they go into a derived card as the base, after the derived rules."""
    if way.program is None or not way.text:
        raise ValueError(f"the base {way.name!r} is not a rule card (a module way)")
    card = card_from_text(way.text, way.name, every_reading=False)
    reading = dict(way.reading) or dict(card.default)
    out = []
    for i, (r, (when, front, back)) in enumerate(zip(card.rules, card.resolved(reading),
                                                     strict=True)):  # fmt: skip
        text = card.quote(r.text, "text", reading, f"{way.name}: rule {i + 1}")
        out.append((r.id, text, when, front, back))
    return out


def _keys(choices: ClassChoices, gains: np.ndarray, bad: np.ndarray) -> KeyTable:
    return KeyTable(choices.facts.astype(np.int8), gains, bad, DOMAIN[:, 0].copy(),
                    DOMAIN[:, 1].copy())  # fmt: skip


def derive_strategy(
    variant: str = "traditional",
    way: str | None = None,
    max_rules: int = MAX_RULES,
    base: HouseWay | str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    opt: OptimalStrategy | None = None,
    search: str = "greedy",
) -> Derivation:
    """The player's cards of 1 .. ``max_rules`` rules for a blind ``variant`` against the
    dealer's ``way`` (default the variant's), over the card ``base`` (default that way).
    ``opt``: the variant's optimal strategy, if at hand; ``search``: one of
    ``search.SEARCHES``. ``base="points"``: the point count of ``points.points_card`` against
    that way."""
    how = _search(search)
    v = blind_variant(variant)
    dealer = way or v.house_way
    opt = opt or solve_optimal(v, dealer, deck, rules, use_cache)
    per, table = opt.per_hand, opt.table
    if base == POINTS_BASE:
        base_way = points_way(v.name, dealer, opt=opt)
    else:
        base_way = get_way(base) if isinstance(base, str) else (base or get_way(dealer))
    cols = way_table(base_way, table.deck, table.rules, use_cache)
    if base_way.key == get_way(dealer).key:
        base_ev = opt.way_ev
    else:
        points = points_of(per, cols.high, cols.low)
        off = int((points < 0).sum())
        if off:
            raise ValueError(f"the base {base_way.name} sets {off:,} classes off the frontier "
                             "(a dominated setting): the per-hand table cannot price "
                             "it")  # fmt: skip
        base_ev = opt.point_ev[points]
    offset = np.asarray(per.point_offset, dtype=np.int64)  # no copy of an int64 array
    choices = class_choices(table, (offset, per.point_high, per.point_low), use_cache)
    loc = choices.on(offset, per.point_high, per.point_low)
    base_ev = np.asarray(base_ev, dtype=np.int64)
    gains, bad = _gains(choices, loc, offset, opt.point_ev, base_ev, table.orbit_size, 1)
    steps = grow(_keys(choices, gains, bad), max_rules, search=how)
    scale = opt.denominator * opt.dealer_hands * table.total
    base_edge = -Fraction(int((table.orbit_size.astype(np.int64) * base_ev).sum()), scale)
    exact = Exact(table, offset, per.point_high, per.point_low, opt.point_ev, base_ev, cols,
                  opt.best_ev, opt.best_point, choices, loc)  # fmt: skip
    return Derivation("strategy", v.name, table.deck.name, dealer, base_way, base_edge,
                      opt.house_edge(True), tuple(steps), scale, exact, search)  # fmt: skip


def derive_way(
    variant: str = "face-up",
    max_rules: int = MAX_RULES,
    base: HouseWay | str | None = None,
    player: str | None = None,
    player_way: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    lab: DealerLab | None = None,
    ceiling: HouseOptimal | None = None,
    search: str = "greedy",
) -> Derivation:
    """The dealer's cards of 1 .. ``max_rules`` rules for ``variant`` over the card ``base``
    (default the variant's way), against its players (``player``: best response in the exposed
    games; blind players by ``player_way``, default the variant's way, in the others).
    ``lab``: its per-dealer table, and ``ceiling`` the game's house-optimal dealer on it, if
    at hand. ``search``: one of ``search.SEARCHES``."""

    how = _search(search)
    v = get_variant(variant)
    if ceiling is not None:
        lab = ceiling.lab
        if ceiling.pricing.key != Pricing.of(v).key:
            raise ValueError(f"the house-optimal dealer given is not {v.name}'s")
    lab = lab or dealer_lab(v, player, player_way, deck, rules, use_cache)
    ceiling = ceiling or house_optimal(lab, v)
    pd_ = lab.per_dealer
    table = lab.table
    base_way = get_way(base) if isinstance(base, str) else (base or get_way(v.house_way))
    cols, base_rows = settings_of(lab, base_way)
    offset = np.asarray(pd_.point_offset, dtype=np.int64)
    value = ceiling.point_values()
    choices = class_choices(table, (offset, pd_.point_high, pd_.point_low), use_cache)
    loc = choices.on(offset, pd_.point_high, pd_.point_low)  # the frontier's, no other
    gains, bad = _gains(choices, loc, offset, value, value[base_rows], table.orbit_size, -1)
    steps = grow(_keys(choices, gains, bad), max_rules, search=how)
    against = ("best-responding players" if lab.player_way is None
               else f"players by {lab.player_way}")  # fmt: skip
    exact = Exact(table, offset, pd_.point_high, pd_.point_low, value, value[base_rows], cols,
                  ceiling.values, ceiling.rows, choices, loc)  # fmt: skip
    return Derivation("way", v.name, table.deck.name, against, base_way,
                      ceiling.edge_of(base_rows), ceiling.house_edge, tuple(steps),
                      ceiling.scale * lab.total, exact, search)  # fmt: skip


def _search(name: str) -> Search:
    if name not in SEARCHES:
        raise ValueError(f"search {name!r}: expected one of {', '.join(SEARCHES)}")
    return SEARCHES[name]


def covers(derivation: Derivation, k: int) -> np.ndarray:
    """Per key of the derivation, the position of the derived rule that sets it in the card
    of ``k`` rules (``k``: the base sets it)."""
    return first_rule(derivation.exact.choices.facts, derivation.steps[k - 1].rules if k else ())
