"""Player banking in traditional pai gow (docs/rules.md, "Player banking"), exact one on one.

The banking player plays as banker against one opponent who sets his hand by the house way.
Copies go to the banker; the banker pays the 5% commission on his net win of the round, so
against one opponent (unit bets) he gains 19/20 when the opponent loses both hands, loses 1
when the opponent wins both, and pushes otherwise. Two banker strategies (``BANKERS``):

- ``house-way``: the banker sets by the house way too. The deals are those of the blind
  counts with the roles read the other way round: the opponent's loss is the banker's win.
- ``optimal``: the banker sets each hand, blind, for his highest exact EV against that
  opponent (19 x opponent losses - 20 x opponent wins over the opponent's C(n-7,7) hands),
  from the banker's counts of the per-hand table (``enumerate.engine.perhand.table``: the pass
  that prices the optimal player prices the banker too). Ties as for the optimal player
  (``analysis.pricing.optimal``): the house way's setting when it is among the best, else the
  best with the highest high hand. A dominated setting is never needed: the setting above it on
  both hands wins at least as often and loses at most as often.

The house's combined edge when a player banks one round in N: the house banks the other N - 1
rounds (the traditional house edge per unit bet) and in the banking round its own hand is the
opponent (unit bets), so there it gets minus the banker's EV (the commission included).

A full table (k opponents against one banker hand) needs the joint result of several hands
against one banker hand: ``simulate_banking`` deals it, k = 1..6, with standard errors. Against
k opponents the banker's expected net before commission is k times the one-on-one figure (the
opponents' hands are exchangeable), but the commission is on the net of the round, which is
why the table is simulated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from analysis.games.players import Player
from analysis.games.variants import get_variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.optimal import per_hand_table
from analysis.pricing.returns import Line, ReturnTable, analyze
from analysis.render.formats import markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.deals import deal_codes
from enumerate.engine.onehand.direct import dealer_keys, way_settings
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.waytables import way_is_cached

if TYPE_CHECKING:
    from enumerate.engine.perhand.table import PerHand
    from enumerate.tables import HandTable

BANKERS = ("house-way", "optimal")
COMMISSION = Fraction(1, 20)
BANKER_WINS = "opponent loses both hands (copies to the banker)"
PUSH = "each side wins one hand"
BANKER_LOSES = "opponent wins both hands"
MAX_OPPONENTS = 6


def _check(variant: str, banker: str) -> None:
    if get_variant(variant).name != "traditional":
        raise ValueError(f"player banking is priced for traditional pai gow (docs/rules.md, "
                         f"Player banking), not {variant}")  # fmt: skip
    if banker not in BANKERS:
        raise ValueError(f"banker strategy {banker!r}: expected one of {', '.join(BANKERS)}")


@dataclass(frozen=True)
class BankerCounts:
    """Deals (banker hand, opponent hand) by the banker's result, exact."""

    win: int  # the opponent loses both hands (copies included)
    push: int
    loss: int  # the opponent wins both hands

    @property
    def total(self) -> int:
        return self.win + self.push + self.loss


def banker_counts(way: str = "gli", banker: str = "house-way", deck: Deck | None = None,
                  rules: Rules | None = None,
                  per_hand: PerHand | None = None) -> BankerCounts:  # fmt: skip
    """The banker's wins, pushes and losses over every deal, one on one. ``per_hand``: the
    per-hand table against ``way`` when it is at hand (else it is read, or built)."""
    _check("traditional", banker)
    deck, rules = deck or Deck.full(), rules or Rules()
    if banker == "house-way":

        c = pair_counts(deck, rules, way, way, 0).counts
        # the opponent is the blind player, the banker the dealer: roles read the other way
        return BankerCounts(int(c.blind_loss.sum()), int(c.blind_push.sum()),
                            int(c.blind_win.sum()))  # fmt: skip

    table = hand_table(deck, rules)
    per = per_hand if per_hand is not None else _per_hand(table, way)
    win, loss = _best_for_banker(per.point_offset, per.bank, per.way_bank)
    orbit = table.orbit_size.astype(np.int64)
    total = int(orbit.sum()) * comb(deck.size - 7, 7)
    w, lo = int((orbit * win).sum()), int((orbit * loss).sum())
    return BankerCounts(w, total - w - lo, lo)


def _per_hand(table: HandTable, way: str) -> PerHand:
    """The per-hand table against ``way`` that the optimal traditional player reads (one
    cached table serves both)."""

    return per_hand_table(table, get_variant("traditional"), way)


@njit(cache=True)
def _best_for_banker(offset, bank, way_bank):
    """Per class, the banker's (wins, losses) of the setting with the highest
    ``19 wins - 20 losses``: the house way's (``way_bank``) when it is among the best, else
    the best frontier point with the highest high hand (the points run by increasing high)."""
    n = offset.shape[0] - 1
    win = np.empty(n, dtype=np.int64)
    loss = np.empty(n, dtype=np.int64)
    for c in range(n):
        w, lo = np.int64(way_bank[c, 0]), np.int64(way_bank[c, 1])
        v_way = 19 * w - 20 * lo
        v_best = v_way
        for p in range(offset[c], offset[c + 1]):
            v = 19 * np.int64(bank[p, 0]) - 20 * np.int64(bank[p, 1])
            if v > v_best or (v == v_best and v > v_way):
                w, lo, v_best = np.int64(bank[p, 0]), np.int64(bank[p, 1]), v
        win[c], loss[c] = w, lo
    return win, loss


