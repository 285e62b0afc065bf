"""The front ``most points`` and a card's points chart (``enumerate.houseways.points``).

The kernel's settings are checked against a plain loop, written from the chart's definition in
``docs/cards.md``: for each hand, every valid setting of it (``enumerate.evaluate.settings``)
scored by the points of the highest back step and front step it reaches, the most points
taken, then the strongest back, then the highest front. The deck has four suits, the joker and
the wheel, and the chart has a step on a wheel straight, so both wheel rules order it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from analysis.waylab.cardcheck import check_card
from enumerate.cards import Card, parse_cards
from enumerate.errors import CardError, ConditionError
from enumerate.evaluate import five_card_table, settings, two_card_id
from enumerate.houseways import apply_way, set_one_hand
from enumerate.houseways.cards import card_way, read_card
from enumerate.houseways.program import link
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table

DECK = "2345KA:cdhs+joker"
BACK = [("2c 2d 3h 4s 5c", 20), ("Ac Ad 2h 3s 4c", 35), ("2c 2d 3h 3s 4c", 50),
        ("2c 2d 2h 3s 4c", 70), ("Ac 2d 3h 4s 5c", 80), ("2c 3c 4c 5c Kc", 85),
        ("2c 2d 2h 3s 3c", 95), ("2c 2d 2h 2s 3c", 100)]  # fmt: skip
FRONT = [("K-2", 10), ("A-2", 30), ("A-K", 45), ("2-2", 60), ("A-A", 90)]


def _card_text(rules: str, back=BACK, front=FRONT) -> str:
    steps = ", ".join(f'["{h}", {p}]' for h, p in back)
    fronts = ", ".join(f'["{h}", {p}]' for h, p in front)
    return textwrap.dedent(rules) + f"\n[points]\nback = [{steps}]\nfront = [{fronts}]\n"


RULES = """\
    name = "points-test"
    title = "a point count"
    source = "the tests"
    kind = "strategy"

    [[rule]]
    text = "one pair or more, no joker: the most points keeping a pair behind"
    when = "n_pairs >= 1 and not joker"
    front = "most points keeping pair or better"

    [[rule]]
    text = "the rest: the most points"
    front = "most points"
