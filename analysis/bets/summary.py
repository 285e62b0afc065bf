"""The seven-card facts of a deck grouped: one row per combination of the facts a bet reads
most (Fortune class, best five-card category, joker, pai gow flags, jacks) that occurs, with
the number of hands holding it and one of them as an example; with a house way, also how the
way sets the hand (the category of its back and its front).

A few hundred rows stand for the 154,143,080 hands of the full deck, so a bet that reads only
these facts is priced without reading the hand table; the summary is cached beside it and
checked when read (its rows add up to every hand of the deck).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from pathlib import Path

import numpy as np
import pyarrow as pa

from enumerate.cache import cache_dir, load_or_build, provenance, require
from enumerate.evaluate import five_card_table
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules

SCHEMA = 2
COLUMNS = ("fortune", "best_five", "joker", "flags", "jacks", "high_card")  # the facts kept
WAY_COLUMNS = ("way_back", "way_low")  # with a house way: its back's category, its front's id
SUMMARY_FACTS = frozenset({
    "fortune", "best_five", "joker", "pai_gow", "ace_high_pai_gow", "ace_high_pai_gow_joker",
    "ace_high_pai_gow_natural", "queen_high_pai_gow", "jacks", "high_card",
})  # fmt: skip
WAY_FACTS = frozenset({"way_back", "way_front_high", "way_front_low", "way_front_pair"})


def summary_path(deck: Deck, rules: Rules, way: HouseWay | None = None,
                 cache: Path | None = None) -> Path:  # fmt: skip
    from enumerate.waytables import _safe, _stem

    by = "" if way is None else f"-{_safe(way.name)}"
    return (cache or cache_dir()) / f"betfacts{by}-{_stem(deck, rules)}.parquet"


def _build(deck: Deck, rules: Rules, way: HouseWay | None) -> pa.Table:
    from analysis.bets.scopes import high_card
    from enumerate.cards import JOKER_ID
    from enumerate.tables import hand_table
    from enumerate.waytables import way_table

    table = hand_table(deck, rules)
    five = five_card_table(rules)
    columns = [
        table.seven_card_class.astype(np.int64),
        five.category[table.best_five].astype(np.int64),
        (table.cards == JOKER_ID).any(axis=1).astype(np.int64),
        table.flags.astype(np.int64),
        table.jacks.astype(np.int64),
        high_card(table.cards).astype(np.int64),
    ]
    names = list(COLUMNS)
    if way is not None:
        cols = way_table(way, deck, rules)
        columns += [five.category[cols.high].astype(np.int64), cols.low.astype(np.int64)]
        names += WAY_COLUMNS
    key = np.zeros(len(table), dtype=np.int64)
    radix = 1
    for col in columns:  # every column is a small non-negative int
        key += col * radix
        radix *= int(col.max()) + 1
    present, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    weight = np.zeros(len(present), dtype=np.int64)
    np.add.at(weight, inverse, table.orbit_size.astype(np.int64))
    out = {name: col[first] for name, col in zip(names, columns, strict=True)}
    out["weight"] = weight
    for i in range(7):
        out[f"c{i}"] = table.cards[first, i].astype(np.int64)
    return pa.table(out)


def _check(deck: Deck) -> Callable[[pa.Table], None]:
    def check(t: pa.Table) -> None:
        weight = t.column("weight").to_numpy()
        require(bool((weight > 0).all()), "a group without hands")
        require(int(weight.sum()) == comb(deck.size, 7), "the groups do not add up to the deck")

    return check


def fact_summary(deck: Deck, rules: Rules, way: HouseWay | None = None,
                 use_cache: bool = True) -> dict[str, np.ndarray]:  # fmt: skip
    """The summary's columns (``COLUMNS``, with a way ``WAY_COLUMNS``, ``weight`` and the
    example hand ``c0``..``c6``)."""
    prov = provenance(SCHEMA, table="betfacts", deck=deck.key, rules=rules.key,
                      way=None if way is None else way.key)  # fmt: skip
    table, _ = load_or_build(summary_path(deck, rules, way), prov,
                             lambda: _build(deck, rules, way), use_cache, _check(deck))  # fmt: skip
    return {name: table.column(name).to_numpy() for name in table.column_names}
