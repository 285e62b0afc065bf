"""The public API: every question the toolkit answers, as one function each.

Each function takes what it is about as its first argument and everything else by keyword,
named alike everywhere: ``way=`` the house way (a registered name such as ``"gli"``, a reading
such as ``"gli[two-pair=or]"``, or a ``HouseWay``), ``player=`` a ``Player`` mode, ``deck=`` a
``Deck`` or its name (``"full"``, ``"TJQKA:cdh+joker"``), ``rules=`` the rule options. Every
result is a frozen table that renders itself (``render("md" | "csv" | "json")``) and shows as
the report's HTML in Jupyter. Tables are built once and cached (``PAIGOW_CACHE_DIR``); the
first full-deck call of a kind is a long job, later ones read the cache.

>>> t = return_table("dealer-open", way="gli", player=Player.BEST_RESPONSE,
...                  deck="TJQKA:cdh+joker", use_cache=False)
>>> t.game, t.player, t.total
('dealer-open', 'best-response', 411840)
>>> t.house_edge == -sum(t.rows["return"])
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analysis.games.players import Player
from analysis.render.formats import decimal
from enumerate.cards import parse_cards
from enumerate.errors import (
    BetFileError,
    CardError,
    ConditionError,
    DataFileError,
    GameFileError,
    PaytableError,
    ReportFileError,
    VariantError,
)
from enumerate.rules import Deck, Rules

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd

    from analysis.checks.simulate import Simulation
    from analysis.derive import Derivation
    from analysis.derive.compare import StrategyTable
    from analysis.games.hands import HandReport
    from analysis.games.paytables import Paytable
    from analysis.games.variants import Variant
    from analysis.mathreport.build import MathReport
    from analysis.mathreport.game import Game
    from analysis.mathreport.reportfile import Verification
    from analysis.pricing.banking import BankingReport
    from analysis.pricing.best import HandChoices
    from analysis.pricing.envy import EnvyByTable, EnvyTable, SideBetReport
    from analysis.pricing.optimal import OptimalStrategy
    from analysis.pricing.returns import ReturnTable
    from analysis.report.build import Report
    from analysis.waylab.cardcheck import CardCheck
    from analysis.waylab.wayedge import DealerLab
    from analysis.waylab.ways import SetReport, WayDiff
    from enumerate.houseways import HouseWay

__all__ = [
    "BetFileError",
    "CardError",
    "ConditionError",
    "DataFileError",
    "Deck",
    "GameFileError",
    "PaytableError",
    "Player",
    "ReportFileError",
    "Rules",
    "VariantError",
    "banking",
    "best_settings",
    "bet_files",
    "casino_ways",
    "check_card",
    "compare_tables",
    "compare_ways",
    "dealer_lab",
    "decimal",
    "derived_strategy",
    "derived_way",
    "dominated_settings",
    "envy_by_table",
    "envy_table",
    "five_card_name",
    "game",
    "game_report",
    "get_variant",
    "get_way",
    "hand",
    "house_optimal_edge",
    "house_way_records",
    "house_ways",
    "load_way_modules",
    "optimal_strategy",
    "parse_cards",
    "paytable",
    "paytables",
    "points_card_text",
    "reports",
    "return_table",
    "set_hand",
    "seven_card_classes",
    "side_bet",
    "side_bets",
    "simulate",
    "strategies",
    "two_card_name",
    "variants",
    "verify",
    "way_clauses",
    "way_costs",
    "way_edge",
    "way_patterns",
    "way_readings",
]

def _deck(deck: Deck | str | None) -> Deck:
    if isinstance(deck, Deck):
        return deck
    return Deck.parse(deck) if deck else Deck.full()


def _way_name(way: HouseWay | str | None) -> str | None:
    if way is None or isinstance(way, str):
        return way
    return way.name


def return_table(
    variant: Variant | str,
    *,
    way: HouseWay | str | None = None,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> ReturnTable:
    """The exact return table of ``variant``'s main wager: the dealer sets by ``way`` (default
    the variant's), the player plays ``player`` (default: best response where the dealer is
    exposed, else the house way).

    ``Player.OPTIMAL`` (blind variants) prices the optimal strategy from the per-hand table;
    ``Player.BANKING`` and ``Player.BANKING_OPTIMAL`` (traditional) the player who banks
    against one opponent. ``player_way`` (blind variants, ``Player.HOUSE_WAY``): the player
    sets by that card or way instead of the dealer's (a strategy card), priced from the
    per-hand table where it can be. ``on_run`` is told in one line when the deals must be
    counted (not read from the cache).
    """
    from analysis.games.variants import get_variant

    v = get_variant(variant)
    mode = Player(player) if player is not None else v.default_player
    d, name = _deck(deck), _way_name(way)
    if mode in (Player.BANKING, Player.BANKING_OPTIMAL):
        from analysis.pricing.banking import banking_table

        banker = Player.OPTIMAL if mode == Player.BANKING_OPTIMAL else Player.HOUSE_WAY
        return banking_table(v.name, name, banker, d, rules)
    if mode == Player.OPTIMAL:
        from analysis.pricing.optimal import optimal_return_table

        if v.dealer_exposed:
            raise ValueError(
                f"variant {v.name} exposes the dealer's hand: its best play is the best "
                f"response (player={Player.BEST_RESPONSE}), not a blind strategy"
            )
        return optimal_return_table(v, name, d, rules, use_cache)
    if player_way is not None:
        if mode != Player.HOUSE_WAY:
            raise ValueError(f"player_way is for a blind player (player={Player.HOUSE_WAY})")
        from analysis.pricing.strategy import strategy_return_table

        return strategy_return_table(v, player_way, name, d, rules, use_cache)
    from analysis.pricing.returns import analyze

    return analyze(v, way, mode, d, rules, use_cache, on_run=on_run)


def side_bet(
    bet: str,
    *,
    paytable: Paytable | str | None = None,
    players: int | None = None,
    envy: str | None = None,
    way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> SideBetReport:
    """A side bet priced exactly: a bet file (a name of ``data/bets`` such as
    ``"jackpot-pai-gow"``, or a path; docs/bets.md), or a side bet under a paytable (a shipped
    name such as ``"3"`` for Fortune table 3, a TOML file, or a ``Paytable`` built in memory);
    with the envy bonus for ``players`` at the table where the bet has one. ``way``: the house
    way, for bets settled on the dealer's setting or on deals. A bet file has its own pays: a
    ``paytable`` or ``envy`` given with one is an error."""
    from analysis.pricing.sidebets import side_bet_report

    return side_bet_report(bet, paytable, players, envy, _deck(deck), rules, way, use_cache,
                           on_run)  # fmt: skip


def bet_files() -> pd.DataFrame:
    """The bet files of ``data/bets``: name, what each is settled on, title and source."""
    import pandas as pd

    from analysis.bets.files import shipped_bets

    return pd.DataFrame([
        {"bet": b.name, "hand": b.hand, "events": len(b.events), "template": b.template,
         "title": b.title, "source": b.source}
        for b in shipped_bets()
    ])  # fmt: skip


def side_bets() -> pd.DataFrame:
    """The side bets and their shipped paytables."""
    from analysis.pricing.sidebets import bet_listing

    return bet_listing()


def envy_table(
    paytable: str | None = None,
    *,
    players: int | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> EnvyTable:
    """The envy bonus under an envy table (``"5000"``, ``"3000"`` or a file): the dollars a
    bettor expects from one other player's hand, or from ``players`` at the table."""
    from analysis.pricing.envy import price_envy_table as make

    return make(paytable, _deck(deck), rules, players)


