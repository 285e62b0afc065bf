"""House-way tables built ahead, in a child process, while ``paigow reports`` works on what
does not need them.

Setting all 6,972,147 classes of the full deck by a house way is one-core work that, on a fresh
checkout, is mostly numba compiling the way's rules: for gli, trump-plaza, foxwoods and the
readings of the reconciliation it is a large share of ``paigow reports``, all of it on the path
of the steps that wait for it. A child process builds those tables into the
cache, on one thread, while the parent builds the frontiers and the levels and runs the pair
engine; the parent reads each table from the cache when it needs it (``WaysAhead.wait``).

Nothing is trusted to the child: a table it writes is an ordinary cache file, verified when the
parent reads it, and a table it did not write (it failed, or had not got to it) the parent
builds itself. Both processes save and load numba's cache files under a lock
(``enumerate.runtime.numbacache``), so a kernel one of them compiled the other loads; where that
lock cannot be had, the child compiles into a numba cache folder of its own (``NUMBA_DIR`` in the
cache folder), so that two processes never write one function's entries of numba's cache at once.

Run as ``python -m analysis.report.ahead --deck NAME --wheel W [--choices]
[--shared-numba-cache] [--after-hand-table] WAY...``: (``--after-hand-table``) the way pass
compiled on a tiny deck while the parent builds the deck's hand table, then the ways without a
reading (no brackets in the name) in one pass, then (``--choices``) the setting of every front
of the derived cards in every class (``analysis.derive.classes``), which the report's derived
cards read, then the readings in one pass, at the lowest CPU priority (the report wants them
last), then (``--dealer-pages OUT --rules K``) the report's pages on the lab's per-dealer
table, at that priority too, in the time the per-hand table leaves a core idle: the
reconciliation of the readings, and the pages of the derived dealer's cards.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import TracebackType

from analysis.derive.classes import choices_cached, class_choices
from analysis.games.variants import exposed_variants
from analysis.render.formats import figure_tables
from analysis.report.derived import dealer_pages
from analysis.report.waylab import reconciliation_page, response_lab
from enumerate.cache import cache_dir, replace_atomic
from enumerate.engine.perdealer.table import PlayerSide, is_cached
from enumerate.engine.warmup import WARM_DECK
from enumerate.houseways import get_way
from enumerate.paths import SOURCE_ROOT
from enumerate.rules import Deck, Rules
from enumerate.runtime.allocator import no_huge_pages_by_default
from enumerate.runtime.numbacache import lock_cache_files
from enumerate.tables import hand_table, hand_table_is_cached
from enumerate.waytables import way_is_cached, way_tables

NUMBA_DIR = "numba-ahead"  # the child's numba cache where it cannot share the parent's
LOG = "ahead.log"  # what the child printed, inside the cache folder
PAGES = "ahead-pages.json"  # the index lines of the child's pages, in the cache folder
POLL_SECONDS = 0.2


class WaysAhead:
    """A child process building the way tables of ``names`` for ``deck`` and ``rules``.

    Use it as a context manager: on leaving, a child still running is stopped (the tables it
    finished stay in the cache). ``own_numba_cache``: the child compiles into a numba cache
    folder of its own even where the two could share this process's (module docstring).
    ``after_hand_table``: this process is building the deck's hand table; the child compiles
    its way pass on a tiny deck meanwhile, then waits for the table in the cache."""

    def __init__(self, deck: Deck, rules: Rules, names: Sequence[str],
                 own_numba_cache: bool = False, choices: bool = False,
                 dealer_pages: Path | None = None, n_rules: int = 0,
                 after_hand_table: bool = False) -> None:  # fmt: skip
        self.deck, self.rules, self.names = deck, rules, list(dict.fromkeys(names))
        self.choices = choices
        self.dealer_pages = dealer_pages.resolve() if dealer_pages is not None else None
        self.n_rules = n_rules
        cache = cache_dir()
        self.pages_file = cache / PAGES
        self.pages_file.unlink(missing_ok=True)  # a file of an earlier run is never read
        env = {**os.environ, "PAIGOW_CACHE_DIR": str(cache), "PAIGOW_THREADS": "1"}
        no_huge_pages_by_default(env)  # as the report's own arrays (``without_huge_pages``)
        shared = not own_numba_cache and lock_cache_files()
        if not shared:
            env["NUMBA_CACHE_DIR"] = str(cache / NUMBA_DIR)
        pages = (["--dealer-pages", str(self.dealer_pages), "--rules", str(n_rules)]
                 if self.dealer_pages is not None else [])  # fmt: skip
        cmd = [sys.executable, "-m", "analysis.report.ahead", "--deck", deck.name, "--wheel",
               rules.wheel, *(["--choices"] if choices else []),
               *(["--shared-numba-cache"] if shared else []),
               *(["--after-hand-table"] if after_hand_table else []), *pages,
               *self.names]  # fmt: skip
        with open(cache / LOG, "w") as log:
            self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                         cwd=SOURCE_ROOT)  # fmt: skip

    def wait(self, names: Sequence[str]) -> float:
        """Return once every way of ``names`` that the child builds is in the cache, or the
        child has stopped (the parent then builds what is missing, as without a child); the
        seconds spent waiting for the child (0 when every table was there)."""
        ways = [get_way(name) for name in names if name in self.names]
        return sum((self._until(partial(way_is_cached, way, self.deck, self.rules))
                   for way in ways), 0.0)  # fmt: skip

    def _until(self, ready: Callable[[], bool]) -> float:
        """Poll until ``ready()`` or the child has stopped; the seconds slept."""
        slept = 0.0
        while not ready() and self.proc.poll() is None:
            time.sleep(POLL_SECONDS)
            slept += POLL_SECONDS
        return slept

    def wait_choices(self) -> float:
        """As ``wait``, for the derived cards' choices of the deck."""

        if not self.choices:
            return 0.0
        table = hand_table(self.deck, self.rules)
        return self._until(lambda: choices_cached(table))

    def wait_dealer_pages(self) -> list[str] | None:
        """The index lines of the dealer's pages the child wrote (``dealer_pages``), once it
        has written them; None when it was not asked to or stopped first (the parent then
        writes them). Call it once the per-dealer table is in the cache: the child waits for
        it."""
        return self._pages("dealer")

    def wait_reconciliation(self) -> list[str] | None:
        """As ``wait_dealer_pages``, for the reconciliation's page (the child writes it
        before the dealer's pages, once it has set the readings)."""
        return self._pages("reconcile")

    def _pages(self, which: str) -> list[str] | None:
        """The index lines ``which`` of the child's pages (``PAGES``), once written."""
        import json

        if self.dealer_pages is None:
            return None
        self._until(self.pages_file.exists)
        try:
            done = json.loads(self.pages_file.read_text())
        except (OSError, ValueError):
            return None
        want = {"out": str(self.dealer_pages), "rules": self.n_rules, "deck": self.deck.name}
        if {k: done.get(k) for k in want} != want or not isinstance(done.get(which), list):
            return None
        return [str(line) for line in done[which]]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait()

    def __enter__(self) -> WaysAhead:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.close()


