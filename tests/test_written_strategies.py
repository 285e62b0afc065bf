"""Written player strategies as strategy cards (``data/strategies``): each card sets hand-picked
hands as the text it transcribes says.

- ``wong``: Stanford Wong's strategy for the player as transcribed in the Java project dbnt/jcas
  (``WongWay.java``); the expected settings are the Java test's (``WongWayTest.java``: Wong's
  example hands of pages 128-130 and the transcriber's cases), the player's where the banker's
  differs, and, for the rules that test does not reach, settings derived by hand from the words
  and tables of ``WongWay.java``.
- ``wizard-two-pair``: the Wizard of Odds' two-pair rule (Pai Gow Poker Appendix 2) beside the
  Trump Plaza house way.
- ``beatingbonuses``: the rules of the Beating Bonuses page as far as its stored copy reads, the
  rest filled by the gli way.
- ``freedman-two-pair``: Mark Freedman's two-pair point count, the rest filled by the gli way.

Every expected front was derived from the text (or the Java test), not from running the cards.
Fronts are written as ranks, higher first, the joker as an ace.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from enumerate.houseways import get_way, set_one_hand
from enumerate.houseways.cards import read_card
from enumerate.paths import SOURCE_ROOT
from enumerate.rules import Deck

STRATEGIES = SOURCE_ROOT / "data" / "strategies"
CARDS = ["wong", "wizard-two-pair", "beatingbonuses", "freedman-two-pair"]
ORDER = "23456789TJQKA"


def _path(name: str) -> str:
    return str(STRATEGIES / f"{name}.toml")


def _front(way: str, hand: str) -> tuple[str, str]:
    s = set_one_hand(get_way(way), hand)
    ranks = sorted(("A" if c.is_joker else str(c)[:-1] for c in s.low), key=ORDER.index,
                   reverse=True)  # fmt: skip
    return "".join(ranks), s.rule


def _java(cards: str) -> str:
    """A hand as WongWayTest.java writes it ("8CAD6H..", "jo" the joker) in this toolkit's way."""
    pairs = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    return " ".join("Jk" if p == "jo" else p[0] + p[1].lower() for p in pairs)


def _java_front(setting: str) -> str:
    """The front of a setting as WongWayTest.java writes it (five back cards, then two front
    cards; "?" any suit, "??" the ace or the joker) as ranks, higher first."""
    pairs = [setting[i : i + 2] for i in range(0, len(setting), 2)][5:]
    ranks = ["A" if p in ("jo", "??") else p[0] for p in pairs]
    return "".join(sorted(ranks, key=ORDER.index, reverse=True))