def banking_table(variant: str = "traditional", way: str | None = None,
                  banker: str = "house-way", deck: Deck | None = None,
                  rules: Rules | None = None,
                  per_hand: PerHand | None = None) -> ReturnTable:  # fmt: skip
    """The banking player's return table against one opponent who sets by the house way
    (``per_hand``: as for ``banker_counts``)."""
    _check(variant, banker)
    way = way or get_variant(variant).house_way
    deck = deck or Deck.full()
    c = banker_counts(way, banker, deck, rules, per_hand)
    lines = [
        Line(BANKER_WINS, "win", 1 - COMMISSION, c.win),
        Line(PUSH, "push", Fraction(0), c.push),
        Line(BANKER_LOSES, "loss", Fraction(-1), c.loss),
    ]
    how = ("by the house way" if banker == "house-way" else
           "blind, each hand for his highest exact EV against that opponent")  # fmt: skip
    notes = (
        f"the player banks against one opponent who sets by the house way {way}; the banker "
        f"sets {how}; copies go to the banker, who pays 5% commission on his net win",
        "the table is the banker's: a negative house edge is the banker's advantage",
    )
    return ReturnTable.from_lines(
        lines, c.total, game="traditional", deck=deck.name, house_way=way,
        player=f"banking ({banker})", title="Pai Gow Poker, the player banks (one on one)",
        notes=notes,
    )  # fmt: skip


def house_edge_banking(
    every: int, way: str = "gli", banker: str = "house-way", deck: Deck | None = None,
    rules: Rules | None = None,
) -> Fraction:  # fmt: skip
    """The house's edge per unit bet over ``every`` rounds of which a player banks one (one
    on one, unit bets): ``((every - 1) x traditional edge - banker's EV) / every``."""
    if every < 1:
        raise ValueError(f"a player banks one round in {every}: expected at least 1")

    house = analyze("traditional", way, Player.HOUSE_WAY, deck, rules).house_edge
    return _combined(every, house, banking_table("traditional", way, banker, deck, rules))


def _combined(every: int, house: Fraction, banking: ReturnTable) -> Fraction:
    """The house's edge over ``every`` rounds: the traditional edge ``house`` in all but one,
    minus the banker's EV (``banking``'s table) in that one."""
    return ((every - 1) * house + banking.house_edge) / every


@dataclass(frozen=True)
class BankingSimulation:
    """The banker against ``opponents`` hands set by the house way, over ``rounds`` deals."""

    opponents: int
    rounds: int
    seed: int
    mean: float  # the banker's result per round (unit bet on each opponent)
    se: float  # its standard error

    @property
    def per_opponent(self) -> float:
        return self.mean / self.opponents

    @property
    def per_opponent_se(self) -> float:
        return self.se / self.opponents


def simulate_banking(opponents: int, rounds: int, seed: int = 1, way: str = "gli",
                     deck: Deck | None = None, rules: Rules | None = None,
                     chunk: int = 200_000) -> BankingSimulation:  # fmt: skip
    """Monte Carlo of a banking round: the banker and ``opponents`` hands (the dealer's among
    them) dealt from one deck, every hand set by the house way; the banker settles with each
    opponent and pays 5% commission on a positive net. Reproducible for a seed."""

    deck, rules = deck or Deck.full(), rules or Rules()
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ValueError(f"--opponents {opponents}: expected 1..{MAX_OPPONENTS}")
    if rounds < 2:
        raise ValueError("a simulation needs at least 2 rounds")
    w = get_way(way)
    # a cached way table gives each dealt hand's setting by its class, far quicker than setting
    # the millions of dealt hands one by one; else the dealt hands are set
    keys = dealer_keys(deck, rules, w, 0) if way_is_cached(w, deck, rules) else None
    rng = np.random.default_rng(seed)
    s1 = s2 = 0  # sums of 20 x the banker's result and of its square (integers: exact)
    done = 0
    while done < rounds:
        m = min(chunk, rounds - done)
        hands, _codes = deal_codes(deck, m, rng, opponents + 1)
        if keys is not None:
            high, low = way_settings(hands, deck, keys)
        else:
            cols = apply_way(w, hands, rules)
            high, low = cols.high.astype(np.int64), cols.low.astype(np.int64)
        high, low = high.reshape(opponents + 1, m), low.reshape(opponents + 1, m)
        bh, bl = high[0], low[0]
        net = np.zeros(m, dtype=np.int64)
        for j in range(1, opponents + 1):
            net += ((high[j] <= bh) & (low[j] <= bl)).astype(np.int64)  # opponent loses
            net -= ((high[j] > bh) & (low[j] > bl)).astype(np.int64)  # opponent wins
        x20 = np.where(net > 0, 19 * net, 20 * net)
        s1 += int(x20.sum())
        s2 += int((x20 * x20).sum())
        done += m
    mean = Fraction(s1, 20 * rounds)
    var = (Fraction(s2, 400 * rounds) - mean**2) * Fraction(rounds, rounds - 1)
    return BankingSimulation(opponents, rounds, seed, float(mean), float(var / rounds) ** 0.5)


