"""A condition's tree written back in the language: what a derived rule's ``when`` says, and how
a message quotes part of a condition.

>>> from enumerate.conditions import CARD, read
>>> text(read("not (pair1 in J..K or joker) and  best_five==flush", CARD))
'not (pair1 in J..K or joker) and best_five == flush'
"""

from __future__ import annotations

from enumerate.conditions.tree import (
    And,
    Apply,
    Call,
    Compare,
    Const,
    Fact,
    Node,
    Not,
    OneOf,
    Or,
    Within,
    Word,
)


def text(node: Node) -> str:
    """``node`` in the language, parenthesized where the grammar needs it."""
    if isinstance(node, Word):
        return node.text
    if isinstance(node, Fact):
        return node.name
    if isinstance(node, Const):
        return node.text
    if isinstance(node, Call | Apply):
        return f"{node.name}({node.args if isinstance(node, Call) else node.text})"
    if isinstance(node, Not):
        part = node.part
        if isinstance(part, Within | OneOf):
            return _membership(part, "not in")
        return f"not {_tight(part)}"
    if isinstance(node, And):
        return " and ".join(f"({text(p)})" if isinstance(p, Or) else text(p) for p in node.parts)
    if isinstance(node, Or):
        return " or ".join(text(p) for p in node.parts)
    if isinstance(node, Compare):
        return f"{_tight(node.left)} {node.op} {_tight(node.right)}"
    return _membership(node, "in")


def _membership(node: Within | OneOf, word: str) -> str:
    if isinstance(node, Within):
        return f"{_tight(node.value)} {word} {_tight(node.lo)}..{_tight(node.hi)}"
    return f"{_tight(node.value)} {word} {{{', '.join(_tight(i) for i in node.items)}}}"


def _tight(node: Node) -> str:
    """``node`` as one operand: in parentheses unless it is a single value."""
    if isinstance(node, Word | Fact | Const | Call | Apply):
        return text(node)
    return f"({text(node)})"
