"""Exact return tables: a variant (or a side bet) priced from integer counts.

``price(counts, variant, player)`` is a pure function of the pair counts, the variant and the
player mode: per dealer class it takes the player's wins, pushes and losses (blind play by the
house way, or the best response to the exposed dealer) and applies the first dealer rule of the
variant that the class holds. The result is a ``ReturnTable``: a DataFrame laid out like a math
report (event, outcome, pays, combinations, probability, return; a total row last) and the
house edge as an exact ``Fraction``.

>>> from analysis.pricing.counts import pair_counts
>>> from enumerate.rules import Deck
>>> deal = pair_counts(Deck.parse("TJQKA:cdh+joker"), flag_mask=4, use_cache=False)
>>> t = price(deal, get_variant("dealer-open"))
>>> list(t.table["event"])  # doctest: +NORMALIZE_WHITESPACE
['player wins both hands', 'each side wins one hand',
 'dealer wins both hands (copies to the dealer)', 'dealer two or more jacks: dealer wins',
 'total']
>>> t.total == 11440 * 36, t.house_edge == -sum(t.rows["return"])
(True, True)
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.games.players import Player
from analysis.games.variants import Variant, get_variant
from analysis.pricing.counts import DealCounts, pair_counts
from analysis.pricing.volatility import Volatility, volatility
from analysis.render.formats import decimal, markdown_cells, summary_md, title_md, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules

if TYPE_CHECKING:  # pandas only where a DataFrame is asked for: ``paigow analyze`` needs none
    import pandas as pd

COLUMNS = ["event", "outcome", "pays", "combinations", "probability", "return"]
OUTCOMES = ("win", "push", "loss")
WIN_EVENT = "player wins both hands"
PUSH_EVENT = "each side wins one hand"
LOSS_EVENT = "dealer wins both hands (copies to the dealer)"
PLAYER_TEXT: dict[str, str] = {
    p: p.describe for p in (Player.HOUSE_WAY, Player.BEST_RESPONSE, Player.OPTIMAL)
}


@dataclass(frozen=True)
class Line:
    """One row of a return table before probabilities: an event, its outcome, what it pays
    (to 1) and in how many of the counted deals it happens."""

    event: str
    outcome: str
    pays: Fraction
    combinations: int


def exact_decimal(x: Fraction, digits: int = 10) -> str:
    """``x`` as a decimal: exact when it terminates within ``digits`` places, else rounded.

    >>> exact_decimal(Fraction(19, 20)), exact_decimal(Fraction(-1))
    ('0.95', '-1')
    >>> exact_decimal(Fraction(1, 3), 4)
    '0.3333'
    """
    for places in range(digits + 1):
        scaled = x * 10**places
        if scaled.denominator == 1:
            n = scaled.numerator
            if places == 0:
                return str(n)
            sign = "-" if n < 0 else ""
            whole, frac = divmod(abs(n), 10**places)
            return f"{sign}{whole}.{frac:0{places}d}"
    return decimal(x, digits)


def _number(x: Fraction) -> int | float:
    return x.numerator if x.denominator == 1 else float(x)


@dataclass(frozen=True, eq=False)
class ReturnTable(ShowsAsHtml):
    """A return table in the layout of a math report, with exact figures.

    ``table`` columns: event, outcome ("win", "push", "loss"; "" in the total row), pays
    (``Fraction``, to 1), combinations (``int``), probability and return (``Fraction``); rows
    in the order given, then a total row. ``house_edge`` = -(sum of the returns).
    """

    game: str
    deck: str
    total: int
    records: tuple[dict[str, Any], ...] = field(repr=False)  # the rows, then the total row
    house_way: str | None = None
    player: str | None = None
    title: str = ""
    paytable: str | None = None
    template: bool = False
    notes: tuple[str, ...] = ()
    unit: str = "deals"  # what ``total`` counts: deals (player, dealer) or hands
    player_way: str | None = None  # a blind player's own card, when not the dealer's way

    @classmethod
    def from_lines(cls, lines: Iterable[Line], total: int, **meta: Any) -> ReturnTable:
        """Build from rows; they must partition ``total`` deals."""
        lines = list(lines)
        for line in lines:
            if line.outcome not in OUTCOMES:
                raise ValueError(f"outcome {line.outcome!r} of {line.event!r}")
        covered = sum(line.combinations for line in lines)
        if covered != total:
            raise AssertionError(f"rows cover {covered} deals, not {total}")
        records: list[dict[str, Any]] = [
            {
                "event": line.event,
                "outcome": line.outcome,
                "pays": line.pays,
                "combinations": int(line.combinations),
                "probability": Fraction(int(line.combinations), total),
                "return": line.pays * Fraction(int(line.combinations), total),
            }
            for line in lines
        ]
        records.append(
            {
                "event": "total",
                "outcome": "",
                "pays": None,
                "combinations": int(total),
                "probability": Fraction(1),
                "return": sum((r["return"] for r in records), Fraction(0)),
            }
        )
        return cls(total=int(total), records=tuple(records), **meta)

    @cached_property
    def table(self) -> pd.DataFrame:
        """The table (rows and total row) as a DataFrame of objects (pandas is imported here:
        the command line prints a table without it)."""
        import pandas as pd

        return pd.DataFrame(list(self.records), columns=COLUMNS).astype(object)

    @property
    def rows(self) -> pd.DataFrame:
        """The rows without the total row."""
        return self.table.iloc[:-1]

    @property
    def house_edge(self) -> Fraction:
        """Exact house edge per unit bet: minus the sum of the returns."""
        return -sum((r["return"] for r in self.records[:-1]), Fraction(0))

    @property
    def main_wager(self) -> bool:
        """A main wager (not a side bet): its figures include the edge per resolved bet."""
        return self.paytable is None

    @cached_property
    def volatility(self) -> Volatility:
        """Variance, standard deviation, hit frequency, top award and edge per resolved bet
        (``analysis.pricing.volatility``), exact, from the rows."""
        rows = self.records[:-1]
        return volatility(((r["pays"], r["probability"], r["outcome"]) for r in rows),
                          (r["event"] for r in rows))  # fmt: skip

    def house_edge_percent(self, digits: int = 4) -> str:
        """The house edge as a percentage, e.g. ``'2.7343%'``."""
        return f"{decimal(100 * self.house_edge, digits)}%"

    def probability(self, outcome: str) -> Fraction:
        """Probability of an outcome (all its rows)."""
        return sum((r["probability"] for r in self.records[:-1] if r["outcome"] == outcome),
                   Fraction(0))  # fmt: skip

    def combinations(self, event: str) -> int:
        """Combinations of the row named ``event`` (0 when there is no such row)."""
        return sum(int(r["combinations"]) for r in self.records[:-1] if r["event"] == event)

    # renderings -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON document: ``game, house_way, player, deck, total, rows, house_edge,
        house_edge_fraction`` (side bets add ``paytable``, ``template`` and ``notes``)."""
        out: dict[str, Any] = {"game": self.game}
        if self.paytable is not None:
            out["paytable"] = self.paytable
            out["template"] = self.template
        out["house_way"] = self.house_way
        if self.paytable is None:
            out["player"] = self.player
        if self.player_way is not None:
            out["player_way"] = self.player_way
        out["deck"] = self.deck
        out["total"] = self.total
        out["rows"] = [
            {
                "event": r["event"],
                "outcome": r["outcome"],
                "pays": _number(r["pays"]),
                "combinations": int(r["combinations"]),
                "probability": float(r["probability"]),
                "return": float(r["return"]),
            }
            for r in self.records[:-1]
        ]
        out["house_edge"] = float(self.house_edge)
        out["house_edge_fraction"] = self.house_edge
        out.update(self.volatility.to_dict(self.main_wager))
        if self.paytable is not None:
            out["notes"] = list(self.notes)
        return out

    def display(self, digits: int = 10) -> pd.DataFrame:
        """The table with decimals for people (combinations stay exact integers)."""
        import pandas as pd

        cells = self._cells(digits)
        return pd.DataFrame(
            {name: [row[i] for row in cells] for i, name in enumerate(COLUMNS)}
        ).astype({"combinations": "int64"})

    def _cells(self, digits: int = 10) -> list[list[Any]]:
        """The rows of ``display`` (the combinations as ints, the rest as text)."""
        return [
            [r["event"], r["outcome"], "" if r["pays"] is None else exact_decimal(r["pays"]),
             int(r["combinations"]), decimal(r["probability"], digits),
             decimal(r["return"], digits)]
            for r in self.records
        ]  # fmt: skip

    def heading(self) -> list[str]:
        """Lines above the table: what was priced, on which deck, under which rules."""
        out = []
        if self.template:
            out.append(TEMPLATE_BANNER)
        name = self.title or self.game
        out.append(f"{name}, deck {self.deck}: {self.total:,} {self.unit} counted")
        if self.house_way:
            out.append(f"house way: {self.house_way}")
        if self.player_way is not None:
            out.append(f"player: sets every hand by {self.player_way}, without seeing the "
                       "dealer")  # fmt: skip
        elif self.player:
            text = PLAYER_TEXT.get(self.player)
            out.append(f"player: {self.player}" + (f" ({text})" if text else ""))
        out += list(self.notes)
        return out

    def summary_lines(self) -> list[str]:
        """The lines under the table: the house edge, then the volatility figures."""
        return [self.edge_line(), *self.volatility.lines(self.main_wager)]

    def edge_line(self) -> str:
        e = self.house_edge
        return f"house edge: {self.house_edge_percent()} (exact: {e.numerator}/{e.denominator})"

    def figures(self) -> list[tuple[str, str]]:
        """The figures of ``summary_lines`` as (figure, value) rows: a page's summary table."""
        e = self.house_edge
        return [("house edge", f"{self.house_edge_percent()} (exact: {e.numerator}/"
                               f"{e.denominator})"),
                *self.volatility.figures(self.main_wager)]  # fmt: skip

    def headline(self) -> dict[str, str]:
        """House edge, standard deviation and hit frequency as the page shows them: the
        table's row in the report's index."""
        v = self.volatility
        return {"house edge": self.house_edge_percent(),
                "standard deviation": v.standard_deviation_text(),
                "hit frequency": v.hit_frequency_text()}  # fmt: skip

    def render(self, fmt: str = "md") -> str:
        """The table as ``md``, ``csv``, ``json`` or ``html`` text."""
        if fmt == "json":
            return to_json(self.to_dict())
        if fmt == "csv":
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerows([list(COLUMNS), *self._cells()])
            # the figures under the table, after an empty line, as a table of their own
            writer.writerows([[], ["statistic", "value", "exact"],
                              *self.volatility.rows(self.main_wager)])  # fmt: skip
            return out.getvalue()
        if fmt == "html":
            head = "".join(f"<p>{html.escape(line)}</p>\n" for line in self.heading())
            body = self.display().to_html(index=False, border=0, classes="return-table",
                                          formatters={"combinations": "{:,}".format})  # fmt: skip
            tail = "".join(f"<p>{html.escape(line)}</p>\n" for line in self.summary_lines())
            return f"{head}{body}\n{tail}"
        if fmt == "md":
            cells = [[str(v) for v in row] for row in self._cells()]
            numeric = [c not in ("event", "outcome") for c in COLUMNS]
            table = markdown_cells(list(COLUMNS), cells, numeric)
            above = self.heading()
            at = 1 if self.template else 0  # the title, after a template's banner
            above[at] = title_md(above[at])
            summary = summary_md(self.summary_lines(), self.figures())
            return "\n".join([*above, "", table, "", summary]) + "\n"
        raise ValueError(f"unknown format {fmt!r} (known: md, csv, json, html)")


