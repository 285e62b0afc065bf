"""Suit classes: published orbit counts, and a brute-force grouping on small decks."""

from itertools import combinations, permutations
from math import comb

import numpy as np
import pytest

from enumerate.rules import Deck
from enumerate.symmetry import canonical_code, orbits, suit_positions

FULL_DECK_ORBITS = [1, 14, 182, 1_924, 18_187, 150_891, 1_097_447, 6_972_147]


@pytest.mark.parametrize("k", range(8))
def test_full_deck_orbit_counts(k):
    o = orbits(Deck.full(), k)
    assert len(o) == FULL_DECK_ORBITS[k]
    assert o.total == comb(53, k)
    assert (np.diff(o.codes) > 0).all()


def _brute_classes(deck: Deck, k: int) -> dict[frozenset, int]:
    """Group every k-subset by its orbit under explicit suit permutations."""
    ids = deck.ids
    suits = [s.order for s in deck.suits]
    seen: dict[frozenset, int] = {}
    for combo in combinations(ids, k):
        images = set()
        for perm in permutations(suits):
            table = dict(zip(suits, perm, strict=True))
            images.add(frozenset(c if c == 52 else (c & ~3) | table[c & 3] for c in combo))
        rep = min(images, key=lambda s: sorted(s))
        seen[frozenset(rep)] = len(images)
    return seen


@pytest.mark.parametrize("deck_text", ["A2345:cdh+joker", "TJQKA:cdhs", "9TJ:cdhs+joker"])
@pytest.mark.parametrize("k", [2, 4, 5])
def test_orbits_match_brute_force(deck_text, k):
    deck = Deck.parse(deck_text)
    brute = _brute_classes(deck, k)
    o = orbits(deck, k)
    assert len(o) == len(brute)
    assert sorted(int(s) for s in o.size) == sorted(brute.values())
    # every representative is a card set of the deck, and its orbit size matches brute force
    pos = suit_positions(deck)
    by_code = {}
    for rep, size in brute.items():
        code = canonical_code(np.array(sorted(rep), dtype=np.int64), pos)
        by_code[code] = size
    for code, size in zip(o.codes, o.size, strict=True):
        assert by_code[int(code)] == size


def test_canonical_code_is_suit_invariant():
    rng = np.random.default_rng(7)
    pos = suit_positions(Deck.full())
    for _ in range(200):
        hand = rng.choice(53, size=7, replace=False)
        perm = rng.permutation(4)
        image = np.array([c if c == 52 else (c & ~3) | perm[c & 3] for c in hand], dtype=np.int64)
        assert canonical_code(hand.astype(np.int64), pos) == canonical_code(image, pos)
