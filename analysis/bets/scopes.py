"""What a bet can be settled on: its rows, with the value of every fact of its scope
(``enumerate.conditions``) as an array over them.

| hand | rows | weight | scope |
|---|---|---|---|
| ``player``, ``dealer`` | 7-card classes | orbit size | ``SEVEN_CARDS`` (``can_set``, ``way_*``) |
| ``first-three`` | three-card hands of the deck | 1 | ``THREE_CARDS`` |
| ``deal`` | player class x dealer class | deals | ``DEAL`` |

Every seven-card hand of the deck is equally likely for the player's seven cards, for the
dealer's and for any other player's, so one table of classes serves the first two; the player's
first three cards are a uniformly random three-card hand. ``way_*`` are the hand as the house
way sets it. Deals are counted by the pair engine (``analysis.pricing.counts``), dealer hands
apart by the dealer events the bet reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

import numpy as np
from numba import njit

from enumerate.cards import JOKER_ID
from enumerate.conditions import DEAL, SEVEN_CARDS, THREE_CARDS, ArrayRows, CanSet, Scope
from enumerate.conditions.tree import Apply
from enumerate.evaluate import (
    PAIR_BASE,
    FiveCardTable,
    five_card_table,
    settings_of,
    two_card_ranks,
)
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges
from enumerate.tables import HandTable
from enumerate.vocabulary import (
    N_PLAYER_CLASSES,
    PLAYER_ACE_HIGH_PAI_GOW,
    Category,
    SevenCardClass,
    ThreeCardClass,
)

HANDS = ("player", "dealer", "first-three", "deal")
SCOPE_OF: dict[str, Scope] = {"player": SEVEN_CARDS, "dealer": SEVEN_CARDS,
                              "first-three": THREE_CARDS, "deal": DEAL}  # fmt: skip
CAN_SET = "can_set"


@njit(cache=True, nogil=True)
def _can_set_range(lo, hi, cards, ids5, max_low, queries, out):
    """Per hand ``lo .. hi - 1`` and query ``q``: a valid setting has a back of five-card id
    ``queries[q, 0]`` or stronger and, when ``queries[q, 2] >= 0``, a pair of that rank or
    better in front; ``queries[q, 1]``: bit 0, no joker in the back; bit 1, none in the front.

    Each hand is set once: per joker condition and per least pair rank in front (none, 2..A)
    the strongest back, so every query is one look-up."""
    m = queries.shape[0]
    row = np.empty(7, dtype=np.int64)
    high = np.empty(21, dtype=np.int64)
    low = np.empty(21, dtype=np.int64)
    best = np.empty((4, 14), dtype=np.int64)  # [joker condition, least pair rank + 1]
    for h in range(lo, hi):
        for i in range(7):
            row[i] = cards[h, i]
        settings_of(row, ids5, high, low)
        best[:] = -1
        s = 0
        for i in range(7):
            for j in range(i + 1, 7):
                if low[s] <= max_low[high[s]]:
                    front_joker = row[i] == JOKER_ID or row[j] == JOKER_ID
                    back_joker = row[6] == JOKER_ID and not front_joker  # the joker sorts last
                    k = low[s] - PAIR_BASE + 1 if low[s] >= PAIR_BASE else 0
                    for c in range(4):
                        if (c & 1 and back_joker) or (c & 2 and front_joker):
                            continue
                        if high[s] > best[c, k]:
                            best[c, k] = high[s]
                s += 1
        for c in range(4):
            for k in range(12, -1, -1):  # a pair of rank r or better: every k above it too
                if best[c, k + 1] > best[c, k]:
                    best[c, k] = best[c, k + 1]
        for q in range(m):
            out[q, h] = best[queries[q, 1], queries[q, 2] + 1] >= queries[q, 0]


def _can_set(cards: np.ndarray, ids5: np.ndarray, max_low: np.ndarray, queries: np.ndarray
             ) -> np.ndarray:  # fmt: skip
    """Per query and hand: whether the hand can be set as the query asks (``_can_set_range``);
    a query's answers contiguous."""
    out = np.zeros((queries.shape[0], cards.shape[0]), dtype=np.bool_)
    over_ranges(_can_set_range, cards.shape[0], cards, ids5, max_low, queries, out)
    return out


def _query(spec: CanSet, five: FiveCardTable) -> tuple[int, int, int]:
    """A ``can_set`` question as a row of ``_can_set_range``'s queries: the weakest five-card
    id that qualifies, the joker conditions, the least pair rank in front (-1: none)."""
    if spec.royal:
        least = int(np.flatnonzero(five.category == int(Category.STRAIGHT_FLUSH)).max())
    else:
        least = int(np.flatnonzero(five.category >= spec.category).min())
    pair = -1 if spec.pair is None else spec.pair
    return least, int(spec.natural_back) | 2 * int(spec.natural_front), pair


