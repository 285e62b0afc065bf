"""One class of a cached per-hand table, read alone (``paigow best`` with the table cached).

The table's two files (``perhand.table._save``) hold row groups of ``CLASSES_PER_GROUP`` classes,
the points file's row groups aligned with the classes file's: a class's row group is found by the
statistics of its canonical code, and its frontier points are rows ``offset .. offset + size`` of
the points file's row group of the same number (offsets: the running sum of the ``points`` column of
the class's row group). Only those two row groups are read, with their page checksums verified, and
the class's numbers are checked before they are served: every count non-negative, wins and losses
within the dealer hands their columns count, the dealer hands all the C(n-7, 7) hands of the other
cards, the points the frontier of the hand (worked out by the caller from the hand's own cards) and
the house way's setting one the frontier dominates. A file that fails is reported in one line and
removed with its partner.

The file is found without building the engine keys (which reads every class of three tables):
by its provenance, the keys' description (``KeySpec``, as ``build_keys`` makes it) and the
code that wrote it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from enumerate.cache import (
    READ_ERRORS,
    cache_dir,
    open_verified,
    provenance,
    read_provenance,
    report_damaged,
    require,
)
from enumerate.engine.keys import KeySpec
from enumerate.engine.perhand.answersets import AnswerSets
from enumerate.engine.perhand.table import PerHand, classes_path
from enumerate.houseways import HouseWay
from enumerate.rules import Deck, Rules


@dataclass(frozen=True, eq=False)
class HandCounts:
    """Exact counts of one hand against every dealer hand of the other cards: ``counts``, a
    per-hand table of the hand's class alone (its frontier points, its house-way setting
    (``way_high``, ``way_low``), the dealer hands by dealer class); ``method``, where they
    came from ("table": the cached per-hand table, "direct": this module's loop)."""

    way_high: int
    way_low: int
    counts: PerHand
    method: str



# provenance entries that describe the numbers, not the inputs: not known before reading
_OF_THE_NUMBERS = ("digest", "dealer_classes")


def find_table(deck: Deck, rules: Rules, way: HouseWay, flag_mask: int,
               sets: AnswerSets) -> Path | None:  # fmt: skip
    """The current whole per-hand table of ``deck`` and ``rules`` against a dealer (and a
    player) setting by ``way``, keeping the dealer flags ``flag_mask`` apart and wins and
    losses by the up-sets ``sets``; None if there is none (or only stale ones)."""
    spec = KeySpec.of(deck, rules, way, None, flag_mask)
    want = provenance("enumerate.engine.perhand.table", table="per-hand", keys=spec.label,
                      deck=deck.key, rules=rules.key, win_sets=list(sets.win),
                      loss_sets=list(sets.loss))  # fmt: skip
    folder = cache_dir() / "perhand"
    for path in sorted(folder.glob("*.parquet")):
        if path.name.endswith(".classes.parquet"):
            continue
        prov = read_provenance(path)
        if prov is None or {k: v for k, v in prov.items() if k not in _OF_THE_NUMBERS} != want:
            continue
        if read_provenance(classes_path(path)) == prov:
            return path
    return None


def read_class(path: Path, code: int, frontier: Sequence[tuple[int, int]],
               deck_size: int) -> HandCounts | None:  # fmt: skip
    """The counts of the class with canonical code ``code`` from the per-hand table at
    ``path`` (``find_table``), checked against ``frontier`` (the hand's non-dominated
    settings, by increasing high id); None, after a one-line notice, when the table is
    damaged (both of its files are then removed)."""
    reading = [classes_path(path)]  # the file being read, for the notice
    try:
        return _read_class(path, code, frontier, deck_size, reading)
    except READ_ERRORS as err:
        report_damaged(reading[-1], err)
        path.unlink(missing_ok=True)
        classes_path(path).unlink(missing_ok=True)
        return None


def _group_of(f: pq.ParquetFile, code: int) -> int:
    """The row group whose codes' range holds ``code``."""
    column = f.schema_arrow.get_field_index("code")
    meta = f.metadata
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(column).statistics
        require(stats is not None and stats.has_min_max, "the codes have no statistics")
        if stats.min <= code <= stats.max:
            return g
    raise KeyError(f"no class has the code {code}")


def _at(t: pa.Table, name: str, rows: slice | int) -> Any:
    return t.column(name).to_numpy()[rows]


def _read_class(path: Path, code: int, frontier: Sequence[tuple[int, int]], deck_size: int,
                reading: list[Path]) -> HandCounts:  # fmt: skip
    prov = read_provenance(path) or {}  # a missing entry is a KeyError: damage
    bits = tuple(int(b) for b in prov["dealer_classes"])
    flag_mask = int(json.loads(prov["keys"])["flag_mask"])
    require(list(bits) == sorted(set(bits)) and all(b & ~flag_mask == 0 for b in bits),
            "the dealer classes are not increasing flags of the mask")  # fmt: skip
    n_d = len(bits)
    sets = AnswerSets(tuple(prov["win_sets"]), tuple(prov["loss_sets"]))
    n_w, n_l = len(sets.win), len(sets.loss)
    cls = open_verified(reading[-1])
    g = _group_of(cls, code)
    t = cls.read_row_group(g)
    require(f"total_{n_d}" not in t.column_names, "more dealer classes than the provenance's")
    codes = _at(t, "code", slice(None))
    i = int(np.searchsorted(codes, code))
    require(i < len(codes) and codes[i] == code, f"no class has the code {code}")
    sizes = _at(t, "points", slice(None)).astype(np.int64)
    first, size = int(sizes[:i].sum()), int(sizes[i])
    total = np.array([_at(t, f"total_{d}", i) for d in range(n_d)], dtype=np.int64)
    way_win = np.array([_at(t, f"way_win_{j}", i) for j in range(n_w)], dtype=np.int64)
    way_loss = np.array([_at(t, f"way_loss_{j}", i) for j in range(n_l)], dtype=np.int64)
    way = (int(_at(t, "way_high", i)), int(_at(t, "way_low", i)))
    way_bank = np.array([[_at(t, "way_bank_win", i), _at(t, "way_bank_loss", i)]],
                        dtype=np.int64)  # fmt: skip
    reading.append(path)
    pts = open_verified(path)
    require(pts.metadata.num_row_groups == cls.metadata.num_row_groups
            and pts.metadata.row_group(g).num_rows == int(sizes.sum()),
            "the points' row groups are not the classes'")  # fmt: skip
    p = pts.read_row_group(g)
    rows = slice(first, first + size)
    high, low = _at(p, "high", rows).astype(np.int16), _at(p, "low", rows).astype(np.int8)
    win = np.stack([_at(p, f"win_{j}", rows) for j in range(n_w)], axis=1).astype(np.int64)
    loss = np.stack([_at(p, f"loss_{j}", rows) for j in range(n_l)], axis=1).astype(np.int64)
    bank = np.stack([_at(p, "bank_win", rows), _at(p, "bank_loss", rows)], axis=1).astype(np.int64)
    require(list(zip(high.tolist(), low.tolist(), strict=True)) == [tuple(x) for x in frontier],
            "the settings are not the hand's frontier")  # fmt: skip
    require(any(h >= way[0] and lo >= way[1] for h, lo in frontier),
            "the house way's setting is not one of the hand's")  # fmt: skip
    smallest = min(int(a.min(initial=0)) for a in (total, win, loss, way_win, way_loss, bank,
                                                     way_bank))  # fmt: skip
    require(smallest >= 0, "a count is negative")
    require(int(total.sum()) == comb(deck_size - 7, 7),
            "the class's dealer hands are not all the hands of the other cards")  # fmt: skip
    win_map, loss_map = sets.maps(bits)
    require(bool((win <= win_map @ total).all() and (way_win <= win_map @ total).all()
                 and (loss <= loss_map @ total).all() and (way_loss <= loss_map @ total).all()
                 and (win[:, 0] + loss[:, 0] <= total.sum()).all()
                 and way_win[0] + way_loss[0] <= total.sum()),
            "wins or losses exceed the dealer hands they count")  # fmt: skip
    counts = PerHand(
        bits, sets, np.array([0, size], dtype=np.int64), high, low, win.astype(np.int32),
        loss.astype(np.int32), way_win[None, :].astype(np.int32),
        way_loss[None, :].astype(np.int32), total[None, :].astype(np.int32),
        bank.astype(np.int32), way_bank.astype(np.int32), from_cache=True, flag_mask=flag_mask,
    )  # fmt: skip
    return HandCounts(way[0], way[1], counts, "table")