# ---------------------------------------------------------------------------------------------
# Wong: every hand of WongWayTest.java with the player's expected setting (the test's second
# setting, where it gives two, is the banker's), by the Java strategy it exercises
WONG_JAVA = [
    # 3 two pair (Table 4) and 4 three pair
    ("8CAD6HTH9C9D8H", "9?9?8?8?6?A?T?"), ("ADACKDKCQDQC4H", "K?K?Q?Q?4?A?A?"),
    ("JDJC2D2C7H3Cjo", "J?J?3?2?2?jo7?"), ("7D7C6D6C9H8S2S", "9?8?7?7?2?6?6?"),
    # 5 three of a kind
    ("AHACADKHQC7D3H", "A?A?Q?7?3?A?K?"), ("KHKDKC9H7D3S2C", "K?K?7?3?2?K?9?"),
    ("KHKDKSQH9H6S5D", "K?K?K?6?5?Q?9?"), ("QHQDQS5C4C3S2D", "Q?Q?Q?3?2?5?4?"),
    # 8 straight and a pair
    ("3S3DJDTH9C8S7S", "J?T?9?8?7?3?3?"), ("8D8CJD7C6S5H4S", "8?7?6?5?4?J?8?"),
    ("6H6CAC5H4S3S2D", "5?4?3?2?A?6?6?"), ("JHJCKDQDTD8S9S", "Q?J?T?9?8?K?J?"),
    ("JHJCACKSQHTH4H", "Q?J?J?T?4?A?K?"), ("AHADKDQSJSTS3D", "A?K?Q?J?T?A?3?"),
    ("KSKHADQDJSTH5C", "A?K?Q?J?T?K?5?"),
    # 9 flush and a pair (Table 5)
    ("QCQSASKSTD6S3S", "Q?Q?T?6?3?A?K?"), ("9C9SASKSQS8H3S", "Q?9?9?8?3?A?K?"),
    ("7C7SASKSQHJS6S", "ASKSJS7S6SQ?7?"), ("QCQSKSJSTS4S2C", "KSQSJSTS4SQ?2?"),
    # 11 joker flush and a pair
    ("8S8CjoKS7S5S2S", "joKS7S5S2S8?8?"), ("joASKSQS6C3S2S", "??KSQS3S2S??6?"),
    ("joTSKSQS6C3S2S", "KSQSTS3S2Sjo6?"), ("joASKS7H6H5S2S", "joA?6?5?2?K?7?"),
    ("joASKCQS7S3S2C", "joASQS7S3SK?2?"), ("joASQSTC7S3S2C", "joASQS7S3ST?2?"),
    ("joASQSTS6S3C2C", "joA?6?3?2?Q?T?"), ("joASQS9S6S3C2C", "joASQS9S6S3?2?"),
    ("joASJS9S6S3C2C", "joASJS9S6S3?2?"),
    # 13 straight and flush, 14 with a pair
    ("TC9H8H7C6C5C4C", "TC7C6C5C4C9?8?"), ("JCTH9H8H7C6C5C", "9?8?7?6?5?J?T?"),
    ("joAS9C7C5C4C3S", "jo9C7C5C4CA?3?"), ("joASJC7C5C4C3S", "joJC7C5C4CA?3?"),
    ("QS8C6C5C4C3C2S", "8C6C5C4C3CQ?2?"), ("ACQS9C5C4C3C2S", "5?4?3?2?A?Q?9?"),
    ("8C8HAH5C4C3C2C", "5?4?3?2?A?8?8?"), ("ASACKC5C4C3C2S", "5?4?3?2?A?A?K?"),
    ("6S6C7C5C4C3S2C", "7C6C5C4C2C6?3?"), ("QSQCACKCJSTS2C", "Q?Q?J?T?2?A?K?"),
    # 15 straight and two pair, 16 flush and two pair, a straight flush
    ("3H3D2S2C6H5D4C", "6?5?4?3?2?3?2?"), ("6C6H5D5S4H3C2D", "6?6?4?3?2?5?5?"),
    ("4D4S3S3CKS8S7S", "7?4?4?3?3?K?8?"), ("4H4S2S2C9S6S5S", "9S6S5S4S2S4?2?"),
    ("ASAH9S7S4S2S2C", "AS9S7S4S2SA?2?"), ("2H5HQS4HKDAH3H", "5H4H3H2HAHK?Q?"),
    # the regression cases
    ("TC9S9C8C7CAHJC", "JCTC9C8C7CAH9S"), ("8C8S9C5H5D9HJC", "J?8?8?5?5?9?9?"),
    ("8C8S9C5H5D9H7C", "8?8?7?5?5?9?9?"), ("5D9H8C7C8S9C5H", "8?8?7?5?5?9?9?"),
    ("9H9D8C8D7C5S5D", "8?8?7?5?5?9?9?"),
    # the practice hands (Wong's examples, pages 128-130)
    ("ADACASTS6C5H4D", "A?A?6C5H4DA?T?"), ("THTD7H7DKCJC2C", "K?J?T?T?2?7?7?"),
    ("KHKC3S3C8C5D2H", "K?K?8?5?2?3?3?"), ("ADKC9D8D6D5D3H", "AD9D8D6D5DKC3H"),
    ("9D9C2D2CjoJS4S", "9?9?4?2?2?joJ?"), ("ACASKCTD9C5C3C", "ACKC9C5C3CA?T?"),
    ("joTC8S7D6H5C4S", "8?7?6?5?4?joT?"), ("joACADKS9S7S2S", "joKS9S7S2SA?A?"),
    ("7D7CQDTC9S8C6H", "T?9?8?7?6?Q?7?"), ("ACAH5C5HKSJS3S", "A?A?K?J?3?5?5?"),
    ("joAH8H8C7C7SQS", "Q?8?8?7?7?joA?"), ("joJHTH9D7D5S2S", "J?T?9?jo7?5?2?"),
    ("ACASQCQS8H8DTD", "Q?Q?T?8?8?A?A?"), ("9C9H9S9D7D7CKH", "K?9?9?9?9?7?7?"),
    ("ACKSQHTD8C6S2H", "A?T?8?6?2?K?Q?"), ("joASKSTS7S3C2D", "joA?7?3?2?K?T?"),
    ("8S8C8D5S5DQD3H", "Q?8?8?8?3?5?5?"), ("joQH7S5D4C3H2D", "5?4?3?2?joQ?7?"),
    ("8S8C7C7HKCQH3D", "K?Q?8?8?3?7?7?"), ("5S5C4C4Djo3S2D", "5?5?4?4?2?jo3?"),
    ("joAC8D8S3S3D2D", "8?8?3?3?2?joA?"), ("KSKD6D6HAHQDTS", "A?K?K?Q?T?6?6?"),
    ("joAS2S2HQH5D4D", "joA?Q?5?4?2?2?"), ("joASAC8H8SJSTH", "joA?A?J?T?8?8?"),
    ("ACKD9D8D7D4S3D", "KD9D8D7D3DA?4?"), ("9D9H5D5HKS7S6S", "K?9?9?7?6?5?5?"),
    ("ASKSJD9D7D4H3H", "A?9?7?4?3?K?J?"), ("joASQSJS7S4H2S", "??QSJS7S2S??4?"),
    ("QDQHjo8H6C3H2H", "joQH8H3H2HQ?6?"), ("3H3S2D2SQS9H5C", "5?3?3?2?2?Q?9?"),
    ("9H9D3C3SASKH5C", "9?9?5?3?3?A?K?"), ("joKH8H7S5S4D3D", "7?jo5?4?3?K?8?"),
    ("JHJD5D5SKSTS8C", "K?J?J?T?8?5?5?"), ("5H5S2S2DJD9H6C", "J?9?6?5?5?2?2?"),
    ("QDQCTDTHjo6D4D", "joQ?Q?6?4?T?T?"), ("joADKC7D6D5S3D", "7?6?5?jo3?A?K?"),
    ("7H7C6C6SKH8D2D", "K?8?7?7?2?6?6?"), ("KHQDJSTH9H5D3S", "K?Q?J?T?9?5?3?"),
]  # fmt: skip


