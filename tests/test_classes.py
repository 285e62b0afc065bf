"""Seven-card classes: published full-deck counts, rule-text examples, small-deck brute force."""

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from enumerate.cards import parse_cards
from enumerate.classes import SevenCardClass, classify, describe, fortune_of_five
from enumerate.evaluate import five_card_table
from enumerate.rules import Deck
from enumerate.tables import hand_table
from tests.published import class_counts, lines

C = SevenCardClass


@pytest.fixture(scope="module")
def full_counts():
    return hand_table().class_counts()


def test_published_class_counts(full_counts):
    pub = class_counts()
    n = full_counts
    mine = {
        "total": sum(n.values()),
        "natural 7-card straight flush + 7-card straight flush with joker":
            n[C.SEVEN_CARD_STRAIGHT_FLUSH] + n[C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER],
        "royal flush + royal match": n[C.ROYAL_MATCH],
        "five aces": n[C.FIVE_ACES],
        "royal flush": n[C.ROYAL_FLUSH],
        "straight flush": n[C.STRAIGHT_FLUSH],
        "four of a kind": n[C.FOUR_OF_A_KIND],
        "full house": n[C.FULL_HOUSE],
        "flush": n[C.FLUSH],
        "three of a kind": n[C.THREE_OF_A_KIND],
        "straight": n[C.STRAIGHT],
        "three pair + nothing": n[C.THREE_PAIR] + n[C.NOTHING],
    }
    assert set(mine) == set(pub)
    for name, value in mine.items():
        assert value == pub[name], name


def test_closed_form_counts(full_counts):
    """Counts that follow from the rule text by hand."""
    # five aces: the four aces, the joker and any two of the other 48 cards
    assert full_counts[C.FIVE_ACES] == 48 * 47 // 2
    # natural 7-card straight flush: 8 runs of seven ranks (A-7 .. 8-A) in each of 4 suits
    assert full_counts[C.SEVEN_CARD_STRAIGHT_FLUSH] == 32
    # royal + match: natural royal (4 suits) or a royal with the joker in any of 5 places,
    # with the A-K of one of the 3 other suits
    assert full_counts[C.ROYAL_MATCH] == 4 * 3 + 4 * 5 * 3


def test_two_or_more_jacks_closed_form():
    from math import comb

    t = hand_table()
    closed = comb(53, 7) - comb(49, 7) - 4 * comb(49, 6)
    assert t.weighted_count(t.jacks >= 2) == closed
    (pub,) = lines("jacks_beat")
    assert abs(Fraction(closed, comb(53, 7)) - pub["value"]) <= pub["tolerance"]


