"""A card's points chart: what the front ``most points`` reads.

A chart gives a back (five cards) and a front (two cards) points by steps: each step names the
lowest hand that earns its points, and a hand earns the points of the highest step it reaches
(none: 0). A rule whose front is ``most points`` sets the hand so that its back's points plus
its front's are the most, then by the strongest back, then the highest front::

    [points]
    back = [["9c 9d 4h 3s 2c", 310], ["Ac Ad 4h 3s 2c", 560]]
    front = [["K-Q", 420], ["A-2", 480], ["2-2", 610]]

Steps go up in strength and in points, so a stronger back or front never earns fewer points:
the setting chosen is never dominated (no other setting has a back and a front at least as
strong). A point count such as "the chance that the hand beats the dealer's hand of its size,
in thousandths" is a chart; ``analysis.derive.points`` derives one from the exact tables.

In the program a chart is stored after the code (the lowest hand of each back step as five
card ids, of each front step as a two-card id); ``program.link`` expands it, under a deck's
rules, into the points of every five-card id and two-card id, which is what the kernel reads.

>>> p = read_points({"back": [["9c 9d 4h 3s 2c", 310]], "front": [["K-Q", 420]]}, "my.toml")
>>> [(two_card_name(low), pts) for low, pts in p.front]
[('K-Q', 420)]
>>> read_points({"front": [["K-Q", 420], ["Q-J", 500]]}, "my.toml")
Traceback (most recent call last):
...
enumerate.errors.CardError: my.toml: points: front step 2 (Q-J): a step must name a stronger \
front than the step before it
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from enumerate.cards import RANKS, Card, parse_cards
from enumerate.conditions.values import RANK_WORDS
from enumerate.errors import CardError
from enumerate.evaluate import (
    HIGH_ID_BOUND,
    N_LOW,
    FiveCardTable,
    two_card_id_of,
    two_card_name,
    two_card_ranks,
)
from enumerate.rules import Rules

POINTS_FIELDS = {"back", "front"}
MOST_POINTS = 1 << 40  # points are below this, so a sum of two never overflows


@dataclass(frozen=True)
class Points:
    """A chart: the back steps (the five card ids of the step's lowest hand, its points) and
    the front steps (the step's two-card id, its points), each in increasing order."""

    back: tuple[tuple[tuple[int, ...], int], ...] = ()
    front: tuple[tuple[int, int], ...] = ()

    def encoded(self) -> list[int]:
        """The chart as the program stores it: the number of back steps, each as five card ids
        and points, then the number of front steps, each as a two-card id and points."""
        out = [len(self.back)]
        for cards, pts in self.back:
            out += [*cards, pts]
        out.append(len(self.front))
        for low, pts in self.front:
            out += [low, pts]
        return out

    def back_ids(self, five: FiveCardTable) -> list[int]:
        """The five-card id of each back step's lowest hand under ``five``'s rules."""
        return [five.id_of([Card(c) for c in cards]) for cards, _ in self.back]

    def lines(self, five: FiveCardTable) -> list[str]:
        """The chart in words, a step a line: ``back: pair of nines, 4-3-2 kickers or better:
        310``."""
        out = [f"back: {five.name(h)} or better: {pts}"
               for h, (_, pts) in zip(self.back_ids(five), self.back, strict=True)]  # fmt: skip
        out += [f"front: {two_card_name(low)} or better: {pts}" for low, pts in self.front]
        return out


    def toml(self, five: FiveCardTable) -> str:
        """The chart as a card's ``[points]`` table, a step a line with its hand in words."""
        lines = ["[points]", "back = ["]
        for (cards, pts), h in zip(self.back, self.back_ids(five), strict=True):
            text = " ".join(str(Card(c)) for c in sorted(cards, reverse=True))
            lines.append(f'  ["{text}", {pts}],  # {five.name(h)}')
        lines += ["]", "front = ["]
        for low, pts in self.front:
            hi, lo = two_card_ranks(low)
            text = f"{RANKS[hi].value}-{RANKS[lo].value}"
            lines.append(f'  ["{text}", {pts}],  # {two_card_name(low)}')
        lines.append("]")
        return "\n".join(lines) + "\n"


def _front_id(text: str) -> int:
    parts = text.replace(" ", "").upper().split("-")
    if len(parts) != 2 or not all(p in RANK_WORDS for p in parts):
        raise ValueError(f"{text!r} is not a front (write two ranks: K-Q, 9-9)")
    a, b = (RANK_WORDS[p] for p in parts)
    return int(two_card_id_of(4 * a, 4 * b + (1 if a == b else 0)))


def _points(value: Any, at: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MOST_POINTS:
        raise CardError(f"{at}: points must be a whole number from 0 to 2^40, not {value!r}")
    return value


def _steps(raw: Any, side: str, where: str) -> list[tuple[str, int, int]]:
    """(text, what, points) of each step of one side; ``what``: the two-card id of a front,
    the index of the step for a back (its cards are kept apart)."""
    if not isinstance(raw, list):
        raise CardError(f"{where}: points: {side}: write a list of [HAND, POINTS] steps")
    out = []
    for i, step in enumerate(raw, 1):
        at = f"{where}: points: {side} step {i}"
        if not (isinstance(step, list) and len(step) == 2 and isinstance(step[0], str)):
            raise CardError(f"{at}: write [HAND, POINTS], not {step!r}")
        out.append((step[0], i, _points(step[1], f"{at} ({step[0]})")))
    return out


def read_points(doc: Mapping[str, Any], where: str, rules: Rules | None = None) -> Points:
    """A card's ``[points]`` table, checked: every hand readable, the steps increasing in
    strength (under ``rules``, default the usual) and in points."""
    from enumerate.evaluate import five_card_table

    if not isinstance(doc, Mapping):
        raise CardError(f"{where}: points: expected a table")
    extra = sorted(set(doc) - POINTS_FIELDS)
    if extra:
        raise CardError(f"{where}: points: unknown field {extra[0]!r} (fields: back, front)")
    if not doc.get("back") and not doc.get("front"):
        raise CardError(f"{where}: points: a chart needs a back or a front step")
    back = []
    for text, i, pts in _steps(doc.get("back", []), "back", where):
        try:
            cards = parse_cards(text, count=5)
        except ValueError as err:
            raise CardError(f"{where}: points: back step {i} ({text}): {err}") from None
        back.append((tuple(sorted(c.id for c in cards)), pts))
    front = []
    for text, i, pts in _steps(doc.get("front", []), "front", where):
        try:
            front.append((_front_id(text), pts))
        except ValueError as err:
            raise CardError(f"{where}: points: front step {i}: {err}") from None
    chart = Points(tuple(back), tuple(front))
    check_order(chart, five_card_table(rules), where)
    return chart


def check_order(chart: Points, five: FiveCardTable, where: str) -> None:
    """Each side's steps strictly increasing in strength (under ``five``'s rules) and in
    points; a ``CardError`` naming the first step that is not."""
    sides = (("back", chart.back_ids(five), [p for _, p in chart.back], five.name),
             ("front", [low for low, _ in chart.front], [p for _, p in chart.front],
              two_card_name))  # fmt: skip
    for side, ids, pts, name in sides:
        for i in range(1, len(ids)):
            at = f"{where}: points: {side} step {i + 1} ({name(ids[i])})"
            if ids[i] <= ids[i - 1]:
                raise CardError(f"{at}: a step must name a stronger {side} than the step "
                                "before it")  # fmt: skip
            if pts[i] <= pts[i - 1]:
                raise CardError(f"{at}: a step must earn more points than the step before it")


def expand(chart: Points, five: FiveCardTable) -> np.ndarray:
    """The points of every five-card id (``HIGH_ID_BOUND`` of them), then of every two-card
    id (``N_LOW``): the chart as the kernel reads it."""
    out = np.zeros(HIGH_ID_BOUND + N_LOW, dtype=np.int64)
    for h, (_, pts) in zip(chart.back_ids(five), chart.back, strict=True):
        out[h:HIGH_ID_BOUND] = pts
    for low, pts in chart.front:
        out[HIGH_ID_BOUND + low :] = pts
    return out


def chart_end(code: np.ndarray, at: int) -> int:
    """Where the chart stored at ``code[at:]`` (``Points.encoded``) ends."""
    end = at + 1 + 6 * int(code[at])
    return end + 1 + 2 * int(code[end])


def decoded(code: np.ndarray, at: int) -> Points:
    """The chart stored at ``code[at:]`` (``Points.encoded``)."""
    n = int(code[at])
    back = tuple((tuple(int(x) for x in code[at + 1 + 6 * i : at + 6 + 6 * i]),
                  int(code[at + 6 + 6 * i])) for i in range(n))  # fmt: skip
    at += 1 + 6 * n
    m = int(code[at])
    front = tuple((int(code[at + 1 + 2 * i]), int(code[at + 2 + 2 * i])) for i in range(m))
    return Points(back, front)
