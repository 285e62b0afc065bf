"""Paytables as data: the shipped tables are the published ones of docs/rules.md; every problem in a
paytable file is ONE line naming the file, the field and what is wrong."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analysis.bets.paytables import find_paytable, shipped_paytable, shipped_paytables
from analysis.cli.main import main
from analysis.games.paytables import BET_EVENTS, FORTUNE_EVENTS, PaytableError, load_paytable

# docs/rules.md, "Side bets": Fortune tables 1 to 7, rows in the Fortune order (three pair last)
FORTUNE = {
    "1": [5000, 1000, 750, 250, 100, 50, 20, 5, 4, 3, 2, "push"],
    "2": [8000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2, "lose"],
    "3": [5000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2, "lose"],
    "4": [2500, 1000, 750, 250, 125, 50, 25, 5, 4, 3, 2, "lose"],
    "5": [5000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2, "lose"],
    "6": [5000, 1000, 500, 300, 110, 45, 25, 5, 4, 3, 2, "lose"],
    "7": [8000, 2000, 1000, 400, 150, 50, 25, 5, 4, 3, 2, "lose"],
}
HANDS = [
    "natural 7-card straight flush", "royal flush + royal match",
    "7-card straight flush with joker", "five aces", "royal flush", "straight flush",
    "four of a kind", "full house", "flush", "three of a kind", "straight", "three pair",
]  # fmt: skip


def _pay(x: int | str) -> Fraction:
    if isinstance(x, int):
        return Fraction(x)
    return {"push": Fraction(0), "lose": Fraction(-1)}[x]


def test_fortune_events_are_the_rules_order():
    assert list(FORTUNE_EVENTS) == HANDS


@pytest.mark.parametrize("name", sorted(FORTUNE))
def test_fortune_tables_are_published(name):
    t = shipped_paytable("fortune", name)
    assert not t.template
    assert [t.pay(h) for h in HANDS] == [_pay(x) for x in FORTUNE[name]]
    assert t.pay("nothing") == -1


def test_envy_dealer_bonus_push_ace_high_and_single_event_tables():
    """docs/rules.md, "Side bets": the common envy table ($5000 or $3000), Dealer Bonus, Push Ace
    High 5-15-40 and 5-12-40, Queen's Dragon 50, Tiger 9 30."""
    for top in (5000, 3000):
        envy = dict(shipped_paytable("envy", str(top)).envy)
        assert envy == dict(zip(HANDS[:7], map(Fraction, [top, 1000, 500, 250, 50, 20, 5]),
                                strict=True))  # fmt: skip
    bonus = shipped_paytable("dealer-bonus", "1")
    # reading: one published "7-card straight flush" line (500) covers natural and joker
    assert [bonus.pay(h) for h in BET_EVENTS["dealer-bonus"]] == [
        500, 500, 500, 500, 150, 50, 25, 4, 3, 2, 2, -1, 5
    ]
    for name, joker in (("5-15-40", 15), ("5-12-40", 12)):
        t = shipped_paytable("push-ace-high", name)
        assert [p for _, p in t.pays] == [40, joker, 5]
    assert shipped_paytable("queens-dragon", "50").pays == (("dealer queen-high pai gow", 50),)
    assert shipped_paytable("tiger-9", "30").pays == (("dealer nine-high low hand", 30),)


def test_templates_are_marked():
    templates = {(t.bet, t.name) for t in shipped_paytables() if t.template}
    assert templates == {("jacks-beat", "template"), ("chan-chu", "template")}
    for bet in ("jacks-beat", "chan-chu"):
        t = shipped_paytable(bet, "template")
        assert "not a real casino table" in t.title
        assert "TEMPLATE, NOT A REAL CASINO TABLE" in Path(t.path).read_text()


def test_find_by_name_stem_or_file(tmp_path):
    assert find_paytable("fortune", "fortune-3").name == "3"
    path = tmp_path / "mine.toml"
    path.write_text('bet = "tiger-9"\nname = "mine"\n[pays]\n"dealer nine-high low hand" = 25\n')
    assert find_paytable("tiger-9", str(path)).pays == (("dealer nine-high low hand", 25),)
    with pytest.raises(PaytableError) as err:
        find_paytable("fortune", str(path))
    assert str(err.value) == f"{path}: bet: this paytable is for tiger-9, not fortune"
    with pytest.raises(PaytableError) as err:
        shipped_paytable("push-ace-high", "5-10-40")
    assert str(err.value) == (
        "unknown paytable '5-10-40' for push-ace-high (known: 5-12-40, 5-15-40)"
    )


