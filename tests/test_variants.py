"""Variants as data: the shipped files say what docs/rules.md says; a bad file is one clear line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analysis.games.players import Player
from analysis.games.variants import (
    DealerRule,
    Variant,
    VariantError,
    get_variant,
    load_variant,
    variant_names,
)
from enumerate.houseways import registered_ways
from enumerate.vocabulary import DealerEvent

ACE_HIGH_JOKER, ACE_HIGH_NATURAL = DealerEvent.ACE_HIGH_JOKER, DealerEvent.ACE_HIGH_NATURAL
TWO_JACKS, QUEEN_HIGH, NINE_HIGH_LOW = (
    DealerEvent.TWO_JACKS, DealerEvent.QUEEN_HIGH, DealerEvent.NINE_HIGH_LOW,
)  # fmt: skip


def test_shipped_variants_are_the_rules_table():
    """docs/rules.md, "Variants (main wager)": exposure, commission and the special rule of each
    game."""
    assert variant_names() == ["commission-free", "dealer-open", "ez", "face-up", "traditional"]
    expected = {
        "traditional": (False, Fraction(1, 20), ()),
        "face-up": (True, Fraction(0), (("ace-high pai gow", "push"),)),
        "dealer-open": (True, Fraction(0), (("two or more jacks", "dealer-wins"),)),
        "ez": (False, Fraction(0), (("queen-high pai gow", "push"),)),
        "commission-free": (False, Fraction(0), (("nine-high low hand", "push"),)),
    }
    for name, (exposed, commission, rules) in expected.items():
        v = get_variant(name)
        assert v.name == name and v.house_way == "gli"
        assert v.dealer_exposed is exposed
        assert v.commission == commission
        assert tuple((r.event, r.effect) for r in v.dealer_rules) == rules
        assert v.default_player == (Player.BEST_RESPONSE if exposed else Player.HOUSE_WAY)


def test_flag_masks_follow_from_the_rules():
    masks = {n: get_variant(n).flag_mask for n in variant_names()}
    assert masks == {
        "traditional": 0,
        "face-up": ACE_HIGH_JOKER | ACE_HIGH_NATURAL,
        "dealer-open": TWO_JACKS,
        "ez": QUEEN_HIGH,
        "commission-free": NINE_HIGH_LOW,
    }
    assert get_variant("traditional").win_pays == Fraction(19, 20)


def test_first_matching_rule_applies():
    v = Variant(
        "x", False, Fraction(0),
        (DealerRule("queen-high pai gow", "dealer-wins"), DealerRule("nine-high low hand", "push")),
    )  # fmt: skip
    assert v.rule_for(QUEEN_HIGH | NINE_HIGH_LOW).effect == "dealer-wins"
    assert v.rule_for(NINE_HIGH_LOW).effect == "push"
    assert v.rule_for(TWO_JACKS) is None
    assert v.flag_mask == QUEEN_HIGH | NINE_HIGH_LOW


def test_a_new_variant_is_a_file(tmp_path):
    path = tmp_path / "jacks-push.toml"
    path.write_text(
        'name = "jacks-push"\ndealer_exposed = false\ncommission = 0.025\n'
        'house_way = "trump-plaza"\n[dealer_rules]\n"two or more jacks" = "push"\n'
    )
    v = get_variant(str(path))
    assert v.commission == Fraction(1, 40) and v.house_way == "trump-plaza"
    assert v.flag_mask == TWO_JACKS
    assert v.dealer_rules[0].label == "dealer two or more jacks: push"


def test_unknown_variant_names_the_known_ones():
    with pytest.raises(VariantError) as err:
        get_variant("pai-gow-deluxe")
    assert str(err.value) == (
        "unknown variant 'pai-gow-deluxe' (known: commission-free, dealer-open, ez, face-up, "
        "traditional)"
    )


GOOD = 'name = "v"\ndealer_exposed = true\ncommission = "5%"\n'


@pytest.mark.parametrize(
    "text,message",
    [
        ('dealer_exposed = true\ncommission = 0\n', "name: missing (required)"),
        ('name = "v"\ncommission = 0\n', "dealer_exposed: missing (required)"),
        ('name = "v"\ndealer_exposed = "yes"\ncommission = 0\n',
         "dealer_exposed: expected true or false, got 'yes'"),
        ('name = "v"\ndealer_exposed = true\ncommission = "lots"\n',
         "commission: expected a share of a win from 0 to below 1 (0, \"5%\", 0.05), got 'lots'"),
        ('name = "v"\ndealer_exposed = true\ncommission = -0.05\n',
         "commission: expected a share of a win from 0 to below 1 (0, \"5%\", 0.05), got -0.05"),
        (GOOD + 'house_way = "nope"\n',
         "house_way: unknown house way 'nope' (known: {ways})"),
        (GOOD + '[dealer_rules]\n"three aces" = "push"\n',
         'dealer_rules."three aces": unknown dealer event (known: ace-high pai gow, ace-high pai '
         "gow, joker as the ace, ace-high pai gow, natural ace, two or more jacks, queen-high pai "
         "gow, nine-high low hand; or a condition over the dealer's hand: column 7: unexpected "
         "'aces')"),
        (GOOD + '[dealer_rules]\n"player.fortune == flush" = "push"\n',
         'dealer_rules."player.fortune == flush": unknown dealer event (known: ace-high pai gow, '
         "ace-high pai gow, joker as the ace, ace-high pai gow, natural ace, two or more jacks, "
         "queen-high pai gow, nine-high low hand; or a condition over the dealer's hand: column "
         "1: unknown fact 'player.fortune' in the dealer's hand (known: dealer.ace_high_pai_gow, "
         "dealer.ace_high_pai_gow_joker, dealer.ace_high_pai_gow_natural, dealer.two_jacks, "
         "dealer.queen_high_pai_gow, dealer.nine_high_low))"),
        (GOOD + '[dealer_rules]\n"two or more jacks" = "win"\n',
         'dealer_rules."two or more jacks": unknown effect \'win\' (known: push, dealer-wins, '
         "player-win-push)"),
        (GOOD + 'colour = "red"\n',
         "colour: unknown field (known: commission, dealer_exposed, dealer_rules, description, "
         "house_way, name, readings, source, title)"),
        (GOOD + '[dealer_rules]\n"two or more jacks" = "push"\n[readings.x]\n'
         'dealer_rules = { "queen-high pai gow" = "push" }\n',
         'readings.x.dealer_rules."queen-high pai gow": the variant has no dealer rule for this '
         "event"),
        (GOOD + '[dealer_rules]\n"two or more jacks" = "push"\n[readings.x]\n'
         'dealer_rules = { "two or more jacks" = "lose" }\n',
         'readings.x.dealer_rules."two or more jacks": unknown effect \'lose\' (known: push, '
         "dealer-wins, player-win-push)"),
        (GOOD + '[readings.x]\nmeaning = "typo"\n',
         'readings.x.meaning: unknown field (known: dealer_rules, means)'),
    ],
)  # fmt: skip
def test_bad_variant_file_is_one_line(tmp_path, text, message):
    path = tmp_path / "v.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as err:
        load_variant(path)
    ways = ", ".join(w.name for w in registered_ways())  # tests may register more ways
    assert str(err.value) == f"{path}: {message.replace('{ways}', ways)}"
    assert "\n" not in str(err.value)


def test_a_reading_replaces_the_effects_it_names():
    """docs/rules.md: ez and commission-free push the whole wager; their reading
    ``winning-bets-push`` pushes only the bets the player would win."""
    for name, event in (("ez", "queen-high pai gow"), ("commission-free", "nine-high low hand")):
        v = get_variant(f"{name}[winning-bets-push]")
        assert v.name == f"{name}[winning-bets-push]" and v.reading == "winning-bets-push"
        assert tuple((r.event, r.effect) for r in v.dealer_rules) == ((event, "player-win-push"),)
        assert v.flag_mask == get_variant(name).flag_mask
    with pytest.raises(VariantError, match=r"^variant 'ez' has no reading 'wins' \(readings: "
                                           r"winning-bets-push\)$"):  # fmt: skip
        get_variant("ez[wins]")
    with pytest.raises(VariantError, match="has no reading"):
        get_variant("traditional[winning-bets-push]")


def test_a_dealer_rule_is_a_condition_of_the_bet_vocabulary(tmp_path):
    """data/dealer_events.toml names the shipped events as conditions over the dealer's hand;
    a variant may write such a condition itself, and it settles the same dealer hands."""
    named = get_variant("dealer-open")
    path = tmp_path / "v.toml"
    path.write_text(GOOD + '[dealer_rules]\n"dealer.two_jacks" = "dealer-wins"\n')
    written = load_variant(path)
    both = GOOD + ('[dealer_rules]\n"dealer.two_jacks and not dealer.queen_high_pai_gow" = '
                   '"dealer-wins"\n')  # fmt: skip
    path.write_text(both)
    combined = load_variant(path)
    assert written.flag_mask == named.flag_mask == TWO_JACKS
    assert combined.flag_mask == TWO_JACKS | QUEEN_HIGH
    for bits in range(32):
        assert (written.rule_for(bits) is None) == (named.rule_for(bits) is None) == (
            not bits & TWO_JACKS)  # fmt: skip
        assert (combined.rule_for(bits) is not None) == bool(
            bits & TWO_JACKS and not bits & QUEEN_HIGH)  # fmt: skip


def test_bad_toml_and_missing_file(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text("name = \n")
    with pytest.raises(VariantError, match=rf"^{path}: not valid TOML: "):
        load_variant(path)
    with pytest.raises(VariantError) as err:
        load_variant(tmp_path / "none.toml")
    assert str(err.value) == f"{tmp_path / 'none.toml'}: no such file"


def test_shipped_files_are_named_after_their_variant():
    folder = Path(__file__).resolve().parents[1] / "data" / "variants"
    assert sorted(p.stem for p in folder.glob("*.toml")) == variant_names()
