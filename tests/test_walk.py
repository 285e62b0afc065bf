"""A deck walked hand by hand equals the suit-class table (the full deck in ``make bench``)."""

import math

import numpy as np
import pytest

from enumerate.classes import SevenCardClass
from enumerate.rules import Deck
from enumerate.tables import hand_table
from enumerate.walk import walk_classes


def _walk_equals_class_table(deck: Deck | None, hands: int) -> None:
    counts, flag_counts = walk_classes(deck)
    assert int(counts.sum()) == hands
    table = hand_table(deck)
    by_class = table.class_counts()
    assert [by_class[c] for c in SevenCardClass] == counts.tolist()
    weighted = np.zeros(128, dtype=np.int64)
    np.add.at(weighted, table.flags.astype(np.int64) * 8 + table.jacks, table.orbit_size)
    assert weighted.tolist() == flag_counts.tolist()


def test_walk_equals_class_table():
    """Four suits, the joker, the wheel and broadway: 37 cards, every hand walked one by one."""
    _walk_equals_class_table(Deck.parse("A2345TJQK:cdhs+joker"), math.comb(37, 7))


@pytest.mark.slow
def test_full_deck_walk_equals_class_table():
    _walk_equals_class_table(None, 154_143_080)
