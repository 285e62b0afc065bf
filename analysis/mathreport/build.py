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
from analysis.derive import Derivation, derive_strategy, derive_way
from analysis.games.players import Player
from analysis.mathreport.game import Game, SideBetSpec
from analysis.mathreport.tables import (
    edges,
    envy_by_size,
    envy_rows,
    exact_appendix,
    intervals,
    per_rule,
    percent,
    return_rows,
    statistics,
)
from analysis.mathreport.words import game_words
from analysis.pricing.banking import banking_table
from analysis.pricing.categories import category_table
from analysis.pricing.optimal import OptimalStrategy, solve_optimal
from analysis.pricing.returns import ReturnTable, analyze
from analysis.pricing.sidebets import side_bet_by_table, side_bet_report
from analysis.pricing.strategy import strategy_return_table
from analysis.render.document import COUNT, DECIMAL, Column, Document, Figure, Section, Table
from analysis.waylab.waycosts import rule_costs
from analysis.waylab.wayedge import (
    DealerLab,
    HouseOptimal,
    dealer_lab,
    house_optimal,
    price_dealer_way,
)
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


Blocks = list[str | tuple[str, ...] | Table]


@dataclass
class Priced:
    """What a caller has priced already for a game, read instead of pricing it again (the
    suite of ``paigow reports`` passes the tables its steps hold): return tables by wager key
    (``wager_key``), the optimal strategy against the game's way, and, for a game dealt face
    up, the per-dealer table of best-responding players and the variant's house-optimal
    dealer on it. Each must be what the pricer would make itself for the game; the suite's
    tests compare its reports with reports priced alone."""

    returns: dict[str, ReturnTable] = field(default_factory=dict)
    optimal: OptimalStrategy | None = None
    lab: DealerLab | None = None
    ceiling: HouseOptimal | None = None


