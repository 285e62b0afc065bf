"""``paigow verify``: compare computed figures with the published ones in data/published.

Each published entry names a figure, its value, a tolerance and a source. The figure is
computed here from the exact tables (never typed in) and the entry passes when
``|computed - published| <= tolerance``. An entry may carry ``open = "why"``: a disagreement
on record (an open question, such as which reading of a rule card a report used). It is still
computed and shown with its difference, as ``open`` instead of ``FAIL``, and does not fail
``paigow verify``; when it agrees it passes like any other.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from analysis.bets.files import BET_DIR
from analysis.pricing.betfiles import price_bet
from analysis.pricing.envy import price_envy_table
from analysis.pricing.optimal import optimal_return_table, solve_optimal
from analysis.pricing.returns import analyze
from analysis.pricing.sidebets import price_sidebet, sidebet_report
from enumerate.classes import SevenCardClass
from enumerate.engine.keys import nine_high_low
from enumerate.paths import data_dir
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.waytables import way_table

if TYPE_CHECKING:
    from analysis.pricing.betfiles import BetPrice

PUBLISHED = data_dir() / "published"
C = SevenCardClass

Figure = Callable[[Deck, Rules], Fraction | int]


def _classes(deck: Deck, rules: Rules) -> dict[SevenCardClass, int]:
    return hand_table(deck, rules).class_counts()


def _class_figure(*classes: SevenCardClass) -> Figure:
    return lambda deck, rules: sum(_classes(deck, rules)[c] for c in classes)


def _jacks(deck: Deck, rules: Rules) -> Fraction:
    t = hand_table(deck, rules)
    return Fraction(t.weighted_count(t.jacks >= 2), t.total)


def _main(variant: str, way: str, what: str) -> Figure:
    """The probability of an outcome (or the house edge) of a blind variant's main wager, the
    player and the dealer both setting by ``way``."""

    def figure(deck: Deck, rules: Rules) -> Fraction:

        t = analyze(variant, way, None, deck, rules)
        return t.house_edge if what == "house_edge" else t.probability(what)

    return figure


def _nine_high(way: str) -> Figure:
    def figure(deck: Deck, rules: Rules) -> Fraction:

        t = hand_table(deck, rules)
        w = way_table(way, deck, rules)
        return Fraction(t.weighted_count(nine_high_low(w.low)), t.total)

    return figure


def _sidebet_edge(bet: str, paytable: str) -> Figure:
    def figure(deck: Deck, rules: Rules) -> Fraction:

        r = sidebet_report(bet, paytable, deck=deck, rules=rules)
        assert r.returns is not None
        return r.returns.house_edge

    return figure


def _envy(paytable: str) -> Figure:
    def figure(deck: Deck, rules: Rules) -> Fraction:

        return price_envy_table(paytable, deck, rules).per_other_player / 5

    return figure


def _exposed(variant: str, way: str) -> Figure:
    def figure(deck: Deck, rules: Rules) -> Fraction:

        return analyze(variant, way, "best-response", deck, rules).house_edge

    return figure


def _optimal_gain(variant: str, way: str) -> Figure:
    def figure(deck: Deck, rules: Rules) -> Fraction:

        opt = solve_optimal(variant, way, deck, rules)
        return opt.house_edge(False) - opt.house_edge(True)

    return figure


FIGURES: dict[str, Figure] = {
    "hands.total": lambda deck, rules: hand_table(deck, rules).total,
    "hands.class.7-card straight flush (natural + joker)": _class_figure(
        C.SEVEN_CARD_STRAIGHT_FLUSH, C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER
    ),
    "hands.class.royal flush + royal match": _class_figure(C.ROYAL_MATCH),
    "hands.class.five aces": _class_figure(C.FIVE_ACES),
    "hands.class.royal flush": _class_figure(C.ROYAL_FLUSH),
    "hands.class.straight flush": _class_figure(C.STRAIGHT_FLUSH),
    "hands.class.four of a kind": _class_figure(C.FOUR_OF_A_KIND),
    "hands.class.full house": _class_figure(C.FULL_HOUSE),
    "hands.class.flush": _class_figure(C.FLUSH),
    "hands.class.three of a kind": _class_figure(C.THREE_OF_A_KIND),
    "hands.class.straight": _class_figure(C.STRAIGHT),
    "hands.class.nothing better than two pair": _class_figure(C.THREE_PAIR, C.NOTHING),
    "hands.dealer two or more jacks (probability)": _jacks,
    **{
        f"deals.trump-plaza.{variant}.{what}": _main(variant, "trump-plaza", what)
        for variant in ("traditional", "commission-free")
        for what in ("win", "push", "loss", "house_edge")
    },
    "hands.trump-plaza.nine-high low (probability)": _nine_high("trump-plaza"),
    "sidebet.queens-dragon-50.house_edge": _sidebet_edge("queens-dragon", "50"),
    "sidebet.envy-5000.per_other_player / 5": _envy("5000"),
    "deals.gli.dealer-open.best-response.house_edge": _exposed("dealer-open", "gli"),
    "gain.foxwoods.traditional.optimal": _optimal_gain("traditional", "foxwoods"),
}


# the volatility figures of any return table (``analysis.pricing.volatility``), by a name
# of the form
# ``deals.<way>.<variant>.<player>.<statistic>`` (a main wager) or
# ``sidebet.<bet>-<paytable>.<statistic>``; the standard deviation is cut to 12 places
STATISTICS = {
    "variance": lambda v: v.variance,
    "standard_deviation": lambda v: v.standard_deviation,
    "hit_frequency": lambda v: v.hit_frequency,
    "top_award_one_in": lambda v: v.top_odds,
    "house_edge_per_resolved_bet": lambda v: v.edge_per_resolved,
}
_MAIN = re.compile(r"deals\.([a-z0-9-]+)\.([a-z0-9-]+)\.([a-z-]+)\.([a-z_]+)")
_SIDE = re.compile(r"sidebet\.([a-z0-9-]+?)-([A-Za-z0-9_.]+)\.([a-z_]+)")


def _statistic(name: str) -> Figure | None:
    """The figure of a volatility statistic named as above (None for other names)."""
    main, side = _MAIN.fullmatch(name), _SIDE.fullmatch(name)
    stat = main.group(4) if main else side.group(3) if side else None
    if stat not in STATISTICS or (side and stat == "house_edge_per_resolved_bet"):
        return None

    def figure(deck: Deck, rules: Rules) -> Fraction:

        if main:
            way, variant, player = main.group(1), main.group(2), main.group(3)
            if player == "optimal":

                table = optimal_return_table(variant, way, deck, rules)
            else:
                table = analyze(variant, way, player, deck, rules)
        else:
            assert side is not None
            table = price_sidebet(side.group(1), side.group(2), deck, rules)
        value = STATISTICS[str(stat)](table.volatility)
        if value is None:
            raise ValueError(f"figure {name}: the table has no such figure")
        return Fraction(value)

    return figure


# a bet file's figures: ``bet.<bet file>.house_edge`` or ``bet.<bet file>.<event>`` (its
# combinations, the event as the file names it)
_BET = re.compile(r"bet\.([a-z0-9][a-z0-9._-]*?)\.(.+)")


def _bet_figure(name: str) -> Figure | None:
    m = _BET.fullmatch(name)
    if m is None:
        return None

    bet, what = m.group(1), m.group(2)
    if not (BET_DIR / f"{bet}.toml").is_file():
        return None

    def figure(deck: Deck, rules: Rules) -> Fraction | int:
        priced = _priced(bet, deck, rules)
        if what == "house_edge":
            return priced.returns.house_edge
        names = [e.name for e in priced.bet.events]
        if what not in names:
            raise ValueError(f"figure {name}: bet {bet} has no event {what!r}")
        return priced.counts[names.index(what)]

    return figure


@cache
def _priced(bet: str, deck: Deck, rules: Rules) -> BetPrice:
    """A bet file priced once for all its figures."""

    return price_bet(bet, deck, rules)


def figure_of(name: str) -> Figure | None:
    """The function computing a published figure's value (None: not a figure we know)."""
    return FIGURES.get(name) or _statistic(name) or _bet_figure(name)


