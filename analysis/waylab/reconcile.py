"""Which reading of the reference way's rule card gives its math report's figure?

The dealer-open math report publishes one figure for its house way: a base-game house edge of
1.82% with the player answering the exposed dealer by his best response
(``data/published/dealer_open_math_report.toml``). Every named reading of the ``gli`` card (the
``[[clause]]`` tables of ``data/ways/gli.toml``) is priced here exactly, from one per-dealer
table (no engine run per reading): each single alternative over the literal reading, then every
alternative of rule 5's clause (the one in doubt) combined with each single alternative of the
other clauses. The table says how far each lands from the published figure.

Nothing is fitted: the readings are the card's, the figure is the report's, and the choice of
the default reading (the card's ``default``; docs/rules.md, "The gli card") weighs this table
together with what the reading does to the hands it changes (``analysis.waylab.waycosts``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pandas as pd

from analysis.games.players import Player
from analysis.games.variants import get_variant
from analysis.render.printed import parse_printed
from analysis.waylab.wayedge import DealerLab, dealer_lab, price_dealer_way
from enumerate.engine.pairs.shards import default_jobs
from enumerate.houseways import Clause, get_way
from enumerate.paths import data_dir
from enumerate.rules import Deck, Rules
from enumerate.waytables import way_is_cached, way_tables

PUBLISHED_FILE = data_dir() / "published" / "dealer_open_math_report.toml"
RULE_5 = "two-pair"


def published_edge(path: Path = PUBLISHED_FILE) -> tuple[Fraction, Fraction, str]:
    """(value, tolerance, source) of the report's dealer-open house edge: the report file's
    house-edge line, its tolerance half a unit of its last printed digit."""
    data = tomllib.loads(path.read_text())
    for entry in data.get("line", []):
        if entry.get("figure") == "house edge":
            printed = parse_printed(entry.get("value"), f"{path}: value")
            return printed.value, printed.unit / 2, str(data.get("source", ""))
    raise ValueError(f"{path.name}: no house edge line")


def readings_to_try() -> list[dict[str, str]]:
    """Changes to the literal reading, as clause -> alternative: none; each single
    alternative; each alternative of rule 5's clause with each single alternative of another
    clause."""
    singles = [{c.id: name} for c in _clauses() for name in c.names if name != c.literal]
    fives = [{RULE_5: name} for name in _clause(RULE_5).names if name != _clause(RULE_5).literal]
    pairs = [{**five, **one} for five in fives for one in singles if RULE_5 not in one]
    return [{}, *singles, *pairs]


def _clauses() -> tuple[Clause, ...]:
    """The named clauses of the gli card."""
    return get_way("gli").clauses


def _clause(cid: str) -> Clause:
    return next(c for c in _clauses() if c.id == cid)


def reading_names() -> list[str]:
    """The way names of ``readings_to_try``, in its order."""
    return [way_name(change) for change in readings_to_try()]


def way_name(change: Mapping[str, str]) -> str:
    """The canonical name of the literal reading with ``change``."""
    return get_way("gli", {**{c.id: c.literal for c in _clauses()}, **change}).name


def reconcile(
    deck: Deck | None = None,
    rules: Rules | None = None,
    lab: DealerLab | None = None,
    log: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """One row per reading tried: its changes to the literal reading, the way's name, its
    exact dealer-open house edge (best response) and the distance to the published figure,
    closest first; ``within`` says whether it is inside the published rounding."""
    variant = get_variant("dealer-open")
    lab = lab or dealer_lab(variant, Player.BEST_RESPONSE, None, deck, rules)
    target, tolerance, _source = published_edge()
    changes = readings_to_try()
    names = [way_name(change) for change in changes]
    # the readings not yet cached are set in one pass over the hands, not one pass each; the
    # others are read once, when priced, and not here as well (a second read of each)
    hands = lab.table
    missing = [n for n in names if not way_is_cached(get_way(n), hands.deck, hands.rules)]
    if missing:
        way_tables(missing, hands.deck, hands.rules)

    def edge_of(name: str) -> Fraction:
        return price_dealer_way(variant, get_way(name), lab=lab).house_edge

    # on both cores: a reading's table is read and its settings found in the per-dealer
    # table outside the GIL; told in order from this thread, as each is priced (two threads'
    # lines would mix)
    edges = []
    with ThreadPoolExecutor(default_jobs()) as pool:
        for name, edge in zip(names, pool.map(edge_of, names), strict=True):
            if log is not None:
                log(f"priced reading {name}")
            edges.append(edge)
    rows = []
    for change, name, edge in zip(changes, names, edges, strict=True):
        rows.append({
            "reading": ", ".join(f"{k}={v}" for k, v in change.items()) or "literal",
            "way": name, "house edge": edge, "distance": edge - target,
            "within": abs(edge - target) <= tolerance,
        })  # fmt: skip
    df = pd.DataFrame(rows)
    order = sorted(range(len(df)), key=lambda i: (abs(df["distance"].iloc[i]), i))
    return df.iloc[order].reset_index(drop=True)

