"""The reference house way ``gli`` (docs/rules.md, "`gli`: the reference way (from the
dealer-open math report)").

Every expected front below is derived by hand from the rule text (not from running the code):
the comment of each case says why. Fronts are written as effective ranks, higher first (the
joker in front is an ace).
"""

from __future__ import annotations

import numpy as np
import pytest

from enumerate.evaluate import Category, all_settings, five_card_table
from enumerate.houseways import apply_way, facts, get_way, set_one_hand
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.reference_ways import gli, module_ids

# the cases read the card literally (rule 5 "and"); the default reading's rule 5 is tested in
# tests/test_gli_readings.py
WAY = get_way(gli.LITERAL_NAME)  # the card; rule ids below are the reference module's
TO_MODULE = module_ids(WAY, gli.rule_names(gli.LITERAL))

C = Category
ROYAL = "royal"  # a back that must be the royal flush itself

# (hand, front ranks, rule id, back category or None)
CASES = [
    # 1. five aces
    ("As Ah Ad Ac Jk Ks Kh", "KK", gli.FIVE_ACES_KINGS, C.FIVE_ACES),
    # another pair is not kings: two aces in front, three aces and the queens behind
    ("As Ah Ad Ac Jk Qs Qh", "AA", gli.FIVE_ACES_ACES, C.FULL_HOUSE),
    ("Ac Ad Ah As Jk 9s 2h", "AA", gli.FIVE_ACES_ACES, C.THREE_OF_A_KIND),
    # 2. four aces: pair of sevens or better in front
    ("As Ah Ad Ac 7s 7h 2c", "77", gli.FOUR_ACES_PAIR, C.FOUR_OF_A_KIND),
    # the joker is the fourth ace
    ("As Ah Ad Jk 9c 9d 3h", "99", gli.FOUR_ACES_PAIR, C.FOUR_OF_A_KIND),
    # a pair taken from three eights beside the aces
    ("As Ah Ad Ac 8s 8h 8d", "88", gli.FOUR_ACES_PAIR, C.FOUR_OF_A_KIND),
    # sixes are below sevens: two aces in front
    ("As Ah Ad Ac 6s 6h Kc", "AA", gli.FOUR_ACES_SPLIT, C.TWO_PAIR),
    # rule 8 defers to rule 2 (joker as fourth ace): two aces in front, the royal stays in back
    ("As Ah Ad Jk Ks Qs Js", "AA", gli.FOUR_ACES_SPLIT, ROYAL),
    # 2. four jacks to kings
    ("Kc Kd Kh Ks Tc Td 2h", "TT", gli.FOUR_HIGH_PAIR, C.FOUR_OF_A_KIND),
    ("Jc Jd Jh Js Tc Td Th", "TT", gli.FOUR_HIGH_PAIR, C.FOUR_OF_A_KIND),  # pair from trips
    ("Kc Kd Kh Ks 9c 9d Ah", "KK", gli.FOUR_HIGH_SPLIT, C.TWO_PAIR),  # nines < tens
    ("Qc Qd Qh Qs Ac 9d 5h", "QQ", gli.FOUR_HIGH_SPLIT, C.PAIR),
    ("Jc Jd Jh Js 9c 9d 9h", "JJ", gli.FOUR_HIGH_SPLIT, C.FULL_HOUSE),  # trips of nines
    # 2. four sevens to tens
    ("9c 9d 9h 9s 3c 3d Ah", "33", gli.FOUR_MID_PAIR, C.FOUR_OF_A_KIND),
    ("7c 7d 7h 7s 5c 5d 5h", "55", gli.FOUR_MID_PAIR, C.FOUR_OF_A_KIND),  # pair from trips
    ("9c 9d 9h 9s Ac Kd 2h", "AK", gli.FOUR_MID_ACE, C.FOUR_OF_A_KIND),
    ("8c 8d 8h 8s Jk Kd 3h", "AK", gli.FOUR_MID_ACE, C.FOUR_OF_A_KIND),  # joker = singleton ace
    ("Tc Td Th Ts Kc Qd 2h", "TT", gli.FOUR_MID_SPLIT, C.PAIR),
    # 2. four twos to sixes
    ("5c 5d 5h 5s 2c 2d Ah", "22", gli.FOUR_LOW_PAIR, C.FOUR_OF_A_KIND),
    ("3c 3d 3h 3s Ac Ad Ah", "AA", gli.FOUR_LOW_PAIR, C.FOUR_OF_A_KIND),  # pair from trips
    ("6c 6d 6h 6s Kc 8d 3h", "K8", gli.FOUR_LOW_SINGLES, C.FOUR_OF_A_KIND),
    ("2c 2d 2h 2s Jk Kd 9h", "AK", gli.FOUR_LOW_SINGLES, C.FOUR_OF_A_KIND),
    # 3. full house
    # two trips: a pair from the higher in front, the lower trips (not a full house) in back
    ("Kc Kd Kh 9c 9d 9h Ad", "KK", gli.FULL_TWO_TRIPS, C.THREE_OF_A_KIND),
    ("Ah Ad Jk 8c 8d 8h 2s", "AA", gli.FULL_TWO_TRIPS, C.THREE_OF_A_KIND),  # joker: three aces
    ("8c 8d 8h Kc Kd 4h 4s", "KK", gli.FULL_TWO_PAIRS, C.FULL_HOUSE),
    ("9c 9d 9h 2c 2d Ah 5s", "A5", gli.FULL_TWOS_KEEP, C.FULL_HOUSE),
    ("9c 9d 9h 2c 2d Ks 5s", "K5", gli.FULL_TWOS_KEEP, C.FULL_HOUSE),
    ("9c 9d 9h 2c 2d Jk 5s", "A5", gli.FULL_TWOS_KEEP, C.FULL_HOUSE),  # joker = ace singleton
    ("9c 9d 9h 2c 2d Qh 5s", "22", gli.FULL_PAIR_FRONT, C.THREE_OF_A_KIND),  # queen < king
    ("2c 2d 2h 5c 5d Ah Ks", "55", gli.FULL_PAIR_FRONT, C.THREE_OF_A_KIND),  # twos are trips
    ("Ac Ad Ah 5c 5d Kh 9s", "55", gli.FULL_PAIR_FRONT, C.THREE_OF_A_KIND),
    # rule 8 defers to rule 3: joker flush, effective A-A-A-K-K; the flush is broken
    ("Ah Ad Jk Kh Ks 5h 7h", "KK", gli.FULL_PAIR_FRONT, C.THREE_OF_A_KIND),
    # rule 8 defers to rule 3: joker straight A-K-Q-J-(T), effective A-A-A-K-K
    ("As Ad Jk Kh Kc Qd Jc", "KK", gli.FULL_PAIR_FRONT, C.THREE_OF_A_KIND),
    # 4. three of a kind
    ("Ac Ad Ah Ks 9c 5d 2h", "AK", gli.TRIPS_ACES, C.PAIR),
    ("Ah Ad Jk Ks 9c 5d 2h", "AK", gli.TRIPS_ACES, C.PAIR),  # joker is the third ace
    ("7c 7d 7h As Qc 5d 2h", "AQ", gli.TRIPS_SINGLES, C.THREE_OF_A_KIND),
    # 5. three pair
    ("Kc Kd 9h 9s 4c 4d Ah", "KK", gli.THREE_PAIR, C.TWO_PAIR),
    ("Ah Jk 9h 9s 4c 4d 2h", "AA", gli.THREE_PAIR, C.TWO_PAIR),  # joker + ace = pair of aces
    # 5. two pair: split when both are sevens or better without a singleton ace
    ("Qc Qd 8h 8s Kc 5d 2h", "88", gli.TWO_PAIR_SPLIT_SEVENS, C.PAIR),
    # ... when jacks or better and sixes or better with a singleton ace
    ("Jc Jd 6h 6s Ac 9d 3h", "66", gli.TWO_PAIR_SPLIT_ACE, C.PAIR),
    ("Jc Jd 6h 6s Jk 9d 3h", "66", gli.TWO_PAIR_SPLIT_ACE, C.PAIR),  # the joker is the ace
    # ... when the high pair is aces
    ("Ac Ad 3h 3s Kc 9d 5h", "33", gli.TWO_PAIR_SPLIT_ACES, C.PAIR),
    ("Ah Jk 3h 3s Kc 9d 6c", "33", gli.TWO_PAIR_SPLIT_ACES, C.PAIR),  # joker + ace
    # otherwise both pairs stay in back
    ("Tc Td 8h 8s Ac 5d 2h", "A5", gli.TWO_PAIR_KEEP, C.TWO_PAIR),  # sevens+ but an ace, T < J
    ("Tc Td 6h 6s Ac 9d 3h", "A9", gli.TWO_PAIR_KEEP, C.TWO_PAIR),  # tens < jacks
    ("Jc Jd 5h 5s Ac 9d 3h", "A9", gli.TWO_PAIR_KEEP, C.TWO_PAIR),  # fives < sixes
    ("9c 9d 4h 4s Kc 8d 2h", "K8", gli.TWO_PAIR_KEEP, C.TWO_PAIR),
    # rule 8 defers to rule 5 (jacks and sevens): split, the straight is broken
    ("Jh Jd Tc 9s 8h 7d 7c", "77", gli.TWO_PAIR_SPLIT_SEVENS, C.PAIR),
    # rule 8 defers to rule 5 (an ace): wheel with fives and threes, both pairs kept in back
    ("Ah 5c 5d 4h 3s 3d 2c", "A4", gli.TWO_PAIR_KEEP, C.TWO_PAIR),
    # reading: "any ace" includes a pair of aces: wheel with aces and threes goes to rule 5
    ("Ah Ad 3c 3d 4s 5h 2c", "33", gli.TWO_PAIR_SPLIT_ACES, C.PAIR),
    # rule 8 defers to rule 5 with joker + ace: kings in front, the joker (as a king) keeps
    # A-K-Q-J-T in back
    ("As Jk Kh Kd Qc Jd Tc", "KK", gli.TWO_PAIR_SPLIT_SEVENS, C.STRAIGHT),
    # 6. one pair
    ("Kc Kd Ah Qs 9c 5d 2h", "AQ", gli.ONE_PAIR, C.PAIR),
    ("Kc Kd Jk Qs 9c 5d 2h", "AQ", gli.ONE_PAIR, C.PAIR),  # joker = ace
    ("Ah Jk Kc 9d 7s 4c 2d", "K9", gli.ONE_PAIR, C.PAIR),  # joker + ace = pair of aces
    # 7. no pair
    ("Ac Kd 9h 7s 5c 3d 2h", "K9", gli.NO_PAIR, C.HIGH_CARD),
    ("Jk Kc Jd 8h 6s 4c 2d", "KJ", gli.NO_PAIR, C.HIGH_CARD),  # joker = ace, stays in back
    # 8a. king-high or better front keeping a straight or flush
    ("Ah Kd Qc Js Th 9c 2d", "A2", gli.COMPLETE_KING_HIGH, C.STRAIGHT),  # play the lower straight
    ("Ah Kh 9h 6h 4h 2h 3c", "A3", gli.COMPLETE_KING_HIGH, C.FLUSH),  # six hearts
    ("Kc Kd 9h Ts Jd Qc 8h", "KK", gli.COMPLETE_KING_HIGH, C.STRAIGHT),  # one pair: not deferred
    ("7c 7d 7h 8s 9c Td Jh", "77", gli.COMPLETE_KING_HIGH, C.STRAIGHT),  # trips: not deferred
    ("Ah 9h 6h 3h Jk Kc Qd", "KQ", gli.COMPLETE_KING_HIGH, C.FLUSH),  # joker completes a flush
    ("Jk 9c 8h 7s 6d 5c 2h", "A2", gli.COMPLETE_KING_HIGH, C.STRAIGHT),  # joker as ace in front
    # 8b. royal flush with a front below king-high
    ("As Ks Qs Js Ts 2c 3d", "32", gli.COMPLETE_ROYAL, ROYAL),
    ("As Ks Qs Jk Ts 2c 4d", "42", gli.COMPLETE_ROYAL, ROYAL),  # joker is the jack of spades
    # 8c. jack-high or better front
    ("Jd 9c 8h 7s 6d 5c 2h", "J2", gli.COMPLETE_JACK_HIGH, C.STRAIGHT),
    # two pair jacks and fives, no ace: not deferred (fives < sixes); only a flush in back
    ("Jh Jd 5h 5c Kh 9h 2h", "J5", gli.COMPLETE_JACK_HIGH, C.FLUSH),
    # 8d. the straight flush with 9-3 in front, although the straight 7-3 would free 9-8
    ("8h 7h 6h 5h 4h 9c 3d", "93", gli.COMPLETE_STRAIGHT_FLUSH, C.STRAIGHT_FLUSH),
    # 8e. the highest front keeping any straight or flush
    ("Tc 9h 8s 7d 6c 5h 2d", "T2", gli.COMPLETE_ANY, C.STRAIGHT),
    ("9c 8h 7s Jk 5c 3h 2d", "32", gli.COMPLETE_ANY, C.STRAIGHT),  # joker completes 9-5
    ("5c 5d 6h 6s 7c 8d 9h", "65", gli.COMPLETE_ANY, C.STRAIGHT),  # sixes, fives: not deferred
]


