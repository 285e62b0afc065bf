"""Hand tables: one row per suit class of seven-card hands of a deck, cached as Parquet.

Each row holds the class representative's cards, its orbit size (how many hands of the deck it
stands for), its Fortune-order seven-card class, the id of the best five cards, the pai gow
flags and the number of jacks. The 21 settings' rank ids are derived on demand
(``HandTable.settings``) rather than stored.

>>> from math import comb
>>> t = hand_table(Deck.parse("TJQKA:cdh+joker"), use_cache=False)
>>> t.total == comb(16, 7)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from math import comb
from pathlib import Path

import numpy as np
import pyarrow as pa
from numba import njit

from enumerate.cache import LastRead, cache_dir, is_current, load_or_build, provenance, require
from enumerate.cards import JOKER_ID, Card, parse_cards
from enumerate.classes import classify_all, fortune_of_five
from enumerate.evaluate import all_settings, five_card_table
from enumerate.rules import Deck, Rules
from enumerate.symmetry import canonical_code, orbits, suit_positions
from enumerate.vocabulary import HandFlag, SevenCardClass

_LAST_READ: LastRead[HandTable] = LastRead()  # the last table read from the cache
CARD_COLUMNS = [f"c{i}" for i in range(7)]


@dataclass(frozen=True, eq=False)
class HandTable:
    """Seven-card suit classes of a deck under a rule set (arrays, one entry per class)."""

    deck: Deck
    rules: Rules
    codes: np.ndarray  # int64 canonical codes, increasing
    cards: np.ndarray  # (n, 7) int8 card ids, increasing
    orbit_size: np.ndarray  # int32
    seven_card_class: np.ndarray  # int8, SevenCardClass
    best_five: np.ndarray  # int16 five-card id of the best five cards
    flags: np.ndarray  # int8 HandFlag bits
    jacks: np.ndarray  # int8 natural jacks
    from_cache: bool = False

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    @property
    def total(self) -> int:
        """Number of seven-card hands of the deck."""
        return int(self.orbit_size.sum(dtype=np.int64))

    @property
    def pai_gow(self) -> np.ndarray:
        return (self.flags & HandFlag.PAI_GOW) != 0

    @property
    def ace_high_pai_gow(self) -> np.ndarray:
        return (self.flags & HandFlag.ACE_HIGH_PAI_GOW) != 0

    @property
    def joker_is_ace(self) -> np.ndarray:
        return (self.flags & HandFlag.JOKER_IS_ACE) != 0

    @property
    def queen_high_pai_gow(self) -> np.ndarray:
        return (self.flags & HandFlag.QUEEN_HIGH_PAI_GOW) != 0

    @cached_property
    def settings(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(high ids, low ids, valid) of the 21 settings of every class, each (n, 21)."""
        five = five_card_table(self.rules)
        high, low = all_settings(self.cards, five.ids)
        valid = low <= five.max_low[high]
        return high, low, valid

    @cached_property
    def _class_totals(self) -> np.ndarray:
        counts = np.zeros(len(SevenCardClass), dtype=np.int64)
        np.add.at(counts, self.seven_card_class.astype(np.int64), self.orbit_size)
        return counts

    def class_counts(self) -> dict[SevenCardClass, int]:
        """Number of hands of the deck in each seven-card class (exact integers)."""
        counts = self._class_totals
        return {c: int(counts[c]) for c in SevenCardClass}

    def weighted_count(self, mask: np.ndarray) -> int:
        """Number of hands of the deck whose class satisfies ``mask``."""
        return int(self.orbit_size[mask].sum(dtype=np.int64))

    def row_of(self, cards: list[Card] | tuple[Card, ...] | str) -> int:
        """Row of the class of seven cards of this deck."""
        hand = parse_cards(cards, count=7)
        missing = [str(c) for c in hand if c not in self.deck.cards]
        if missing:
            raise ValueError(f"card {missing[0]} is not in the deck {self.deck.name}")
        ids = np.array([c.id for c in hand], dtype=np.int64)
        code = canonical_code(ids, suit_positions(self.deck))
        i = int(np.searchsorted(self.codes, code))
        if i >= len(self) or self.codes[i] != code:
            raise AssertionError("hand table is missing a class")
        return i


def _build(deck: Deck, rules: Rules) -> pa.Table:
    five = five_card_table(rules)
    orb = orbits(deck, 7)
    cls, best, flags, jacks = classify_all(
        orb.cards, five.ids, fortune_of_five(five), five.category
    )
    columns = {name: orb.cards[:, i] for i, name in enumerate(CARD_COLUMNS)}
    columns.update(
        code=orb.codes,
        orbit_size=orb.size,
        seven_card_class=cls,
        best_five_id=best,
        flags=flags,
        jacks=jacks,
    )
    return pa.table(columns)


