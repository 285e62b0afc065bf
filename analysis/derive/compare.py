"""Strategies side by side: what each way of setting the player's hands is worth, exactly.

A blind player of traditional pai gow may set by the house way (played as a strategy), by a
written strategy (a card of ``data/strategies``, or any card), by a derived card of k rules
(``analysis.derive``) or optimally. For each, two figures against the dealer's house way:

- the **house edge** when he plays against the dealer (his table of the blind variant);
- in traditional, the **banker's edge** when he banks against one opponent who sets by the
  house way (``analysis.pricing.banking``: copies to the banker, 5% commission on his net
  win; negative: the banker's advantage), his hands set by the same strategy.

Both come from the optimal strategy's per-hand table: a strategy that sets every class on a
frontier point is priced by summing the table at its points (the player's EV numerators and
the banker's counts, ``PerHand.bank``). A strategy with a dominated setting somewhere is
priced by the pair engine instead (the player by ``strategy_return_table``, the banker as the
dealer of a deal counted with the opponent's way as the player's). Every figure is an exact
fraction.

>>> from enumerate.rules import Deck
>>> deck = Deck.parse("9TJQKA:cdh+joker")
>>> t = compare_strategies("traditional", "gli", ["trump-plaza"], deck=deck)
>>> [r.name for r in t.rows]
['gli (house way)', 'trump-plaza', 'optimal']
>>> t.rows[0].edge >= t.rows[-1].edge
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import ClassVar

import numpy as np

from analysis.derive.derive import Derivation
from analysis.derive.points import points_way
from analysis.pricing.banking import COMMISSION, banker_counts
from analysis.pricing.counts import pair_counts
from analysis.pricing.optimal import OptimalStrategy, blind_variant, solve_optimal
from analysis.pricing.strategy import points_of, strategy_return_table
from analysis.render.formats import markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.houseways import HouseWay, get_way
from enumerate.paths import data_dir
from enumerate.rules import Deck, Rules
from enumerate.waytables import way_table

STRATEGY_DIR = data_dir() / "strategies"
DERIVED_SIZES = (5, 12, 30)  # the derived cards a comparison shows, when derived that far
POINT_SIZES = (11, 29)  # the derived cards over the point count it shows: 12, 30 rules in all


def shipped_strategies() -> list[Path]:
    """The written strategies' cards of ``data/strategies``."""
    return sorted(STRATEGY_DIR.glob("*.toml"))


@dataclass(frozen=True)
class StrategyRow:
    """One way of setting the player's hands and what it is worth."""

    name: str
    kind: str  # "house way", "written", "point count", "derived" or "optimal"
    rules: int | None  # the rules a player learns (None: optimal play, a table per hand)
    source: str
    edge: Fraction  # the house edge against the dealer
    share: Fraction  # of the gain from the house way to optimal play
    banker_edge: Fraction | None  # the banker's house edge, one on one (traditional)


