"""Pai gow hand values: five-card rank ids, two-card rank ids, validity of a setting.

Every five-card hand of the 53-card deck gets a dense rank id (``FiveCardTable``): higher is
stronger, equal hands share an id. The table is indexed by the colex index of the hand's card
ids. The joker is semi-wild (docs/rules.md, "Deck and joker"): an ace, or any card that
completes a straight, flush or straight flush; the evaluator takes the best of those readings.
Two-card hands have 91 ids (78 non-pairs by high then low card, then 13 pairs); the joker is an
ace there. The table is built once per rule set and cached on disk (``five_card_table``),
verified when read.

>>> t = five_card_table()
>>> t.name(t.id_of(parse_cards("As Ks Qs Js Jk")))
'royal flush'
>>> t.name(t.id_of(parse_cards("Ah Jk Jh 9h 7h")))
'flush, A-K-J-9-7'
>>> two_card_name(two_card_id(parse_cards("Jk Ad")))
'pair of aces'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from enumerate.cache import (
    built_correctly,
    cache_dir,
    load_arrays,
    provenance,
    require,
    save_arrays,
)
from enumerate.cards import JOKER_ID, RANK_NOUNS, RANK_PLURALS, RANKS, Card, parse_cards
from enumerate.colex import BINOM, colex5
from enumerate.rules import Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import over_ranges
from enumerate.vocabulary import Category

ACE = 12
N_FIVE = int(BINOM[53, 5])
N_LOW = 91
HIGH_ID_BOUND = 1 << 13  # five-card ids fit in 13 bits (7,463 of them under either wheel rule)
PAIR_BASE = 78  # two-card ids 78..90 are the pairs 22..AA

# A five-card key is category << 20 | five 4-bit ranks, most significant first (ranks grouped by
# count, then by rank); for straights the first nibble is the straight's order under the rules.
_CAT_SHIFT = 20
# numba reads these as constants
_HIGH_CARD = int(Category.HIGH_CARD)
_PAIR = int(Category.PAIR)
_TWO_PAIR = int(Category.TWO_PAIR)
_THREE_OF_A_KIND = int(Category.THREE_OF_A_KIND)
_STRAIGHT = int(Category.STRAIGHT)
_FLUSH = int(Category.FLUSH)
_FULL_HOUSE = int(Category.FULL_HOUSE)
_FOUR_OF_A_KIND = int(Category.FOUR_OF_A_KIND)
_STRAIGHT_FLUSH = int(Category.STRAIGHT_FLUSH)
_FIVE_ACES = int(Category.FIVE_ACES)


@njit(cache=True)
def _straight_order(top: int, wheel_second: bool) -> int:
    """Order of the straight whose top rank index is ``top`` (3 = the wheel, 5 high)."""
    if not wheel_second:
        return top
    if top == 3:
        return 11  # A-2-3-4-5: between K-high (10) and A-high (12)
    if top == ACE:
        return 12
    return top - 1


@njit(cache=True)
def _key(ranks: np.ndarray, suits: np.ndarray, wheel_second: bool) -> int:
    """Key of five cards given as rank indices and suits (suit -1 never makes a flush)."""
    counts = np.zeros(13, dtype=np.int64)
    bits = 0
    flush = suits[0] >= 0
    for i in range(5):
        counts[ranks[i]] += 1
        bits |= 1 << ranks[i]
        if suits[i] != suits[0]:
            flush = False
    if counts[ACE] == 5:
        return (_FIVE_ACES << _CAT_SHIFT) | (ACE << 16)
    top = -1
    if bits == 0x100F:
        top = 3
    else:
        for lo in range(9):
            if bits == (0x1F << lo):
                top = lo + 4
    if top >= 0:
        cat = _STRAIGHT_FLUSH if flush else _STRAIGHT
        return (cat << _CAT_SHIFT) | (_straight_order(top, wheel_second) << 16)
    # ranks ordered by (count, rank) descending, packed in nibbles
    tb = 0
    n_out = 0
    for c in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c:
                for _ in range(c):
                    tb = (tb << 4) | r
                    n_out += 1
    n_pairs = 0
    trips = False
    quads = False
    for r in range(13):
        if counts[r] == 2:
            n_pairs += 1
        elif counts[r] == 3:
            trips = True
        elif counts[r] == 4:
            quads = True
    if quads:
        cat = _FOUR_OF_A_KIND
    elif trips and n_pairs == 1:
        cat = _FULL_HOUSE
    elif flush:
        cat = _FLUSH
    elif trips:
        cat = _THREE_OF_A_KIND
    elif n_pairs == 2:
        cat = _TWO_PAIR
    elif n_pairs == 1:
        cat = _PAIR
    else:
        cat = _HIGH_CARD
    return (cat << _CAT_SHIFT) | tb


@njit(cache=True)
def _eval5(cards: np.ndarray, wheel_second: bool) -> int:
    """Best key of five card ids, reading the joker as docs/rules.md allows."""
    ranks = np.empty(5, dtype=np.int64)
    suits = np.empty(5, dtype=np.int64)
    joker_at = -1
    for i in range(5):
        c = cards[i]
        if c == JOKER_ID:
            joker_at = i
            ranks[i] = ACE
            suits[i] = -1
        else:
            ranks[i] = c >> 2
            suits[i] = c & 3
    best = _key(ranks, suits, wheel_second)
    if joker_at < 0:
        return best
    # the joker may also be any card that completes a straight, flush or straight flush
    for sub in range(52):
        taken = False
        for i in range(5):
            if cards[i] == sub:
                taken = True
        if taken:
            continue
        ranks[joker_at] = sub >> 2
        suits[joker_at] = sub & 3
        k = _key(ranks, suits, wheel_second)
        cat = k >> _CAT_SHIFT
        if (cat == _STRAIGHT or cat == _FLUSH or cat == _STRAIGHT_FLUSH) and k > best:  # noqa: SIM109
            best = k
    return best


@njit(cache=True, nogil=True)
def _five_card_keys_range(lo, hi, wheel_second, keys):
    """The keys of the five-card hands whose highest card id is ``4 + lo .. 4 + hi - 1``."""
    cards = np.empty(5, dtype=np.int64)
    for e in range(4 + lo, 4 + hi):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        cards[0] = a
                        cards[1] = b
                        cards[2] = c
                        cards[3] = d
                        cards[4] = e
                        keys[colex5(a, b, c, d, e)] = _eval5(cards, wheel_second)


def _all_five_card_keys(wheel_second: bool) -> np.ndarray:
    keys = np.zeros(N_FIVE, dtype=np.int64)
    over_ranges(_five_card_keys_range, 53 - 4, wheel_second, keys)
    return keys


@njit(cache=True)
def two_card_id_of(a: int, b: int) -> int:
    """Two-card rank id of card ids ``a`` and ``b`` (numba); the joker is an ace."""
    ra = ACE if a == JOKER_ID else a >> 2
    rb = ACE if b == JOKER_ID else b >> 2
    if ra == rb:
        return PAIR_BASE + ra
    hi, lo = (ra, rb) if ra > rb else (rb, ra)
    return hi * (hi - 1) // 2 + lo


def two_card_id(cards: Sequence[Card]) -> int:
    """Two-card rank id (0..90, higher is stronger).

    >>> [two_card_id(parse_cards(t)) for t in ("3c 2d", "Ac Kd", "2c 2d", "Jk Ah")]
    [0, 77, 78, 90]
    """
    if len(cards) != 2:
        raise ValueError(f"a low hand has 2 cards, got {len(cards)}")
    return int(two_card_id_of(cards[0].id, cards[1].id))


def two_card_ranks(low_id: int) -> tuple[int, int]:
    """(high rank index, low rank index) of a two-card id."""
    if not 0 <= low_id < N_LOW:
        raise ValueError(f"two-card id {low_id} is outside 0..90")
    if low_id >= PAIR_BASE:
        r = low_id - PAIR_BASE
        return r, r
    hi = 1
    while (hi + 1) * hi // 2 <= low_id:
        hi += 1
    return hi, low_id - hi * (hi - 1) // 2


def two_card_name(low_id: int) -> str:
    """``'pair of nines'`` or ``'A-Q'``."""
    hi, lo = two_card_ranks(low_id)
    if hi == lo:
        return f"pair of {RANK_PLURALS[hi]}"
    return f"{RANKS[hi].value}-{RANKS[lo].value}"


@dataclass(frozen=True, eq=False)
class FiveCardTable:
    """Dense five-card rank ids for every five-card hand of the 53-card deck, under ``rules``.

    ``ids[colex]`` is the id of the hand with that colex index; per id, ``keys`` (the sortable
    value), ``category`` and ``max_low`` (the highest two-card id the hand may stand above).
    """

    rules: Rules
    ids: np.ndarray  # int16, one per five-card hand
    keys: np.ndarray  # int64, one per id, increasing
    category: np.ndarray  # int8, one per id
    max_low: np.ndarray  # int8, one per id

    @property
    def n_ids(self) -> int:
        return int(self.keys.shape[0])

    def id_of(self, cards: Sequence[Card]) -> int:
        """Rank id of five cards."""
        if len(cards) != 5:
            raise ValueError(f"a high hand has 5 cards, got {len(cards)}")
        ids = sorted(c.id for c in cards)
        return int(self.ids[colex5(*ids)])

    def category_of(self, high_id: int) -> Category:
        return Category(int(self.category[high_id]))

    def name(self, high_id: int) -> str:
        """A person's name for a five-card id: ``'two pair, kings and fours, ace kicker'``."""
        key = int(self.keys[high_id])
        cat = Category(key >> _CAT_SHIFT)
        nib = [(key >> s) & 15 for s in (16, 12, 8, 4, 0)]
        if cat == Category.FIVE_ACES:
            return "five aces"
        if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            top = _top_of_order(nib[0], self.rules.wheel == "second")
            if cat == Category.STRAIGHT_FLUSH and top == ACE:
                return "royal flush"
            what = "straight flush" if cat == Category.STRAIGHT_FLUSH else "straight"
            wheel = " (wheel)" if top == 3 else ""
            return f"{what}, {RANK_NOUNS[top]} high{wheel}"
        letters = [RANKS[r].value for r in nib]
        if cat == Category.FOUR_OF_A_KIND:
            return f"four of a kind, {RANK_PLURALS[nib[0]]}, {RANK_NOUNS[nib[4]]} kicker"
        if cat == Category.FULL_HOUSE:
            return f"full house, {RANK_PLURALS[nib[0]]} full of {RANK_PLURALS[nib[3]]}"
        if cat == Category.FLUSH:
            return "flush, " + "-".join(letters)
        if cat == Category.THREE_OF_A_KIND:
            return f"three of a kind, {RANK_PLURALS[nib[0]]}, {letters[3]}-{letters[4]} kickers"
        if cat == Category.TWO_PAIR:
            return (
                f"two pair, {RANK_PLURALS[nib[0]]} and {RANK_PLURALS[nib[2]]}, "
                f"{RANK_NOUNS[nib[4]]} kicker"
            )
        if cat == Category.PAIR:
            return f"pair of {RANK_PLURALS[nib[0]]}, " + "-".join(letters[2:]) + " kickers"
        return f"{RANK_NOUNS[nib[0]]} high, " + "-".join(letters)

    def is_valid(self, high_id: int, low_id: int) -> bool:
        """A setting is valid when the high hand ranks at least as high as the low hand."""
        return low_id <= int(self.max_low[high_id])