"""


@pytest.fixture(scope="module")
def points_way(tmp_path_factory):
    path = tmp_path_factory.mktemp("points") / "points-test.toml"
    path.write_text(_card_text(RULES))
    return card_way(read_card(path))


def _step_points(steps: list[tuple[int, int]], hand_id: int) -> int:
    return max((p for lowest, p in steps if hand_id >= lowest), default=0)


def _reference(cards: tuple[Card, ...], rules: Rules) -> tuple[int, int]:
    five = five_card_table(rules)
    backs = [(five.id_of(parse_cards(h)), p) for h, p in BACK]
    fronts = [(two_card_id(parse_cards(" ".join(f"{r}{s}" for r, s in zip(h.split("-"), "cd",
                                                                             strict=True)))), p)
              for h, p in FRONT]  # fmt: skip
    ranks = [c.rank for c in cards]
    keeps_pair = not any(c.is_joker for c in cards) and any(ranks.count(r) == 2 for r in ranks)
    best = None
    for s in settings(cards, rules):
        if not s.valid:
            continue
        if keeps_pair and int(five.category_of(s.high_id)) < 1:
            continue
        score = (_step_points(backs, s.high_id) + _step_points(fronts, s.low_id), s.high_id,
                 s.low_id)  # fmt: skip
        best = score if best is None or score > best else best
    assert best is not None
    return best[1], best[2]


@pytest.mark.parametrize("wheel", ["second", "low"])
def test_most_points_is_a_plain_loop_over_the_settings(points_way, wheel) -> None:
    rules = Rules(wheel=wheel)  # type: ignore[arg-type]
    table = hand_table(Deck.parse(DECK), rules)
    cols = apply_way(points_way, table.cards, rules)
    rows = np.random.default_rng(7).choice(len(table.cards), 400, replace=False)
    for row in rows:
        cards = tuple(Card(int(c)) for c in table.cards[row])
        assert (int(cols.high[row]), int(cols.low[row])) == _reference(cards, rules), cards


def test_a_points_card_sets_one_hand_as_it_sets_the_deck(points_way) -> None:
    table = hand_table(Deck.parse(DECK))
    cols = apply_way(points_way, table.cards)
    for row in (0, len(table.cards) // 3, len(table.cards) - 1):
        cards = " ".join(str(Card(int(c))) for c in table.cards[row])
        s = set_one_hand(points_way, cards)
        assert (s.high_id, s.low_id) == (int(cols.high[row]), int(cols.low[row]))


def test_a_points_card_checks_clean(points_way) -> None:
    check = check_card(points_way, Deck.parse(DECK))
    assert check.errors() == [] and check.warnings() == []


def test_the_chart_as_words() -> None:
    way = read_card_text(_card_text(RULES, back=BACK[:1], front=FRONT[:1]))
    assert way.points is not None
    assert way.points.lines(five_card_table()) == [
        "back: pair of twos, 5-4-3 kickers or better: 20", "front: K-2 or better: 10"]


def test_two_charts_alike_but_for_their_points_set_hands_apart(tmp_path) -> None:
    """Two cards whose rules are alike share a pass over the hands (``interpreter.batch``):
    their charts must tell them apart."""
    from enumerate.houseways import apply_ways

    table = hand_table(Deck.parse(DECK))
    a = card_way(read_card_text(_card_text(RULES)))
    fronts = [("K-2", 10), ("A-2", 30), ("A-K", 200), ("2-2", 260), ("A-A", 290)]
    b = card_way(read_card_text(_card_text(RULES.replace("points-test", "points-b"),
                                           front=fronts)))  # fmt: skip
    together = apply_ways([a, b], table.cards)
    assert np.array_equal(together[0].low, apply_way(a, table.cards).low)
    assert np.array_equal(together[1].low, apply_way(b, table.cards).low)
    assert not np.array_equal(together[0].low, together[1].low)


def read_card_text(text: str):
    from enumerate.houseways.cards import card_from_text

    return card_from_text(text, "my.toml")


@pytest.mark.parametrize(("text", "error", "message"), [
    (RULES, ConditionError, "needs the card's [points] chart"),
    (_card_text(RULES, back=[("2c 2d 3h 4s", 20)]), CardError,
     "my.toml: points: back step 1 (2c 2d 3h 4s): expected 5 cards, got 4"),
    (_card_text(RULES, back=[("Ac Ad 2h 3s 4c", 35), ("2c 2d 3h 4s 5c", 40)]), CardError,
     "back step 2 (pair of twos, 5-4-3 kickers): a step must name a stronger back"),
    (_card_text(RULES, front=[("K-2", 10), ("A-2", 5)]), CardError,
     "front step 2 (A-2): a step must earn more points than the step before it"),
    (_card_text(RULES, front=[("K-1", 10)]), CardError,
     "front step 1: 'K-1' is not a front"),
    (_card_text(RULES, front=[("K-2", -1)]), CardError, "points must be a whole number"),
])  # fmt: skip
def test_a_mistake_in_a_chart_is_one_line(text, error, message) -> None:
    with pytest.raises(error) as err:
        read_card_text(text)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_wheel_step_out_of_order_under_the_low_wheel_is_caught_when_linked(tmp_path) -> None:
    """Under the usual rule the wheel is the second-highest straight; under the low rule the
    lowest, so a chart that puts it above a six-high straight reads under one rule only."""
    back = [("2c 3d 4h 5s 6c", 40), ("Ac 2d 3h 4s 5c", 50)]
    card = read_card_text(_card_text(RULES, back=back))
    way = card_way(card)
    link(way.program, five_card_table(), "my.toml")  # type: ignore[arg-type]
    with pytest.raises(CardError, match=r"my\.toml: points: back step 2 .*stronger back"):
        link(way.program, five_card_table(Rules(wheel="low")), "my.toml")  # type: ignore[arg-type]


def test_the_docs_example_reads(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(_card_text(RULES, back=[("9c 9d 4h 3s 2c", 310), ("Ac Ad 4h 3s 2c", 560)],
                               front=[("K-Q", 420), ("A-2", 480), ("2-2", 610)]))  # fmt: skip
    assert read_card(path).points is not None
