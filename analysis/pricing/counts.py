"""Exact pair counts for pricing, cached as Parquet: the engine runs once per
(deck, rules, dealer way, player way, flag mask) and every later price reads the cache.

``pair_counts`` returns a ``DealCounts``: the engine's ``PairCounts`` together with what they
count (the dealer class bits of each column, deck, rules, ways, flags). The cache lives at
``<cache>/pairs/pairs-<deck>-wheel_<w>-<dealer>-<player>-flags<mask>.parquet`` with its
provenance (``enumerate.cache``: schema, package, code fingerprint, deck, rules, both way keys
and the flag mask); a file made by other code, rules or way versions is rebuilt, never served.

Counts with more flags hold counts with fewer: merging the dealer classes that agree on the
wanted bits is exact (every field is a sum over dealer classes). So a request for flags 3 is
served from a cached run with flags 31 too, without running the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
import pyarrow as pa

from enumerate.cache import (
    built_correctly,
    cache_dir,
    load_verified,
    provenance,
    require,
    write_atomic,
)
from enumerate.engine import build_keys, run_engine
from enumerate.engine.pairs.counts import FIELDS, PairCounts
from enumerate.houseways import HouseWay, get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table
from enumerate.vocabulary import ALL_DEALER_EVENTS, N_PLAYER_CLASSES, dealer_class_name

ALL_FLAGS = ALL_DEALER_EVENTS
_BITS_FIELD = "dealer_class_bits"


@dataclass(frozen=True, eq=False)
class DealCounts:
    """Exact counts over every (player, dealer) deal of a deck, by player and dealer class."""

    counts: PairCounts
    dealer_class_bits: tuple[int, ...]  # flag bits of each dealer class (column)
    deck: Deck
    rules: Rules
    dealer_way: str  # names of the ways
    player_way: str
    flag_mask: int
    source: str = "engine"  # "engine", "cache" or "cache (flags N)"

    @property
    def total(self) -> int:
        return self.counts.total

    @property
    def expected_total(self) -> int:
        """C(n,7) * C(n-7,7): every ordered pair of disjoint hands."""
        n = self.deck.size
        return comb(n, 7) * comb(n - 7, 7)

    def dealer_classes(self, bits: int) -> list[int]:
        """Columns whose dealer class holds any of ``bits``."""
        return [d for d, b in enumerate(self.dealer_class_bits) if b & bits]

    def describe_classes(self) -> list[str]:
        return [dealer_class_name(b) for b in self.dealer_class_bits]

    def coarsened(self, flag_mask: int) -> DealCounts:
        """The same counts with only the flags of ``flag_mask`` kept apart (exact)."""
        if flag_mask & ~self.flag_mask:
            raise ValueError(f"counts with flags {self.flag_mask} cannot give flags {flag_mask}")
        if flag_mask == self.flag_mask:
            return self
        new_bits = sorted({b & flag_mask for b in self.dealer_class_bits})
        col = np.array([new_bits.index(b & flag_mask) for b in self.dealer_class_bits])
        n_d = len(new_bits)

        def merge(arr: np.ndarray) -> np.ndarray:
            out = np.zeros((*arr.shape[:-1], n_d), dtype=np.int64)
            for old, new in enumerate(col):
                out[..., new] += arr[..., old]
            return out

        merged = PairCounts(*(merge(getattr(self.counts, f)) for f in FIELDS))
        return DealCounts(
            merged, tuple(new_bits), self.deck, self.rules, self.dealer_way, self.player_way,
            flag_mask, self.source if self.source == "engine" else
            f"cache (flags {self.flag_mask})",
        )  # fmt: skip


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def _stem(deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay) -> str:
    return f"pairs-{_safe(deck.name)}-wheel_{rules.wheel}-{_safe(dealer.name)}-{_safe(player.name)}"


def cache_path(deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay, mask: int) -> Path:
    return cache_dir() / "pairs" / f"{_stem(deck, rules, dealer, player)}-flags{mask}.parquet"


def _provenance(deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay, mask: int) -> dict:
    return provenance(
        __name__, table="pairs", deck=deck.key, rules=rules.key, dealer_way=dealer.key,
        player_way=player.key, flag_mask=mask,
    )  # fmt: skip


def _to_arrow(counts: PairCounts, bits: tuple[int, ...]) -> pa.Table:
    extra = pa.table(
        {
            "field": pa.array([_BITS_FIELD] * len(bits), pa.string()),
            "index": pa.array(range(len(bits)), pa.int64()),
            "value": pa.array(bits, pa.int64()),
        }
    )
    return pa.concat_tables([counts.to_arrow(), extra])


def _from_arrow(table: pa.Table) -> tuple[PairCounts, tuple[int, ...]]:
    # by lists, not pyarrow.compute (which imports pandas): the table has a few hundred rows
    fields, idx, vals = (table.column(c).to_pylist() for c in ("field", "index", "value"))
    rows = list(zip(fields, idx, vals, strict=True))
    bits = tuple(v for _, _, v in sorted((r for r in rows if r[0] == _BITS_FIELD),
                                         key=lambda r: r[1]))  # fmt: skip
    entries = [r for r in rows if r[0] != _BITS_FIELD]
    counts = PairCounts.from_entries([r[0] for r in entries], [r[1] for r in entries],
                                     [r[2] for r in entries], N_PLAYER_CLASSES, len(bits))
    return counts, bits


def check_deal_counts(counts: PairCounts, bits: tuple[int, ...], deck: Deck, mask: int) -> None:
    """The invariants of a whole run's counts (``PairCounts.check``): every count non-negative,
    wins and losses within their dealer class, all C(n,7) x C(n-7,7) deals counted, each
    player and dealer class a multiple of the C(n-7,7) hands disjoint from one hand; and one
    dealer class per distinct combination of the run's flags."""
    n = deck.size
    counts.check(1, comb(n, 7) * comb(n - 7, 7), comb(n - 7, 7))
    require(len(set(bits)) == len(bits) and all(b >= 0 and b & ~mask == 0 for b in bits),
            "dealer class bits repeated or outside the flag mask")  # fmt: skip


