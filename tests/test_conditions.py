"""The one condition language: every construct read the same way in every scope where its
facts exist, and one error naming the file, the entry and the column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from enumerate.conditions import (
    CARD,
    DEAL,
    DEALER_HAND,
    SCOPES,
    SEVEN_CARDS,
    THREE_CARDS,
    ArrayRows,
    ConditionError,
    evaluate,
    read,
    text,
)
from enumerate.conditions.tree import Compare, Const, Fact, Kind, Not, OneOf, Within

RANK_J, RANK_K = 9, 11


@pytest.mark.parametrize("scope", [CARD, SEVEN_CARDS])
def test_a_category_word_beside_best_five(scope) -> None:
    """``high_card`` is a fact of a bet's hand and a category word: beside ``best_five`` it is
    the category (the value takes its meaning from the fact it is compared with)."""
    node = read("best_five == high_card", scope)
    assert node == Compare("==", Fact("best_five", Kind.CATEGORY), Const(0, Kind.CATEGORY, ""))


@pytest.mark.parametrize(("scope", "fact"), [(CARD, "pair1"), (SEVEN_CARDS, "high_card")])
def test_not_in_everywhere(scope, fact) -> None:
    assert read(f"{fact} not in J..K", scope) == Not(Within(
        Fact(fact, Kind.RANK), Const(RANK_J, Kind.RANK, ""), Const(RANK_K, Kind.RANK, "")))
    assert read(f"{fact} not in {{J, K}}", scope) == Not(OneOf(
        Fact(fact, Kind.RANK), (Const(RANK_J, Kind.RANK, ""), Const(RANK_K, Kind.RANK, ""))))


@pytest.mark.parametrize("scope", [DEAL, DEALER_HAND])
def test_dotted_names_wherever_they_exist(scope) -> None:
    node = read("dealer.two_jacks and not dealer.ace_high_pai_gow", scope)
    assert text(node) == "dealer.two_jacks and not dealer.ace_high_pai_gow"


def test_the_meaning_of_each_construct() -> None:
    """Truth tables by hand: four rows of a count and a truth."""
    rows = ArrayRows(4, {"jacks": lambda: np.array([0, 1, 2, 3]),
                         "joker": lambda: np.array([1, 0, 1, 0])})  # fmt: skip
    cases = {
        "jacks >= 2": [0, 0, 1, 1],
        "jacks in 1..2": [0, 1, 1, 0],
        "jacks not in 1..2": [1, 0, 0, 1],
        "jacks in {0, 3}": [1, 0, 0, 1],
        "not joker or jacks == 2": [0, 1, 1, 1],
        "joker and (jacks == 0 or jacks == 2)": [1, 0, 1, 0],
        "not (joker and jacks > 0)": [1, 1, 0, 1],
    }
    for when, want in cases.items():
        assert evaluate(read(when, SEVEN_CARDS), rows).astype(int).tolist() == want, when


@pytest.mark.parametrize(("when", "scope", "column", "says"), [
    ("pair9 >= J", CARD, 1, "pair9"),
    ("fortune >= flushes", SEVEN_CARDS, 12, "flushes"),
    ("three_card == flush and", THREE_CARDS, None, "end"),
    ("dealer.two_jacks", SEVEN_CARDS, 1, "dealer.two_jacks"),
    ("jacks == J", SEVEN_CARDS, 10, "J"),
])  # fmt: skip
def test_one_error_names_file_entry_and_column(when, scope, column, says) -> None:
    with pytest.raises(ConditionError) as err:
        read(when, scope, where="my.toml: event 1 (e): when")
    line = str(err.value)
    assert line.startswith("my.toml: event 1 (e): when") and "\n" not in line
    assert says in line
    if column is not None:
        assert f"column {column}:" in line


def test_text_reads_back_to_the_same_tree() -> None:
    for when in ("not (pair1 in J..K or joker) and best_five == flush",
                 "single1 not in {9, T} or n_pairs >= 2", "can(pair pair2) and not two_pair"):
        node = read(when, CARD)
        assert read(text(node), CARD) == node


def test_the_docs_name_every_fact_of_every_scope() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs"
    where = {CARD.name: "cards.md"}
    for scope in SCOPES.values():
        page = (docs / where.get(scope.name, "bets.md")).read_text()
        missing = [f for f in [*scope.facts, *scope.functions] if f"`{f}" not in page]
        assert not missing, (scope.name, missing)