class GamePricer:
    """The parts of a game's report, each priced once when first asked for: a report builds
    them all, a verification only those its lines address."""

    def __init__(self, game: Game, log: Callable[[str], None] = print,
                 priced: Priced | None = None) -> None:  # fmt: skip
        self.game = game
        self.clock = _Clock(log)
        self.returns: dict[str, ReturnTable] = {}  # the return tables, by key
        self.priced = priced or Priced()
        self._parts: dict[str, Blocks] = {}
        self._opt: OptimalStrategy | None = None

    def release(self) -> None:
        """Let go of the large tables given (the optimal strategy, the per-dealer table): the
        parts priced from them are kept, a part asked for later prices its own."""
        self.priced.optimal = self.priced.lab = self.priced.ceiling = None

    def part(self, name: str) -> Blocks:
        """The blocks of one part: ``hands``, a wager's key (``base-<mode>``, ``side-<bet>``),
        ``beyond``, ``derived`` or ``monte-carlo``."""
        if name not in self._parts:
            self._parts[name] = self._make(name)
        return self._parts[name]

    def parts(self) -> dict[str, str]:
        """Every part of the game: its name -> the section it belongs to."""
        g = self.game
        out = {"hands": "Hand frequencies"}
        out |= {wager_key(m): "The base wager" for m in self.modes()}
        out |= {side_key(b): "Side bets" for b in g.side_bets}
        out["beyond"] = "Optimal play and the house way"
        if g.derived:
            out["derived"] = "Derived cards"
        if g.simulate and any(m in (Player.HOUSE_WAY, Player.BEST_RESPONSE) for m in g.players):
            out["monte-carlo"] = "Monte Carlo cross-check"
        return out

    def modes(self) -> list[str]:
        """The base wager's modes: the player modes, then ``card-<way>`` per strategy card."""
        return [str(m) for m in self.game.players] + [
            f"card-{get_way(s).name}" for s in self.game.strategies]

    def table(self, key: str) -> Table:
        """The table ``key`` (its part priced if need be); ``KeyError`` when the game has none."""
        beyond = ("optimal", "optimal-by-rule", "house-optimal", "way-costs")
        for name in self.parts():
            if key == name or key.startswith(name + "-") or (name == "beyond" and key in beyond):
                for b in self.part(name):
                    if isinstance(b, Table) and b.key == key:
                        return b
        if key.startswith("house-way"):
            for b in game_words(self.game).blocks:
                if isinstance(b, Table) and b.key == key:
                    return b
        raise KeyError(key)

    def _make(self, name: str) -> Blocks:
        if name == "hands":
            return self._hands()
        if name.startswith("base-"):
            mode = next(m for m in self.modes() if wager_key(m) == name)
            return self._base(mode)
        if name.startswith("side-"):
            bet = next(b for b in self.game.side_bets if side_key(b) == name)
            return self._side(bet)
        if name == "beyond":
            return self._beyond()
        if name == "derived":
            return self._derived()
        if name == "monte-carlo":
            return self._monte_carlo()
        raise KeyError(name)

    def _hands(self) -> Blocks:
        g = self.game
        df = category_table(g.deck, g.rules)
        rows = tuple((str(r["class"]), int(r["combinations"]), Fraction(r["probability"]))
                     for r in df.to_dict("records"))  # fmt: skip
        table = Table("hands", "Seven-card hands of the deck, by Fortune class",
                      (Column("class"), Column("combinations", COUNT),
                       Column("probability", DECIMAL, 10)), rows, total=True)  # fmt: skip
        return [f"Every seven-card hand of the deck ({int(df['combinations'].iloc[-1]):,}), by "
                "the best hand it holds, as the bonus bets rank them.", table]  # fmt: skip

    def _optimal(self) -> OptimalStrategy:
        g = self.game
        if self.priced.optimal is not None:
            return self.priced.optimal
        if self._opt is None:
            self._opt = self.clock.run("optimal strategy (per-hand table)", partial(
                solve_optimal, g.variant, g.way, g.deck, g.rules))  # fmt: skip
        return self._opt

    def _base(self, mode: str) -> Blocks:
        g = self.game
        v, way, deck, rules = g.variant, g.way, g.deck, g.rules
        job: Callable[[], ReturnTable]
        if mode == Player.OPTIMAL:
            what = "the player's optimal blind strategy"
            job = lambda: self._optimal().returns()  # noqa: E731
        elif mode in (Player.BANKING, Player.BANKING_OPTIMAL):
            banker = "optimal" if mode == Player.BANKING_OPTIMAL else "house-way"
            what = f"the player banks ({banker} banker), one on one"
            # the optimal banker's counts are in the optimal strategy's per-hand table
            job = partial(self._banking, banker)
        elif mode.startswith("card-"):
            card = next(s for s in g.strategies if f"card-{get_way(s).name}" == mode)
            what = f"the player sets by the card {get_way(card).name}"
            job = partial(strategy_return_table, v, card, way, deck, rules)
        else:
            what = Player(mode).describe
            job = partial(analyze, v, way, mode, deck, rules)
        key = wager_key(mode)
        given = self.priced.returns.get(key)
        t = self.clock.run(f"base wager, {mode}", job) if given is None else given
        self.returns[key] = t
        return [return_rows(key, f"Base wager, {mode}: {what}", t),
                statistics(f"{key}-statistics", f"Base wager, {mode}: statistics", t),
                intervals(f"{key}-intervals", f"Base wager, {mode}: the player's result over "
                          "a session (units bet)", t)]  # fmt: skip

    def _banking(self, banker: str) -> ReturnTable:
        g = self.game
        per_hand = self._optimal().per_hand if banker == "optimal" else None
        return banking_table(g.variant.name, g.way, banker, g.deck, g.rules, per_hand)

    def _side(self, bet: SideBetSpec) -> Blocks:
        g = self.game
        way = g.way if bet.uses_way else None
        r = self.clock.run(f"side bet {bet.label}", partial(
            side_bet_report, bet.bet, bet.paytable, None, bet.envy, g.deck, g.rules, way))
        returns = r.returns
        assert returns is not None  # a bet priced on hands or deals (not the envy alone)
        key = side_key(bet)
        self.returns[key] = returns
        title = returns.title or bet.label
        blocks: Blocks = [
            return_rows(key, f"Side bet {bet.label}: {title}", returns),
            statistics(f"{key}-statistics", f"Side bet {bet.label}: statistics", returns,
                       side_bet=True)]  # fmt: skip
        if r.envy is not None:
            blocks.append(envy_rows(f"{key}-envy", f"Side bet {bet.label}: envy bonus per "
                                    "other player's hand", r.envy))  # fmt: skip
            by = self.clock.run(f"side bet {bet.label}, envy by table size", partial(
                side_bet_by_table, bet.bet, bet.paytable, bet.envy, deck=g.deck,
                rules=g.rules))  # fmt: skip
            blocks.append(envy_by_size(f"{key}-by-table", f"Side bet {bet.label}: overall "
                                       "house edge with the envy, by bet and other players",
                                       by))  # fmt: skip
        return blocks

    def _beyond(self) -> Blocks:
        """Optimal play (blind games) or the house-optimal ceiling (exposed games), and what
        the house way gives away, rule by rule."""
        g = self.game
        v, way = g.variant, g.way
        if not v.dealer_exposed:
            opt = self._optimal()
            he_way, he_opt = opt.house_edge(False), opt.house_edge(True)
            by_rule = opt.by_rule().sort_values("edge given up", ascending=False)
            return [
                "A player who sets every hand for its highest exact EV against the dealer's "
                "house way (blind, as the game is dealt), against one who sets by the house way "
                "himself.",
                edges("optimal", "Optimal blind play against the house way", [
                    ("house way", he_way), ("optimal play", he_opt),
                    ("gain of optimal play", he_way - he_opt)]),
                per_rule("optimal-by-rule", "What each rule of the house way gives up against "
                         "optimal play", by_rule.to_dict("records"), ("hands",
                         "hands not optimal"), "edge given up"),
            ]  # fmt: skip
        lab = self.priced.lab or self.clock.run(
            "per-dealer table (best-responding players)",
            partial(dealer_lab, v, None, None, g.deck, g.rules))  # fmt: skip
        best = self.priced.ceiling or house_optimal(lab, v)
        ceiling = best.house_edge
        edge = price_dealer_way(v, way, lab=lab).house_edge
        costs = rule_costs(lab, v, way, best)
        return [
            "The dealer who sets every hand the way best for the house against best-responding "
            "players: the ceiling of every house way of this game.",
            edges("house-optimal", "The house way against the house-optimal ceiling", [
                ("house way", edge), ("house-optimal dealer", ceiling),
                ("given away by the house way", ceiling - edge)]),
            per_rule("way-costs", "What each rule of the house way gives away against the "
                     "house-optimal dealer", costs.to_dict("records"), ("hands",
                     "below optimal"), "cost", total=True),
        ]  # fmt: skip

    def _derived(self) -> Blocks:
        g = self.game
        v = g.variant
        d: Derivation
        if v.dealer_exposed:
            d = self.clock.run("derived dealer's cards", partial(
                derive_way, v, g.derived, g.way, deck=g.deck, rules=g.rules))  # type: ignore[arg-type]
            what = "the dealer's card of k rules over the house way, toward the ceiling"
        else:
            d = self.clock.run("derived player's cards", partial(
                derive_strategy, v, g.way, g.derived, deck=g.deck, rules=g.rules,  # type: ignore[arg-type]
                opt=self.priced.optimal))  # fmt: skip
            what = "the player's card of k rules over the house way, toward optimal play"
        rows = tuple((k, Figure(d.edge(k), percent(d.edge(k))),
                      Figure(d.share(k), percent(d.share(k), 1)))
                     for k in range(len(d.steps) + 1))  # fmt: skip
        return [f"Rule cards derived from the exact tables: {what}.",
                Table("derived", "Derived cards: house edge by number of rules", (
                    Column("rules", COUNT), Column("house edge", DECIMAL),
                    Column("share of the gain", DECIMAL)), rows)]  # fmt: skip

    def _monte_carlo(self) -> Blocks:
        g = self.game
        rows = []
        for mode in [m for m in g.players if m in (Player.HOUSE_WAY, Player.BEST_RESPONSE)]:
            sim = self.clock.run(f"Monte Carlo, {mode}", partial(
                simulate_variant, g.variant, g.simulate, 1, g.way, str(mode), g.deck,
                g.rules))  # fmt: skip
            self.part(wager_key(str(mode)))
            exact = self.returns[wager_key(str(mode))]
            for outcome in ("win", "push", "loss"):
                p, q = exact.probability(outcome), sim.table.probability(outcome)
                se = sqrt(float(p * (1 - p)) / g.simulate)
                rows.append(_mc_row(f"{mode}: probability of a {outcome}", p, q, se,
                                    f"{float(p):.6f}", f"{float(q):.6f}", f"{se:.6f}"))
            he, sh = exact.house_edge, sim.house_edge
            rows.append(_mc_row(f"{mode}: house edge", he, sh, sim.se, percent(he), percent(sh),
                                percent(Fraction(sim.se))))  # fmt: skip
        table = Table("monte-carlo", f"Monte Carlo: {g.simulate:,} random deals per player "
                      "mode (seed 1)", (Column("figure"), Column("exact", DECIMAL),
                      Column("simulated", DECIMAL), Column("standard error", DECIMAL),
                      Column("z"), Column(f"within {Z_LIMIT} SE")), tuple(rows))  # fmt: skip
        return ["Real random deals, shuffled and settled one by one by the reference settlement "
                "(not the pair counts), set against the exact tables; a figure agrees when it is "
                f"within {Z_LIMIT} standard errors.", table]  # fmt: skip


