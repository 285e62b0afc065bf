"""The pair counts of a report's ways from the blind pass and the per-dealer table
(``analysis.waylab.labpairs``) are the plain double loop's, every integer."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.pricing.counts import ALL_FLAGS, pair_counts
from analysis.waylab.labpairs import lab_pair_counts
from analysis.waylab.wayedge import dealer_lab
from enumerate.bruteforce import pairs_by_brute_force
from enumerate.engine import build_keys
from enumerate.engine.pairs.blind import run_blind_pairs
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

WAYS = ("gli", "trump-plaza")
# every dealer class ("23579JQA:cd+joker", whose 9,752 classes make a family the counting
# sort orders), four suits and the joker ("JQKA:cdhs+joker"), the wheel made with the joker
# and naturally ("A2345:cdh+joker"); the last two's families go to the radix sort
DECKS = ["23579JQA:cd+joker", "JQKA:cdhs+joker", "A2345:cdh+joker"]


@pytest.fixture(scope="module", params=DECKS)
def brute(request):
    """A deck with each way's counts by the double loop."""
    deck = Deck.parse(request.param)
    table = hand_table(deck, use_cache=False)
    keys = [build_keys(table, get_way(w), get_way(w), ALL_FLAGS, use_cache=False) for w in WAYS]
    counts = [pairs_by_brute_force(deck, Rules(), get_way(w), get_way(w), k.dealer_class_bits)
              for w, k in zip(WAYS, keys, strict=True)]  # fmt: skip
    return deck, table, keys, counts


def test_blind_pass_equals_the_double_loop(brute) -> None:
    _deck, table, keys, counts = brute
    for blind, k, want in zip(run_blind_pairs(table, keys, use_cache=False), keys, counts,
                              strict=True):  # fmt: skip
        assert blind.dealer_class_bits == k.dealer_class_bits
        assert np.array_equal(blind.joint, want.joint)
        assert np.array_equal(blind.blind_win, want.blind_win)
        assert np.array_equal(blind.blind_loss, want.blind_loss)


def test_lab_pair_counts_equal_the_double_loop_and_are_served_from_the_cache(brute) -> None:
    deck, _table, keys, counts = brute
    lab = dealer_lab("face-up", "best-response", deck=deck)
    got = lab_pair_counts(lab, WAYS)
    for deal, k, want in zip(got, keys, counts, strict=True):
        assert deal.dealer_class_bits == k.dealer_class_bits
        assert deal.counts == want
        served = pair_counts(deck, Rules(), deal.dealer_way, flag_mask=ALL_FLAGS)
        assert served.source == "cache" and served.counts == want
    # a second call finds them cached and counts nothing
    again = lab_pair_counts(lab, WAYS, log=lambda line: pytest.fail(f"counted again: {line}"))
    assert [d.counts for d in again] == counts


def test_lab_pair_counts_need_best_responding_players() -> None:
    deck = Deck.parse("TJQKA:cdh+joker")
    lab = dealer_lab("face-up", "house-way", deck=deck)
    with pytest.raises(ValueError, match="best-responding"):
        lab_pair_counts(lab, WAYS)
