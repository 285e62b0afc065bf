import pytest

from enumerate.cards import JOKER, Card, Hand, Rank, Suit, parse_cards
from enumerate.rules import Deck, Rules


def test_card_ids_follow_rank_then_suit():
    assert Card.parse("2c").id == 0
    assert Card.parse("2s").id == 3
    assert Card.parse("As").id == 51
    assert JOKER.id == 52
    assert Card.parse("Ah").rank is Rank.ACE and Card.parse("Ah").suit is Suit.HEARTS


@pytest.mark.parametrize("token", ["Jk", "JK", "Joker", "joker", "X", "x"])
def test_joker_spellings(token):
    assert Card.parse(token) == JOKER


@pytest.mark.parametrize(
    "token,expected", [("10h", "Th"), ("tH", "Th"), ("AS", "As"), ("qd", "Qd")]
)
def test_ten_and_any_case(token, expected):
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("bad", ["1h", "Ax", "11c", "h", "", "Kk", "JJ"])
def test_unknown_tokens_are_named(bad):
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(bad)


def test_parse_errors_name_the_token():
    with pytest.raises(ValueError, match=r"duplicate card 'x' \(Jk\)"):
        parse_cards("Jk As x")
    with pytest.raises(ValueError, match="'Zz'"):
        parse_cards("As Zz")
    with pytest.raises(ValueError, match="expected 7 cards, got 6"):
        Hand.parse("As Ks Qs Js Ts 9s")


def test_hand_mask_and_str():
    hand = Hand.parse("As, Kd 10h Tc 2s 3d Jk")
    assert str(hand) == "As Kd Th Tc 2s 3d Jk"
    assert hand.mask == (1 << 51) | (1 << 45) | (1 << 34) | (1 << 32) | (1 << 3) | (1 << 5) | (
        1 << 52
    )
    assert hand.has_joker


def test_rules_and_decks():
    assert Rules().wheel == "second"
    with pytest.raises(ValueError, match="wheel"):
        Rules(wheel="high")  # type: ignore[arg-type]
    assert Deck.full().size == 53
    assert Deck.parse("52").size == 52
    small = Deck.parse("A2345:cdh+joker")
    assert small.size == 16 and small.name == "2345A:cdh+joker"
    assert Deck.parse(small.name) == small
    with pytest.raises(ValueError, match="deck"):
        Deck.parse("AK")
