"""``paigow report GAME.toml``: a game's complete math report, in the order of a lab's report.

1. the game in words; 2. the seven-card hands of the deck; 3. the base wager, for each player
mode (and strategy card, and the player who banks): its return table, its statistics and the
confidence intervals of a player's result; 4. each side bet: its return table, statistics and
break-even top award, the envy by table size; 5. what no vendor report has: optimal play, the
house-optimal ceiling and what the house way gives away (rule by rule); 6. derived cards, when
asked for; 7. a Monte Carlo cross-check of the main tables; 8. an appendix of exact fractions;
9. provenance (the toolkit's version, every input file's SHA-256, the command).

Everything is priced through the same functions as the rest of the toolkit, from the same
caches, so a game whose way is priced reads its counts instead of counting again.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from importlib import metadata
from math import sqrt
from typing import TypeVar

from analysis.checks.simulate import simulate_variant
from analysis.derive import derive_strategy, derive_way
from analysis.games.players import Player
from analysis.mathreport.game import Game, SideBetSpec
from analysis.mathreport.tables import (
    envy_by_size,
    envy_rows,
    exact_appendix,
    intervals,
    percent,
    return_rows,
    statistics,
)
from analysis.mathreport.words import game_words
from analysis.pricing.banking import banking_table
from analysis.pricing.categories import category_table
from analysis.pricing.optimal import solve_optimal
from analysis.pricing.returns import ReturnTable, analyze
from analysis.pricing.sidebets import BETS, side_bet_by_table, side_bet_report
from analysis.pricing.strategy import strategy_return_table
from analysis.render.document import COUNT, DECIMAL, Column, Document, Figure, Section, Table
from analysis.waylab.waycosts import rule_costs
from analysis.waylab.wayedge import dealer_lab, house_optimal, price_dealer_way
from enumerate.houseways import get_way

T = TypeVar("T")
Z_LIMIT = 4  # a Monte Carlo figure more than this many standard errors off is a disagreement


@dataclass
class MathReport:
    """A game's report: its document (every table) and the seconds each part took."""

    game: Game
    document: Document
    seconds: dict[str, float] = field(default_factory=dict)
    returns: dict[str, ReturnTable] = field(default_factory=dict)  # the main tables, by key


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-." else "-" for c in text).strip("-")


def wager_key(mode: str) -> str:
    """The key of a main wager's tables: ``base-<player mode>`` (``base-card-<way>`` for a
    strategy card)."""
    return f"base-{_slug(mode)}"


def side_key(bet: SideBetSpec) -> str:
    return f"side-{_slug(bet.label)}"


class _Clock:
    def __init__(self, log: Callable[[str], None]) -> None:
        self.seconds: dict[str, float] = {}
        self.log = log

    def run(self, what: str, job: Callable[[], T]) -> T:
        self.log(what)
        start = time.perf_counter()
        out = job()
        self.seconds[what] = time.perf_counter() - start
        return out


def _hands(game: Game) -> Section:
    df = category_table(game.deck, game.rules)
    rows = tuple((str(r["class"]), int(r["combinations"]), Fraction(r["probability"]))
                 for r in df.to_dict("records"))  # fmt: skip
    table = Table("hands", "Seven-card hands of the deck, by Fortune class",
                  (Column("class"), Column("combinations", COUNT),
                   Column("probability", DECIMAL, 10)), rows, total=True)  # fmt: skip
    return Section("Hand frequencies", (
        f"Every seven-card hand of the deck ({int(df['combinations'].iloc[-1]):,}), by the best "
        "hand it holds, as the bonus bets rank them.", table))  # fmt: skip


