"""Side bets from independent truth.

(a) On small decks, every shipped paytable's rows equal a direct loop over every hand of the
deck (single-hand bets) or the plain double loop ``pairs_by_brute_force`` (deal bets), settled
by simple functions written out here; (b) full-deck figures by hand from the published class
counts (data/published/seven_card_classes.toml); (c) the command line.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from analysis.cli import main
from analysis.paytables import shipped_paytable, shipped_paytables
from analysis.sidebets import envy_table, price_sidebet, sidebet_report
from enumerate.bruteforce import deck_hands, pairs_by_brute_force
from enumerate.classes import SevenCardClass, classify_all, fortune_of_five
from enumerate.evaluate import SETTING_PAIRS, five_card_table
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import PLAYER_ACE_HIGH_PAI_GOW, DealerEvent
from tests.published import figures

ACE_HIGH_JOKER, ACE_HIGH_NATURAL = DealerEvent.ACE_HIGH_JOKER, DealerEvent.ACE_HIGH_NATURAL

DECKS = ["23569JQA:cd+joker", "2569TJQA:cd+joker", "TJQKA:cdh+joker"]
SINGLE = ["fortune", "dealer-bonus", "queens-dragon", "tiger-9", "chan-chu"]
PAIRED = ["push-ace-high", "jacks-beat"]
LOSS_HANDS, LOSS_DEALS = "all other hands", "all other deals"


def fixed_bits(b: int) -> int:
    """The brute-force reference flags a joker-ace pai gow as joker AND natural (bits 3);
    it is the joker's ace only (no-op once the reference is fixed)."""
    return b & ~ACE_HIGH_NATURAL if b & ACE_HIGH_JOKER else b


@pytest.fixture(scope="module", params=DECKS)
def deck_truth(request):
    """Per hand of the deck, from its own cards: Fortune class, flags, whether the gli way's
    low hand is nine-high (two different ranks, the higher a nine; the joker is an ace); and
    the brute-force pair counts with a column per raw flag value."""
    deck = Deck.parse(request.param)
    hands = deck_hands(deck)
    five = five_card_table()
    cls, _best, flags, _jacks = classify_all(hands, five.ids, fortune_of_five(five),
                                             five.category)  # fmt: skip
    gli = get_way("gli")
    setting = apply_way(gli, hands, Rules()).setting
    front = hands[np.arange(len(hands))[:, None], np.array(SETTING_PAIRS)[setting]]
    ranks = np.where(front == 52, 12, front >> 2)
    nine = (ranks.max(axis=1) == 7) & (ranks[:, 0] != ranks[:, 1])
    brute = pairs_by_brute_force(deck, Rules(), gli, gli, list(range(32)))
    return deck, cls, flags, nine, brute


def paying(table) -> list[str]:
    return [e for e, p in table.pays if p != -1]


def single_expected(bet, table, cls, flags, nine) -> Counter:
    """Settle every hand one by one."""
    out: Counter = Counter()
    pays = paying(table)
    for c, f, nh in zip(cls, flags, nine, strict=True):
        label = SevenCardClass(int(c)).label
        if bet in ("fortune", "chan-chu"):
            event = label if label in pays else LOSS_HANDS
        elif bet == "dealer-bonus":  # a Fortune hand first, else a nine-high low hand
            if label in pays:
                event = label
            elif nh and "nine-high low hand" in pays:
                event = "nine-high low hand"
            else:
                event = LOSS_HANDS
        elif bet == "queens-dragon":
            event = "dealer queen-high pai gow" if f & 8 else LOSS_HANDS
        else:
            event = "dealer nine-high low hand" if nh else LOSS_HANDS
        out[event] += 1
    return out


def paired_expected(bet, table, brute) -> Counter:
    out: Counter = Counter()
    pays = paying(table)
    for p in range(brute.joint.shape[0]):
        for raw in range(32):
            n = int(brute.joint[p, raw])
            b = fixed_bits(raw)
            event = LOSS_DEALS
            if bet == "push-ace-high" and b & 3:
                if p == PLAYER_ACE_HIGH_PAI_GOW and "player and dealer ace-high pai gow" in pays:
                    event = "player and dealer ace-high pai gow"
                elif b & 1:
                    event = "dealer ace-high pai gow, joker as the ace"
                else:
                    event = "dealer ace-high pai gow, natural ace"
            elif bet == "jacks-beat" and b & 4:
                label = SevenCardClass(0 if p == PLAYER_ACE_HIGH_PAI_GOW else p).label
                event = label if label in pays else LOSS_DEALS
            out[event] += n
    return out


