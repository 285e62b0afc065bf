"""Strategies side by side (``analysis.derive.compare``): each figure, priced by summing the
per-hand table at the strategy's settings, equals the pair engine's count of every deal."""

import csv
import io
from fractions import Fraction

import pytest

from analysis.derive import derive_strategy
from analysis.derive.compare import compare_strategies, shipped_strategies
from analysis.pricing.banking import COMMISSION
from analysis.pricing.counts import pair_counts
from analysis.pricing.strategy import strategy_return_table
from enumerate.rules import Deck, Rules

# four suits, the joker, the wheel (A-2-3-4-5), straights and flushes
DECK = Deck.parse("2345KA:cdhs+joker")


@pytest.fixture(scope="module")
def table():
    d = derive_strategy("traditional", "gli", 5, deck=DECK)
    over = derive_strategy("traditional", "gli", 2, base="points", deck=DECK)
    t = compare_strategies("traditional", "gli", derivation=d, sizes=(2, 5), deck=DECK,
                           over_points=over, point_sizes=(2,))  # fmt: skip
    return t, d, over


def test_every_row_is_there_in_order(table):
    t, _, _ = table
    names = [r.name for r in t.rows]
    assert names[0] == "gli (house way)" and names[-1] == "optimal"
    assert len(shipped_strategies()) >= 3
    for path in shipped_strategies():
        assert path.stem in names
    assert "derived, 2 rules" in names and "derived, 5 rules" in names
    assert "point count" in names and "point count + 2 rules" in names
    assert "point count, chances" in names and "point count, banker's" in names
    assert t.rows[0].share == 0 and t.rows[-1].share == 1
    # optimal play is at least as good as every strategy, for the player and for the banker
    assert all(r.edge >= t.rows[-1].edge for r in t.rows)
    assert all(r.banker_edge >= t.rows[-1].banker_edge for r in t.rows)


def test_the_figures_equal_the_engines_count_of_every_deal(table):
    """The player's edge of each written card and of the point count (the engine counts the
    card against gli) and the banker's (the engine counts gli's player against the card as
    dealer: the banker wins what that player loses, less 5%)."""
    from analysis.pricing.optimal import solve_optimal
    from analysis.pricing.strategy import points_of
    from enumerate.waytables import way_table

    t, _, _ = table
    rules = Rules()
    per = solve_optimal("traditional", "gli", DECK, rules).per_hand
    for r in t.rows:
        if r.kind not in ("written", "point count"):
            continue
        # a point count's source begins with its card's name (registered when priced)
        path = (r.source.split(":")[0] if r.kind == "point count" else
                next(p for p in shipped_strategies() if p.stem == r.name))  # fmt: skip
        cols = way_table(str(path), DECK, rules)
        # the comparison summed the per-hand table: the card sets every hand on its frontier
        assert (points_of(per, cols.high, cols.low) >= 0).all(), r.name
        engine = strategy_return_table("traditional", str(path), "gli", DECK, rules,
                                       method="engine")  # fmt: skip
        assert r.edge == engine.house_edge, r.name
        c = pair_counts(DECK, rules, str(path), "gli", 0).counts
        deals = int(c.blind_win.sum() + c.blind_push.sum() + c.blind_loss.sum())
        banker = -((1 - COMMISSION) * int(c.blind_loss.sum()) - int(c.blind_win.sum())) / deals
        assert r.banker_edge == banker, r.name


def test_the_derived_rows_are_the_derivations_edges(table):
    t, d, over = table
    for k in (2, 5):
        row = next(r for r in t.rows if r.name == f"derived, {k} rules")
        assert row.edge == d.edge(k)
        assert row.share == d.share(k)
    assert t.rows[0].edge == d.base_edge
    rows = {r.name: r for r in t.rows}
    assert rows["point count"].edge == over.base_edge
    assert rows["point count + 2 rules"].edge == over.edge(2) < over.base_edge


def test_the_table_renders(table):
    t, _, _ = table
    md = t.render("md")
    assert "| wong" in md and "banker's edge" in md
    assert '"house_edge_fraction"' in t.render("json")
    first = next(csv.DictReader(io.StringIO(t.render("csv"))))
    assert Fraction(first["house_edge_fraction"]) == t.rows[0].edge