def _main(game: Game, clock: _Clock, report: MathReport) -> tuple[Section, object]:
    v, way, deck, rules = game.variant, game.way, game.deck, game.rules
    blocks: list[str | tuple[str, ...] | Table] = [
        "The player's wager against the dealer, one table per way of playing. Combinations "
        f"count ordered deals (the player's seven cards, then the dealer's seven, of the same "
        f"{deck.size}-card deck)."]  # fmt: skip
    opt = None
    jobs: list[tuple[str, str, Callable[[], ReturnTable]]] = []
    for mode in game.players:
        if mode == Player.OPTIMAL:
            def optimal() -> ReturnTable:
                nonlocal opt
                opt = solve_optimal(v, way, deck, rules)
                return opt.returns()
            jobs.append((str(mode), "the player's optimal blind strategy", optimal))
        elif mode in (Player.BANKING, Player.BANKING_OPTIMAL):
            banker = "optimal" if mode == Player.BANKING_OPTIMAL else "house-way"
            jobs.append((str(mode), f"the player banks ({banker} banker), one on one",
                         partial(banking_table, v.name, way, banker, deck, rules)))
        else:
            jobs.append((str(mode), mode.describe, partial(analyze, v, way, str(mode), deck,
                                                           rules)))  # fmt: skip
    for s in game.strategies:
        name = get_way(s).name
        jobs.append((f"card-{name}", f"the player sets by the card {name}",
                     partial(strategy_return_table, v, s, way, deck, rules)))
    for label, what, job in jobs:
        t = clock.run(f"base wager, {label}", job)
        key = wager_key(label)
        report.returns[key] = t
        blocks += [
            return_rows(key, f"Base wager, {mode}: {what}", t),
            statistics(f"{key}-statistics", f"Base wager, {mode}: statistics", t),
            intervals(f"{key}-intervals", f"Base wager, {mode}: the player's result over a "
                      "session (units bet)", t),
        ]  # fmt: skip
    return Section("The base wager", tuple(blocks)), opt


def _side_bets(game: Game, clock: _Clock, report: MathReport) -> Section | None:
    if not game.side_bets:
        return None
    blocks: list[str | tuple[str, ...] | Table] = []
    for bet in game.side_bets:
        file = bet.paytable is None
        uses_way = (not file and BETS[bet.bet].uses_house_way)
        if file:
            from analysis.bets.files import find_bet  # the bet's own scope decides

            found = find_bet(bet.bet)
            uses_way = found.hand == "deal" or found.uses_way
        way = game.way if uses_way else None

        def price(b: SideBetSpec = bet, w: str | None = way) -> object:
            return side_bet_report(b.bet, b.paytable, None, b.envy, game.deck, game.rules, w)

        r = clock.run(f"side bet {bet.label}", price)
        returns = getattr(r, "returns", None)
        assert isinstance(returns, ReturnTable)
        key = side_key(bet)
        report.returns[key] = returns
        title = returns.title or bet.label
        blocks += [return_rows(key, f"Side bet {bet.label}: {title}", returns),
                   statistics(f"{key}-statistics", f"Side bet {bet.label}: statistics", returns,
                              side_bet=True)]  # fmt: skip
        envy = getattr(r, "envy", None)
        if envy is not None:
            blocks.append(envy_rows(f"{key}-envy", f"Side bet {bet.label}: envy bonus per "
                                    "other player's hand", envy))  # fmt: skip
            by = clock.run(f"side bet {bet.label}, envy by table size", partial(
                side_bet_by_table, bet.bet, bet.paytable, bet.envy, deck=game.deck,
                rules=game.rules))  # fmt: skip
            blocks.append(envy_by_size(f"{key}-by-table", f"Side bet {bet.label}: overall house "
                                       "edge with the envy, by bet and other players", by))
    return Section("Side bets", tuple(blocks))


