"""A report's pair counts without an engine run per house way.

``paigow reports`` prices every variant for two ways (gli and trump-plaza), each from the pair
counts of that way on both sides with every dealer flag kept apart. Two tables the report
builds anyway give the same integers for less work than an engine run per way:

- the best-response counts are the per-dealer table of best-responding players (which the
  house-way lab builds) summed at each way's settings (``analysis.waylab.wayedge.way_counts``);
- the rest (deals by player and dealer class, blind wins and losses) comes from one pass
  over the levels for all the ways at once (``enumerate.engine.pairs.blind``).

The two agree where they overlap (the deals of each dealer class), which is checked. The counts
go through ``pair_counts``, which checks them like an engine run's and is the one writer of
their cache. Tests compare them with the engine's, integer for integer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analysis.games.players import Player
from analysis.pricing.counts import ALL_FLAGS, DealCounts, cached_pair_counts, pair_counts
from analysis.waylab.wayedge import DealerLab, way_counts
from enumerate.cache import built_correctly, require
from enumerate.engine import build_keys
from enumerate.engine.pairs.blind import run_blind_pairs
from enumerate.engine.pairs.counts import PairCounts
from enumerate.houseways import HouseWay, get_way

SOURCE = "per-dealer table and blind pass"


def lab_pair_counts(lab: DealerLab, ways: Sequence[HouseWay | str], use_cache: bool = True,
                    log: Callable[[str], None] | None = None) -> list[DealCounts]:  # fmt: skip
    """The pair counts of each way on both sides, every dealer flag apart, as ``pair_counts``
    gives them: from the cache when there, else counted from ``lab`` (best-responding
    players) and one blind pass for all the ways not cached. ``log`` is told before the
    pass."""
    if lab.player != Player.BEST_RESPONSE:
        raise ValueError("the pair counts' best response needs a lab of best-responding players")
    deck, rules = lab.table.deck, lab.table.rules
    chosen = [get_way(w) if isinstance(w, str) else w for w in ways]
    todo = [w for w in chosen
            if not use_cache or cached_pair_counts(deck, rules, w, w, ALL_FLAGS) is None]
    counted: dict[str, DealCounts] = {}

    def source(way: HouseWay) -> Callable[[], DealCounts]:
        def count() -> DealCounts:
            if not counted:  # the first way asked counts them all, in one pass
                counted.update(_count(lab, todo, use_cache, log))
            return counted[way.key]

        return count

    return [pair_counts(deck, rules, w, w, ALL_FLAGS, use_cache, source=source(w))
            for w in chosen]  # fmt: skip


def _count(lab: DealerLab, ways: list[HouseWay], use_cache: bool,
           log: Callable[[str], None] | None) -> dict[str, DealCounts]:  # fmt: skip
    """The pair counts of ``ways`` from the lab and one blind pass, by way key."""

    table = lab.table
    if log is not None:
        log(f"pair counts of {', '.join(w.name for w in ways)}: one blind pass and the "
            "per-dealer table")  # fmt: skip
    keys = [build_keys(table, w, w, ALL_FLAGS, use_cache) for w in ways]
    out = {}
    for way, blind in zip(ways, run_blind_pairs(table, keys, use_cache=use_cache),
                          strict=True):  # fmt: skip
        bits, win, push, _loss, deals = way_counts(lab, way, ALL_FLAGS)
        with built_correctly(f"{way.name}'s pair counts"):
            same = bits == blind.dealer_class_bits
            same = same and np.array_equal(deals, blind.joint.sum(axis=0))
            require(same, "the per-dealer table and the blind pass disagree on the deals")
        counts = PairCounts(blind.joint, blind.blind_win, blind.blind_loss,
                            win.astype(np.int64), push.astype(np.int64))  # fmt: skip
        out[way.key] = DealCounts(counts, bits, table.deck, table.rules, way.name, way.name,
                                  ALL_FLAGS, SOURCE)  # fmt: skip
    return out
