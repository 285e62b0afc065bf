"""What the pair engine needs to know about every hand class, as plain integer arrays.

Dealer side: the house-way setting (high id, low id) and a small *dealer class* (normal hand,
ace-high pai gow with or without the joker, two or more jacks, queen-high pai gow, nine-high
low hand, and their combinations), so that variants can apply their special rules to the counts
afterwards. Player side: a blind setting (high id, low id), the frontier of non-dominated
settings, a *player class* for side bets, and a weight (1 for every hand, or a selection).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np
from numba import njit

from enumerate.cache import read_only
from enumerate.evaluate import PAIR_BASE
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules
from enumerate.tables import HandTable
from enumerate.vocabulary import (
    ALL_DEALER_EVENTS,
    PLAYER_ACE_HIGH_PAI_GOW,
    DealerEvent,
)
from enumerate.waytables import player_table, way_table

NINE = 7  # rank index of a nine


def nine_high_low(low: np.ndarray) -> np.ndarray:
    """Two-card ids whose higher card is a nine (no pair)."""
    lo = low.astype(np.int64)
    return (lo < PAIR_BASE) & (lo >= NINE * (NINE - 1) // 2) & (lo < (NINE + 1) * NINE // 2)


@dataclass(frozen=True)
class KeySpec:
    """What a set of keys counts: the inputs ``build_keys`` made them from, by name and key
    (a Dask worker rebuilds the same keys from this), and a player selection if any."""

    deck: str  # Deck.key
    rules: str  # Rules.key
    dealer: str  # house way names
    player: str
    dealer_key: str  # HouseWay.key: name, version and source hash
    player_key: str
    flag_mask: int
    selection: str | None = None  # a selection of player hands (``with_player_weight``)

    @classmethod
    def of(cls, deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay | None,
           flag_mask: int) -> KeySpec:  # fmt: skip
        """The spec of ``build_keys`` for these inputs (``player`` None: the dealer's way), so
        a cached table made from such keys can be found without building them."""
        p = player or dealer
        return cls(deck.key, rules.key, dealer.name, p.name, dealer.key, p.key, flag_mask)

    @property
    def label(self) -> str:
        """A stable text form, for provenance."""
        return json.dumps(asdict(self), sort_keys=True)


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
    player_weight: np.ndarray  # int64, 1 for a player hand counted, 0 for one left out
    spec: KeySpec  # what these keys are
    class_orbit: np.ndarray  # int64 hands of each class (the hand table's orbit sizes)

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def flag_mask(self) -> int:
        return self.spec.flag_mask

    @property
    def n_dealer_classes(self) -> int:
        return len(self.dealer_class_bits)

    def with_player_weight(self, weight: np.ndarray, label: str) -> EngineKeys:
        """The same keys with a selection of player hands (a weight of 1 or 0 per class)."""
        if not np.isin(weight, (0, 1)).all():
            raise ValueError("player weights select hands: each must be 0 or 1")
        return EngineKeys(
            self.dealer_high, self.dealer_low, self.dealer_class, self.dealer_class_bits,
            self.player_high, self.player_low, self.frontier_size, self.frontier_high,
            self.frontier_low, self.player_class, weight.astype(np.int64),
            replace(self.spec, selection=label), self.class_orbit,
        )  # fmt: skip

    @cached_property
    def packed(self) -> np.ndarray:
        """One int64 record per class with what a family pass reads of it
        (``kernels.records.pack_classes``)."""
        from enumerate.engine.kernels.records import pack_classes

        return pack_classes(
            dealer_high=self.dealer_high, dealer_low=self.dealer_low,
            dealer_class=self.dealer_class, player_class=self.player_class,
            class_orbit_size=self.class_orbit, player_selected=self.player_weight,
            player_group=self.player_groups[0],
        )  # fmt: skip

    @cached_property
    def player_groups(self) -> tuple[np.ndarray, np.ndarray]:
        """Classes whose player side asks the same questions: ``(group, rep)`` with
        ``group[c]`` the group of class c and ``rep[g]`` one class of group g.

        Two classes are in one group when their blind settings and frontiers are equal; the
        pair engine then answers each group once per family, with the summed weight. Hand
        ranks repeat far more than suit patterns: a family of 684,000 classes has about
        27,000 groups.
        """
        return player_groups(self.player_high, self.player_low, self.frontier_size,
                             self.frontier_high, self.frontier_low)  # fmt: skip

    @cached_property
    def digest(self) -> str:
        """Hash of every array: two runs with equal digests count the same thing (worked out
        once: a per-hand run names its cache file and provenance by it four times, and each
        hashes about 300 MB on the full deck)."""
        h = hashlib.sha256(self.label.encode())
        for arr in (
            self.dealer_high, self.dealer_low, self.dealer_class, self.player_high,
            self.player_low, self.frontier_size, self.frontier_high, self.frontier_low,
            self.player_class, self.player_weight,
        ):  # fmt: skip
            h.update(np.ascontiguousarray(arr).data)  # its buffer: no copy
        h.update(repr(self.dealer_class_bits).encode())
        return h.hexdigest()[:16]


def dealer_flags(table: HandTable, dealer_low: np.ndarray) -> np.ndarray:
    """``DealerEvent`` bits of every class."""
    return event_bits(table.joker_is_ace, table.ace_high_pai_gow, table.jacks,
                      table.queen_high_pai_gow, dealer_low)  # fmt: skip


def event_bits(joker_is_ace: np.ndarray, ace_high_pai_gow: np.ndarray, jacks: np.ndarray,
               queen_high_pai_gow: np.ndarray, dealer_low: np.ndarray) -> np.ndarray:  # fmt: skip
    """``DealerEvent`` bits from what a hand is (hand flags, jacks, the way's low hand)."""
    bits = np.zeros(len(jacks), dtype=np.int64)
    bits |= np.where(joker_is_ace, DealerEvent.ACE_HIGH_JOKER, 0)
    bits |= np.where(ace_high_pai_gow & ~joker_is_ace, DealerEvent.ACE_HIGH_NATURAL, 0)
    bits |= np.where(jacks >= 2, DealerEvent.TWO_JACKS, 0)
    bits |= np.where(queen_high_pai_gow, DealerEvent.QUEEN_HIGH, 0)
    bits |= np.where(nine_high_low(dealer_low), DealerEvent.NINE_HIGH_LOW, 0)
    return bits


def build_keys(
    table: HandTable,
    dealer_way: HouseWay,
    player_way: HouseWay | None = None,
    flag_mask: int = ALL_DEALER_EVENTS,
    use_cache: bool = True,
    cache: Path | None = None,
) -> EngineKeys:
    """Keys for a dealer setting hands by ``dealer_way`` and a player who sets blind by
    ``player_way`` (default: the same way) or sees the dealer (frontier).

    ``flag_mask`` keeps only some dealer flags (fewer dealer classes, faster runs). The way
    and frontier tables come from their Parquet caches (in ``cache``, default ``cache_dir()``)
    when ``use_cache``.
    """
    if not 0 <= flag_mask <= ALL_DEALER_EVENTS:
        raise ValueError(f"flag mask {flag_mask}: expected 0..{ALL_DEALER_EVENTS}")
    dealer = way_table(dealer_way, table.deck, table.rules, use_cache, cache)
    player = dealer
    if player_way is not None and player_way.key != dealer_way.key:
        player = way_table(player_way, table.deck, table.rules, use_cache, cache)
    fr = player_table(table.deck, table.rules, use_cache, cache)
    bits = dealer_flags(table, dealer.low) & flag_mask
    uniq, dclass = np.unique(bits, return_inverse=True)
    pclass = table.seven_card_class.astype(np.int64).copy()
    pclass[table.ace_high_pai_gow] = PLAYER_ACE_HIGH_PAI_GOW
    spec = KeySpec.of(table.deck, table.rules, dealer_way, player_way, flag_mask)
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
        spec=spec,
        class_orbit=table.orbit_size.astype(np.int64),
    )


@njit(cache=True, nogil=True)
def _player_hash(ph, pl, fsize, fh, fl):
    """FNV-1a of each class's (blind setting, frontier); equal keys give equal hashes."""
    n = ph.shape[0]
    out = np.empty(n, dtype=np.uint64)
    prime = np.uint64(1099511628211)
    for c in range(n):
        h = np.uint64(14695981039346656037)
        h = (h ^ np.uint64(ph[c] + 1)) * prime
        h = (h ^ np.uint64(pl[c] + 1)) * prime
        for j in range(fsize[c]):
            h = (h ^ np.uint64(fh[c, j] + 1)) * prime
            h = (h ^ np.uint64(fl[c, j] + 1)) * prime
        out[c] = (h ^ np.uint64(fsize[c])) * prime
    return out


@njit(cache=True)
def _same_player(a, b, ph, pl, fsize, fh, fl):
    if ph[a] != ph[b] or pl[a] != pl[b] or fsize[a] != fsize[b]:
        return False
    for j in range(fsize[a]):  # noqa: SIM110 - numba compiles no generators
        if fh[a, j] != fh[b, j] or fl[a, j] != fl[b, j]:
            return False
    return True


_NO_GROUP = -1


@njit(cache=True, nogil=True, inline="always")
def _slot(h, shift):
    """Fibonacci hashing of a 64-bit hash: its top bits after a multiply."""
    return np.int64((h * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))


@njit(cache=True, nogil=True)
def _group_by_table(hashes, ph, pl, fsize, fh, fl):
    """One pass over the classes in order, each looked up by its hash in an open-addressing
    table of the groups met so far (grown when half full); a hash met again is compared key
    by key (``_same_player``), so a collision costs a comparison, never a wrong group. Groups
    are numbered in the order of their first class, which represents them.

    (Sorting the 6,972,147 hashes and walking the classes in that order would cost the sort
    and a cache miss per class; the table of the full deck's 223,896 groups mostly stays in
    cache.)"""
    n = hashes.shape[0]
    group = np.empty(n, dtype=np.int32)
    rep = np.empty(max(n, 1), dtype=np.int64)
    ghash = np.empty(max(n, 1), dtype=np.uint64)
    bits = 10
    table = np.full(1 << bits, _NO_GROUP, dtype=np.int64)
    n_groups = 0
    for c in range(n):
        if 2 * (n_groups + 1) > table.shape[0]:  # grown: every group again, in twice the room
            bits += 1
            table = np.full(1 << bits, _NO_GROUP, dtype=np.int64)
            for g in range(n_groups):
                s = _slot(ghash[g], 64 - bits)
                while table[s] != _NO_GROUP:
                    s = (s + 1) & ((1 << bits) - 1)
                table[s] = g
        h = hashes[c]
        s = _slot(h, 64 - bits)
        g = -1
        while table[s] != _NO_GROUP:
            t = table[s]
            if ghash[t] == h and _same_player(c, rep[t], ph, pl, fsize, fh, fl):
                g = t
                break
            s = (s + 1) & ((1 << bits) - 1)
        if g < 0:
            g = n_groups
            rep[g] = c
            ghash[g] = h
            table[s] = g
            n_groups += 1
        group[c] = g
    return group, rep[:n_groups].copy()


def player_groups(
    ph: np.ndarray, pl: np.ndarray, fsize: np.ndarray, fh: np.ndarray, fl: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Group classes with equal (blind setting, frontier): ``(group per class, a class per
    group)``.

    >>> ph = np.array([5, 5, 5, 7]); pl = np.array([1, 1, 1, 1])
    >>> fsize = np.array([1, 1, 2, 1]); fh = np.array([[5, 0], [5, 0], [5, 6], [7, 0]])
    >>> fl = np.array([[1, 0], [1, 0], [1, 0], [1, 0]])
    >>> group, rep = player_groups(ph, pl, fsize, fh, fl)
    >>> group[0] == group[1], len({*group.tolist()}), len(rep)
    (np.True_, 3, 3)
    """
    # read-only views, as the frontiers read back from the cache are: the kernels compile
    # once for the tables just built and those read back
    ph, pl, fsize, fh, fl = map(read_only, (ph, pl, fsize, fh, fl))
    return _group_by_table(_player_hash(ph, pl, fsize, fh, fl), ph, pl, fsize, fh, fl)
