"""One player hand against every dealer hand of the other cards, counted one dealer hand at a
time (no inclusion-exclusion): what ``paigow best`` runs when no per-hand table is cached.

The full deck leaves C(46, 7) = 53,524,680 dealer hands. Numba threads walk them in
lexicographic chunks; each dealer hand's class number (``classindex``: computed from its
cards, no lookup) indexes one int32 per class holding what the count needs of the dealer: its
house-way setting (from the cached way table: the way is not applied again) and its dealer
class (``dealer_keys``, cached: 28 MB for the full deck). A chunk counts into a small
histogram: against a few player settings only the place of the dealer's high id among the
player's high ids matters (and of its low id among their low ids), so a dealer hand adds 1 to
cell (dealer class, high bucket, low bucket), and the wins and losses of every player setting
are sums of cells afterwards.

The counts are those of the per-hand engine for the hand's class
(``perhand.table.run_per_hand``), integer for integer: the same dealer classes
(``keys.dealer_flags`` under the flag mask, in the same order) and the same settings (the
frontier and the house way's setting of the class).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit

from enumerate.cache import cache_dir, load_or_build_arrays, provenance, require
from enumerate.colex import combinations_at
from enumerate.engine.keys import build_keys, dealer_flags
from enumerate.engine.onehand.classindex import class_index, index_of_keys
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.row import HandCounts, find_table, read_class
from enumerate.engine.perhand.table import PerHand, run_per_hand
from enumerate.evaluate import HIGH_ID_BOUND, N_LOW
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import cores, over_ranges
from enumerate.symmetry import canonical_code, suit_keys, suit_positions
from enumerate.tables import hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS
from enumerate.waytables import way_table

METHODS = ("auto", "table", "direct")
# a dealer key: high id << 12 | low id << 5 | dealer class (ids below 2^13 and 2^7; at most
# 32 dealer classes, one per combination of the five DealerEvent bits)
_LOW_SHIFT, _HIGH_SHIFT = 5, 12
_BATCH = 4096  # dealer hands unranked at a time by a thread
_CHUNKS_PER_THREAD = 16


@dataclass(frozen=True, eq=False)
class DealerKeys:
    """Per class, by class number (``classindex``): the dealer key (house-way setting and
    dealer class, packed); the flag bits of each dealer class."""

    keys: np.ndarray  # int32
    dealer_class_bits: tuple[int, ...]
    from_cache: bool = False

    def setting(self, number: int) -> tuple[int, int]:
        """(high id, low id) of the house way's setting of class ``number``."""
        v = int(self.keys[number])
        return v >> _HIGH_SHIFT, (v >> _LOW_SHIFT) & 127


def dealer_classes(bits: np.ndarray) -> tuple[tuple[int, ...], np.ndarray]:
    """The dealer classes of the engine keys (``build_keys``): the distinct flag bits,
    increasing, and the index of each entry's among them (a bincount, not a sort of the 7
    million classes)."""
    present = np.flatnonzero(np.bincount(bits, minlength=ALL_DEALER_EVENTS + 1))
    index = np.full(ALL_DEALER_EVENTS + 1, -1, dtype=np.int64)
    index[present] = np.arange(len(present))
    return tuple(int(b) for b in present), index[bits]


@njit(cache=True)
def _keys_problem(keys, n_d):
    """0 when every key's ids and dealer class are in range and every dealer class is some
    class's; else 1 (out of range) or 2 (a dealer class unused). One pass."""
    used = np.zeros(n_d, dtype=np.bool_)
    for i in range(keys.shape[0]):
        v = keys[i]
        d = v & 31
        if v < 0 or (v >> _HIGH_SHIFT) >= HIGH_ID_BOUND or ((v >> _LOW_SHIFT) & 127) >= N_LOW:
            return 1
        if d >= n_d:
            return 1
        used[d] = True
    return 0 if used.all() else 2


