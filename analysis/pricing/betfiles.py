"""A bet file priced exactly: each row of its scope (a class of hands, a three-card hand, a
class of deals) gets the event that pays it, by the file's order, and the rows' exact counts
make the return table.

- ``order = "first"``: the first event, in file order, that holds;
- ``order = "highest"``: the event with the highest pay among those that hold;
- no order: the events must not overlap; a bet whose events do is refused, with a hand (or
  deal) that holds both.

A progressive bet's return is a line in the meter: ``base + rate * meter / bet_size``; the
report gives both and the break-even meter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from analysis.bets.files import BetFile, BetFileError, find_bet
from analysis.bets.scopes import (
    CAN_SET,
    deal_mask,
    deal_rows,
    seven_card_rows,
    three_card_hands,
    three_card_rows,
)
from analysis.games.variants import get_variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.envy import (
    BET_AMOUNTS,
    EnvyByTable,
    SideBetReport,
    envy_from_counts,
    max_players,
)
from analysis.pricing.returns import Line, ReturnTable
from enumerate.cache import cache_dir, load_or_build, provenance, require
from enumerate.cards import Card
from enumerate.conditions import ArrayRows, calls_used, evaluate, facts_used
from enumerate.conditions.facts import SEVEN_CARD_FACTS
from enumerate.conditions.tree import Apply
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.vocabulary import dealer_class_name, player_class_name
from enumerate.waytables import cache_stem, way_table


@dataclass(frozen=True)
class Rows:
    """A bet's rows (the values of its scope's facts) with the weight of each row and how to
    name a row in a message."""

    values: ArrayRows
    weight: np.ndarray  # int64
    total: int
    house_way: str | None
    describe: Callable[[int], str]
    notes: tuple[str, ...] = ()


def bet_rows(
    bet: BetFile,
    deck: Deck,
    rules: Rules,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> Rows:
    """The rows ``bet`` is settled on, over ``deck``."""
    if bet.hand == "first-three":
        values = three_card_rows(deck)
        hands = three_card_hands(deck)
        return Rows(values, np.ones(values.rows, dtype=np.int64), comb(deck.size, 3), None,
                    lambda r: _cards_text(hands[r]))  # fmt: skip
    way = _way(bet, house_way) if bet.hand == "deal" or bet.uses_way else None
    if bet.hand == "deal":

        assert way is not None
        used = set().union(*(facts_used(e.condition) for e in bet.events))
        deal = pair_counts(deck, rules, way, way, deal_mask(used), use_cache, on_run=on_run)
        bits = deal.dealer_class_bits
        values = deal_rows(deal.counts.joint, bits)

        def deal_text(r: int) -> str:
            p, d = divmod(r, len(bits))
            return f"player {player_class_name(p)}, dealer {dealer_class_name(bits[d])}"

        return Rows(values, np.asarray(deal.counts.joint, dtype=np.int64).ravel(), deal.total,
                    way.name, deal_text, (f"pair counts: {deal.source}",))  # fmt: skip

    name = f"the {bet.hand}'s seven cards"
    used = set().union(*(facts_used(e.condition) for e in bet.events))

    def every_class() -> Rows:
        table = hand_table(deck, rules, use_cache)
        way_cols = None if way is None else (lambda: way_table(way, deck, rules, use_cache))
        return Rows(seven_card_rows(table, rules, way_cols),
                    table.orbit_size.astype(np.int64), table.total,
                    None if way is None else way.name,
                    lambda r: _cards_text(tuple(int(c) for c in table.cards[r])))  # fmt: skip

    calls = list(dict.fromkeys(c for e in bet.events for c in calls_used(e.condition)))
    calls.sort(key=lambda c: repr(c.arg))
    # every seven-card fact is kept (a few thousand groups), so the bets reading only those
    # share one cached grouping; the house way's facts and can_set answers are added as read
    facts = sorted({f.name for f in SEVEN_CARD_FACTS} | used)
    return grouped_classes(facts, calls, deck, rules, way, every_class, name, use_cache)



def grouped_classes(
    facts: list[str],
    calls: list[Apply],
    deck: Deck,
    rules: Rules,
    way: HouseWay | None,
    every_class: Callable[[], Rows],
    name: str,
    use_cache: bool = True,
) -> Rows:
    """The seven-card classes grouped by the values of ``facts`` and the answers of ``calls``
    (``can_set``), with an example hand per group: a few thousand rows for 154,143,080 hands.
    Cached (verified when read, written atomically) by what is grouped, so a bet read again,
    or another reading the same, needs no pass over the classes."""
    import hashlib

    import pyarrow as pa


    what = repr((facts, [repr(c.arg) for c in calls], None if way is None else way.key))
    digest = hashlib.sha256(what.encode()).hexdigest()[:16]
    path = cache_dir() / f"betgroups-{digest}-{cache_stem(deck, rules)}.parquet"
    prov = provenance(__name__, table="betgroups", deck=deck.key, rules=rules.key, what=what)

    def build() -> pa.Table:
        rows = every_class()
        columns = [rows.values.value(f).astype(np.int64) for f in facts]
        columns += [np.asarray(g, dtype=np.int64) for g in rows.values.answers(calls)]
        key = np.zeros(rows.values.rows, dtype=np.int64)
        radix = 1
        for col in columns:
            lo = int(col.min())
            key += (col - lo) * radix
            radix *= int(col.max()) - lo + 1
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        weight = np.zeros(len(first), dtype=np.int64)
        np.add.at(weight, inverse, rows.weight)
        out = {f"v{i}": col[first] for i, col in enumerate(columns)}
        out["weight"] = weight
        hands = hand_table(deck, rules, use_cache).cards
        for i in range(7):
            out[f"c{i}"] = hands[first, i].astype(np.int64)
        return pa.table(out)

    def check(t: pa.Table) -> None:
        require(int(t.column("weight").to_numpy().sum()) == comb(deck.size, 7),
                "the groups do not add up to the deck")  # fmt: skip

    table, _ = load_or_build(path, prov, build, use_cache, check)
    col = {n: table.column(n).to_numpy() for n in table.column_names}
    values = {f: _constant(col[f"v{i}"]) for i, f in enumerate(facts)}
    answers = {c: col[f"v{len(facts) + i}"].astype(bool) for i, c in enumerate(calls)}
    groups = ArrayRows(len(col["weight"]), values, {CAN_SET: answers.__getitem__})
    cards = np.stack([col[f"c{i}"] for i in range(7)], axis=1)
    return Rows(groups, col["weight"].astype(np.int64), comb(deck.size, 7),
                None if way is None else way.name,
                lambda r: _cards_text(tuple(int(c) for c in cards[r])))  # fmt: skip


def _way(bet: BetFile, house_way: HouseWay | str | None) -> HouseWay:
    if house_way is None:

        house_way = get_variant(bet.game).house_way if bet.game != "any" else "gli"
    return get_way(house_way) if isinstance(house_way, str) else house_way


def _cards_text(ids: tuple[int, ...]) -> str:

    return " ".join(str(Card(i)) for i in sorted(ids, reverse=True))


def _constant(v: np.ndarray) -> Callable[[], np.ndarray]:
    return lambda: v


def assign(bet: BetFile, rows: Rows, full_deck: bool) -> np.ndarray:
    """The index of the event that settles each row (-1: none holds, the bet loses)."""
    holds = [evaluate(e.condition, rows.values) & (rows.weight > 0) for e in bet.events]
    out = np.full(rows.values.rows, -1, dtype=np.int64)
    held = np.zeros(rows.values.rows, dtype=np.int64)
    for h in holds:
        held += h
    if bet.order is None and held.max(initial=0) > 1:
        for i in range(len(holds)):
            for j in range(i + 1, len(holds)):
                both = np.flatnonzero(holds[i] & holds[j])
                if len(both):
                    raise BetFileError(
                        f"{bet.where(j)}: overlaps event {i + 1} ({bet.events[i].name}), e.g. "
                        f"{rows.describe(int(both[0]))}; give the file an order (first or "
                        "highest)"
                    )  # fmt: skip
    ranked = list(range(len(holds)))
    if bet.order == "highest":  # the highest pay first; ties keep the file order
        ranked.sort(key=lambda i: (-bet.events[i].pay.odds, -bet.events[i].pay.meter))
    for i in reversed(ranked):  # the first in rank order is written last
        out[holds[i]] = i
    if full_deck:
        for i, h in enumerate(holds):
            if not h.any():
                raise BetFileError(f"{bet.where(i)}: holds for no hand of the full deck")
            if not (out == i).any():
                raise BetFileError(f"{bet.where(i)}: never pays: the events before it take "
                                   "every hand where it holds")  # fmt: skip
    return out


@dataclass(frozen=True)
class Progressive:
    """A progressive bet's return as a line in the meter (dollars), per dollar bet."""

    base: Fraction  # the return of the fixed pays alone
    rate: Fraction  # sum over events of P(event) x its meter share
    bet_size: Fraction

    def return_at(self, meter: Fraction) -> Fraction:
        return self.base + self.rate * meter / self.bet_size

    @property
    def break_even(self) -> Fraction | None:
        """The meter at which the bet returns what it costs (None: no meter share)."""
        return None if not self.rate else -self.base * self.bet_size / self.rate