@pytest.mark.parametrize(("cards", "setting"), WONG_JAVA, ids=[c for c, _ in WONG_JAVA])
def test_wong_sets_the_java_tests_hands_as_the_player(cards: str, setting: str) -> None:
    assert _front(_path("wong"), _java(cards))[0] == _java_front(setting)


# Wong, hand-picked: (hand, front, the start of the rule's name). The first group is from the
# Java test above, naming the rule that sets each; the second is derived from WongWay.java's
# words and tables for the rules its test does not reach.
WONG = [
    # Table 4: nines over eights keep with any ace; sevens over sixes need K-J (9-8 splits)
    ("8c Ad 6h Th 9c 9d 8h", "AT", "3. two pair, nines over"),
    ("7d 7c 6d 6c 9h 8s 2s", "66", "3. two pair: split"),
    ("Ad Ac Kd Kc Qd Qc 4h", "AA", "4. three pair"),
    # three kings kept with Q-9 (J-10 or better), broken with 9-7
    ("Kh Kd Ks Qh 9h 6s 5d", "Q9", "5. three kings: kept"),
    ("Kh Kd Kc 9h 7d 3s 2c", "K9", "5. three kings: broken"),
    # a pair of jacks beside an ace-high straight: the pair in back, A-K in front
    ("Jh Jc Ac Ks Qh Th 4h", "AK", "8. straight and a pair of tens to queens"),
    # Table 5: a pair of queens with A-K beside a flush whose front is Q-10: break the flush
    ("Qc Qs As Ks Td 6s 3s", "AK", "9. flush and a pair, A-K"),
    # the joker flush with aces, Q-10 beside a 3-2 front: the aces in back
    ("Jk As Qs Ts 6s 3c 2c", "QT", "11. joker flush and aces: the aces in back with Q-10"),
    # straight and flush, the same ace in front, J beside it: the player takes the flush
    ("Jk As Jc 7c 5c 4c 3s", "A3", "13-14: straight and flush: otherwise the flush"),
    ("3h 3d 2s 2c 6h 5d 4c", "32", "15. straight and two pair 4-2 or 3-2"),
    ("4h 4s 2s 2c 9s 6s 5s", "42", "16. flush and two pair totalling seven or less"),
    ("9c 9h 9s 9d 7d 7c Kh", "77", "25. four of a kind and a pair, Table 10: the pair"),
    ("2h 5h Qs 4h Kd Ah 3h", "KQ", "SF: straight flush, no other straight or flush"),
    ("Jk Kd 9s 8h 7s 3c 2c", "K9", "1. no pair"),
    # five aces with a pair of kings: the five aces in back
    ("As Ah Ad Ac Jk Ks Kd", "KK", "27. five aces with a pair of kings"),
    # Table 10, player: four kings and a pair of fives (8 apart) split; four aces and sixes
    # (8 apart, aces not among jacks to kings) keep the quads
    ("Kc Kd Kh Ks 5c 5d 2h", "KK", "25. four of a kind and a pair, Table 10: split"),
    ("Ac Ad Ah As 6c 6d 2h", "66", "25. four of a kind and a pair, Table 10: the pair"),
    # a royal flush with a pair of queens: "if the queen ... is paired, fivecard the pair"
    ("Ah Kh Qh Jh Th Qs 2c", "AK", "SF: royal flush and a pair"),
    # Table 5 read with its tabs at width 4: a pair of tens, A-J, a flush whose front is 10-8
    ("Tc Td Ac Jc 5c 2c 8d", "AJ", "9. flush and a pair, A-J"),
    # the fallback (no rule in the transcription): the highest front, a pair of the quads
    ("2c 2d 2h 2s Ac Kd Qh", "22", "fill: four of a kind, no pair"),
    # a joker straight and a pair, by rule 8 (the default reading): the straight, 6-2 in front
    ("Jk 9s 8d 7c 6h 6d 2c", "62", "8. straight and a pair"),
    # three aces beside the wheel: the fallback's highest front, two aces in front
    ("As Ad Ac 5d 4h 3c 2c", "AA", "fill: three of a kind with a straight or flush"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "front", "rule"), WONG, ids=[h for h, _, _ in WONG])
