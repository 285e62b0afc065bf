"""Bet files (analysis.bets): each event counted against plain loops over every hand (or deal)
of a small deck, written from the event's definition; the three-card categories against a loop
over the 23,426 three-card hands of the 53-card deck; the shipped bets against the tables of
the side-bet code; bad files one line each."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from analysis.bets.files import read_bet
from analysis.pricing.betfiles import price_bet
from enumerate.classes import classify_all, fortune_of_five
from enumerate.datafile import DataFileError
from enumerate.evaluate import PAIR_BASE, all_settings, five_card_table
from enumerate.houseways import apply_way, get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import HandFlag, SevenCardClass

JOKER = 52
# four suits, the joker, the wheel, quads and five aces: every fact has hands both ways
DECK = Deck.parse("A234K:cdhs+joker")
HEAD = 'name = "t"\ntitle = "t"\nsource = "a test"\n'


def bet_text(hand: str, events: list[tuple[str, str]], extra: str = "") -> str:
    body = "".join(f'[[event]]\nname = "e{i}"\nwhen = "{w}"\npays = {p}\n\n'
                   for i, (w, p) in enumerate(events))  # fmt: skip
    return HEAD + f'hand = "{hand}"\n' + extra + "\n" + body


def write(tmp_path, text: str, name: str = "bet.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def deck_hands(deck: Deck) -> dict:
    """Every seven-card hand of ``deck`` and its facts, from the hand's own cards."""
    rules = Rules()
    five = five_card_table(rules)
    cards = np.array(list(combinations(sorted(c.id for c in deck.cards), 7)), dtype=np.int64)
    cls, _best, flags, jacks = classify_all(cards, five.ids, fortune_of_five(five), five.category)
    high, low = all_settings(cards, five.ids)
    high, low = high.astype(np.int64), low.astype(np.int64)
    valid = low <= five.max_low[high]
    way = apply_way(get_way("gli"), cards, rules)
    return {
        "cards": cards, "fortune": cls, "flags": flags, "jacks": jacks, "five": five,
        "best": five.category[high.max(axis=1)], "joker": (cards == JOKER).any(axis=1),
        "high": high, "low": low, "valid": valid,
        "way_back": five.category[way.high], "way_low": way.low.astype(np.int64),
        "high_card": np.where((cards == JOKER).any(axis=1), 12, (cards >> 2).max(axis=1)),
        "setting_jokers": _setting_jokers(cards),
    }  # fmt: skip


@pytest.fixture(scope="module")
def hands():
    return deck_hands(DECK)


def _setting_jokers(cards: np.ndarray) -> np.ndarray:
    """Per hand and setting (the 21 fronts i < j of the sorted hand): 1 when the joker is in
    front, 2 when it is in back, 0 without it."""
    out = np.zeros((len(cards), 21), dtype=np.int64)
    pairs = [(i, j) for i in range(7) for j in range(i + 1, 7)]
    for s, (i, j) in enumerate(pairs):
        in_front = (cards[:, i] == JOKER) | (cards[:, j] == JOKER)
        out[:, s] = np.where(in_front, 1, np.where((cards == JOKER).any(axis=1), 2, 0))
    return out


def _can_set(h, least: int, pair: int | None, royal: bool = False,
             natural_back: bool = False, natural_front: bool = False) -> np.ndarray:  # fmt: skip
    cat = h["five"].category[h["high"]]
    ok = h["valid"] & (cat >= least)
    if royal:  # a royal flush, or five aces above it
        ok &= h["high"] >= np.flatnonzero(h["five"].category == 8).max()
    if natural_back:
        ok &= h["setting_jokers"] != 2
    if natural_front:
        ok &= h["setting_jokers"] != 1
    if pair is not None:
        ok &= h["low"] >= PAIR_BASE + pair
    return ok.any(axis=1)


