"""A report's pair counts without an engine run per house way.

``paigow reports`` prices every variant for two ways (gli and trump-plaza), each from the pair
counts of that way on both sides with every dealer flag kept apart. The engine counted them in
about 45 s a way on two cores. Two tables give the same integers for less:

- the best-response counts are the per-dealer table of best-responding players (which the
  house-way lab builds anyway) summed at each way's settings (``wayedge.way_counts``);
- the rest (deals by player and dealer class, blind wins and losses) comes from one pass
  over the levels for all the ways at once (``enumerate.engine.pairs.blind``): 28 s for both on
  the full deck, two cores.

The two agree where they overlap (the deals of each dealer class), which is checked; the counts
are checked like an engine run's and written to the same cache, where ``pair_counts`` serves
them. Tests compare them with the engine's, integer for integer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analysis.games.variants import BEST_RESPONSE
from analysis.pricing.counts import ALL_FLAGS, DealCounts, cached_pair_counts, store_pair_counts
from analysis.waylab.wayedge import DealerLab, way_counts
from enumerate.cache import built_correctly, require
from enumerate.engine.pairs.counts import PairCounts
from enumerate.houseways import HouseWay, get_way


def lab_pair_counts(lab: DealerLab, ways: Sequence[HouseWay | str], use_cache: bool = True,
                    log: Callable[[str], None] | None = None) -> list[DealCounts]:  # fmt: skip
    """The pair counts of each way on both sides, every dealer flag apart, as ``pair_counts``
    gives them: from the cache when there, else from ``lab`` (best-responding players) and one
    blind pass for the ways not cached, then cached (with ``use_cache``). ``log`` is told
    before the pass."""
    from enumerate.engine import build_keys
    from enumerate.engine.pairs.blind import run_blind_pairs

    if lab.player != BEST_RESPONSE:
        raise ValueError("the pair counts' best response needs a lab of best-responding players")
    table = lab.table
    deck, rules = table.deck, table.rules
    chosen = [get_way(w) if isinstance(w, str) else w for w in ways]
    found = {w.key: cached_pair_counts(deck, rules, w, w, ALL_FLAGS) if use_cache else None
             for w in chosen}  # fmt: skip
    todo = [w for w in chosen if found[w.key] is None]
    if todo:
        if log is not None:
            log(f"pair counts of {', '.join(w.name for w in todo)}: one blind pass and the "
                "per-dealer table")  # fmt: skip
        keys = [build_keys(table, w, w, ALL_FLAGS, use_cache) for w in todo]
        for way, blind in zip(todo, run_blind_pairs(table, keys, use_cache=use_cache),
                              strict=True):  # fmt: skip
            bits, win, push, _loss, deals = way_counts(lab, way, ALL_FLAGS)
            with built_correctly(f"{way.name}'s pair counts"):
                same = bits == blind.dealer_class_bits
                same = same and np.array_equal(deals, blind.joint.sum(axis=0))
                require(same, "the per-dealer table and the blind pass disagree on the deals")
            counts = PairCounts(blind.joint, blind.blind_win, blind.blind_loss,
                                win.astype(np.int64), push.astype(np.int64))  # fmt: skip
            deal = DealCounts(counts, bits, deck, rules, way.name, way.name, ALL_FLAGS,
                              "per-dealer table and blind pass")  # fmt: skip
            store_pair_counts(deal, way, way, "the blind pass and the per-dealer table",
                              use_cache)  # fmt: skip
            found[way.key] = deal
    return [d for d in (found[w.key] for w in chosen) if d is not None]