def test_wong_sets_hands_as_the_transcription_says(hand: str, front: str, rule: str) -> None:
    got, name = _front(_path("wong"), hand)
    assert (got, name.startswith(rule)) == (front, True), name


@pytest.mark.parametrize(
    ("reading", "hand", "front"),
    [
        # gli keeps four twos, the ace and king in front
        ("quads-alone=gli", "2c 2d 2h 2s Ac Kd Qh", "AK"),
        # the transcription's fallback for a joker straight and a pair: the pair in back, the
        # joker and 9 in front
        ("joker-straight-pair=transcription", "Jk 9s 8d 7c 6h 6d 2c", "A9"),
        # the Java's branch: the flush dominates keeping aces and nines (its front A-9 beats
        # T-4), its front is not A-2: split, the nines in front (rule 16 splits too)
        ("flush-two-pair=java", "Ac Th 4h 2h Ah 9h 9c", "99"),
        # the Java's branch: an A-2 flush front keeps the flush
        ("flush-two-pair=java", "As Ah 9s 7s 4s 2s 2c", "A2"),
    ],
)  # fmt: skip
def test_wong_readings(reading: str, hand: str, front: str) -> None:
    assert _front(f"{_path('wong')}[{reading}]", hand)[0] == front


# ---------------------------------------------------------------------------------------------
# The Wizard of Odds' two-pair rule with the Trump Plaza house way
WIZARD = [
    # sum 7 with a king: kept (1); sum 9 with nothing higher than a queen: split
    ("4s 4d 3h 3c Ks 9d 2h", "K9", "W1:"),
    ("5s 5d 4h 4c Qs 9d 2h", "44", "W: two pair: split"),
    # the joker is an ace singleton
    ("6s 6d 3h 3c Jk 9d 2h", "A9", "W1:"),
    # sum 15 with an ace: kept (2); with a king only: split
    ("8s 8d 7h 7c As 9d 2h", "A9", "W2:"),
    ("8s 8d 7h 7c Ks 9d 2h", "77", "W: two pair: split"),
    # sum 16: split even with an ace (Trump Plaza keeps two medium pairs with an ace)
    ("9s 9d 7h 7c As Kd 2h", "77", "W: two pair: split"),
    # kings and twos (15) with an ace: kept; aces and twos (16): split
    ("Ks Kd 2h 2c As 9d 5h", "A9", "W2:"),
    ("As Ad 2h 2c Ks 9d 5h", "22", "W: two pair: split"),
    # sevens and threes (10) with a king: split (Trump Plaza keeps low and medium with a king)
    ("7s 7d 3h 3c Kd 9d 5h", "33", "W: two pair: split"),
    ("7s 7d 2h 2c Kd 9d 5h", "K9", "W1:"),
    # two pair in a wheel, fives and fours (9) with the ace: kept, the ace and the three in front
    ("5s 5d 4h 4c 3s 2d As", "A3", "W1:"),
    # the Trump Plaza rules for the rest: no pair, a pair in front beside a straight, six
    # spades (the highest front keeping the flush), three aces, four eights with A-K
    ("As Kh 9c 7d 5h 3s 2c", "K9", "1. no pair"),
    ("Ts Th 9c 8d 7h 6s 5c", "TT", "7. straight/flush, one pair: pair in front"),
    ("As Ks 9s 7s 3s 2s Qd", "AQ", "7. straight/flush, no pair"),
    ("As Ad Ac Kh 9d 5c 2s", "AK", "5. three aces"),
    ("8s 8d 8h 8c Ad Kc 2h", "AK", "9. quads 7-10: kept"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "front", "rule"), WIZARD, ids=[h for h, _, _ in WIZARD])
