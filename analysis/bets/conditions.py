"""The conditions of a bet file's events: a small language read safely (no Python ``eval``) and
evaluated over every row of a *scope* at once (numpy arrays).

A scope is the set of hands (or deals) a bet is settled on, one row each, and the facts it
offers about them (``analysis.bets.scopes``). A condition combines facts with ``and``, ``or``,
``not`` and parentheses; compares them with ``== != < <= > >=``, ``X in A..B`` or
``X in {A, B}``. A literal takes its meaning from the fact it is compared with: ``9`` is a rank
beside a rank fact and a number beside a count; ``flush`` is a five-card category beside
``best_five`` and a Fortune class beside ``fortune``. Functions: ``can_set(CATEGORY)``,
``can_set(CATEGORY, pair)`` and ``can_set(CATEGORY, pair RANK)``: the seven cards can be set
with a back of that category or better (and a pair, or a pair of that rank or better, in front).

>>> import numpy as np
>>> scope = Scope("demo", 3, {"jacks": Fact("count", lambda: np.array([0, 2, 3]))})
>>> evaluate(parse("jacks >= 2", scope), scope).tolist()
[False, True, True]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from enumerate.datafile import DataFileError
from enumerate.houseways.language import CATEGORIES, RANK_WORDS, tokens
from enumerate.vocabulary import SevenCardClass


class ConditionError(DataFileError):
    """A condition that cannot be read: the message says what (the caller adds where)."""


# the names of the values of each kind of fact, as a condition writes them
FORTUNE_NAMES = {c.name.lower(): int(c) for c in SevenCardClass}
THREE_CARD = {"high_card": 0, "pair": 1, "flush": 2, "straight": 3, "three_of_a_kind": 4,
              "trips": 4, "straight_flush": 5}  # fmt: skip
KIND_NAMES: dict[str, dict[str, int]] = {
    "rank": RANK_WORDS,
    "category": CATEGORIES,
    "fortune": FORTUNE_NAMES,
    "three_card": THREE_CARD,
    "count": {},
}


@dataclass(frozen=True)
class Fact:
    """One fact of a scope: its kind ("bool", or a kind of ``KIND_NAMES``) and how to compute
    its array (once, when a condition first reads it)."""

    kind: str
    compute: Callable[[], np.ndarray]


@dataclass
class Scope:
    """Rows (hands or deals) and the facts a condition may read about them."""

    name: str
    rows: int
    facts: dict[str, Fact]
    functions: dict[str, Callable[..., np.ndarray]] = field(default_factory=dict)
    # a function's calls all at once (one pass for them all), where the scope has that
    batches: dict[str, Callable[[list[tuple[str, ...]]], list[np.ndarray]]] = field(
        default_factory=dict
    )
    _values: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def value(self, name: str) -> np.ndarray:
        if name not in self._values:
            self._values[name] = np.asarray(self.facts[name].compute())
        return self._values[name]


_TOKEN = re.compile(
    r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)|(==|!=|<=|>=|\.\.|[<>(),{}]))"
)
_OPS = ("==", "!=", "<=", ">=", "<", ">")


# a parsed condition: nested tuples, evaluated by ``evaluate``
Node = tuple[Any, ...]


class _Parser:
    def __init__(self, text: str, scope: Scope) -> None:
        self.toks = tokens(text, _TOKEN, ConditionError)
        self.at = 0
        self.scope = scope

    def peek(self) -> str | None:
        return self.toks[self.at] if self.at < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None:
            raise ConditionError("unexpected end" + (f", expected {want!r}" if want else ""))
        if want is not None and tok != want:
            raise ConditionError(f"expected {want!r}, got {tok!r}")
        self.at += 1
        return tok

    def whole(self) -> Node:
        if not self.toks:
            raise ConditionError("empty condition")
        node = self.disj()
        if self.peek() is not None:
            raise ConditionError(f"unexpected {self.peek()!r}")
        return self.truth(node)

    def truth(self, node: Node) -> Node:
        if node[0] == "literal" and not self.known_word(node[1]):
            raise self.unknown(node[1])
        if node[0] != "bool":
            raise ConditionError(f"{node[-1]!r} is not true or false: compare it with something")
        return node

    def disj(self) -> Node:
        node = self.conj()
        while self.peek() == "or":
            self.take()
            node = ("bool", "or", self.truth(node), self.truth(self.conj()), "or")
        return node

    def conj(self) -> Node:
        node = self.neg()
        while self.peek() == "and":
            self.take()
            node = ("bool", "and", self.truth(node), self.truth(self.neg()), "and")
        return node

    def neg(self) -> Node:
        if self.peek() == "not":
            self.take()
            return ("bool", "not", self.truth(self.neg()), "not")
        return self.compare()

    def compare(self) -> Node:
        left = self.atom()
        op = self.peek()
        if op in _OPS:
            self.take()
            right = self.atom()
            kind = self._kind(left, right, op)
            return ("bool", "cmp", op, self._resolve(left, kind), self._resolve(right, kind),
                    f"{left[-1]} {op} {right[-1]}")  # fmt: skip
        if op == "in":
            self.take()
            kind = self._kind(left, None, "in")
            if self.peek() == "{":
                self.take()
                items = [self._resolve(self.atom(), kind)]
                while self.peek() == ",":
                    self.take()
                    items.append(self._resolve(self.atom(), kind))
                self.take("}")
                return ("bool", "set", self._resolve(left, kind), items, f"{left[-1]} in {{...}}")
            lo = self._resolve(self.atom(), kind)
            self.take("..")
            hi = self._resolve(self.atom(), kind)
            return ("bool", "range", self._resolve(left, kind), lo, hi, f"{left[-1]} in ..")
        return left

    def _kind(self, left: Node, right: Node | None, op: str) -> str:
        kinds = {n[1] for n in (left, right) if n is not None and n[0] == "fact"}
        if not kinds:
            for n in (left, right):
                if n is not None and n[0] == "literal" and not self.known_word(n[1]):
                    raise self.unknown(n[1])
            raise ConditionError(f"{op!r} compares no fact ({left[-1]!r})")
        if len(kinds) > 1 or ("bool" in kinds and op not in ("==", "!=")):
            other = right[-1] if right else ""
            raise ConditionError(f"cannot compare {left[-1]!r} with {other!r}")
        return kinds.pop()

    def _resolve(self, node: Node, kind: str) -> Node:
        """A literal read as a value of ``kind``; a fact must be of that kind."""
        if node[0] == "fact":
            if node[1] != kind:
                raise ConditionError(f"{node[-1]!r} is a {node[1]}, not a {kind}")
            return node
        word = node[1]
        if kind == "count":
            if not word.isdigit():
                raise ConditionError(f"{word!r} is not a number")
            return ("const", int(word), word)
        if kind == "bool":
            if word not in ("true", "false"):
                raise ConditionError(f"{word!r} is not true or false")
            return ("const", int(word == "true"), word)
        names = KIND_NAMES[kind]
        key = word.upper() if kind == "rank" else word
        if key not in names:
            known = ", ".join(sorted(names, key=lambda k: (names[k], k)))
            raise ConditionError(f"{word!r} is not a {kind} (known: {known})")
        return ("const", names[key], word)

    def atom(self) -> Node:
        tok = self.take()
        if tok == "(":
            node = self.disj()
            self.take(")")
            return node
        if tok in self.scope.functions:
            return self.call(tok)
        if tok in self.scope.facts:
            kind = self.scope.facts[tok].kind
            if kind == "bool":
                return ("bool", "fact", tok, tok)
            return ("fact", kind, tok, tok)
        if tok in ("and", "or", "not", "in") or not re.fullmatch(r"\w+(\.\w+)?", tok):
            raise ConditionError(f"unexpected {tok!r}")
        return ("literal", tok, tok)  # a value, read by the fact it is compared with

    def unknown(self, tok: str) -> ConditionError:
        known = ", ".join(sorted(self.scope.facts) + [f"{f}(...)" for f in self.scope.functions])
        return ConditionError(f"unknown fact {tok!r} for {self.scope.name} (known: {known})")

    def known_word(self, tok: str) -> bool:
        if "." in tok:
            return False
        return (tok.isdigit() or tok.upper() in RANK_WORDS or tok in ("true", "false")
                or any(tok in n for n in KIND_NAMES.values()))  # fmt: skip

    def call(self, name: str) -> Node:
        self.take("(")
        args: list[str] = []
        while self.peek() != ")":
            if args:
                self.take(",")
            words = []
            while self.peek() not in (",", ")", None):
                words.append(self.take())
            args.append(" ".join(words))
        self.take(")")
        text = f"{name}({', '.join(args)})"
        return ("bool", "call", name, tuple(args), text)


def parse(text: str, scope: Scope) -> Node:
    """Read a condition against the facts of ``scope`` (``ConditionError`` saying what is
    wrong); function arguments are checked when the condition is first evaluated."""
    return _Parser(text, scope).whole()


def evaluate(node: Node, scope: Scope) -> np.ndarray:
    """The rows of ``scope`` where the condition holds (a bool array)."""
    what = node[1] if node[0] == "bool" else node[0]
    if node[0] == "const":
        return np.asarray(node[1])
    if node[0] == "fact":
        return scope.value(node[2])
    if what == "fact":
        return scope.value(node[2]).astype(bool)
    if what == "not":
        return ~evaluate(node[2], scope)
    if what == "and":
        return evaluate(node[2], scope) & evaluate(node[3], scope)
    if what == "or":
        return evaluate(node[2], scope) | evaluate(node[3], scope)
    if what == "cmp":
        a, b = evaluate(node[3], scope), evaluate(node[4], scope)
        op = node[2]
        out = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
        return np.broadcast_to(out[op], (scope.rows,))
    if what == "range":
        v = evaluate(node[2], scope)
        return (v >= evaluate(node[3], scope)) & (v <= evaluate(node[4], scope))
    if what == "set":
        v = evaluate(node[2], scope)
        return np.isin(v, [int(evaluate(i, scope)) for i in node[3]])
    if what == "call":
        return scope.functions[node[2]](*node[3])
    raise AssertionError(f"unknown node {node!r}")


def facts_used(node: Node) -> set[str]:
    """The names of the facts and functions a condition reads."""
    if node[0] == "fact" or (node[0] == "bool" and node[1] == "fact"):
        return {node[2]}
    if node[0] == "bool" and node[1] == "call":
        return {node[2]}
    out: set[str] = set()
    for part in node[1:]:
        if isinstance(part, tuple):
            out |= facts_used(part)
        elif isinstance(part, list):
            for p in part:
                out |= facts_used(p)
    return out


def calls_used(node: Node) -> set[tuple[str, tuple[str, ...]]]:
    """The function calls a condition makes: (name, arguments)."""
    if node[0] == "bool" and node[1] == "call":
        return {(node[2], node[3])}
    out: set[tuple[str, tuple[str, ...]]] = set()
    for part in node[1:]:
        if isinstance(part, tuple):
            out |= calls_used(part)
        elif isinstance(part, list):
            for p in part:
                out |= calls_used(p)
    return out