def build(deck: Deck, rules: Rules, names: Sequence[str], choices: bool = False,
          dealer_pages: Path | None = None, n_rules: int = 0,
          after_hand_table: bool = False) -> None:  # fmt: skip
    """The child's work: the ways without a reading together (rule cards share one pass over
    the hands: seven casino ways in about two thirds of the time they take one by one, all
    ready before the parent's first need of them), then (``choices``) the derived cards'
    choices, which the report reads after its variants, then every reading together."""

    # card files (the written strategies, which the report prices in its optimal step) are
    # wanted late too: they are built with the readings
    late = [n for n in names if "[" in n or n.endswith(".toml")]
    plain = [n for n in names if n not in late]
    parent = os.getppid()
    t0 = time.perf_counter()
    if after_hand_table:
        _await_hand_table(deck, rules, plain, parent)
        print(f"{time.perf_counter() - t0:7.1f} s: the hand table", flush=True)
    if plain:
        way_tables(plain, deck, rules)
        print(f"{time.perf_counter() - t0:7.1f} s: {', '.join(plain)}", flush=True)  # when
    if choices:

        class_choices(hand_table(deck, rules))
        print(f"{time.perf_counter() - t0:7.1f} s: the derived cards' choices", flush=True)
    if late:
        # The readings are wanted last (the report's reconciliation, its last step), so they
        # take what the parent leaves: at the lowest priority the child runs in the time a
        # step leaves a core idle (the per-hand table, bound by memory traffic, leaves part of
        # a core) and does not slow the per-dealer table's threads.
        _lowest_priority()
        way_tables(late, deck, rules)
        print(f"{time.perf_counter() - t0:7.1f} s: {len(late)} readings and cards", flush=True)
    if dealer_pages is not None:
        _lab_pages(deck, rules, dealer_pages, n_rules, any("[" in n for n in late), parent)
        print(f"{time.perf_counter() - t0:7.1f} s: the reconciliation and the dealer's derived "
              "pages", flush=True)  # fmt: skip