TABLES = [(t.bet, t.name) for t in shipped_paytables() if t.bet in SINGLE + PAIRED]


@pytest.mark.parametrize("bet,name", TABLES)
def test_side_bet_equals_direct_count(deck_truth, bet, name):
    deck, cls, flags, nine, brute = deck_truth
    table = shipped_paytable(bet, name)
    got = price_sidebet(bet, name, deck=deck)
    if bet in SINGLE:
        expected = single_expected(bet, table, cls, flags, nine)
        assert got.total == comb(deck.size, 7)
    else:
        expected = paired_expected(bet, table, brute)
        assert got.total == comb(deck.size, 7) * comb(deck.size - 7, 7)
    rows = dict(zip(got.rows["event"], got.rows["combinations"], strict=True))
    assert {k: v for k, v in rows.items() if v} == {k: v for k, v in expected.items() if v}
    assert sum(rows.values()) == got.total
    ret = sum((table.pay(e) if e in paying(table) else -1) * n for e, n in expected.items())
    assert got.house_edge == -Fraction(ret, got.total)
    assert got.template == table.template


def test_events_happen_on_the_small_decks(deck_truth):
    deck, _, flags, nine, brute = deck_truth
    if deck.name == "TJQKA:cdh+joker":
        return
    assert (flags & 8).any() and nine.any() and (flags & 4).any()
    counts = paired_expected("push-ace-high", shipped_paytable("push-ace-high", "5-15-40"), brute)
    assert min(counts.values()) > 0 and len(counts) == 4


def test_envy_by_direct_count(deck_truth):
    deck, cls, *_ = deck_truth
    table = shipped_paytable("envy", "5000")
    per = sum(table_amount * Fraction(int((cls == c).sum()), len(cls))
              for c in SevenCardClass for e, table_amount in table.envy
              if e == c.label)  # fmt: skip
    got = envy_table("5000", deck=deck, players=1)  # 17 cards seat one player and the dealer
    assert got.per_other_player == per and got.value(2) == per and got.value() == 0


# full deck: hand-derived from the published class counts -----------------------------------


@pytest.fixture(scope="module")
def published():
    f = figures("seven_card_classes")
    return {k.removeprefix("hands.class."): v["value"] for k, v in f.items()}


NATURAL_7SF = 4 * 8  # per suit, the runs A-7, 2-8, ..., 8-A: 8 seven-card straight flushes


def test_fortune_tables_1_and_2_by_hand(published):
    total = published["hands.total"]
    sf7 = published["7-card straight flush (natural + joker)"]
    rest = ["royal flush + royal match", "five aces", "royal flush", "straight flush",
            "four of a kind", "full house", "flush", "three of a kind", "straight"]  # fmt: skip
    n = {k: published[k] for k in rest}
    n["natural 7-card straight flush"] = NATURAL_7SF
    n["7-card straight flush with joker"] = sf7 - NATURAL_7SF
    below = published["nothing better than two pair"]  # three pair + nothing: never paid
    # table 2: three pair loses
    pays2 = shipped_paytable("fortune", "2")
    ret2 = sum(pays2.pay(e) * k for e, k in n.items()) - below
    t2 = price_sidebet("fortune", "2")
    assert t2.house_edge == -Fraction(ret2, total)
    # table 1: three pair pushes (the one count not published: read off the table)
    t1 = price_sidebet("fortune", "1")
    three_pair = t1.combinations("three pair")
    assert 0 < three_pair < below
    pays1 = shipped_paytable("fortune", "1")
    ret1 = sum(pays1.pay(e) * k for e, k in n.items()) - (below - three_pair)
    assert t1.house_edge == -Fraction(ret1, total)
    for e, k in n.items():
        assert t1.combinations(e) == k


def test_envy_by_hand(published):
    """Common envy table, $5000 top: expected dollars per other player from the published
    counts; about 0.92% of a $5 bet per other player (Wizard of Odds, Fortune pai gow)."""
    amounts = {"royal flush + royal match": 1000, "five aces": 250, "royal flush": 50,
               "straight flush": 20, "four of a kind": 5}  # fmt: skip
    sf7 = published["7-card straight flush (natural + joker)"]
    dollars = 5000 * NATURAL_7SF + 500 * (sf7 - NATURAL_7SF)
    dollars += sum(a * published[k] for k, a in amounts.items())
    per = Fraction(dollars, published["hands.total"])
    got = envy_table("5000", players=6)
    assert got.per_other_player == per
    assert got.value() == 5 * per
    assert abs(float(per / 5) - 0.0092) < 0.0001


