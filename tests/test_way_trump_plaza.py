"""The Trump Plaza house way: hands set by hand from the guide's text (docs/rules.md,
"`trump-plaza`: Trump Plaza, Atlantic City (its gaming guide)"), and properties over random hands
and a full small deck.

Expected fronts below were worked out from the rule text, not by running the code. Fronts are
written as ranks, high first, the joker as ``A``.
"""

from __future__ import annotations

import numpy as np
import pytest

from enumerate.cards import RANKS, Card
from enumerate.evaluate import Category, five_card_table
from enumerate.houseways import apply_way, get_way, set_one_hand
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.reference_ways import module_ids
from tests.reference_ways import trump_plaza as tp

WAY = get_way("trump-plaza")  # the card; rule ids below are the reference module's
FALLBACK_ID = len(tp.RULES)
TO_MODULE = module_ids(WAY, tp.RULES)

SF, ST, FL = Category.STRAIGHT_FLUSH, Category.STRAIGHT, Category.FLUSH


def ranks(cards: tuple[Card, ...]) -> str:
    letters = ["A" if c.is_joker else c.rank.value for c in cards]
    return "".join(sorted(letters, key=lambda x: RANKS.index(x), reverse=True))


# (hand, expected front ranks, rule id, expected back category or None)
CASES = [
    # 1. no pair: highest card in back, the next two in front
    ("As Jd 9c 7h 5s 4d 2c", "J9", tp.R_NO_PAIR, None),
    ("Jk Kd 9c 7h 5s 3d 2c", "K9", tp.R_NO_PAIR, Category.HIGH_CARD),  # lone joker = the ace
    # 2. one pair: pair in back, two highest others in front
    ("Qs Qd As 9c 7h 4d 2c", "A9", tp.R_ONE_PAIR, Category.PAIR),
    ("Jk Ad Ks 9c 7h 4d 2c", "K9", tp.R_ONE_PAIR, Category.PAIR),  # joker + ace = aces
    # 3. two pair
    ("6s 6d 3c 3h Kd 9s 2c", "K9", tp.R_2P_LOW_LOW_KEPT, Category.TWO_PAIR),
    ("5s 5d 4c 4h Jk 9s 2c", "A9", tp.R_2P_LOW_LOW_KEPT, Category.TWO_PAIR),  # joker singleton
    ("6s 6d 3c 3h Qd 9s 2c", "33", tp.R_2P_SPLIT, Category.PAIR),
    ("9s 9d 4c 4h As Js 2c", "AJ", tp.R_2P_LOW_MED_KEPT, Category.TWO_PAIR),
    ("9s 9d 4c 4h Ks Js 2c", "KJ", tp.R_2P_LOW_MED_KEPT, Category.TWO_PAIR),
    ("9s 9d 4c 4h Qs Js 2c", "44", tp.R_2P_SPLIT, Category.PAIR),
    ("Ks Kd 4c 4h Ad 9s 2c", "A9", tp.R_2P_LOW_HIGH_KEPT, Category.TWO_PAIR),
    ("Js Jd 4c 4h Kd 9s 2c", "44", tp.R_2P_SPLIT, Category.PAIR),  # low+high: a king won't do
    ("Ts Td 7c 7h Ad 4s 2c", "A4", tp.R_2P_MED_MED_KEPT, Category.TWO_PAIR),
    ("Ts Td 7c 7h Kd 4s 2c", "77", tp.R_2P_SPLIT, Category.PAIR),
    ("Qs Qd 8c 8h Ad 4s 2c", "88", tp.R_2P_ALWAYS_SPLIT, Category.PAIR),  # medium+high
    ("Ks Kd Jc Jh Ad 4s 2c", "JJ", tp.R_2P_ALWAYS_SPLIT, Category.PAIR),  # high+high
    ("As Ad 3c 3h Kd 9s 5c", "33", tp.R_2P_ACES_SPLIT, Category.PAIR),
    ("Jk Ad 3c 3h Kd 9s 7c", "33", tp.R_2P_ACES_SPLIT, Category.PAIR),  # aces with the joker
    # 4. three pair: highest pair in front
    ("Qs Qd 8c 8h 4s 4d 2c", "QQ", tp.R_THREE_PAIR, Category.TWO_PAIR),
    ("Jk As 8c 8h 4s 4d Kc", "AA", tp.R_THREE_PAIR, Category.TWO_PAIR),
    # 5. three of a kind
    ("8s 8d 8c Kh 9s 5d 2c", "K9", tp.R_TRIPS, Category.THREE_OF_A_KIND),
    ("As Ad Ac Kh 9s 5d 2c", "AK", tp.R_TRIP_ACES, Category.PAIR),
    ("Jk Ad Ac Qh 9s 5d 2c", "AQ", tp.R_TRIP_ACES, Category.PAIR),  # joker as the third ace
    # 6. two three-of-a-kinds: a pair of the higher in front
    ("8s 8d 8c 5h 5s 5d Kc", "88", tp.R_TWO_TRIPS, Category.THREE_OF_A_KIND),
    ("Jk As Ad 5h 5s 5d Kc", "AA", tp.R_TWO_TRIPS, Category.THREE_OF_A_KIND),
    # 7. straights and flushes, no pair: the highest front that keeps one in back
    ("9s Td Jc Qh Ks 4d 2c", "42", tp.R_SF_NO_PAIR, ST),
    ("8s 9d Tc Jh Qs Kd 2c", "K2", tp.R_SF_NO_PAIR, ST),  # lower straight frees the king
    ("7s 8d 9c Th Js Qd Kc", "KQ", tp.R_SF_NO_PAIR, ST),
    ("As Ks 9s 7s 5s 3s 2d", "A2", tp.R_SF_NO_PAIR, FL),  # sixth spade: king-high flush
    ("Jk Kd Qc Jh 9s 5d 2c", "52", tp.R_SF_NO_PAIR, ST),  # joker as the ten
    ("Jk Kh 9h 7h 4h 3c 2d", "32", tp.R_SF_NO_PAIR, FL),  # joker completes the flush
    ("9h Th Jh Qh Kh 2c 3d", "32", tp.R_SF_NO_PAIR, SF),
    ("8h 9h Th Jh Qh Kh 2c", "K2", tp.R_SF_NO_PAIR, SF),  # queen-high straight flush
    ("Ah Kh Qh Jh Th 9h 2c", "A2", tp.R_SF_NO_PAIR, SF),  # royal given up for A-2
    # 7. one pair: in front only if a straight or flush stays in back
    ("5s 5d 9c Th Js Qd Kc", "55", tp.R_SF_PAIR_FRONT, ST),
    ("4s 4d As Js 9s 6s 2s", "44", tp.R_SF_PAIR_FRONT, FL),
    ("Ah Jk 9d Tc Jh Qs Kd", "AA", tp.R_SF_PAIR_FRONT, ST),  # joker + ace in front
    ("5s 5d 6c 7h 8s 9d Kc", "K5", tp.R_SF_PAIR_KEPT_BACK, ST),
    ("Ah Jk Kd Qc Jh 3c 2d", "32", tp.R_SF_PAIR_KEPT_BACK, ST),  # joker needed as the ten
    # 7. two pair: the two-pair rule; three pair: the three-pair rule
    ("5s 5d 6c 6h 7s 8d 9c", "55", tp.R_2P_SPLIT, Category.PAIR),
    ("5s 5d 4c 4h 3s 2d As", "A3", tp.R_2P_LOW_LOW_KEPT, Category.TWO_PAIR),
    ("Jk As 3c 3h 4s 4d 5c", "AA", tp.R_THREE_PAIR, Category.TWO_PAIR),  # wheel given up
    # 7. three of a kind: a pair from it in front, straight/flush kept
    ("7s 7d 7c 8h 9s Td Jc", "77", tp.R_SF_TRIPS_PAIR_FRONT, ST),
    ("4s 4d 4c As Js 9s 6s", "44", tp.R_SF_TRIPS_PAIR_FRONT, FL),
    ("As Ad Jk Kc Qh Jd Tc", "AA", tp.R_SF_TRIPS_PAIR_FRONT, ST),
    ("As Ad Jk Kc Qh Jd 5c", "A5", tp.R_SF_TRIPS_KEPT_BACK, ST),  # joker needed as the ten
    # 7. full house: the full-house rule (aces with the joker also make a wheel here)
    ("5s 5d 5c Ah Jk 3d 4c", "AA", tp.R_FULL_HOUSE_SPLIT, Category.THREE_OF_A_KIND),
    # 8. full house
    ("9s 9d 9c 4h 4s Kd 2c", "44", tp.R_FULL_HOUSE_SPLIT, Category.THREE_OF_A_KIND),
    ("9s 9d 9c 2h 2s Kd Ac", "AK", tp.R_FULL_HOUSE_TWOS_AK, Category.FULL_HOUSE),
    ("9s 9d 9c 2h 2s Kd Jk", "AK", tp.R_FULL_HOUSE_TWOS_AK, Category.FULL_HOUSE),
    ("9s 9d 9c 2h 2s Qd Ac", "22", tp.R_FULL_HOUSE_SPLIT, Category.THREE_OF_A_KIND),
    ("9s 9d 9c 3h 3s Kd Ac", "33", tp.R_FULL_HOUSE_SPLIT, Category.THREE_OF_A_KIND),
    ("As Ad Ac 2h 2s Kd 7c", "22", tp.R_FULL_HOUSE_SPLIT, Category.THREE_OF_A_KIND),
    ("9s 9d 9c Kh Ks 4d 4c", "KK", tp.R_TRIPS_TWO_PAIRS, Category.FULL_HOUSE),
    ("4s 4d 4c Kh Ks 9d 9c", "KK", tp.R_TRIPS_TWO_PAIRS, Category.FULL_HOUSE),
    # 9. four of a kind
    ("5s 5d 5c 5h As Kd 9c", "AK", tp.R_QUADS_LOW_KEPT, Category.FOUR_OF_A_KIND),
    ("8s 8d 8c 8h Qs Jd 2c", "88", tp.R_QUADS_MED_SPLIT, Category.PAIR),
    ("8s 8d 8c 8h Ks Jd 2c", "KJ", tp.R_QUADS_MED_KEPT, Category.FOUR_OF_A_KIND),
    ("Ts Td Tc Th Jk 4d 2c", "A4", tp.R_QUADS_MED_KEPT, Category.FOUR_OF_A_KIND),
    ("Js Jd Jc Jh Ks 9d 2c", "JJ", tp.R_QUADS_HIGH_SPLIT, Category.PAIR),
    ("Ks Kd Kc Kh As 9d 2c", "A9", tp.R_QUADS_HIGH_KEPT, Category.FOUR_OF_A_KIND),
    ("As Ad Ac Ah Ks Qd 2c", "AA", tp.R_QUADS_ACES_SPLIT, Category.PAIR),
    ("As Ad Ac Jk Ks Qs Js", "AA", tp.R_QUADS_ACES_SPLIT, SF),  # royal kept in back
    ("6s 6d 6c 6h Ks Kd 2c", "KK", tp.R_QUADS_PAIR, Category.FOUR_OF_A_KIND),
    ("As Ad Ac Ah 3s 3d 9c", "33", tp.R_QUADS_PAIR, Category.FOUR_OF_A_KIND),
    ("9s 9d 9c 9h 4s 4d 4c", "44", tp.R_QUADS_TRIPS, Category.FOUR_OF_A_KIND),
    ("9s 9d 9c 9h As Ad Jk", "AA", tp.R_QUADS_TRIPS, Category.FOUR_OF_A_KIND),
    # 10. five aces
    ("As Ad Ac Ah Jk Qs 2c", "AA", tp.R_FIVE_ACES, Category.THREE_OF_A_KIND),
    ("As Ad Ac Ah Jk Qs Qd", "AA", tp.R_FIVE_ACES, Category.FULL_HOUSE),
    ("As Ad Ac Ah Jk Ks Kd", "KK", tp.R_FIVE_ACES_KINGS, Category.FIVE_ACES),
]


