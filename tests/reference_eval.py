"""A slow, obviously-correct pai gow hand evaluator, written from docs/rules.md only.

Nothing here is imported from ``enumerate``: the tests compare the project's rank tables with
these keys. Cards are plain integer ids (``4 * rank + suit``, rank 0 = deuce .. 12 = ace, suit
0..3, the joker 52) or any object with an ``id`` attribute holding such an id.

docs/rules.md, "Deck and joker": the joker is an ace, or any card that completes a straight,
flush, straight flush or royal flush. ``ref_key`` tries every reading (the joker as a plain ace,
which may duplicate an ace already held; the joker as each natural card not in the hand, kept
only when the result is a straight, flush or straight flush) and takes the best.

Keys are tuples ``(category, tiebreak...)``; a larger tuple is a stronger hand, equal tuples
are copies. Suits never enter a key.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

JOKER = 52
ACE = 12

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9
FIVE_ACES = 10

CATEGORY_NAMES = {
    HIGH_CARD: "high card",
    PAIR: "pair",
    TWO_PAIR: "two pair",
    THREE_OF_A_KIND: "three of a kind",
    STRAIGHT: "straight",
    FLUSH: "flush",
    FULL_HOUSE: "full house",
    FOUR_OF_A_KIND: "four of a kind",
    STRAIGHT_FLUSH: "straight flush",
    ROYAL_FLUSH: "royal flush",
    FIVE_ACES: "five aces",
}

WHEEL = (ACE, 0, 1, 2, 3)  # A-2-3-4-5


def card_id(card) -> int:
    """The integer id of a card given as an int or as an object with ``.id``."""
    return card if isinstance(card, int) else int(card.id)


def straight_order(ranks: list[int], wheel: str) -> int | None:
    """None unless the five ranks are a straight; else a number, larger = higher straight.

    Straights are five consecutive ranks, plus A-2-3-4-5 (the wheel). Nothing wraps round the
    ace: Q-K-A-2-3 is not a straight. Orders: a straight topped by rank r (r = 3 for a six-high
    up to 12 for the ace-high) is worth 2 * r; the wheel is worth 2 * 12 - 1 under
    ``wheel="second"`` (just below A-K-Q-J-T, just above K-Q-J-T-9) and 2 * 3 - 1 = 5 under
    ``wheel="low"`` (below the six-high straight, worth 8).
    """
    s = sorted(ranks)
    if len(set(s)) != 5:
        return None
    if sorted(s) == sorted(WHEEL):
        if wheel == "second":
            return 2 * ACE - 1
        if wheel == "low":
            return 2 * 3 - 1
        raise ValueError(f"unknown wheel option {wheel!r}")
    if s[4] - s[0] == 4:
        return 2 * s[4]
    return None


def natural_key(ranks: list[int], suits: list[int | None], wheel: str) -> tuple:
    """Key of five cards with no joker left: ``suits`` may hold ``None`` (a joker read as a plain
    ace, which belongs to no suit and so never makes a flush)."""
    assert len(ranks) == 5
    counts = Counter(ranks)
    if counts.get(ACE, 0) == 5:
        return (FIVE_ACES,)
    flush = suits[0] is not None and all(s == suits[0] for s in suits)
    order = straight_order(ranks, wheel)
    if flush and order is not None:
        if sorted(ranks) == [8, 9, 10, 11, 12]:
            return (ROYAL_FLUSH,)
        return (STRAIGHT_FLUSH, order)
    # ranks grouped by (count, rank), biggest group first, then higher rank first
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    grouped = [r for r, _ in groups]
    if shape == [4, 1]:
        return (FOUR_OF_A_KIND, *grouped)
    if shape == [3, 2]:
        return (FULL_HOUSE, *grouped)
    if flush:
        return (FLUSH, *sorted(ranks, reverse=True))
    if order is not None:
        return (STRAIGHT, order)
    if shape == [3, 1, 1]:
        return (THREE_OF_A_KIND, *grouped)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *grouped)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *grouped)
    if shape == [1, 1, 1, 1, 1]:
        return (HIGH_CARD, *sorted(ranks, reverse=True))
    raise AssertionError(f"impossible rank shape {shape}")  # five of a kind other than aces


def ref_key(cards, wheel: str = "second") -> tuple:
    """The key of five cards (ids or Card objects), the joker taking its best allowed reading."""
    return _ref_key(tuple(sorted(card_id(c) for c in cards)), wheel)


@lru_cache(maxsize=1 << 16)
def _ref_key(ids: tuple[int, ...], wheel: str) -> tuple:
    if len(ids) != 5 or len(set(ids)) != 5:
        raise ValueError(f"five distinct cards expected, got {ids}")
    naturals = [i for i in ids if i != JOKER]
    ranks = [i // 4 for i in naturals]
    suits: list[int | None] = [i % 4 for i in naturals]
    if len(naturals) == 5:
        return natural_key(ranks, suits, wheel)
    # the joker as an ace (of no suit); it may duplicate an ace already held
    best = natural_key([*ranks, ACE], [*suits, None], wheel)
    # the joker as any natural card not in the hand, only to make a straight, flush or
    # straight flush (royal flush included)
    for sub in range(52):
        if sub in naturals:
            continue
        key = natural_key([*ranks, sub // 4], [*suits, sub % 4], wheel)
        if key[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH):
            best = max(best, key)
    return best


def ref_two_key(cards) -> tuple:
    """Key of a two-card hand: (is a pair, higher rank, lower rank); the joker is an ace."""
    ids = [card_id(c) for c in cards]
    if len(ids) != 2 or ids[0] == ids[1]:
        raise ValueError(f"two distinct cards expected, got {ids}")
    ranks = sorted((ACE if i == JOKER else i // 4 for i in ids), reverse=True)
    return (int(ranks[0] == ranks[1]), ranks[0], ranks[1])


def ref_valid(high5, low2, wheel: str = "second") -> bool:
    """docs/rules.md, "Setting a hand": the high hand must rank at least as high as the low hand.

    The low hand is a pair or two unpaired cards. Compare it with the high hand's category and
    leading ranks: a high hand of two pair or better beats any two cards; a pair in the high hand
    is compared with a low pair by pair rank (equal is valid) and beats an unpaired low hand;
    a no-pair high hand loses to a low pair and is compared with an unpaired low hand by its two
    top cards (higher first, then lower; equal is valid).
    """
    high = ref_key(high5, wheel)
    is_pair, low_hi, low_lo = ref_two_key(low2)
    category = high[0]
    if category >= TWO_PAIR:
        return True
    if category == PAIR:
        return not is_pair or low_hi <= high[1]
    # high card
    if is_pair:
        return False
    return (low_hi, low_lo) <= (high[1], high[2])


def ref_category_name(key: tuple) -> str:
    return CATEGORY_NAMES[key[0]]
