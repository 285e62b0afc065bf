"""The tree a condition is read into, and the kinds of value it holds.

``syntax.parse`` gives a tree whose leaves are the words as written (``Word``) and the calls
with their arguments as written (``Call``); ``check.check`` types it against a scope, and the
leaves become facts (``Fact``), typed constants (``Const``) and calls with read arguments
(``Apply``). The inner nodes are the same in both trees. Every node keeps ``at``, the offset in
the condition's text where it begins, for the messages; two trees are equal when they say the
same thing, wherever it was written.

>>> from enumerate.conditions.syntax import parse
>>> parse("pair1 >= J and not joker")
And(parts=(Compare(op='>=', left=Word(text='pair1', at=0), right=Word(text='J', at=9), at=0), \
Not(part=Word(text='joker', at=19), at=15)), at=0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    """What a value is: a truth, or a number on one scale (comparable only on its own)."""

    TRUTH = "truth"
    RANK = "rank"
    COUNT = "count"
    CATEGORY = "category"  # a five-card category, high card .. five aces
    FORTUNE = "Fortune class"  # a seven-card class, Fortune's order
    THREE_CARD = "three-card class"
    FRONT = "two-card id"  # a front's rank id (higher is stronger)
    BACK = "five-card id"  # a back's rank id


# leaves of a tree as written -------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    """A name or a number as written: a fact, or a value read by what it is compared with."""

    text: str
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Call:
    """``name(args)``: the arguments as written, read by the function when checked."""

    name: str
    args: str
    at: int = field(default=0, compare=False)
    args_at: int = field(default=0, compare=False)


# leaves of a typed tree ------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """A named fact of the scope."""

    name: str
    kind: Kind
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Const:
    """A value of a kind: ``value`` on that kind's scale (a rank 0 .. 12, a category id ...)
    and ``text``, the word it was written as."""

    value: int
    kind: Kind
    text: str = field(compare=False)
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Apply:
    """A call of one of the scope's functions with its argument read (``arg``: a typed node or
    what the function's reader made of its text)."""

    name: str
    kind: Kind
    arg: object
    text: str = field(compare=False)  # the arguments as written
    at: int = field(default=0, compare=False)


# inner nodes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Not:
    part: Node
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class And:
    parts: tuple[Node, ...]
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Or:
    parts: tuple[Node, ...]
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Compare:
    """``left op right``: ``op`` one of ``== != < <= > >=``."""

    op: str
    left: Node
    right: Node
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Within:
    """``value in lo..hi`` (both ends included)."""

    value: Node
    lo: Node
    hi: Node
    at: int = field(default=0, compare=False)


@dataclass(frozen=True)
class OneOf:
    """``value in {a, b, ...}``."""

    value: Node
    items: tuple[Node, ...]
    at: int = field(default=0, compare=False)


Node = Word | Call | Fact | Const | Apply | Not | And | Or | Compare | Within | OneOf
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def children(node: Node) -> tuple[Node, ...]:
    """The nodes directly under ``node`` (an ``Apply``'s typed argument among them)."""
    if isinstance(node, Not):
        return (node.part,)
    if isinstance(node, And | Or):
        return node.parts
    if isinstance(node, Compare):
        return (node.left, node.right)
    if isinstance(node, Within):
        return (node.value, node.lo, node.hi)
    if isinstance(node, OneOf):
        return (node.value, *node.items)
    if isinstance(node, Apply) and isinstance(node.arg, Node):
        return (node.arg,)
    return ()


def walk(node: Node) -> list[Node]:
    """Every node of the tree, ``node`` first, in the order they are written."""
    out = [node]
    for child in children(node):
        out += walk(child)
    return out


def facts_used(node: Node) -> set[str]:
    """The names of the facts a typed condition reads.

    >>> from enumerate.conditions import SEVEN_CARDS, read
    >>> sorted(facts_used(read("fortune >= flush and not joker", SEVEN_CARDS)))
    ['fortune', 'joker']
    """
    return {n.name for n in walk(node) if isinstance(n, Fact)}


def calls_used(node: Node) -> list[Apply]:
    """The function calls a typed condition makes, each once, in the order written."""
    return list(dict.fromkeys(n for n in walk(node) if isinstance(n, Apply)))
