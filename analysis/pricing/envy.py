"""The envy bonus: dollars paid to a bettor with at least $5 on the Fortune (or Chan Chu) bet for
every OTHER player at the table (not the dealer, not himself) holding a listed hand.

An other player's seven cards are a uniformly random hand of the deck (whatever the bettor
holds, by symmetry over all deals), so by linearity the expected envy per round is exactly
``others * sum over hands of P(hand) * amount``.
``analysis.pricing.sidebets.paytable_envy_by_table`` turns that into the bet's overall house
edge with the envy included, by number of other players and bet amount: the bettor's own result
scales with his bet, the envy does not.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import pandas as pd

from analysis.bets.paytables import find_paytable
from analysis.games.paytables import Paytable, PaytableError
from analysis.pricing.returns import TEMPLATE_BANNER, ReturnTable, exact_decimal
from analysis.pricing.volatility import Volatility, volatility
from analysis.render.formats import decimal, markdown, summary_md, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

ENVY_MINIMUM_BET = 5  # dollars on the bet that qualify for the envy bonus
DEFAULT_ENVY_TABLE = "5000"


def max_players(deck: Deck) -> int:
    """Most players (besides the dealer) one deal of ``deck`` can serve: 7 cards each."""
    return deck.size // 7 - 1


@dataclass(frozen=True, eq=False)
class EnvyTable(ShowsAsHtml):
    """Expected envy bonus, in dollars, for one qualifying bettor."""

    paytable: str
    title: str
    deck: str
    total: int  # hands of the deck
    table: pd.DataFrame = field(repr=False)  # event, amount, combinations, probability, expected
    per_other_player: Fraction  # expected dollars per other player at the table
    players: int | None = None  # players at the table, the bettor included (not the dealer)
    template: bool = False
    source: str = ""

    @property
    def others(self) -> int | None:
        return None if self.players is None else self.players - 1

    @cached_property
    def volatility(self) -> Volatility:
        """The envy one other player's hand pays the bettor (dollars): variance, hit frequency
        (some envy paid), top award. Several other players' hands come from one deck, so they
        are not independent: their envy's mean is the sum of theirs, its variance is not."""
        rows = [(r["amount"], r["probability"], "win") for r in self.table.to_dict("records")]
        paid = sum((p for _a, p, _o in rows), Fraction(0))
        events = [*self.table["event"], "no envy"]
        return volatility([*rows, (Fraction(0), 1 - paid, "push")], events)

    def value(self, players: int | None = None) -> Fraction:
        """Expected envy dollars per round with ``players`` at the table (bettor included)."""
        n = players if players is not None else self.players
        if n is None:
            raise ValueError("say how many players sit at the table")
        return (n - 1) * self.per_other_player

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "paytable": self.paytable,
            "template": self.template,
            "deck": self.deck,
            "total": self.total,
            "rows": [
                {
                    "event": r["event"],
                    "amount": _number(r["amount"]),
                    "combinations": int(r["combinations"]),
                    "probability": float(r["probability"]),
                    "expected": float(r["expected"]),
                }
                for r in self.table.to_dict("records")
            ],
            "per_other_player": float(self.per_other_player),
            "per_other_player_fraction": self.per_other_player,
            "per_other_player_figures": self.volatility.to_dict(main_wager=False),
        }
        if self.players is not None:
            v = self.value()
            out.update(
                players=self.players,
                others=self.players - 1,
                value=float(v),
                value_fraction=v,
                value_per_unit_at_minimum_bet=float(v / ENVY_MINIMUM_BET),
            )
        return out

    def display(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "hand": self.table["event"],
                "amount ($)": [exact_decimal(a) for a in self.table["amount"]],
                "combinations": self.table["combinations"].astype("int64"),
                "probability": [decimal(p, 10) for p in self.table["probability"]],
                "expected ($)": [decimal(e, 10) for e in self.table["expected"]],
            }
        )

    def lines(self) -> list[str]:
        out = []
        if self.template:
            out.append(TEMPLATE_BANNER)
        out.append(
            f"Envy bonus, table {self.paytable}" + (f" ({self.title})" if self.title else "")
            + f", deck {self.deck}: dollars paid to a bettor with ${ENVY_MINIMUM_BET} or more on "
            "the bet for every OTHER player at the table (not the dealer) holding a listed hand"
        )  # fmt: skip
        if self.source:
            out.append(f"source: {self.source}")
        return out

    def summary(self) -> list[str]:
        per = self.per_other_player
        out = [f"expected envy per other player: ${decimal(per, 10)} (exact: {per})"]
        out += [f"one other player's envy: {line}"
                for line in self.volatility.lines(main_wager=False, dollars=True)]  # fmt: skip
        if self.players is None:
            out.append("(--players N: N players at the table, the bettor included)")
        else:
            v = self.value()
            share = decimal(100 * v / ENVY_MINIMUM_BET, 4)
            out.append(
                f"players at the table: {self.players} (the bettor included, the dealer not): "
                f"{self.players - 1} other players, expected envy ${decimal(v, 10)} per round "
                f"= {share}% of a ${ENVY_MINIMUM_BET} bet"
            )
        return out

    def figures(self) -> list[tuple[str, str]]:
        """The figures of ``summary`` as (figure, value) rows: a page's summary table."""
        per = self.per_other_player
        out = [("expected envy per other player", f"${decimal(per, 10)} (exact: {per})")]
        out += self.volatility.figures(main_wager=False, dollars=True,
                                       of=", one other player's envy")  # fmt: skip
        if self.players is not None:
            v = self.value()
            share = decimal(100 * v / ENVY_MINIMUM_BET, 4)
            out += [("players at the table", f"{self.players} (the bettor included, the "
                                             f"dealer not): {self.players - 1} other players"),
                    ("expected envy per round", f"${decimal(v, 10)} = {share}% of a "
                                                f"${ENVY_MINIMUM_BET} bet")]  # fmt: skip
        return out

    def headline(self) -> dict[str, str]:
        """Standard deviation and hit frequency of one other player's envy, in dollars, as
        the page shows them (the envy has no house edge of its own): its row in the index."""
        v = self.volatility
        return {"standard deviation": f"${v.standard_deviation_text()}",
                "hit frequency": v.hit_frequency_text()}  # fmt: skip

    def render(self, fmt: str = "md") -> str:
        shown = self.display()
        if fmt == "json":
            return to_json(self.to_dict())
        if fmt == "csv":
            return str(shown.to_csv(index=False))
        if fmt == "html":
            head = "".join(f"<p>{html.escape(x)}</p>\n" for x in self.lines())
            tail = "".join(f"<p>{html.escape(x)}</p>\n" for x in self.summary())
            body = shown.to_html(index=False, border=0, classes="envy-table",
                                 formatters={"combinations": "{:,}".format})  # fmt: skip
            return head + body + "\n" + tail
        if fmt == "md":
            summary = summary_md(self.summary(), self.figures())
            return "\n".join([*self.lines(), "", markdown(shown), "", summary]) + "\n"
        raise ValueError(f"unknown format {fmt!r} (known: md, csv, json, html)")