def envy_by_table(
    bet: str = "fortune",
    *,
    paytable: str | None = None,
    envy: str | None = None,
    amounts: Sequence[Fraction | int] | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> EnvyByTable:
    """A Fortune (or Chan Chu) bettor's overall house edge with his envy, or a bet file's with
    its envy table, by bet amount and by the number of other players at the table."""
    from analysis.pricing.envy import BET_AMOUNTS
    from analysis.pricing.sidebets import side_bet_by_table

    chosen = BET_AMOUNTS if amounts is None else tuple(Fraction(a) for a in amounts)
    return side_bet_by_table(bet, paytable, envy, chosen, _deck(deck), rules)


def banking(
    *,
    way: str = "gli",
    rounds: int = 200_000,
    seed: int = 1,
    every: int = 7,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> BankingReport:
    """Player banking in traditional pai gow: the exact one-on-one tables of each banker
    strategy, the house's edge when a player banks one round in ``every``, and a labelled
    simulation of one to six opponents."""
    from analysis.pricing.banking import banking_report

    return banking_report(way, rounds, seed, every, _deck(deck), rules)


def optimal_strategy(
    variant: Variant | str = "traditional",
    *,
    way: str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
) -> OptimalStrategy:
    """The exact optimal blind strategy of a blind variant against its house way: per class,
    the EV of every non-dominated setting, the best one and the house way's; ``by_rule()``,
    ``by_pattern()`` and ``top_losses()`` say where the house way gives EV away."""
    from analysis.pricing.optimal import solve_optimal as make

    return make(variant, way, _deck(deck), rules, use_cache)


def best_settings(
    cards: str,
    *,
    variant: Variant | str = "traditional",
    way: str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    method: str = "auto",
) -> HandChoices:
    """Every non-dominated setting of one hand with its exact counts against all dealer hands
    of the other cards and its EV; the house way's setting and the optimal one marked.
    ``method``: "auto" reads the cached per-hand table of the deck when there is one, else
    counts this hand alone ("direct"); "table" builds the table if needed."""
    from analysis.pricing.best import hand_choices

    return hand_choices(cards, variant, way, _deck(deck), rules, use_cache, method)


def set_hand(cards: str, *, way: HouseWay | str = "gli", rules: Rules | None = None) -> SetReport:
    """How ``way`` sets one hand (the rule that fired) beside the hand's non-dominated settings.

    >>> r = set_hand("Ks Kh 9c 7d 5h 3s 2c", way="gli")
    >>> r.rule
    '6. one pair: two highest singletons in front'
    """
    from analysis.waylab.ways import set_report

    return set_report(way, cards, rules)


def compare_ways(
    a: HouseWay | str,
    b: HouseWay | str,
    *,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> WayDiff:
    """The hands two house ways set differently, by the rule of each that fired, and the
    hands each sets on a dominated setting."""
    from analysis.waylab.ways import diff_ways

    return diff_ways(a, b, _deck(deck), rules)


def dealer_lab(
    variant: Variant | str,
    *,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    on_build: Callable[[str], None] | None = None,
) -> DealerLab:
    """The per-dealer table of ``variant`` against these players (best-responding, or blind by
    ``player_way``): built once per deck and player mode (``on_build`` is told when it must
    be), then every dealer way is a sum over it. Pass it as ``lab=`` to ``way_edge``,
    ``house_optimal_edge``, ``way_costs`` and ``way_patterns`` to ask several questions of one
    table."""
    from analysis.waylab.wayedge import dealer_lab as make

    mode = None if player is None else Player(player).value
    return make(variant, mode, player_way, _deck(deck), rules, on_build=on_build)


def way_edge(
    variant: Variant | str,
    *,
    way: HouseWay | str,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    lab: DealerLab | None = None,
) -> ReturnTable:
    """The return table of ``variant`` with the dealer setting by ``way``, priced from the
    per-dealer table (``dealer_lab``; built once per deck and player mode, then any dealer way
    is a sum): best-responding players, or blind players setting by ``player_way``."""
    from analysis.waylab.wayedge import price_dealer_way

    if lab is not None:
        return price_dealer_way(variant, way, lab=lab)
    mode = None if player is None else Player(player).value
    return price_dealer_way(variant, way, mode, player_way, _deck(deck), rules, use_cache)


def house_optimal_edge(
    variant: Variant | str,
    *,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    lab: DealerLab | None = None,
) -> Fraction:
    """The ceiling of every dealer way: the house edge of the dealer who sets each hand the
    way best for the house against these players."""
    from analysis.waylab.wayedge import house_optimal

    lab = lab or dealer_lab(variant, player=player, player_way=player_way, deck=deck, rules=rules)
    return house_optimal(lab, variant).house_edge


def _check_max_rules(max_rules: int) -> None:
    from analysis.derive import MAX_RULES

    if not 1 <= max_rules <= MAX_RULES:
        raise ValueError(f"a derived card has 1 to {MAX_RULES} rules, not {max_rules}")


def derived_strategy(
    variant: Variant | str,
    *,
    way: HouseWay | str | None = None,
    max_rules: int = 12,
    base: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    search: str = "greedy",
) -> Derivation:
    """The player's rule cards of 1 .. ``max_rules`` rules for a blind variant against the
    dealer's ``way``, each an exact house edge (``docs/derive.md``): ``.edge(k)``,
    ``.posted(k)``, ``.card(k)`` (a way that prices like any card), ``.still_worse(k)``.
    ``search``: "greedy", or "wide" and "deep" for better cards at several times the time."""
    from analysis.derive import derive_strategy

    _check_max_rules(max_rules)
    name = variant if isinstance(variant, str) else variant.name
    return derive_strategy(name, _way_name(way), max_rules, base, _deck(deck), rules,
                           search=search)  # fmt: skip


def points_card_text(
    variant: Variant | str = "traditional",
    *,
    way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    fit: bool = True,
    banker: bool = False,
) -> str:
    """The point-count card of a blind variant against the dealer's ``way``, as a file: one
    rule, the setting with the most points, and its chart: each back and front scored by its
    chance to beat the dealer's, then (``fit``) refit to the exact EVs
    (``analysis.derive.points``); ``banker``: fitted for the player who banks traditional pai
    gow. ``derived_strategy(..., base="points")`` puts derived rules before the fitted
    chart."""
    from analysis.derive.points import points_card

    name = variant if isinstance(variant, str) else variant.name
    return points_card(name, _way_name(way), _deck(deck), rules, fit=fit, banker=banker).text


def strategies(
    variant: Variant | str = "traditional",
    *,
    way: HouseWay | str | None = None,
    cards: Sequence[HouseWay | str] | None = None,
    derived: Sequence[int] = (5, 12, 30),
    points: Sequence[int] | None = (11, 29),
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> StrategyTable:
    """The player's strategies side by side, each priced exactly against the dealer's ``way``
    (default the variant's): the house way played as a strategy, each card of ``cards``
    (default the written strategies of ``data/strategies``), the derived cards of ``derived``
    rules, the point count and the derived cards of ``points`` rules before it, and optimal
    play; in traditional, with the banker's edge of each (``docs/derive.md``). ``points=None``:
    no point count."""
    from analysis.derive import derive_strategy
    from analysis.derive.compare import compare_strategies

    name = variant if isinstance(variant, str) else variant.name
    dealer = _way_name(way) or get_variant(name).house_way
    d = None
    if derived:
        _check_max_rules(max(derived))
        d = derive_strategy(name, dealer, max(derived), None, _deck(deck), rules)
    over = None
    if points is not None:
        _check_max_rules(max(points, default=1))
        over = derive_strategy(name, dealer, max(points, default=0), "points", _deck(deck),
                               rules)  # fmt: skip
    return compare_strategies(name, dealer, cards, d, derived, _deck(deck), rules,
                              over_points=over, point_sizes=points or ())  # fmt: skip


def derived_way(
    variant: Variant | str,
    *,
    max_rules: int = 12,
    base: HouseWay | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    lab: DealerLab | None = None,
    search: str = "greedy",
) -> Derivation:
    """The dealer's rule cards of 1 .. ``max_rules`` rules over the card ``base`` (default the
    variant's way), against best-responding players (exposed games) or players who set by
    ``player_way`` (or those of ``lab``); each an exact house edge, up toward the
    house-optimal ceiling. ``search``: "greedy", "wide" or "deep" (``derived_strategy``)."""
    from analysis.derive import derive_way

    _check_max_rules(max_rules)
    name = variant if isinstance(variant, str) else variant.name
    player = None if player_way is None else Player.HOUSE_WAY
    return derive_way(name, max_rules, base, player, _way_name(player_way), _deck(deck), rules,
                      lab=lab, search=search)  # fmt: skip


def way_costs(
    variant: Variant | str,
    *,
    way: HouseWay | str,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    lab: DealerLab | None = None,
) -> pd.DataFrame:
    """Per rule of the dealer way ``way``: the hands it sets, those below the house-optimal
    setting and the house edge they give away."""
    from analysis.waylab.waycosts import rule_costs

    lab = lab or dealer_lab(variant, player=player, player_way=player_way, deck=deck, rules=rules)
    return rule_costs(lab, variant, way)


def way_patterns(
    variant: Variant | str,
    *,
    way: HouseWay | str,
    top: int | None = 40,
    player: Player | str | None = None,
    player_way: HouseWay | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    lab: DealerLab | None = None,
) -> pd.DataFrame:
    """The hands ``way`` sets below the house-optimal setting, by rank pattern and the two
    settings, costliest first (``top`` rows; all when None)."""
    from analysis.waylab.waycosts import pattern_costs

    lab = lab or dealer_lab(variant, player=player, player_way=player_way, deck=deck, rules=rules)
    return pattern_costs(lab, variant, way, top=top)


def house_ways() -> pd.DataFrame:
    """The registered house ways: name, version, rules, description."""
    from analysis.waylab.ways import way_listing

    return way_listing()


def casino_ways() -> tuple[str, ...]:
    """The house ways of the casinos (the report's ways), by name."""
    from analysis.waylab.ways import CASINO_WAYS

    return tuple(CASINO_WAYS)


def variants() -> list[str]:
    """The shipped variants (``data/variants``); any variant file path works as well."""
    from analysis.games.variants import variant_names

    return list(variant_names())


def verify(*reports: str, only: str | None = None, out: str | None = None) -> Verification:
    """Check report files line by line (``docs/games.md``; none given: every file of
    ``data/published``): each line published, computed, its difference and status (pass,
    FAIL, or open: a disagreement on record). ``out``: also write the verification report
    (HTML, Markdown, PDF, CSV/JSON) to that folder."""
    from pathlib import Path

    from analysis.mathreport.reportfile import published_files, verify_files
    from analysis.mathreport.write import write_document

    paths = [Path(r) for r in reports] or published_files()
    result = verify_files(paths, only)
    if out is not None:
        write_document(result.document(), Path(out))
    return result


def game(spec: str) -> Game:
    """A game file read and checked (a path, or the name of a game of ``data/games``):
    variant, house way, deck, player modes, side bets (``docs/games.md``)."""
    from analysis.mathreport.game import load_game

    return load_game(spec)


def game_report(
    spec: Game | str,
    *,
    out: str | Path | None = None,
    deck: Deck | str | None = None,
    command: str = "",
    log: Callable[[str], None] = print,
) -> MathReport:
    """The complete math report of a game (a ``Game`` or a game file): the game in words, each
    player mode's return table and statistics, the side bets, optimal play, a Monte Carlo
    cross-check, exact fractions, provenance. ``out``: written there as HTML, Markdown, PDF and
    a CSV and JSON file per table. ``deck``: price it on another deck than the game's."""
    from dataclasses import replace
    from pathlib import Path

    from analysis.mathreport.build import math_report
    from analysis.mathreport.write import write_document

    g = game(spec) if isinstance(spec, str) else spec
    if deck is not None:
        g = replace(g, deck=_deck(deck))
    report = math_report(g, command, log)
    if out is not None:
        write_document(report.document, Path(out))
    return report


def compare_tables(tables: Sequence[ReturnTable]) -> pd.DataFrame:
    """One row per return table: game, player, house way, P(win/push/loss), house edge,
    house edge per resolved bet and standard deviation."""
    from analysis.pricing.returns import compare

    return compare(tables)


def hand(cards: str, *, rules: Rules | None = None) -> HandReport:
    """One seven-card hand: its 21 settings (names, rank ids, validity), its Fortune class,
    best five cards and pai gow flags.

    >>> h = hand("As Ks Qs Js Ts 2c Jk")
    >>> h.description.name, max(s.high_name for s in h.settings if s.valid)
    ('royal flush', 'royal flush')
    """
    from analysis.games.hands import hand_report

    return hand_report(cards, rules)


def five_card_name(cards: str, *, rules: Rules | None = None) -> str:
    """The name of five cards as a pai gow high hand (the joker read at its best).

    >>> five_card_name("Jk 5c 4d 3h 2s")  # the joker as the ace: the wheel, second-highest
    'straight, five high (wheel)'
    >>> five_card_name("Jk 5c 4d 3h 2s", rules=Rules(wheel="low"))  # as a six, above the wheel
    'straight, six high'
    """
    from enumerate.evaluate import five_card_table

    table = five_card_table(rules)
    return table.name(table.id_of(parse_cards(cards, count=5)))


def two_card_name(cards: str) -> str:
    """The name of two cards as a pai gow low hand (the joker is an ace there).

    >>> two_card_name("Jk Ad")
    'pair of aces'
    """
    from enumerate.evaluate import two_card_id
    from enumerate.evaluate import two_card_name as name

    return name(two_card_id(parse_cards(cards, count=2)))


def seven_card_classes(*, deck: Deck | str | None = None, rules: Rules | None = None
                       ) -> pd.DataFrame:  # fmt: skip
    """The deck's seven-card hands by Fortune class (strongest first), counted exactly, with
    a total row."""
    from analysis.pricing.categories import category_table

    return category_table(_deck(deck), rules)


def paytable(bet: str, name: str) -> Paytable:
    """A paytable of ``bet``: a shipped name (``paytables(bet)``) or a TOML file."""
    from analysis.bets.paytables import find_paytable

    return find_paytable(bet, name)


def paytables(bet: str | None = None) -> list[Paytable]:
    """The shipped paytables (of one bet if given)."""
    from analysis.bets.paytables import shipped_paytables

    return shipped_paytables(bet)


def dominated_settings(way: HouseWay | str, *, deck: Deck | str | None = None,
                       rules: Rules | None = None) -> pd.DataFrame:  # fmt: skip
    """The hands ``way`` sets on a dominated setting (another valid setting is as strong in
    both hands and stronger in one), by the rule that fired."""
    from analysis.waylab.ways import dominated_by_rule

    return dominated_by_rule(way, _deck(deck), rules)


def get_way(name: str) -> HouseWay:
    """The house way ``name``: a registered name, a reading (``"gli[two-pair=or]"``) or a rule
    card's file; an unknown one is a ``ValueError`` naming the known ways."""
    from enumerate.houseways import get_way as lookup

    return lookup(name)


def get_variant(spec: str) -> Variant:
    """A shipped variant by name, or a variant file (a ``VariantError`` when it is wrong)."""
    from analysis.games.variants import get_variant as lookup

    return lookup(spec)


def way_clauses() -> pd.DataFrame:
    """The ambiguous clauses of the registered ways' cards, each with the reading its way
    takes and the literal one (choose another as ``way[clause=reading]``)."""
    from analysis.waylab.ways import clause_listing

    return clause_listing()


def way_readings() -> pd.DataFrame:
    """The alternatives of each clause of ``way_clauses`` and what each means."""
    from analysis.waylab.ways import reading_listing

    return reading_listing()


def house_way_records() -> list[dict]:
    """``house_ways`` as records, each with its clauses and their readings."""
    from analysis.waylab.ways import way_records

    return way_records()


def check_card(card: HouseWay | str, *, deck: Deck | str | None = None,
               rules: Rules | None = None) -> CardCheck:  # fmt: skip
    """Every rule of a rule card (a card's name, a reading or a file) over every hand of the
    deck: the hands each rule reaches and sets, and the card's errors and warnings."""
    from analysis.waylab.cardcheck import check_card as check

    return check(card, _deck(deck), rules)


def simulate(
    variant: Variant | str,
    *,
    deals: int,
    seed: int = 1,
    way: str | None = None,
    player: Player | str | None = None,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
) -> Simulation:
    """Monte Carlo of a variant's main wager over ``deals`` random deals (reproducible for a
    seed): the simulated return table, its house edge and that estimate's standard error, the
    independent check of ``return_table``."""
    from analysis.checks.simulate import simulate_variant

    if deals < 1:
        raise ValueError(f"deals={deals}: a simulation needs at least one deal")
    name = variant if isinstance(variant, str) else variant.name
    mode = None if player is None else Player(player).value
    return simulate_variant(name, deals, seed, way, mode, _deck(deck), rules)


def reports(
    out: str = "reports",
    *,
    deck: Deck | str | None = None,
    rules: Rules | None = None,
    ways: Sequence[str] = (),
    optimal: bool = True,
    log: Callable[[str], None] = print,
) -> Report:
    """Write the report (every variant, casino way, side bet and comparison page, as HTML,
    Markdown, CSV and JSON) under ``out``; ``ways``: the casino ways (default all)."""
    from analysis.report.build import build_reports

    return build_reports(out, _deck(deck), rules, list(ways), optimal, log=log)


def load_way_modules(specs: Sequence[str] = ()) -> None:
    """Import the modules of user-defined house ways (``.py`` paths or dotted names) listed in
    ``$PAIGOW_WAY_MODULES`` and in ``specs``; each registers its ways when imported."""
    from analysis.waylab.ways import load_way_module, way_modules_from_env

    for spec in [*way_modules_from_env(), *specs]:
        load_way_module(spec)
