"""The condition language of rule cards, bet files, variants' dealer rules and derived cards.

One grammar and one tree for every place a condition is written::

    text --syntax.parse--> tree --check.check(scope)--> typed tree
         back ends: the card kernel's program (``enumerate.houseways.program``), the arrays of
         a bet's rows (``evaluate``), the text and words of a derived rule (``text``,
         ``enumerate.houseways.words``)

A scope (``scopes``) says which facts and functions exist: a rule card's hand, a seven-card
hand of a bet, the first three cards, a deal, the dealer's hand. Conditions combine facts with
``and``, ``or``, ``not`` and parentheses; compare them with ``== != < <= > >=``,
``X in A..B``, ``X in {A, B}`` and ``X not in ...``. A value takes its meaning from the fact it
is compared with. Every mistake is one ``ConditionError`` naming the file, the entry and the
column.

>>> read("pair2 >= 7 and not singleton_ace", CARD) == read("pair2>=7 and not(singleton_ace)", CARD)
True
>>> read("best_five == high_card", SEVEN_CARDS).right
Const(value=0, kind=<Kind.CATEGORY: 'category'>, text='high_card', at=13)
>>> read("fortune >= flushes", SEVEN_CARDS, where="my-bet.toml: event 1 (flush): when")
Traceback (most recent call last):
...
enumerate.errors.ConditionError: my-bet.toml: event 1 (flush): when, column 12: \
'flushes' is not a Fortune class (known: nothing, three_pair, straight, three_of_a_kind, \
flush, full_house, four_of_a_kind, straight_flush, royal_flush, five_aces, \
seven_card_straight_flush_joker, royal_match, seven_card_straight_flush)
"""

from __future__ import annotations

from enumerate.conditions.check import check
from enumerate.conditions.evaluate import ArrayRows, Rows, evaluate
from enumerate.conditions.facts import FactSpec
from enumerate.conditions.scopes import (
    CARD,
    DEAL,
    DEALER_HAND,
    SCOPES,
    SEVEN_CARDS,
    THREE_CARDS,
    Function,
    Scope,
)
from enumerate.conditions.settings import CanSet, Choice, Selector
from enumerate.conditions.syntax import parse
from enumerate.conditions.text import text
from enumerate.conditions.tree import Kind, Node, calls_used, facts_used
from enumerate.errors import ConditionError

__all__ = [
    "CARD",
    "DEAL",
    "DEALER_HAND",
    "SCOPES",
    "SEVEN_CARDS",
    "THREE_CARDS",
    "ArrayRows",
    "CanSet",
    "Choice",
    "ConditionError",
    "FactSpec",
    "Function",
    "Kind",
    "Node",
    "Rows",
    "Scope",
    "Selector",
    "calls_used",
    "check",
    "evaluate",
    "facts_used",
    "parse",
    "read",
    "text",
]


def read(condition: str, scope: Scope, where: str = "") -> Node:
    """The typed tree of ``condition`` in ``scope``; ``where`` (a file and an entry) names it
    in the one line of a ``ConditionError``."""
    try:
        return check(parse(condition), scope)
    except ConditionError as err:
        raise err.located(where) if where else err from None