@pytest.mark.parametrize(
    "hand,expected",
    [
        ("8h 9h Th Jh Qh Kh Ah", C.SEVEN_CARD_STRAIGHT_FLUSH),
        ("Ad 2d 3d 4d 5d 6d 7d", C.SEVEN_CARD_STRAIGHT_FLUSH),
        ("Ad 2d 3d 4d 5d 6d Jk", C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER),
        ("2c 3c 4c 6c 7c 8c Jk", C.SEVEN_CARD_STRAIGHT_FLUSH_JOKER),
        ("As Ks Qs Js Ts Ah Kh", C.ROYAL_MATCH),
        ("Jk Ks Qs Js Ts Ad Kd", C.ROYAL_MATCH),
        ("As Ks Qs Js Ts Ah Qh", C.ROYAL_FLUSH),  # A-Q is no royal match
        ("As Ks Qs Js Ts Jk Kh", C.ROYAL_FLUSH),  # joker + K is no royal match
        ("Ac Ad Ah As Jk 2c 3d", C.FIVE_ACES),
        ("9s Ts Js Qs Ks 2c 3d", C.STRAIGHT_FLUSH),
        ("Ac 2c 3c 4c 5c Kd Kh", C.STRAIGHT_FLUSH),
        ("7c 7d 7h 7s 2c 3d 4h", C.FOUR_OF_A_KIND),
        ("Ac Ad Ah Jk 2c 3d 4h", C.FOUR_OF_A_KIND),  # three aces + joker
        ("Kc Kd Kh Jk 2c 3d 4h", C.THREE_OF_A_KIND),  # the joker is no king
        ("Kc Kd Kh 2s 2c 3d 4h", C.FULL_HOUSE),
        ("Ah 5h 9h 2h Jk Ad 2d", C.FULL_HOUSE),  # aces full beats the flush it also holds
        ("2h 5h 9h Jh Kh Kd Kc", C.FLUSH),  # the flush beats its three kings
        ("2h 5h 9h Jh Kh Kd 3c", C.FLUSH),
        ("2h 5h 9h Jh Jk Kd 3c", C.FLUSH),  # joker completes the flush
        ("5c 6d 7h 8s 9c 9d 9h", C.THREE_OF_A_KIND),  # Fortune order: trips before straight
        ("5c 6d 7h 8s 9c Kd 2h", C.STRAIGHT),
        ("5c 6d 7h 8s Jk Kd 2h", C.STRAIGHT),
        ("Ac 2d 3h 4s Jk Kd 9h", C.STRAIGHT),  # joker fills the wheel
        ("Kc Kd Qh Qs 5c 5d 2h", C.THREE_PAIR),
        ("Kc Kd Qh Qs 5c Ad Jk", C.THREE_PAIR),  # joker pairs the ace
        ("Kc Kd Qh Qs 5c 9d 2h", C.NOTHING),
        ("Kc Jd 9h 7s 5c 3d 2h", C.NOTHING),
    ],
)
def test_class_examples(hand, expected):
    assert describe(parse_cards(hand)).seven_card_class == expected


@pytest.mark.parametrize(
    "hand,ace_high,joker_ace,queen_high,jacks",
    [
        ("Ac Kd 9h 7s 5c 3d 2h", True, False, False, 0),
        ("Jk Kd 9h 7s 5c 3d 2h", True, True, False, 0),
        ("Qc Jd 9h 7s 5c 3d 2h", False, False, True, 1),
        ("Qc Jd 9h 7s 5c 3d Jk", True, True, False, 1),  # the joker is an ace, not a queen
        ("Qc Jd Th 9s 8c 3d 2h", False, False, False, 1),  # a straight: not pai gow
        ("Ac Ad 9h 7s 5c 3d 2h", False, False, False, 0),
        ("Jc Jd Jh 7s 5c 3d 2h", False, False, False, 3),
        ("Kc Jd 9h 7h 5h 3h 2h", False, False, False, 1),  # a flush: not pai gow
    ],
)
def test_flags(hand, ace_high, joker_ace, queen_high, jacks):
    d = describe(parse_cards(hand))
    assert (d.ace_high_pai_gow, d.joker_is_ace, d.queen_high_pai_gow, d.jacks) == (
        ace_high,
        joker_ace,
        queen_high,
        jacks,
    )


@pytest.mark.parametrize("deck_text", ["A2345:cdh+joker", "TJQKA:cdhs+joker", "789TJQ:cd+joker"])
def test_orbit_weighted_counts_equal_direct_walk(deck_text):
    """Class counts from suit classes weighted by orbit size == classifying every hand."""
    deck = Deck.parse(deck_text)
    five = five_card_table()
    f5 = fortune_of_five(five)
    direct = np.zeros(len(SevenCardClass), dtype=np.int64)
    direct_flags = {}
    for combo in combinations(deck.ids, 7):
        cls, _best, flags, jacks = classify(np.array(combo), five.ids, f5, five.category)
        direct[cls] += 1
        direct_flags[(flags, jacks)] = direct_flags.get((flags, jacks), 0) + 1
    table = hand_table(deck, use_cache=False)
    counts = table.class_counts()
    assert [counts[c] for c in SevenCardClass] == direct.tolist()
    weighted = {}
    for f, j, w in zip(table.flags, table.jacks, table.orbit_size, strict=True):
        weighted[(int(f), int(j))] = weighted.get((int(f), int(j)), 0) + int(w)
    assert weighted == direct_flags
