"""Side bets priced exactly: event counts from the hand tables or the pair counts, pays from a
paytable file (``analysis.games.paytables``).

Every bet reduces to *cells*: disjoint sets of hands (or deals) with their exact count and the
events they hold, in the bet's order of precedence. A cell pays the first event it holds that
the paytable pays or pushes; every other cell loses. So a paytable may leave events out or mark
them "lose", and the rows always add up to every hand (or deal) of the deck.

| bet | counted over | cells |
|---|---|---|
| fortune, chan-chu | the player's 7 cards, C(n,7) | Fortune class (hand table) |
| dealer-bonus | the dealer's 7 cards | Fortune class x nine-high house-way low |
| queens-dragon | the dealer's 7 cards | queen-high pai gow or not |
| tiger-9 | the dealer's 7 cards | nine-high house-way low or not |
| push-ace-high | deals, C(n,7) C(n-7,7) | player class x dealer ace-high flags (flags 3) |
| jacks-beat | deals | player class x dealer two or more jacks (flags 4) |

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

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from math import comb

import numpy as np
import pandas as pd

from analysis.games.paytables import (
    BET_EVENTS,
    DEALER_ACE_HIGH_JOKER,
    DEALER_ACE_HIGH_NATURAL,
    LOSE,
    NINE_HIGH_LOW_EVENT,
    PLAYER_AND_DEALER_ACE_HIGH,
    QUEEN_HIGH_EVENT,
    TIGER_9_EVENT,
    Paytable,
    PaytableError,
    find_paytable,
    shipped_paytable,
    shipped_paytables,
)
from analysis.games.variants import get_variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.envy import DEFAULT_ENVY_TABLE, EnvyTable, envy_table
from analysis.pricing.returns import Line, ReturnTable
from analysis.report.formats import to_json
from analysis.report.notebook import ShowsAsHtml
from enumerate.classes import SevenCardClass
from enumerate.engine.keys import nine_high_low
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table
from enumerate.vocabulary import (
    ACE_HIGH_PAI_GOW_EVENTS,
    N_PLAYER_CLASSES,
    PLAYER_ACE_HIGH_PAI_GOW,
    DealerEvent,
)
from enumerate.waytables import way_table

Cell = tuple[tuple[str, ...], int]  # the events a set of hands holds, and how many hands


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


# cells ----------------------------------------------------------------------------------------


def _label(cls: int) -> str:
    return SevenCardClass(cls).label


def _class_cells(table: HandTable, extra: np.ndarray | None = None, event: str = "") -> list[Cell]:
    """Cells by Fortune class (and ``extra`` flag, holding ``event``), weighted by orbit."""
    cls = table.seven_card_class.astype(np.int64)
    flag = np.zeros(len(table), dtype=np.int64) if extra is None else extra.astype(np.int64)
    counts = np.zeros((len(SevenCardClass), 2), dtype=np.int64)
    np.add.at(counts, (cls, flag), table.orbit_size.astype(np.int64))
    cells: list[Cell] = []
    for c in sorted(SevenCardClass, reverse=True):
        for f in (0, 1):
            held = () if c == SevenCardClass.NOTHING else (c.label,)
            cells.append(((*held, *((event,) if f else ())), int(counts[c, f])))
    return cells


def _deal_cells(bet: SideBet, joint: np.ndarray, bits: tuple[int, ...]) -> list[Cell]:
    cells: list[Cell] = []
    for p in range(N_PLAYER_CLASSES):
        for d, b in enumerate(bits):
            held: tuple[str, ...] = ()
            if bet.name == "push-ace-high" and b & ACE_HIGH_PAI_GOW_EVENTS:
                both = (PLAYER_AND_DEALER_ACE_HIGH,) if p == PLAYER_ACE_HIGH_PAI_GOW else ()
                joker = b & DealerEvent.ACE_HIGH_JOKER
                alone = DEALER_ACE_HIGH_JOKER if joker else DEALER_ACE_HIGH_NATURAL
                held = (*both, alone)
            elif bet.name == "jacks-beat" and b & DealerEvent.TWO_JACKS:
                held = (_label(0 if p == PLAYER_ACE_HIGH_PAI_GOW else p),)
            cells.append((held, int(joint[p, d])))
    return cells


@dataclass(frozen=True)
class BetCells:
    """The cells of one bet on one deck, with what they were counted from."""

    cells: tuple[Cell, ...]
    total: int
    house_way: str | None
    notes: tuple[str, ...] = ()


def bet_cells(
    bet: SideBet | str,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> BetCells:
    """Exact cells of ``bet`` on ``deck`` (see the module docstring)."""
    bet = get_bet(bet) if isinstance(bet, str) else bet
    deck = deck or Deck.full()
    rules = rules or Rules()
    way: HouseWay | None = None
    if bet.uses_house_way or bet.flag_mask is not None:
        if house_way is None:  # the way of the game the bet is dealt with
            house_way = get_variant(bet.game).house_way if bet.game != "any" else "gli"
        way = get_way(house_way) if isinstance(house_way, str) else house_way
    if bet.flag_mask is not None:
        assert way is not None
        deal = pair_counts(deck, rules, way, way, bet.flag_mask, use_cache, on_run=on_run)
        cells = _deal_cells(bet, deal.counts.joint, deal.dealer_class_bits)
        note = f"pair counts: {deal.source}"
        return BetCells(tuple(cells), deal.total, None, (note,))
    table = hand_table(deck, rules, use_cache)
    if bet.name == "queens-dragon":
        n = table.weighted_count(table.queen_high_pai_gow)
        return BetCells((((QUEEN_HIGH_EVENT,), n), ((), table.total - n)), table.total, None)
    if bet.name in ("tiger-9", "dealer-bonus"):
        assert way is not None
        low = way_table(way, deck, rules, use_cache).low
        nine = nine_high_low(low)
        if bet.name == "tiger-9":
            n = table.weighted_count(nine)
            return BetCells(
                (((TIGER_9_EVENT,), n), ((), table.total - n)), table.total, way.name
            )
        return BetCells(tuple(_class_cells(table, nine, NINE_HIGH_LOW_EVENT)), table.total,
                        way.name)  # fmt: skip
    return BetCells(tuple(_class_cells(table)), table.total, None)


def paid_lines(bet: SideBet, paytable: Paytable, cells: BetCells) -> list[Line]:
    """Rows: every event the paytable pays or pushes (the bet's order), then the losers."""
    by_event: dict[str, int] = defaultdict(int)
    paying = {e for e, p in paytable.pays if p != LOSE}
    lost = 0
    for held, n in cells.cells:
        first = next((e for e in held if e in paying), None)
        if first is None:
            lost += n
        else:
            by_event[first] += n
    lines = [
        Line(e, "win" if paytable.pay(e) > 0 else "push", paytable.pay(e), by_event[e])
        for e in bet.events
        if e in paying
    ]
    lines.append(Line(bet.loss_event, "loss", LOSE, lost))
    return lines


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
    cells = bet_cells(bet, deck, rules, house_way, use_cache, on_run)
    notes = [f"{bet.title}: {bet.description}"]
    if table.source:
        notes.append(f"paytable source: {table.source}")
    if table.note:
        notes.append(table.note)
    return ReturnTable.from_lines(
        paid_lines(bet, table, cells), cells.total, game=bet.name,
        deck=(deck or Deck.full()).name, house_way=cells.house_way,
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


@dataclass(frozen=True, eq=False)
class SideBetReport(ShowsAsHtml):
    """A side bet's return table and, for bets with an envy bonus, the envy figures."""

    returns: ReturnTable | None
    envy: EnvyTable | None = None

    def render(self, fmt: str = "md") -> str:
        if self.returns is None:
            assert self.envy is not None
            return self.envy.render(fmt)
        if fmt == "json":
            out = self.returns.to_dict()
            if self.envy is not None:
                out["envy"] = self.envy.to_dict()
            return to_json(out)
        if fmt == "csv" or self.envy is None:
            return self.returns.render(fmt)
        sep = "\n" if fmt == "md" else "<hr>\n"
        return self.returns.render(fmt) + sep + self.envy.render(fmt)


def sidebet_report(
    name: str,
    paytable: Paytable | str | None = None,
    players: int | None = None,
    envy: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: str | None = None,
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
        return SideBetReport(None, envy_table(paytable, deck, rules, players, use_cache))
    returns = price_sidebet(bet, paytable, deck, rules, house_way, use_cache, on_run)
    envy_table_ = None
    if bet.has_envy:
        table = _paytable(bet, paytable)
        source = envy_for(bet, table, envy)
        if source is not None:
            envy_table_ = envy_table(source, deck, rules, players, use_cache)
    return SideBetReport(returns, envy_table_)


def bet_listing() -> pd.DataFrame:
    """One row per side bet: what it is settled on and its shipped paytables."""
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
    return pd.DataFrame(rows)


def expected_total(bet: SideBet, deck: Deck) -> int:
    """Hands (or deals) a bet's rows add up to."""
    n = deck.size
    return comb(n, 7) * comb(n - 7, 7) if bet.counted == "deals" else comb(n, 7)
