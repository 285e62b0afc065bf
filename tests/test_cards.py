"""Rule cards (``enumerate.houseways.cards``): the card language read, compiled and run.

- The shipped cards set every class of decks with four suits, the joker and the wheel exactly
  as the numba modules written from the same texts (setting and rule; gli under every single
  alternative of every clause).
- A card written here from a rule text sets hand-derived example hands as the text says.
- Every kind of mistake in a card is one line naming the file, the rule and what is wrong.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from enumerate.datafile import DataFileError
from enumerate.houseways import HouseWay, apply_way, apply_ways, get_way, set_one_hand
from enumerate.houseways.cards import WAY_DIR, CardError, card_way, read_card
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable, hand_table
from tests.reference_ways import gli as gli_module
from tests.reference_ways import reference_way

DECKS = ["TJQKA:cdhs+joker", "A2345:cdhs+joker", "23569JQKA:cdh+joker"]
SHIPPED = ["trump-plaza", "foxwoods", "max-back", "gli"]


def _gli_readings() -> list[dict[str, str]]:
    """gli's own reading, each single alternative of each clause, and the literal reading."""
    return [{}, *({c.id: a} for c in gli_module.CLAUSES for a in c.names), dict(gli_module.LITERAL)]


def _assert_same(cards: list[HouseWay], modules: list[HouseWay], table: HandTable) -> None:
    """Every card of a batch sets every class as its module does: setting and rule name."""
    got = apply_ways(cards, table.cards, table.rules)
    want = apply_ways(modules, table.cards, table.rules)
    for card, module, a, b in zip(cards, modules, got, want, strict=True):
        names_a = np.array(card.rule_names)[a.rule.astype(np.int64)]
        names_b = np.array(module.rule_names)[b.rule.astype(np.int64)]
        wrong = np.flatnonzero((a.setting != b.setting) | (names_a != names_b))
        assert len(wrong) == 0, (card.name, [(table.cards[i].tolist(), names_a[i], names_b[i])
                                             for i in wrong[:3]])  # fmt: skip


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("wheel", ["second", "low"])
def test_the_shipped_cards_are_their_modules(deck: str, wheel: str) -> None:
    """The cards of data/ways set every class of decks with four suits, the joker and the
    wheel as the numba modules written from the same texts (tests/reference_ways), gli under
    every single alternative of every clause."""
    table = hand_table(Deck.parse(deck), Rules(wheel=wheel))  # type: ignore[arg-type]
    cards = [get_way(name) for name in SHIPPED[:-1]]
    modules = [reference_way(name) for name in SHIPPED[:-1]]
    cards += [get_way("gli", r) for r in _gli_readings()]
    modules += [reference_way("gli", r) for r in _gli_readings()]
    assert all(c.program is not None for c in cards)
    assert [c.name for c in cards] == [m.name for m in modules]
    _assert_same(cards, modules, table)


def test_each_card_alone_is_the_batch() -> None:
    """A card set alone (no other card to share a hand's facts with) is the same."""
    table = hand_table(Deck.parse(DECKS[0]))
    for name in SHIPPED:
        _assert_same([get_way(name)], [reference_way(name)], table)


@pytest.mark.slow
def test_the_shipped_cards_are_their_modules_on_the_full_deck() -> None:
    table = hand_table()
    cards = [get_way(name) for name in SHIPPED[:-1]] + [get_way("gli", r) for r in _gli_readings()]
    modules = [reference_way(name) for name in SHIPPED[:-1]]
    modules += [reference_way("gli", r) for r in _gli_readings()]
    _assert_same(cards, modules, table)


def test_the_shipped_cards_read_under_every_reading() -> None:
    for path in sorted(WAY_DIR.glob("*.toml")):
        read_card(path)  # raises on a reading that does not compile