@pytest.mark.parametrize(("hand", "front", "rule", "back"), CASES)
def test_hand(hand: str, front: str, rule: int, back: Category | None) -> None:
    s = set_one_hand(WAY, hand)
    assert ranks(s.low) == front
    assert s.rule == tp.RULES[rule]
    table = five_card_table()
    assert table.is_valid(s.high_id, s.low_id)
    if back is not None:
        assert table.category_of(s.high_id) == back, table.name(s.high_id)


def test_every_rule_has_a_case() -> None:
    assert len(set(tp.RULES)) == len(tp.RULES)
    assert {rule for _, _, rule, _ in CASES} == set(range(len(tp.RULES)))


def test_back_kept_exactly() -> None:
    """Spot checks of the whole back where the choice of cards matters."""
    s = set_one_hand(WAY, "8s 9d Tc Jh Qs Kd 2c")
    assert " ".join(map(str, s.high)) == "Qs Jh Tc 9d 8s"
    s = set_one_hand(WAY, "As Ad Ac Jk Ks Qs Js")
    assert five_card_table().name(s.high_id) == "royal flush"
    assert {str(c) for c in s.low} == {"Ad", "Ac"}
    s = set_one_hand(WAY, "4s 4d 4c As Js 9s 6s")
    assert {str(c) for c in s.low} == {"4d", "4c"}


