"""What a bet can be settled on, as rows with weights and the facts a condition may read.

| hand | rows | weight | facts |
|---|---|---|---|
| ``player``, ``dealer`` | 7-card classes | orbit size | ``SEVEN_CARD_FACTS``, ``WAY_FACTS`` |
| ``first-three`` | three-card hands of the deck | 1 | ``THREE_CARD_FACTS`` |
| ``deal`` | player class x dealer class | deals | ``DEAL_FACTS`` |

Seven-card scopes also offer ``can_set(...)``; ``WAY_FACTS`` are the hand as the house way sets
it; deals are counted by the pair engine.

Every seven-card hand of the deck is equally likely for the player's seven cards, for the
dealer's and for any other player's, so one table of classes serves the first two; the player's
first three cards are a uniformly random three-card hand. Deals are counted by the pair engine
(``analysis.pricing.counts``), dealer hands apart by the dealer events the bet reads.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np
from numba import njit

from analysis.bets.conditions import THREE_CARD, ConditionError, Fact, Scope
from enumerate.cards import JOKER_ID
from enumerate.evaluate import PAIR_BASE, FiveCardTable, five_card_table, settings_of
from enumerate.houseways.language import CATEGORIES, RANK_WORDS
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges
from enumerate.tables import HandTable
from enumerate.vocabulary import (
    N_PLAYER_CLASSES,
    PLAYER_ACE_HIGH_PAI_GOW,
    DealerEvent,
    SevenCardClass,
)

HANDS = ("player", "dealer", "first-three", "deal")

# fact: (kind, meaning), for the docs and the messages
SEVEN_CARD_FACTS = {
    "fortune": ("fortune", "the Fortune class of the seven cards"),
    "best_five": ("category", "the best five-card hand of the seven cards"),
    "joker": ("bool", "the seven cards hold the joker"),
    "pai_gow": ("bool", "no pair, straight or flush"),
    "ace_high_pai_gow": ("bool", "a pai gow topped by an ace or the joker"),
    "ace_high_pai_gow_joker": ("bool", "an ace-high pai gow whose ace is the joker"),
    "ace_high_pai_gow_natural": ("bool", "an ace-high pai gow with a natural ace"),
    "queen_high_pai_gow": ("bool", "a pai gow topped by a queen, no joker"),
    "jacks": ("count", "natural jacks in the seven cards"),
    "high_card": ("rank", "the highest rank of the seven cards, the joker an ace"),
}  # fmt: skip
WAY_FACTS = {
    "way_back": ("category", "the back the house way sets"),
    "way_front_high": ("rank", "the higher card of the front the house way sets"),
    "way_front_low": ("rank", "the lower card of that front"),
    "way_front_pair": ("bool", "the house way's front is a pair"),
}
THREE_CARD_FACTS = {
    "three_card": ("three_card", "the three-card poker hand (straight beats flush), the joker "
                   "semi-wild"),
    "joker": ("bool", "the three cards hold the joker"),
}  # fmt: skip
# deal facts and the dealer event bits the pair counts must keep apart for each
DEAL_FACTS = {
    "player.fortune": ("fortune", 0),
    "player.ace_high_pai_gow": ("bool", 0),
    "dealer.ace_high_pai_gow": ("bool", DealerEvent.ACE_HIGH_JOKER | DealerEvent.ACE_HIGH_NATURAL),
    "dealer.ace_high_pai_gow_joker": ("bool", DealerEvent.ACE_HIGH_JOKER),
    "dealer.ace_high_pai_gow_natural": ("bool", DealerEvent.ACE_HIGH_NATURAL),
    "dealer.two_jacks": ("bool", DealerEvent.TWO_JACKS),
    "dealer.queen_high_pai_gow": ("bool", DealerEvent.QUEEN_HIGH),
    "dealer.nine_high_low": ("bool", DealerEvent.NINE_HIGH_LOW),
}
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


def _back_spec(text: str, five: FiveCardTable) -> tuple[bool, int]:
    """``[natural] CATEGORY`` (that category or better) or ``[natural] royal_flush`` (a royal
    flush or five aces): (natural, the weakest five-card id that qualifies)."""
    words = text.split()
    natural = bool(words) and words[0] == "natural"
    words = words[1:] if natural else words
    if len(words) != 1:
        raise ConditionError(f"can_set: back {text!r}: write [natural] CATEGORY")
    if words[0] == "royal_flush":
        return natural, int(np.flatnonzero(five.category == CATEGORIES["straight_flush"]).max())
    return natural, int(np.flatnonzero(five.category >= _category(words[0])).min())


def _front_spec(text: str) -> tuple[bool, int]:
    """``[natural] pair [RANK]`` (or nothing): (natural, least pair rank or -1)."""
    words = text.split()
    natural = bool(words) and words[0] == "natural"
    words = words[1:] if natural else words
    if not words:
        if natural:
            raise ConditionError("can_set: front 'natural': write natural pair [RANK]")
        return False, -1
    if words[0] != "pair" or len(words) > 2:
        raise ConditionError(f"can_set: front {text!r}: write [natural] pair [RANK]")
    if len(words) == 1:
        return natural, 0
    if words[1].upper() not in RANK_WORDS:
        raise ConditionError(f"can_set: {words[1]!r} is not a rank")
    return natural, RANK_WORDS[words[1].upper()]


def _category(word: str) -> int:
    if word not in CATEGORIES:
        raise ConditionError(f"{word!r} is not a five-card category (known: "
                             f"{', '.join(CATEGORIES)})")  # fmt: skip
    return CATEGORIES[word]


def seven_card_scope(table: HandTable, rules: Rules, way: Callable[[], object] | None,
                     name: str) -> Scope:  # fmt: skip
    """The classes of ``table``; ``way``: a function giving the house way's table (its facts
    are offered only with it)."""
    five = five_card_table(rules)

    facts = {
        "fortune": Fact("fortune", lambda: table.seven_card_class),
        "best_five": Fact("category", lambda: five.category[table.best_five]),
        "joker": Fact("bool", lambda: (table.cards == JOKER_ID).any(axis=1)),
        "pai_gow": Fact("bool", lambda: table.pai_gow),
        "ace_high_pai_gow": Fact("bool", lambda: table.ace_high_pai_gow),
        "ace_high_pai_gow_joker": Fact("bool", lambda: table.ace_high_pai_gow & table.joker_is_ace),
        "ace_high_pai_gow_natural": Fact(
            "bool", lambda: table.ace_high_pai_gow & ~table.joker_is_ace
        ),
        "queen_high_pai_gow": Fact("bool", lambda: table.queen_high_pai_gow),
        "jacks": Fact("count", lambda: table.jacks),
        "high_card": Fact("rank", lambda: high_card(table.cards)),
    }
    if way is not None:
        high_rank = np.array([_front_ranks(i)[0] for i in range(91)])
        low_rank = np.array([_front_ranks(i)[1] for i in range(91)])

        def w() -> object:
            return way()

        facts.update({
            "way_back": Fact("category", lambda: five.category[w().high]),  # type: ignore[attr-defined]
            "way_front_high": Fact("rank", lambda: high_rank[w().low]),  # type: ignore[attr-defined]
            "way_front_low": Fact("rank", lambda: low_rank[w().low]),  # type: ignore[attr-defined]
            "way_front_pair": Fact("bool", lambda: w().low >= PAIR_BASE),  # type: ignore[attr-defined]
        })  # fmt: skip

    def can_set_all(calls: list[tuple[str, ...]]) -> list[np.ndarray]:
        queries = []
        for args in calls:
            back, front = [*args, ""][:2]
            b_natural, least = _back_spec(back, five)
            f_natural, rank = _front_spec(front)
            queries.append((least, int(b_natural) | 2 * int(f_natural), rank))
        out = _can_set(table.cards, five.ids, five.max_low,
                       np.array(queries, dtype=np.int64).reshape(-1, 3))  # fmt: skip
        return list(out)

    def can_set(*args: str) -> np.ndarray:
        return can_set_all([args])[0]

    scope = Scope(name, len(table), facts, {CAN_SET: can_set})
    scope.batches[CAN_SET] = can_set_all
    return scope


def high_card(cards: np.ndarray) -> np.ndarray:
    """The highest rank (0 = deuce .. 12 = ace) of each row of card ids, the joker an ace."""
    return np.where((cards == JOKER_ID).any(axis=1), 12, (cards >> 2).max(axis=1))


def _front_ranks(low_id: int) -> tuple[int, int]:
    from enumerate.evaluate import two_card_ranks

    return two_card_ranks(low_id)


# three-card hands --------------------------------------------------------------------------------


def three_card_category(cards: tuple[int, ...]) -> int:
    """The three-card poker category (``THREE_CARD``) of three card ids, the joker an ace or
    any card completing a straight, flush or straight flush (A-2-3 and Q-K-A are straights).

    >>> from enumerate.cards import parse_cards
    >>> [three_card_category(tuple(c.id for c in parse_cards(t)))
    ...  for t in ("Ah Kh Jk", "2c 3d Jk", "Ac Ad Jk", "2c 9c Jk", "Ac 7d Jk")]
    [5, 3, 4, 2, 1]
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