# A card written from this rule text (not from a shipped card):
#   Five aces: two aces in front. Four of a kind: split them, two in front. A full house: the
#   pair in front. Three of a kind: aces split (an ace and the highest other card in front),
#   others kept with the two highest other cards in front. Two pair: the low pair in front,
#   unless both pairs are sixes or lower and there is a king or an ace: then both stay in back.
#   A straight or flush with no pair: the highest front that keeps it in back. One pair: the
#   two highest other cards in front. No pair: the second and third highest cards in front.
TEXT_CARD = """
name = "from-the-text"
title = "A card written from a rule text"
source = "tests/test_cards.py"

[[rule]]
id = "1"
text = "five aces: two aces in front"
when = "five_aces"
front = "pair A"

[[rule]]
id = "2"
text = "four of a kind: split"
when = "quads"
front = "pair quad1"

[[rule]]
id = "3"
text = "full house: pair in front"
when = "full_house and not two_trips"
front = "pair pair1"

[[rule]]
id = "4"
text = "three aces: an ace and the highest other card in front"
when = "trips and trips1 == A"
front = "A single1"

[[rule]]
id = "4"
text = "three of a kind: kept, two highest others in front"
when = "trips"
front = "two highest singles"

[[rule]]
id = "5"
text = "two small pairs with a king or ace: kept"
when = "two_pair and pair1 <= 6 and (count(K) == 1 or count(A) == 1)"
front = "two highest singles"

[[rule]]
id = "5"
text = "two pair: low pair in front"
when = "two_pair"
front = "pair pair2"

[[rule]]
id = "6"
text = "straight or flush, no pair: highest front keeping it"
when = "no_pair and complete"
front = "highest keeping straight, flush or straight flush"

[[rule]]
id = "7"
text = "one pair: two highest others in front"
when = "one_pair"
front = "two highest singles"

[[rule]]
id = "8"
text = "no pair: second and third highest in front"
when = "no_pair"
front = "single2 single3"
"""