def _mc_row(name: str, exact: Fraction, sim: Fraction, se: float, *texts: str) -> tuple:
    z = float(sim - exact) / se if se else 0.0
    return (name, Figure(exact, texts[0]), Figure(sim, texts[1]), Figure(Fraction(se), texts[2]),
            f"{z:+.2f}", "yes" if abs(z) <= Z_LIMIT else "NO")  # fmt: skip


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


def math_report(game: Game, command: str = "", log: Callable[[str], None] = print,
                pricer: GamePricer | None = None) -> MathReport:  # fmt: skip
    """The complete math report of ``game``; ``pricer``: one that holds parts priced already
    (``Priced``)."""
    pricer = pricer or GamePricer(game, log)
    sections = [game_words(game)]
    by_section: dict[str, Blocks] = {}
    for name, section in pricer.parts().items():
        by_section.setdefault(section, []).extend(pricer.part(name))
    intro = {"The base wager": "The player's wager against the dealer, one table per way of "
             "playing. Combinations count ordered deals (the player's seven cards, then the "
             f"dealer's seven, of the same {game.deck.size}-card deck).",
             "Side bets": "Each side bet offered: its return table (combinations over what the "
                          "bet is settled on), its statistics and, for a bet with an envy bonus, "
                          "the envy by table size."}  # fmt: skip
    for title, blocks in by_section.items():
        lead = [intro[title]] if title in intro else []
        sections.append(Section(title, tuple(lead + blocks)))
    sections.append(Section("Appendix: exact fractions", tuple(
        exact_appendix(f"{key}-exact", f"{key}: exact figures", t)
        for key, t in pricer.returns.items())))  # fmt: skip
    sections.append(_provenance(game, command, pricer.clock.seconds))
    headline = pricer.returns[wager_key(str(game.players[0]))]
    meta = (("game", f"{game.name}: {game.title}"), ("variant", game.variant.name),
            ("house way", get_way(game.way).name), ("deck", game.deck.name),
            ("base wager house edge", f"{percent(headline.house_edge)} ({game.players[0]})"),
            ("toolkit", f"paigow-exact {_version()}"))  # fmt: skip
    doc = Document(f"Math report: {game.title}", tuple(sections), meta)
    return MathReport(game, doc, pricer.clock.seconds, pricer.returns)