def _front_ranks(setting) -> str:
    ranks = sorted((12 if c.is_joker else c.id >> 2 for c in setting.low), reverse=True)
    return "".join("23456789TJQKA"[r] for r in ranks)


@pytest.mark.parametrize(("hand", "front", "rule", "back"), CASES, ids=[c[0] for c in CASES])
def test_rule_cases(hand: str, front: str, rule: int, back: object) -> None:
    s = set_one_hand(WAY, hand)
    assert (_front_ranks(s), s.rule) == (front, gli.rule_names(gli.LITERAL)[rule])
    table = five_card_table()
    if back == ROYAL:
        assert s.high_id == int(np.flatnonzero(table.category == 8).max())
    else:
        assert table.category[s.high_id] == back
    assert table.is_valid(s.high_id, s.low_id)


def test_every_rule_has_a_case() -> None:
    assert {c[2] for c in CASES} == set(range(len(gli.RULES)))


def test_rule_names() -> None:
    assert len(set(gli.RULES)) == len(gli.RULES)
    prefixes = {
        "FIVE_ACES": "1.",
        "FOUR_": "2.",
        "FULL_": "3.",
        "TRIPS_": "4.",
        "THREE_PAIR": "5.",
        "TWO_PAIR": "5.",
        "ONE_PAIR": "6.",
        "NO_PAIR": "7.",
        "COMPLETE_": "8",
    }
    ids = {
        name: value
        for name, value in vars(gli).items()
        if name.isupper() and isinstance(value, int) and not hasattr(facts, name)
    }
    assert sorted(ids.values()) == list(range(len(gli.RULES)))
    for const, rule in ids.items():
        prefix = next(p for start, p in prefixes.items() if const.startswith(start))
        assert gli.RULES[rule].startswith(prefix), const