def _top_of_order(order: int, wheel_second: bool) -> int:
    if not wheel_second:
        return order
    if order == 11:
        return 3
    if order == 12:
        return ACE
    return order + 1


def _max_low_of_keys(keys: np.ndarray) -> np.ndarray:
    """Highest two-card id each five-card key may stand above (docs/rules.md, "Setting a hand"):
    a high-card hand is compared by its top two cards, a pair by its rank; two pair or better
    stands above any low hand (int8; vectorised, as the cache check runs it on every read).

    >>> keys = np.array([0xCB987, 1 << _CAT_SHIFT | 0xCCBA9, 2 << _CAT_SHIFT], dtype=np.int64)
    >>> _max_low_of_keys(keys).tolist()  # A-K high, pair of aces, two pair
    [77, 90, 90]
    """
    cat = keys >> _CAT_SHIFT
    r0, r1 = (keys >> 16) & 15, (keys >> 12) & 15
    top_two = r0 * (r0 - 1) // 2 + r1
    out = np.where(cat == Category.HIGH_CARD, top_two,
                   np.where(cat == Category.PAIR, PAIR_BASE + r0, N_LOW - 1))  # fmt: skip
    return out.astype(np.int8)


# What every five-card table must hold, under either wheel rule (the wheel only reorders the
# straights): per category, weakest first, the distinct hands (the 7,462 of a 52-card deck and
# five aces) and the hands of the 53-card deck (C(53, 5) = 2,869,685 in all).
IDS_PER_CATEGORY = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10, 1)
HANDS_PER_CATEGORY = (1418964, 1215024, 138600, 63360, 20532, 7804, 4368, 828, 204, 1)
_FIVE_CARD_ARRAYS = ("ids", "keys", "category", "max_low")


