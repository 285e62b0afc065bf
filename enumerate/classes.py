"""Seven-card classes in the Fortune order of docs/rules.md, and the pai gow flags of a hand.

A seven-card hand's class is the first of these it holds (strongest first): natural 7-card
straight flush; royal flush + royal match (a royal flush, natural or with the joker, and the two
other cards are the ace and king of one suit); 7-card straight flush with the joker; five aces;
royal flush; straight flush; four of a kind; full house; flush; three of a kind; straight; three
pair; nothing. Note that three of a kind comes before a straight in this order.

A "pai gow" hand has no pair, straight or flush (joker read as docs/rules.md allows). Flags:
ace-high pai gow (and whether the joker is its ace), queen-high pai gow (no joker), the number
of natural jacks.

>>> from enumerate.cards import parse_cards
>>> describe(parse_cards("As Ks Qs Js Jk Ah Kh")).name
'royal flush + royal match'
>>> describe(parse_cards("Qs Jd 9c 7h 5s 3d 2c")).queen_high_pai_gow
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from enumerate.cards import JOKER_ID, Card, parse_cards
from enumerate.evaluate import Category, FiveCardTable, back_colex, five_card_table
from enumerate.rules import Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import over_ranges
from enumerate.symmetry import popcount
from enumerate.vocabulary import (
    ACE_HIGH_PAI_GOW_BIT,
    CLASS_LABELS,
    JOKER_IS_ACE_BIT,
    PAI_GOW_BIT,
    QUEEN_HIGH_PAI_GOW_BIT,
    HandFlag,
    SevenCardClass,
)

__all__ = ["CLASS_LABELS", "HandFlag", "SevenCardClass"]  # re-exported: defined in vocabulary


# numba reads these as constants
_NOTHING = int(SevenCardClass.NOTHING)
_THREE_PAIR = int(SevenCardClass.THREE_PAIR)
_ROYAL_FLUSH = int(SevenCardClass.ROYAL_FLUSH)
_ROYAL_MATCH = int(SevenCardClass.ROYAL_MATCH)
_SF7_JOKER = int(SevenCardClass.SEVEN_CARD_STRAIGHT_FLUSH_JOKER)
_SF7_NATURAL = int(SevenCardClass.SEVEN_CARD_STRAIGHT_FLUSH)
_HIGH_CARD = int(Category.HIGH_CARD)

_ACE, _KING, _QUEEN, _JACK = 12, 11, 10, 9


def fortune_of_five(table: FiveCardTable) -> np.ndarray:
    """Per five-card id, the Fortune class that five cards alone make (int8)."""
    cat = table.category.astype(np.int64)
    out = np.zeros(table.n_ids, dtype=np.int8)
    out[cat == Category.STRAIGHT] = SevenCardClass.STRAIGHT
    out[cat == Category.THREE_OF_A_KIND] = SevenCardClass.THREE_OF_A_KIND
    out[cat == Category.FLUSH] = SevenCardClass.FLUSH
    out[cat == Category.FULL_HOUSE] = SevenCardClass.FULL_HOUSE
    out[cat == Category.FOUR_OF_A_KIND] = SevenCardClass.FOUR_OF_A_KIND
    out[cat == Category.STRAIGHT_FLUSH] = SevenCardClass.STRAIGHT_FLUSH
    out[cat == Category.FIVE_ACES] = SevenCardClass.FIVE_ACES
    sf = np.flatnonzero(cat == Category.STRAIGHT_FLUSH)
    out[sf.max()] = SevenCardClass.ROYAL_FLUSH  # the strongest straight flush is the royal
    return out


@njit(cache=True)
def _seven_window(mask: int, need_missing: int) -> bool:
    """Do the ranks in ``mask`` fill a run of seven ranks (ace low or high) but for exactly
    ``need_missing`` of them?"""
    windows = [0x103F]  # A-2-3-4-5-6-7
    for lo in range(7):
        windows.append(0x7F << lo)
    for w in windows:
        if (mask & ~w) == 0:
            missing = w & ~mask
            n = 0
            while missing:
                missing &= missing - 1
                n += 1
            if n == need_missing:
                return True
    return False


@njit(cache=True)
def classify(cards: np.ndarray, ids5: np.ndarray, fortune5: np.ndarray, category5: np.ndarray):
    """(Fortune class, best five-card id, flags, jacks) of seven increasing card ids (numba)."""
    best_id = -1
    cls = _NOTHING
    for i in range(7):
        for j in range(i + 1, 7):
            h = ids5[back_colex(cards, i, j)]
            if h > best_id:
                best_id = h
            f = fortune5[h]
            if f == _ROYAL_FLUSH:  # royal match when the other two are the A and K of one suit
                a, b = cards[i], cards[j]
                same_suit = a != JOKER_ID and b != JOKER_ID and (a & 3) == (b & 3)
                if same_suit and (a >> 2) == _KING and (b >> 2) == _ACE:
                    f = _ROYAL_MATCH
            if f > cls:
                cls = f
    joker = cards[6] == JOKER_ID
    suit_masks = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    jacks = 0
    top = -1
    for m in range(7):
        c = cards[m]
        if c == JOKER_ID:
            counts[_ACE] += 1
            continue
        suit_masks[c & 3] |= 1 << (c >> 2)
        counts[c >> 2] += 1
        if (c >> 2) == _JACK:
            jacks += 1
        if (c >> 2) > top:
            top = c >> 2
    for s in range(4):
        pc = popcount(suit_masks[s])
        if not joker and pc == 7 and _seven_window(suit_masks[s], 0):
            cls = _SF7_NATURAL
        elif joker and pc == 6 and _seven_window(suit_masks[s], 1) and cls < _SF7_JOKER:
            cls = _SF7_JOKER
    if cls == _NOTHING:
        pairs = 0
        for r in range(13):
            if counts[r] >= 2:
                pairs += 1
        if pairs >= 3:
            cls = _THREE_PAIR
    flags = 0
    if category5[best_id] == _HIGH_CARD:
        flags |= PAI_GOW_BIT
        if joker or top == _ACE:
            flags |= ACE_HIGH_PAI_GOW_BIT
            if joker:
                flags |= JOKER_IS_ACE_BIT
        if not joker and top == _QUEEN:
            flags |= QUEEN_HIGH_PAI_GOW_BIT
    return cls, best_id, flags, jacks


@njit(cache=True, nogil=True)
def _classify_range(lo, hi, cards, ids5, fortune5, category5, cls, best, flags, jacks):
    for h in range(lo, hi):
        row = cards[h].astype(np.int64)
        c, b, f, j = classify(row, ids5, fortune5, category5)
        cls[h] = c
        best[h] = b
        flags[h] = f
        jacks[h] = j


def classify_all(cards: np.ndarray, ids5: np.ndarray, fortune5: np.ndarray, category5: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """``classify`` over rows of seven increasing card ids: (class, best five, flags, jacks)."""
    n = cards.shape[0]
    out = (np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int16), np.empty(n, dtype=np.int8),
           np.empty(n, dtype=np.int8))  # fmt: skip
    over_ranges(_classify_range, n, cards, ids5, fortune5, category5, *out)
    return out


@dataclass(frozen=True)
class HandDescription:
    """What a seven-card hand is, for people and for side bets."""

    seven_card_class: SevenCardClass
    best_five_id: int
    best_five_name: str
    pai_gow: bool
    ace_high_pai_gow: bool
    joker_is_ace: bool
    queen_high_pai_gow: bool
    jacks: int

    @property
    def name(self) -> str:
        return self.seven_card_class.label


def describe(cards: Sequence[Card], rules: Rules | None = None) -> HandDescription:
    """Class and flags of one seven-card hand.

    >>> d = describe(parse_cards("Jk Kd 9c 7h 5s 3d 2c"))
    >>> d.ace_high_pai_gow, d.joker_is_ace, d.best_five_name
    (True, True, 'ace high, A-K-9-7-5')
    """
    hand = parse_cards(cards, count=7)
    table = five_card_table(rules)
    row = np.array(sorted(c.id for c in hand), dtype=np.int64)
    # as Python (``in_python``): for one hand, starting numba's JIT would cost more
    one = in_python(classify)
    cls, best, flags, jacks = one(row, table.ids, fortune_of_five(table), table.category)
    return HandDescription(
        seven_card_class=SevenCardClass(int(cls)),
        best_five_id=int(best),
        best_five_name=table.name(int(best)),
        pai_gow=bool(flags & HandFlag.PAI_GOW),
        ace_high_pai_gow=bool(flags & HandFlag.ACE_HIGH_PAI_GOW),
        joker_is_ace=bool(flags & HandFlag.JOKER_IS_ACE),
        queen_high_pai_gow=bool(flags & HandFlag.QUEEN_HIGH_PAI_GOW),
        jacks=int(jacks),
    )