def _front_high(low: np.ndarray) -> np.ndarray:
    """The higher rank (0 = deuce .. 12 = ace) of each two-card id, by counting ids."""
    from enumerate.evaluate import two_card_ranks

    return np.array([two_card_ranks(int(x))[0] for x in low])


C = SevenCardClass
CATEGORY = {"pair": 1, "two_pair": 2, "straight": 4, "flush": 5, "straight_flush": 8}
FACT_CASES = [
    ("fortune == full_house", lambda h: h["fortune"] == C.FULL_HOUSE),
    ("fortune >= straight", lambda h: h["fortune"] >= C.STRAIGHT),
    ("fortune in {flush, three_pair}", lambda h: np.isin(h["fortune"], [C.FLUSH, C.THREE_PAIR])),
    ("best_five == flush", lambda h: h["best"] == 5),
    ("best_five >= straight and joker", lambda h: (h["best"] >= 4) & h["joker"]),
    ("not joker and best_five == five_aces", lambda h: (h["best"] == 9) & ~h["joker"]),
    ("jacks >= 1", lambda h: h["jacks"] >= 1),
    ("pai_gow", lambda h: (h["flags"] & HandFlag.PAI_GOW) != 0),
    ("ace_high_pai_gow_joker",
     lambda h: ((h["flags"] & HandFlag.ACE_HIGH_PAI_GOW) != 0)
     & ((h["flags"] & HandFlag.JOKER_IS_ACE) != 0)),
    ("ace_high_pai_gow_natural",
     lambda h: ((h["flags"] & HandFlag.ACE_HIGH_PAI_GOW) != 0)
     & ((h["flags"] & HandFlag.JOKER_IS_ACE) == 0)),
    ("can_set(straight, pair)", lambda h: _can_set(h, CATEGORY["straight"], 0)),
    ("can_set(flush, pair 3)", lambda h: _can_set(h, CATEGORY["flush"], 1)),
    ("can_set(two_pair)", lambda h: _can_set(h, CATEGORY["two_pair"], None)),
    ("way_front_high == K and not way_front_pair",
     lambda h: (_front_high(h["way_low"]) == 11) & (h["way_low"] < PAIR_BASE)),
    ("way_back >= straight and way_front_pair",
     lambda h: (h["way_back"] >= 4) & (h["way_low"] >= PAIR_BASE)),
    ("pai_gow and high_card == K",
     lambda h: ((h["flags"] & HandFlag.PAI_GOW) != 0) & (h["high_card"] == 11)),
    ("can_set(natural straight, pair)", lambda h: _can_set(h, 4, 0, natural_back=True)),
    ("can_set(two_pair, natural pair A)", lambda h: _can_set(h, 2, 12, natural_front=True)),
    ("can_set(five_aces, pair)", lambda h: _can_set(h, 9, 0)),
    # constructs a rule card has had, in a bet file: a category word that is also a fact's
    # name, ``not in`` over a range and over a set
    ("best_five == high_card", lambda h: h["best"] == 0),
    ("high_card not in 9..K", lambda h: (h["high_card"] < 7) | (h["high_card"] > 11)),
    ("best_five not in {pair, two_pair}", lambda h: ~np.isin(h["best"], [1, 2])),
]  # fmt: skip


@pytest.mark.parametrize(("when", "brute"), FACT_CASES, ids=[c[0] for c in FACT_CASES])
def test_each_fact_counts_every_hand(tmp_path, hands, when, brute) -> None:
    """A one-event bet on the fact: its count over the deck's classes (orbit-weighted) is the
    number of the deck's hands the plain definition holds for."""
    bet = read_bet(write(tmp_path, bet_text("dealer", [(when, 1)])))
    priced = price_bet(bet, DECK)
    assert priced.returns.total == comb(DECK.size, 7)
    assert priced.counts == (int(brute(hands).sum()),)


ROYAL_DECK = Deck.parse("TJQKA:cdh+joker")


