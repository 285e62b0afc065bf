"""A rule card's conditions and fronts compiled to the int64 program the card kernel runs
(``interpreter``): the card kernel's back end of the condition language.

A condition becomes postfix code over the kernel's fact array (``interpreter.FACTS``), and the
hand structures for which it may hold (a rule that says ``two_pair and ...`` is dispatched to
two-pair hands only). A front (``enumerate.conditions.settings.Choice``) becomes a row of the
program's choices table.

>>> p = compile_card([("quads and quad1 >= J", "pair quad1", 0), ("", "two highest singles", 1)])
>>> int(p[0]), len(p) > 2
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from enumerate.conditions import CARD, Choice, ConditionError, Node, Selector, read
from enumerate.conditions.settings import read_front
from enumerate.conditions.tree import (
    And,
    Apply,
    Compare,
    Const,
    Fact,
    Kind,
    Not,
    OneOf,
    Or,
    Within,
)
from enumerate.evaluate import FiveCardTable
from enumerate.houseways.interpreter import (
    ARG_CONST,
    ARG_FACT,
    ARG_NONE,
    CHOICE_WIDTH,
    EVERY_STRUCTURE,
    FACTS,
    HEAD,
    OP_AND,
    OP_BACK,
    OP_CONST,
    OP_COUNT,
    OP_EQ,
    OP_FACT,
    OP_FRONT,
    OP_FRONT_HIGH,
    OP_FRONT_LOW,
    OP_GE,
    OP_GT,
    OP_HAS,
    OP_LE,
    OP_LT,
    OP_NE,
    OP_NOT,
    OP_OR,
    POINTS_CHART,
    POINTS_LINKED,
    RULE_WIDTH,
    SEL_HIGHEST_FRONT,
    SEL_POINTS,
    SEL_RANKS,
    SEL_STRONGEST_BACK,
    STACK,
    STRUCTURES,
)
from enumerate.houseways.points import Points, check_order, decoded, expand

_COMPARE = {"==": OP_EQ, "!=": OP_NE, "<": OP_LT, "<=": OP_LE, ">": OP_GT, ">=": OP_GE}
_CHOICE_OPS = {"can": OP_HAS, "front": OP_FRONT, "back": OP_BACK, "front_high": OP_FRONT_HIGH,
               "front_low": OP_FRONT_LOW}  # fmt: skip
_SELECTORS = {Selector.RANKS: SEL_RANKS, Selector.HIGHEST_FRONT: SEL_HIGHEST_FRONT,
              Selector.STRONGEST_BACK: SEL_STRONGEST_BACK, Selector.POINTS: SEL_POINTS}
_PUSHES = (OP_CONST, OP_FACT, *_CHOICE_OPS.values())
Encoded = tuple[int, ...]


def encode_choice(choice: Choice) -> Encoded:
    """A front as a row of the program's choices table: selector, back mask, royal only, the
    two rank arguments (kind, value) and the least rank of a front's higher card (-1)."""
    args: list[int] = []
    for rank in choice.ranks or (None, None):
        if isinstance(rank, Const):
            args += [ARG_CONST, rank.value]
        elif isinstance(rank, Fact):
            args += [ARG_FACT, FACTS.index(rank.name)]
        else:
            args += [ARG_NONE, 0]
    mask = sum(1 << c for c in choice.backs)
    least = -1 if choice.least is None else choice.least
    if choice.selector == Selector.POINTS:  # the chart's place is filled in by compile_card
        args[POINTS_LINKED - 3], args[POINTS_CHART - 3] = -1, -1
    return (_SELECTORS[choice.selector], mask, int(choice.royal), *args, least)


class _Compiler:
    def __init__(self, choices: list[Encoded]) -> None:
        self.choices = choices

    def choice(self, choice: Choice) -> int:
        row = encode_choice(choice)
        if row not in self.choices:
            self.choices.append(row)
        return self.choices.index(row)

    def code(self, node: Node) -> list[int]:
        """The postfix code of ``node`` (a typed condition or value)."""
        if isinstance(node, Const):
            return [OP_CONST, node.value]
        if isinstance(node, Fact):
            return [OP_FACT, FACTS.index(node.name)]
        if isinstance(node, Apply):
            if node.name in _CHOICE_OPS:
                assert isinstance(node.arg, Choice)
                return [_CHOICE_OPS[node.name], self.choice(node.arg)]
            assert isinstance(node.arg, Const | Fact)
            count = [*self.code(node.arg), OP_COUNT, 0]
            return count if node.name == "count" else [*count, OP_CONST, 1, OP_EQ, 0]
        if isinstance(node, Not):
            return [*self.code(node.part), OP_NOT, 0]
        if isinstance(node, And | Or):
            op = OP_AND if isinstance(node, And) else OP_OR
            out = self.code(node.parts[0])
            for part in node.parts[1:]:
                out += [*self.code(part), op, 0]
            return out
        if isinstance(node, Compare):
            return [*self.code(node.left), *self.code(node.right), _COMPARE[node.op], 0]
        if isinstance(node, Within):
            v = self.code(node.value)
            return [*v, *self.code(node.lo), OP_GE, 0, *v, *self.code(node.hi), OP_LE, 0,
                    OP_AND, 0]  # fmt: skip
        if isinstance(node, OneOf):
            v = self.code(node.value)
            out = []
            for i, item in enumerate(node.items):
                out += [*v, *self.code(item), OP_EQ, 0] + ([OP_OR, 0] if i else [])
            return out
        raise TypeError(f"not a typed condition: {node!r}")