def _category3(cards: list[int]) -> int:
    ranks = [c >> 2 for c in cards]
    flush, straight = len({c & 3 for c in cards}) == 1, _straight3(cards)
    if len(set(ranks)) == 1:
        return THREE_CARD["three_of_a_kind"]
    if straight and flush:
        return THREE_CARD["straight_flush"]
    if straight:
        return THREE_CARD["straight"]
    if flush:
        return THREE_CARD["flush"]
    return THREE_CARD["pair"] if len(set(ranks)) == 2 else THREE_CARD["high_card"]


def three_card_scope(deck: Deck) -> Scope:
    """Every three-card hand of ``deck`` (each once)."""
    hands = list(combinations(sorted(c.id for c in deck.cards), 3))
    facts = {
        "three_card": Fact("three_card", lambda: np.array([three_card_category(h) for h in hands])),
        "joker": Fact("bool", lambda: np.array([JOKER_ID in h for h in hands])),
    }
    return Scope("the player's first three cards", len(hands), facts)


# deals -------------------------------------------------------------------------------------------


def deal_mask(used: set[str]) -> int:
    """The dealer event bits the pair counts must keep apart for the deal facts ``used``."""
    mask = 0
    for name in used:
        mask |= int(DEAL_FACTS[name][1])
    return mask