def _check(keys: np.ndarray, bits: np.ndarray, size: int, flag_mask: int) -> None:
    """A dealer keys array's invariants: one key per class; ids and dealer classes in range;
    the dealer classes' bits increasing, within the flag mask, each one some class's."""
    require(keys.shape == (size,) and keys.dtype == np.int32 and bits.ndim == 1,
            "an array has the wrong shape or dtype")  # fmt: skip
    require(bool((np.diff(bits) > 0).all()) and int(bits.min(initial=0)) >= 0
            and int(np.bitwise_or.reduce(bits, initial=0)) & ~flag_mask == 0,
            "the dealer classes' bits are not increasing flags of the mask")  # fmt: skip
    problem = _keys_problem(keys, len(bits))
    require(problem != 1, "a house-way id or a dealer class is out of range")
    require(problem != 2, "a dealer class is no class's")


def dealer_keys(deck: Deck, rules: Rules, way: HouseWay, flag_mask: int,
                use_cache: bool = True) -> DealerKeys:  # fmt: skip
    """What the direct loop reads of every class, by class number, from the hand and way
    tables (``hand_table``, ``way_table``); cached in ``cache_dir()/onehand`` (read
    memory-mapped and verified: a damaged file is reported in one line and rebuilt)."""
    ix = class_index(deck)
    prov = provenance(__name__, table="dealer-keys", way=way.key, deck=deck.key,
                      rules=rules.key, flag_mask=flag_mask, classes=ix.size)  # fmt: skip
    folder = cache_dir() / "onehand"
    # named by the inputs, not the code: a new version overwrites its stale file
    inputs = repr((way.key, deck.key, rules.key, flag_mask)).encode()
    stem = "dealer-" + hashlib.sha256(inputs).hexdigest()[:16]

    def build() -> dict[str, np.ndarray]:
        table = hand_table(deck, rules, use_cache)
        wt = way_table(way, deck, rules, use_cache)
        bits, dclass = dealer_classes(dealer_flags(table, wt.low) & flag_mask)
        packed = ((wt.high.astype(np.int64) << _HIGH_SHIFT)
                  | (wt.low.astype(np.int64) << _LOW_SHIFT))  # fmt: skip
        keys = np.empty(ix.size, dtype=np.int32)
        keys[ix.permutation(table.codes)] = packed | dclass
        return {"keys": keys, "bits": np.array(bits, dtype=np.int64)}

    arrays, cached = load_or_build_arrays(
        folder, stem, prov, build, lambda a: _check(a["keys"], a["bits"], ix.size, flag_mask),
        "the dealer keys", use_cache)  # fmt: skip
    bits = tuple(int(b) for b in arrays["bits"])
    if cached:  # copies: numba compiles read-only arrays apart
        return DealerKeys(np.array(arrays["keys"]), bits, from_cache=True)
    return DealerKeys(arrays["keys"], bits)


def way_settings(hands: np.ndarray, deck: Deck, dk: DealerKeys) -> tuple[np.ndarray, np.ndarray]:
    """(high ids, low ids) of the way's setting of each hand (rows of card ids of ``deck``),
    read from the way's dealer keys ``dk`` (``dealer_keys``) by class number: the settings
    ``apply_way`` gives, without setting a hand again."""
    ix = class_index(deck)
    high = np.empty(len(hands), dtype=np.int64)
    low = np.empty(len(hands), dtype=np.int64)
    bad = _settings_of_hands(np.ascontiguousarray(hands, dtype=np.int64), suit_positions(deck),
                             dk.keys, ix.mask_rank, ix.n_masks, ix.binom, ix.pattern_offset,
                             high, low)  # fmt: skip
    if bad >= 0:
        raise AssertionError(f"dealt hand {bad} has no class number")
    return high, low


@njit(cache=True)
def _settings_of_hands(hands, suit_pos, keys, mask_rank, n_masks, binom, pattern_offset,
                       high, low):  # fmt: skip
    """Fill ``high``, ``low`` from the dealer key of each hand's class; -1, or the first hand
    without a class number."""
    every = np.arange(7)
    for i in range(hands.shape[0]):
        k0, k1, k2, k3, joker = suit_keys(hands[i], every, suit_pos)
        c = index_of_keys(k0, k1, k2, k3, joker, mask_rank, n_masks, binom, pattern_offset)
        if c < 0 or c >= keys.shape[0]:
            return i
        v = keys[c]
        high[i] = v >> _HIGH_SHIFT
        low[i] = (v >> _LOW_SHIFT) & 127
    return -1