def _beyond(game: Game, clock: _Clock, opt: object) -> Section:
    """Optimal play (blind games), the house-optimal ceiling (exposed games), and what the
    house way gives away, rule by rule."""
    v, way = game.variant, game.way
    blocks: list[str | tuple[str, ...] | Table] = []
    if not v.dealer_exposed:
        if opt is None:
            opt = clock.run("optimal strategy", lambda: solve_optimal(v, way, game.deck,
                                                                     game.rules))
        he_way, he_opt = opt.house_edge(False), opt.house_edge(True)  # type: ignore[attr-defined]
        blocks.append("A player who sets every hand for its highest exact EV against the "
                      "dealer's house way (blind, as the game is dealt), against one who sets by "
                      "the house way himself.")  # fmt: skip
        blocks.append(Table("optimal", "Optimal blind play against the house way", (
            Column("figure"), Column("house edge", DECIMAL)), (
            ("house way", Figure(he_way, percent(he_way))),
            ("optimal play", Figure(he_opt, percent(he_opt))),
            ("gain of optimal play", Figure(he_way - he_opt, percent(he_way - he_opt))))))
        df = opt.by_rule().sort_values("edge given up", ascending=False)  # type: ignore[attr-defined]
        rows = tuple((str(r["rule"]), int(r["hands"]), int(r["hands not optimal"]),
                      Figure(r["edge given up"], percent(r["edge given up"])))
                     for r in df.to_dict("records"))  # fmt: skip
        blocks.append(Table("optimal-by-rule", "What each rule of the house way gives up "
                            "against optimal play", (Column("rule"), Column("hands", COUNT),
                            Column("hands not optimal", COUNT), Column("edge given up",
                                                                       DECIMAL)), rows))
        return Section("Optimal play and the house way", tuple(blocks))
    lab = clock.run("per-dealer table (best-responding players)",
                    lambda: dealer_lab(v, None, None, game.deck, game.rules))
    ceiling = house_optimal(lab, v)
    edge = price_dealer_way(v, way, lab=lab).house_edge
    blocks.append("The dealer who sets every hand the way best for the house against "
                  "best-responding players: the ceiling of every house way of this game.")
    blocks.append(Table("house-optimal", "The house way against the house-optimal ceiling", (
        Column("figure"), Column("house edge", DECIMAL)), (
        ("house way", Figure(edge, percent(edge))),
        ("house-optimal dealer", Figure(ceiling.house_edge, percent(ceiling.house_edge))),
        ("given away by the house way", Figure(ceiling.house_edge - edge,
                                               percent(ceiling.house_edge - edge))))))
    df = rule_costs(lab, v, way)
    rows = tuple((str(r["rule"]), int(r["hands"]), int(r["below optimal"]),
                  Figure(r["cost"], percent(r["cost"]))) for r in df.to_dict("records"))
    blocks.append(Table("way-costs", "What each rule of the house way gives away against the "
                        "house-optimal dealer", (Column("rule"), Column("hands", COUNT),
                        Column("below optimal", COUNT), Column("cost", DECIMAL)), rows,
                        total=True))  # fmt: skip
    return Section("Optimal play and the house way", tuple(blocks))


def _derived(game: Game, clock: _Clock) -> Section | None:
    if not game.derived:
        return None
    v = game.variant
    if v.dealer_exposed:
        d = clock.run("derived dealer's cards", lambda: derive_way(
            v, game.derived, game.way, deck=game.deck, rules=game.rules))  # type: ignore[arg-type]
        what = "the dealer's card of k rules over the house way, toward the ceiling"
    else:
        d = clock.run("derived player's cards", lambda: derive_strategy(
            v, game.way, game.derived, deck=game.deck, rules=game.rules))  # type: ignore[arg-type]
        what = "the player's card of k rules over the house way, toward optimal play"
    steps = len(d.steps)
    rows = tuple((k, Figure(d.edge(k), percent(d.edge(k))),
                  Figure(d.share(k), percent(d.share(k), 1)))
                 for k in range(0, steps + 1))
    return Section("Derived cards", (f"Rule cards derived from the exact tables: {what}.",
                                     Table("derived", "Derived cards: house edge by number "
                                           "of rules", (Column("rules", COUNT), Column(
                                               "house edge", DECIMAL), Column(
                                               "share of the gain", DECIMAL)), rows)))