def deal_scope(joint: np.ndarray, bits: tuple[int, ...]) -> Scope:
    """Rows: player class x dealer class (``joint[p, d]`` deals), flattened player-major."""
    n_dealer = len(bits)
    player = np.repeat(np.arange(N_PLAYER_CLASSES), n_dealer)
    dealer = np.tile(np.array(bits, dtype=np.int64), N_PLAYER_CLASSES)
    fortune = np.where(player == PLAYER_ACE_HIGH_PAI_GOW, int(SevenCardClass.NOTHING), player)

    def has(bit: int) -> Callable[[], np.ndarray]:
        return lambda: (dealer & bit) != 0

    facts = {
        "player.fortune": Fact("fortune", lambda: fortune),
        "player.ace_high_pai_gow": Fact("bool", lambda: player == PLAYER_ACE_HIGH_PAI_GOW),
    }
    for name, (_, bit) in DEAL_FACTS.items():
        if name.startswith("dealer."):
            facts[name] = Fact("bool", has(int(bit)))
    return Scope("deals", len(player), facts)


def deal_schema() -> Scope:
    """The deal facts with no rows: to read a bet's conditions before its counts exist."""
    return Scope("deals", 0, {n: Fact(k, lambda: np.zeros(0)) for n, (k, _) in DEAL_FACTS.items()})


def seven_card_schema(name: str, with_way: bool) -> Scope:
    facts = {n: Fact(k, lambda: np.zeros(0)) for n, (k, _) in SEVEN_CARD_FACTS.items()}
    if with_way:
        facts.update({n: Fact(k, lambda: np.zeros(0)) for n, (k, _) in WAY_FACTS.items()})
    return Scope(name, 0, facts, {CAN_SET: lambda *a: np.zeros(0, dtype=bool)})