def _read(
    path: Path, prov: dict, deck: Deck, mask: int
) -> tuple[PairCounts, tuple[int, ...]] | None:
    """The counts at ``path`` if current and verified (page checksums and invariants)."""

    def parse(table: pa.Table) -> tuple[PairCounts, tuple[int, ...]]:
        counts, bits = _from_arrow(table)
        check_deal_counts(counts, bits, deck, mask)
        return counts, bits

    return load_verified(path, prov, parse)


def _cached_supersets(
    deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay, mask: int
) -> list[int]:
    """Flag masks of cached runs that contain ``mask``, fewest flags first."""
    folder = cache_dir() / "pairs"
    stem = _stem(deck, rules, dealer, player)
    masks = []
    for path in folder.glob(f"{stem}-flags*.parquet"):
        m = re.fullmatch(rf"{re.escape(stem)}-flags(\d+)\.parquet", path.name)
        if m and int(m.group(1)) & mask == mask and int(m.group(1)) != mask:
            masks.append(int(m.group(1)))
    return sorted(masks, key=lambda m: (bin(m).count("1"), m))


def pair_counts(
    deck: Deck | None = None,
    rules: Rules | None = None,
    house_way: HouseWay | str = "gli",
    player_way: HouseWay | str | None = None,
    flag_mask: int = ALL_FLAGS,
    use_cache: bool = True,
    progress: bool | None = None,
    on_run: Callable[[str], None] | None = None,
    source: Callable[[], DealCounts] | None = None,
) -> DealCounts:
    """Counts of every deal of ``deck`` (dealer sets by ``house_way``, the blind player by
    ``player_way``, default the same) with the dealer flags of ``flag_mask`` kept apart.

    From the cache when a current file for these inputs (or for more flags) exists; otherwise
    they are counted, checked and cached. ``source`` counts them when given (the report's
    per-dealer table and blind pass, ``analysis.waylab.labpairs``); otherwise the engine runs
    once (``on_run`` is told first, with a one-line description). This function is the one
    writer of the pair-counts cache, whatever counted the deals.
    """
    deck = deck or Deck.full()
    rules = rules or Rules()
    dealer = get_way(house_way) if isinstance(house_way, str) else house_way
    player = dealer if player_way is None else player_way
    player = get_way(player) if isinstance(player, str) else player
    if deck.size < 14:
        raise ValueError(f"deck {deck.name} has {deck.size} cards; a deal needs 14 (7 each)")
    if not 0 <= flag_mask <= ALL_FLAGS:
        raise ValueError(f"flag mask {flag_mask}: expected 0..{ALL_FLAGS}")

    def made(counts: PairCounts, bits: tuple[int, ...], mask: int, source: str) -> DealCounts:
        return DealCounts(counts, bits, deck, rules, dealer.name, player.name, mask, source)

    if use_cache:
        cached = cached_pair_counts(deck, rules, dealer, player, flag_mask)
        if cached is not None:
            return cached
    if source is not None:
        result = source()
        what = f"the pair counts from {result.source}"
        same = (result.deck, result.rules, result.dealer_way, result.player_way) == (
            deck, rules, dealer.name, player.name)
        if not same or result.flag_mask != flag_mask:
            raise ValueError(f"{what} are not of the deals asked for")
    else:
        if on_run is not None:
            on_run(
                f"counting every deal of deck {deck.name} (dealer {dealer.name}, player "
                f"{player.name}, flags {flag_mask})"
                + ("; the result is cached" if use_cache else "")
            )
        # the engine only when there is counting to do: a cached answer reads one Parquet file

        table = hand_table(deck, rules, use_cache)
        keys = build_keys(table, dealer, player, flag_mask, use_cache)
        counts = run_engine(table, keys, use_cache=use_cache, progress=progress)
        result = made(counts, keys.dealer_class_bits, flag_mask, "engine")
        what = "the engine's pair counts"
    _store(result, dealer, player, what, use_cache)
    return result