def test_queens_dragon_by_hand():
    """Queen-high pai gow: a queen and six distinct lower ranks (no ace, king or joker) with no
    five in a row, suited so that no five share a suit."""
    lower = range(10)  # deuce .. jack
    rank_sets = sum(
        1 for six in combinations(lower, 6)
        if not any(all(r in (*six, 10) for r in range(lo, lo + 5)) for lo in range(7))
    )  # fmt: skip
    suitings = 4**7 - 4 * (comb(7, 5) * 3**2 + comb(7, 6) * 3 + 1)
    t = price_sidebet("queens-dragon")
    assert t.combinations("dealer queen-high pai gow") == rank_sets * suitings == 2_719_500
    assert t.house_edge == 1 - Fraction(51 * 2_719_500, comb(53, 7))


# command line -------------------------------------------------------------------------------

SMALL = ["--deck", "23569JQA:cd+joker"]


def test_list(capsys):
    assert main(["sidebet", "--list", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["bet"] for r in rows] == [
        "fortune", "envy", "dealer-bonus", "push-ace-high", "queens-dragon", "tiger-9",
        "jacks-beat", "chan-chu",
    ]  # fmt: skip
    by_bet = {r["bet"]: r for r in rows}
    assert by_bet["fortune"]["paytables"] == "1, 2, 3, 4, 5, 6, 7"
    assert "TEMPLATE, not a real casino table" in by_bet["jacks-beat"]["paytables"]
    assert main(["sidebet", "--list"]) == 0
    assert "push-ace-high" in capsys.readouterr().out


def test_template_is_marked_in_every_format(capsys):
    assert main(["sidebet", "jacks-beat", *SMALL]) == 0
    assert capsys.readouterr().out.startswith("TEMPLATE, not a real casino table")
    assert main(["sidebet", "chan-chu", *SMALL, "--format", "json", "--players", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["template"] is True and data["envy"]["template"] is True


def test_fortune_with_envy_json(capsys):
    assert main(["sidebet", "fortune", "--paytable", "3", "--players", "2", "--format",
                 "json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["paytable"], data["template"]) == ("fortune", "3", False)
    assert data["total"] == comb(53, 7)
    envy = data["envy"]
    assert (envy["paytable"], envy["players"], envy["others"]) == ("5000", 2, 1)
    assert envy["value_fraction"] == envy["per_other_player_fraction"]


def test_envy_alone(capsys):
    assert main(["sidebet", "envy", "--paytable", "3000", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "players at the table: 4 (the bettor included, the dealer not): 3 other" in out


def test_house_way_changes_tiger_9():
    deck = Deck.parse("23569JQA:cd+joker")
    gli = sidebet_report("tiger-9", deck=deck).returns
    tp = sidebet_report("tiger-9", deck=deck, house_way="trump-plaza").returns
    assert gli is not None and tp is not None
    assert (gli.house_way, tp.house_way) == ("gli", "trump-plaza")


@pytest.mark.parametrize(
    "argv,message",
    [
        (["sidebet", "roulette"], "unknown side bet 'roulette' (known: fortune, envy, "
         "dealer-bonus, push-ace-high, queens-dragon, tiger-9, jacks-beat, chan-chu)"),
        (["sidebet", "fortune", "--paytable", "9"],
         "unknown paytable '9' for fortune (known: 1, 2, 3, 4, 5, 6, 7)"),
        (["sidebet", "fortune", "--paytable", "/nonexistent/x.toml"],
         "/nonexistent/x.toml: no such file"),
        (["sidebet", "fortune", "--players", "7"], "--players 7: the 53-card deck full deals at "
         "most 6 players besides the dealer (7 cards each)"),
        (["sidebet", "fortune", "--players", "0"],
         "--players 0: at least 1 (the players at the table, the bettor included)"),
        (["sidebet", "fortune", "--players", "2", *SMALL],
         "--players 2: the 17-card deck 23569JQA:cd+joker deals at most 1 players"),
        (["sidebet", "tiger-9", "--players", "3"], "side bet tiger-9 has no envy bonus; "
         "--players and --envy apply to fortune, envy, chan-chu"),
        (["sidebet", "fortune", "--house-way", "gli"],
         "side bet fortune does not depend on the house way (--house-way)"),
        (["sidebet", "fortune", "--envy", "4000"], "unknown paytable '4000' for envy"),
        (["sidebet"], "name a side bet (see: paigow sidebet --list)"),
        (["sidebet", "fortune", "--list"], "--list takes no side bet name"),
    ],
)  # fmt: skip
def test_sidebet_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("paigow: error: ")
    assert message in err
