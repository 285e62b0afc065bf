"""The domain vocabulary: the only place where hand flags, dealer events and the classes of
seven-card hands get their numbers.

- ``SevenCardClass``: the Fortune-order class of seven cards (side bets, player classes);
- ``HandFlag``: what the hand table records of a hand's pai gow status (``flags`` column);
- ``DealerEvent``: the dealer hands that variants treat specially; the pair engine keeps
  dealer hands apart by these bits (a *dealer class* is one combination of them);
- player classes: the seven-card classes with "nothing" split by ace-high pai gow (Push Ace
  High pays on the player's ace-high pai gow);
- ``Category``: the five-card categories; ``ThreeCardClass``: the three-card poker classes.

Numba kernels cannot read ``IntFlag`` members, so they import the plain ``int`` values below
(``*_BIT`` names), which numba compiles as constants.

>>> ALL_DEALER_EVENTS == sum(DealerEvent)
True
>>> dealer_class_name(DealerEvent.TWO_JACKS | DealerEvent.QUEEN_HIGH)
'two or more jacks + queen-high pai gow'
>>> player_class_name(PLAYER_ACE_HIGH_PAI_GOW)
'nothing (ace-high pai gow)'
"""

from __future__ import annotations

import functools
import operator
from enum import IntEnum, IntFlag


class Category(IntEnum):
    """Five-card categories, weakest first (royal flush is the top straight flush)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_ACES = 9


class ThreeCardClass(IntEnum):
    """Three-card poker classes, weakest first: a straight beats a flush."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5


class SevenCardClass(IntEnum):
    """Fortune-order classes of seven cards, weakest first."""

    NOTHING = 0
    THREE_PAIR = 1
    STRAIGHT = 2
    THREE_OF_A_KIND = 3
    FLUSH = 4
    FULL_HOUSE = 5
    FOUR_OF_A_KIND = 6
    STRAIGHT_FLUSH = 7
    ROYAL_FLUSH = 8
    FIVE_ACES = 9
    SEVEN_CARD_STRAIGHT_FLUSH_JOKER = 10
    ROYAL_MATCH = 11
    SEVEN_CARD_STRAIGHT_FLUSH = 12

    @property
    def label(self) -> str:
        return CLASS_LABELS[self]


CLASS_LABELS = {
    SevenCardClass.NOTHING: "nothing",
    SevenCardClass.THREE_PAIR: "three pair",
    SevenCardClass.STRAIGHT: "straight",
    SevenCardClass.THREE_OF_A_KIND: "three of a kind",
    SevenCardClass.FLUSH: "flush",
    SevenCardClass.FULL_HOUSE: "full house",
    SevenCardClass.FOUR_OF_A_KIND: "four of a kind",
    SevenCardClass.STRAIGHT_FLUSH: "straight flush",
    SevenCardClass.ROYAL_FLUSH: "royal flush",
    SevenCardClass.FIVE_ACES: "five aces",
    SevenCardClass.SEVEN_CARD_STRAIGHT_FLUSH_JOKER: "7-card straight flush with joker",
    SevenCardClass.ROYAL_MATCH: "royal flush + royal match",
    SevenCardClass.SEVEN_CARD_STRAIGHT_FLUSH: "natural 7-card straight flush",
}


class HandFlag(IntFlag):
    """Bits of the hand table's ``flags`` column."""

    PAI_GOW = 1  # no pair, straight or flush (the joker read as docs/rules.md allows)
    ACE_HIGH_PAI_GOW = 2  # a pai gow whose top card is an ace (or the joker as the ace)
    JOKER_IS_ACE = 4  # an ace-high pai gow whose ace is the joker
    QUEEN_HIGH_PAI_GOW = 8  # a pai gow topped by a queen, no joker


class DealerEvent(IntFlag):
    """Dealer hands a variant or a side bet settles specially."""

    ACE_HIGH_JOKER = 1  # ace-high pai gow, the joker as the ace
    ACE_HIGH_NATURAL = 2  # ace-high pai gow, a natural ace
    TWO_JACKS = 4  # two or more natural jacks in the seven cards
    QUEEN_HIGH = 8  # queen-high pai gow
    NINE_HIGH_LOW = 16  # the house way's low hand is nine-high


ALL_DEALER_EVENTS = int(functools.reduce(operator.or_, DealerEvent))
ACE_HIGH_PAI_GOW_EVENTS = DealerEvent.ACE_HIGH_JOKER | DealerEvent.ACE_HIGH_NATURAL

DEALER_EVENT_NAMES = {
    DealerEvent.ACE_HIGH_JOKER: "ace-high pai gow, joker as the ace",
    DealerEvent.ACE_HIGH_NATURAL: "ace-high pai gow, natural ace",
    DealerEvent.TWO_JACKS: "two or more jacks",
    DealerEvent.QUEEN_HIGH: "queen-high pai gow",
    DealerEvent.NINE_HIGH_LOW: "nine-high low hand",
}

# player classes: the seven-card classes, with "nothing" split by ace-high pai gow
N_PLAYER_CLASSES = len(SevenCardClass) + 1
PLAYER_ACE_HIGH_PAI_GOW = len(SevenCardClass)  # class id of "nothing, ace-high pai gow"

# plain ints for numba kernels
PAI_GOW_BIT = int(HandFlag.PAI_GOW)
ACE_HIGH_PAI_GOW_BIT = int(HandFlag.ACE_HIGH_PAI_GOW)
JOKER_IS_ACE_BIT = int(HandFlag.JOKER_IS_ACE)
QUEEN_HIGH_PAI_GOW_BIT = int(HandFlag.QUEEN_HIGH_PAI_GOW)


def player_class_name(pc: int) -> str:
    if pc == PLAYER_ACE_HIGH_PAI_GOW:
        return "nothing (ace-high pai gow)"
    return SevenCardClass(pc).label


def dealer_class_name(bits: int) -> str:
    """The events of a dealer class, joined by " + " ("normal" for none)."""
    names = [name for bit, name in DEALER_EVENT_NAMES.items() if bits & bit]
    return " + ".join(names) if names else "normal"
