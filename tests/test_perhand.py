"""Per-hand counts (every class, every frontier point) equal a plain loop over dealer hands:
dealer hands by dealer class, wins and losses by up-set of dealer flags (every dealer hand
with all the flags of the set)."""

from math import comb

import numpy as np
import pytest

from enumerate.bruteforce import deck_hands
from enumerate.deals import hand_keys
from enumerate.engine import build_keys, run_engine
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.table import run_per_hand
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS, DealerEvent


@pytest.mark.parametrize(
    "deck_text,way_name,step",
    [("TJQKA:cdh+joker", "gli", 1), ("89TJQK:cdh", "trump-plaza", 7),
     # four suits (orbits of 24 hands): royals and five aces; the joker's wheel; natural wheels
     ("JQKA:cdhs+joker", "gli", 1), ("A234:cdhs+joker", "trump-plaza", 1),
     ("A2345:cdhs", "gli", 1)],
)  # fmt: skip
def test_per_hand_equals_dealer_loop(deck_text, way_name, step):
    deck = Deck.parse(deck_text)
    table = hand_table(deck, use_cache=False)
    way = get_way(way_name)
    keys = build_keys(table, way, use_cache=False)
    got = run_per_hand(table, keys, use_cache=False)
    assert_rows_match_dealer_loop(table, way, got, step)


def assert_rows_match_dealer_loop(table, way, got, step: int) -> None:
    """Every ``step``-th class of ``got`` (a ``PerHand``) against a plain loop over the dealer
    hands of the other cards, each evaluated from its own cards."""
    deck = table.deck
    hands = deck_hands(deck)
    dealer = hand_keys(hands, Rules(), way, way, ALL_DEALER_EVENTS)
    order = {b: i for i, b in enumerate(got.dealer_class_bits)}
    dcls = np.array([order[int(b)] for b in dealer["bits"]])
    bits = np.asarray(dealer["bits"], dtype=np.int64)
    holds = {s: (bits & s) == s for s in {*got.sets.win, *got.sets.loss}}

    def by_set(hit: np.ndarray, sets: tuple[int, ...]) -> list[int]:
        """The dealer hands of ``hit`` that hold every flag of each set."""
        return [int((hit & holds[s]).sum()) for s in sets]

    masks = np.array([sum(1 << int(c) for c in row) for row in hands], dtype=np.int64)
    n_d = len(got.dealer_class_bits)
    for row in range(0, len(table), step):
        rep = [int(c) for c in table.cards[row]]
        free = (masks & sum(1 << c for c in rep)) == 0
        mine = hand_keys(np.array([rep], dtype=np.int64), Rules(), way, way, ALL_DEALER_EVENTS)
        frontier = zip(
            got.point_high[got.points(row)].tolist(),
            got.point_low[got.points(row)].tolist(),
            strict=True,
        )
        points = [(int(mine["ph"][0]), int(mine["pl"][0])), *frontier]
        wins, losses, bank = [], [], []
        for h, lo in points:
            w = free & (h > dealer["dh"]) & (lo > dealer["dl"])
            lss = free & (h <= dealer["dh"]) & (lo <= dealer["dl"])
            wins.append(by_set(w, got.sets.win))
            losses.append(by_set(lss, got.sets.loss))
            # the hand as banker, the other hand an opponent's set by the same way: copies
            # go to the banker
            bank.append([int((free & (h >= dealer["dh"]) & (lo >= dealer["dl"])).sum()),
                         int((free & (h < dealer["dh"]) & (lo < dealer["dl"])).sum())])
        total = np.bincount(dcls[free], minlength=n_d)
        assert total.sum() == comb(deck.size - 7, 7)
        assert got.total[row].tolist() == total.tolist()
        assert got.way_win[row].tolist() == wins[0]
        assert got.way_loss[row].tolist() == losses[0]
        assert got.win[got.points(row)].tolist() == wins[1:]
        assert got.loss[got.points(row)].tolist() == losses[1:]
        assert got.way_bank[row].tolist() == bank[0]
        assert got.bank[got.points(row)].tolist() == bank[1:]


# no straight in these ranks; queen-high pai gows, nine-high lows (Q 9 8 ...), both at once
# (dealer class 24), two jacks (4), the joker as the ace (1)
def test_fewer_columns_than_dealer_classes():
    """The blind variants' columns (wins of every hand, of queen-high pai gows and of nine-high
    lows; losses of every hand), fewer than the dealer classes: each still the plain loop's."""
    deck = Deck.parse("235789JQ:cd+joker")
    table = hand_table(deck, use_cache=False)
    way = get_way("gli")
    keys = build_keys(table, way, use_cache=False)
    sets = AnswerSets.of((DealerEvent.QUEEN_HIGH, DealerEvent.NINE_HIGH_LOW), ())
    assert len(sets.win) + len(sets.loss) < 2 * len(keys.dealer_class_bits)
    got = run_per_hand(table, keys, use_cache=False, sets=sets)
    assert got.sets == sets
    assert_rows_match_dealer_loop(table, way, got, 5)


def test_per_hand_adds_up_to_the_engine():
    deck = Deck.parse("9TJQKA:cdh")
    table = hand_table(deck, use_cache=False)
    keys = build_keys(table, get_way("gli"), use_cache=False)
    per = run_per_hand(table, keys, use_cache=False)
    pair = run_engine(table, keys, use_cache=False, progress=False)
    w = table.orbit_size.astype(np.int64)[:, None]
    cells = keys.dealer_class_bits
    assert per.sets == AnswerSets.spanning(cells)
    # by up-set: the engine's counts of the dealer classes holding every flag of the set
    for got, engine, sets in ((per.way_win, pair.blind_win, per.sets.win),
                              (per.way_loss, pair.blind_loss, per.sets.loss)):  # fmt: skip
        want = [sum(int(engine[d]) for d, b in enumerate(cells) if b & s == s) for s in sets]
        assert (w * got).sum(axis=0).tolist() == want
    assert (w * per.total).sum(axis=0).tolist() == pair.per_dealer_class.tolist()


def test_selected_rows_equal_the_full_table():
    deck = Deck.parse("TJQKA:cdh+joker")
    table = hand_table(deck, use_cache=False)
    keys = build_keys(table, get_way("trump-plaza"), use_cache=False)
    full = run_per_hand(table, keys, use_cache=False)
    rows = [3, 400, 1500]
    some = run_per_hand(table, keys, rows=rows)
    for r in rows:
        assert some.total[r].tolist() == full.total[r].tolist()
        assert some.way_win[r].tolist() == full.way_win[r].tolist()
        assert some.win[some.points(r)].tolist() == full.win[full.points(r)].tolist()
        assert some.loss[some.points(r)].tolist() == full.loss[full.points(r)].tolist()
