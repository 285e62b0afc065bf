"""Typing a condition's tree against a scope: every name becomes a fact of the scope or a value
of the kind it is compared with, every call reads its argument, and every comparison compares
two values of one kind.

A word that is both a fact and a value (``two_pair`` in a rule card, ``high_card`` in a bet) is
the value beside a fact of that value's kind (``best_five == two_pair``) and the fact
elsewhere (``two_pair and pair1 >= J``).

>>> from enumerate.conditions.scopes import CARD
>>> from enumerate.conditions.syntax import parse
>>> check(parse("pair2 >= 7"), CARD)
Compare(op='>=', left=Fact(name='pair2', kind=<Kind.RANK: 'rank'>, at=0), \
right=Const(value=5, kind=<Kind.RANK: 'rank'>, text='7', at=9), at=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from enumerate.conditions.scopes import Scope
from enumerate.conditions.syntax import parse
from enumerate.conditions.text import text
from enumerate.conditions.tree import (
    And,
    Apply,
    Call,
    Compare,
    Const,
    Fact,
    Kind,
    Node,
    Not,
    OneOf,
    Or,
    Within,
    Word,
)
from enumerate.conditions.values import is_value, known, value_of
from enumerate.errors import ConditionError

# kinds whose values have an order that a comparison other than == and != may ask about
_ORDERED = frozenset(Kind) - {Kind.TRUTH}


@dataclass(frozen=True)
class _Open:
    """A word whose kind the other side of a comparison decides: a value of some kind, and
    perhaps also a fact of the scope."""

    word: Word
    fact: Fact | None


Typed = Node | _Open


def check(node: Node, scope: Scope) -> Node:
    """The typed tree of a condition (it must be true or false)."""
    return _Checker(scope).truth(node)


class _Checker:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    # a value, typed where it can be ------------------------------------------------------------

    def value(self, node: Node) -> Typed:
        if isinstance(node, Word):
            spec = self.scope.facts.get(node.text)
            fact = Fact(node.text, spec.kind, node.at) if spec else None
            if fact is None or is_value(node.text):
                return _Open(node, fact)  # its kind is the other side's (or a fact unknown)
            return fact
        if isinstance(node, Call):
            return self.call(node)
        return self.truth(node)

    def kind(self, node: Node) -> Kind:
        if isinstance(node, Fact | Const | Apply):
            return node.kind
        return Kind.TRUTH

    def truth(self, node: Node) -> Node:
        """``node`` as a condition."""
        if isinstance(node, Not):
            return Not(self.truth(node.part), node.at)
        if isinstance(node, And | Or):
            return type(node)(tuple(self.truth(p) for p in node.parts), node.at)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, Within | OneOf):
            return self.membership(node)
        typed = self.value(node)
        if isinstance(typed, _Open):
            if typed.fact is not None:
                typed = typed.fact
            elif typed.word.text in ("true", "false"):
                return self.as_kind(typed, Kind.TRUTH)
            else:
                raise self.unknown(typed.word)
        if self.kind(typed) != Kind.TRUTH:
            raise ConditionError(f"{text(typed)!r} is a {self.kind(typed)}, not true or "
                                 "false: compare it with something", typed.at)  # fmt: skip
        return typed

    # comparisons -------------------------------------------------------------------------------

    def compare(self, node: Compare) -> Node:
        a, b = self.value(node.left), self.value(node.right)
        a, b = self.pair(a, b, node.op, node.at)
        kind = self.kind(a)
        if kind not in _ORDERED and node.op not in ("==", "!="):
            raise ConditionError(f"{text(a)!r} {node.op} {text(b)!r}: a {kind} is only "
                                 "equal or not", node.at)  # fmt: skip
        return Compare(node.op, a, b, node.at)

    def pair(self, a: Typed, b: Typed, op: str, at: int) -> tuple[Node, Node]:
        """Both sides of a comparison as one kind."""
        if isinstance(a, _Open) and isinstance(b, _Open):
            if a.fact is not None and b.fact is not None:
                a, b = a.fact, b.fact
            elif a.fact is not None:
                a = a.fact
            elif b.fact is not None:
                b = b.fact
            elif not is_value(a.word.text) or not is_value(b.word.text):
                raise self.unknown(a.word if not is_value(a.word.text) else b.word)
            else:
                raise ConditionError(f"{a.word.text!r} {op} {b.word.text!r} compares two "
                                     "values: one side must be a fact", at)  # fmt: skip
        if isinstance(a, _Open):
            assert not isinstance(b, _Open)
            return self.as_kind(a, self.kind(b)), b
        if isinstance(b, _Open):
            return a, self.as_kind(b, self.kind(a))
        if self.kind(a) != self.kind(b):
            raise ConditionError(f"cannot compare {text(a)!r} ({self.kind(a)}) with "
                                 f"{text(b)!r} ({self.kind(b)})", at)  # fmt: skip
        return a, b

    def as_kind(self, v: _Open, kind: Kind) -> Node:
        """The open word as a value of ``kind`` or, failing that, as its fact of that kind."""
        got = value_of(kind, v.word.text)
        if got is not None:
            return Const(got, kind, v.word.text, v.word.at)
        if v.fact is not None and v.fact.kind == kind:
            return v.fact
        raise ConditionError(f"{v.word.text!r} is not a {kind} (known: {known(kind)})", v.word.at)

    def membership(self, node: Within | OneOf) -> Node:
        value = self.value(node.value)
        if isinstance(value, _Open):
            if value.fact is None and not is_value(value.word.text):
                raise self.unknown(value.word)
            if value.fact is None:
                raise ConditionError(f"{value.word.text!r} in ...: the left side must be a "
                                     "fact", node.at)  # fmt: skip
            value = value.fact
        kind = self.kind(value)
        if kind == Kind.TRUTH:
            raise ConditionError(f"{text(value)!r} is true or false: 'in' asks for a value",
                                 node.at)  # fmt: skip

        def item(n: Node) -> Node:
            return self.pair(value, self.value(n), "in", n.at)[1]

        if isinstance(node, Within):
            return Within(value, item(node.lo), item(node.hi), node.at)
        return OneOf(value, tuple(item(i) for i in node.items), node.at)

    # calls -------------------------------------------------------------------------------------

    def call(self, node: Call) -> Apply:
        fn = self.scope.functions.get(node.name)
        if fn is None:
            raise ConditionError(f"unknown function {node.name!r} in {self.scope.name} "
                                 f"(known: {self.scope.known()})", node.at)  # fmt: skip
        if fn.takes is not None:
            arg: object = self.argument(node, fn.takes)
        else:
            assert fn.reads is not None
            try:
                arg = fn.reads(node.args)
            except ConditionError as err:  # its column within the arguments
                raise err.shifted(node.args_at) if err.at is not None else ConditionError(
                    err.message, node.args_at) from None  # fmt: skip
        return Apply(node.name, fn.kind, arg, node.args.strip(), node.at)

    def argument(self, node: Call, kind: Kind) -> Node:
        """A call's argument read as a value of ``kind`` (its columns those of the whole
        condition)."""
        typed = self.value(parse(" " * node.args_at + node.args))
        if isinstance(typed, _Open):
            return self.as_kind(typed, kind)
        if self.kind(typed) != kind:
            raise ConditionError(f"{node.name} wants a {kind}, not {text(typed)!r}",
                                 node.args_at)  # fmt: skip
        return typed

    def unknown(self, word: Word) -> ConditionError:
        return ConditionError(f"unknown fact {word.text!r} in {self.scope.name} (known: "
                              f"{self.scope.known()})", word.at)  # fmt: skip
