"""Side bets by name under a paytable (``paigow sidebet fortune --paytable 3``): each is a bet
file (``analysis.bets``, docs/bets.md) whose events come from the bet's shipped file in
``data/bets`` and whose pays come from the paytable (``analysis.games.paytables``). A hand pays
on the first event it holds that the paytable pays or pushes; every other hand loses. So a
paytable may leave events out or mark them "lose", and the rows always add up to every hand
(or deal) of the deck. No bet has code of its own here: ``BETS`` says what each is called,
which game deals it and which paytable is its default.

Readings (docs/rules.md, "Side bets"; the paytable files repeat them):

- Dealer Bonus: the published table gives ten amounts (500/500/500/150/50/25/4/3/2/2) for the
  eleven Fortune hands: one line "7-card straight flush" (natural and joker together), then
  royal flush + royal match and five aces, so both 7-card straight flushes pay 500. The
  nine-high low hand (5) is listed last and pays only when the dealer holds none of the Fortune
  hands ("only the highest qualifying hand pays").
- Jacks Beat: the player's hand in the Fortune order; "nothing" is every other player hand
  (ace-high pai gow included). Its shipped table, like Chan Chu's, is a TEMPLATE.
- Push Ace High: "player ace-high pai gow" is the player's seven cards being an ace-high pai
  gow (joker or natural ace), as for the dealer.

The envy bonus is not a wager of its own: a bettor with at least $5 on the Fortune (or Chan
Chu) bet gets a fixed amount for every OTHER player at the table holding a listed hand. An other
player's seven cards are a uniformly random hand of the deck (whatever the bettor holds, by
symmetry over all deals), so by linearity the expected envy per round is exactly
``(N - 1) * sum over hands of P(hand) * amount`` for N players at the table, the bettor
included and the dealer not.

>>> from enumerate.rules import Deck
>>> t = price_sidebet("queens-dragon", deck=Deck.parse("23569JQA:cd+joker"), use_cache=False)
>>> t.rows[["event", "pays", "combinations"]].values.tolist()
[['dealer queen-high pai gow', Fraction(50, 1), 70], ['all other hands', Fraction(-1, 1), 19378]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import pandas as pd

from analysis.bets.files import BetEvent, BetFile, Pay, find_bet, names_bet_file, shipped_bets
from analysis.bets.paytables import find_paytable, shipped_paytable, shipped_paytables
from analysis.games.paytables import BET_EVENTS, LOSE, Paytable, PaytableError
from analysis.pricing.betfiles import bet_envy_by_table, bet_report, settle
from analysis.pricing.envy import (
    BET_AMOUNTS,
    DEFAULT_ENVY_TABLE,
    EnvyByTable,
    SideBetReport,
    max_players,
    price_envy_table,
)
from analysis.pricing.returns import ReturnTable
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import (
    ACE_HIGH_PAI_GOW_EVENTS,
    DealerEvent,
)


@dataclass(frozen=True)
class SideBet:
    """What a side bet is settled on."""

    name: str
    title: str
    game: str  # the variant it is dealt with ("any" when not tied to one)
    counted: str  # "player hands", "dealer hands" or "deals"
    description: str
    default_paytable: str
    uses_house_way: bool = False  # the dealer's house-way setting decides an event
    flag_mask: int | None = None  # dealer flags of the pair counts it needs (deal bets)
    has_envy: bool = False

    @property
    def events(self) -> tuple[str, ...]:
        return BET_EVENTS[self.name]

    @property
    def loss_event(self) -> str:
        return "all other deals" if self.counted == "deals" else "all other hands"


BETS: dict[str, SideBet] = {
    b.name: b
    for b in (
        SideBet("fortune", "Fortune bonus", "any", "player hands",
                "the best Fortune hand of the player's seven cards", "1", has_envy=True),
        SideBet("envy", "Envy bonus", "any", "player hands",
                "dollars for every OTHER player holding a listed hand (Fortune bet of $5 or "
                "more)", DEFAULT_ENVY_TABLE, has_envy=True),
        SideBet("dealer-bonus", "Dealer Bonus", "any", "dealer hands",
                "the best Fortune hand of the dealer's seven cards, else a nine-high low hand "
                "(house way)", "1", uses_house_way=True),
        SideBet("push-ace-high", "Push Ace High", "face-up", "deals",
                "the dealer's ace-high pai gow (joker or natural), more when the player has one "
                "too", "5-15-40", flag_mask=ACE_HIGH_PAI_GOW_EVENTS),
        SideBet("queens-dragon", "Queen's Dragon", "ez", "dealer hands",
                "the dealer holds a queen-high pai gow", "50"),
        SideBet("tiger-9", "Tiger 9", "commission-free", "dealer hands",
                "the dealer's house-way low hand is nine-high", "30", uses_house_way=True),
        SideBet("jacks-beat", "Jacks Beat", "dealer-open", "deals",
                "the dealer holds two or more jacks; the pay depends on the player's hand",
                "template", flag_mask=DealerEvent.TWO_JACKS),
        SideBet("chan-chu", "Chan Chu", "any", "player hands",
                "the best Fortune hand of the player's seven cards, own pays and envy",
                "template", has_envy=True),
    )
}  # fmt: skip


def get_bet(name: str) -> SideBet:
    """A side bet by name; one-line error naming the known ones."""
    if name not in BETS:
        raise ValueError(f"unknown side bet {name!r} (known: {', '.join(BETS)})")
    return BETS[name]


# bet files ------------------------------------------------------------------------------------


def bet_file(bet: SideBet, paytable: Paytable) -> BetFile:
    """``bet`` paying as ``paytable`` says, as a bet file: each event's condition from the
    bet's shipped file (``data/bets/<bet>-<default paytable>.toml``, which names every event
    of the bet), its pay from the paytable. Events the paytable does not pay, or marks
    "lose", are left out, so a hand holding one pays on the first later event it holds."""
    template = find_bet(f"{bet.name}-{bet.default_paytable}")
    by_name = {e.name: e for e in template.events}
    events = []
    for event, pay in paytable.pays:
        if event not in by_name:
            raise AssertionError(f"{template.path} has no event {event!r} of bet {bet.name}")
        if pay != LOSE:
            e = by_name[event]
            events.append(BetEvent(e.name, e.when, Pay(pay), e.condition))
    return replace(template, name=f"{bet.name}-{paytable.name}", title=paytable.title,
                   source=paytable.source, events=tuple(events), template=paytable.template,
                   envy=())  # fmt: skip


def price_sidebet(
    bet: SideBet | str,
    paytable: Paytable | str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> ReturnTable:
    """The exact return table of a side bet under a paytable (name, file or ``Paytable``;
    default: the bet's default table)."""
    bet = get_bet(bet) if isinstance(bet, str) else bet
    if bet.name == "envy":
        raise ValueError("the envy bonus is not a wager of its own: see envy_table")
    table = _paytable(bet, paytable)
    deck = deck or Deck.full()
    if house_way is not None and not bet.uses_house_way and bet.flag_mask is None:
        house_way = None  # read by no event of the bet
    lines, rows, _ = settle(bet_file(bet, table), deck, rules, house_way, use_cache, on_run)
    notes = [f"{bet.title}: {bet.description}"]
    if table.source:
        notes.append(f"paytable source: {table.source}")
    if table.note:
        notes.append(table.note)
    return ReturnTable.from_lines(
        lines, rows.total, game=bet.name, deck=deck.name,
        house_way=rows.house_way if bet.uses_house_way else None,
        title=f"{bet.title}, paytable {table.name}" + (f" ({table.title})" if table.title else ""),
        paytable=table.name, template=table.template, notes=tuple(notes),
        unit="deals" if bet.counted == "deals" else bet.counted,
    )  # fmt: skip


def _paytable(bet: SideBet, spec: Paytable | str | None) -> Paytable:
    if isinstance(spec, Paytable):
        if spec.bet != bet.name:
            raise PaytableError(
                f"{spec.path}: bet: this paytable is for {spec.bet}, not {bet.name}"
            )
        return spec
    return find_paytable(bet.name, spec or bet.default_paytable)


# envy -----------------------------------------------------------------------------------------


def envy_for(bet: SideBet, paytable: Paytable, envy: str | None) -> Paytable | None:
    """The envy amounts that go with a bet's paytable: ``envy`` (a name or file) if given, else
    the paytable's own [envy] section, else for Fortune the common table ``5000``."""
    if envy is not None:
        return find_paytable("envy", envy)
    if paytable.envy:
        return paytable
    if bet.name == "fortune":
        return shipped_paytable("envy", DEFAULT_ENVY_TABLE)
    return None


# reports --------------------------------------------------------------------------------------


def sidebet_report(
    name: str,
    paytable: Paytable | str | None = None,
    players: int | None = None,
    envy: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> SideBetReport:
    """Everything ``paigow sidebet NAME`` shows, with one-line errors for options that do not
    apply to the bet."""
    bet = get_bet(name)
    if house_way is not None and not bet.uses_house_way:
        raise ValueError(f"side bet {bet.name} does not depend on the house way (--house-way)")
    if (players is not None or envy is not None) and not bet.has_envy:
        with_envy = ", ".join(b.name for b in BETS.values() if b.has_envy)
        raise ValueError(
            f"side bet {bet.name} has no envy bonus; --players and --envy apply to {with_envy}"
        )
    if bet.name == "envy":
        if envy is not None:
            raise ValueError("side bet envy: choose its table with --paytable")
        return SideBetReport(None, price_envy_table(paytable, deck, rules, players, use_cache))
    returns = price_sidebet(bet, paytable, deck, rules, house_way, use_cache, on_run)
    envy_table_ = None
    if bet.has_envy:
        table = _paytable(bet, paytable)
        source = envy_for(bet, table, envy)
        if source is not None:
            envy_table_ = price_envy_table(source, deck, rules, players, use_cache)
    return SideBetReport(returns, envy_table_)


def side_bet_report(
    bet: str,
    paytable: Paytable | str | None = None,
    players: int | None = None,
    envy: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> SideBetReport:
    """Any side bet priced, the one dispatch of the API and the command line: a bet file (a
    name of ``data/bets`` or a path: ``analysis.pricing.betfiles.bet_report``), else a side bet
    by name under a paytable (``sidebet_report``). A paytable or an envy table is refused for a
    bet file, whose pays are its own."""
    if names_bet_file(bet):
        _own_pays(bet, paytable, envy)
        return bet_report(bet, players, deck, rules, house_way, use_cache, on_run)
    return sidebet_report(bet, paytable, players, envy, deck, rules, house_way, use_cache, on_run)


def side_bet_by_table(
    bet: str,
    paytable: str | None = None,
    envy: str | None = None,
    amounts: tuple[Fraction, ...] = BET_AMOUNTS,
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> EnvyByTable:
    """A bet's overall house edge with its envy, by bet amount and number of other players:
    a bet file with an envy table, or fortune or chan-chu under a paytable (as
    ``side_bet_report`` dispatches)."""
    if names_bet_file(bet):
        _own_pays(bet, paytable, envy)
        return bet_envy_by_table(bet, amounts, deck, rules)
    return paytable_envy_by_table(bet, paytable, envy, amounts, deck, rules)


def _own_pays(bet: str, paytable: Paytable | str | None, envy: str | None) -> None:
    for option, value in (("paytable", paytable), ("envy", envy)):
        if value is not None:
            raise ValueError(f"{bet} is a bet file, with its own pays: a {option} is for a side "
                             "bet by name (see paigow sidebet --list)")  # fmt: skip


def bet_listing() -> pd.DataFrame:
    """One row per side bet: what it is settled on and its shipped paytables; then one per bet
    file of ``data/bets`` that is no table of those bets (``paigow sidebet NAME`` prices it)."""

    rows = []
    for bet in BETS.values():
        tables = shipped_paytables(bet.name)
        names = ", ".join(t.name + (" (TEMPLATE, not a real casino table)" if t.template else "")
                          for t in tables)  # fmt: skip
        rows.append(
            {
                "bet": bet.name,
                "game": bet.game,
                "counted over": bet.counted,
                "pays on": bet.description,
                "paytables": names,
                "default": bet.default_paytable,
            }
        )
    named = {f"{t.bet}-{t.name}" for t in shipped_paytables() if t.bet != "envy"}
    for b in shipped_bets():
        if b.name not in named:
            rows.append({"bet": b.name, "game": b.game, "counted over": b.unit,
                         "pays on": b.title, "paytables": "(a bet file)",
                         "default": ""})  # fmt: skip
    return pd.DataFrame(rows)


def paytable_envy_by_table(
    bet: str = "fortune",
    paytable: str | None = None,
    envy: str | None = None,
    amounts: tuple[Fraction, ...] = BET_AMOUNTS,
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> EnvyByTable:
    """The overall house edge of ``bet`` (fortune, or chan-chu with a table of its own) with
    the envy of the paytable pair (``envy``: a name or file; default the paytable's own envy,
    else 5000 for fortune), for 0 .. (players a deal can seat - 1) other players."""
    deck = deck or Deck.full()
    b = get_bet(bet)
    if not b.has_envy or b.name == "envy":
        raise ValueError(f"side bet {b.name} has no envy bonus of its own paytable (fortune, "
                         "chan-chu)")  # fmt: skip
    table = _paytable(b, paytable)
    source = envy_for(b, table, envy)
    if source is None:
        raise PaytableError(f"{table.path}: envy: missing (give one with --envy)")
    own = price_sidebet(b, table, deck, rules)
    per = price_envy_table(source, deck, rules).per_other_player
    return EnvyByTable(b.name, table.name, source.name, deck.name, own.house_edge, per,
                       tuple(amounts), tuple(range(max_players(deck))),
                       table.template or source.template)  # fmt: skip
