"""What the pair engine needs to know about every hand class, as plain integer arrays.

Dealer side: the house-way setting (high id, low id) and a small *dealer class* (normal hand,
ace-high pai gow with or without the joker, two or more jacks, queen-high pai gow, nine-high
low hand, and their combinations), so that variants can apply their special rules to the counts
afterwards. Player side: a blind setting (high id, low id), the frontier of non-dominated
settings, a *player class* for side bets, and a weight (1 for every hand, or a selection).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from enumerate.classes import SevenCardClass
from enumerate.evaluate import PAIR_BASE
from enumerate.houseways import HouseWay
from enumerate.tables import HandTable
from enumerate.waytables import player_table, way_table

NINE = 7  # rank index of a nine

# dealer flag bits
ACE_HIGH_JOKER = 1
ACE_HIGH_NATURAL = 2
TWO_JACKS = 4
QUEEN_HIGH = 8
NINE_HIGH_LOW = 16

DEALER_FLAG_NAMES = {
    ACE_HIGH_JOKER: "ace-high pai gow, joker as the ace",
    ACE_HIGH_NATURAL: "ace-high pai gow, natural ace",
    TWO_JACKS: "two or more jacks",
    QUEEN_HIGH: "queen-high pai gow",
    NINE_HIGH_LOW: "nine-high low hand",
}

# player classes: the seven-card classes, with "nothing" split by ace-high pai gow
N_PLAYER_CLASSES = len(SevenCardClass) + 1
PLAYER_ACE_HIGH_PAI_GOW = len(SevenCardClass)  # class id of "nothing, ace-high pai gow"


def player_class_name(pc: int) -> str:
    if pc == PLAYER_ACE_HIGH_PAI_GOW:
        return "nothing (ace-high pai gow)"
    return SevenCardClass(pc).label


def dealer_class_name(bits: int) -> str:
    names = [name for bit, name in DEALER_FLAG_NAMES.items() if bits & bit]
    return " + ".join(names) if names else "normal"


def nine_high_low(low: np.ndarray) -> np.ndarray:
    """Two-card ids whose higher card is a nine (no pair)."""
    lo = low.astype(np.int64)
    return (lo < PAIR_BASE) & (lo >= NINE * (NINE - 1) // 2) & (lo < (NINE + 1) * NINE // 2)


@dataclass(frozen=True, eq=False)
class EngineKeys:
    """Per-class keys for the pair engine (one entry per row of the hand table)."""

    dealer_high: np.ndarray  # int16
    dealer_low: np.ndarray  # int8
    dealer_class: np.ndarray  # int8, index into dealer_class_bits
    dealer_class_bits: tuple[int, ...]  # flag bits of each dealer class
    player_high: np.ndarray  # int16 blind setting
    player_low: np.ndarray  # int8
    frontier_size: np.ndarray  # int8
    frontier_high: np.ndarray  # (n, w) int16
    frontier_low: np.ndarray  # (n, w) int8
    player_class: np.ndarray  # int8
    player_weight: np.ndarray  # int64
    label: str  # what these keys are, for provenance

    @property
    def n_dealer_classes(self) -> int:
        return len(self.dealer_class_bits)

    def with_player_weight(self, weight: np.ndarray, label: str) -> EngineKeys:
        """The same keys with a selection of player hands (weights per class)."""
        return EngineKeys(
            self.dealer_high, self.dealer_low, self.dealer_class, self.dealer_class_bits,
            self.player_high, self.player_low, self.frontier_size, self.frontier_high,
            self.frontier_low, self.player_class, weight.astype(np.int64),
            f"{self.label}|weights:{label}",
        )  # fmt: skip

    @property
    def digest(self) -> str:
        """Hash of every array: two runs with equal digests count the same thing."""
        h = hashlib.sha256(self.label.encode())
        for arr in (
            self.dealer_high, self.dealer_low, self.dealer_class, self.player_high,
            self.player_low, self.frontier_size, self.frontier_high, self.frontier_low,
            self.player_class, self.player_weight,
        ):  # fmt: skip
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update(repr(self.dealer_class_bits).encode())
        return h.hexdigest()[:16]


def dealer_flags(table: HandTable, dealer_low: np.ndarray) -> np.ndarray:
    """Dealer flag bits of every class (see ``DEALER_FLAG_NAMES``)."""
    bits = np.zeros(len(table), dtype=np.int64)
    bits |= np.where(table.joker_is_ace, ACE_HIGH_JOKER, 0)
    bits |= np.where(table.ace_high_pai_gow & ~table.joker_is_ace, ACE_HIGH_NATURAL, 0)
    bits |= np.where(table.jacks >= 2, TWO_JACKS, 0)
    bits |= np.where(table.queen_high_pai_gow, QUEEN_HIGH, 0)
    bits |= np.where(nine_high_low(dealer_low), NINE_HIGH_LOW, 0)
    return bits


def build_keys(
    table: HandTable,
    dealer_way: HouseWay,
    player_way: HouseWay | None = None,
    flag_mask: int = 31,
    use_cache: bool = True,
) -> EngineKeys:
    """Keys for a dealer setting hands by ``dealer_way`` and a player who sets blind by
    ``player_way`` (default: the same way) or sees the dealer (frontier).

    ``flag_mask`` keeps only some dealer flags (fewer dealer classes, faster runs). The way
    and frontier tables come from their Parquet caches when ``use_cache``.
    """
    dealer = way_table(dealer_way, table.deck, table.rules, use_cache)
    player = dealer
    if player_way is not None and player_way.key != dealer_way.key:
        player = way_table(player_way, table.deck, table.rules, use_cache)
    fr = player_table(table.deck, table.rules, use_cache)
    bits = dealer_flags(table, dealer.low) & flag_mask
    uniq, dclass = np.unique(bits, return_inverse=True)
    pclass = table.seven_card_class.astype(np.int64).copy()
    pclass[table.ace_high_pai_gow] = PLAYER_ACE_HIGH_PAI_GOW
    label = (
        f"deck={table.deck.key};rules={table.rules.key};dealer={dealer_way.key};"
        f"player={(player_way or dealer_way).key};flags={flag_mask}"
    )
    return EngineKeys(
        dealer_high=dealer.high.astype(np.int16),
        dealer_low=dealer.low.astype(np.int8),
        dealer_class=dclass.astype(np.int8),
        dealer_class_bits=tuple(int(b) for b in uniq),
        player_high=player.high.astype(np.int16),
        player_low=player.low.astype(np.int8),
        frontier_size=fr.size,
        frontier_high=np.ascontiguousarray(fr.high),
        frontier_low=np.ascontiguousarray(fr.low),
        player_class=pclass.astype(np.int8),
        player_weight=np.ones(len(table), dtype=np.int64),
        label=label,
    )