def structures(node: Node) -> int:
    """The hand structures (bits of ``STRUCTURES``) for which a condition may hold."""
    if isinstance(node, Fact):
        shape = "full_house" if node.name == "two_trips" else node.name
        return 1 << STRUCTURES.index(shape) if shape in STRUCTURES else EVERY_STRUCTURE
    if isinstance(node, Const) and node.kind == Kind.TRUTH and node.value == 0:
        return 0
    if isinstance(node, And):
        out = EVERY_STRUCTURE
        for part in node.parts:
            out &= structures(part)
        return out
    if isinstance(node, Or):
        out = 0
        for part in node.parts:
            out |= structures(part)
        return out
    return EVERY_STRUCTURE


def _depth(code: Sequence[int]) -> int:
    n = deepest = 0
    for op in code[::2]:
        n += 1 if op in _PUSHES else (0 if op in (OP_COUNT, OP_NOT) else -1)
        deepest = max(deepest, n)
    return deepest


def condition_code(node: Node, choices: list[Encoded]) -> tuple[list[int], int]:
    """The postfix code of a typed condition (appending to ``choices`` the fronts it names)
    and the hand structures for which it may hold."""
    code = _Compiler(choices).code(node)
    if _depth(code) > STACK:
        raise ConditionError(f"a condition this deep needs more than {STACK} stack entries")
    return code, structures(node)


def compile_card(rules: Sequence[tuple[Node | str, Choice | str, int]],
                 points: Points | None = None) -> np.ndarray:  # fmt: skip
    """The program of a card's rules, each ``(condition, front, rule-name index)`` (a text is
    read in the card scope), in the order the card tries them, and its points chart (stored
    after the code; a front ``most points`` needs one)."""
    choices: list[Encoded] = []
    compiled = []
    for i, (when, front, name) in enumerate(rules):
        where = f"rule {i + 1}"
        tree = read(when, CARD, f"{where}: when") if isinstance(when, str) else when
        try:
            code, shapes = condition_code(tree, choices)
            choice = read_front(front) if isinstance(front, str) else front
        except ConditionError as err:
            raise err.located(err.where or where) from None
        row = _Compiler(choices).choice(choice)
        compiled.append((code, row, name, shapes))
    n = len(compiled)
    choices_at = HEAD + RULE_WIDTH * n
    dispatch_at = choices_at + CHOICE_WIDTH * len(choices)
    lists = [[r for r, c in enumerate(compiled) if c[3] >> k & 1] for k in range(len(STRUCTURES))]
    dispatch = []
    start = dispatch_at + len(STRUCTURES) + 1
    for members in lists:
        dispatch.append(start)
        start += len(members)
    dispatch.append(start)
    for members in lists:
        dispatch += members
    code_at = dispatch_at + len(dispatch)
    prog = [n, choices_at, dispatch_at]
    body: list[int] = []
    for code, c, name, _ in compiled:
        at = code_at + len(body)
        body += code
        prog += [at, code_at + len(body), c, name]
    for choice_row in choices:
        prog += choice_row
    prog += dispatch + body
    wants = [c for c, row in enumerate(choices) if row[0] == SEL_POINTS]
    if wants and points is None:
        raise ConditionError("the front 'most points' needs the card's [points] chart")
    if points is not None:
        for c in wants:
            prog[choices_at + CHOICE_WIDTH * c + POINTS_CHART] = len(prog)
        prog += points.encoded()
    return np.array(prog, dtype=np.int64)


def link(program: tuple[int, ...] | np.ndarray, five: FiveCardTable,
         where: str = "the card") -> np.ndarray:  # fmt: skip
    """The program with its chart expanded under ``five``'s rules (``points.expand``) after it and
    each ``most points`` choice pointing there: what the kernel runs. A program without such
    a choice comes back as it is."""
    prog = np.array(program, dtype=np.int64)
    first, end = int(prog[1]), int(prog[2])
    rows = [at for at in range(first, end, CHOICE_WIDTH) if prog[at] == SEL_POINTS]
    if not rows:
        return prog
    chart = decoded(prog, int(prog[rows[0] + POINTS_CHART]))
    check_order(chart, five, where)
    at = len(prog)
    prog = np.concatenate([prog, expand(chart, five)])
    for row in rows:
        prog[row + POINTS_LINKED] = at
    return prog