def check_five_card_table(t: FiveCardTable, count_hands: bool = True) -> None:
    """The invariants of a five-card table (``CacheInvariantError`` when one fails): one int16
    id per hand, within 0..n_ids-1; keys strictly increasing; each id's category and
    ``max_low`` those of its key; the distinct hands of each category those of the 53-card
    deck; and with ``count_hands``, every id some hand's and the hands of each category those
    of the deck. Counting the hands is the costly part: a cached table was counted when
    built, so its read check leaves that out (its digests tell damage)."""
    ids, keys = t.ids, t.keys
    require(ids.shape == (N_FIVE,) and ids.dtype == np.int16 and keys.dtype == np.int64
            and keys.ndim == 1 and t.category.dtype == t.max_low.dtype == np.int8
            and t.category.shape == t.max_low.shape == keys.shape,
            "an array has the wrong shape or dtype")  # fmt: skip
    require(bool((np.diff(keys) > 0).all()), "keys are not strictly increasing")
    require(np.array_equal(t.category, keys >> _CAT_SHIFT), "a category is not its key's")
    require(np.array_equal(t.max_low, _max_low_of_keys(keys)), "a max_low is not its key's")
    require(np.array_equal(np.bincount(t.category, minlength=10), IDS_PER_CATEGORY),
            "distinct hands per category differ from the 53-card deck's")  # fmt: skip
    require(int(ids.min()) >= 0 and int(ids.max()) < t.n_ids, "an id is outside 0..n_ids-1")
    if not count_hands:
        return
    per_id = np.bincount(ids, minlength=t.n_ids)
    require(bool((per_id > 0).all()), "an id is no hand's")
    per_category = np.zeros(10, dtype=np.int64)
    np.add.at(per_category, t.category, per_id)
    require(np.array_equal(per_category, HANDS_PER_CATEGORY),
            "hands per category differ from the 53-card deck's")  # fmt: skip


