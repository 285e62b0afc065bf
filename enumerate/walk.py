"""Direct walks over every seven-card hand of a deck, without suit symmetry.

These are the deliberately plain references that the class tables are checked against: each
hand is classified on its own, nothing is weighted.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from enumerate.classes import classify, fortune_of_five
from enumerate.evaluate import five_card_table
from enumerate.rules import Deck, Rules


@njit(cache=True, parallel=True)
def _walk(ids, pairs, ids5, fortune5, category5, n_classes):
    n_items = pairs.shape[0]
    counts = np.zeros((n_items, n_classes), dtype=np.int64)
    flag_counts = np.zeros((n_items, 16 * 8), dtype=np.int64)
    for item in prange(n_items):
        p5, p6 = pairs[item, 0], pairs[item, 1]
        hand = np.empty(7, dtype=np.int64)
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
    return counts.sum(axis=0), flag_counts.sum(axis=0)


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
    return _walk(ids, pairs, five.ids, fortune_of_five(five), five.category, 13)