@pytest.mark.parametrize(("back", "front", "brute"), [
    ("royal_flush", "", lambda h: _can_set(h, 8, None, royal=True)),
    ("natural royal_flush", "pair", lambda h: _can_set(h, 8, 0, royal=True, natural_back=True)),
    ("royal_flush", "natural pair A",
     lambda h: _can_set(h, 8, 12, royal=True, natural_front=True)),
])  # fmt: skip
def test_royal_and_natural_settings(tmp_path, back, front, brute) -> None:
    when = f"can_set({back}, {front})" if front else f"can_set({back})"
    bet = read_bet(write(tmp_path, bet_text("player", [(when, 1)])))
    want = int(brute(deck_hands(ROYAL_DECK)).sum())
    assert price_bet(bet, ROYAL_DECK).counts == (want,) and want > 0


def test_a_fact_of_no_hand_is_zero_and_never_fails_a_small_deck(tmp_path) -> None:
    bet = read_bet(write(tmp_path, bet_text("player", [("fortune == royal_match", 1)])))
    assert price_bet(bet, DECK).counts == (0,)


def test_first_and_highest_orders(tmp_path) -> None:
    """Overlapping events: ``first`` pays the earlier in the file, ``highest`` the larger pay,
    whatever the file order."""
    flush, pair = ("three_card == flush", 3), ("three_card >= pair", 1)
    first = price_bet(read_bet(write(tmp_path, bet_text("first-three", [flush, pair],
                                                        'order = "first"\n'))))  # fmt: skip
    text = bet_text("first-three", [pair, flush], 'order = "highest"\n')
    best = price_bet(read_bet(write(tmp_path, text, "b.toml")))
    counts = _three_card_counts()
    pair_or_better = sum(counts[c] for c in ("pair", "flush", "straight", "trips", "sf"))
    assert first.counts == (counts["flush"], pair_or_better - counts["flush"])
    assert best.counts == (pair_or_better - counts["flush"], counts["flush"])


# three-card hands ---------------------------------------------------------------------------------


def _three_card_kind(a: int, b: int, c: int | None) -> str:
    """A three-card poker hand from its definition: straight flush, trips, straight, flush,
    pair, high card; the joker (c None) an ace, or any card that completes a straight, flush or
    straight flush (A-2-3 and Q-K-A are straights)."""

    def near(x: int, y: int) -> bool:  # two ranks a third card can join in a straight
        lo, hi = sorted((x, y))
        return lo != hi and (hi - lo <= 2 or (hi == 12 and lo <= 1) or (hi == 12 and lo >= 10))

    ra, rb, sa, sb = a >> 2, b >> 2, a & 3, b & 3
    if c is None:
        if near(ra, rb) and sa == sb:
            return "sf"
        if ra == rb == 12:
            return "trips"
        if near(ra, rb):
            return "straight"
        if sa == sb:
            return "flush"
        return "pair" if ra == rb or 12 in (ra, rb) else "high"
    ranks = sorted((ra, rb, c >> 2))
    straight = (ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3) or ranks == [0, 1, 12]
    flush = sa == sb == c & 3
    if len(set(ranks)) == 1:
        return "trips"
    if straight and flush:
        return "sf"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return "pair" if len(set(ranks)) == 2 else "high"


def _three_card_counts() -> dict[str, int]:
    counts = dict.fromkeys(("high", "pair", "flush", "straight", "trips", "sf"), 0)
    for hand in combinations(range(53), 3):
        naturals = [x for x in hand if x != JOKER]
        kind = _three_card_kind(naturals[0], naturals[1], naturals[2] if len(naturals) == 3
                                else None)  # fmt: skip
        counts[kind] += 1
    return counts


def test_three_card_categories_against_a_loop_over_the_deck(tmp_path) -> None:
    names = {"high": "high_card", "pair": "pair", "flush": "flush", "straight": "straight",
             "trips": "three_of_a_kind", "sf": "straight_flush"}  # fmt: skip
    events = [(f"three_card == {names[k]}", 1) for k in names]
    priced = price_bet(read_bet(write(tmp_path, bet_text("first-three", events))))
    counts = _three_card_counts()
    assert priced.returns.total == comb(53, 3) == sum(counts.values()) == 23_426
    assert priced.counts == tuple(counts[k] for k in names)


