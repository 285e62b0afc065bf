"""Five-card ids, two-card ids and setting validity against docs/rules.md.

Three layers, each able to fail on its own:
- hand-written expectations, reasoned from the rule text (never copied from the code's output),
  checked against the project and against the reference evaluator in ``reference_eval.py``;
- hypothesis properties: the order of the project's ids equals the order of the reference keys;
- exhaustive checks over reduced decks (and, marked slow, over the full 53-card deck).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from enumerate.cards import Card, parse_cards
from enumerate.evaluate import (
    Category,
    five_card_table,
    settings,
    two_card_id,
    two_card_name,
)
from enumerate.rules import Rules
from tests.reference_eval import (
    ref_category_name,
    ref_key,
    ref_two_key,
    ref_valid,
)

WHEELS = ("second", "low")
JOKER_ID = 52
DECK = tuple(Card(i) for i in range(53))


def table(wheel: str = "second"):
    return five_card_table(Rules(wheel=wheel))


def hid(text: str, wheel: str = "second") -> int:
    return table(wheel).id_of(parse_cards(text, count=5))


def lid(text: str) -> int:
    return two_card_id(parse_cards(text, count=2))


def sign(x) -> int:
    return (x > 0) - (x < 0)


def cmp(a, b) -> int:
    return (a > b) - (a < b)


# ---------------------------------------------------------------------------------------------
# Hand-written expectations (reasoned from docs/rules.md)
# ---------------------------------------------------------------------------------------------

BOTH = WHEELS
SECOND = ("second",)
LOW = ("low",)

# (weaker, stronger, wheel options where it holds)
STRICTLY_BELOW = [
    # category boundaries: the best hand of a category under the worst of the next one
    ("As Kd Qc Jh 9s", "2c 2d 3h 4s 5c", BOTH),  # A-K-Q-J-9 high < pair of twos 5-4-3
    ("Ac Ad Kh Qs Jc", "3c 3d 2h 2s 4c", BOTH),  # aces K-Q-J < threes and twos
    ("Ac Ad Kh Ks Qc", "2c 2d 2h 3s 4c", BOTH),  # aces and kings < three twos
    ("Ac Ad Ah Ks Qc", "2c 3d 4h 5s 6c", BOTH),  # three aces < six-high straight
    ("Ac Ad Ah Ks Qc", "Ac 2d 3h 4s 5c", LOW),  # three aces < wheel (lowest straight)
    ("Ac Kd Qh Js Tc", "2h 3h 4h 5h 7h", BOTH),  # broadway < 7-5-4-3-2 flush
    ("Ac 2d 3h 4s 5c", "2h 3h 4h 5h 7h", BOTH),  # the wheel is still below every flush
    ("Ah Kh Qh Jh 9h", "2c 2d 2h 3s 3c", BOTH),  # A-K-Q-J-9 flush < twos full of threes
    ("Ac Ad Ah Ks Kc", "2c 2d 2h 2s 3c", BOTH),  # aces full of kings < four twos
    ("Ac Ad Ah As Kc", "2h 3h 4h 5h 6h", BOTH),  # four aces < six-high straight flush
    ("Ac Ad Ah As Kc", "Ah 2h 3h 4h 5h", LOW),  # four aces < wheel straight flush
    ("9s Ts Js Qs Ks", "As Ks Qs Js Ts", BOTH),  # king-high straight flush < royal
    ("As Ks Qs Js Ts", "Ac Ad Ah As Jk", BOTH),  # royal < five aces
    # within a category
    ("Ac Ad Kh Qs Tc", "Ac Ad Kh Qs Jc", BOTH),  # third kicker decides
    ("Kc Kd Qh Qs Ac", "Ac Ad 2h 2s 3c", BOTH),  # the top pair decides two pair
    ("Ac Ad 3h 3s Kc", "Ac Ad 4h 4s 2c", BOTH),  # then the second pair, before the kicker
    ("Kh Qh Jh 9h 7h", "Ah 5h 4h 3h 2h", BOTH),  # flushes compare from the top card
    ("2c 2d 2h Ac Ad", "3c 3d 3h 2s 2c", BOTH),  # full houses by the trips
    # wheel option "second": A-2-3-4-5 just below the ace-high straight / the royal
    ("9c Td Jh Qs Kc", "Ac 2d 3h 4s 5c", SECOND),
    ("Ac 2d 3h 4s 5c", "Tc Jd Qh Ks Ac", SECOND),
    ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c", SECOND),
    ("9s Ts Js Qs Ks", "Ah 2h 3h 4h 5h", SECOND),
    ("Ah 2h 3h 4h 5h", "Ts Js Qs Ks As", SECOND),
    # wheel option "low": A-2-3-4-5 is the lowest straight / straight flush
    ("Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6c", LOW),
    ("Ah 2h 3h 4h 5h", "2s 3s 4s 5s 6s", LOW),
    ("Ac Ad Ah Kc Qd", "Ac 2d 3h 4s 5c", LOW),  # still a straight: above trips
    # no wrap-around: Q-K-A-2-3 is ace high, below any pair
    ("Qc Kd Ah 2s 3c", "2c 2d 3h 4s 5c", BOTH),
    ("Jc Qd Kh As 2c", "2c 2d 3h 4s 5c", BOTH),
    # the joker is not wild for other ranks
    ("Kc Kd Jk 7h 3s", "2c 2d 2h 3s 4c", BOTH),  # pair of kings (ace kicker), not trips
    ("Kc Kd Ks Jk 2h", "2c 2d 2h 2s 3c", BOTH),  # three kings, not quads
    ("Kc Kd 7c 7d Jk", "2c 2d 2h 3s 3c", BOTH),  # two pair, not a full house
    ("Kc Kd Jk 7h 3s", "Kc Kd Ah 8h 3s", BOTH),  # joker = ace kicker, then 7 < 8
    ("Kc Kd Qh 7h 3s", "Kc Kd Jk 2h 3s", BOTH),  # the joker's ace kicker beats a queen
    # wheel with the joker as its five (or ace): second beats K-high, low is the lowest
    ("9c Td Jh Qs Kc", "Ac 2d 3h 4s Jk", SECOND),
    ("Ac 2d 3h 4s Jk", "2c 3d 4h 5s 6c", LOW),
]

# (hand, same-rank hand, wheel options): equal hands share an id
EQUAL = [
    # suits never break ties
    ("As Kd Qc Jh 9s", "Ah Ks Qd Jc 9c", BOTH),
    ("Ah Kh Jh 9h 7h", "As Ks Js 9s 7s", BOTH),
    ("2c 3d 4h 5s 6c", "2h 3h 4s 5c 6d", BOTH),
    ("9c 9d 5h 5s 2c", "9h 9s 5c 5d 2d", BOTH),
    ("As Ks Qs Js Ts", "Ah Kh Qh Jh Th", BOTH),
    ("Ac Ad Ah As Kc", "Ac Ad Ah As Kh", BOTH),
    # the joker completes straights
    ("Ac 2d 3h 4s Jk", "Ac 2d 3h 4s 5c", BOTH),  # joker = five: the wheel
    ("2c 3d 4h 5s Jk", "Ac 2d 3h 4s 5c", SECOND),  # ace (wheel) beats six (six-high) here
    ("2c 3d 4h 5s Jk", "2c 3d 4h 5s 6c", LOW),  # ... and the six wins under "low"
    ("Ks Qd Jh Tc Jk", "As Kd Qh Jc Tc", BOTH),  # broadway
    ("Tc Jd Qh As Jk", "Tc Jd Qh Ks Ac", BOTH),  # inside gap: joker = king
    ("9c Td Qh Ks Jk", "9c Td Jh Qs Kc", BOTH),  # inside gap: joker = jack, king high
    ("3c 4d 5h 6s Jk", "3c 4d 5h 6s 7c", BOTH),  # open end: the higher end (seven)
    ("2c 3d 4h 6s Jk", "2c 3d 4h 5s 6c", BOTH),  # joker = five, six high
    ("Jk 9h 8h 7h 6c", "Tc 9h 8h 7h 6c", BOTH),  # ten high, not nine high
    # the joker inside a flush: the highest card of that suit missing from the hand
    ("Ah Jk Jh 9h 7h", "Ah Kh Jh 9h 7h", BOTH),
    ("Kh Jk Jh 9h 7h", "Ah Kh Jh 9h 7h", BOTH),  # a suit missing its ace: ace-high flush
    ("Ah Kh Jk 9h 7h", "Ah Kh Qh 9h 7h", BOTH),
    ("Ah Kh Qh Jk 7h", "Ah Kh Qh Jh 7h", BOTH),
    ("Jk 9h 8h 7h 2h", "Ah 9h 8h 7h 2h", BOTH),
    # straight flushes with the joker
    ("9h 8h 7h 6h Jk", "Th 9h 8h 7h 6h", BOTH),
    ("Jk 9h 8h 7h 5h", "9d 8d 7d 6d 5d", BOTH),
    ("Ah 2h 3h 4h Jk", "As 2s 3s 4s 5s", BOTH),
    ("As Ks Qs Js Jk", "Ah Kh Qh Jh Th", BOTH),
    ("Ks Qs Js Ts Jk", "Ah Kh Qh Jh Th", BOTH),
    ("9s Ts Js Qs Jk", "9d Td Jd Qd Kd", BOTH),
    # the joker as an ace
    ("Ac Ad Ah Ks Jk", "Ac Ad Ah As Kd", BOTH),  # four aces
    ("Kc Kd Jk 7h 3s", "Kc Kd Ah 7h 3s", BOTH),
    ("Kc Kd Ks Jk 2h", "Kc Kd Ks Ah 2h", BOTH),
    ("Kc Kd 7c 7d Jk", "Kc Kd 7h 7s Ad", BOTH),
    ("Ac Ad Jk 7h 3s", "Ac Ad Ah 7h 3s", BOTH),
    ("Ac Ad Kc Kd Jk", "Ac Ad Ah Kc Kd", BOTH),
    ("Jk Kd 9c 7h 3s", "Ad Kd 9c 7h 3s", BOTH),
    ("Qc Kd Ah 2s Jk", "Qc Kd Ah 2s Ac", BOTH),  # no wrap: pair of aces
    ("Ks As 2h 3d Jk", "Ks As 2h 3d Ac", BOTH),  # K-A-2-3-4 is no straight either
]

# (hand, wheel options, category, name)
NAMED = [
    ("Ac Ad Ah As Jk", BOTH, Category.FIVE_ACES, "five aces"),
    ("Ks Qs Js Ts Jk", BOTH, Category.STRAIGHT_FLUSH, "royal flush"),
    ("9s Ts Js Qs Jk", BOTH, Category.STRAIGHT_FLUSH, "straight flush, king high"),
    ("9h 8h 7h 6h Jk", BOTH, Category.STRAIGHT_FLUSH, "straight flush, ten high"),
    ("Ah 2h 3h 4h Jk", BOTH, Category.STRAIGHT_FLUSH, "straight flush, five high (wheel)"),
    ("Ac Ad Ah Ks Jk", BOTH, Category.FOUR_OF_A_KIND, "four of a kind, aces, king kicker"),
    ("Ac Ad Kc Kd Jk", BOTH, Category.FULL_HOUSE, "full house, aces full of kings"),
    ("Kh Jk Jh 9h 7h", BOTH, Category.FLUSH, "flush, A-K-J-9-7"),
    ("Ac 2d 3h 4s Jk", BOTH, Category.STRAIGHT, "straight, five high (wheel)"),
    ("9c Td Qh Ks Jk", BOTH, Category.STRAIGHT, "straight, king high"),
    ("2c 3d 4h 5s Jk", LOW, Category.STRAIGHT, "straight, six high"),
    ("2c 3d 4h 5s Jk", SECOND, Category.STRAIGHT, "straight, five high (wheel)"),
    ("Ac Ad Jk 7h 3s", BOTH, Category.THREE_OF_A_KIND, "three of a kind, aces, 7-3 kickers"),
    ("Kc Kd Ks Jk 2h", BOTH, Category.THREE_OF_A_KIND, "three of a kind, kings, A-2 kickers"),
    ("Kc Kd 7c 7d Jk", BOTH, Category.TWO_PAIR, "two pair, kings and sevens, ace kicker"),
    ("Kc Kd Jk 7h 3s", BOTH, Category.PAIR, "pair of kings, A-7-3 kickers"),
    ("Qc Kd Ah 2s Jk", BOTH, Category.PAIR, "pair of aces, K-Q-2 kickers"),
    ("Qc Kd Ah 2s 3c", BOTH, Category.HIGH_CARD, "ace high, A-K-Q-3-2"),
    ("Jk Kd 9c 7h 3s", BOTH, Category.HIGH_CARD, "ace high, A-K-9-7-3"),
]

# (high hand, low hand, valid): "at least as high as the low hand", equal leading part valid
VALIDITY = [
    ("9c 9d Kh 7s 3c", "9h 9s", True),  # pair of nines over pair of nines
    ("9c 9d Kh 7s 3c", "Th Ts", False),
    ("9c 9d Kh 7s 3c", "Ah Ks", True),  # any pair over no pair
    ("2c 2d 5h 7s 9c", "Ah Kc", True),
    ("2c 2d 5h 7s 9c", "3h 3s", False),
    ("As Kd 9c 7h 3s", "Ah Kc", True),  # A-K-x over A-K: equal leading part
    ("As Kd 9c 7h 3s", "Ah Qc", True),
    ("As Kd 9c 7h 3s", "Kh Qc", True),
    ("As Qd 9c 7h 3s", "Ah Kc", False),  # A-Q-x under A-K
    ("As Kd 9c 7h 3s", "2c 2d", False),  # no pair under any pair
    ("Kd Qd 9c 7h 3s", "Jk 2c", False),  # the joker is an ace in front: A-2 over K-Q
    ("As Kd 9c 7h 3s", "Jk Kc", True),  # joker-king is A-K
    ("Jk Kd 9c 7h 3s", "As Kc", True),  # joker as the ace of the high hand
    ("Jk Kd 9c 7h 3s", "As Ac", False),
    ("Ac Ad Kh 7s 3c", "Jk As", True),  # aces over joker-ace
    ("3c 3d 2h 2s 4c", "Ac Ad", True),  # two pair over any pair
    ("3c 3d 2h 2s 4c", "Jk Ad", True),
    ("2c 3d 4h 5s 6c", "Ac Ad", True),
    ("Ac 2d 3h 4s Jk", "Kh Ks", True),  # the joker makes a wheel, not a pair of aces
    ("Qc Kd Ah 2s 3c", "Ad Kh", True),  # no wrap-around: ace high
    ("Qc Kd Ah 2s 3c", "2h 2d", False),
]


ORDER_CASES = [
    pytest.param(a, b, w, id=f"{a} < {b} ({w})") for a, b, ws in STRICTLY_BELOW for w in ws
]
EQUAL_CASES = [pytest.param(a, b, w, id=f"{a} = {b} ({w})") for a, b, ws in EQUAL for w in ws]
NAMED_CASES = [pytest.param(h, w, c, n, id=f"{h} ({w})") for h, ws, c, n in NAMED for w in ws]


@pytest.mark.parametrize("weaker,stronger,wheel", ORDER_CASES)
def test_order_project(weaker, stronger, wheel):
    assert hid(weaker, wheel) < hid(stronger, wheel)


@pytest.mark.parametrize("weaker,stronger,wheel", ORDER_CASES)
def test_order_reference(weaker, stronger, wheel):
    assert ref_key(parse_cards(weaker), wheel) < ref_key(parse_cards(stronger), wheel)


@pytest.mark.parametrize("a,b,wheel", EQUAL_CASES)
def test_equal_project(a, b, wheel):
    assert hid(a, wheel) == hid(b, wheel)


@pytest.mark.parametrize("a,b,wheel", EQUAL_CASES)
def test_equal_reference(a, b, wheel):
    assert ref_key(parse_cards(a), wheel) == ref_key(parse_cards(b), wheel)


@pytest.mark.parametrize("hand,wheel,category,name", NAMED_CASES)
def test_category_and_name(hand, wheel, category, name):
    t = table(wheel)
    h = t.id_of(parse_cards(hand))
    assert t.category_of(h) == category
    assert t.name(h) == name


def test_category_order_is_the_rule_order():
    # docs/rules.md, high to low: five aces, royal flush, straight flush, four of a kind, full
    # house, flush, straight, three of a kind, two pair, pair, high card (royal = top straight
    # flush)
    order = [
        Category.HIGH_CARD,
        Category.PAIR,
        Category.TWO_PAIR,
        Category.THREE_OF_A_KIND,
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.FOUR_OF_A_KIND,
        Category.STRAIGHT_FLUSH,
        Category.FIVE_ACES,
    ]
    assert [int(c) for c in order] == sorted(int(c) for c in order)


@pytest.mark.parametrize("wheel", WHEELS)
def test_one_id_per_distinct_hand_at_the_top(wheel):
    t = table(wheel)
    five_aces = hid("Ac Ad Ah As Jk", wheel)
    royal = hid("As Ks Qs Js Ts", wheel)
    assert five_aces == t.n_ids - 1  # nothing beats five aces, and there is only one
    assert royal == t.n_ids - 2  # the royal is the next hand down, all suits alike
    third = "Ah 2h 3h 4h 5h" if wheel == "second" else "9s Ts Js Qs Ks"
    assert hid(third, wheel) == t.n_ids - 3  # then the wheel / king-high straight flush
    assert hid("7c 5d 4h 3s 2c", wheel) == 0  # the weakest hand: 7-5-4-3-2 off-suit


# two-card hands
def test_two_card_joker_is_an_ace():
    assert lid("Jk Ad") == lid("As Ac")
    assert two_card_name(lid("Jk Ad")) == "pair of aces"
    assert lid("Jk Kd") == lid("Ac Kh")
    assert two_card_name(lid("Jk Kd")) == "A-K"
    assert lid("Jk 2c") == lid("Ad 2h")
    assert two_card_name(lid("Jk 2c")) == "A-2"


def test_two_card_order():
    # no pair < pair; then the higher card, then the lower; suits never count
    assert lid("3c 2d") < lid("4c 2d") < lid("4c 3d") < lid("Ac Kd") < lid("2c 2d")
    assert lid("2c 2d") < lid("3c 3d") < lid("Kc Kd") < lid("Jk Ad")
    assert lid("Ac Qd") < lid("Ac Kd")
    assert lid("Kc Qd") < lid("Ac 2d")
    assert lid("Ac Kd") == lid("As Kh")
    assert lid("3c 2d") == 0 and lid("Jk Ad") == 90  # ids 0..90, the ends of the order


# validity
@pytest.mark.parametrize("high,low,valid", VALIDITY, ids=[f"{h}/{lo}" for h, lo, _ in VALIDITY])
@pytest.mark.parametrize("wheel", WHEELS)
def test_validity_project(high, low, valid, wheel):
    assert table(wheel).is_valid(hid(high, wheel), lid(low)) is valid


@pytest.mark.parametrize("high,low,valid", VALIDITY, ids=[f"{h}/{lo}" for h, lo, _ in VALIDITY])
@pytest.mark.parametrize("wheel", WHEELS)
def test_validity_reference(high, low, valid, wheel):
    assert ref_valid(parse_cards(high), parse_cards(low), wheel) is valid


# settings() of a seven-card hand
def test_settings_of_a_royal_with_joker():
    hand = parse_cards("As Ks Qs Js Ts 2c Jk", count=7)
    out = settings(hand)
    assert len(out) == 21
    lows = set()
    for s in out:
        assert len(s.high) == 5 and len(s.low) == 2
        assert set(s.high).isdisjoint(s.low)
        assert set(s.high) | set(s.low) == set(hand)  # each card in exactly one hand
        lows.add(frozenset(s.low))
        assert s.high_id == table().id_of(s.high)
        assert s.low_id == two_card_id(s.low)
        assert s.valid == table().is_valid(s.high_id, s.low_id)
    assert lows == {frozenset(p) for p in itertools.combinations(hand, 2)}  # 21 ways
    by_low = {frozenset(str(c) for c in s.low): s for s in out}

    s = by_low[frozenset({"2c", "Jk"})]  # royal flush behind A-2
    assert (s.high_name, s.low_name, s.valid) == ("royal flush", "A-2", True)
    s = by_low[frozenset({"Ts", "2c"})]  # joker completes the royal: T-2 in front
    assert (s.high_name, s.low_name, s.valid) == ("royal flush", "T-2", True)
    s = by_low[frozenset({"As", "Ks"})]  # Q-J-T-2-joker: no straight, no flush: A-Q high
    assert (s.high_name, s.low_name, s.valid) == ("ace high, A-Q-J-T-2", "A-K", False)
    s = by_low[frozenset({"Jk", "As"})]  # pair of aces in front of king high: foul
    assert (s.high_name, s.low_name, s.valid) == ("king high, K-Q-J-T-2", "pair of aces", False)


@pytest.mark.parametrize(
    "text", ["As Ks Qs Js Ts 2c Jk", "9c 9d Kh 7s 3c 9h 2s", "Ah Kd Jk 7c 5s 4h 2d"]
)
@pytest.mark.parametrize("wheel", WHEELS)
def test_settings_validity_matches_reference(text, wheel):
    for s in settings(parse_cards(text, count=7), Rules(wheel=wheel)):
        assert s.valid == ref_valid(s.high, s.low, wheel), (s.high, s.low)


# ---------------------------------------------------------------------------------------------
# Properties: the project's order is the reference order
# ---------------------------------------------------------------------------------------------

NATURALS = st.integers(min_value=0, max_value=51)


@st.composite
def hands(draw, size: int = 5):
    """``size`` distinct card ids; the joker in about half of them, and often clumped in a few
    ranks and suits so that straights, flushes and straight flushes come up."""
    with_joker = draw(st.booleans())
    n = size - 1 if with_joker else size
    if draw(st.booleans()):
        ids = draw(st.lists(NATURALS, min_size=n, max_size=n, unique=True))
    else:
        low = draw(st.integers(min_value=-1, max_value=7))  # -1: a window holding the ace-low
        ranks = [12, 0, 1, 2, 3, 4] if low == -1 else list(range(low, low + 6))
        few = 1 if n <= len(ranks) else 2  # enough cards in the pool for seven-card hands
        suits = draw(st.lists(st.integers(0, 3), min_size=few, max_size=2, unique=True))
        pool = sorted({4 * r + s for r in ranks for s in suits})
        ids = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
    if with_joker:
        ids = [*ids, JOKER_ID]
    return tuple(DECK[i] for i in draw(st.permutations(ids)))


# the reference's categories by name; the project has no royal category (a royal is its top
# straight flush)
CATEGORY_OF_REF_NAME = {
    "high card": Category.HIGH_CARD,
    "pair": Category.PAIR,
    "two pair": Category.TWO_PAIR,
    "three of a kind": Category.THREE_OF_A_KIND,
    "straight": Category.STRAIGHT,
    "flush": Category.FLUSH,
    "full house": Category.FULL_HOUSE,
    "four of a kind": Category.FOUR_OF_A_KIND,
    "straight flush": Category.STRAIGHT_FLUSH,
    "royal flush": Category.STRAIGHT_FLUSH,
    "five aces": Category.FIVE_ACES,
}

PROPS = hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(a=hands(), b=hands(), wheel=st.sampled_from(WHEELS))
def test_five_card_order_matches_reference(a, b, wheel):
    t = table(wheel)
    ia, ib = t.id_of(a), t.id_of(b)
    ka, kb = ref_key(a, wheel), ref_key(b, wheel)
    assert sign(ia - ib) == cmp(ka, kb), (ka, kb, t.name(ia), t.name(ib))
    for i, k in ((ia, ka), (ib, kb)):
        assert t.category_of(i) == CATEGORY_OF_REF_NAME[ref_category_name(k)], (k, t.name(i))


@PROPS
@given(a=hands(2), b=hands(2))
def test_two_card_order_matches_reference(a, b):
    assert sign(two_card_id(a) - two_card_id(b)) == cmp(ref_two_key(a), ref_two_key(b))


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(7), wheel=st.sampled_from(WHEELS))
def test_settings_validity_matches_reference_property(hand, wheel):
    out = settings(hand, Rules(wheel=wheel))
    assert len(out) == 21
    for s in out:
        assert s.high_id == table(wheel).id_of(s.high)
        assert s.valid == ref_valid(s.high, s.low, wheel), (s.high, s.low, s.high_name)


# ---------------------------------------------------------------------------------------------
# Exhaustive checks
# ---------------------------------------------------------------------------------------------


def order_mismatches(cards, wheel: str) -> list[str]:
    """Every five-card hand of ``cards``: the project's ids must induce the reference order.

    Same key <=> same id, and the ids sorted by key strictly increase. Returns readable
    mismatches (empty when the orders agree)."""
    t = table(wheel)
    ids_of_key: dict[tuple, set[int]] = {}
    example: dict[tuple, tuple] = {}
    for combo in itertools.combinations(cards, 5):
        k = ref_key(combo, wheel)
        ids_of_key.setdefault(k, set()).add(t.id_of(combo))
        example.setdefault(k, combo)
    show = lambda k: " ".join(str(c) for c in example[k])  # noqa: E731
    bad = [f"{show(k)}: {k} has ids {sorted(v)}" for k, v in ids_of_key.items() if len(v) != 1]
    keys = sorted(ids_of_key)
    ids = [min(ids_of_key[k]) for k in keys]
    for k0, k1, i0, i1 in zip(keys, keys[1:], ids, ids[1:], strict=False):
        if not i0 < i1:
            bad.append(f"{show(k0)} {k0} id {i0} should be below {show(k1)} {k1} id {i1}")
    return bad


def reduced_deck(ranks: str, suits: str = "cdhs") -> list[Card]:
    cards = [Card.parse(r + s) for r in ranks for s in suits]
    return [*cards, DECK[JOKER_ID]]


def test_exhaustive_ten_to_ace_with_joker():
    deck = reduced_deck("TJQKA")  # 21 cards, C(21, 5) = 20,349 hands
    assert order_mismatches(deck, "second") == []


@pytest.mark.parametrize("wheel", WHEELS)
def test_exhaustive_ace_to_six_with_joker(wheel):
    deck = reduced_deck("A23456", "cdh")  # 19 cards, C(19, 5) = 11,628 hands
    assert order_mismatches(deck, wheel) == []


def test_exhaustive_two_card_hands():
    keys = {}
    for a, b in itertools.combinations(DECK, 2):
        keys.setdefault(ref_two_key((a, b)), set()).add(two_card_id((a, b)))
    assert all(len(v) == 1 for v in keys.values())
    ordered = [next(iter(keys[k])) for k in sorted(keys)]
    assert ordered == list(range(91))  # 91 distinct two-card values, in the reference order


@pytest.mark.parametrize("wheel", WHEELS)
def test_exhaustive_validity_of_no_pair_and_one_pair_high_hands(wheel):
    """Every no-pair and one-pair rank pattern of the high hand (natural, off-suit) against
    every two-card value: validity equals the reference."""
    t = table(wheel)
    lows = [(Card(4 * h + 1), Card(4 * lo + 2)) for h in range(13) for lo in range(h + 1)]
    low_ids = [two_card_id(low) for low in lows]
    bad = []
    patterns = [list(c) for c in itertools.combinations(range(13), 5)]
    patterns += [
        [p, p, *ks]
        for p in range(13)
        for ks in itertools.combinations([r for r in range(13) if r != p], 3)
    ]
    for ranks in patterns:
        # suits: c d h s c ... with the second card of a pair on another suit: never a flush
        high = tuple(Card(4 * r + (i % 4)) for i, r in enumerate(ranks))
        h = t.id_of(high)
        for low, low_id in zip(lows, low_ids, strict=True):
            if t.is_valid(h, low_id) != ref_valid(high, low, wheel):
                bad.append((str(t.name(h)), two_card_name(low_id), t.is_valid(h, low_id)))
    assert bad == []


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_exhaustive_full_deck(wheel):
    """All 2,869,685 five-card hands of the 53-card deck (slow: run with -m slow)."""
    assert order_mismatches(DECK, wheel) == []
