"""The per-dealer and per-hand kernels compiled ahead of need.

On a fresh checkout numba compiles each kernel at its first call, with the full deck's work waiting
behind it: in ``paigow reports`` on a fresh clone, at the start of the per-dealer table and of the
per-hand table, on one core while the other idles. ``warm_up`` builds both tables for a tiny deck,
which compiles the same kernels for the same argument types and stores them in numba's cache; a
report runs it on a thread while it builds the frontiers and the levels, and the full-deck tables
then find their kernels compiled.

The deck is one whose families take both of the per-hand kernel's answer paths (a grid, and
item by item: ``tests/test_perhand_edges.py``); its blind side sets hands by ``max-back``,
the way with one rule, the cheapest to compile (the casino ways are compiled by the child
process that sets the full deck by them, ``analysis.report.ahead``).
"""

from __future__ import annotations

from enumerate.engine.keys import build_keys
from enumerate.engine.perdealer.table import PlayerSide, run_per_dealer
from enumerate.engine.perhand.table import run_per_hand
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

WARM_DECK = "TJQKA:cdh+joker"
WARM_WAY = "max-back"


def warm_up(rules: Rules | None = None) -> None:
    """Build the per-dealer (best response) and per-hand tables of ``WARM_DECK`` on one
    thread, through the cache like the full deck's: numba compiles a kernel for the types of
    its arguments, and the full deck's levels (among others) are read-only maps of the cache.
    Once the small tables are cached, a later call reads them and compiles nothing (numba's
    own cache then holds the kernels)."""
    rules = rules or Rules()
    table = hand_table(Deck.parse(WARM_DECK), rules)
    run_per_dealer(table, PlayerSide("response"), n_jobs=1)
    run_per_hand(table, build_keys(table, get_way(WARM_WAY)), n_jobs=1)
