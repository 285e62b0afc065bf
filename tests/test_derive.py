"""Derived rule cards (``analysis.derive``).

Checked against independent truth on reduced decks:
- a derived card's house edge, from the derivation's own sums, equals a brute force of the card
  over every deal (``enumerate.bruteforce``: every pair of disjoint hands, one at a time) and
  the ordinary pricing path (way table -> per-hand table or per-dealer table);
- the curve never gets worse with more rules;
- on decks where the card language tells every class apart (no straight or flush can be made,
  so ranks decide everything), enough rules reach the optimal strategy's and the house-optimal
  ceiling's edge exactly;
- every derived card loads like any card, passes ``paigow way check`` (every hand set validly,
  no derived rule on a dominated setting) and is written in words.
"""

from __future__ import annotations

import itertools

import pytest

from analysis.cli.main import main
from analysis.derive import derive_strategy, derive_way
from analysis.derive.search import Literal
from analysis.derive.words import condition_text, literal_text
from analysis.games.players import Player
from analysis.pricing.counts import DealCounts
from analysis.pricing.returns import price
from analysis.pricing.strategy import strategy_return_table
from analysis.waylab.cardcheck import check_card
from analysis.waylab.wayedge import dealer_lab, house_optimal, price_dealer_way
from enumerate.bruteforce import pairs_by_brute_force
from enumerate.conditions import CARD, read
from enumerate.houseways import get_way
from enumerate.houseways.interpreter import FACTS
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import ALL_DEALER_EVENTS

# every special dealer event (ace-high pai gow with and without the joker, two jacks, queen-high
# pai gow, nine-high low hands), flushes, straights and the joker's wheel
EVENTS_DECK = "23569JQA:cd+joker"
# no five of one suit and no five ranks in a row: the facts of a hand decide its class
SEPARATED_DECKS = ["9TJQ:cdhs", "TJQK:cdhs+joker"]
RAW_BITS = list(range(ALL_DEALER_EVENTS + 1))


@pytest.fixture(scope="module")
def deck() -> Deck:
    return Deck.parse(EVENTS_DECK)


def brute(deck: Deck, dealer: str, player: str) -> DealCounts:
    counts = pairs_by_brute_force(deck, Rules(), get_way(dealer), get_way(player), RAW_BITS)
    return DealCounts(counts, tuple(RAW_BITS), deck, Rules(), dealer, player, ALL_DEALER_EVENTS)


@pytest.mark.parametrize("game", ["traditional", "ez"])
def test_strategy_cards_equal_brute_force(deck: Deck, game: str) -> None:
    d = derive_strategy(game, "gli", 4, deck=deck, use_cache=False)
    assert len(d.steps) == 4
    for k in (0, 2, 4):
        card = d.card(k) if k else d.base
        by_brute = price(brute(deck, "gli", card.name), game, Player.HOUSE_WAY)
        assert by_brute.house_edge == d.edge(k)
        ordinary = strategy_return_table(game, card, "gli", deck=deck, use_cache=False)
        assert ordinary.house_edge == d.edge(k)


def test_a_wide_search_is_exact_and_never_worse(deck: Deck) -> None:
    """The wide search (a wider beam and the card refit at 5 rules): each card's edge is a
    brute force of it, the curve never gets worse, and its card of 5 rules is at least the
    greedy one's here."""
    from analysis.cli.derive import SEARCH_NAMES
    from analysis.derive.search import SEARCHES

    assert tuple(SEARCHES) == SEARCH_NAMES
    wide = derive_strategy("traditional", "gli", 5, deck=deck, use_cache=False, search="wide")
    greedy = derive_strategy("traditional", "gli", 5, deck=deck, use_cache=False)
    edges = [wide.edge(k) for k in range(len(wide.steps) + 1)]
    assert all(b < a for a, b in itertools.pairwise(edges))
    assert wide.edge(5) <= greedy.edge(5) and wide.name(5).endswith("-wide-23569jqa-cd-joker")
    for k in (3, 5):
        by_brute = price(brute(deck, "gli", wide.card(k).name), "traditional", Player.HOUSE_WAY)
        assert by_brute.house_edge == wide.edge(k)
    with pytest.raises(ValueError, match="search 'deeper'"):
        derive_strategy("traditional", "gli", 2, deck=deck, use_cache=False, search="deeper")


def test_cards_over_the_point_count_equal_brute_force(deck: Deck) -> None:
    """The point-count card (``base="points"``) as a base: it, and a derived card before it
    (which carries its chart), priced by the derivation equal a brute force of each."""
    d = derive_strategy("traditional", "gli", 2, base="points", deck=deck, use_cache=False)
    assert len(d.steps) == 2 and "most points" in d.card_text(2)
    for k in (0, 2):
        card = d.card(k) if k else d.base
        by_brute = price(brute(deck, "gli", card.name), "traditional", Player.HOUSE_WAY)
        assert by_brute.house_edge == d.edge(k)


