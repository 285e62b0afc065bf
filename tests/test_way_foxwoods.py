"""The Foxwoods house way (docs/rules.md, "`foxwoods`: Foxwoods (the way of the one published exact
analysis)"): hands set by hand from the rule card, and properties over random hands, small decks and
(marked slow) the full deck.

Every expected front below was worked out from the rule text and the readings in the module
docstring, not by running the code: the comment of each case says why. Fronts are written as
effective ranks, high first (the joker in front is an ace).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli.main import main
from enumerate.cards import Card
from enumerate.evaluate import Category, five_card_table
from enumerate.houseways import apply_way, facts, get_way, set_one_hand
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.reference_ways import foxwoods as fx
from tests.reference_ways import module_ids

WAY = get_way("foxwoods")  # the card; rule ids below are the reference module's
FALLBACK_ID = len(fx.RULES)
TO_MODULE = module_ids(WAY, fx.RULES)

C = Category
ST, FL, SF = C.STRAIGHT, C.FLUSH, C.STRAIGHT_FLUSH


def ranks(cards: tuple[Card, ...]) -> str:
    """Effective ranks of a front, high first (the joker is an ace)."""
    eff = sorted((facts.ACE if c.is_joker else c.id >> 2 for c in cards), reverse=True)
    return "".join("23456789TJQKA"[r] for r in eff)


# (hand, expected front ranks, rule id, expected back category)
CASES = [
    # 1. no pair: the highest card in back, the second and third highest in front
    ("As Jd 9c 7h 5s 4d 2c", "J9", fx.NO_PAIR, C.HIGH_CARD),
    ("Jk Kd 9c 7h 5s 3d 2c", "K9", fx.NO_PAIR, C.HIGH_CARD),  # lone joker = the ace, in back
    # 2. one pair: the pair in back, the two highest other cards in front
    ("Qs Qd As 9c 7h 4d 2c", "A9", fx.ONE_PAIR, C.PAIR),
    ("Jk Ad Ks 9c 7h 4d 2c", "K9", fx.ONE_PAIR, C.PAIR),  # joker + ace = aces, in back
    # 3. two pair, big pair aces to jacks: the small pair in front, even with an ace
    ("Ks Kd 4c 4h Ad 9s 2c", "44", fx.TWO_PAIR_HIGH_SPLIT, C.PAIR),
    ("Js Jd Tc Th Ad 9s 2c", "TT", fx.TWO_PAIR_HIGH_SPLIT, C.PAIR),
    ("Jk Ad 3c 3h Kd 9s 7c", "33", fx.TWO_PAIR_HIGH_SPLIT, C.PAIR),  # joker + ace: big pair aces
    # 3. big pair tens to sevens: kept with an ace for the front (the ace and the next card)
    ("Ts Td 7c 7h Ad 4s 2c", "A4", fx.TWO_PAIR_MID_KEPT, C.TWO_PAIR),
    ("9s 9d 8c 8h Jk 5s 2c", "A5", fx.TWO_PAIR_MID_KEPT, C.TWO_PAIR),  # joker = singleton ace
    # ... otherwise split: a king is not enough here
    ("Ts Td 7c 7h Kd 4s 2c", "77", fx.TWO_PAIR_MID_SPLIT, C.PAIR),
    ("7s 7d 3c 3h Qd 9s 2c", "33", fx.TWO_PAIR_MID_SPLIT, C.PAIR),
    # 3. big pair sixes to threes: kept with a king or better for the front
    ("6s 6d 3c 3h Kd 9s 2c", "K9", fx.TWO_PAIR_LOW_KEPT, C.TWO_PAIR),
    ("5s 5d 4c 4h Ad Qs 2c", "AQ", fx.TWO_PAIR_LOW_KEPT, C.TWO_PAIR),
    ("3s 3d 2c 2h Jk Ts 9c", "AT", fx.TWO_PAIR_LOW_KEPT, C.TWO_PAIR),  # smallest two pair, joker
    # ... otherwise split: a queen is not enough
    ("6s 6d 3c 3h Qd 9s 2c", "33", fx.TWO_PAIR_LOW_SPLIT, C.PAIR),
    # 4. three pair: the high pair in front
    ("Qs Qd 8c 8h 4s 4d 2c", "QQ", fx.THREE_PAIR, C.TWO_PAIR),
    ("Jk As 8c 8h 4s 4d Kc", "AA", fx.THREE_PAIR, C.TWO_PAIR),  # joker + ace = aces
    # 5. three aces: an ace and the next highest card in front (a pair of aces behind)
    ("As Ad Ac Kh 9s 5d 2c", "AK", fx.TRIPS_ACES, C.PAIR),
    ("Jk Ad Ac Qh 9s 5d 2c", "AQ", fx.TRIPS_ACES, C.PAIR),  # joker as the third ace
    # 5. kings and below: the trips in back, the two highest cards in front
    ("Ks Kd Kc Ah 9s 5d 2c", "A9", fx.TRIPS_KEPT, C.THREE_OF_A_KIND),
    ("8s 8d 8c Kh Js 5d 2c", "KJ", fx.TRIPS_KEPT, C.THREE_OF_A_KIND),
    # 6. two sets: a pair from the higher set in front
    ("8s 8d 8c 5h 5s 5d Kc", "88", fx.TWO_SETS, C.THREE_OF_A_KIND),
    ("Jk As Ad 5h 5s 5d Kc", "AA", fx.TWO_SETS, C.THREE_OF_A_KIND),  # joker: three aces
    # 7. no pair: the two highest cards in front that leave a complete hand in back
    ("9s Td Jc Qh Ks 4d 2c", "42", fx.COMPLETE_NO_PAIR, ST),  # the only straight
    ("8s 9d Tc Jh Qs Kd 2c", "K2", fx.COMPLETE_NO_PAIR, ST),  # 8-Q frees the king (9-K: 8-2)
    ("As Ks 9s 7s 5s 3s 2d", "A2", fx.COMPLETE_NO_PAIR, FL),  # six spades: one of them + 2d
    ("Jk Kd Qc Jh 9s 5d 2c", "52", fx.COMPLETE_NO_PAIR, ST),  # joker completes K-9 as the ten
    ("Jk Kh 9h 7h 4h 3c 2d", "32", fx.COMPLETE_NO_PAIR, FL),  # joker completes the flush
    ("Ah Kh Qh Jh Th 9h 2c", "A2", fx.COMPLETE_NO_PAIR, SF),  # K-9 straight flush frees A-2
    ("As Ks Qs Js Ts 2c 3d", "32", fx.COMPLETE_NO_PAIR, SF),  # the royal flush kept
    # 7. one pair: the highest two cards, a pair above any non-pair, leaving a complete hand
    ("5s 5d 9c Th Js Qd Kc", "55", fx.COMPLETE_PAIR, ST),  # the pair goes up, 9-K behind
    ("4s 4d As Js 9s 6s 2s", "44", fx.COMPLETE_PAIR, FL),  # 44 beats A-x; A-J-9-6-2 flush back
    ("Ah Jk 9d Tc Jh Qs Kd", "AA", fx.COMPLETE_PAIR, ST),  # joker + ace in front, 9-K behind
    ("Ac 9d 9h Ts Jc Qd Kh", "99", fx.COMPLETE_PAIR, ST),  # A-K-Q-J-T keeps 99 up (9-K: A9)
    ("5s 5d 6c 7h 8s 9d Kc", "K5", fx.COMPLETE_PAIR, ST),  # 55 would break 5-9: K5
    # fives are not tens to kings: no exception although A-K would beat K-5
    ("Ac 2d 3h 4s 5c 5d Kh", "K5", fx.COMPLETE_PAIR, ST),
    # tens and an ace, but TT goes in front beside the A-8-6-4-2 flush: nothing to improve
    ("Ah Th Tc 8h 6h 4h 2h", "TT", fx.COMPLETE_PAIR, FL),
    # the ace is already up (with the off-suit king) beside the K-9-7-4-2 flush: A-K stays
    ("Ah Kd Ks 9s 7s 4s 2s", "AK", fx.COMPLETE_PAIR, FL),
    # 7. the exception: A-K-Q-J-T forces T-2 up; the ace in front with the king, tens in back
    ("As Kd Qc Jh Th Tc 2d", "AK", fx.COMPLETE_PAIR_ACE, C.PAIR),
    ("Ac Kd Kh Qc Js Th 5d", "AQ", fx.COMPLETE_PAIR_ACE, C.PAIR),  # A-Q beats K-5
    ("As Qs Qd 9s 7s 4s 2c", "A9", fx.COMPLETE_PAIR_ACE, C.PAIR),  # flush leaves Q-2; A-9 up
    ("Jk Kd Kh Qc Js 9h 3d", "AQ", fx.COMPLETE_PAIR_ACE, C.PAIR),  # K-9 straight leaves K-3
    # 7. two pair: the two-pair rule, wholly (the straight may be broken)
    ("Jh Jd Tc 9s 8h 7d 7c", "77", fx.TWO_PAIR_HIGH_SPLIT, C.PAIR),  # jacks: split
    ("Ah 5c 5d 4h 3s 3d 2c", "A4", fx.TWO_PAIR_LOW_KEPT, C.TWO_PAIR),  # fives, an ace: kept
    ("5s 5d 6c 6h 7s 8d 9c", "55", fx.TWO_PAIR_LOW_SPLIT, C.PAIR),  # sixes, no K/A: split
    # three pair: the three-pair rule (the joker's wheel A-2-3-4-5 is given up)
    ("Jk As 3c 3h 4s 4d 5c", "AA", fx.THREE_PAIR, C.TWO_PAIR),
    # 7. three of a kind: the complete hand in back, a pair in front
    ("7s 7d 7c 8h 9s Td Jc", "77", fx.COMPLETE_TRIPS, ST),
    ("4s 4d 4c As Js 9s 6s", "44", fx.COMPLETE_TRIPS, FL),
    ("Ks Kd Kc Ah Qs Jd Tc", "KK", fx.COMPLETE_TRIPS, ST),  # not rule 5: the straight stays
    ("As Ad Jk Kc Qh Jd Tc", "AA", fx.COMPLETE_TRIPS, ST),
    # the joker is needed as the ten: no pair of aces can go up; A-K-Q-J-T kept, A-5 in front
    ("As Ad Jk Kc Qh Jd 5c", "A5", fx.COMPLETE_TRIPS_KEPT, ST),
    # 8. full house: the highest permissible pair in front, the trips behind
    ("9s 9d 9c 4h 4s Kd 2c", "44", fx.FULL_HOUSE_PAIR, C.THREE_OF_A_KIND),
    ("9s 9d 9c 2h 2s Kd Ac", "22", fx.FULL_HOUSE_PAIR, C.THREE_OF_A_KIND),  # twos split too
    ("As Ad Ac Kh Ks 7d 2c", "KK", fx.FULL_HOUSE_PAIR, C.THREE_OF_A_KIND),  # AA up would foul
    ("9s 9d 9c Kh Ks 4d 4c", "KK", fx.FULL_HOUSE_PAIR, C.FULL_HOUSE),  # the higher pair
    # reading: the higher of the two pairs, not a pair broken from the higher trips
    ("Ks Kd Kc Qh Qs 2d 2c", "QQ", fx.FULL_HOUSE_PAIR, C.FULL_HOUSE),
    ("5s 5d 5c Ah Jk 3d 4c", "AA", fx.FULL_HOUSE_PAIR, C.THREE_OF_A_KIND),  # joker + ace pair
    # joker flush A-K-7-5 hearts, effective A-A-A-K-K: rule 8, the flush is broken
    ("Ah Ad Jk Kh Ks 5h 7h", "KK", fx.FULL_HOUSE_PAIR, C.THREE_OF_A_KIND),
    # 9. four aces to jacks: always split, two of the quads in front
    ("Js Jd Jc Jh Ks 9d 2c", "JJ", fx.QUADS_HIGH_SPLIT, C.PAIR),
    ("Ks Kd Kc Kh As 9d 2c", "KK", fx.QUADS_HIGH_SPLIT, C.PAIR),  # split even with an ace
    ("As Ad Ac Ah Ks Qd 2c", "AA", fx.QUADS_HIGH_SPLIT, C.PAIR),
    ("As Ad Ac Jk Ks Qs Js", "AA", fx.QUADS_HIGH_SPLIT, SF),  # joker = 4th ace; royal behind
    # 9. four tens to sevens: kept if at least a king can go in front, otherwise split
    ("8s 8d 8c 8h Ks Jd 2c", "KJ", fx.QUADS_MID_KEPT, C.FOUR_OF_A_KIND),
    ("7s 7d 7c 7h Ad Qs 3c", "AQ", fx.QUADS_MID_KEPT, C.FOUR_OF_A_KIND),
    ("Ts Td Tc Th Jk 4d 2c", "A4", fx.QUADS_MID_KEPT, C.FOUR_OF_A_KIND),  # joker = the ace
    ("8s 8d 8c 8h Qs Jd 2c", "88", fx.QUADS_MID_SPLIT, C.PAIR),  # a queen is not enough
    # 9. four sixes and below: never split, the two highest other cards in front
    ("5s 5d 5c 5h As Kd 9c", "AK", fx.QUADS_LOW_KEPT, C.FOUR_OF_A_KIND),
    ("2s 2d 2c 2h 9s 7d 3c", "97", fx.QUADS_LOW_KEPT, C.FOUR_OF_A_KIND),  # no king: still kept
    # 9. quads with a pair: the pair in front (reading: for every rank of quads)
    ("6s 6d 6c 6h Ks Kd 2c", "KK", fx.QUADS_PAIR, C.FOUR_OF_A_KIND),
    ("As Ad Ac Ah 3s 3d 9c", "33", fx.QUADS_PAIR, C.FOUR_OF_A_KIND),  # aces: not split
    ("Qs Qd Qc Qh Jk Ad 5c", "AA", fx.QUADS_PAIR, C.FOUR_OF_A_KIND),  # joker + ace pair
    # 9. quads with three of a kind: a pair from the trips in front
    ("9s 9d 9c 9h 4s 4d 4c", "44", fx.QUADS_TRIPS, C.FOUR_OF_A_KIND),
    ("9s 9d 9c 9h As Ad Jk", "AA", fx.QUADS_TRIPS, C.FOUR_OF_A_KIND),  # joker: three aces
    # 10. five aces: a pair of aces in front, unless a pair of kings can go there
    ("As Ad Ac Ah Jk Qs 2c", "AA", fx.FIVE_ACES_ACES, C.THREE_OF_A_KIND),
    ("As Ad Ac Ah Jk Qs Qd", "AA", fx.FIVE_ACES_ACES, C.FULL_HOUSE),  # queens stay behind
    ("As Ad Ac Ah Jk Ks Kd", "KK", fx.FIVE_ACES_KINGS, C.FIVE_ACES),
]


@pytest.mark.parametrize(("hand", "front", "rule", "back"), CASES, ids=[c[0] for c in CASES])
def test_hand(hand: str, front: str, rule: int, back: Category) -> None:
    s = set_one_hand(WAY, hand)
    assert (ranks(s.low), s.rule) == (front, fx.RULES[rule])
    table = five_card_table()
    assert table.is_valid(s.high_id, s.low_id)
    assert table.category_of(s.high_id) == back, table.name(s.high_id)


def test_every_rule_has_a_case() -> None:
    assert {rule for _, _, rule, _ in CASES} == set(range(len(fx.RULES)))


def test_rule_names() -> None:
    assert len(set(fx.RULES)) == len(fx.RULES)
    prefixes = {
        "NO_PAIR": "1.",
        "ONE_PAIR": "2.",
        "TWO_PAIR": "3.",
        "THREE_PAIR": "4.",
        "TRIPS_": "5.",
        "TWO_SETS": "6.",
        "COMPLETE_": "7.",
        "FULL_HOUSE": "8.",
        "QUADS_": "9.",
        "FIVE_ACES": "10.",
    }
    ids = {
        name: value
        for name, value in vars(fx).items()
        if name.isupper() and isinstance(value, int) and not hasattr(facts, name)
    }
    assert sorted(ids.values()) == list(range(len(fx.RULES)))
    for const, rule in ids.items():
        prefix = next(p for start, p in prefixes.items() if const.startswith(start))
        assert fx.RULES[rule].startswith(prefix), const


def test_back_kept_exactly() -> None:
    """Spot checks of the whole setting where the choice of cards matters."""
    s = set_one_hand(WAY, "8s 9d Tc Jh Qs Kd 2c")
    assert " ".join(map(str, s.high)) == "Qs Jh Tc 9d 8s"
    s = set_one_hand(WAY, "As Ad Ac Jk Ks Qs Js")  # the joker stays behind as the ten of spades
    assert five_card_table().name(s.high_id) == "royal flush"
    assert {str(c) for c in s.low} == {"Ad", "Ac"}
    s = set_one_hand(WAY, "4s 4d 4c As Js 9s 6s")  # the four of spades stays in the flush
    assert {str(c) for c in s.low} == {"4d", "4c"}
    s = set_one_hand(WAY, "As Kd Qc Jh Th Tc 2d")  # the exception: tens in back
    assert " ".join(map(str, s.high)) == "Qc Jh Th Tc 2d"


def test_registered_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    way = get_way("foxwoods")
    assert set(way.rules) == set(fx.RULES)
    assert set_one_hand(way, "As Ah Kd Kc 5h 4s 3c").rule == fx.RULES[fx.TWO_PAIR_HIGH_SPLIT]
    # aces and kings: the big pair is aces, so the small pair (kings) goes in front
    argv = ["set", "As Ah Kd Kc 5h 4s 3c", "--house-way", "foxwoods", "--format", "json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["high"] == ["As", "Ah", "5h", "4s", "3c"]
    assert data["low"] == ["Kd", "Kc"]


# ---------------------------------------------------------------------------------------------
# properties over many hands

_COMPLETE_RULES = [fx.COMPLETE_NO_PAIR, fx.COMPLETE_PAIR, fx.COMPLETE_TRIPS, fx.COMPLETE_TRIPS_KEPT]


def _check_columns(cards: np.ndarray) -> set[int]:
    """Valid settings, never the fallback; rule 7's own branches keep a straight, flush or
    straight flush in back, and its exception a pair of tens to kings. Returns the rules that
    fired."""
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    col = apply_way(WAY, cards)
    rule = TO_MODULE[col.rule]
    t = five_card_table()
    assert not np.any(rule == FALLBACK_ID)
    assert np.all(rule >= 0) and np.all(rule < len(fx.RULES))
    high = col.high.astype(np.int64)
    assert np.all(col.low.astype(np.int64) <= t.max_low[high])
    cat = t.category[high]
    r7 = np.isin(rule, _COMPLETE_RULES)
    assert np.isin(cat[r7], [C.STRAIGHT, C.FLUSH, C.STRAIGHT_FLUSH]).all()
    assert (cat[rule == fx.COMPLETE_PAIR_ACE] == C.PAIR).all()
    assert (cat[rule == fx.FIVE_ACES_KINGS] == C.FIVE_ACES).all()
    return set(np.unique(rule).tolist())


def test_random_hands() -> None:
    rng = np.random.default_rng(20240612)
    n = 20_000
    cards = np.sort(rng.random((n, 53)).argsort(axis=1)[:, :7], axis=1)
    assert len(_check_columns(cards)) > 20


def test_small_deck_every_rule() -> None:
    """Low, middle and high pairs and quads, aces, kings and the joker: every rule fires."""
    table = hand_table(Deck.parse("2367TKA:cdhs+joker"), use_cache=False)
    assert _check_columns(table.cards) == set(range(len(fx.RULES)))


def test_small_deck_high_cards() -> None:
    table = hand_table(Deck.parse("9TJQKA:cdhs+joker"), use_cache=False)
    rules = _check_columns(table.cards)
    assert {fx.COMPLETE_PAIR_ACE, fx.COMPLETE_TRIPS, fx.FIVE_ACES_KINGS} <= rules


@pytest.mark.slow
def test_full_deck_every_rule_never_the_fallback() -> None:
    table = hand_table()
    assert _check_columns(table.cards) == set(range(len(fx.RULES)))
