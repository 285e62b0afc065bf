"""The points chart refit to the exact EVs (``analysis.derive.fit``).

The fit is checked against a plain loop written from its definition: a class takes the
frontier point of the most back + front points, the last of the most (the strongest back),
and the chart's gain is the sum of the classes' weights times the EVs they take. On random
frontiers (small points, so that ties are common) a fit run until it moves nothing must leave
no single group's or front's points, tried at every value between its neighbours', that the
plain loop counts better. On a deck of four suits, the joker and the wheel, the fitted card
priced by the card kernel must equal the plain loop's count of its chart, and beat the chance
chart it starts from.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analysis.derive.compare import _Pricer
from analysis.derive.fit import fit_points
from analysis.derive.points import chart, fitted_chart, points_card_text
from analysis.pricing.optimal import solve_optimal
from analysis.waylab.cardcheck import check_card
from enumerate.evaluate import HIGH_ID_BOUND, five_card_table
from enumerate.houseways.cards import card_from_text, card_way
from enumerate.houseways.points import expand
from enumerate.houseways.registry import register
from enumerate.rules import Deck

DECK = Deck.parse("2345KA:cdhs+joker")


def plain_gain(offset, high, low, ev, weight, back_of_high, front) -> int:
    """The chart's gain: each class's point of the most points, the last of the most."""
    total = 0
    for c in range(len(offset) - 1):
        top, best = -1, None
        for p in range(offset[c], offset[c + 1]):
            s = int(back_of_high[high[p]]) + int(front[low[p]])
            if best is None or s >= best:
                top, best = p, s
        total += int(weight[c]) * int(ev[top])
    return total


def random_frontiers(seed: int):
    """Classes of 1..6 frontier points: backs rising, fronts falling along a class."""
    rng = np.random.default_rng(seed)
    n_high, n_low, n_groups = 30, 12, 8
    group = np.sort(rng.integers(0, n_groups, n_high))
    group = np.unique(group, return_inverse=True)[1].astype(np.int64)  # 0, 1, ... no gaps
    offset, high, low = [0], [], []
    for _ in range(400):
        k = int(rng.integers(1, 7))
        high += sorted(rng.choice(n_high, k, replace=False).tolist())
        low += sorted(rng.choice(n_low, k, replace=False).tolist(), reverse=True)
        offset.append(len(high))
    ev = rng.integers(-50, 50, len(high))
    weight = rng.integers(1, 5, len(offset) - 1)
    arrays = [np.array(a, dtype=np.int64) for a in (offset, high, low, ev, weight)]
    return (*arrays, group, int(group.max()) + 1, n_low)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fit_run_to_the_end_leaves_no_coordinate_to_better(seed: int) -> None:
    offset, high, low, ev, weight, group, n_groups, n_low = random_frontiers(seed)
    top = 12
    start_back = np.arange(n_groups, dtype=np.int64) * top // n_groups  # rising: room to move
    start_front = np.arange(n_low, dtype=np.int64) * top // n_low
    fit = fit_points(offset, high, low, ev, weight, group, start_back, start_front, top,
                     best_gain=0, stop=None, sweeps=50)  # fmt: skip
    assert list(fit.gains) == sorted(fit.gains) and fit.gains[-1] > fit.gains[0]
    for points in (fit.back, fit.front):
        assert (np.diff(points) >= 0).all() and points.min() >= 0 and points.max() <= top

    def gain(back: np.ndarray, front: np.ndarray) -> int:
        return plain_gain(offset, high, low, ev, weight, back[group], front)

    here = gain(fit.back, fit.front)
    assert here == fit.gains[-1]
    for side in ("back", "front"):
        points = getattr(fit, side)
        for g in range(len(points)):
            lo = points[g - 1] if g else 0
            hi = points[g + 1] if g + 1 < len(points) else top
            for value in range(int(lo), int(hi) + 1):
                trial = points.copy()
                trial[g] = value
                pair = (trial, fit.front) if side == "back" else (fit.back, trial)
                assert gain(*pair) <= here, (side, g, value)


def test_a_fit_that_runs_again_gives_the_same_points() -> None:
    offset, high, low, ev, weight, group, n_groups, n_low = random_frontiers(4)
    args = (offset, high, low, ev, weight, group, np.arange(n_groups, dtype=np.int64),
            np.arange(n_low, dtype=np.int64), 12, 0)  # fmt: skip
    a, b = fit_points(*args), fit_points(*args)
    assert a.gains == b.gains and (a.back == b.back).all() and (a.front == b.front).all()


@pytest.fixture(scope="module")
def opt():
    return solve_optimal("traditional", "gli", DECK)


def test_the_fitted_card_prices_as_the_plain_loop_counts_it(opt) -> None:
    pricer = _Pricer(opt, "gli", False)
    five = five_card_table(opt.table.rules)
    per = opt.per_hand
    edges = {}
    for fit in (False, True):
        text = points_card_text(opt, fit, use_cache=False)
        card = card_from_text(text, "the points card")
        assert card.points is not None
        edge, _ = pricer.card(register(card_way(card)))
        pts = expand(card.points, five)
        counted = plain_gain(per.point_offset, per.point_high, per.point_low, opt.point_ev,
                             opt.table.orbit_size, pts[:HIGH_ID_BOUND], pts[HIGH_ID_BOUND:])
        assert edge == -Fraction(counted, pricer.scale)
        edges[fit] = edge
    assert edges[True] < edges[False]  # the fit gains on the chance chart it starts from
    assert pricer.share(edges[True]) > Fraction(9, 10)


def test_the_fitted_card_checks_clean(opt) -> None:
    text = points_card_text(opt, True, use_cache=False)
    check = check_card(register(card_way(card_from_text(text, "fitted"))), DECK)
    assert check.errors() == [] and check.warnings() == []


def test_the_fitted_chart_is_read_back_from_the_cache(opt, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    first = fitted_chart(opt)
    assert list((tmp_path / "derive").glob("points-fit-*.json"))
    assert fitted_chart(opt) == first
    assert fitted_chart(opt, use_cache=False) == first
    assert first != chart(opt)


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from analysis.cli.main import main

    deck = "2345KA:cdhs+joker"
    for flags, name in (([], "traditional-points-vs-gli"),
                        (["--chances"], "traditional-chances-vs-gli")):  # fmt: skip
        out = tmp_path / f"{name}.toml"
        assert main(["derive", "points", "traditional", "--deck", deck, "--out", str(out),
                     *flags]) == 0  # fmt: skip
        assert f"wrote the point-count card to {out}" in capsys.readouterr().out
        assert f'name = "{name}-' in out.read_text()
        assert main(["way", "check", str(out), "--deck", deck]) == 0
        capsys.readouterr()
    assert main(["derive", "points", "traditional", "--deck", deck, "--banker"]) == 0
    assert 'name = "traditional-banker-points-vs-gli-' in capsys.readouterr().out
    for bad, says in ((["face-up"], ""), (["ez", "--banker"], "for traditional pai gow"),
                      (["traditional", "--banker", "--chances"], "the same for the banker")):
        assert main(["derive", "points", *bad, "--deck", deck]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("paigow: error:") and says in err[0], bad


def test_the_bankers_chart_counts_what_the_banker_earns(opt) -> None:
    """The banker's fitted card, priced as the banker's edge from the per-hand table's
    banker counts, equals a plain loop's count of its chart over those counts, and does
    better for the banker than the chance chart and the player's fitted chart."""
    from math import comb

    from analysis.derive.points import fit_values
    from analysis.pricing.banking import COMMISSION

    pricer = _Pricer(opt, "gli", True)
    five = five_card_table(opt.table.rules)
    per = opt.per_hand
    values, _ = fit_values(opt, banker=True)
    deals = int(opt.table.orbit_size.sum()) * comb(DECK.size - 7, 7)
    text = points_card_text(opt, True, use_cache=False, banker=True)
    card = card_from_text(text, "the banker's card")
    assert card.name.startswith("traditional-banker-points-vs-gli")
    _, banker_edge = pricer.card(register(card_way(card)))
    pts = expand(card.points, five)
    counted = plain_gain(per.point_offset, per.point_high, per.point_low, values,
                         opt.table.orbit_size, pts[:HIGH_ID_BOUND], pts[HIGH_ID_BOUND:])
    assert banker_edge == -Fraction(counted, COMMISSION.denominator * deals)
    others = [pricer.card(register(card_way(card_from_text(points_card_text(opt, fit), "x"))))[1]
              for fit in (False, True)]  # fmt: skip
    assert all(banker_edge < b for b in others)
    with pytest.raises(ValueError, match="the same for the banker"):
        points_card_text(opt, False, banker=True)
