"""The public API (``from analysis import ...``): one function per question, keyword-only
options named alike, player modes as a ``StrEnum``, tables that show as HTML in Jupyter, and an
import that stays light."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

import analysis
from analysis import (
    Deck,
    Player,
    best_settings,
    compare_ways,
    envy_table,
    hand,
    optimal_strategy,
    return_table,
    set_hand,
    side_bet,
    way_edge,
)

ROOT = Path(__file__).resolve().parents[1]
DECK = "TJQKA:cdh+joker"  # 16 cards: every deal counted in seconds


@pytest.fixture(scope="module")
def tables():
    return {
        mode: return_table(variant, way="gli", player=mode, deck=DECK)
        for variant, mode in [("traditional", Player.HOUSE_WAY), ("face-up", Player.BEST_RESPONSE),
                              ("traditional", Player.OPTIMAL), ("traditional", Player.BANKING)]
    }  # fmt: skip


def test_every_name_of_the_api_is_there_and_documented() -> None:
    for name in analysis.__all__:
        obj = getattr(analysis, name)
        assert obj.__doc__, name
    with pytest.raises(AttributeError):
        analysis.not_a_function  # noqa: B018


def test_importing_analysis_imports_nothing_heavy() -> None:
    code = ("import analysis, json, sys\n"
            "print(json.dumps([m for m in ('pandas', 'numba', 'pyarrow', 'matplotlib') "
            "if m in sys.modules]))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    assert json.loads(out.stdout) == []


def test_player_modes_are_a_str_enum() -> None:
    assert Player("optimal") is Player.OPTIMAL
    assert Player.BEST_RESPONSE == "best-response"
    with pytest.raises(ValueError):
        Player("genius")


def test_a_table_per_player_mode(tables) -> None:
    assert tables[Player.HOUSE_WAY].player == "house-way"
    assert tables[Player.BEST_RESPONSE].player == "best-response"
    assert tables[Player.OPTIMAL].player == "optimal"
    assert tables[Player.BANKING].player.startswith("banking")
    for t in tables.values():
        assert t.total == comb(16, 7) * comb(9, 7)  # every deal of the 16 cards
        assert t.house_edge == -sum(t.rows["return"])
    # optimal blind play can only do better than the house way it is measured against
    assert tables[Player.OPTIMAL].house_edge <= tables[Player.HOUSE_WAY].house_edge


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        return_table("traditional", "gli")  # type: ignore[misc]
    with pytest.raises(TypeError):
        way_edge("face-up", "gli")  # type: ignore[misc]


def test_wrong_modes_are_one_line_errors() -> None:
    with pytest.raises(ValueError, match="exposes the dealer's hand"):
        return_table("face-up", player=Player.OPTIMAL, deck=DECK)
    with pytest.raises(ValueError, match="hides the dealer's hand"):
        return_table("traditional", player=Player.BEST_RESPONSE, deck=DECK)


def test_a_deck_is_a_deck_or_its_name(tables) -> None:
    t = return_table("traditional", way="gli", player="house-way", deck=Deck.parse(DECK))
    assert t.house_edge == tables[Player.HOUSE_WAY].house_edge


def test_way_edge_equals_the_pair_counts(tables) -> None:
    """Priced from the per-dealer table, the same integers as from the pair counts."""
    t = way_edge("face-up", way="gli", player=Player.BEST_RESPONSE, deck=DECK)
    assert t.house_edge == tables[Player.BEST_RESPONSE].house_edge


def test_the_optimal_strategy_matches_its_return_table(tables) -> None:
    opt = optimal_strategy("traditional", way="gli", deck=DECK)
    assert opt.house_edge(True) == tables[Player.OPTIMAL].house_edge
    assert opt.house_edge(False) == tables[Player.HOUSE_WAY].house_edge


def _html_table_rows(html: str) -> int:
    return len(re.findall(r"<tr>", html))


def test_every_table_type_shows_as_html(tables) -> None:
    shown = [
        *tables.values(),
        side_bet("fortune", paytable="1", deck=DECK),
        envy_table("5000", deck=DECK),
        best_settings("Ah Kd Qc Jc Tc Td Jk", deck=DECK),
        set_hand("Ks Kh 9c 7d 5h 3s 2c", way="gli"),
        compare_ways("gli", "trump-plaza", deck=DECK),
        hand("As Ks Qs Js Ts 2c Jk"),
        optimal_strategy("traditional", way="gli", deck=DECK),
    ]
    for table in shown:
        html = table._repr_html_()
        assert "<table" in html and _html_table_rows(html) >= 2, type(table).__name__
    edge = tables[Player.HOUSE_WAY].house_edge
    assert f"{edge.numerator}/{edge.denominator}" in tables[Player.HOUSE_WAY]._repr_html_()


def test_a_side_bet_takes_a_paytable_built_in_memory() -> None:
    import dataclasses

    base = analysis.paytable("fortune", "1")
    richer = dataclasses.replace(base, pays=tuple((e, p + 1 if e == "straight" else p)
                                                  for e, p in base.pays))  # fmt: skip
    a = side_bet("fortune", paytable=base, deck=DECK).returns
    b = side_bet("fortune", paytable=richer, deck=DECK).returns
    assert a is not None and b is not None
    assert a.house_edge - b.house_edge == Fraction(a.combinations("straight"), a.total)


def test_the_notebooks_use_only_the_public_api() -> None:
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        imports = re.findall(r"^\s*(?:from|import)\s+([\w.]+)", code, re.M)
        ours = [m for m in imports if m.split(".")[0] in ("analysis", "enumerate")]
        assert ours and all(m == "analysis" for m in ours), (path.name, ours)
