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

from analysis.bets.paytables import shipped_paytable, shipped_paytables
from analysis.cli.main import main
from analysis.pricing.envy import price_envy_table
from analysis.pricing.sidebets import price_sidebet, sidebet_report
from enumerate.bruteforce import deck_hands, pairs_by_brute_force
from enumerate.classes import classify_all, fortune_of_five
from enumerate.evaluate import SETTING_PAIRS, five_card_table
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import (
    ACE_HIGH_PAI_GOW_EVENTS,
    ALL_DEALER_EVENTS,
    PLAYER_ACE_HIGH_PAI_GOW,
    DealerEvent,
    HandFlag,
    SevenCardClass,
)
from tests.published import class_counts, lines

# the first two have every special hand (ace-high pai gow with and without the joker,
# queen-high pai gow, nine-high low hands, two jacks); the last two have four suits (suit
# orbits of 24 hands): royals, five aces and two jacks; the joker's wheel and four of a kind
EVERY_EVENT_DECKS = ["23569JQA:cd+joker", "2569TJQA:cd+joker"]
DECKS = [*EVERY_EVENT_DECKS, "TJQKA:cdh+joker", "JQKA:cdhs+joker", "A234:cdhs+joker"]
RAW_BITS = range(ALL_DEALER_EVENTS + 1)  # every combination of dealer events
SINGLE = ["fortune", "dealer-bonus", "queens-dragon", "tiger-9", "chan-chu"]
PAIRED = ["push-ace-high", "jacks-beat"]
LOSS_HANDS, LOSS_DEALS = "all other hands", "all other deals"


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
    brute = pairs_by_brute_force(deck, Rules(), gli, gli, list(RAW_BITS))
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
            event = "dealer queen-high pai gow" if f & HandFlag.QUEEN_HIGH_PAI_GOW else LOSS_HANDS
        else:
            event = "dealer nine-high low hand" if nh else LOSS_HANDS
        out[event] += 1
    return out


def paired_expected(bet, table, brute) -> Counter:
    out: Counter = Counter()
    pays = paying(table)
    for p in range(brute.joint.shape[0]):
        for b in RAW_BITS:
            n = int(brute.joint[p, b])
            event = LOSS_DEALS
            if bet == "push-ace-high" and b & ACE_HIGH_PAI_GOW_EVENTS:
                if p == PLAYER_ACE_HIGH_PAI_GOW and "player and dealer ace-high pai gow" in pays:
                    event = "player and dealer ace-high pai gow"
                elif b & DealerEvent.ACE_HIGH_JOKER:
                    event = "dealer ace-high pai gow, joker as the ace"
                else:
                    event = "dealer ace-high pai gow, natural ace"
            elif bet == "jacks-beat" and b & DealerEvent.TWO_JACKS:
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
    deck, cls, flags, nine, brute = deck_truth
    if len(deck.suits) == 4:
        assert (cls == SevenCardClass.FOUR_OF_A_KIND).any()
        assert (cls == SevenCardClass.FIVE_ACES).any()
    if deck.name not in {Deck.parse(d).name for d in EVERY_EVENT_DECKS}:
        assert not (flags & HandFlag.PAI_GOW).any()  # five ranks or fewer: always a pair
        return
    assert (flags & HandFlag.QUEEN_HIGH_PAI_GOW).any() and nine.any()
    assert (flags & HandFlag.JOKER_IS_ACE).any()
    counts = paired_expected("push-ace-high", shipped_paytable("push-ace-high", "5-15-40"), brute)
    assert min(counts.values()) > 0 and len(counts) == 4


def test_envy_by_direct_count(deck_truth):
    deck, cls, *_ = deck_truth
    table = shipped_paytable("envy", "5000")
    per = sum(table_amount * Fraction(int((cls == c).sum()), len(cls))
              for c in SevenCardClass for e, table_amount in table.envy
              if e == c.label)  # fmt: skip
    got = price_envy_table("5000", deck=deck, players=1)  # 17 cards seat one player and the dealer
    assert got.per_other_player == per and got.value(2) == per and got.value() == 0


# full deck: hand-derived from the published class counts -----------------------------------


@pytest.fixture(scope="module")
def published():
    return class_counts()


NATURAL_7SF = 4 * 8  # per suit, the runs A-7, 2-8, ..., 8-A: 8 seven-card straight flushes