def _build_five_card_table(rules: Rules) -> FiveCardTable:
    keys = _all_five_card_keys(rules.wheel == "second")
    uniq, inverse = np.unique(keys, return_inverse=True)
    category = (uniq >> _CAT_SHIFT).astype(np.int8)
    return FiveCardTable(rules, inverse.astype(np.int16), uniq, category, _max_low_of_keys(uniq))


@cache
def five_card_table(rules: Rules | None = None) -> FiveCardTable:
    """The five-card table of ``rules``: once per process, read from its verified cache
    (``cache_dir()/fivecard``) or built and cached there (building costs far more). A damaged
    cache file is reported in one line and rebuilt; a built table that breaks its invariants
    is an ``AssertionError``."""
    rules = rules or Rules()
    folder = cache_dir() / "fivecard"
    stem = f"wheel_{rules.wheel}"
    prov = provenance(__name__, table="five-card", rules=rules.key)

    def of(arrays: dict[str, np.ndarray]) -> FiveCardTable:
        # copies, not the memory maps: numba types read-only arrays apart (kernels compiled and
        # cached for a built table would compile again), and numpy reads copies faster
        return FiveCardTable(rules, **{name: np.array(a) for name, a in arrays.items()})

    def check(arrays: dict[str, np.ndarray]) -> None:
        require(sorted(arrays) == sorted(_FIVE_CARD_ARRAYS), "the sidecar lists other arrays")
        check_five_card_table(of(arrays), count_hands=False)

    arrays = load_arrays(folder, stem, prov, check)
    if arrays is not None:
        return of(arrays)
    table = _build_five_card_table(rules)
    with built_correctly("five-card table"):
        check_five_card_table(table)
    save_arrays(folder, stem, {name: getattr(table, name) for name in _FIVE_CARD_ARRAYS}, prov)
    return table