@pytest.mark.parametrize("game", ["face-up", "dealer-open"])
def test_dealer_cards_equal_brute_force(deck: Deck, game: str) -> None:
    d = derive_way(game, 4, deck=deck, use_cache=False)
    for k in (1, 4):
        card = d.card(k)
        by_brute = price(brute(deck, card.name, "gli"), game, Player.BEST_RESPONSE)
        assert by_brute.house_edge == d.edge(k)
        assert price_dealer_way(game, card, deck=deck, use_cache=False).house_edge == d.edge(k)


def test_dealer_card_against_blind_players(deck: Deck) -> None:
    d = derive_way("traditional", 3, player=Player.HOUSE_WAY, player_way="trump-plaza",
                   deck=deck, use_cache=False)  # fmt: skip
    assert d.against == "players by trump-plaza"
    by_brute = price(brute(deck, d.card(3).name, "trump-plaza"), "traditional",
                     Player.HOUSE_WAY)  # fmt: skip
    assert by_brute.house_edge == d.edge(3) > d.base_edge


def test_curves_never_get_worse(deck: Deck) -> None:
    s = derive_strategy("commission-free", "gli", 8, deck=deck, use_cache=False)
    edges = [s.edge(k) for k in range(len(s.steps) + 1)]
    assert all(b < a for a, b in itertools.pairwise(edges))
    assert edges[-1] >= s.limit_edge
    w = derive_way("dealer-open", 8, deck=deck, use_cache=False)
    edges = [w.edge(k) for k in range(len(w.steps) + 1)]
    assert all(b > a for a, b in itertools.pairwise(edges))
    assert edges[-1] <= w.limit_edge


@pytest.mark.parametrize("name", SEPARATED_DECKS)
def test_enough_rules_reach_the_limit(name: str) -> None:
    deck = Deck.parse(name)
    s = derive_strategy("traditional", "gli", 30, deck=deck, use_cache=False)
    assert s.edge(len(s.steps)) == s.limit_edge < s.base_edge
    w = derive_way("face-up", 30, deck=deck, use_cache=False)
    assert w.edge(len(w.steps)) == w.limit_edge > w.base_edge
    assert s.rules_for(0.99) is not None and w.rules_for(1.0) == len(w.steps)


def test_cards_pass_the_checker(deck: Deck) -> None:
    for d in (derive_strategy("traditional", "gli", 5, deck=deck, use_cache=False),
              derive_way("face-up", 5, deck=deck, use_cache=False)):  # fmt: skip
        check = check_card(d.card(5), deck)
        assert not check.errors()
        derived = [r for r in check.rules if r.name.startswith("D")]
        assert len(derived) == 5 and all(r.dominated == 0 and r.sets > 0 for r in derived)
        for words, when, _front in d.rule_lines(5):
            read(when, CARD)  # the language reads it
            assert words and "_" not in words  # words, not fact names


def test_own_settings_are_the_cards(deck: Deck) -> None:
    """The derivation's own settings of every class (for the report's patterns) are those the
    card's way table makes."""
    from enumerate.waytables import way_table

    for d in (derive_strategy("ez", "gli", 4, deck=deck, use_cache=False),
              derive_way("face-up", 4, deck=deck, use_cache=False)):  # fmt: skip
        rule, high, low, _value = d.settings(4)
        cols = way_table(d.card(4), deck, use_cache=False)
        assert (cols.high == high).all() and (cols.low == low).all()
        assert [cols.rule_names[r] for r in cols.rule] == [d.rule_names(4)[r] for r in rule]
        assert len(d.still_worse(4, None)) > 0


def test_same_inputs_same_cards(deck: Deck) -> None:
    a = derive_strategy("traditional", "gli", 4, deck=deck, use_cache=False)
    b = derive_strategy("traditional", "gli", 4, deck=deck, use_cache=False)
    assert a.card_text(4) == b.card_text(4)


def test_a_ceiling_at_hand_gives_the_same_cards(deck: Deck) -> None:
    """The report passes each exposed game's house-optimal dealer on the lab's table; the two
    games share the table (and the remapped choices); a ceiling of another game is refused."""
    lab = dealer_lab("face-up", Player.BEST_RESPONSE, None, deck, use_cache=False)
    for game in ("face-up", "dealer-open"):
        mine = derive_way(game, 4, ceiling=house_optimal(lab, game), use_cache=False)
        plain = derive_way(game, 4, deck=deck, use_cache=False)
        assert mine.card_text(4) == plain.card_text(4)
        assert [mine.edge(k) for k in range(5)] == [plain.edge(k) for k in range(5)]
    with pytest.raises(ValueError, match="not dealer-open's"):
        derive_way("dealer-open", 2, ceiling=house_optimal(lab, "face-up"), use_cache=False)