def seven_card_rows(table: HandTable, rules: Rules, way: Callable[[], object] | None
                    ) -> ArrayRows:  # fmt: skip
    """The classes of ``table`` with the seven-card facts; ``way``: a function giving the
    house way's table (its facts are offered only with it)."""
    five = five_card_table(rules)
    facts: dict[str, Callable[[], np.ndarray]] = {
        "fortune": lambda: table.seven_card_class,
        "best_five": lambda: five.category[table.best_five],
        "joker": lambda: (table.cards == JOKER_ID).any(axis=1),
        "pai_gow": lambda: table.pai_gow,
        "ace_high_pai_gow": lambda: table.ace_high_pai_gow,
        "ace_high_pai_gow_joker": lambda: table.ace_high_pai_gow & table.joker_is_ace,
        "ace_high_pai_gow_natural": lambda: table.ace_high_pai_gow & ~table.joker_is_ace,
        "queen_high_pai_gow": lambda: table.queen_high_pai_gow,
        "jacks": lambda: table.jacks,
        "high_card": lambda: high_card(table.cards),
    }
    if way is not None:
        ranks = np.array([two_card_ranks(i) for i in range(91)])

        def w() -> Any:
            return way()

        facts.update({
            "way_back": lambda: five.category[w().high],
            "way_front_high": lambda: ranks[w().low, 0],
            "way_front_low": lambda: ranks[w().low, 1],
            "way_front_pair": lambda: w().low >= PAIR_BASE,
        })  # fmt: skip

    def can_set_all(calls: list[Apply]) -> list[np.ndarray]:
        queries = np.array([_query(c.arg, five) for c in calls],  # type: ignore[arg-type]
                           dtype=np.int64).reshape(-1, 3)  # fmt: skip
        return list(_can_set(table.cards, five.ids, five.max_low, queries))

    return ArrayRows(len(table), facts, {CAN_SET: lambda c: can_set_all([c])[0]},
                     {CAN_SET: can_set_all})  # fmt: skip


def high_card(cards: np.ndarray) -> np.ndarray:
    """The highest rank (0 = deuce .. 12 = ace) of each row of card ids, the joker an ace."""
    return np.where((cards == JOKER_ID).any(axis=1), 12, (cards >> 2).max(axis=1))


# three-card hands --------------------------------------------------------------------------------


def three_card_category(cards: tuple[int, ...]) -> ThreeCardClass:
    """The three-card poker class (``ThreeCardClass``) of three card ids, the joker an ace or
    any card completing a straight, flush or straight flush (A-2-3 and Q-K-A are straights).

    >>> from enumerate.cards import parse_cards
    >>> [three_card_category(tuple(c.id for c in parse_cards(t))).name
    ...  for t in ("Ah Kh Jk", "2c 3d Jk", "Ac Ad Jk", "2c 9c Jk", "Ac 7d Jk")]
    ['STRAIGHT_FLUSH', 'STRAIGHT', 'THREE_OF_A_KIND', 'FLUSH', 'PAIR']
    """
    naturals = [c for c in cards if c != JOKER_ID]
    if len(naturals) == 3:
        return _category3(naturals)
    # the joker: an ace, or any card not held that completes a straight or flush
    fills = [[*naturals, j] for j in range(52) if j not in naturals]
    return max(_category3(f) for f in fills if (f[-1] >> 2) == 12 or _straight_or_flush(f))


def _straight_or_flush(cards: list[int]) -> bool:
    return len({c & 3 for c in cards}) == 1 or _straight3(cards)


def _straight3(cards: list[int]) -> bool:
    ranks = sorted(c >> 2 for c in cards)
    return (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1) or ranks == [0, 1, 12]


def _category3(cards: list[int]) -> ThreeCardClass:
    ranks = [c >> 2 for c in cards]
    flush, straight = len({c & 3 for c in cards}) == 1, _straight3(cards)
    if len(set(ranks)) == 1:
        return ThreeCardClass.THREE_OF_A_KIND
    if straight and flush:
        return ThreeCardClass.STRAIGHT_FLUSH
    if straight:
        return ThreeCardClass.STRAIGHT
    if flush:
        return ThreeCardClass.FLUSH
    return ThreeCardClass.PAIR if len(set(ranks)) == 2 else ThreeCardClass.HIGH_CARD


def three_card_rows(deck: Deck) -> ArrayRows:
    """Every three-card hand of ``deck`` (each once)."""
    hands = three_card_hands(deck)
    return ArrayRows(len(hands), {
        "three_card": lambda: np.array([three_card_category(h) for h in hands]),
        "joker": lambda: np.array([JOKER_ID in h for h in hands]),
    })  # fmt: skip


def three_card_hands(deck: Deck) -> list[tuple[int, ...]]:
    """The three-card hands of ``deck`` as card ids, in the rows' order."""
    return list(combinations(sorted(c.id for c in deck.cards), 3))


# deals -------------------------------------------------------------------------------------------


def deal_mask(used: Iterable[str]) -> int:
    """The dealer event bits the pair counts must keep apart for the deal facts ``used``."""
    mask = 0
    for name in used:
        mask |= DEAL.facts[name].event
    return mask


def deal_rows(joint: np.ndarray, bits: tuple[int, ...]) -> ArrayRows:
    """Rows: player class x dealer class (``joint[p, d]`` deals), flattened player-major."""
    n_dealer = len(bits)
    player = np.repeat(np.arange(N_PLAYER_CLASSES), n_dealer)
    dealer = np.tile(np.array(bits, dtype=np.int64), N_PLAYER_CLASSES)
    fortune = np.where(player == PLAYER_ACE_HIGH_PAI_GOW, int(SevenCardClass.NOTHING), player)

    def has(bit: int) -> Callable[[], np.ndarray]:
        return lambda: (dealer & bit) != 0

    facts = {
        "player.fortune": lambda: fortune,
        "player.ace_high_pai_gow": lambda: player == PLAYER_ACE_HIGH_PAI_GOW,
    }
    for name, spec in DEAL.facts.items():
        if spec.event:
            facts[name] = has(spec.event)
    return ArrayRows(len(player), facts)