def _wait_for_parent(ready: Callable[[], bool], parent: int) -> None:
    """Poll until ``ready()``: a file the parent (process ``parent``) writes to the cache. A
    parent that is gone ends the wait, and this process."""
    while not ready():
        if os.getppid() != parent:
            raise SystemExit("ahead: the report that started this process is gone")
        time.sleep(POLL_SECONDS)


def _await_hand_table(deck: Deck, rules: Rules, plain: Sequence[str], parent: int) -> None:
    """Started while the parent builds the deck's hand table (its first step, on a core and a
    half), the child sets a tiny deck by the ways ``plain`` meanwhile, which compiles the way
    pass for the same argument types, then waits for the parent's table in the cache rather
    than building it a second time."""

    if not hand_table_is_cached(deck, rules) and plain:
        way_tables(plain, Deck.parse(WARM_DECK), rules)
    _wait_for_parent(lambda: hand_table_is_cached(deck, rules), parent)


def _lab_pages(deck: Deck, rules: Rules, out: Path, n_rules: int, readings: bool,
               parent: int) -> None:  # fmt: skip
    """The report's pages on the per-dealer table the report's lab writes to the cache (this
    waits for it), at the lowest priority: (``readings``: this process set them) the
    reconciliation's (``analysis.report.waylab.reconciliation_page``), then the derived
    dealer's cards' (``analysis.report.derived.dealer_pages``); their index lines into
    ``PAGES``, written last."""
    import json


    if not exposed_variants():
        return
    _lowest_priority()
    table = hand_table(deck, rules)
    _wait_for_parent(lambda: is_cached(table, PlayerSide("response")), parent)
    lab = response_lab(deck, rules)
    assert lab is not None

    def log(line: str) -> None:
        print(line, flush=True)

    with figure_tables():  # the report's pages show their figures so (``build_reports``)
        reconcile = reconciliation_page(out, lab, log) if readings else None
        lines = dealer_pages(out, lab, n_rules, log=log)
    done = {"out": str(out), "rules": n_rules, "deck": deck.name, "dealer": lines,
            "reconcile": reconcile}  # fmt: skip
    replace_atomic(cache_dir() / PAGES, lambda f: f.write(json.dumps(done).encode()))


def _lowest_priority() -> None:
    """This process at the lowest CPU priority, where the system allows it."""
    # not on this system: the readings share the cores
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m analysis.report.ahead", description=__doc__)
    parser.add_argument("--deck", required=True)
    parser.add_argument("--wheel", default="second")
    parser.add_argument("--choices", action="store_true")
    parser.add_argument("--dealer-pages", type=Path)
    parser.add_argument("--rules", type=int, default=0)
    parser.add_argument("--shared-numba-cache", action="store_true")
    parser.add_argument("--after-hand-table", action="store_true")
    parser.add_argument("ways", nargs="+")
    args = parser.parse_args(argv)
    if args.shared_numba_cache and not lock_cache_files():
        # the parent saves into these folders under the lock: never without it
        raise SystemExit("ahead: numba's cache files cannot be locked here; nothing built")
    build(Deck.parse(args.deck), Rules(wheel=args.wheel), args.ways, args.choices,
          args.dealer_pages, args.rules, args.after_hand_table)  # fmt: skip


if __name__ == "__main__":
    main()