@njit(cache=True, inline="always")
def back_colex(cards, i, j):
    """Colex index of the five cards of a sorted seven-card hand that stay in back when the
    cards at positions ``i`` and ``j`` go in front (numba, no allocation)."""
    s = 0
    t = 1
    for m in range(7):
        if m != i and m != j:
            s += BINOM[cards[m], t]
            t += 1
    return s


@njit(cache=True)
def settings_of(cards: np.ndarray, ids5: np.ndarray, out_high: np.ndarray, out_low: np.ndarray):
    """The 21 settings of seven increasing card ids: for setting ``s`` (low = cards ``i < j``
    in ``SETTING_PAIRS`` order), ``out_high[s]`` is the five-card id, ``out_low[s]`` the
    two-card id (numba)."""
    s = 0
    for i in range(7):
        for j in range(i + 1, 7):
            out_high[s] = ids5[back_colex(cards, i, j)]
            out_low[s] = two_card_id_of(cards[i], cards[j])
            s += 1


@njit(cache=True, nogil=True)
def _settings_range(lo, hi, cards, ids5, high, low):
    for h in range(lo, hi):
        settings_of(cards[h], ids5, high[h], low[h])


def all_settings(cards: np.ndarray, ids5: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Settings of many seven-card hands (rows of increasing ids): (n, 21) high ids and low ids."""
    n = cards.shape[0]
    high = np.empty((n, 21), dtype=np.int16)
    low = np.empty((n, 21), dtype=np.int8)
    over_ranges(_settings_range, n, cards, ids5, high, low)
    return high, low


SETTING_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i in range(7) for j in range(i + 1, 7)
)


@dataclass(frozen=True)
class SettingValue:
    """One way to set seven cards, with its rank ids and names."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_id: int
    low_id: int
    valid: bool
    high_name: str
    low_name: str


def settings(cards: Sequence[Card], rules: Rules | None = None) -> list[SettingValue]:
    """The 21 settings of a seven-card hand, in ``SETTING_PAIRS`` order of the sorted hand.

    >>> s = settings(parse_cards("As Ks Qs Js Ts 2c Jk"))
    >>> best = max((x for x in s if x.valid), key=lambda x: (x.high_id, x.low_id))
    >>> best.high_name, best.low_name
    ('royal flush', 'A-2')
    """
    hand = parse_cards(cards, count=7)
    table = five_card_table(rules)
    ordered = sorted(hand)
    ids = [c.id for c in ordered]
    out = []
    # in Python, not by the kernel ``settings_of``: for one hand, starting numba's JIT would
    # cost more than everything else of ``paigow hand`` or ``best``
    for i, j in SETTING_PAIRS:
        hi_cards = tuple(c for m, c in enumerate(ordered) if m not in (i, j))
        back = sum(int(BINOM[ids[m], t + 1])
                   for t, m in enumerate(m for m in range(7) if m not in (i, j)))  # fmt: skip
        h = int(table.ids[back])
        lw = int(in_python(two_card_id_of)(ids[i], ids[j]))
        out.append(
            SettingValue(
                high=tuple(sorted(hi_cards, reverse=True)),
                low=(ordered[j], ordered[i]),
                high_id=h,
                low_id=lw,
                valid=table.is_valid(h, lw),
                high_name=table.name(h),
                low_name=two_card_name(lw),
            )
        )
    return out


__all__ = [
    "N_LOW",
    "SETTING_PAIRS",
    "Category",
    "FiveCardTable",
    "SettingValue",
    "all_settings",
    "five_card_table",
    "parse_cards",
    "settings",
    "two_card_id",
    "two_card_name",
]