_JACK = 9  # rank index


_PROBLEMS = (
    "",
    "an orbit size is not positive",
    "canonical codes are not increasing",
    "a class's cards are not increasing",
    "a card is not in the deck",
    "a seven-card class is out of range",
    "a flag is out of range",
    "a jacks count differs from the cards",
)


@njit(cache=True)
def _hand_table_problem(codes, cards, size, cls, flags, jacks, in_deck, n_classes, flag_bits):
    """Index into ``_PROBLEMS`` of the first broken invariant of a hand table (0: none); one
    pass, so that verifying a cached table costs little next to reading it."""
    for i in range(codes.shape[0]):
        if size[i] <= 0:
            return 1
        if i > 0 and codes[i] <= codes[i - 1]:
            return 2
        n_jacks = 0
        for j in range(7):
            c = cards[j][i]
            if j > 0 and c <= cards[j - 1][i]:
                return 3
            if c < 0 or c > JOKER_ID or not in_deck[c]:
                return 4
            if c != JOKER_ID and (c >> 2) == _JACK:
                n_jacks += 1
        if cls[i] < 0 or cls[i] >= n_classes:
            return 5
        if flags[i] < 0 or (flags[i] & ~flag_bits) != 0:
            return 6
        if jacks[i] != n_jacks:
            return 7
    return 0


def check_hand_table(deck: Deck) -> Callable[[pa.Table], None]:
    """The invariants of a hand table of ``deck``: orbit sizes positive and adding up to every
    hand of the deck; canonical codes increasing; each class's cards increasing and in the
    deck; classes and flags in range; the jacks count right."""
    in_deck = np.zeros(JOKER_ID + 1, dtype=np.bool_)
    in_deck[list(deck.ids)] = True

    def check(t: pa.Table) -> None:
        def col(name: str) -> np.ndarray:
            return t.column(name).to_numpy()

        size = col("orbit_size")
        total = int(size.sum(dtype=np.int64))
        require(total == comb(deck.size, 7),
                f"orbit sizes add up to {total:,}, not C({deck.size},7)")  # fmt: skip
        problem = _hand_table_problem(
            col("code"), tuple(col(c) for c in CARD_COLUMNS), size, col("seven_card_class"),
            col("flags"), col("jacks"), in_deck, len(SevenCardClass), int(sum(HandFlag)),
        )  # fmt: skip
        require(problem == 0, _PROBLEMS[problem])

    return check


def cache_path(deck: Deck, rules: Rules, cache: Path | None = None) -> Path:
    safe = deck.name.replace(":", "_").replace("+", "_")
    return (cache or cache_dir()) / f"hands-{safe}-wheel_{rules.wheel}.parquet"


def _prov(deck: Deck, rules: Rules) -> dict[str, object]:
    return provenance(__name__, table="hands", deck=deck.key, rules=rules.key)


def hand_table_is_cached(deck: Deck, rules: Rules, cache: Path | None = None) -> bool:
    """Is the hand table current in the cache? (Its content is verified when read.)"""
    return is_current(cache_path(deck, rules, cache), _prov(deck, rules))


def hand_table(
    deck: Deck | None = None,
    rules: Rules | None = None,
    use_cache: bool = True,
    cache: Path | None = None,
) -> HandTable:
    """The hand table of ``deck`` under ``rules``, from the cache folder ``cache`` (default
    ``cache_dir()``) when it is current there."""
    deck = deck or Deck.full()
    rules = rules or Rules()
    if deck.size < 7:
        raise ValueError(f"deck {deck.name} has {deck.size} cards; a hand needs 7")
    path = cache_path(deck, rules, cache)
    held = _LAST_READ.get(path) if use_cache else None
    if held is not None:
        return held
    table, hit = load_or_build(
        path, _prov(deck, rules), lambda: _build(deck, rules), use_cache, check_hand_table(deck),
    )

    def col(name: str, dtype: type) -> np.ndarray:
        return np.ascontiguousarray(table.column(name).to_numpy(), dtype=dtype)

    cards = np.stack([col(c, np.int8) for c in CARD_COLUMNS], axis=1)
    result = HandTable(
        deck=deck,
        rules=rules,
        codes=col("code", np.int64),
        cards=cards,
        orbit_size=col("orbit_size", np.int32),
        seven_card_class=col("seven_card_class", np.int8),
        best_five=col("best_five_id", np.int16),
        flags=col("flags", np.int8),
        jacks=col("jacks", np.int8),
        from_cache=hit,
    )
    if hit:  # served again while its file is the one just read and verified
        _LAST_READ.hold(path, result)
    return result
