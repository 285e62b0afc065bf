"""Reading a condition's text into its tree, before anything is known of the facts it names.

Grammar, loosest first::

    condition  := conj ("or" conj)*
    conj       := neg ("and" neg)*
    neg        := "not" neg | comparison
    comparison := value [op value | ["not"] "in" (value ".." value | "{" value ("," value)* "}")]
    value      := "(" condition ")" | NAME "(" arguments ")" | NAME | NUMBER
    op         := "==" | "!=" | "<" | "<=" | ">" | ">="

A name is letters, digits and ``_``, with dotted parts (``dealer.two_jacks``). A call's
arguments are kept as written: each function reads its own (a rank, a front of a rule card,
what ``can_set`` asks for). An empty condition always holds.

>>> parse("pair1 not in {2, 3}")
Not(part=OneOf(value=Word(text='pair1', at=0), items=(Word(text='2', at=14), \
Word(text='3', at=17)), at=0), at=0)
>>> parse("can(pair pair1 keeping straight or better)")
Call(name='can', args='pair pair1 keeping straight or better', at=0, args_at=4)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from enumerate.conditions.tree import (
    COMPARISONS,
    And,
    Call,
    Compare,
    Node,
    Not,
    OneOf,
    Or,
    Within,
    Word,
)
from enumerate.errors import ConditionError

KEYWORDS = ("and", "or", "not", "in")
NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_TOKEN = re.compile(rf"\s*(?:(\d+)|({NAME})|(==|!=|<=|>=|\.\.|[<>(),{{}}]))")
_OPEN = re.compile(r"\s*\(")
TRUE = Word("true", 0)  # the empty condition


@dataclass(frozen=True)
class Token:
    text: str
    at: int
    kind: str  # "number", "name", "symbol", "call"
    args: str = ""  # a call's arguments as written
    args_at: int = 0


def tokens(text: str) -> list[Token]:
    """The tokens of ``text``; a name followed by ``(`` is a call, its arguments up to the
    matching ``)`` kept as written."""
    out: list[Token] = []
    at, end = 0, len(text.rstrip())
    while at < end:
        m = _TOKEN.match(text, at)
        if not m or m.end() == at:
            start = len(text) - len(text[at:].lstrip())
            raise ConditionError(f"cannot read {text[start:].strip()[:20]!r}", start)
        number, name, symbol = m.groups()
        start = m.start(m.lastindex or 0)
        at = m.end()
        opened = _OPEN.match(text, at) if name else None
        if name and opened and name not in KEYWORDS:
            depth, close = 1, opened.end()
            while close < len(text) and depth:
                depth += (text[close] == "(") - (text[close] == ")")
                close += 1
            if depth:
                raise ConditionError(f"{name}( is not closed", start)
            out.append(Token(name, start, "call", text[opened.end() : close - 1], opened.end()))
            at = close
        elif number is not None:
            out.append(Token(number, start, "number"))
        elif name is not None:
            out.append(Token(name, start, "name"))
        else:
            out.append(Token(symbol, start, "symbol"))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokens(text)
        self.end = len(text.rstrip())
        self.i = 0

    def peek(self, k: int = 0) -> Token | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def is_(self, text: str, k: int = 0) -> bool:
        tok = self.peek(k)
        return tok is not None and tok.kind in ("symbol", "name") and tok.text == text

    def take(self, want: str | None = None) -> Token:
        tok = self.peek()
        if tok is None:
            raise ConditionError("unexpected end" + (f", expected {want!r}" if want else ""),
                                 self.end)  # fmt: skip
        if want is not None and tok.text != want:
            raise ConditionError(f"expected {want!r}, found {tok.text!r}", tok.at)
        self.i += 1
        return tok

    def whole(self) -> Node:
        if not self.toks:
            return TRUE
        node = self.condition()
        tok = self.peek()
        if tok is not None:
            raise ConditionError(f"unexpected {tok.text!r}", tok.at)
        return node

    def condition(self) -> Node:
        parts = [self.conj()]
        while self.is_("or"):
            self.take()
            parts.append(self.conj())
        return parts[0] if len(parts) == 1 else Or(tuple(parts), _at(parts[0]))

    def conj(self) -> Node:
        parts = [self.neg()]
        while self.is_("and"):
            self.take()
            parts.append(self.neg())
        return parts[0] if len(parts) == 1 else And(tuple(parts), _at(parts[0]))

    def neg(self) -> Node:
        if self.is_("not"):
            at = self.take().at
            return Not(self.neg(), at)
        return self.comparison()

    def comparison(self) -> Node:
        left = self.value()
        tok = self.peek()
        if tok is not None and tok.kind == "symbol" and tok.text in COMPARISONS:
            self.take()
            return Compare(tok.text, left, self.value(), _at(left))
        if self.is_("not") and self.is_("in", 1):
            self.take()
            self.take()
            return Not(self.membership(left), _at(left))
        if self.is_("in"):
            self.take()
            return self.membership(left)
        return left

    def membership(self, left: Node) -> Node:
        if self.is_("{"):
            self.take()
            items = [self.value()]
            while self.is_(","):
                self.take()
                items.append(self.value())
            self.take("}")
            return OneOf(left, tuple(items), _at(left))
        lo = self.value()
        self.take("..")
        return Within(left, lo, self.value(), _at(left))

    def value(self) -> Node:
        tok = self.take()
        if tok.kind == "call":
            return Call(tok.text, tok.args, tok.at, tok.args_at)
        if tok.text == "(":
            node = self.condition()
            self.take(")")
            return node
        if tok.kind == "symbol" or tok.text in KEYWORDS:
            raise ConditionError(f"expected a value, found {tok.text!r}", tok.at)
        return Word(tok.text, tok.at)


def _at(node: Node) -> int:
    return node.at


def parse(text: str) -> Node:
    """The tree of a condition as written (``ConditionError`` with the column of the
    mistake)."""
    return _Parser(text).whole()


def split_arguments(text: str) -> list[tuple[str, int]]:
    """A call's arguments split at the commas outside parentheses, each stripped, with its
    offset in ``text``.

    >>> split_arguments(" flush, natural pair A")
    [('flush', 1), ('natural pair A', 8)]
    """
    out, depth, start = [], 0, 0
    for i, ch in enumerate([*text, ","]):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            part = text[start:i]
            out.append((part.strip(), start + len(part) - len(part.lstrip())))
            start = i + 1
    return out