@dataclass(frozen=True)
class StrategyTable(ShowsAsHtml):
    """Strategies of one blind game against one dealer's way, best last."""

    COLUMNS: ClassVar[tuple[str, ...]] = ("strategy", "kind", "rules", "house edge",
                                          "share of optimal's gain", "banker's edge")

    game: str
    way: str
    deck: str
    rows: tuple[StrategyRow, ...]

    def _cells(self) -> list[list[str]]:
        out = []
        for r in self.rows:
            out.append([r.name, r.kind, "table" if r.rules is None else f"{r.rules}",
                        f"{float(r.edge) * 100:.4f}%", f"{float(r.share) * 100:.1f}%",
                        "-" if r.banker_edge is None else f"{float(r.banker_edge) * 100:.4f}%"])
        return out

    def markdown(self) -> str:
        head = (f"# Strategies for the player: {self.game}, against the dealer's {self.way}\n\n"
                f"Deck {self.deck}. House edge: the player against the dealer (negative: the "
                "player's edge). Share: the part of what optimal play gains over the house "
                "way. Banker's edge: the player banks against one opponent who sets by the "
                "house way, his own hands set by the strategy (negative: the banker's "
                "advantage). Every figure is exact.\n\n")
        table = markdown_cells(list(self.COLUMNS), self._cells(),
                               [False, False, True, True, True, True])
        sources = "\n".join(f"- {r.name}: {r.source}" for r in self.rows if r.source)
        return head + table + ("\n\nSources:\n\n" + sources if sources else "") + "\n"

    def render(self, fmt: str = "md") -> str:
        if fmt == "md":
            return self.markdown()
        rows = [{"strategy": r.name, "kind": r.kind, "rules": r.rules, "source": r.source,
                 "house_edge": float(r.edge), "house_edge_fraction": str(r.edge),
                 "share": float(r.share),
                 "banker_edge": None if r.banker_edge is None else float(r.banker_edge),
                 "banker_edge_fraction": None if r.banker_edge is None else str(r.banker_edge)}
                for r in self.rows]  # fmt: skip
        if fmt == "json":
            return to_json({"game": self.game, "way": self.way, "deck": self.deck,
                            "rows": rows})
        if fmt == "csv":
            import pandas as pd

            return str(pd.DataFrame(rows).to_csv(index=False))
        if fmt == "html":
            from analysis.render.formats import markdown_html

            return markdown_html(self.markdown())
        raise ValueError(f"format {fmt!r}: expected md, csv, json or html")


class _Pricer:
    """A strategy's settings priced on the per-hand table of ``opt`` (or by the engine)."""

    def __init__(self, opt: OptimalStrategy, way: str, banking: bool) -> None:
        self.opt, self.way, self.banking = opt, way, banking
        t = opt.table
        self.orbit = t.orbit_size.astype(np.int64)
        self.scale = opt.denominator * opt.dealer_hands * t.total
        self.deals = int(self.orbit.sum()) * comb(t.deck.size - 7, 7)
        self.base = self.edge_of(np.asarray(opt.way_ev, dtype=np.int64))
        self.best = self.edge_of(np.asarray(opt.best_ev, dtype=np.int64))

    def edge_of(self, ev: np.ndarray) -> Fraction:
        return -Fraction(int((self.orbit * ev).sum()), self.scale)

    def share(self, edge: Fraction) -> Fraction:
        span = self.base - self.best
        return (self.base - edge) / span if span else Fraction(1)

    def _banker(self, win: int, loss: int) -> Fraction:
        return -((1 - COMMISSION) * win - loss) / self.deals

    def points(self, points: np.ndarray) -> tuple[Fraction, Fraction | None]:
        """The player's edge and the banker's of settings at frontier ``points``."""
        per = self.opt.per_hand
        edge = self.edge_of(np.asarray(self.opt.point_ev, dtype=np.int64)[points])
        if not self.banking:
            return edge, None
        bank = per.bank[points].astype(np.int64)
        return edge, self._banker(int((self.orbit * bank[:, 0]).sum()),
                                  int((self.orbit * bank[:, 1]).sum()))  # fmt: skip

    def card(self, card: HouseWay) -> tuple[Fraction, Fraction | None]:
        t = self.opt.table
        cols = way_table(card, t.deck, t.rules)
        points = points_of(self.opt.per_hand, cols.high, cols.low)
        if (points >= 0).all():
            return self.points(points)
        # a dominated setting somewhere: the engine counts the deals
        edge = strategy_return_table(self.opt.variant, card, self.way, t.deck, t.rules,
                                     method="engine").house_edge  # fmt: skip
        if not self.banking:
            return edge, None
        c = pair_counts(t.deck, t.rules, card, self.way, 0).counts  # the banker as dealer
        return edge, self._banker(int(c.blind_loss.sum()), int(c.blind_win.sum()))