# the rule numbers each best five-card category may end in (rule 8 defers to 2, 3 and 5)
_COMPLETE = {int(C.STRAIGHT), int(C.FLUSH), int(C.STRAIGHT_FLUSH)}
_RULE_CATEGORIES = {
    "1": {int(C.FIVE_ACES)},
    "2": {int(C.FOUR_OF_A_KIND)} | _COMPLETE,
    "3": {int(C.FULL_HOUSE)} | _COMPLETE,
    "4": {int(C.THREE_OF_A_KIND)},
    "5": {int(C.TWO_PAIR)} | _COMPLETE,
    "6": {int(C.PAIR)},
    "7": {int(C.HIGH_CARD)},
    "8": _COMPLETE,
}


def _check_hands(cards: np.ndarray) -> None:
    """The way gives a valid setting for every row, never the fallback, and a rule of the hand's
    best category."""
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    col = apply_way(WAY, cards)
    rule = TO_MODULE[col.rule]
    assert (rule < len(gli.RULES)).all()
    assert rule.min() >= 0
    table = five_card_table()
    high, low = all_settings(cards, table.ids)
    rows = np.arange(len(cards))
    s = col.setting.astype(np.int64)
    assert (high[rows, s] == col.high).all()
    assert (low[rows, s] == col.low).all()
    assert (col.low <= table.max_low[col.high]).all()
    best_cat = table.category[high.max(axis=1)].astype(np.int64)
    for r, name in enumerate(gli.RULES):
        hit = rule == r
        allowed = _RULE_CATEGORIES[name[0]]
        assert set(np.unique(best_cat[hit]).tolist()) <= allowed, name


def test_random_hands() -> None:
    rng = np.random.default_rng(20240611)
    n = 20_000
    cards = np.sort(rng.random((n, 53)).argsort(axis=1)[:, :7], axis=1)
    _check_hands(cards)


def test_small_deck_every_class() -> None:
    table = hand_table(Deck.parse("9TJQKA:cdhs+joker"), use_cache=False)
    _check_hands(table.cards)