TEMPLATE_BANNER = (
    "TEMPLATE, not a real casino table: the pays are placeholders; copy the file, enter a "
    "casino's pays and pass it with --paytable FILE"
)


def check_player(variant: Variant, player: str | None) -> str:
    """The player mode to price ``variant`` with (its default when None); a one-line
    ``ValueError`` for a mode not priced from pair counts or one that does not fit the
    variant."""
    mode = player or variant.default_player
    if mode == Player.OPTIMAL:
        raise ValueError(
            "player optimal is priced from per-hand counts: use analysis.pricing.optimal."
            "optimal_return_table (the CLI does)"
        )
    if mode not in (Player.HOUSE_WAY, Player.BEST_RESPONSE):
        raise ValueError(
            f"unknown player mode {mode!r} (known: {Player.HOUSE_WAY}, {Player.BEST_RESPONSE})"
        )
    if mode == Player.BEST_RESPONSE and not variant.dealer_exposed:
        raise ValueError(
            f"variant {variant.name} hides the dealer's hand: the player cannot respond to it "
            f"(use --player {Player.HOUSE_WAY})"
        )
    return mode


def variant_lines(deal: DealCounts, variant: Variant, mode: str) -> list[Line]:
    """The rows of ``variant``'s return table from the counts (see ``price``)."""
    if variant.flag_mask & ~deal.flag_mask:
        raise ValueError(
            f"variant {variant.name} needs dealer flags {variant.flag_mask}; the counts keep "
            f"only {deal.flag_mask}"
        )
    c = deal.counts
    if mode == Player.HOUSE_WAY:
        win, push, loss = c.blind_win, c.blind_push, c.blind_loss
    else:
        win, push, loss = c.br_win, c.br_push, c.br_loss
    return settle_lines(variant, deal.dealer_class_bits, win, push, loss, c.per_dealer_class)