def test_a_progressive_is_a_line_in_the_meter(tmp_path) -> None:
    """Straight flush: the whole meter; trips: $200 on a $5 bet (40 to 1); else it loses."""
    text = bet_text("first-three", [("three_card == straight_flush", '{ meter = "100%" }'),
                                    ("three_card == three_of_a_kind", "{ fixed = 200 }")],
                    "bet_size = 5\n")  # fmt: skip
    priced = price_bet(read_bet(write(tmp_path, text)))
    counts, total = _three_card_counts(), comb(53, 3)
    p_sf, p_trips = Fraction(counts["sf"], total), Fraction(counts["trips"], total)
    progressive = priced.progressive
    assert progressive is not None
    assert progressive.base == 40 * p_trips - (1 - p_sf - p_trips)
    assert progressive.rate == p_sf
    assert progressive.return_at(Fraction(1000)) == progressive.base + p_sf * 200
    be = progressive.break_even
    assert be is not None and progressive.return_at(be) == 0


# deals --------------------------------------------------------------------------------------------


def test_deal_bets_against_every_deal_of_a_small_deck() -> None:
    """Push Ace High and Jacks Beat over every (player, dealer) pair of disjoint hands."""
    deck = Deck.parse("89TJQKA:cd+joker")
    five = five_card_table(Rules())
    ids = sorted(c.id for c in deck.cards)
    cards = np.array(list(combinations(ids, 7)), dtype=np.int64)
    cls, _b, flags, jacks = classify_all(cards, five.ids, fortune_of_five(five), five.category)
    index = {tuple(row): i for i, row in enumerate(cards.tolist())}
    ace = (flags & HandFlag.ACE_HIGH_PAI_GOW) != 0
    joker_ace = (flags & HandFlag.JOKER_IS_ACE) != 0
    push = dict.fromkeys(("both", "joker", "natural"), 0)
    jacks_beat: dict[int, int] = {}
    for p, row in enumerate(cards.tolist()):
        rest = [c for c in ids if c not in row]
        for d_cards in combinations(rest, 7):
            d = index[d_cards]
            if ace[p] and ace[d]:
                push["both"] += 1
            elif ace[d] and joker_ace[d]:
                push["joker"] += 1
            elif ace[d]:
                push["natural"] += 1
            if jacks[d] >= 2:
                jacks_beat[int(cls[p])] = jacks_beat.get(int(cls[p]), 0) + 1
    got = price_bet("push-ace-high-5-15-40", deck)
    assert got.counts == (push["both"], push["joker"], push["natural"])
    jb = price_bet("jacks-beat-template", deck)
    labels = {c.label: int(c) for c in SevenCardClass}
    want = tuple(jacks_beat.get(labels[e.name], 0) for e in jb.bet.events)
    assert jb.counts == want and sum(want) > 0





# bad files ---------------------------------------------------------------------------------------

