"""Way tables built ahead by a child process (``analysis.report.ahead``): what it writes is what the
parent would have built, and a child that fails leaves the parent to build the tables."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.report.ahead import WaysAhead, build
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.waytables import way_is_cached, way_table

SMALL = Deck.parse("TJQKA:cdh+joker")
COLUMNS = ("setting", "rule", "high", "low")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _same(name: str) -> bool:
    cached = way_table(name, SMALL)
    fresh = way_table(name, SMALL, use_cache=False)
    return cached.from_cache and all(
        np.array_equal(getattr(cached, c), getattr(fresh, c)) for c in COLUMNS
    )


def test_build_writes_the_tables_the_parent_would_build(cache):
    names = ["gli", "trump-plaza", "gli[two-pair=or]", "gli[complete-pairs=two-only]"]
    build(SMALL, Rules(), names)
    for name in names:
        assert way_is_cached(get_way(name), SMALL, Rules())
        assert _same(name), name


def test_the_child_builds_them_and_the_parent_reads_them(cache):
    names = ["max-back"]
    with WaysAhead(SMALL, Rules(), names, own_numba_cache=False) as child:
        child.wait(names)
        assert way_is_cached(get_way("max-back"), SMALL, Rules())
        assert child.proc.wait(timeout=120) == 0
    assert _same("max-back")


def test_a_child_started_before_the_hand_table_waits_for_the_parents(cache):
    """Started while the parent builds the hand table (``after_hand_table``), the child
    compiles its pass on the tiny deck, then waits: it never builds the deck's table itself."""
    import time

    from enumerate.engine.warmup import WARM_DECK
    from enumerate.tables import hand_table, hand_table_is_cached

    deck = Deck.parse("9TJQ:cdhs+joker")
    assert deck.name != WARM_DECK
    names = ["max-back"]
    with WaysAhead(deck, Rules(), names, after_hand_table=True) as child:
        end = time.monotonic() + 120
        while not way_is_cached(get_way("max-back"), Deck.parse(WARM_DECK), Rules()):
            assert child.proc.poll() is None and time.monotonic() < end
            time.sleep(0.1)
        time.sleep(1.0)
        assert child.proc.poll() is None  # still waiting
        assert not hand_table_is_cached(deck, Rules())
        assert not way_is_cached(get_way("max-back"), deck, Rules())
        hand_table(deck, Rules())
        child.wait(names)
        assert child.proc.wait(timeout=120) == 0
    cached = way_table("max-back", deck)
    fresh = way_table("max-back", deck, use_cache=False)
    assert cached.from_cache and all(
        np.array_equal(getattr(cached, c), getattr(fresh, c)) for c in COLUMNS)


def test_a_child_that_fails_leaves_the_tables_to_the_parent(cache):
    # the child does not know the way (it was never registered there): it stops with an
    # error, and waiting for its tables returns instead of hanging
    names = ["no-such-way"]
    with WaysAhead(SMALL, Rules(), names, own_numba_cache=False) as child:
        child.wait([])  # nothing asked: returns at once
        child.proc.wait(timeout=120)
        assert child.proc.returncode != 0
    assert "no-such-way" in (cache / "ahead.log").read_text()


def test_the_child_sets_the_readings_at_the_lowest_priority():
    """The readings are wanted last (the report's reconciliation step), so the child takes
    them at the lowest CPU priority: they run where the parent leaves a core idle."""
    import subprocess
    import sys

    code = ("import os\nfrom analysis.report.ahead import _lowest_priority\n"
            "before = os.nice(0)\n_lowest_priority()\nprint(before, os.nice(0))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()  # fmt: skip
    assert int(out[1]) == 19 >= int(out[0])


def test_the_child_writes_the_dealer_pages_the_parent_would(cache, tmp_path):
    """With the lab's per-dealer table in the cache, the child writes the derived dealer's
    pages; they and their index lines are those the parent writes itself."""
    from analysis.games.players import Player
    from analysis.report.derived import dealer_pages
    from analysis.waylab.wayedge import dealer_lab

    lab = dealer_lab("face-up", Player.BEST_RESPONSE, None, SMALL)  # into the cache
    mine = tmp_path / "parent"
    mine.mkdir()
    lines = dealer_pages(mine, lab, 2, log=lambda line: None)
    theirs = tmp_path / "child"
    theirs.mkdir()
    with WaysAhead(SMALL, Rules(), ["gli"], own_numba_cache=False, choices=True,
                   dealer_pages=theirs, n_rules=2) as child:  # fmt: skip
        assert child.wait_dealer_pages() == lines
    pages = sorted(p.name for p in mine.glob("derived-way-*.md"))
    assert pages and pages == sorted(p.name for p in theirs.glob("derived-way-*.md"))
    for name in pages:
        assert (mine / name).read_text() == (theirs / name).read_text()


def test_a_child_that_stops_leaves_the_dealer_pages_to_the_parent(cache, tmp_path):
    with WaysAhead(SMALL, Rules(), ["no-such-way"], own_numba_cache=False,
                   dealer_pages=tmp_path, n_rules=2) as child:  # fmt: skip
        assert child.wait_dealer_pages() is None


def test_the_child_writes_the_reconciliation_the_parent_would(cache, tmp_path):
    """With the lab's per-dealer table in the cache, the child prices the readings it set and
    writes the reconciliation's page; it and its index lines are those the parent writes."""
    from analysis.games.players import Player
    from analysis.render.formats import figure_tables
    from analysis.report.waylab import reconciliation_page
    from analysis.waylab.reconcile import reading_names
    from analysis.waylab.wayedge import dealer_lab

    lab = dealer_lab("face-up", Player.BEST_RESPONSE, None, SMALL)  # into the cache
    theirs = tmp_path / "child"
    theirs.mkdir()
    with WaysAhead(SMALL, Rules(), ["gli", *reading_names()], own_numba_cache=False,
                   choices=True, dealer_pages=theirs, n_rules=2) as child:  # fmt: skip
        lines = child.wait_reconciliation()
    mine = tmp_path / "parent"
    mine.mkdir()
    with figure_tables():  # as the report writes its pages
        assert lines is not None and lines == reconciliation_page(mine, lab, log=lambda x: None)
    assert (mine / "reconcile.md").read_text() == (theirs / "reconcile.md").read_text()