@pytest.fixture(scope="module")
def text_way(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("cards") / "from-the-text.toml"
    path.write_text(TEXT_CARD)
    return card_way(read_card(path))


@pytest.mark.parametrize(
    "hand,front,rule",
    [
        # five aces: four aces and the joker; two aces go in front
        ("As Ah Ad Ac Jk Kd 2c", "A A", "1. five aces: two aces in front"),
        # quads of nines split, whatever else
        ("9s 9h 9d 9c As Kd 2c", "9 9", "2. four of a kind: split"),
        # the joker pairs an ace: a full house of kings and aces puts the aces in front
        ("Ks Kh Kd As Jk 7c 2d", "A A", "3. full house: pair in front"),
        # three aces made with the joker: an ace and the king in front
        ("As Ad Jk Kc 9h 5d 2s", "A K",
         "4. three aces: an ace and the highest other card in front"),
        ("8s 8d 8c Kc 9h 5d 2s", "K 9", "4. three of a kind: kept, two highest others in front"),
        # small pairs with a singleton ace stay together (the joker is the ace)
        ("6s 6d 3c 3h Jk 9d 2s", "A 9", "5. two small pairs with a king or ace: kept"),
        ("6s 6d 3c 3h Qs 9d 2s", "3 3", "5. two pair: low pair in front"),
        # the wheel with a queen and a jack: the straight stays, the queen and jack in front
        ("As 2d 3c 4h 5s Qd Jc", "Q J", "6. straight or flush, no pair: highest front keeping it"),
        # a joker straight: 9-8-7-6 and the joker as the five or ten; the king and deuce free
        ("Kd 9s 8d 7c 6h Jk 2c", "K 2", "6. straight or flush, no pair: highest front keeping it"),
        ("Ks Kh 9c 7d 5h 3s 2c", "9 7", "7. one pair: two highest others in front"),
        ("As Kh 9c 7d 5h 3s 2c", "K 9", "8. no pair: second and third highest in front"),
    ],
)  # fmt: skip
def test_a_card_from_a_rule_text_sets_hands_as_the_text_says(text_way, hand, front, rule):
    s = set_one_hand(text_way, hand)
    shown = " ".join(str(c)[:-1] if str(c) != "Jk" else "A" for c in s.low)
    assert (shown, s.rule) == (front, rule)


def test_a_card_sets_one_hand_as_it_sets_the_deck(text_way) -> None:
    """``set_one_hand`` (the card run as Python) and the kernel (compiled) agree on every class of
    a deck with the joker."""
    table = hand_table(Deck.parse("9TJQKA:cdh+joker"))
    cols = apply_way(text_way, table.cards)
    from enumerate.cards import Card

    for i in range(0, len(table.cards), 97):
        hand = [Card(int(c)) for c in table.cards[i]]
        s = set_one_hand(text_way, hand)
        assert (s.high_id, s.low_id) == (int(cols.high[i]), int(cols.low[i]))
        assert s.rule == text_way.rule_names[int(cols.rule[i])]


def _card(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent(body))
    return path


GOOD = """
name = "bad"
title = "t"
source = "s"
[[rule]]
id = "1"
text = "r"
when = "{when}"
front = "{front}"
"""


@pytest.mark.parametrize(
    "when,front,message",
    [
        ("pare1 == 7", "highest", "rule 1 (1. r): when, column 1: unknown fact 'pare1'"),
        ("pair1 >= X", "highest", "column 10: 'X' is not a rank"),
        ("pair1 >= 15", "highest", "'15' is not a rank"),
        ("two_pair and", "highest", "unexpected end"),
        ("two_pair pair1", "highest", "unexpected 'pair1'"),
        ("pair1", "highest", "'pair1' is a rank, not true or false"),
        ("pair1 == n_pairs", "highest", "cannot compare 'pair1' (rank) with 'n_pairs' (count)"),
        ("best_five == royal", "highest", "'royal' is not a category"),
        ("(two_pair", "highest", "column 10: unexpected end, expected ')'"),
        ("pair1 in J.K", "highest", "expected '..'"),
        ("two_pair", "pair Z", "front: 'Z' is not a rank"),
        ("two_pair", "highest keeping straights", "unknown back 'straights'"),
        ("two_pair", "the two best", "unknown front 'the two best'"),
        ("count(n_pairs) == 1", "highest", "count wants a rank"),
        ("can(pair pair9)", "highest", "'pair9' is not a rank"),
        ("2 == 2", "highest", "compares two values"),
    ],
)  # fmt: skip
def test_a_mistake_in_a_condition_or_a_front_is_one_line(tmp_path, when, front, message):
    path = _card(tmp_path, GOOD.replace("{when}", when).replace("{front}", front))
    with pytest.raises(DataFileError) as err:  # a CardError, or a ConditionError
        read_card(path)
    text = str(err.value)
    assert "\n" not in text and text.startswith(str(path)) and message in text, text


@pytest.mark.parametrize(
    "body,message",
    [
        ("name = \"x\"\n", "title: missing"),
        ("name = \"Bad Name\"\ntitle = \"t\"\nsource = \"s\"\n", "is not a way name"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n", "at least one [[rule]]"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\ncolour = 1\n", "unknown field 'colour'"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n[[rule]]\ntext = \"r\"\nfront = 3\n",
         "front: expected text"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n[[rule]]\ntext = \"r\"\nwhen = \"true\"\n",
         "front: missing"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\nkind = \"menu\"\n[[rule]]\ntext = \"r\"\n"
         "front = \"highest\"\n", "kind: 'menu'"),
        ("name = = \"x\"\n", "not valid TOML"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n[[rule]]\ntext = \"r\"\n"
         "when = \"{nope}\"\nfront = \"highest\"\n", "unknown clause {nope}"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n[[clause]]\nid = \"c\"\ntext = \"t\"\n"
         "default = \"maybe\"\n[clause.readings]\nyes = { when = \"true\" }\n[[rule]]\n"
         "text = \"r\"\nwhen = \"{c}\"\nfront = \"highest\"\n", "unknown reading 'maybe'"),
        ("name = \"x\"\ntitle = \"t\"\nsource = \"s\"\n[[clause]]\nid = \"c\"\ntext = \"t\"\n"
         "[clause.readings]\nyes = { when = \"true\" }\nno = { when = \"pair1 >\" }\n[[rule]]\n"
         "text = \"r\"\nwhen = \"{c}\"\nfront = \"highest\"\n",
         "when, column 9: expected a value, found ')' (reading c=no)"),
    ],
)  # fmt: skip
def test_a_mistake_in_the_file_is_one_line(tmp_path, body, message):
    path = _card(tmp_path, body)
    with pytest.raises(DataFileError) as err:  # a CardError, or a ConditionError
        read_card(path)
    text = str(err.value)
    assert "\n" not in text and text.startswith(str(path)) and message in text, text


def test_a_missing_file_is_one_line(tmp_path) -> None:
    with pytest.raises(CardError, match="no such file"):
        read_card(tmp_path / "nowhere.toml")


def test_a_reading_of_a_clause_is_a_way_of_its_own(tmp_path) -> None:
    path = _card(tmp_path, """
        name = "readings"
        title = "t"
        source = "s"
        [[clause]]
        id = "small"
        text = "small pairs"
        literal = "six"
        [clause.readings]
        six = { means = "sixes or lower", when = "pair1 <= 6" }
        nine = { means = "nines or lower", when = "pair1 <= 9" }
        [[rule]]
        id = "1"
        text = "two small pairs with an ace: kept"
        when = "two_pair and {small} and singleton_ace"
        front = "two highest singles"
        [[rule]]
        id = "2"
        text = "otherwise the strongest back"
        front = "strongest back"
    """)
    card = read_card(path)
    six, nine = card_way(card), card_way(card, {"small": "nine"})
    assert nine.name == "readings[small=nine]" and six.key != nine.key
    hand = "9s 9d 3c 3h As 8d 2s"
    assert set_one_hand(six, hand).rule.startswith("2.")
    assert set_one_hand(nine, hand).rule.startswith("1.")


# ---------------------------------------------------------------------------------------------
# paigow way check


def _brute_hands(deck: str) -> list[list[int]]:
    from itertools import combinations

    d = Deck.parse(deck)
    return [list(h) for h in combinations(sorted(c.id for c in d.cards), 7)]


def _rank_counts(hand: list[int]) -> list[int]:
    counts = [0] * 13
    for c in hand:
        counts[12 if c == 52 else c >> 2] += 1  # the joker counts as an ace
    return counts


CHECK_CARD = """
name = "check-me"
title = "a card with mistakes"
source = "tests/test_cards.py"

[[rule]]
id = "1"
text = "full house: the pair from the trips in front"
when = "full_house and not two_trips and n_pairs == 1"
front = "pair trips1"

[[rule]]
id = "2"
text = "no pair: a pair of aces in front"
when = "no_pair"
front = "pair A"

[[rule]]
id = "3"
text = "never: five of a kind of deuces"
when = "count(2) == 5"
front = "highest"

[[rule]]
id = "4"
text = "everything else but one pair: strongest back"
when = "not one_pair"
front = "strongest back"
"""


def test_the_checker_counts_each_rule_against_a_walk_over_the_hands(tmp_path) -> None:
    """The counts of ``check_card`` equal those of a plain loop over every hand of a deck,
    worked out from the hands' rank counts alone: hands no rule sets (one pair), settings that
    cannot be made (no pair: no pair of aces), dominated settings (a pair broken from the
    trips while a higher pair stays in back: the pair in front and the trips in back beat it
    in both hands; above a lower pair it fouls)."""
    from analysis.waylab.cardcheck import check_card

    # no joker: a full house's back is then never a straight or flush, so the rank counts alone
    # say which settings are dominated
    deck = "89TJQKA:cdh"
    path = tmp_path / "check-me.toml"
    path.write_text(CHECK_CARD)
    got = check_card(str(path), Deck.parse(deck))
    one_pair = no_pair = full_house = dominated = 0
    for hand in _brute_hands(deck):
        counts = [n for n in _rank_counts(hand) if n]
        pairs, trips = counts.count(2), counts.count(3)
        if trips == 1 and pairs == 1 and counts.count(4) == 0:
            full_house += 1
            ranks = _rank_counts(hand)
            dominated += ranks.index(2) > ranks.index(3)  # the pair is higher than the trips
        elif max(counts) == 1:
            no_pair += 1
        elif pairs == 1 and max(counts) == 2:
            one_pair += 1
    assert got.total == len(_brute_hands(deck))
    first, second, third, fourth = got.rules
    # the pair from the trips in front: dominated below a higher pair, a foul above a lower one
    assert first.sets == full_house and first.dominated == dominated > 0
    assert first.not_valid == full_house - dominated > 0
    assert second.sets == second.not_valid == no_pair > 0
    assert third.sets == 0 and third.reached == got.total - full_house - no_pair
    assert got.unset == one_pair > 0
    assert fourth.sets == got.total - full_house - no_pair - one_pair
    errors, warnings = got.errors(), got.warnings()
    assert any("set by no rule" in e for e in errors)
    assert any("rule 2 (2. no pair: a pair of aces in front): no valid setting" in e
               for e in errors)  # fmt: skip
    assert any("rule 3" in w and "holds for none" in w for w in warnings)
    assert any("rule 1" in w and "dominated" in w for w in warnings)


# Cards whose way plays some hands on a dominated setting, and the rules that do
DOMINATED_BY_THE_WAY = {
    # with a pair of tens to kings and an ace beside a straight or flush, the ace goes in front
    # even where the pair in front and a stronger back would beat both hands (its notes)
    "mgm-grand": {"3. straight or flush with a pair of tens to kings and an ace"},
}


def test_the_shipped_cards_check_clean() -> None:
    """On a deck with every structure, the joker and the wheel, every shipped card sets every
    hand, validly, on a non-dominated setting (but where the way itself says otherwise)."""
    from analysis.waylab.cardcheck import check_card

    for name in sorted(p.stem for p in WAY_DIR.glob("*.toml")):
        got = check_card(name, Deck.parse("A2345JQK:cdh+joker"))
        assert not got.errors(), (name, got.errors())
        allowed = DOMINATED_BY_THE_WAY.get(name, set())
        dominated = [w for w in got.warnings() if "dominated" in w]
        assert all(any(f"({rule}" in w for rule in allowed) for w in dominated), (name, dominated)


def test_way_check_on_the_command_line(tmp_path, capsys) -> None:
    from analysis.cli.main import main

    path = tmp_path / "check-me.toml"
    path.write_text(CHECK_CARD)
    assert main(["way", "check", str(path), "--deck", "9TJQKA:cd+joker"]) == 1
    out = capsys.readouterr().out
    assert "error: " in out and "warning: " in out
    assert main(["way", "check", "trump-plaza", "--deck", "9TJQKA:cd+joker"]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("{when}", "pare1 > 2").replace("{front}", "highest"))
    assert main(["way", "check", str(bad), "--deck", "9TJQKA:cd+joker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown fact 'pare1'" in err


# The Golden Nugget card (data/ways/golden-nugget.toml), hands set by hand from its published
# text: (hand, front ranks high first with the joker as A, the section of the text)
GOLDEN_NUGGET = [
    # two pair, K-9 with an ace: "jacks or better and 6's or better and an ace singleton"
    ("Kc Kd 9h 9s As 5d 2c", "99", "two pair: split, jacks or better"),
    # 6-3 with an ace: the high pair is under sevens, no other split holds: kept
    ("6c 6d 3h 3s As 9d 2c", "A9", "two pair: two pair in back"),
    # 8-3, no ace: "one pair is 7's or greater and no ace singleton"
    ("8c 8d 3h 3s Kd 9d 2c", "33", "two pair: split, one pair 7's"),
    # a full house with a pair of 2's and a king: kept
    ("9c 9d 9h 2c 2d Ks 5s", "K5", "full house: a pair of 2's"),
    ("9c 9d 9h 3c 3d Ks 5s", "33", "full house: split"),
    # four eights with an ace: kept, the ace and the king in front; without one: split
    ("8c 8d 8h 8s Ac Kd 2h", "AK", "four of a kind: 7 through 10: kept"),
    ("8c 8d 8h 8s Qc Jd 2h", "88", "four of a kind: 7 through 10: split"),
    # four kings with a pair of tens: kept, the tens in front
    ("Kc Kd Kh Ks Tc Td 2h", "TT", "four of a kind: jack through king: kept"),
    ("As Ad Ac Ah Jk Ks Kd", "KK", "five aces: a pair of kings"),
    # the wheel with two small pairs and a singleton ace: played as two pair, kept
    ("Ah 5c 5d 4h 4s 3c 2d", "A3", "two pair: two pair in back"),
    ("As Ad Ac Kh 9d 5c 2s", "AK", "three of a kind: three aces broken"),
    # a six-card straight: the lower straight (K down to 9) in back frees the ace for the front
    ("Ah Kd Qc Jc Th 9s 3d", "A3", "straights and flushes: a king-high or better front"),
]



# The MGM Grand card (data/ways/mgm-grand.toml), hands set by hand from the rules its notes
# state: pairs and quads in bands 2-6, 7-10, J-A
MGM_GRAND = [
    ("Kc Kd 8h 8s As 5d 2c", "88", "9. two pair: split"),
    ("Kc Kd 5h 5s As 9d 2c", "A9", "9. two pair, high pair jacks to kings, low pair 6 or lower"),
    ("Ac Ad 5h 5s Ks 9d 2c", "55", "9. two pair: split"),
    ("9c 9d 4h 4s As Kd 2c", "AK", "9. two pair, high pair 7s to 10s"),
    ("9c 9d 4h 4s Qs Jd 2c", "44", "9. two pair: split"),
    ("6c 6d 4h 4s Qs Jd 2c", "QJ", "9. two pair, high pair 2s to 6s"),
    ("7c 7d 7h 7s Ac Kd 2h", "AK", "4. four of a kind, 7s to 10s"),
    ("7c 7d 7h 7s Qc Jd 2h", "77", "4. four of a kind: split"),
    ("5c 5d 5h 5s Qc Jd 2h", "QJ", "4. four of a kind, 2s to 6s"),
    ("Ac Ad Ah As 9c 9d 2h", "AA", "2. four aces"),
    ("Ac Ad Ah As Kc Kd 2h", "KK", "2. four of a kind with a pair"),
    ("As Ad Ac Ah Jk Kd Ks", "KK", "1. five aces"),
    ("2c 2d 9h 9s 9c Ad Kh", "AK", "6. full house with pair of twos"),
    # a pair of tens, an ace and a straight of the other cards: the ace and a ten in front
    ("Ts Th Ac 9c 8d 7h 6s", "AT", "3. straight or flush with a pair of tens to kings and an ace"),
]



# The Bally's card (data/ways/ballys.toml), hands set by hand from its published text
BALLYS = [
    # the joker exception: A + joker make only the ace-high straight: aces in back, K-Q front
    ("Ah Jk Kd Qc Jh 5s 3d", "KQ", "straights and flushes: an ace-high straight"),
    # a lower straight with the joker (K down to 9) is played, the ace goes in front
    ("Ah Jk Kd Qc Jh 9s 3d", "A3", "straights and flushes: the highest two cards"),
    # the ace and joker make the wheel: the wheel in back, the queen and jack in front
    ("Ah Jk 2d 3c 4h Qs Jd", "QJ", "straights and flushes: the highest two cards"),
    # a straight (A down to 10) with a pair beside it: the pair in front
    ("9h 9d Tc Jh Qs Kd Ac", "99", "straights and flushes: with one pair"),
    # low-mid with a king: kept; low-high with a king only: split; mid-mid with an ace: kept
    ("9c 9d 4h 4s Kd 8c 2h", "K8", "two pairs: low-low or low-mid"),
    ("Jc Jd 4h 4s Kd 8c 2h", "44", "two pairs: split"),
    ("Tc Td 7h 7s Ad 8c 2h", "A8", "two pairs: low-high or mid-mid"),
    ("Kc Kd Jh Js Ad 8c 2h", "JJ", "two pairs: split"),
    # four nines never split (the two highest other cards in front); four queens with an ace
    # are kept, without one split
    ("9c 9d 9h 9s Kd 8c 2h", "K8", "four of a kind: twos thru nines"),
    ("Qc Qd Qh Qs Ad 8c 2h", "A8", "four of a kind: tens thru kings: kept"),
    ("Qc Qd Qh Qs Kd 8c 2h", "QQ", "four of a kind: tens thru kings: split"),
    # four aces with a pair of queens split (the default reading); with kings, kings in front
    ("Ac Ad Ah As Qd Qc 2h", "AA", "four of a kind: four aces: always split"),
    ("Ac Ad Ah As Kd Kc 2h", "KK", "four of a kind: four aces with a pair"),
    ("9c 9d 9h 2s 2d Ac Kh", "AK", "full house: a pair of 2's with an ace and a king"),
]



def test_the_ballys_four_aces_clause() -> None:
    hand = "Ac Ad Ah As Qd Qc 2h"
    assert set_one_hand(get_way("ballys[four-aces-pair=any-pair]"), hand).rule.startswith(
        "four of a kind: four aces with a pair")


# The Flamingo Hilton card (data/ways/flamingo-hilton.toml), hands set by hand from its text
FLAMINGO = [
    # both pairs 6's or less: kept, whatever else the hand holds
    ("6c 6d 3h 3s Qd 9c 2h", "Q9", "two pair: kept, both pairs 6's or less"),
    # both 10's or less with an ace: kept; without the ace, split
    ("Tc Td 8h 8s Ad 9c 2h", "A9", "two pair: kept, both pairs 10's or less"),
    ("Tc Td 8h 8s Kd 9c 2h", "88", "two pair: split"),
    # a pair of face cards, a pair of 5's or less and an ace: kept
    ("Qc Qd 4h 4s Ad 9c 2h", "A9", "two pair: kept, a pair of face cards"),
    ("Qc Qd 7h 7s Ad 9c 2h", "77", "two pair: split"),
    # four eights beside an ace and a king: kept; beside an ace and a nine: split
    ("8c 8d 8h 8s Ad Kc 2h", "AK", "four of a kind: 7 through 10: kept"),
    ("8c 8d 8h 8s Ad 9c 2h", "88", "four of a kind: 7 through 10: split"),
    # a straight (9 down to 5) and a flush (K-9-8-6-2 of spades): the straight frees a
    # king-high front, so it is played; with a queen instead, no front is king-high or better,
    # so the flush goes in back
    ("Ks 9s 8s 7d 6s 5h 2s", "K2", "straights and flushes: both a straight and a flush: the"),
    ("Qs 9s 8s 7d 6s 5h 2s", "75", "straights and flushes: both a straight and a flush: other"),
    # a royal flush with a nine and a deuce: broken for the king-high straight flush, the ace
    # and the deuce in front
    ("Ac Kc Qc Jc Tc 9c 2d", "A2", "royal flush: broken"),
]


# every published card's hand-set examples: (way, hand, front ranks high first with the joker as
# A, the start of the rule that sets it)
PUBLISHED_CARD_HANDS = [
    (way, *case)
    for way, cases in (("golden-nugget", GOLDEN_NUGGET), ("mgm-grand", MGM_GRAND),
                       ("ballys", BALLYS), ("flamingo-hilton", FLAMINGO))
    for case in cases
]  # fmt: skip


@pytest.mark.parametrize(("way", "hand", "front", "section"), PUBLISHED_CARD_HANDS)
def test_the_published_cards_set_hands_as_their_texts_say(way, hand, front, section) -> None:
    s = set_one_hand(get_way(way), hand)
    ranks = sorted(("A" if c.is_joker else str(c)[:-1] for c in s.low),
                   key="23456789TJQKA".index, reverse=True)  # fmt: skip
    assert ("".join(ranks), s.rule.startswith(section)) == (front, True), s.rule