GOOD_EVENT = '[[event]]\nname = "flush"\nwhen = "fortune == flush"\npays = 4\n'
BAD = [
    (HEAD + 'hand = "player"\n', "event: a bet needs at least one [[event]]"),
    (HEAD + 'hand = "table"\n' + GOOD_EVENT,
     "hand: 'table' (hands: player, dealer, first-three, deal)"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("fortune ==", "fortnue =="),
     "event 1 (flush): when, column 1: unknown fact 'fortnue'"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("== flush", "== flsh"),
     "event 1 (flush): when, column 12: 'flsh' is not a Fortune class"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("pays = 4", 'pays = "four"'),
     "event 1 (flush): pays: expected a number (to 1)"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("pays = 4", "pays = -2"),
     "event 1 (flush): pays: a bet cannot lose more than itself"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("pays = 4", "pays = { fixed = 20 }"),
     "pays: a fixed amount or a meter share needs the file's bet_size"),
    (HEAD + 'hand = "player"\nbet_size = 5\n'
     + GOOD_EVENT.replace("pays = 4", 'pays = { meter = "150%" }'),
     "pays.meter: expected a share of the meter from 0 to 1"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT + GOOD_EVENT, "event 2 (flush): name: given twice"),
    (HEAD + 'hand = "player"\norder = "last"\n' + GOOD_EVENT, "order: 'last'"),
    (HEAD + 'hand = "player"\ncolour = "red"\n' + GOOD_EVENT, "colour: unknown field"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT + '[envy]\nstraight = 5\n',
     "envy.straight: no event of the bet has this name"),
    (HEAD + 'hand = "dealer"\n' + GOOD_EVENT + '[envy]\nflush = 5\n',
     "envy: envy is paid on other players' hands: only for a player bet"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("fortune == flush", "fortune == flush and"),
     "event 1 (flush): when, column 21: unexpected end"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("fortune == flush", "way_back + 1"),
     "event 1 (flush): when, column 10: cannot read '+ 1'"),
    (HEAD + 'hand = "deal"\n' + GOOD_EVENT, "when, column 1: unknown fact 'fortune' in a deal"),
    (HEAD + 'hand = "player"\n' + GOOD_EVENT.replace("fortune == flush", "jacks"),
     "'jacks' is a count, not true or false"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m[:40] for _, m in BAD])
def test_a_bad_bet_file_is_one_line_exit_2(tmp_path, capsys, text, message) -> None:
    from analysis.cli.main import main

    path = write(tmp_path, text)
    with pytest.raises(DataFileError, match="^" + str(path).replace(".", r"\.")):
        read_bet(path)
    assert main(["sidebet", str(path), "--deck", "A234K:cdh+joker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err


@pytest.mark.parametrize(("events", "order", "message"), [
    ([("three_card >= pair", 1), ("three_card == flush", 3)], "",
     "event 2 (e1): overlaps event 1 (e0), e.g. "),
    ([("three_card == flush and three_card == pair", 1)], "", "event 1 (e0): holds for no hand"),
    ([("three_card >= pair", 1), ("three_card == flush", 3)], 'order = "first"\n',
     "event 2 (e1): never pays: the events before it take every hand where it holds"),
])  # fmt: skip
def test_bets_refused_when_priced_on_the_full_deck(tmp_path, capsys, events, order, message):
    """Overlapping events without an order (with a hand holding both), an event no hand holds,
    an event earlier ones always take: refused in one line."""
    from analysis.cli.main import main

    path = write(tmp_path, bet_text("first-three", events, order))
    assert main(["sidebet", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_the_api_prices_a_bet_file() -> None:
    from analysis import bet_files, side_bet

    assert {"fortune-1", "emperors-challenge", "jackpot-pai-gow"} <= set(bet_files()["bet"])
    deck = Deck.parse("23579JQA:cd+joker")
    got = side_bet("fortune-1", players=1, deck=deck)
    assert got.returns is not None and got.envy is not None
    assert got.returns.house_edge == price_bet("fortune-1", deck).returns.house_edge


def test_envy_by_table_of_a_bet_file_equals_the_bet_by_name() -> None:
    """``paigow sidebet fortune-1 --by-table`` and ``fortune --paytable 1 --by-table``: one
    bet, one envy table, the same edges."""
    from analysis.pricing.betfiles import bet_envy_by_table
    from analysis.pricing.sidebets import paytable_envy_by_table

    deck = Deck.parse("89TJQKA:cdh+joker")
    file = bet_envy_by_table("fortune-1", deck=deck)
    named = paytable_envy_by_table("fortune", "1", deck=deck)
    assert file.rows() == named.rows() and file.envy == named.envy == "5000"
