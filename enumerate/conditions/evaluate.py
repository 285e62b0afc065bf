"""A typed condition evaluated over many rows at once (numpy): the back end of the bet files
and the dealer events.

The rows (hands, deals, combinations of dealer events) give each fact as an array and answer
each call; a condition's value is a bool array of the rows where it holds.

>>> import numpy as np
>>> from enumerate.conditions import SEVEN_CARDS, read
>>> rows = ArrayRows(3, {"jacks": lambda: np.array([0, 2, 3])})
>>> evaluate(read("jacks >= 2", SEVEN_CARDS), rows).tolist()
[False, True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from enumerate.conditions.tree import (
    And,
    Apply,
    Compare,
    Const,
    Fact,
    Kind,
    Node,
    Not,
    OneOf,
    Or,
    Within,
)


class Rows(Protocol):
    """What a condition is evaluated over."""

    @property
    def rows(self) -> int: ...

    def value(self, name: str) -> np.ndarray:
        """The fact ``name`` of every row."""
        ...

    def call(self, node: Apply) -> np.ndarray:
        """The answer of a function call for every row."""
        ...


@dataclass
class ArrayRows:
    """Rows whose facts are computed once, when a condition first reads them; a function's
    calls may be answered all at once (``batches``: one pass for them all)."""

    rows: int
    facts: Mapping[str, Callable[[], np.ndarray]]
    functions: Mapping[str, Callable[[Apply], np.ndarray]] = field(default_factory=dict)
    batches: Mapping[str, Callable[[list[Apply]], list[np.ndarray]]] = field(
        default_factory=dict
    )
    _values: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def value(self, name: str) -> np.ndarray:
        if name not in self._values:
            self._values[name] = np.asarray(self.facts[name]())
        return self._values[name]

    def call(self, node: Apply) -> np.ndarray:
        return np.asarray(self.functions[node.name](node))

    def answers(self, calls: list[Apply]) -> list[np.ndarray]:
        """The answers of ``calls`` (of one function), in one pass where it has one."""
        if calls and calls[0].name in self.batches:
            return self.batches[calls[0].name](calls)
        return [self.call(c) for c in calls]


_COMPARE: Mapping[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
    ">": np.greater, ">=": np.greater_equal,
}  # fmt: skip


def _value(node: Node, rows: Rows) -> np.ndarray:
    """A value (an array of the rows, or a scalar)."""
    if isinstance(node, Const):
        return np.asarray(bool(node.value) if node.kind == Kind.TRUTH else node.value)
    if isinstance(node, Fact):
        v = rows.value(node.name)
        return v.astype(bool) if node.kind == Kind.TRUTH else v
    if isinstance(node, Apply):
        return rows.call(node)
    if isinstance(node, Not):
        return ~_value(node.part, rows).astype(bool)
    if isinstance(node, And | Or):
        out = _value(node.parts[0], rows).astype(bool)
        for part in node.parts[1:]:
            v = _value(part, rows).astype(bool)
            out = out & v if isinstance(node, And) else out | v
        return out
    if isinstance(node, Compare):
        return _COMPARE[node.op](_value(node.left, rows), _value(node.right, rows))
    if isinstance(node, Within):
        v = _value(node.value, rows)
        return (v >= _value(node.lo, rows)) & (v <= _value(node.hi, rows))
    if isinstance(node, OneOf):
        v = _value(node.value, rows)
        out = np.zeros(np.shape(v), dtype=bool)
        for item in node.items:
            out = out | (v == _value(item, rows))
        return out
    raise TypeError(f"not a typed condition: {node!r}")


def evaluate(node: Node, rows: Rows) -> np.ndarray:
    """The rows where the typed condition ``node`` holds (a bool array)."""
    return np.broadcast_to(_value(node, rows).astype(bool), (rows.rows,))