HEAD = 'bet = "fortune"\nname = "x"\n'
FORTUNE_KNOWN = ", ".join(HANDS)


@pytest.mark.parametrize(
    "text,message",
    [
        ('name = "x"\n[pays]\nstraight = 2\n', "bet: missing (required)"),
        ('bet = "fortune"\n[pays]\nstraight = 2\n', "name: missing (required)"),
        (HEAD, "pays: missing (required)"),
        ('bet = "roulette"\nname = "x"\n', "bet: unknown bet 'roulette' (known: chan-chu, "
         "dealer-bonus, envy, fortune, jacks-beat, push-ace-high, queens-dragon, tiger-9)"),
        (HEAD + '[pays]\n"royal flsh" = 100\n',
         f'pays."royal flsh": unknown event for bet fortune (known: {FORTUNE_KNOWN})'),
        (HEAD + "[pays]\nstraight = -2\n",
         'pays.straight: negative pay -2 (pays are to 1; write "lose" for a losing hand)'),
        (HEAD + '[pays]\nstraight = "two"\n',
         "pays.straight: not a number: 'two' (expected a pay to 1 such as 2 or 0.5, \"push\" or "
         '"lose")'),
        (HEAD + "[pays]\nstraight = true\n",
         "pays.straight: not a number: True (expected a pay to 1 such as 2 or 0.5, \"push\" or "
         '"lose")'),
        (HEAD + "pays = 5\n", "pays: expected a table of event = pay"),
        (HEAD + '[pays]\nstraight = "lose"\n',
         "pays: no event pays (at least one pay above 0 is needed)"),
        (HEAD + 'template = "no"\n[pays]\nstraight = 2\n',
         "template: expected true or false, got 'no'"),
        (HEAD + 'odds = 3\n[pays]\nstraight = 2\n',
         "odds: unknown field (known: bet, envy, name, note, pays, source, template, title)"),
        ('bet = "tiger-9"\nname = "x"\n[pays]\n"dealer nine-high low hand" = 30\n'
         '[envy]\n"four of a kind" = 5\n', "envy: bet tiger-9 has no envy bonus"),
        (HEAD + '[pays]\nstraight = 2\n[envy]\n"four of a kind" = -5\n',
         'envy."four of a kind": negative pay -5 (amounts are dollars)'),
        ('bet = "envy"\nname = "x"\n', "envy: missing (required)"),
        (HEAD + 'title = 3\n[pays]\nstraight = 2\n', "title: expected text, got 3"),
        ('bet = "fortune"\nname = " "\n[pays]\nstraight = 2\n', "name: expected text, got ' '"),
    ],
)  # fmt: skip
def test_bad_paytable_is_one_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(PaytableError) as err:
        load_paytable(path)
    assert str(err.value) == f"{path}: {message}"
    assert isinstance(err.value, ValueError) and "\n" not in str(err.value)


def test_exact_pays_from_decimals(tmp_path):
    path = tmp_path / "half.toml"
    path.write_text(HEAD + '[pays]\nstraight = 0.5\nflush = "3/2"\n"three pair" = 0\n')
    t = load_paytable(path)
    assert t.pay("straight") == Fraction(1, 2) and t.pay("flush") == Fraction(3, 2)
    assert t.pay("three pair") == 0  # a pay of 0 is a push
    assert [e for e, _ in t.pays] == ["flush", "straight", "three pair"]  # the bet's order


def test_cli_bad_paytable_file_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(HEAD + "[pays]\nstraight = -2\n")
    assert main(["sidebet", "fortune", "--paytable", str(path), "--deck", "TJQKA:cdh+joker"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f'paigow: error: {path}: pays.straight: negative pay -2 (pays are to 1; write "lose" '
        "for a losing hand)\n"
    )