@njit(cache=True, nogil=True)
def _histogram(lo, hi, pool, suit_pos, keys, mask_rank, n_masks, binom, pattern_offset, starts,
               high_bucket, low_bucket, hist, missing):  # fmt: skip
    """The dealer hands of ``pool`` with lexicographic ranks ``starts[lo] .. starts[hi]``, by
    chunk, dealer class, high bucket and low bucket (``hist``); and per chunk how many had no
    class number (``missing``)."""
    n = keys.shape[0]
    buf = np.empty((_BATCH, 7), dtype=np.int64)
    every = np.arange(7)  # all seven cards of a dealer hand
    for ch in range(lo, hi):
        at = starts[ch]
        while at < starts[ch + 1]:
            got = combinations_at(pool, at, min(_BATCH, starts[ch + 1] - at), buf)
            for r in range(got):
                k0, k1, k2, k3, joker = suit_keys(buf[r], every, suit_pos)
                c = index_of_keys(k0, k1, k2, k3, joker, mask_rank, n_masks, binom,
                                  pattern_offset)  # fmt: skip
                if c < 0 or c >= n:
                    missing[ch] += 1
                    continue
                v = keys[c]
                hb = high_bucket[v >> _HIGH_SHIFT]
                hist[ch, v & 31, hb, low_bucket[(v >> _LOW_SHIFT) & 127]] += 1
            at += got


def count_direct(
    cards: Sequence[int],
    deck: Deck,
    rules: Rules,
    way: HouseWay,
    flag_mask: int,
    frontier: Sequence[tuple[int, int]],
    sets: AnswerSets,
    use_cache: bool = True,
) -> HandCounts:
    """The hand ``cards`` (card ids of ``deck``) against every dealer hand of the other cards,
    each set by ``way``, for the frontier points ``frontier`` and the way's setting of the
    hand's class: dealer hands by dealer class, with the dealer flags ``flag_mask`` kept apart,
    wins (both hands higher) and losses (both lower or equal) by the up-sets ``sets``. An
    AssertionError when a dealer hand has no class or the counts do not add up (a bug, not a
    user error)."""
    ids = sorted(int(c) for c in cards)
    dk = dealer_keys(deck, rules, way, flag_mask, use_cache)
    ix = class_index(deck)
    pos = suit_positions(deck)
    code = canonical_code(np.array(ids, dtype=np.int64), pos)
    way_point = dk.setting(int(ix.of_codes(np.array([code]))[0]))
    points = [way_point, *frontier]
    highs = np.array(sorted({h for h, _ in points}), dtype=np.int64)
    lows = np.array(sorted({lo for _, lo in points}), dtype=np.int64)
    # a dealer id's bucket: how many of the player's ids are at most it
    high_bucket = np.searchsorted(highs, np.arange(HIGH_ID_BOUND), side="right")
    low_bucket = np.searchsorted(lows, np.arange(128), side="right")
    pool = np.array(sorted(set(deck.ids) - set(ids)), dtype=np.int64)
    n_dealer = comb(len(pool), 7)
    n_chunks = max(1, min(n_dealer, _CHUNKS_PER_THREAD * cores()))
    n_d = len(dk.dealer_class_bits)
    by_chunk = np.zeros((n_chunks, n_d, len(highs) + 1, len(lows) + 1), dtype=np.int64)
    missing_by_chunk = np.zeros(n_chunks, dtype=np.int64)
    over_ranges(_histogram, n_chunks, pool, pos, dk.keys, ix.mask_rank, ix.n_masks, ix.binom,
                ix.pattern_offset, np.linspace(0, n_dealer, n_chunks + 1).astype(np.int64),
                high_bucket, low_bucket, by_chunk, missing_by_chunk)  # fmt: skip
    hist, missing = by_chunk.sum(axis=0), int(missing_by_chunk.sum())
    if missing:
        raise AssertionError(f"{missing} dealer hands have no class number")
    total = hist.sum(axis=(1, 2))
    if int(total.sum()) != n_dealer:
        raise AssertionError("the dealer hands counted are not all the hands of the other cards")
    win = np.zeros((len(points), n_d), dtype=np.int64)
    loss = np.zeros((len(points), n_d), dtype=np.int64)
    bank = np.zeros((len(points), 2), dtype=np.int64)  # the hand as banker: (wins, losses)
    for p, (h, lo) in enumerate(points):
        i, j = int(np.searchsorted(highs, h)), int(np.searchsorted(lows, lo))
        win[p] = hist[:, : i + 1, : j + 1].sum(axis=(1, 2))  # dealer high < h and low < lo
        loss[p] = hist[:, i + 1 :, j + 1 :].sum(axis=(1, 2))  # dealer both at least the player's
        bank[p] = hist[:, : i + 2, : j + 2].sum(), hist[:, i + 2 :, j + 2 :].sum()
    win = sets.project(win, dk.dealer_class_bits, "win").astype(np.int32)
    loss = sets.project(loss, dk.dealer_class_bits, "loss").astype(np.int32)
    counts = PerHand(
        dk.dealer_class_bits, sets, np.array([0, len(frontier)], dtype=np.int64),
        np.array([h for h, _ in frontier], dtype=np.int16),
        np.array([lo for _, lo in frontier], dtype=np.int8), win[1:], loss[1:], win[:1],
        loss[:1], total[None, :].astype(np.int32), bank[1:].astype(np.int32),
        bank[:1].astype(np.int32), flag_mask=flag_mask,
    )  # fmt: skip
    return HandCounts(way_point[0], way_point[1], counts, "direct")


