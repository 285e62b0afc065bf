"""House edges over a grid: variants x house ways x rule options, one table at the end.

A *cell* is (variant name, house way, ``Rules``); its house edge is an exact ``Fraction`` priced
from the pair counts of one engine run. Cells that differ only by variant share their run: the
sweep runs the engine once per (house way, rules) with a dealer flag mask covering every
variant of the grid, and all those runs go to ``run_engines`` together, so their shards share
the threads (local backend) or the cluster (``backend="dask"``; given a ``scheduler`` address
the cells run on its workers).

A cell is priced by ``price(deal, variant_name) -> Fraction`` with ``deal`` an
``analysis.pricing.counts.DealCounts``; the default, ``variant_price``, is the full pricing of
``analysis.pricing.returns`` (the variant's default player mode).

>>> from enumerate.rules import Deck
>>> r = sweep(["traditional"], ["gli"], ["second"], Deck.parse("TJQKA:cdh+joker"),
...           use_cache=False, progress=False)
>>> list(r.table.columns)
['variant', 'house_way', 'wheel', 'player', 'house_edge', 'house_edge_percent']
>>> len(r.table), r.n_runs
(1, 1)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pandas as pd

from analysis.games.variants import get_variant
from analysis.pricing.counts import DealCounts
from analysis.pricing.returns import price as price_variant
from analysis.render.formats import decimal, markdown, to_json
from enumerate.engine import build_keys
from enumerate.engine.pairs.run import BACKENDS, run_engines
from enumerate.houseways import get_way, split_way_names
from enumerate.rules import Deck, Rules, WheelOption
from enumerate.tables import hand_table

PriceFn = Callable[[DealCounts, str], Fraction]

TRADITIONAL = "traditional"
COLUMNS = ["variant", "house_way", "wheel", "player", "house_edge", "house_edge_percent"]


@dataclass(frozen=True)
class Cell:
    """One point of the grid."""

    variant: str
    house_way: str
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True)
class EngineRun:
    """One engine run: every cell of a house way and rules is priced from it."""

    house_way: str
    rules: Rules
    flag_mask: int


def wheel_rules(wheel: str) -> Rules:
    """``Rules`` with this wheel option (a ``ValueError`` for an unknown one)."""
    return Rules(wheel=cast(WheelOption, wheel))


def grid(
    variants: Iterable[str], ways: Iterable[str], rules: Iterable[Rules | str] = ("second", "low")
) -> list[Cell]:
    """Every (variant, way, rules) cell; ``rules`` items may be ``Rules`` or wheel options."""
    rule_list = [r if isinstance(r, Rules) else wheel_rules(r) for r in rules]
    return [Cell(v, w, r) for v in variants for w in ways for r in rule_list]


# --------------------------------------------------------------------------- pricing


def variant_price(deal: DealCounts, variant: str) -> Fraction:
    """Full pricing (``analysis.pricing.returns.price``): the variant's house edge for its default
    player mode (blind by the house way, or the best response to an exposed dealer)."""
    return price_variant(deal, variant).house_edge


def variant_flag_mask(variant: str) -> int:
    """The dealer flags a variant's pricing needs (a ``VariantError`` for an unknown one)."""
    return get_variant(variant).flag_mask


def player_mode(variant: str) -> str:
    """How the player sets hands in a variant's default pricing."""
    return get_variant(variant).default_player


# --------------------------------------------------------------------------- the sweep


@dataclass(frozen=True, eq=False)
class SweepResult:
    """House edges of every cell, and the counts they were priced from."""

    deck: Deck
    edges: dict[Cell, Fraction]
    deals: dict[EngineRun, DealCounts]
    table: pd.DataFrame  # COLUMNS, one row per cell in grid order
    seconds: float  # wall time of the sweep
    backend: str

    @property
    def n_runs(self) -> int:
        return len(self.deals)

    def edge(self, variant: str, house_way: str, rules: Rules | str = "second") -> Fraction:
        r = rules if isinstance(rules, Rules) else wheel_rules(rules)
        return self.edges[Cell(variant, house_way, r)]

    def render(self, fmt: str = "md") -> str:
        """The table as markdown, CSV or JSON (exact edges as ``"n/d"`` in JSON and CSV)."""
        df = self.table
        if fmt == "md":
            shown = df.drop(columns=["house_edge"])
            return markdown(shown) + "\n"
        if fmt == "csv":
            out = df.copy()
            out["house_edge"] = [f"{x.numerator}/{x.denominator}" for x in df["house_edge"]]
            return str(out.to_csv(index=False))
        if fmt == "json":
            return to_json({"deck": self.deck.name, "cells": df.to_dict(orient="records")}) + "\n"
        raise ValueError(f"unknown format {fmt!r} (md, csv or json)")