@dataclass(frozen=True, eq=False)
class BetPrice:
    """A bet file priced: its return table, the event of each paid row and, for a
    progressive, the return as a function of the meter."""

    bet: BetFile
    returns: ReturnTable
    counts: tuple[int, ...]  # per event, in file order
    progressive: Progressive | None = None


def price_bet(
    bet: BetFile | str,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> BetPrice:
    """The exact return table of a bet file (a ``BetFile``, a shipped bet's name or a path)."""
    bet = find_bet(bet) if isinstance(bet, str) else bet
    deck = deck or Deck.full()
    lines, rows, by_event = settle(bet, deck, rules, house_way, use_cache, on_run)
    paid = list(zip(bet.events, by_event, strict=True))
    lost = lines[-1].combinations
    notes = [f"settled on {bet.unit}" + (f", the house way {rows.house_way}"
                                         if rows.house_way else "")]  # fmt: skip
    if bet.source:
        notes.append(f"source: {bet.source}")
    progressive = None
    if bet.progressive:
        assert bet.bet_size is not None
        p = [(Fraction(n, rows.total), e.pay) for e, n in paid]
        base = sum((q * pay.odds for q, pay in p if pay.outcome != "loss"), Fraction(0))
        base -= Fraction(lost, rows.total)
        rate = sum((q * pay.meter for q, pay in p), Fraction(0))
        progressive = Progressive(base, rate, bet.bet_size)
        be = progressive.break_even
        notes.append(f"progressive: return per dollar = {float(base):.6f} + {float(rate):.3e} x "
                     f"meter / ${bet.bet_size}; break-even meter "
                     + ("none" if be is None else f"${float(be):,.2f}"))  # fmt: skip
    returns = ReturnTable.from_lines(
        lines, rows.total, game=bet.name, deck=deck.name, house_way=rows.house_way,
        title=bet.title, paytable=bet.name, template=bet.template,
        notes=tuple(notes + list(rows.notes)), unit=bet.unit,
    )  # fmt: skip
    return BetPrice(bet, returns, tuple(by_event), progressive)


def settle(
    bet: BetFile,
    deck: Deck,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> tuple[list[Line], Rows, list[int]]:
    """The return table's rows of ``bet`` on ``deck`` (every event that pays or pushes, then
    the losers), the rows it was settled on, and the count of each event in file order."""
    rows = bet_rows(bet, deck, rules or Rules(), house_way, use_cache, on_run)
    settled = assign(bet, rows, deck == Deck.full())
    by_event = [int(rows.weight[settled == i].sum()) for i in range(len(bet.events))]
    paid = list(zip(bet.events, by_event, strict=True))
    lost = rows.total - sum(n for e, n in paid if e.pay.outcome != "loss")
    lines = [Line(e.name, e.pay.outcome, e.pay.odds, n) for e, n in paid if e.pay.outcome != "loss"]
    lines.append(Line("all other " + rows_word(bet), "loss", Fraction(-1), lost))
    return lines, rows, by_event


def rows_word(bet: BetFile) -> str:
    return "deals" if bet.hand == "deal" else "hands"


def bet_report(
    bet: BetFile | str,
    players: int | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str | None = None,
    use_cache: bool = True,
    on_run: Callable[[str], None] | None = None,
) -> SideBetReport:
    """Everything ``paigow sidebet FILE`` shows: the return table and, for a bet with an
    ``[envy]`` table, the expected envy per other player (for ``players`` at the table)."""
    bet = find_bet(bet) if isinstance(bet, str) else bet
    deck = deck or Deck.full()
    if players is not None and not bet.envy:
        raise ValueError(f"bet {bet.name} has no [envy] table: --players does not apply")
    if house_way is not None and not (bet.hand == "deal" or bet.uses_way):
        raise ValueError(f"bet {bet.name} does not depend on the house way (--way)")
    priced = price_bet(bet, deck, rules, house_way, use_cache, on_run)
    envy = None
    if bet.envy:
        held = dict(zip((e.name for e in bet.events), priced.counts, strict=True))
        rows = [(event, amount, held[event]) for event, amount in bet.envy]
        envy = envy_from_counts(bet.name, bet.title, deck, priced.returns.total, rows, players,
                                bet.template, bet.source)  # fmt: skip
    return SideBetReport(priced.returns, envy)


def bet_envy_by_table(
    bet: BetFile | str,
    amounts: tuple[Fraction, ...] | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
) -> EnvyByTable:
    """The overall house edge of a bet file with an envy table, the envy included, by bet
    amount and number of other players (as ``paigow sidebet FILE --by-table``)."""
    bet = find_bet(bet) if isinstance(bet, str) else bet
    deck = deck or Deck.full()
    if not bet.envy:
        raise ValueError(f"bet {bet.name} has no envy table: --by-table does not apply")
    priced = price_bet(bet, deck, rules)
    held = dict(zip((e.name for e in bet.events), priced.counts, strict=True))
    total = priced.returns.total
    per = sum((amount * Fraction(held[event], total) for event, amount in bet.envy), Fraction(0))
    return EnvyByTable(bet.name, bet.name, bet.envy_table or "its own", deck.name,
                       priced.returns.house_edge, per, tuple(amounts or BET_AMOUNTS),
                       tuple(range(max_players(deck))), bet.template)  # fmt: skip