def test_wizard_two_pair_sets_hands_as_its_text_says(hand: str, front: str, rule: str) -> None:
    got, name = _front(_path("wizard-two-pair"), hand)
    assert (got, name.startswith(rule)) == (front, True), name


# ---------------------------------------------------------------------------------------------
# Beating Bonuses (A, B, C as far as the page reads; the rest as gli)
BEATING_BONUSES = [
    ("As Kh 9c 7d 5h 3s 2c", "K9", "A:"),
    # the joker is the highest card: it stays in the 5-card hand
    ("Jk Kh 9c 7d 5h 3s 2c", "K9", "A:"),
    ("Ks Kh 9c 7d 5h 3s 2c", "97", "B:"),
    ("Ks Kd 9h 9c Qs 7d 2h", "99", "C: two pairs: split"),
    ("As Ad 3h 3c Ks 9d 2h", "33", "C: two pairs: split"),
    # C.1: sum 7 with a king kept; without a king or ace split
    ("4s 4d 3h 3c Ks 9d 2h", "K9", "C1:"),
    ("4s 4d 3h 3c Qs 9d 2h", "33", "C: two pairs: split"),
    # C.2 (the default reading): sum 15 with an ace kept
    ("8s 8d 7h 7c As 9d 2h", "A9", "C2:"),
    # the gli fills: three aces, five aces with kings, four nines with an ace, a full house, a
    # six-card straight (the lower straight frees the ace), a joker flush (Q-2, jack-high or
    # better, in front)
    ("As Ad Ac Kh 9d 5c 2s", "AK", "gli-4: three aces"),
    ("As Ah Ad Ac Jk Ks Kd", "KK", "gli-1: five aces: pair of kings"),
    ("9s 9h 9d 9c As Kd 2c", "AK", "gli-2: four sevens to tens: singleton ace"),
    ("Ks Kh Kd 7s 7c 9d 2c", "77", "gli-3: full house: pair in front"),
    ("Ah Kd Qc Jc Th 9s 3d", "A3", "gli-8a"),
    ("Jk Ks 9s 7s 3s Qd 2c", "Q2", "gli-8c"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "front", "rule"), BEATING_BONUSES,
                         ids=[h for h, _, _ in BEATING_BONUSES])  # fmt: skip