def _number(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


def price_envy_table(
    paytable: Paytable | str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    players: int | None = None,
    use_cache: bool = True,
) -> EnvyTable:
    """The expected envy bonus under an envy table (a shipped name such as ``"5000"``, a file,
    or any ``Paytable`` with an [envy] section), for ``players`` at the table if given."""
    deck = deck or Deck.full()
    if isinstance(paytable, Paytable):
        table = paytable
    else:
        table = find_paytable("envy", paytable or DEFAULT_ENVY_TABLE)
    if not table.envy:
        raise PaytableError(f"{table.path}: envy: missing (this table has no envy amounts)")
    _check_players(players, deck)
    hands = hand_table(deck, rules, use_cache)
    by_label = {c.label: n for c, n in hands.class_counts().items()}
    rows = [(event, amount, by_label[event]) for event, amount in table.envy]
    return envy_from_counts(table.name, table.title, deck, hands.total, rows, players,
                            table.template, table.source)  # fmt: skip


def envy_from_counts(name: str, title: str, deck: Deck, total: int,
                     rows: list[tuple[str, Fraction, int]], players: int | None = None,
                     template: bool = False, source: str = "") -> EnvyTable:  # fmt: skip
    """The envy table of amounts paid on events of an other player's hand: ``rows`` of
    (event, dollars, hands holding it) out of ``total`` hands."""
    _check_players(players, deck)
    records: list[dict[str, Any]] = [
        {"event": event, "amount": amount, "combinations": n, "probability": Fraction(n, total),
         "expected": amount * Fraction(n, total)}
        for event, amount, n in rows
    ]  # fmt: skip
    df = pd.DataFrame(
        records, columns=["event", "amount", "combinations", "probability", "expected"]
    ).astype(object)
    per = sum((r["expected"] for r in records), Fraction(0))
    return EnvyTable(
        paytable=name, title=title, deck=deck.name, total=total, table=df,
        per_other_player=per, players=players, template=template, source=source,
    )  # fmt: skip


def _check_players(players: int | None, deck: Deck) -> None:
    if players is not None and players < 1:
        raise ValueError(f"--players {players}: at least 1 (the players at the table, the bettor "
                         "included)")  # fmt: skip
    if players is not None and players > max_players(deck):
        raise ValueError(
            f"--players {players}: the {deck.size}-card deck {deck.name} deals at most "
            f"{max_players(deck)} players besides the dealer (7 cards each)"
        )


BET_AMOUNTS: tuple[Fraction, ...] = tuple(Fraction(x) for x in (5, 10, 25, 100))


@dataclass(frozen=True, eq=False)
class EnvyByTable(ShowsAsHtml):
    """A bet's overall house edge with its envy included, by bet amount (rows) and number of
    other players at the table (columns).

    A bettor of ``B`` dollars loses ``B x house_edge`` on his own hand on average and, when
    ``B >= $5``, receives ``per_other_player`` dollars on average from each other player's
    hand: the overall edge is ``house_edge - others x per_other_player / B``.
    """

    bet: str
    paytable: str
    envy: str
    deck: str
    house_edge: Fraction  # the bet on the bettor's own hand, per unit
    per_other_player: Fraction  # expected envy dollars from one other player's hand
    amounts: tuple[Fraction, ...]
    others: tuple[int, ...]
    template: bool = False

    def edge(self, amount: Fraction, others: int) -> Fraction:
        """The overall house edge per dollar bet."""
        if amount <= 0:
            raise ValueError(f"bet amount {amount}: must be positive")
        envy = others * self.per_other_player if amount >= ENVY_MINIMUM_BET else Fraction(0)
        return self.house_edge - envy / amount

    def rows(self) -> list[dict[str, Any]]:
        return [{"bet ($)": a, **{_others(k): self.edge(a, k) for k in self.others}}
                for a in self.amounts]  # fmt: skip

    def lines(self) -> list[str]:
        out = [TEMPLATE_BANNER] if self.template else []
        out.append(
            f"{self.bet}" + (f" table {self.paytable}" if self.paytable != self.bet else "")
            + f" with envy table {self.envy}, deck {self.deck}: "
            f"overall house edge per dollar bet, the envy included (the bettor's own hand "
            f"{decimal(100 * self.house_edge, 4)}%; ${decimal(self.per_other_player, 6)} of "
            f"envy expected from each other player's hand, paid on bets of "
            f"${ENVY_MINIMUM_BET} or more)"
        )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "bet": self.bet, "paytable": self.paytable, "envy": self.envy, "deck": self.deck,
            "template": self.template, "house_edge_fraction": self.house_edge,
            "per_other_player_fraction": self.per_other_player,
            "rows": [{"bet": float(a), "others": k, "house_edge": float(self.edge(a, k)),
                      "house_edge_fraction": self.edge(a, k)}
                     for a in self.amounts for k in self.others],
        }  # fmt: skip

    def display(self) -> pd.DataFrame:
        shown = [{"bet ($)": exact_decimal(r["bet ($)"]),
                  **{c: f"{decimal(100 * v, 4)}%" for c, v in r.items() if c != "bet ($)"}}
                 for r in self.rows()]  # fmt: skip
        return pd.DataFrame(shown)

    def render(self, fmt: str = "md") -> str:
        if fmt == "json":
            return to_json(self.to_dict())
        if fmt == "csv":
            exact = [{c: (v if c == "bet ($)" else f"{v.numerator}/{v.denominator}")
                      for c, v in r.items()} for r in self.rows()]  # fmt: skip
            return str(pd.DataFrame(exact).to_csv(index=False))
        shown = self.display()
        if fmt == "html":
            head = "".join(f"<p>{html.escape(x)}</p>\n" for x in self.lines())
            return head + shown.to_html(index=False, border=0, classes="envy-by-table") + "\n"
        if fmt == "md":
            return "\n".join([*self.lines(), "", markdown(shown)]) + "\n"
        raise ValueError(f"unknown format {fmt!r} (known: md, csv, json, html)")


def _others(k: int) -> str:
    return f"{k} other" + ("" if k == 1 else "s")


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