def hand_counts(cards: Sequence[int], deck: Deck, rules: Rules, way: HouseWay, flag_mask: int,
                frontier: Sequence[tuple[int, int]], sets: AnswerSets, use_cache: bool = True,
                method: str = "auto") -> HandCounts:  # fmt: skip
    """The counts of the hand ``cards`` (its frontier ``frontier``) against every dealer hand
    of the other cards of ``deck``, set by ``way``, keeping the dealer flags ``flag_mask``
    apart, wins and losses by the up-sets ``sets``. ``method``: "table" reads the hand's class
    from the whole per-hand table (``perhand.row``; the table is built when it is not cached,
    a long job on the full deck); "direct" loops over the dealer hands (``count_direct``, far
    quicker for one hand); "auto" reads the table when it is cached, else loops. A damaged table is
    reported and not served ("auto" then loops, "table" builds it again)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    if method != "direct":
        path = find_table(deck, rules, way, flag_mask, sets) if use_cache else None
        if path is not None:
            ids = np.array(sorted(int(c) for c in cards), dtype=np.int64)
            # one hand's code: the function run by Python (starting the JIT costs more)
            code = int(in_python(canonical_code)(ids, suit_positions(deck)))
            got = read_class(path, code, frontier, deck.size)
            if got is not None:
                return got
        if method == "table":
            return _from_whole_table(cards, deck, rules, way, flag_mask, sets, use_cache)
    return count_direct(cards, deck, rules, way, flag_mask, frontier, sets, use_cache)


def _from_whole_table(cards: Sequence[int], deck: Deck, rules: Rules, way: HouseWay,
                      flag_mask: int, sets: AnswerSets, use_cache: bool) -> HandCounts:  # fmt: skip
    """The hand's class of the whole per-hand table (built, and cached if ``use_cache``)."""
    table = hand_table(deck, rules, use_cache)
    keys = build_keys(table, way, flag_mask=flag_mask, use_cache=use_cache)
    per = run_per_hand(table, keys, use_cache=use_cache, sets=sets)
    code = canonical_code(np.array(sorted(int(c) for c in cards), dtype=np.int64),
                          suit_positions(deck))  # fmt: skip
    row = int(np.searchsorted(table.codes, code))
    sl, one = per.points(row), slice(row, row + 1)
    counts = PerHand(
        per.dealer_class_bits, per.sets, np.array([0, sl.stop - sl.start], dtype=np.int64),
        per.point_high[sl], per.point_low[sl], per.win[sl], per.loss[sl], per.way_win[one],
        per.way_loss[one], per.total[one], per.bank[sl], per.way_bank[one],
        from_cache=per.from_cache, flag_mask=per.flag_mask,
    )  # fmt: skip
    return HandCounts(int(keys.player_high[row]), int(keys.player_low[row]), counts, "table")