def _shown(value: Fraction | int) -> str:
    if isinstance(value, int) or Fraction(value).denominator == 1:
        return str(int(value))
    return f"{float(value):.10f}"


def published_entries(folder: Path = PUBLISHED) -> list[dict[str, Any]]:
    """Every entry of every published file, defaults applied, with its file name."""
    out = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as err:
            raise ValueError(f"{path.name}: not valid TOML ({err})") from None
        defaults = data.get("defaults", {})
        for i, entry in enumerate(data.get("figures", [])):
            e = {**defaults, **entry, "file": path.name}
            for field in ("figure", "value", "source"):
                if field not in e:
                    raise ValueError(f"{path.name}: figures[{i}] has no {field!r}")
            if figure_of(e["figure"]) is None:
                raise ValueError(f"{path.name}: figures[{i}]: unknown figure {e['figure']!r}")
            out.append(e)
    return out


def check_published(folder: Path = PUBLISHED, only: str | None = None) -> pd.DataFrame:
    """Compute every published figure and compare; one row per entry with ``ok``."""
    rows = []
    for e in published_entries(folder):
        if only and only not in e["figure"]:
            continue
        deck = Deck.parse(str(e.get("deck", "full")))
        rules = Rules(wheel=e.get("wheel", "second"))
        compute = figure_of(e["figure"])
        assert compute is not None  # published_entries refused unknown figures
        value = compute(deck, rules)
        published = Fraction(str(e["value"]))
        tol = Fraction(str(e.get("tolerance", 0)))
        diff = Fraction(value) - published
        ok = abs(diff) <= tol
        rows.append(
            {
                "figure": e["figure"],
                "published": e["value"],
                "computed": _shown(value),
                "difference": float(diff),
                "tolerance": e.get("tolerance", 0),
                "ok": ok,
                "status": "pass" if ok else "open" if e.get("open") else "FAIL",
                "source": e["source"] + (f" OPEN: {e['open']}" if e.get("open") and not ok
                                         else ""),
            }
        )
    return pd.DataFrame(rows)


def expected_deals(deck: Deck) -> int:
    return comb(deck.size, 7) * comb(deck.size - 7, 7)