@pytest.mark.parametrize("name", [EVENTS_DECK, "6789TJQKA:cdhs+joker"])
def test_choices_of_plain_fronts_are_choose_settings(name: str) -> None:
    """The fronts picked by their two ranks are answered from a table per hand: the same
    points as the card kernel's ``choose_setting`` asked front by front (four suits, the
    joker, straights and flushes)."""
    import numpy as np

    from analysis.derive.classes import (
        _KEY_FACTS,
        FRONTS,
        _choice_columns,
        _choice_rows,
        _plain_ranks,
        fronts_program,
    )
    from enumerate.evaluate import five_card_table
    from enumerate.houseways.apply import royal_id
    from enumerate.tables import hand_table
    from enumerate.waytables import flatten_rows, player_table

    deck = Deck.parse(name)
    table = hand_table(deck, use_cache=False)
    fr = player_table(deck, use_cache=False)
    offset = np.zeros(len(table) + 1, dtype=np.int64)
    np.cumsum(fr.size, out=offset[1:])
    high, low = flatten_rows(fr.size, fr.high), flatten_rows(fr.size, fr.low)
    five, prog, n = five_card_table(table.rules), fronts_program(), len(table)
    plain = _plain_ranks(prog, len(FRONTS))
    assert plain.sum() >= 30  # the rank fronts take the table's path
    out = []
    for mask in (plain, np.zeros_like(plain)):
        key, loc = np.empty(n, dtype=np.int64), np.empty((n, len(FRONTS)), dtype=np.int8)
        _choice_rows(0, n, table.cards, five.ids, five.max_low, five.category, royal_id(five),
                     prog, len(FRONTS), mask, offset, high, low, _KEY_FACTS,
                     *_choice_columns(), key, key.copy(), loc)  # fmt: skip
        out.append(loc)
    assert (out[0] == out[1]).all() and (out[0] >= 0).any()


def test_literals_written_as_the_card_language_reads_them() -> None:
    def lit(fact: str, lo: int, hi: int) -> Literal:
        return Literal(FACTS.index(fact), lo, hi)

    assert literal_text(lit("pair1", 9, 12)) == "pair1 >= J"
    assert literal_text(lit("pair3", -1, 7)) == "pair3 <= 9"  # a lacking rank is below all
    assert literal_text(lit("single2", 3, 8)) == "single2 in 5..T"
    assert literal_text(lit("joker", 0, 0)) == "not joker"
    assert literal_text(lit("n_pairs", 2, 3)) == "n_pairs >= 2"
    # two_pair and full_house are hand structures too: written by their neighbours
    assert literal_text(lit("best_five", 2, 2)) == ("best_five > pair and best_five < "
                                                    "three_of_a_kind")  # fmt: skip
    assert literal_text(lit("best_five", 6, 9)) == "best_five > flush"
    assert condition_text([lit("pair1", 9, 12), lit("two_pair", 1, 1)]) == (
        "two_pair and pair1 >= J")  # fmt: skip


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    out = f"{tmp_path}/card.toml"
    assert main(["derive", "strategy", "traditional", "--rules", "2", "--deck", EVENTS_DECK,
                 "--out", out]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "D1." in text and "Any other hand: set it by gli." in text
    assert main(["way", "check", out, "--deck", EVENTS_DECK]) == 0
    capsys.readouterr()
    for bad in (["derive", "strategy", "face-up", "--deck", EVENTS_DECK],
                ["derive", "way", "face-up", "--rules", "0"],
                ["derive", "strategy", "traditional", "--player-way", "gli"]):
        assert main(bad) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("paigow: error:")


def test_choice_facts_against_a_plain_loop() -> None:
    """The choice facts, the front the best straight or better leaves (``front_high(...)``,
    ``front_low(...)``), counted by a plain loop over every class of a small deck from their
    definition (docs/cards.md: of the valid settings whose back is of that category or better,
    the highest front, pairs first, the joker an ace; -1 where there is none), with the
    reference evaluator (four suits, the joker, the wheel)."""
    import numpy as np

    from analysis.derive.classes import CHOICE_FACTS, DERIVE_FACTS, class_choices
    from enumerate.tables import hand_table
    from tests import reference_eval as ref

    table = hand_table(Deck.parse("2345KA:cdhs+joker"), use_cache=False)
    choices = class_choices(table, use_cache=False)
    least = {"highest keeping straight or better": ref.STRAIGHT}  # the choice facts' fronts
    first = len(DERIVE_FACTS) - len(CHOICE_FACTS)
    seen = np.zeros(len(CHOICE_FACTS), dtype=np.int64)
    for c in range(len(table)):
        cards = [int(x) for x in table.cards[c]]
        settings = []
        for front in itertools.combinations(cards, 2):
            back = [x for x in cards if x not in front]
            if ref.ref_valid(back, front):
                settings.append((ref.ref_two_key(front), ref.ref_key(back)))
        got = choices.facts[choices.key[c], first:]
        for e, (side, front) in enumerate(CHOICE_FACTS):
            keep = [s for s in settings if s[1][0] >= least[front]]
            want = -1
            if keep:
                two = max(keep)[0]
                want = two[1] if side == "front_high" else two[2]
            assert got[e] == want, (cards, side, front)
            seen[e] += want >= 0
    assert (seen > 0).all()  # every fact is met on the deck