def sweep_cells(
    cells: Sequence[Cell],
    deck: Deck | None = None,
    *,
    price: PriceFn | None = None,
    flag_mask: int | None = None,
    backend: str | None = None,
    scheduler: Any = None,
    n_jobs: int | None = None,
    use_cache: bool = True,
    progress: bool | None = None,
    cache: Path | None = None,
    on_run: Callable[[str], None] | None = None,
) -> SweepResult:
    """Price every cell: one engine run per (house way, rules), all run together.

    ``price(deal, variant_name) -> Fraction`` prices a cell (default ``variant_price``);
    ``flag_mask`` (default: the union of what the variants need) sets the dealer classes the
    runs keep apart. ``backend`` defaults to ``"dask"`` when a ``scheduler`` is given, else
    ``"local"``; ``n_jobs``, ``use_cache``, ``cache`` go to ``run_engines``. ``on_run`` is told
    what runs, in one line.
    """
    t0 = time.perf_counter()
    deck = deck or Deck.full()
    if deck.size < 14:
        raise ValueError(f"deck {deck.name} has {deck.size} cards: a deal needs 14")
    price = price or variant_price
    backend = backend or ("dask" if scheduler is not None else "local")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    cells = list(dict.fromkeys(cells))
    if not cells:
        raise ValueError("the grid has no cells")
    if flag_mask is None:
        flag_mask = 0
        for v in dict.fromkeys(c.variant for c in cells):
            flag_mask |= variant_flag_mask(v)
    runs = list(dict.fromkeys(EngineRun(c.house_way, c.rules, flag_mask) for c in cells))
    tables = {r: hand_table(deck, r, use_cache) for r in dict.fromkeys(x.rules for x in runs)}
    inputs = []
    for run in runs:
        way = get_way(run.house_way)
        table = tables[run.rules]
        inputs.append((table, build_keys(table, way, way, run.flag_mask, use_cache)))
    if on_run is not None:
        where = f"on {scheduler}" if scheduler is not None else f"({backend})"
        on_run(
            f"sweep of {len(cells)} cells on deck {deck.name}: {len(runs)} engine runs "
            f"(dealer flags {flag_mask}) {where}; finished shards are cached"
        )
    counts = run_engines(
        inputs, n_jobs, use_cache, progress, backend=backend, scheduler=scheduler, cache=cache,
    )  # fmt: skip
    deals: dict[EngineRun, DealCounts] = {}
    for run, (_, keys), pc in zip(runs, inputs, counts, strict=True):
        deal = DealCounts(
            counts=pc, dealer_class_bits=keys.dealer_class_bits, deck=deck, rules=run.rules,
            dealer_way=run.house_way, player_way=run.house_way, flag_mask=run.flag_mask,
            source="engine",
        )  # fmt: skip
        if deal.total != deal.expected_total:
            raise AssertionError(f"pair counts add up to {deal.total}, not {deal.expected_total}")
        deals[run] = deal
    edges: dict[Cell, Fraction] = {}
    rows = []
    for cell in cells:
        deal = deals[EngineRun(cell.house_way, cell.rules, flag_mask)]
        edge = Fraction(price(deal, cell.variant))
        edges[cell] = edge
        rows.append(
            {
                "variant": cell.variant,
                "house_way": cell.house_way,
                "wheel": cell.rules.wheel,
                "player": player_mode(cell.variant),
                "house_edge": edge,
                "house_edge_percent": decimal(100 * edge, 6),
            }
        )
    frame = pd.DataFrame(rows, columns=COLUMNS)
    return SweepResult(deck, edges, deals, frame, time.perf_counter() - t0, backend)