@dataclass(frozen=True)
class BankingReport(ShowsAsHtml):
    """Everything ``paigow banking`` shows: the exact one-on-one tables of both banker
    strategies, the house's edge when a player banks one round in ``every``, and the
    simulated banker against 1..k opponents."""

    tables: dict[str, ReturnTable]  # by banker strategy
    every: int
    house_edges: dict[str, Fraction]  # by banker strategy: the house's combined edge
    simulated: tuple[BankingSimulation, ...]

    def rows(self) -> list[dict[str, object]]:
        """The table by number of opponents (k = 1: the exact figure beside it)."""
        exact = -self.tables["house-way"].house_edge
        return [
            {"opponents": s.opponents, "rounds": s.rounds,
             "banker result per round": s.mean, "se": s.se,
             "per opponent bet": s.per_opponent, "se per opponent": s.per_opponent_se,
             "exact (one on one)": float(exact) if s.opponents == 1 else None}
            for s in self.simulated
        ]  # fmt: skip

    def to_dict(self) -> dict[str, object]:
        return {
            "one_on_one": {b: t.to_dict() for b, t in self.tables.items()},
            "banks_one_round_in": self.every,
            "house_edge": {b: float(e) for b, e in self.house_edges.items()},
            "house_edge_fraction": dict(self.house_edges),
            "simulated": {"label": "Monte Carlo (house-way banker, every hand by the house "
                                   "way), one standard error", "rows": self.rows()},
        }  # fmt: skip

    def _lines(self) -> list[str]:
        return [f"house edge when a player banks one round in {self.every} (one on one, unit "
                f"bets; banker {b}): {float(e) * 100:.4f}% (exact: {e.numerator}/"
                f"{e.denominator})" for b, e in self.house_edges.items()]  # fmt: skip

    def render(self, fmt: str = "md") -> str:

        if fmt == "json":
            return to_json(self.to_dict())
        rows = self.rows()
        head = list(rows[0]) if rows else []

        def cell(v: object) -> str:
            return "" if v is None else f"{v:.6f}" if isinstance(v, float) else str(v)

        cells = [[cell(r[h]) for h in head] for r in rows]
        if fmt == "csv":
            import csv
            import io

            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows([head, *cells])
            return out.getvalue()
        sim = markdown_cells(head, cells, [True] * len(head))
        title = ("Simulated, NOT exact: the banker against k opponents (the dealer's hand "
                 "among them), every hand by the house way; 5% commission on the banker's "
                 "net win of the round")  # fmt: skip
        if fmt == "md":
            parts = [t.render("md") for t in self.tables.values()]
            return "\n".join([*parts, *self._lines(), "", title, "", sim]) + "\n"
        if fmt == "html":
            import html

            parts = [t.render("html") for t in self.tables.values()]
            lines = "".join(f"<p>{html.escape(x)}</p>\n" for x in self._lines())
            body = "".join(f"<tr>{''.join(f'<td>{html.escape(c)}</td>' for c in r)}</tr>"
                           for r in cells)  # fmt: skip
            header = "".join(f"<th>{html.escape(h)}</th>" for h in head)
            return ("<hr>\n".join(parts) + lines + f"<p>{html.escape(title)}</p>\n"
                    f"<table class=\"banking\"><tr>{header}</tr>{body}</table>\n")  # fmt: skip
        raise ValueError(f"unknown format {fmt!r} (known: md, csv, json, html)")


def banking_report(way: str = "gli", rounds: int = 200_000, seed: int = 1, every: int = 7,
                   deck: Deck | None = None, rules: Rules | None = None,
                   bankers: tuple[str, ...] = BANKERS,
                   per_hand: PerHand | None = None) -> BankingReport:  # fmt: skip
    """The exact one-on-one figures of each banker strategy and the simulated table of
    1..6 opponents (fewer when the deck cannot deal them); ``per_hand``: as for
    ``banker_counts``."""
    deck, rules = deck or Deck.full(), rules or Rules()
    get_way(way)  # an unknown way fails before any work
    if every < 1:
        raise ValueError(f"a player banks one round in {every}: expected at least 1")

    tables = {b: banking_table("traditional", way, b, deck, rules, per_hand) for b in bankers}
    house = analyze("traditional", way, Player.HOUSE_WAY, deck, rules).house_edge
    edges = {b: _combined(every, house, t) for b, t in tables.items()}
    most = min(MAX_OPPONENTS, deck.size // 7 - 1)
    sims = tuple(simulate_banking(k, rounds, seed + k, way, deck, rules)
                 for k in range(1, most + 1))  # fmt: skip
    return BankingReport(tables, every, edges, sims)