def _check_columns(cards: np.ndarray) -> np.ndarray:
    col = apply_way(WAY, cards)
    rule = TO_MODULE[col.rule]
    t = five_card_table()
    assert not np.any(rule == FALLBACK_ID)
    assert np.all(rule >= 0) and np.all(rule < len(tp.RULES))
    assert np.all(col.low.astype(np.int64) <= t.max_low[col.high.astype(np.int64)])
    # rule 7's own branches always keep a straight or better in back
    r7 = np.isin(
        rule,
        [tp.R_SF_NO_PAIR, tp.R_SF_PAIR_FRONT, tp.R_SF_PAIR_KEPT_BACK,
         tp.R_SF_TRIPS_PAIR_FRONT, tp.R_SF_TRIPS_KEPT_BACK],
    )  # fmt: skip
    assert np.all(t.category[col.high[r7].astype(np.int64)] >= Category.STRAIGHT)
    return rule


def test_random_hands_valid() -> None:
    rng = np.random.default_rng(20240607)
    n = 20_000
    cards = np.sort(rng.random((n, 53)).argsort(axis=1)[:, :7], axis=1).astype(np.int64)
    rules = _check_columns(cards)
    assert len(np.unique(rules)) > 20


def test_small_deck_valid() -> None:
    table = hand_table(Deck.parse("9TJQKA:cdhs+joker"), use_cache=False)
    rules = _check_columns(table.cards.astype(np.int64))
    assert tp.R_FIVE_ACES_KINGS in rules
    assert tp.R_SF_PAIR_KEPT_BACK in rules
