"""Rule options and decks: the inputs every table is built from.

``Rules`` holds the options of docs/rules.md that change how hands rank; ``Deck`` says which cards
are dealt (the full 53-card deck by default, reduced decks for brute-force checks).

>>> Rules()
Rules(wheel='second')
>>> Deck.full().size, Deck.parse("A2345:cdh+joker").size
(53, 16)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Literal

from enumerate.cards import JOKER_ID, RANKS, SUITS, Card, Rank, Suit

WheelOption = Literal["second", "low"]


@dataclass(frozen=True)
class Rules:
    """How hands rank.

    ``wheel``: ``"second"`` (default) makes A-2-3-4-5 the second-highest straight and straight
    flush; ``"low"`` makes it the lowest.
    """

    wheel: WheelOption = "second"

    def __post_init__(self) -> None:
        if self.wheel not in ("second", "low"):
            raise ValueError(f"unknown wheel option {self.wheel!r} (expected 'second' or 'low')")

    @property
    def key(self) -> str:
        """A stable text form, used in cache provenance."""
        return json.dumps(asdict(self), sort_keys=True)


@dataclass(frozen=True)
class Deck:
    """A deck made of some ranks times some suits, with or without the joker.

    >>> Deck.parse("TJQKA:cds").name
    'TJQKA:cds'
    >>> [str(c) for c in Deck.parse("A2:cd+joker").cards]
    ['2c', '2d', 'Ac', 'Ad', 'Jk']
    """

    ranks: tuple[Rank, ...] = RANKS
    suits: tuple[Suit, ...] = SUITS
    joker: bool = True
    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ranks = tuple(sorted(set(self.ranks), key=lambda r: r.order))
        suits = tuple(sorted(set(self.suits), key=lambda s: s.order))
        if len(ranks) != len(self.ranks) or len(suits) != len(self.suits):
            raise ValueError("a deck lists each rank and suit once")
        if not ranks or not suits:
            raise ValueError("a deck needs at least one rank and one suit")
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "suits", suits)
        cards = [Card.of(r, s) for r in ranks for s in suits]
        if self.joker:
            cards.append(Card(JOKER_ID))
        object.__setattr__(self, "cards", tuple(cards))

    @classmethod
    def full(cls) -> Deck:
        return cls()

    @classmethod
    def parse(cls, text: str) -> Deck:
        """Read ``RANKS:SUITS[+joker]``, e.g. ``"A2345:cdh+joker"``; ``"full"`` is the 53-card
        deck and ``"52"`` the deck without the joker."""
        t = text.strip()
        if t.lower() in ("full", "53"):
            return cls()
        if t == "52":
            return cls(joker=False)
        body, plus, extra = t.partition("+")
        if plus and extra.lower() not in ("joker", "jk"):
            raise ValueError(f"deck {text!r}: only '+joker' may follow the suits")
        ranks_text, colon, suits_text = body.partition(":")
        if not colon:
            raise ValueError(f"deck {text!r}: expected RANKS:SUITS[+joker], e.g. A2345:cdh+joker")
        try:
            ranks = tuple(Rank(ch.upper()) for ch in ranks_text)
            suits = tuple(Suit(ch.lower()) for ch in suits_text)
        except ValueError as err:
            raise ValueError(f"deck {text!r}: {err}") from None
        return cls(ranks, suits, joker=bool(plus))

    @property
    def name(self) -> str:
        if self == Deck():
            return "full"
        r = "".join(x.value for x in self.ranks)
        s = "".join(x.value for x in self.suits)
        return f"{r}:{s}" + ("+joker" if self.joker else "")

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards)

    @property
    def rank_mask(self) -> int:
        """Bit ``rank.order`` set for every rank of the deck."""
        return sum(1 << r.order for r in self.ranks)

    @property
    def key(self) -> str:
        return self.name