def sweep(
    variants: Iterable[str] = (TRADITIONAL,),
    ways: Iterable[str] = ("gli",),
    wheels: Iterable[Rules | str] = ("second", "low"),
    deck: Deck | None = None,
    **options: Any,
) -> SweepResult:
    """``sweep_cells`` over the grid variants x ways x wheels (see there for ``options``)."""
    return sweep_cells(grid(variants, ways, wheels), deck, **options)


def cell_edge(cell: Cell, deck: Deck | None = None, **options: Any) -> Fraction:
    """The house edge of one cell (see ``sweep_cells`` for ``options``)."""
    return sweep_cells([cell], deck, **options).edges[cell]


# --------------------------------------------------------------------------- command line


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """``--backend``, ``--scheduler``, ``--jobs``: where the engine's shards run."""
    group = parser.add_argument_group("execution")
    group.add_argument(
        "--backend", choices=BACKENDS, default=None,
        help="local: threads of this process (default); dask: tasks on a Dask cluster "
        "(the default when --scheduler is given)",
    )  # fmt: skip
    group.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="Dask scheduler address, e.g. tcp://host:8786 (workers need PAIGOW_CACHE_DIR on "
        "storage shared with this machine); --backend dask without it starts a local cluster",
    )  # fmt: skip
    group.add_argument(
        "--jobs", type=int, default=None, metavar="N",
        help="threads (local), or worker processes of a local Dask cluster (default: one per "
        "core)",
    )  # fmt: skip


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """``backend``, ``scheduler`` and ``n_jobs`` for ``run_engine`` / ``sweep`` from parsed
    ``add_backend_options`` arguments."""
    backend = args.backend or ("dask" if args.scheduler else "local")
    if backend == "local" and args.scheduler:
        raise ValueError("--scheduler needs --backend dask")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    return {"backend": backend, "scheduler": args.scheduler, "n_jobs": args.jobs}


def _names(text: str, what: str) -> list[str]:
    names = split_way_names(text)  # commas inside a reading's brackets stay
    if not names:
        raise ValueError(f"--{what}: give at least one, comma-separated")
    return list(dict.fromkeys(names))


def cmd_sweep(args: argparse.Namespace) -> int:
    """``paigow sweep``: print the table of house edges."""
    variants = _names(args.variants, "variants")
    ways = _names(args.ways, "ways")
    wheels = _names(args.wheels, "wheels")
    for w in wheels:
        wheel_rules(w)  # a one-line ValueError for a wrong option
    for way in ways:
        get_way(way)
    for v in variants:
        variant_flag_mask(v)  # unknown variants fail before any engine run
    result = sweep(
        variants, ways, wheels, Deck.parse(args.deck), on_run=_tell, **backend_options(args)
    )
    print(result.render(args.format), end="")
    _tell(f"sweep: {len(result.edges)} cells, {result.n_runs} engine runs, "
          f"{result.seconds:.1f} s wall ({result.backend})")  # fmt: skip
    return 0


def _tell(message: str) -> None:
    print(f"paigow: {message}", file=sys.stderr, flush=True)


def add_sweep_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``sweep`` to the ``paigow`` subcommands (``subparsers`` from ``add_subparsers``)."""
    p = subparsers.add_parser(
        "sweep", help="house edges over a grid of variants x house ways x wheel options",
        description="Exact house edges of every (variant, house way, wheel) cell. The engine "
        "runs once per (house way, wheel), all runs in parallel (threads, or a Dask cluster "
        "with --scheduler); finished shards are cached, so an interrupted sweep resumes.",
    )  # fmt: skip
    p.add_argument("--variants", default=TRADITIONAL,
                   help="comma-separated variants (default: traditional)")  # fmt: skip
    p.add_argument("--ways", default="gli", help="comma-separated house ways (default: gli)")
    p.add_argument("--wheels", default="second,low",
                   help="comma-separated wheel options (default: second,low)")  # fmt: skip
    p.add_argument("--deck", default="full", help="deck, e.g. full or TJQKA:cdh+joker")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    add_backend_options(p)
    p.set_defaults(func=cmd_sweep)
    return p
