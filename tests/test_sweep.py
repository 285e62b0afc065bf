"""``sweep``: a grid of variants x house ways x wheel options priced from shared engine runs."""

from __future__ import annotations

import argparse
from fractions import Fraction

import pytest

from analysis.pricing.sweep import (
    Cell,
    add_backend_options,
    add_sweep_command,
    backend_options,
    cell_edge,
    sweep,
)
from enumerate.engine import build_keys, run_engine
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

DECK = "A2345K:cdh+joker"  # small, yet the ways and the wheel options all differ on it
WAYS = ["gli", "trump-plaza"]
WHEELS = ["second", "low"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    return tmp_path


def separate_traditional_edge(deck: Deck, way: str, wheel: str) -> Fraction:
    """The traditional house edge from a run_engine call of its own (no shard cache)."""
    table = hand_table(deck, Rules(wheel=wheel))  # type: ignore[arg-type]
    keys = build_keys(table, get_way(way), flag_mask=0)
    c = run_engine(table, keys, use_cache=False, progress=False)
    win, loss = int(c.blind_win.sum()), int(c.blind_loss.sum())
    return -(Fraction(19, 20) * win - loss) / c.total


def blind_traditional(deal, variant: str) -> Fraction:
    """The traditional house edge from the blind counts alone, by the rule text: a win pays
    0.95, a loss costs 1, a push nothing."""
    assert variant == "traditional"
    win, loss = int(deal.counts.blind_win.sum()), int(deal.counts.blind_loss.sum())
    return -(Fraction(19, 20) * win - loss) / deal.total


def test_sweep_equals_separate_runs(cache):
    deck = Deck.parse(DECK)
    result = sweep(["traditional"], WAYS, WHEELS, deck, price=blind_traditional, progress=False)
    assert len(result.table) == 4 and len(result.edges) == 4 and result.n_runs == 4
    assert list(result.table["wheel"]) == ["second", "low", "second", "low"]
    for way in WAYS:
        for wheel in WHEELS:
            assert result.edge("traditional", way, wheel) == separate_traditional_edge(
                deck, way, wheel
            )
    assert len(set(result.edges.values())) == 4
    # the full pricing (the default) agrees, from the shards cached by the first sweep
    again = sweep(["traditional"], WAYS, WHEELS, deck, progress=False)
    assert again.edges == result.edges


def test_variants_share_engine_runs(cache):
    deck = Deck.parse(DECK)
    variants = ["traditional", "face-up", "dealer-open"]
    result = sweep(variants, WAYS, WHEELS, deck, progress=False)
    assert len(result.table) == 12 and result.n_runs == 4  # one run per (way, wheel)
    assert {run.flag_mask for run in result.deals} == {3 | 4}  # face-up's and dealer-open's
    assert result.table["player"].tolist()[:4] == ["house-way"] * 4
    one = cell_edge(Cell("face-up", "trump-plaza", Rules(wheel="low")), deck, progress=False)
    assert one == result.edge("face-up", "trump-plaza", "low")
    assert result.edge("traditional", "gli", "low") == separate_traditional_edge(deck, "gli", "low")
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        sweep(["nope"], ["gli"], ["second"], deck, progress=False)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="paigow")
    add_sweep_command(p.add_subparsers(dest="command", required=True))
    return p


def test_sweep_command(cache, capsys):
    args = parser().parse_args(
        ["sweep", "--ways", "gli,trump-plaza", "--deck", DECK, "--format", "csv"]
    )
    assert args.func(args) == 0
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert lines[0] == "variant,house_way,wheel,player,house_edge,house_edge_percent"
    assert len(lines) == 5 and "4 cells, 4 engine runs" in err
    args = parser().parse_args(["sweep", "--deck", DECK, "--wheels", "low", "--format", "json"])
    assert args.func(args) == 0
    assert '"wheel": "low"' in capsys.readouterr().out
    with pytest.raises(ValueError, match="unknown house way"):
        bad = parser().parse_args(["sweep", "--ways", "nope", "--deck", DECK])
        bad.func(bad)


def test_backend_options():
    p = argparse.ArgumentParser()
    add_backend_options(p)
    assert backend_options(p.parse_args([])) == {
        "backend": "local", "scheduler": None, "n_jobs": None,
    }  # fmt: skip
    assert backend_options(p.parse_args(["--scheduler", "tcp://h:8786"]))["backend"] == "dask"
    assert backend_options(p.parse_args(["--backend", "dask", "--jobs", "2"]))["n_jobs"] == 2
    with pytest.raises(ValueError, match="needs --backend dask"):
        backend_options(p.parse_args(["--backend", "local", "--scheduler", "tcp://h:8786"]))