def test_beatingbonuses_sets_hands_as_its_text_says(hand: str, front: str, rule: str) -> None:
    got, name = _front(_path("beatingbonuses"), hand)
    assert (got, name.startswith(rule)) == (front, True), name


def test_beatingbonuses_nine_only_reading() -> None:
    # no second exception: eights and sevens with an ace are split
    got = _front(f"{_path('beatingbonuses')}[two-pair-unread=nine-only]", "8s 8d 7h 7c As 9d 2h")
    assert got[0] == "77"


# ---------------------------------------------------------------------------------------------
# Mark Freedman's two-pair point count (the rest as gli)
FREEDMAN = [
    # six points or fewer: kept with queen-high or better
    ("3s 3d 2h 2c Qs 9d 5h", "Q9", "0-6:"),
    ("3s 3d 2h 2c Js 9d 5h", "22", "split:"),
    # seven to eleven: kept with king-high or better
    ("6s 6d 5h 5c Ks 9d 2h", "K9", "7-11:"),
    ("6s 6d 5h 5c Qs 9d 2h", "55", "split:"),
    # the joker is an ace: kept
    ("7s 7d 4h 4c Jk 9d 2h", "A9", "7-11:"),
    # twelve to sixteen: kept with ace-high only
    ("Js Jd 5h 5c As 9d 2h", "A9", "12-16:"),
    ("Js Jd 5h 5c Ks Qd 2h", "55", "split:"),
    # seventeen: always split; aces and twos (16) cannot put an ace in the low: split
    ("Js Jd 6h 6c As Kd 2h", "66", "split:"),
    ("As Ad 2h 2c Ks Qd 5h", "22", "split:"),
    # the gli fills
    ("As Kh 9c 7d 5h 3s 2c", "K9", "gli-7"),
    ("Ks Kh 9c 7d 5h 3s 2c", "97", "gli-6"),
    ("Ah Kd Qc Jc Th 9s 3d", "A3", "gli-8a"),
    ("As Ad Ac Kh 9d 5c 2s", "AK", "gli-4: three aces"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "front", "rule"), FREEDMAN, ids=[h for h, _, _ in FREEDMAN])
def test_freedman_two_pair_sets_hands_as_its_text_says(hand: str, front: str, rule: str) -> None:
    got, name = _front(_path("freedman-two-pair"), hand)
    assert (got, name.startswith(rule)) == (front, True), name


# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", CARDS)
def test_the_cards_are_strategies_that_set_every_hand(name: str) -> None:
    """Each card is a strategy with a source and notes, reads under every reading, and sets
    every hand of a small deck with four suits and the joker validly, with no fallback and no
    dominated setting."""
    from analysis.waylab.cardcheck import check_card

    card = read_card(_path(name))
    assert (card.kind, card.name) == ("strategy", name)
    assert card.source and card.notes and Path(_path(name)).is_file()
    got = check_card(_path(name), Deck.parse("A2345TJQK:cdhs+joker"))
    assert got.unset == 0 and not got.errors(), got.errors()
    assert not [w for w in got.warnings() if "a dominated setting" in w]