def compare_strategies(
    variant: str = "traditional",
    way: str = "gli",
    cards: Sequence[str | HouseWay] | None = None,
    derivation: Derivation | None = None,
    sizes: Sequence[int] = DERIVED_SIZES,
    deck: Deck | None = None,
    rules: Rules | None = None,
    opt: OptimalStrategy | None = None,
    over_points: Derivation | None = None,
    point_sizes: Sequence[int] = POINT_SIZES,
) -> StrategyTable:
    """The house way played as a strategy, each card of ``cards`` (default the written
    strategies of ``data/strategies``), the cards of ``sizes`` rules of ``derivation`` (when
    given: a player's derivation against ``way``), the point count and the cards of
    ``point_sizes`` rules before it of ``over_points`` (when given: a derivation over the
    point count, ``base="points"``) and optimal play, for a blind ``variant`` against the
    dealer's ``way``; with the banker's edge in traditional."""
    v = blind_variant(variant)
    opt = opt or solve_optimal(v, way, deck, rules)
    for d in (derivation, over_points):
        if d is not None and (d.side != "strategy" or d.game != v.name or d.against != way):
            raise ValueError(f"the derivation is {d.side} of {d.game} against {d.against}, "
                             f"not a strategy of {v.name} against {way}")
    banking = v.name == "traditional"
    p = _Pricer(opt, way, banking)
    dealer = get_way(way)
    rows = []

    def add(name: str, kind: str, n: int | None, source: str, edge: Fraction,
            banker: Fraction | None) -> None:  # fmt: skip
        rows.append(StrategyRow(name, kind, n, source, edge, p.share(edge), banker))

    t = opt.table
    way_banker = None
    if banking:
        c = banker_counts(way, "house-way", t.deck, t.rules)
        way_banker = p._banker(c.win, c.loss)
    add(f"{dealer.name} (house way)", "house way", len(dealer.rules), dealer.description,
        p.base, way_banker)
    for spec in (cards if cards is not None else [str(s) for s in shipped_strategies()]):
        card = get_way(spec) if isinstance(spec, str) else spec
        edge, banker = p.card(card)
        add(card.name, "written", len(card.rules), card.description, edge, banker)
    if derivation is not None:
        for k in sizes:
            if k <= len(derivation.steps):
                _rule, high, low, _value = derivation.settings(k)
                edge, banker = p.points(points_of(opt.per_hand, high, low))
                add(f"derived, {k} rules", "derived", k + len(derivation.base.rules),
                    f"{k} derived rules over {derivation.base.name}", edge, banker)
    if over_points is not None:
        base = over_points.base
        chart = over_points.base_chart
        steps = 0 if chart is None else len(chart.back) + len(chart.front)
        chances = points_way(v.name, way, opt=opt, fit=False)
        edge, banker = p.card(chances)
        add("point count, chances", "point count", len(chances.rules),
            f"{chances.name}: each hand's chance to beat the dealer's (docs/derive.md)", edge,
            banker)  # fmt: skip
        edge, banker = p.card(base)
        add("point count", "point count", len(base.rules),
            f"{base.name}: the most points of a chart of {steps} steps, fitted to the exact "
            "EVs (docs/derive.md)", edge, banker)  # fmt: skip
        if banking:
            for_banker = points_way(v.name, way, opt=opt, banker=True)
            edge, banker = p.card(for_banker)
            add("point count, banker's", "point count", len(for_banker.rules),
                f"{for_banker.name}: fitted to the banker's results (docs/derive.md)", edge,
                banker)  # fmt: skip
        for k in point_sizes:
            if k <= len(over_points.steps):
                _rule, high, low, _value = over_points.settings(k)
                edge, banker = p.points(points_of(opt.per_hand, high, low))
                plural = "" if k == 1 else "s"
                add(f"point count + {k} rule{plural}", "derived", k + len(base.rules),
                    f"{k} derived rule{plural} over {base.name}", edge, banker)
    best_banker = None
    if banking:
        c = banker_counts(way, "optimal", t.deck, t.rules, opt.per_hand)
        best_banker = p._banker(c.win, c.loss)
    add("optimal", "optimal", None, "each hand set for its highest exact EV", p.best,
        best_banker)
    return StrategyTable(v.name, way, t.deck.name, tuple(rows))