def settle_lines(
    variant: Variant, dealer_class_bits: Sequence[int], win: np.ndarray, push: np.ndarray,
    loss: np.ndarray, per_class: np.ndarray,
) -> list[Line]:  # fmt: skip
    """The rows of ``variant``'s return table from the player's wins, pushes and losses and
    the deals of each dealer class (flag bits ``dealer_class_bits``): each class's first
    dealer rule of the variant applies."""
    normal = {"win": 0, "push": 0, "loss": 0}
    special = {rule: 0 for rule in variant.dealer_rules}
    for d, bits in enumerate(dealer_class_bits):
        w, p, lo = int(win[d]), int(push[d]), int(loss[d])
        rule = variant.rule_for(bits)
        if rule is None:
            normal["win"] += w
        elif rule.effect == "player-win-push":
            special[rule] += w
        else:
            special[rule] += int(per_class[d])
            continue
        normal["push"] += p
        normal["loss"] += lo
    lines = [
        Line(WIN_EVENT, "win", variant.win_pays, normal["win"]),
        Line(PUSH_EVENT, "push", Fraction(0), normal["push"]),
        Line(LOSS_EVENT, "loss", Fraction(-1), normal["loss"]),
    ]
    lines += [
        Line(rule.label, rule.outcome, Fraction(-1 if rule.outcome == "loss" else 0), n)
        for rule, n in special.items()
    ]
    order = {o: i for i, o in enumerate(OUTCOMES)}
    return sorted(lines, key=lambda line: order[line.outcome])  # stable: normal rows first