def three_pair_hands() -> int:
    """Full-deck hands whose Fortune class is "three pair": three pairs and nothing better
    (docs/rules.md: the joker is an ace unless it completes a straight or a flush). Ranks 0..11
    are deuce..king, 12 the ace; a pair of one rank has C(4, 2) = 6 suitings."""
    pair = comb(4, 2)
    # (a) no joker: three pairs and a singleton of a fourth rank. Four ranks make no straight
    #     and no suit holds more than four of the cards (one a rank): nothing better.
    natural = comb(13, 3) * 10 * pair**3 * 4
    # (b) the joker with three pairs of non-aces: the joker is a singleton ace. It completes
    #     nothing (four ranks in all; at most three natural cards share a suit). With a pair
    #     of aces it would make three aces and a full house: not counted.
    joker_is_a_singleton = comb(12, 3) * pair**3
    # (c) the joker with two pairs, a singleton ace and one more singleton (a non-ace): the
    #     joker pairs the ace, the third pair, unless it completes
    #     - a straight: the four natural ranks lie in one five-rank run with the ace, T-J-Q-K-A
    #       or A-2-3-4-5 (the joker fills the gap), whichever ranks are the pairs;
    #     - a flush: one card of each of the four ranks in one suit (the joker is the fifth).
    #     Straights depend on the ranks only and flushes on the suits only, so the hands are
    #     (rank choices with no straight) x (suitings with no flush). With a pair of aces
    #     instead, the joker makes three aces (full house with the other pair): not counted.
    ace_runs = ({8, 9, 10, 11}, {0, 1, 2, 3})  # the non-ace ranks of T-J-Q-K-A and the wheel
    rank_choices = sum(
        3  # which of the three non-ace ranks is the singleton
        for ranks in combinations(range(12), 3)
        if not any(set(ranks) <= run for run in ace_runs)
    )
    # every suiting, less the flushes: a suit X (4), each pair holding an X (3 ways each),
    # the ace and the singleton of suit X
    suitings = pair**2 * 4 * 4 - 4 * 3 * 3
    joker_pairs_the_ace = rank_choices * suitings
    # (no other hand has three pairs: with the joker, six natural cards of two pairs and two
    # singletons without an ace leave the joker a singleton ace; one pair and four singletons
    # make at most two pair)
    return natural + joker_is_a_singleton + joker_pairs_the_ace


def test_fortune_tables_1_and_2_by_hand(published):
    total = published["total"]
    sf7 = published["natural 7-card straight flush + 7-card straight flush with joker"]
    rest = ["royal flush + royal match", "five aces", "royal flush", "straight flush",
            "four of a kind", "full house", "flush", "three of a kind", "straight"]  # fmt: skip
    n = {k: published[k] for k in rest}
    n["natural 7-card straight flush"] = NATURAL_7SF
    n["7-card straight flush with joker"] = sf7 - NATURAL_7SF
    below = published["three pair + nothing"]  # three pair + nothing: never paid
    # table 2: three pair loses
    pays2 = shipped_paytable("fortune", "2")
    ret2 = sum(pays2.pay(e) * k for e, k in n.items()) - below
    t2 = price_sidebet("fortune", "2")
    assert t2.house_edge == -Fraction(ret2, total)
    # table 1: three pair pushes (the one count not published: by hand, three_pair_hands)
    t1 = price_sidebet("fortune", "1")
    three_pair = three_pair_hands()
    assert three_pair == 2_471_040 + 47_520 + 636 * 540 == 2_862_000
    assert t1.combinations("three pair") == three_pair < below
    pays1 = shipped_paytable("fortune", "1")
    ret1 = sum(pays1.pay(e) * k for e, k in n.items()) - (below - three_pair)
    assert t1.house_edge == -Fraction(ret1, total)
    for e, k in n.items():
        assert t1.combinations(e) == k


def test_envy_by_hand(published):
    """Common envy table, $5000 top: expected dollars per other player from the published
    counts; about 0.92% of a $5 bet per other player (Wizard of Odds, Fortune pai gow: the
    figure and its tolerance are read from data/published)."""
    amounts = {"royal flush + royal match": 1000, "five aces": 250, "royal flush": 50,
               "straight flush": 20, "four of a kind": 5}  # fmt: skip
    sf7 = published["natural 7-card straight flush + 7-card straight flush with joker"]
    dollars = 5000 * NATURAL_7SF + 500 * (sf7 - NATURAL_7SF)
    dollars += sum(a * published[k] for k, a in amounts.items())
    per = Fraction(dollars, published["total"])
    got = price_envy_table("5000", players=6)
    assert got.per_other_player == per
    assert got.value() == 5 * per
    (woo,) = lines("wizard_fortune_envy")
    assert abs(per / 5 - woo["value"]) <= woo["tolerance"]


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
        "jacks-beat", "chan-chu", "emperors-challenge", "jackpot-pai-gow",
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
