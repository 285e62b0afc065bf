"""The full deck walked hand by hand equals the suit-class table."""

import numpy as np

from enumerate.classes import SevenCardClass
from enumerate.tables import hand_table
from enumerate.walk import walk_classes


def test_full_deck_walk_equals_class_table():
    counts, flag_counts = walk_classes()
    assert int(counts.sum()) == 154_143_080
    table = hand_table()
    by_class = table.class_counts()
    assert [by_class[c] for c in SevenCardClass] == counts.tolist()
    weighted = np.zeros(128, dtype=np.int64)
    np.add.at(weighted, table.flags.astype(np.int64) * 8 + table.jacks, table.orbit_size)
    assert weighted.tolist() == flag_counts.tolist()
