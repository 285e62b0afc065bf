"""Cards of the 53-card pai gow deck: ranks, suits, the joker, parsing.

Inside the toolkit a card is a small integer: ``4 * rank + suit`` for the 52 natural cards
(rank 0 = deuce ... 12 = ace, suit 0..3 = clubs, diamonds, hearts, spades) and 52 for the
joker, so that higher ids hold higher ranks and a hand fits a 64-bit mask.

>>> parse_cards("As Kd 10h Tc 2s Jk")
(Card('As'), Card('Kd'), Card('Th'), Card('Tc'), Card('2s'), Card('Jk'))
>>> Hand.parse("2c 2d Jk", count=3).mask == (1 << 0) | (1 << 1) | (1 << 52)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import total_ordering

JOKER_ID = 52
N_CARDS = 53


class Rank(StrEnum):
    """Card ranks, weakest first; ``Rank.order`` is 0 for a deuce and 12 for an ace."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def order(self) -> int:
        return RANKS.index(self)

    @property
    def noun(self) -> str:
        """The rank's name in a sentence: ``Rank.SIX.noun == 'six'``."""
        return RANK_NOUNS[self.order]


class Suit(StrEnum):
    """The four suits; suits never break ties in pai gow."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def order(self) -> int:
        return SUITS.index(self)


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
RANK_NOUNS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)  # fmt: skip
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)  # fmt: skip

_JOKER_TOKENS = {"jk", "joker", "x"}


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card, identified by its integer id (``4 * rank + suit``; the joker is 52).

    >>> Card.parse("Qh").rank, Card.parse("Qh").suit
    (<Rank.QUEEN: 'Q'>, <Suit.HEARTS: 'h'>)
    >>> Card.parse("joker").is_joker
    True
    >>> Card.parse("Ah") > Card.parse("Kh")
    True
    """

    id: int

    def __post_init__(self) -> None:
        if not 0 <= self.id < N_CARDS:
            raise ValueError(f"card id {self.id} is outside 0..52")

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return cls(4 * rank.order + suit.order)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card: rank ``2-9``, ``T`` or ``10``, ``J Q K A``; suit ``c d h s`` in any
        case; the joker as ``Jk``, ``JK``, ``Joker`` or ``X``."""
        text = token.strip()
        low = text.lower()
        if low in _JOKER_TOKENS:
            return JOKER
        if len(text) < 2:
            raise ValueError(f"unknown card {token!r}")
        rank_text, suit_text = text[:-1].upper(), text[-1].lower()
        if rank_text == "10":
            rank_text = "T"
        try:
            rank, suit = Rank(rank_text), Suit(suit_text)
        except ValueError:
            raise ValueError(
                f"unknown card {token!r} (expected a rank 2-9, T/10, J, Q, K, A and a suit "
                "c, d, h, s, or Jk for the joker)"
            ) from None
        return cls.of(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.id == JOKER_ID

    @property
    def rank(self) -> Rank | None:
        """The card's rank; ``None`` for the joker."""
        return None if self.is_joker else RANKS[self.id >> 2]

    @property
    def suit(self) -> Suit | None:
        """The card's suit; ``None`` for the joker."""
        return None if self.is_joker else SUITS[self.id & 3]

    def __str__(self) -> str:
        if self.is_joker:
            return "Jk"
        return f"{RANKS[self.id >> 2].value}{SUITS[self.id & 3].value}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id < other.id


JOKER = Card(JOKER_ID)
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(N_CARDS))


def parse_cards(text: str | Iterable[str | Card], count: int | None = None) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated cards, refusing duplicates and wrong counts.

    >>> parse_cards("Ah,kh 2c")
    (Card('Ah'), Card('Kh'), Card('2c'))
    >>> parse_cards("Ah Ah")
    Traceback (most recent call last):
    ...
    ValueError: duplicate card 'Ah'
    >>> parse_cards("Ah Kh", count=7)
    Traceback (most recent call last):
    ...
    ValueError: expected 7 cards, got 2
    """
    tokens: list[str | Card]
    if isinstance(text, str):
        tokens = [t for t in text.replace(",", " ").split() if t]
    else:
        tokens = list(text)
    cards: list[Card] = []
    seen: set[int] = set()
    for token in tokens:
        card = token if isinstance(token, Card) else Card.parse(token)
        if card.id in seen:
            same = "" if str(token) == str(card) else f" ({card})"
            raise ValueError(f"duplicate card {str(token)!r}{same}")
        seen.add(card.id)
        cards.append(card)
    if count is not None and len(cards) != count:
        raise ValueError(f"expected {count} cards, got {len(cards)}")
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Hand:
    """A set of distinct cards in the order given (a pai gow hand has seven).

    >>> hand = Hand.parse("As Ks Qs Js Ts 2c Jk")
    >>> len(hand), hand.has_joker
    (7, True)
    >>> str(hand)
    'As Ks Qs Js Ts 2c Jk'
    """

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        parse_cards(self.cards)  # validates duplicates

    @classmethod
    def parse(cls, text: str, count: int | None = 7) -> Hand:
        return cls(parse_cards(text, count=count))

    @classmethod
    def from_ids(cls, ids: Iterable[int]) -> Hand:
        return cls(tuple(Card(int(i)) for i in ids))

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards)

    @property
    def mask(self) -> int:
        """The hand as a 53-bit mask, bit ``card.id`` set for each card."""
        m = 0
        for c in self.cards:
            m |= 1 << c.id
        return m

    @property
    def has_joker(self) -> bool:
        return any(c.is_joker for c in self.cards)

    def sorted(self) -> Hand:
        """The same cards, strongest first (joker first)."""
        return Hand(tuple(sorted(self.cards, reverse=True)))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)
