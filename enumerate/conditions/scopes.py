"""The scopes a condition is read in: for each, the facts and the functions it offers.

| scope | what a row is | used by |
|---|---|---|
| ``CARD`` | a seven-card hand, as a rule card sets it | rule cards (house ways, strategies) |
| ``SEVEN_CARDS`` | the player's or the dealer's seven cards | bet files on ``player``, ``dealer`` |
| ``THREE_CARDS`` | the player's first three cards | bet files on ``first-three`` |
| ``DEAL`` | a player's hand and the dealer's | bet files on ``deal`` |
| ``DEALER_HAND`` | the dealer's hand, by its events | variants' dealer rules, dealer events |

Every construct of the language works in every scope; what differs is which facts and
functions exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from enumerate.conditions.facts import (
    CARD_FACTS,
    DEAL_FACTS,
    DEALER_FACTS,
    SEVEN_CARD_FACTS,
    THREE_CARD_FACTS,
    WAY_FACTS,
    FactSpec,
)
from enumerate.conditions.settings import read_can_set, read_front
from enumerate.conditions.tree import Kind


@dataclass(frozen=True)
class Function:
    """A function of a scope: the kind it gives, and what its argument is: a value of a kind
    (``takes``, read as a condition's value is) or text read by ``reads``."""

    name: str
    kind: Kind
    meaning: str
    takes: Kind | None = None
    reads: Callable[[str], object] | None = field(default=None, compare=False)
    signature: str = ""  # how the docs and the messages write a call

    def __post_init__(self) -> None:
        assert (self.takes is None) != (self.reads is None), self.name


@dataclass(frozen=True)
class Scope:
    """The facts and functions a condition may read, by name."""

    name: str
    facts: Mapping[str, FactSpec]
    functions: Mapping[str, Function] = field(default_factory=dict)

    def known(self) -> str:
        """The facts and functions, for a message."""
        return ", ".join([*self.facts, *(f"{f}(...)" for f in self.functions)])


def scope(name: str, facts: tuple[FactSpec, ...], functions: tuple[Function, ...] = ()) -> Scope:
    """A scope of these facts and functions (each name once)."""
    by_name = {f.name: f for f in facts}
    calls = {f.name: f for f in functions}
    assert len(by_name) == len(facts) and not set(by_name) & set(calls), name
    return Scope(name, MappingProxyType(by_name), MappingProxyType(calls))


FRONT_FUNCTIONS = (
    Function("can", Kind.TRUTH, "the front can be made (and kept, with keeping)",
             reads=read_front, signature="can(FRONT)"),
    Function("front", Kind.FRONT, "the two-card rank id of that setting (-1: none)",
             reads=read_front, signature="front(FRONT)"),
    Function("back", Kind.BACK, "the five-card rank id of that setting (-1: none)",
             reads=read_front, signature="back(FRONT)"),
    Function("front_high", Kind.RANK, "the higher rank of that front (-1: none)",
             reads=read_front, signature="front_high(FRONT)"),
    Function("front_low", Kind.RANK, "the lower rank of that front (-1: none)",
             reads=read_front, signature="front_low(FRONT)"),
)  # fmt: skip
CARD = scope("a rule card's hand", CARD_FACTS, (
    Function("count", Kind.COUNT, "cards of rank R", takes=Kind.RANK, signature="count(R)"),
    Function("singleton", Kind.TRUTH, "rank R held exactly once", takes=Kind.RANK,
             signature="singleton(R)"),
    *FRONT_FUNCTIONS,
))  # fmt: skip
CAN_SET = Function("can_set", Kind.TRUTH, "some valid setting has that back and front",
                   reads=read_can_set, signature="can_set(BACK[, FRONT])")  # fmt: skip
SEVEN_CARDS = scope("a seven-card hand", SEVEN_CARD_FACTS + WAY_FACTS, (CAN_SET,))
THREE_CARDS = scope("the player's first three cards", THREE_CARD_FACTS)
DEAL = scope("a deal", DEAL_FACTS)
DEALER_HAND = scope("the dealer's hand", DEALER_FACTS)
SCOPES: Mapping[str, Scope] = {
    "card": CARD, "seven-cards": SEVEN_CARDS, "three-cards": THREE_CARDS, "deal": DEAL,
    "dealer-hand": DEALER_HAND,
}  # fmt: skip