def _monte_carlo(game: Game, clock: _Clock, report: MathReport) -> Section | None:
    if not game.simulate:
        return None
    rows = []
    modes = [m for m in game.players if m in (Player.HOUSE_WAY, Player.BEST_RESPONSE)]
    for mode in modes:
        sim = clock.run(f"Monte Carlo, {mode}", partial(
            simulate_variant, game.variant, game.simulate, 1, game.way, str(mode), game.deck,
            game.rules))  # fmt: skip
        exact = report.returns[wager_key(str(mode))]
        for outcome in ("win", "push", "loss"):
            p, q = exact.probability(outcome), sim.table.probability(outcome)
            se = sqrt(float(p * (1 - p)) / game.simulate)
            z = float(q - p) / se if se else 0.0
            rows.append((f"{mode}: probability of a {outcome}", Figure(p, f"{float(p):.6f}"),
                         Figure(q, f"{float(q):.6f}"), Figure(Fraction(se), f"{se:.6f}"),
                         f"{z:+.2f}", "yes" if abs(z) <= Z_LIMIT else "NO"))  # fmt: skip
        he, sh, se = exact.house_edge, sim.house_edge, sim.se
        z = float(sh - he) / se if se else 0.0
        rows.append((f"{mode}: house edge", Figure(he, percent(he)), Figure(sh, percent(sh)),
                     Figure(Fraction(se), percent(Fraction(se))), f"{z:+.2f}",
                     "yes" if abs(z) <= Z_LIMIT else "NO"))  # fmt: skip
    if not rows:
        return None
    table = Table("monte-carlo", f"Monte Carlo: {game.simulate:,} random deals per player mode "
                  "(seed 1)", (Column("figure"), Column("exact", DECIMAL),
                  Column("simulated", DECIMAL), Column("standard error", DECIMAL),
                  Column("z"), Column(f"within {Z_LIMIT} SE")), tuple(rows))  # fmt: skip
    return Section("Monte Carlo cross-check", (
        "Real random deals, shuffled and settled one by one by the reference settlement (not "
        "the pair counts), set against the exact tables; a figure agrees when it is within "
        f"{Z_LIMIT} standard errors.", table))  # fmt: skip


def _appendix(report: MathReport) -> Section:
    return Section("Appendix: exact fractions", tuple(
        exact_appendix(f"{key}-exact", f"{key}: exact figures", t)
        for key, t in report.returns.items()))


def _version() -> str:
    try:
        return metadata.version("paigow-exact")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _provenance(game: Game, command: str, seconds: dict[str, float]) -> Section:
    rows = tuple((what, path, digest) for what, path, digest in game.digests())
    return Section("Provenance", (
        (f"toolkit: paigow-exact {_version()} (Python {platform.python_version()})",
         f"command: {command}",
         f"deck: {game.deck.name} ({game.deck.size} cards), wheel: {game.rules.wheel}",
         f"computed in {sum(seconds.values()):.1f} s"),
        Table("inputs", "Input files", (Column("input"), Column("file"), Column("SHA-256")),
              rows),
        Table("timings", "Time of each part (seconds)", (Column("part"),
              Column("seconds", DECIMAL, 2)), tuple((k, Fraction(round(v * 100), 100))
                                                    for k, v in seconds.items()))))  # fmt: skip


def math_report(game: Game, command: str = "", log: Callable[[str], None] = print
                ) -> MathReport:  # fmt: skip
    """The complete math report of ``game``."""
    clock = _Clock(log)
    report = MathReport(game, Document(game.title, ()))
    words = game_words(game)
    hands = _hands(game)
    main, opt = _main(game, clock, report)
    sections = [words, hands, main]
    side = _side_bets(game, clock, report)
    if side is not None:
        sections.append(side)
    sections.append(_beyond(game, clock, opt))
    for extra in (_derived(game, clock), _monte_carlo(game, clock, report)):
        if extra is not None:
            sections.append(extra)
    sections.append(_appendix(report))
    sections.append(_provenance(game, command, clock.seconds))
    headline = report.returns[wager_key(str(game.players[0]))]
    meta = (("game", f"{game.name}: {game.title}"), ("variant", game.variant.name),
            ("house way", get_way(game.way).name), ("deck", game.deck.name),
            ("base wager house edge", f"{percent(headline.house_edge)} ({game.players[0]})"),
            ("toolkit", f"paigow-exact {_version()}"))  # fmt: skip
    report.document = Document(f"Math report: {game.title}", tuple(sections), meta)
    report.seconds = clock.seconds
    return report
