"""Hand tables: one row per suit class of seven-card hands of a deck, cached as Parquet.

Each row holds the class representative's cards, its orbit size (how many hands of the deck it
stands for), its Fortune-order seven-card class, the id of the best five cards, the pai gow
flags and the number of jacks. The 21 settings' rank ids are derived on demand
(``HandTable.settings``, a second or two for the full deck) rather than stored.

>>> from math import comb
>>> t = hand_table(Deck.parse("TJQKA:cdh+joker"), use_cache=False)
>>> t.total == comb(16, 7)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pyarrow as pa

from enumerate.cache import cache_dir, load_or_build, provenance
from enumerate.cards import Card, parse_cards
from enumerate.classes import classify_all, fortune_of_five
from enumerate.evaluate import all_settings, five_card_table
from enumerate.rules import Deck, Rules
from enumerate.symmetry import canonical_code, orbits, suit_positions
from enumerate.vocabulary import HandFlag, SevenCardClass

SCHEMA_VERSION = 1
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

    def class_counts(self) -> dict[SevenCardClass, int]:
        """Number of hands of the deck in each seven-card class (exact integers)."""
        counts = np.zeros(len(SevenCardClass), dtype=np.int64)
        np.add.at(counts, self.seven_card_class.astype(np.int64), self.orbit_size)
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


def cache_path(deck: Deck, rules: Rules, cache: Path | None = None) -> Path:
    safe = deck.name.replace(":", "_").replace("+", "_")
    return (cache or cache_dir()) / f"hands-{safe}-wheel_{rules.wheel}.parquet"


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
    prov = provenance(SCHEMA_VERSION, table="hands", deck=deck.key, rules=rules.key)
    table, hit = load_or_build(
        cache_path(deck, rules, cache), prov, lambda: _build(deck, rules), use_cache
    )

    def col(name: str, dtype: type) -> np.ndarray:
        return np.ascontiguousarray(table.column(name).to_numpy(), dtype=dtype)

    cards = np.stack([col(c, np.int8) for c in CARD_COLUMNS], axis=1)
    return HandTable(
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
