"""``paigow way check``: what each rule of a rule card does over every hand of a deck.

For every rule, in the card's order: the hands that reach it (no earlier rule set them), the
hands it sets, those it cannot set (its front does not exist or would foul: the fallback sets
them) and those it sets on a dominated setting (another valid setting is as strong in both
hands and stronger in one). Errors: hands no rule sets, and rules whose setting is not valid.
Warnings: rules no hand reaches or that never hold, and dominated settings. Counts are hands
(each suit class weighted by its orbit size), with an example hand for each problem.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.render.formats import markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.cards import Card
from enumerate.evaluate import five_card_table
from enumerate.houseways import HouseWay, get_way
from enumerate.houseways.apply import royal_id
from enumerate.houseways.interpreter import name_of, trace_range_card
from enumerate.houseways.program import link
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges
from enumerate.tables import hand_table
from enumerate.waytables import player_table


@dataclass(frozen=True)
class RuleCheck:
    """One rule of the card over the deck (hands, weighted)."""

    position: int  # 1-based, in the card
    name: str
    reached: int
    sets: int
    not_valid: int
    dominated: int
    example_not_valid: str = ""
    example_dominated: str = ""


@dataclass(frozen=True)
class CardCheck(ShowsAsHtml):
    """The check of one card (a way with a program) over a deck."""

    way: str
    deck: str
    total: int
    rules: tuple[RuleCheck, ...]
    unset: int  # hands no rule sets
    example_unset: str = ""

    def errors(self) -> list[str]:
        out = []
        if self.unset:
            out.append(f"{self.unset:,} hands are set by no rule, e.g. {self.example_unset}")
        for r in self.rules:
            if r.not_valid:
                out.append(f"rule {r.position} ({r.name}): no valid setting for "
                           f"{r.not_valid:,} hands, e.g. {r.example_not_valid}")  # fmt: skip
        return out

    def warnings(self) -> list[str]:
        out = []
        for r in self.rules:
            if r.reached == 0:
                out.append(f"rule {r.position} ({r.name}): no hand reaches it")
            elif r.sets == 0:
                out.append(f"rule {r.position} ({r.name}): reached by {r.reached:,} hands, "
                           "holds for none")  # fmt: skip
            if r.dominated:
                out.append(f"rule {r.position} ({r.name}): a dominated setting for "
                           f"{r.dominated:,} hands, e.g. {r.example_dominated}")  # fmt: skip
        return out

    def render(self, fmt: str = "md") -> str:
        """Markdown (the rules' table, then errors and warnings) or JSON."""
        if fmt == "json":
            return to_json({
                "way": self.way, "deck": self.deck, "hands": self.total, "unset": self.unset,
                "rules": [vars(r) for r in self.rules], "errors": self.errors(),
                "warnings": self.warnings(),
            }) + "\n"  # fmt: skip
        if fmt != "md":
            raise ValueError(f"format {fmt!r}: expected md or json")
        cols = ["#", "rule", "reach", "sets", "not valid", "dominated"]
        cells = [[str(r.position), r.name, str(r.reached), str(r.sets), str(r.not_valid),
                  str(r.dominated)] for r in self.rules]  # fmt: skip
        lines = [f"Card {self.way}, deck {self.deck}: {self.total:,} hands", "",
                 markdown_cells(cols, cells, [False, False, True, True, True, True]), ""]
        errors, warnings = self.errors(), self.warnings()
        lines += [f"error: {e}" for e in errors] + [f"warning: {w}" for w in warnings]
        if not errors and not warnings:
            lines.append("every hand is set, validly, on a non-dominated setting")
        return "\n".join(lines) + "\n"


def _hand_text(cards: np.ndarray) -> str:
    return " ".join(str(Card(int(c))) for c in sorted(cards.tolist(), reverse=True))


def check_card(way: HouseWay | str, deck: Deck | None = None,
               rules: Rules | None = None) -> CardCheck:  # fmt: skip
    """Check the card ``way`` (a card's name or file, with a reading if wanted) over every hand
    of ``deck``."""

    way = get_way(way) if isinstance(way, str) else way
    if way.program is None:
        raise ValueError(f"house way {way.name!r} is not a rule card (a module way)")
    deck, rules = deck or Deck.full(), rules or Rules()
    table = hand_table(deck, rules)
    five = five_card_table(rules)
    n = len(table.cards)
    position = np.empty(n, dtype=np.int16)
    setting = np.empty(n, dtype=np.int8)
    valid = np.empty(n, dtype=np.bool_)
    high = np.empty(n, dtype=np.int32)
    low = np.empty(n, dtype=np.int32)
    prog = link(way.program, five, way.name)
    over_ranges(trace_range_card, n, table.cards, five.ids, five.max_low, five.category,
                royal_id(five), prog, position, setting, valid, high, low)  # fmt: skip
    weight = table.orbit_size.astype(np.int64)
    on_frontier = np.zeros(n, dtype=np.bool_)
    on_frontier[valid] = player_table(deck, rules).on_frontier(high, low)[valid]
    card_rules = [way.rules[name_of(prog, r)] for r in range(int(prog[0]))]
    checks = []
    reached = int(weight.sum())
    for r, name in enumerate(card_rules):
        mine = position == r
        bad = mine & ~valid
        dominated = mine & valid & ~on_frontier
        sets = int(weight[mine].sum())
        checks.append(RuleCheck(r + 1, name, reached, sets, int(weight[bad].sum()),
                                int(weight[dominated].sum()), _example(table.cards, bad),
                                _example(table.cards, dominated)))  # fmt: skip
        reached -= sets
    unset = position < 0
    return CardCheck(way.name, deck.name, int(weight.sum()), tuple(checks),
                     int(weight[unset].sum()), _example(table.cards, unset))  # fmt: skip


def _example(cards: np.ndarray, rows: np.ndarray) -> str:
    hit = np.flatnonzero(rows)
    return _hand_text(cards[hit[0]]) if len(hit) else ""