def price(deal: DealCounts, variant: Variant | str, player: str | None = None) -> ReturnTable:
    """The exact return table of ``variant`` for a player mode (default: the variant's)."""
    variant = get_variant(variant)
    mode = check_player(variant, player)
    lines = variant_lines(deal, variant, mode)
    notes = [variant.description] if variant.description else []
    other = mode == Player.HOUSE_WAY and deal.player_way != deal.dealer_way
    return ReturnTable.from_lines(
        lines, deal.total, game=variant.name, deck=deal.deck.name, house_way=deal.dealer_way,
        player=str(mode), title=variant.title, notes=tuple(notes),
        player_way=deal.player_way if other else None,
    )  # fmt: skip


def analyze(
    variant: Variant | str,
    house_way: HouseWay | str | None = None,
    player: str | None = None,
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    progress: bool | None = None,
    on_run: Callable[[str], None] | None = None,
) -> ReturnTable:
    """Price ``variant`` on ``deck``: counts from the cache (or one engine run), then ``price``.

    ``house_way`` (default: the variant's) sets the dealer's hands and the blind player's.
    """
    variant = get_variant(variant)
    mode = check_player(variant, player)
    way = house_way or variant.house_way
    deal = pair_counts(
        deck, rules, way, way, variant.flag_mask, use_cache=use_cache, progress=progress,
        on_run=on_run,
    )  # fmt: skip
    return price(deal, variant, mode)


def compare(tables: Sequence[ReturnTable]) -> pd.DataFrame:
    """One row per table: game, player, house way, P(win/push/loss), house edge, house edge
    per resolved bet and standard deviation (cut to 12 places)."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "game": t.game,
                "player": t.player,
                "house_way": t.house_way,
                "win": t.probability("win"),
                "push": t.probability("push"),
                "loss": t.probability("loss"),
                "house_edge": t.house_edge,
                "edge_per_resolved_bet": t.volatility.edge_per_resolved,
                "standard_deviation": t.volatility.standard_deviation,
            }
            for t in tables
        ]
    )
