"""Direct walks over every seven-card hand of a deck, without suit symmetry.

These are the deliberately plain references that the class tables are checked against: each
hand is classified on its own, nothing is weighted.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.classes import classify, fortune_of_five
from enumerate.evaluate import five_card_table
from enumerate.rules import Deck, Rules
from enumerate.runtime.threads import over_ranges


@njit(cache=True, nogil=True)
def _walk(lo, hi, ids, pairs, ids5, fortune5, category5, counts, flag_counts):
    """The hands of items ``lo .. hi - 1`` (their two highest positions in ``ids``), counted
    by class and by flags and jacks, per item."""
    hand = np.empty(7, dtype=np.int64)
    for item in range(lo, hi):
        p5, p6 = pairs[item, 0], pairs[item, 1]
        hand[5] = ids[p5]
        hand[6] = ids[p6]
        for p4 in range(4, p5):
            hand[4] = ids[p4]
            for p3 in range(3, p4):
                hand[3] = ids[p3]
                for p2 in range(2, p3):
                    hand[2] = ids[p2]
                    for p1 in range(1, p2):
                        hand[1] = ids[p1]
                        for p0 in range(p1):
                            hand[0] = ids[p0]
                            cls, _b, flags, jacks = classify(hand, ids5, fortune5, category5)
                            counts[item, cls] += 1
                            flag_counts[item, flags * 8 + jacks] += 1


def walk_classes(deck: Deck | None = None, rules: Rules | None = None):
    """Count seven-card classes and (flags, jacks) over every hand of the deck, one by one.

    Returns (class counts, counts indexed by ``flags * 8 + jacks``).
    """
    deck = deck or Deck.full()
    five = five_card_table(rules)
    ids = np.array(sorted(deck.ids), dtype=np.int64)
    n = ids.shape[0]
    pairs = np.array([(a, b) for b in range(6, n) for a in range(5, b)], dtype=np.int64)
    # spread big and small work items evenly over the threads
    pairs = pairs[np.random.default_rng(0).permutation(len(pairs))]
    counts = np.zeros((len(pairs), 13), dtype=np.int64)
    flag_counts = np.zeros((len(pairs), 16 * 8), dtype=np.int64)
    over_ranges(_walk, len(pairs), ids, pairs, five.ids, fortune_of_five(five), five.category,
                counts, flag_counts)  # fmt: skip
    return counts.sum(axis=0), flag_counts.sum(axis=0)
