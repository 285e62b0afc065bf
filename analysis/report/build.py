"""``paigow reports``: every variant, side bet and paytable priced exactly, with plots.

Writes a folder of markdown, CSV, JSON and HTML tables, PNG plots and an ``index.md`` that
opens with one summary table (every variant, house way and player mode, every side bet and
paytable, optimal play and player banking: house edge, standard deviation, hit frequency, a
link to the page) and then links every page by section, its charts as links (each chart is
shown on its page). The pages are written under ``figure_tables`` (their summary figures as
a small table); the summary's figures are the texts of the same table objects the pages are
rendered from (``headline``). The counts come from the Parquet caches (one count of
every deal per house way, every dealer flag apart, serves every variant and deal-based side
bet: counts with more dealer flags hold counts with fewer). The house-way lab comes before the
variants: its per-dealer table of best-responding players gives the ways' best-response
counts, and one blind pass the rest (``analysis.waylab.labpairs``), instead of an engine
run per way.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt
import pandas as pd

from analysis.bets.files import shipped_bets
from analysis.bets.paytables import shipped_paytables
from analysis.derive.classes import forget
from analysis.derive.compare import compare_strategies, shipped_strategies
from analysis.derive.derive import Derivation, derive_strategy
from analysis.games.players import Player
from analysis.games.variants import get_variant, variant_names
from analysis.pricing.banking import BANKERS, banking_report
from analysis.pricing.betfiles import bet_report
from analysis.pricing.categories import category_table
from analysis.pricing.counts import ALL_FLAGS, pair_counts
from analysis.pricing.envy import max_players
from analysis.pricing.optimal import optimal_strategies
from analysis.pricing.returns import ReturnTable, analyze, compare
from analysis.pricing.sidebets import BETS, paytable_envy_by_table, sidebet_report
from analysis.render.formats import decimal, figure_tables, markdown, markdown_cells, summary_md
from analysis.report.ahead import WaysAhead
from analysis.report.derived import REPORT_RULES, SECTION, dealer_pages, derived_page
from analysis.report.games import TITLE as GAMES_TITLE
from analysis.report.games import SuiteGames, Tables
from analysis.report.plots import WIDTH, rule_bars, save
from analysis.report.site import write_site
from analysis.report.warmup import warm_up_report
from analysis.report.waylab import (
    LAB_TITLE,
    RECONCILE_TITLE,
    Ceiling,
    reconciliation_section,
    response_lab,
    way_lab_section,
)
from analysis.waylab.labpairs import lab_pair_counts
from analysis.waylab.reconcile import reading_names
from analysis.waylab.ways import CASINO_WAYS, diff_ways, dominated_counts
from enumerate.cache import release_unused
from enumerate.engine.levels.cache import level_arrays
from enumerate.engine.onehand.classindex import class_index
from enumerate.engine.perdealer.table import PlayerSide, is_cached
from enumerate.rules import Deck, Rules
from enumerate.runtime.allocator import reusing_freed_memory, without_huge_pages
from enumerate.runtime.writebehind import writes_behind
from enumerate.tables import hand_table
from enumerate.waytables import player_table

if TYPE_CHECKING:
    from analysis.pricing.optimal import OptimalStrategy
    from analysis.waylab.wayedge import DealerLab, HouseOptimal
    from enumerate.engine.perhand.table import PerHand

FORMATS = ("md", "csv", "json", "html")
TABLE_PLAYERS = 6  # players at a full table, the envy bettor included (not the dealer)
# the casino ways a report prices in every variant, and in the house-way lab (data/ways)
LAB_WAYS = CASINO_WAYS
AHEAD_MIN_CLASSES = 1_000_000  # decks this large build their way tables in a child process
OPTIMAL_STEP = "optimal strategy"
STRATEGY_SIZES = (5, 12)  # the derived cards the strategies page prices beside the written


@dataclass(frozen=True)
class SummaryRow:
    """One row of the index's summary table: a wager, its headline figures as its page shows
    them (``ReturnTable.headline``; a figure it lacks is shown as "-") and its page; ``key``
    orders the rows."""

    key: tuple[int, ...]
    wager: str
    rules: str  # the house way or the paytable
    player: str
    figures: dict[str, str]
    page: str


SUMMARY_FIGURES = ("house edge", "standard deviation", "hit frequency")
MODES = (Player.HOUSE_WAY, Player.BEST_RESPONSE, Player.OPTIMAL)  # a game's rows, in order


@dataclass
class Report:
    """What was written, for the index."""

    out: Path
    deck: Deck
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    summary: list[SummaryRow] = field(default_factory=list)
    # the main wagers' return tables, by (variant, way, player mode): the game reports' too
    priced: Tables = field(default_factory=dict)
    games: SuiteGames | None = None  # the game files' reports, priced from the steps' tables

    def add(self, title: str, lines: list[str], before: str | None = None) -> None:
        """A section at the end of the index, or ``before`` the section of that title (at the
        end when there is none): a step done late can keep its section where it belongs."""
        at = next((i for i, (t, _) in enumerate(self.sections) if t == before),
                  len(self.sections))  # fmt: skip
        self.sections.insert(at, (title, lines))


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def _write_table(out: Path, stem: str, table: ReturnTable) -> str:
    for fmt in FORMATS:
        (out / f"{stem}.{fmt}").write_text(table.render(fmt))
    return f"{stem}.md"


def _frame_md(df: pd.DataFrame) -> str:
    shown = df.copy()
    for col in shown.columns:
        if any(isinstance(x, Fraction) for x in shown[col]):
            # None: the figure does not exist on this deck (a top award no hand reaches)
            shown[col] = ["-" if x is None else decimal(x, 8) for x in shown[col]]
    return markdown(shown)


def _variants(rep: Report, ways: list[str], rules: Rules, log: Callable[[str], None],
              ready: Callable[[list[str]], None] = lambda names: None,
              lab: DealerLab | None = None) -> None:  # fmt: skip
    """The main wagers' pages; ``ready(names)`` returns once the ways' tables are built. With
    ``lab`` (best-responding players) the ways' pair counts come from it and one blind pass
    (``analysis.waylab.labpairs``), else from an engine run per way."""

    tables: list[ReturnTable] = []
    lines = []
    if lab is not None:
        ready(ways)
        lab_pair_counts(lab, ways, log=log)
    for w, way in enumerate(ways):
        ready([way])
        # one count with every dealer flag serves every variant and deal-based side bet
        log(f"pair counts, {way}, all dealer flags")
        pair_counts(rep.deck, rules, way, way, ALL_FLAGS)
        for g, name in enumerate(variant_names()):
            variant = get_variant(name)
            modes = [Player.HOUSE_WAY]
            if variant.dealer_exposed:
                modes.append(Player.BEST_RESPONSE)
            for mode in modes:
                log(f"variant {name}, {way}, {mode}")
                t = analyze(variant, way, mode, rep.deck, rules)
                tables.append(t)
                rep.priced[(name, way, str(mode))] = t
                link = _write_table(rep.out, f"variant-{name}-{way}-{mode}", t)
                rep.summary.append(SummaryRow((0, g, w, MODES.index(mode)), name,
                                              f"house way {way}", str(mode), t.headline(),
                                              link))  # fmt: skip
                lines.append(f"- [{name}, house way {way}, player {mode}]({link}): "
                             f"house edge {_pct(t.house_edge)}, standard deviation "
                             f"{t.volatility.standard_deviation_text()}")  # fmt: skip
    summary = compare(tables)
    (rep.out / "variants.md").write_text(
        "# Main wagers: every variant, house way and player\n\n" + _frame_md(summary)
        + "\n\n![outcome probabilities](variants.png)\n")  # fmt: skip
    numeric = {c: [float(x) for x in summary[c]] for c in summary.columns[3:]}
    summary.assign(**numeric).to_csv(rep.out / "variants.csv", index=False)
    _plot_outcomes(summary, rep.out / "variants.png")
    rep.add("Main wagers", ["[all variants side by side, with a chart](variants.md)", *lines])


BANKING_ROUNDS = 500_000  # simulated rounds per table size: a standard error near 0.0015


def _banking(rep: Report, way: str, rules: Rules, log: Callable[[str], None],
             per_hand: PerHand | None) -> None:  # fmt: skip
    """The player-banking page; the optimal banker from ``per_hand`` (the optimal step's
    table), and only the house-way banker without it (no optimal-strategy tables)."""

    bankers = BANKERS if per_hand is not None else ("house-way",)
    log(f"player banking, {way}: exact one on one, simulated 1..6 opponents")
    r = banking_report(way, BANKING_ROUNDS, 1, 7, rep.deck, rules, bankers, per_hand)
    if rep.games is not None:
        rep.games.banking(way, r.tables)
    stem = f"banking-{way}"
    for fmt in FORMATS:
        (rep.out / f"{stem}.{fmt}").write_text(r.render(fmt))
    for i, (banker, t) in enumerate(r.tables.items()):
        rep.summary.append(SummaryRow((2, i), "player banks (traditional)", f"house way {way}",
                                      f"banker {banker}", t.headline(), f"{stem}.md"))  # fmt: skip
    optimal = (f", by his optimal strategy {_pct(-r.tables['optimal'].house_edge)}"
               if "optimal" in r.tables else "")  # fmt: skip
    lines = [f"- [the player banks, {way}]({stem}.md): banker by the house way "
             f"{_pct(-r.tables['house-way'].house_edge)}{optimal} (the banker's edge, one on "
             f"one); the house's edge when a player banks one round in 7: "
             f"{_pct(r.house_edges['house-way'])}"]  # fmt: skip
    rep.add("Player banking (traditional)", lines)


def _plot_outcomes(summary: pd.DataFrame, path: Path) -> None:
    """A stacked horizontal bar per table (win, push, loss), in the summary's order."""
    columns = zip(summary["game"], summary["house_way"], summary["player"], strict=True)
    labels = [f"{g}, {w}, {p}" for g, w, p in columns]
    fig, ax = plt.subplots(figsize=(WIDTH, 1.2 + len(labels) * 0.28), layout="constrained")
    left = [0.0] * len(labels)
    for outcome, colour in (("win", "#3a7d44"), ("push", "#b0b0b0"), ("loss", "#b23a48")):
        vals = [float(x) for x in summary[outcome]]
        ax.barh(labels, vals, left=left, label=outcome, color=colour)
        left = [b + v for b, v in zip(left, vals, strict=True)]
    ax.set_xlabel("probability", fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_title("Outcome probabilities per variant, house way and player (exact)",
                 fontsize=10)  # fmt: skip
    ax.invert_yaxis()
    fig.legend(ncols=3, loc="outside lower center", fontsize=8, frameon=False)
    ax.tick_params(labelsize=8)
    save(fig, path)


def _sidebets(rep: Report, rules: Rules, log: Callable[[str], None]) -> None:

    rows = []
    lines = []
    for bet in BETS.values():
        for pt in shipped_paytables(bet.name):
            tag = " (TEMPLATE, not a real casino table)" if pt.template else ""
            log(f"side bet {bet.name}, {pt.name}")
            players = min(TABLE_PLAYERS, max_players(rep.deck)) if bet.has_envy else None
            r = sidebet_report(bet.name, pt.name, deck=rep.deck, rules=rules, players=players)
            stem = f"sidebet-{bet.name}-{pt.name}"
            for fmt in FORMATS:
                (rep.out / f"{stem}.{fmt}").write_text(r.render(fmt))
            shown = r.returns or r.envy  # the envy alone: dollars per other player's hand
            if shown is not None:
                wager = bet.name if r.returns is not None else f"{bet.name} ($ per other player)"
                rep.summary.append(SummaryRow((1, len(rep.summary)), wager,
                                              f"paytable {pt.name}"
                                              + (" (TEMPLATE)" if pt.template else ""), "",
                                              shown.headline(),
                                              f"{stem}.md"))  # fmt: skip
            if r.returns is not None:
                edge = r.returns.house_edge
                v = r.returns.volatility
                rows.append({"bet": bet.name, "paytable": pt.name, "template": pt.template,
                             "house edge": edge, "standard deviation": v.standard_deviation,
                             "hit frequency": v.hit_frequency,
                             "top award 1 in": v.top_odds})  # fmt: skip
                lines.append(f"- [{bet.name}, {pt.name}]({stem}.md){tag}: "
                             f"house edge {_pct(edge)}")  # fmt: skip
            elif r.envy is not None:
                lines.append(f"- [{bet.name}, {pt.name}]({stem}.md): "
                             f"${float(r.envy.per_other_player):.4f} per other player")  # fmt: skip
    lines += _bet_files(rep, rules, log, rows)
    lines += _envy_tables(rep, rules, log)
    df = pd.DataFrame(rows)
    (rep.out / "sidebets.md").write_text(
        "# Side bets: every shipped paytable\n\n" + _frame_md(df)
        + "\n\n![house edge per paytable](sidebets.png)\n")  # fmt: skip
    real = df[~df["template"]]
    fig, ax = plt.subplots(figsize=(WIDTH, max(2.5, len(real) * 0.3)), layout="constrained")
    labels = [f"{b} {p}" for b, p in zip(real["bet"], real["paytable"], strict=True)]
    ax.barh(labels, [float(x) * 100 for x in real["house edge"]], color="#4062bb")
    ax.set_xlabel("house edge (%)", fontsize=8)
    ax.set_title("Side bets: exact house edge per paytable", fontsize=10)
    ax.invert_yaxis()
    ax.tick_params(labelsize=8)
    save(fig, rep.out / "sidebets.png")
    rep.add("Side bets", ["[all paytables side by side, with a chart](sidebets.md)", *lines])


def _bet_files(rep: Report, rules: Rules, log: Callable[[str], None],
               rows: list[dict[str, object]]) -> list[str]:  # fmt: skip
    """The bet files of data/bets that are not a side bet under one of its paytables (those
    are priced above): each priced, a page in every format and a summary row."""

    covered = {f"{b.name}-{pt.name}" for b in BETS.values()
               for pt in shipped_paytables(b.name)}  # fmt: skip
    lines = []
    for bet in shipped_bets():
        if bet.name in covered:
            continue
        log(f"bet file {bet.name}")
        players = min(TABLE_PLAYERS, max_players(rep.deck)) if bet.envy else None
        r = bet_report(bet, players, rep.deck, rules)
        assert r.returns is not None
        stem = f"bet-{bet.name}"
        for fmt in FORMATS:
            (rep.out / f"{stem}.{fmt}").write_text(r.render(fmt))
        rep.summary.append(SummaryRow((1, len(rep.summary)), bet.name, "bet file "
                                      + ("(TEMPLATE)" if bet.template else ""), "",
                                      r.returns.headline(), f"{stem}.md"))  # fmt: skip
        v = r.returns.volatility
        rows.append({"bet": bet.name, "paytable": "(bet file)", "template": bet.template,
                     "house edge": r.returns.house_edge, "standard deviation":
                     v.standard_deviation, "hit frequency": v.hit_frequency,
                     "top award 1 in": v.top_odds})  # fmt: skip
        lines.append(f"- [{bet.title}]({stem}.md) (`data/bets/{bet.name}.toml`): house edge "
                     f"{_pct(r.returns.house_edge)}")  # fmt: skip
    return lines


def _envy_tables(rep: Report, rules: Rules, log: Callable[[str], None]) -> list[str]:
    """One table per paytable pair: each Fortune table with each shipped envy table, and
    Chan Chu with its own; the house edge with the envy, by bet amount and table size."""

    envies = [e.name for e in shipped_paytables("envy")]
    pairs: list[tuple[str, str, str | None]] = [
        ("fortune", pt.name, e) for pt in shipped_paytables("fortune") for e in envies
    ]
    pairs += [("chan-chu", pt.name, None) for pt in shipped_paytables("chan-chu")]
    lines = []
    for bet, paytable, envy in pairs:
        log(f"envy by table, {bet} {paytable}, envy {envy or 'its own'}")
        t = paytable_envy_by_table(bet, paytable, envy, deck=rep.deck, rules=rules)
        stem = f"envy-by-table-{bet}-{paytable}-{t.envy}"
        for fmt in FORMATS:
            (rep.out / f"{stem}.{fmt}").write_text(t.render(fmt))
        most = t.others[-1]
        tag = " (TEMPLATE, not a real casino table)" if t.template else ""
        lines.append(f"- [{bet} {paytable} with envy {t.envy}, by bet and table size]"
                     f"({stem}.md){tag}: a $5 bettor with {most} others "
                     f"{_pct(t.edge(Fraction(5), most))}")  # fmt: skip
    return lines


def _ways(rep: Report, ways: list[str], rules: Rules) -> None:
    lines = []
    if len(ways) >= 2:
        d = diff_ways(ways[0], ways[1], rep.deck, rules)
        (rep.out / "ways-diff.md").write_text(
            f"# Where {ways[0]} and {ways[1]} set hands differently\n\n"
            + _frame_md(d.rows) + "\n")  # fmt: skip
        lines.append(f"- [{ways[0]} vs {ways[1]}](ways-diff.md): set differently on "
                     f"{d.different:,} of {d.total:,} hands")  # fmt: skip
    dom = dominated_counts(ways, rep.deck, rules)
    (rep.out / "ways-dominated.md").write_text(
        "# Hands a house way sets on a dominated setting\n\n" + _frame_md(dom) + "\n")  # fmt: skip
    lines.append("- [hands set on a dominated setting](ways-dominated.md)")
    rep.add("House ways", lines)


def _optimal(rep: Report, ways: list[str], rules: Rules, log: Callable[[str], None],
             derived: list[str], choices_ready: Callable[[], None]) -> PerHand | None:  # fmt: skip
    """The optimal-strategy pages, and the derived strategy cards' against the first way
    (index lines into ``derived``; ``choices_ready`` returns once their choices can be read);
    returns the per-hand table of the traditional game against the first way (the optimal
    banker's counts are in it)."""

    lines = []
    rows = []
    kept = None
    blind = [name for name in variant_names() if not get_variant(name).dealer_exposed]
    for w, way in enumerate(ways):
        log(f"optimal strategy, {way}: per-hand table")
        for opt in optimal_strategies(blind, way, rep.deck, rules):
            name = opt.variant.name
            if way == ways[0] and name == "traditional":
                kept = opt.per_hand
            log(f"optimal strategy, {name}, {way}")
            he_way, he_opt = opt.house_edge(False), opt.house_edge(True)
            rows.append({"game": name, "house way": way, "house edge, house way": he_way,
                         "house edge, optimal": he_opt, "gain": he_way - he_opt})  # fmt: skip
            stem = f"optimal-{name}-{way}"
            # the optimal player's return table, from the strategy at hand
            t = opt.returns()
            rep.priced[(name, way, str(Player.OPTIMAL))] = t
            if rep.games is not None:
                rep.games.blind(opt, way, rep.priced)
            link = _write_table(rep.out, f"variant-{name}-{way}-{Player.OPTIMAL}", t)
            rep.summary.append(SummaryRow((0, variant_names().index(name), w,
                                           MODES.index(Player.OPTIMAL)), name,
                                          f"house way {way}", str(Player.OPTIMAL),
                                          t.headline(), link))  # fmt: skip
            by_rule = opt.by_rule().sort_values("edge given up", ascending=False)
            figures = [("house edge, house way", f"{_pct(he_way)} (exact: {he_way})"),
                       ("house edge, optimal", f"{_pct(he_opt)} (exact: {he_opt})"),
                       ("gain of optimal play", _pct(he_way - he_opt))]  # fmt: skip
            (rep.out / f"{stem}-by-rule.md").write_text(
                f"# Optimal blind strategy: {name}, house way {way}\n\n"
                + summary_md([f"{f}: {v}" for f, v in figures], figures) + "\n\n"
                "What each rule of the house way gives up against optimal play, most first."
                "\n\n" + _frame_md(by_rule) + f"\n\n![by rule]({stem}.png)\n")  # fmt: skip
            (rep.out / f"{stem}-top.md").write_text(
                f"# The hands the house way {way} sets worst against optimal play: {name}\n\n"
                + _frame_md(opt.top_losses(30)) + "\n")  # fmt: skip
            patterns = opt.by_pattern(100)
            (rep.out / f"{stem}-patterns.md").write_text(
                f"# Where the house way {way} and optimal play differ: {name}\n\n"
                "Grouped by rank pattern and the two settings (front ranks, back category: "
                "suits enter only through the straights and flushes it names), most EV given "
                "up first. `cost`: the house edge these hands add (a fraction of a unit bet "
                "per deal); `given up per hand`: what one such hand gives up on average.\n\n"
                + _frame_md(patterns) + "\n")  # fmt: skip
            patterns.assign(**{c: [float(x) for x in patterns[c]] for c in
                               ("cost", "given up per hand")}).to_csv(
                rep.out / f"{stem}-patterns.csv", index=False)  # fmt: skip
            _plot_rules(by_rule, rep.out / f"{stem}.png", f"{name}, {way}")
            lines.append(f"- {name}, {way}: house edge {_pct(he_way)} with the house way, "
                         f"{_pct(he_opt)} with optimal play ([by rule]({stem}-by-rule.md), "
                         f"[by rank pattern]({stem}-patterns.md), [top hands]({stem}-top.md), "
                         f"[chart]({stem}.png))")  # fmt: skip
            if w == 0:
                choices_ready()
                log(f"derived player's cards, {name}, {way}")
                d = derive_strategy(name, way, REPORT_RULES, opt=opt)
                derived.append(derived_page(rep.out, d))
                if name == "traditional":
                    lines.append(_strategies_page(rep, d, opt, way, log))
                del d
                forget()  # mapped from the cache again, at no cost, by the next derivation
            del opt  # the next variant's EVs are made after these are freed
    (rep.out / "optimal.md").write_text("# Optimal blind strategy against the house way\n\n"
                                        + _frame_md(pd.DataFrame(rows)) + "\n")  # fmt: skip
    rep.add("Optimal blind strategy", ["[summary](optimal.md)", *lines])
    return kept


def _strategies_page(rep: Report, d: Derivation, opt: OptimalStrategy, way: str,
                     log: Callable[[str], None]) -> str:  # fmt: skip
    """The written strategies beside the house way, the derived cards and optimal play
    (``analysis.derive.compare``); its index line."""
    log(f"written strategies, {d.game}, {way}")
    t = compare_strategies(d.game, way, derivation=d, sizes=STRATEGY_SIZES, deck=rep.deck,
                           rules=opt.table.rules, opt=opt)  # fmt: skip
    stem = f"strategies-{d.game}-{way}"
    for fmt in ("md", "csv", "json"):
        (rep.out / f"{stem}.{fmt}").write_text(t.render(fmt))
    best = min((r for r in t.rows if r.kind == "written"), key=lambda r: r.edge, default=None)
    told = "" if best is None else f"; the best written one, {best.name}, {_pct(best.edge)}"
    return (f"- [{d.game}, {way}: the written strategies, the derived cards and optimal play, "
            f"for the player and the banker]({stem}.md){told}")


def _plot_rules(by_rule: pd.DataFrame, path: Path, title: str) -> None:
    top = by_rule[by_rule["edge given up"] > 0].head(15)
    rule_bars(list(top["rule"]), [float(x) * 100 for x in top["edge given up"]], path,
              f"Where the house way gives up value: {title}",
              "house edge given up against optimal play (% of the bet)", "#c96b28")  # fmt: skip


def build_reports(
    out: Path | str = "reports",
    deck: Deck | None = None,
    rules: Rules | None = None,
    ways: list[str] | None = None,
    optimal: bool = True,
    log: Callable[[str], None] = print,
    ahead_tables: bool = True,
    games: bool = True,
    game_deals: int | None = None,
) -> Report:
    """Write every table and plot under ``out``; returns what was written.

    ``ahead_tables``: on a deck of at least ``AHEAD_MIN_CLASSES`` classes, the house ways'
    tables are built by a child process while the frontiers, the levels and the per-dealer
    table are built (``analysis.report.ahead``). ``games``: the math report of every game
    file of ``data/games`` under ``games/`` (``analysis.report.games``), with ``game_deals``
    Monte Carlo deals per mode (default each game file's)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    deck = deck or Deck.full()
    rules = rules or Rules()
    ways = ways or list(CASINO_WAYS)
    rep = Report(out, deck)
    if games:
        rep.games = SuiteGames(out, deck, rules, log, simulate=game_deals)
    lab_ways = [*ways, *(w for w in LAB_WAYS if w not in ways)]

    readings = reading_names()  # the readings of the gli card the reconciliation prices
    strategies = [str(p) for p in shipped_strategies()]  # the written strategies' cards
    later = ExitStack()  # the child building the way tables and the writes behind, ended last
    ahead: list[WaysAhead] = []

    # the per-dealer and per-hand kernels, and those pricing their tables, compile (on a fresh
    # checkout) on a thread from the start: beside the hand table, which leaves the other core
    # idle, then the frontiers and the levels (``analysis.report.warmup``)
    warming: list[Future[None]] = []

    def classes_step() -> None:

        warming.append(later.enter_context(ThreadPoolExecutor(1)).submit(warm_up_report, rules))
        # the child starts with the run: it compiles its way pass while this process builds
        # the hand table, on a core and a half
        if ahead_tables and class_index(deck).size >= AHEAD_MIN_CLASSES:
            log("way tables: building them in a child process")
            ahead.append(later.enter_context(WaysAhead(
                deck, rules, [*lab_ways, *readings, *strategies], choices=True, dealer_pages=out,
                n_rules=REPORT_RULES, after_hand_table=True)))  # fmt: skip
        _categories(rep, rules)

    def wait_for(names: list[str]) -> None:
        """Return once the child (if any) has built the tables of the ways ``names``."""
        waited = sum(child.wait(names) for child in ahead)
        if waited >= 0.5:  # the child is on the critical path here: say so
            which = ", ".join(names) if len(names) <= 3 else f"{len(names)} readings"
            log(f"waited {waited:.1f} s for the child's way tables ({which})")

    def tables_step() -> None:
        _way_free_tables(deck, rules, log)

    # the index lines of the derived cards' pages: the players', then the dealers'
    derived: list[str] = []
    derived_dealers: list[str] = []
    # per exposed game, its house-optimal dealer on the lab's table and the casino ways' edges
    lab_games: dict[str, tuple[HouseOptimal, dict[str, Fraction]]] = {}

    def keep_game(game: str, ceiling: HouseOptimal, edges: dict[str, Fraction]) -> None:
        lab_games[game] = (ceiling, {w: edges[w] for w in CASINO_WAYS if w in edges})

    def choices_ready() -> None:
        """Return once the child (if any) has found the derived cards' choices."""
        waited = sum(child.wait_choices() for child in ahead)
        if waited >= 0.5:
            log(f"waited {waited:.1f} s for the child's choices of the derived cards")

    def derived_dealer_step() -> bool:
        """The dealer's cards of the exposed games on the lab's table while it is held, unless
        the child writes them (False: nothing done here)."""
        lab = held_lab.pop()
        games = dict(lab_games)
        lab_games.clear()  # and with it the lab's table
        if lab is None or any(child.dealer_pages is not None for child in ahead):
            return False
        choices_ready()
        derived_dealers.extend(dealer_pages(rep.out, lab, REPORT_RULES, games, log))
        return True

    def pages_child() -> WaysAhead | None:
        """The child that writes the pages on the lab's table, if any."""
        return next((child for child in ahead if child.dealer_pages is not None), None)

    def child_lines(wait: Callable[[WaysAhead], list[str] | None], what: str) -> list[str] | None:
        """The index lines of the child's pages ``what`` (``wait``), once written; None when
        no child writes them or it did not."""

        child = pages_child()
        # the child waits for the lab's table in the cache, which the lab step has written
        if child is None or not is_cached(hand_table(deck, rules), PlayerSide("response")):
            return None
        t0 = time.perf_counter()
        lines = wait(child)
        if time.perf_counter() - t0 >= 0.5:
            log(f"waited {time.perf_counter() - t0:.1f} s for the child's {what}")
        return lines

    def child_dealer_step() -> bool:
        """The dealer's pages the child wrote, once written (False: no child writes them); the
        parent writes them itself, on the lab's table read again, if the child did not."""
        if pages_child() is None:
            return False
        lines = child_lines(lambda child: child.wait_dealer_pages(), "dealer pages")
        if lines is None:
            log("the dealer's derived pages: the child did not write them, written here")
            lab = response_lab(deck, rules)
            lines = dealer_pages(rep.out, lab, REPORT_RULES, log=log) if lab is not None else []
        derived_dealers.extend(lines)
        return True

    held_lab: list[DealerLab | None] = []  # the lab's table, until the variants have used it
    dealer_open: list[Ceiling] = []  # the lab's ceiling, for the reconciliation

    def lab_step() -> None:
        # the per-dealer table's cache file (about 1 GB) is written while the lab prices it
        with writes_behind():
            lab, opt = way_lab_section(rep, lab_ways, rules, log, ready=wait_for,
                                       reconcile=False, after=keep_game)  # fmt: skip
        held_lab.append(lab)
        if opt is not None:  # without the lab, which the variants' step lets go
            dealer_open.append(Ceiling.of(opt))
        for done in warming:
            done.result()  # its error, if it met one, is a bug: raised here

    def exposed_games_step() -> bool:
        """The reports of the games dealt face up, while the lab's table is held."""
        if rep.games is None:
            return False
        ceilings = {game: ceiling for game, (ceiling, _) in lab_games.items()}
        for way in ways:
            rep.games.exposed(way, rep.priced, held_lab[0], ceilings)
        return True

    steps: list[tuple[str, Callable[[], bool | None]]] = [
        ("seven-card classes", classes_step),
        ("frontiers and levels", tables_step),
        # the per-dealer table needs no way: it is built while the child sets the readings;
        # the variants' best-response counts are sums of it
        ("house-way lab", lab_step),
        ("variants", lambda: _variants(rep, ways, rules, log, wait_for, held_lab[0])),
        ("game reports, dealer exposed", exposed_games_step),
        # the dealer's derived cards while the lab's table is in memory
        ("derived dealer's cards", derived_dealer_step),
        ("side bets", lambda: _sidebets(rep, rules, log)),
        ("house ways", lambda: _ways(rep, ways, rules)),
    ]
    # the optimal banker's counts come from the optimal step's per-hand table, held for the
    # banking step only (it is the largest table of the run)
    held: dict[str, PerHand | None] = {}

    def optimal_step() -> None:
        held["per hand"] = _optimal(rep, ways[:1], rules, log, derived, choices_ready)

    if optimal:
        steps.append((OPTIMAL_STEP, optimal_step))
    # the per-hand table's cache file is written while the banking step (one core) prices
    # the table in memory (``enumerate.runtime.writebehind``); held through the optimal step,
    # whose temporaries make the run's peak of memory, so that the write's buffers do not add
    # to that peak; the run waits for it before its index
    writes = later.enter_context(writes_behind(held=True))

    def banking_step() -> None:
        writes.go()
        _banking(rep, ways[0], rules, log, held.pop("per hand", None))

    steps.append(("player banking", banking_step))
    # near the end: the child sets the readings' hands, then prices them on the lab's table
    # and writes the page, at low priority in the time the steps before leave a core idle
    # (``analysis.report.ahead``); this step waits for it
    def reconciliation_step() -> None:
        """The reconciliation's page the child wrote, once written; else written here."""
        ceiling = dealer_open.pop() if dealer_open else None
        lines = child_lines(lambda child: child.wait_reconciliation(), "reconciliation")
        if lines is None:
            reconciliation_section(rep, rules, log, wait_for, ceiling)
        else:
            rep.add(RECONCILE_TITLE, lines, LAB_TITLE)

    steps.append(("reconciliation", reconciliation_step))
    # the child writes the dealer's pages after the reconciliation's, in the time the
    # per-hand table leaves a core idle (``analysis.report.ahead``)
    steps.append(("derived dealer's cards, the child's pages", child_dealer_step))

    def other_games_step() -> bool:
        """The game reports no step above priced (a game of its own variant or way)."""
        if rep.games is None:
            return False
        started = len(rep.games.written)
        left = rep.games.rest(optimal)
        rep.add(GAMES_TITLE, ["Each game file of `data/games` as its complete math report "
                              "(`paigow report`), priced from this run's tables.",
                              *rep.games.lines(), *left], "Seven-card classes")  # fmt: skip
        return len(rep.games.written) > started

    steps.append(("game reports, the rest", other_games_step))
    # numpy's huge pages cost more to fault in than they save here (``enumerate.runtime.allocator``)
    # the pages show their summary figures as a table (``analysis.render.formats``)
    with without_huge_pages(), later, figure_tables():
        for name, step in steps:
            t0 = time.perf_counter()
            # freed memory is kept for the step's next arrays, in every step
            # (``enumerate.runtime.allocator``)
            with reusing_freed_memory():
                done = step()
            release_unused()  # what a step freed, before the next one allocates its tables
            if done is False:  # a step that had nothing to do here
                continue
            rep.seconds[name] = time.perf_counter() - t0
            log(f"{name}: {rep.seconds[name]:.1f} s (peak memory so far {_peak_mb():,.0f} "
                f"MB, now {_resident_mb():,.0f} MB)")  # fmt: skip
    if derived or derived_dealers:
        rep.add(SECTION, [*derived, *derived_dealers])
    _index(rep, rules)

    write_site(out)  # index.html and a page for every markdown file, for a browser
    return rep


def _way_free_tables(deck: Deck, rules: Rules, log: Callable[[str], None]) -> None:
    """The tables no house way goes into, built (or checked in the cache) before the steps
    that need them: the frontiers of every class and the levels of inclusion-exclusion (while
    a child process sets the hands by the house ways, ``analysis.report.ahead``)."""

    table = hand_table(deck, rules)
    log("frontiers of every class")
    player_table(deck, rules)
    for k in range(8):
        log(f"level {k} of inclusion-exclusion")
        level_arrays(table, k)


def _peak_mb() -> float:
    """Peak resident memory of this process so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _resident_mb() -> float:
    """Resident memory of this process now (Linux: /proc/self/statm, in pages)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return float("nan")
    return pages * resource.getpagesize() / 2**20


def _categories(rep: Report, rules: Rules) -> None:
    df = category_table(rep.deck, rules)
    shown = df.assign(probability=[decimal(Fraction(p), 10) for p in df["probability"]])
    (rep.out / "categories.md").write_text(
        f"# Seven-card hands by class, deck {rep.deck.name}\n\n" + markdown(shown) + "\n")
    shown.to_csv(rep.out / "categories.csv", index=False)
    rep.add("Seven-card classes", ["[table](categories.md)"])


def _summary_md(rows: list[SummaryRow]) -> str:
    """The index's summary table: a row per wager (``SummaryRow``), its name linking its page."""
    cols = ["wager", "house way or paytable", "player", *SUMMARY_FIGURES]
    cells = [[f"[{r.wager}]({r.page})", r.rules, r.player,
              *(r.figures.get(f, "-") for f in SUMMARY_FIGURES)]
             for r in sorted(rows, key=lambda r: r.key)]  # fmt: skip
    return markdown_cells(cols, cells, [False] * 3 + [True] * len(SUMMARY_FIGURES))


def _index(rep: Report, rules: Rules) -> None:
    lines = [
        "# Pai gow poker: exact results",
        "",
        f"Deck {rep.deck.name}, wheel {rules.wheel}. Every figure is an exact count of deals "
        "(or hands); probabilities and house edges are exact fractions shown as decimals.",
        "",
        "## Summary",
        "",
        "House edge per unit bet (negative: the player's edge), standard deviation per unit "
        "bet and hit frequency (the bet returns more than it cost) of every wager; each links "
        "its page. Player banking rows are the banker's table; the envy's are dollars paid for "
        "one other player's hand.",
        "",
        _summary_md(rep.summary),
        "",
    ]
    for title, body in rep.sections:
        lines += [f"## {title}", ""]
        for i, line in enumerate(body):
            if line.startswith("- ") and i and not body[i - 1].startswith("- "):
                lines.append("")  # a list starts after an empty line (markdown)
            lines.append(line)
        lines.append("")
    lines += ["## Time", ""]
    lines += [f"- {k}: {v:.1f} s" for k, v in rep.seconds.items()]
    (rep.out / "index.md").write_text("\n".join(lines) + "\n")