def cached_pair_counts(deck: Deck, rules: Rules, dealer: HouseWay, player: HouseWay,
                       flag_mask: int) -> DealCounts | None:  # fmt: skip
    """The counts ``pair_counts`` would serve from the cache (for ``flag_mask``, or merged from
    a run with more flags), verified; None when there are none."""
    def made(counts: PairCounts, bits: tuple[int, ...], mask: int) -> DealCounts:
        return DealCounts(counts, bits, deck, rules, dealer.name, player.name, mask, "cache")

    path = cache_path(deck, rules, dealer, player, flag_mask)
    hit = _read(path, _provenance(deck, rules, dealer, player, flag_mask), deck, flag_mask)
    if hit is not None:
        return made(*hit, flag_mask)
    for mask in _cached_supersets(deck, rules, dealer, player, flag_mask):
        path = cache_path(deck, rules, dealer, player, mask)
        hit = _read(path, _provenance(deck, rules, dealer, player, mask), deck, mask)
        if hit is not None:
            return made(*hit, mask).coarsened(flag_mask)
    return None


def _store(deal: DealCounts, dealer: HouseWay, player: HouseWay, what: str,
           use_cache: bool) -> None:
    """Check the invariants of a whole run's counts (a failure is a bug in ``what``, the code
    that counted them) and, with ``use_cache``, write them where ``pair_counts`` reads them
    (``dealer`` and ``player``: the ways ``deal`` names)."""
    with built_correctly(what):
        check_deal_counts(deal.counts, deal.dealer_class_bits, deal.deck, deal.flag_mask)
    if use_cache:
        write_atomic(
            _to_arrow(deal.counts, deal.dealer_class_bits),
            cache_path(deal.deck, deal.rules, dealer, player, deal.flag_mask),
            _provenance(deal.deck, deal.rules, dealer, player, deal.flag_mask),
        )
