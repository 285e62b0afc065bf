"""The rule-card language: conditions over named facts of a seven-card hand, and choices of
setting, compiled to the int64 program the card kernel runs (``interpreter``).

A condition reads like the card::

    two_pair and pair1 <= 6 and (count(K) == 1 or singleton_ace)
    quads and quad1 in J..K and not singleton_ace
    complete and one_pair and can(pair pair1 keeping straight or better)

Values have types: ranks (``pair1``, ``single2``, ``A``, ``7``), counts (``n_pairs``,
``count(K)``), truths (``two_pair``, ``joker``) and five-card categories (``best_five``). A
number beside a rank is a rank (``pair2 >= 7``: sevens or better), beside a count a count. A
rank a hand does not hold is below every rank (``pair3`` of a two-pair hand).

A choice names what goes in front, optionally which backs it may keep::

    pair pair1                         a pair of that rank
    A single1                          two ranks (the joker reads as an ace)
    two highest singles                single1 single2
    highest                            the highest front, then the strongest back
    highest K-high or better           ... among fronts king-high or better (or a pair)
    strongest back                     the strongest back, then the highest front
    ... keeping straight or better     only settings whose back is a straight or better
    ... keeping straight, flush or straight flush
    ... keeping royal flush

Among the settings a choice allows, ties go to the strongest back. Every mistake is one
``CardError`` line saying where and what.

>>> p = compile_card([("quads and quad1 >= J", "pair quad1", 0), ("", "two highest singles", 1)])
>>> int(p[0]), len(p) > 2
(2, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from enumerate.datafile import DataFileError
from enumerate.houseways.interpreter import (
    ALL_BACKS,
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
    RULE_WIDTH,
    SEL_HIGHEST_FRONT,
    SEL_RANKS,
    SEL_STRONGEST_BACK,
    STACK,
    STRUCTURES,
)


class CardError(DataFileError):
    """A mistake in a rule card: one line saying where and what."""


RANK_WORDS = {
    "2": 0, "3": 1, "4": 2, "5": 3, "6": 4, "7": 5, "8": 6, "9": 7, "10": 8, "T": 8,
    "J": 9, "Q": 10, "K": 11, "A": 12,
}  # fmt: skip
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
CATEGORIES = {
    "high_card": 0, "pair": 1, "two_pair": 2, "three_of_a_kind": 3, "trips": 3,
    "straight": 4, "flush": 5, "full_house": 6, "four_of_a_kind": 7, "quads": 7,
    "straight_flush": 8, "five_aces": 9,
}  # fmt: skip
ROYAL = "royal_flush"

RANK_FACTS = {n for n in FACTS if re.fullmatch(r"(quad|trips|pair|single)\d", n)}
COUNT_FACTS = {n for n in FACTS if n.startswith("n_")}
CATEGORY_FACTS = {"best_five"}
BOOL_FACTS = set(FACTS) - RANK_FACTS - COUNT_FACTS - CATEGORY_FACTS
FUNCTIONS = ("count", "singleton", "can", "front", "back", "front_high", "front_low")

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(==|!=|<=|>=|\.\.|[<>(),{}]))")


@dataclass(frozen=True)
class Choice:
    """What a rule puts in front: a selector, two rank arguments (for ``SEL_RANKS``) and the
    backs it may keep (a mask of categories; ``royal``: only a royal flush)."""

    selector: int
    args: tuple[tuple[int, int], tuple[int, int]] = ((ARG_NONE, 0), (ARG_NONE, 0))
    backs: int = ALL_BACKS
    royal: bool = False
    least: int = -1  # a front's higher card must reach this rank, unless it is a pair

    def encode(self) -> list[int]:
        (k1, a1), (k2, a2) = self.args
        return [self.selector, self.backs, int(self.royal), k1, a1, k2, a2, self.least]


def tokens(text: str, pattern: re.Pattern[str] = _TOKEN,
           error: type[DataFileError] = CardError) -> list[str]:  # fmt: skip
    """The words of a condition by ``pattern`` (each match's first group that matched); text
    it cannot read is one line of ``error``. The bet files' conditions share it."""
    out, at = [], 0
    text = text.rstrip()
    while at < len(text):
        m = pattern.match(text, at)
        if not m or m.end() == at:
            raise error(f"cannot read {text[at:].strip()[:20]!r}")
        out.append(next(g for g in m.groups() if g is not None))
        at = m.end()
    return out


# ---------------------------------------------------------------------------------------------
# Choices


def _rank_arg(word: str) -> tuple[int, int]:
    if word in RANK_WORDS:
        return ARG_CONST, RANK_WORDS[word]
    if word in RANK_FACTS:
        return ARG_FACT, FACTS.index(word)
    raise CardError(f"{word!r} is not a rank (a rank is 2-10, T, J, Q, K, A or one of "
                    f"{', '.join(sorted(RANK_FACTS))})")  # fmt: skip


def parse_backs(text: str) -> tuple[int, bool]:
    """The mask of back categories (and royal only) of a back spec such as ``straight or
    better`` or ``straight, flush or straight flush``."""
    words = [w for w in re.split(r"\s+|(,)", text.strip().lower()) if w]
    if not words:
        raise CardError("an empty back")
    better = words[-2:] == ["or", "better"]
    if better:
        words = words[:-2]
    names: list[str] = []
    current: list[str] = []
    for w in [*words, "or"]:
        if w in ("or", ","):
            if not current:
                raise CardError(f"cannot read the back {text!r}")
            names.append("_".join(current))
            current = []
        elif current or w not in ("a", "an"):  # "a straight", "four of a kind"
            current.append(w)
    mask, royal = 0, False
    for name in names:
        if name in (ROYAL, "royal"):
            mask |= 1 << CATEGORIES["straight_flush"]
            royal = True
        elif name in CATEGORIES:
            mask |= 1 << CATEGORIES[name]
        else:
            known = ", ".join(sorted({*CATEGORIES, ROYAL}))
            raise CardError(f"unknown back {name.replace('_', ' ')!r} (known: {known})")
    if royal and (len(names) > 1 or better):
        raise CardError("a royal flush back stands alone")
    if better:
        lowest = min(CATEGORIES[n] for n in names)
        mask |= sum(1 << c for c in range(lowest, 10))
    return mask, royal


def parse_choice(text: str, back: str | None = None) -> Choice:
    """A front spec (and optional back spec) as a ``Choice``.

    >>> parse_choice("pair pair1 keeping straight or better").backs == 0b1111110000
    True
    >>> parse_choice("two highest singles").args
    ((2, 10), (2, 11))
    """
    spec = text.strip()
    keep = None
    m = re.search(r"\s+keeping\s+", spec)
    if m:
        spec, keep = spec[: m.start()].strip(), spec[m.end() :]
    if keep is not None and back is not None:
        raise CardError("the back is given twice ('keeping' and back =)")
    keep = keep if keep is not None else back
    backs, royal = parse_backs(keep) if keep is not None else (ALL_BACKS, False)
    words = spec.split()
    low = [w.lower() for w in words]
    if low in (["highest"], ["highest", "front"]):
        return Choice(SEL_HIGHEST_FRONT, backs=backs, royal=royal)
    if len(words) == 4 and low[0] == "highest" and low[2:] == ["or", "better"]:
        m = re.fullmatch(r"(.+)-high", words[1])
        if not m or m.group(1) not in RANK_WORDS:
            raise CardError(f"unknown front {text.strip()!r} (write: highest K-high or better)")
        return Choice(SEL_HIGHEST_FRONT, backs=backs, royal=royal, least=RANK_WORDS[m.group(1)])
    if low == ["strongest", "back"]:
        return Choice(SEL_STRONGEST_BACK, backs=backs, royal=royal)
    if low == ["two", "highest", "singles"]:
        words = ["single1", "single2"]
    elif len(words) == 2 and low[0] == "pair":
        words = [words[1], words[1]]
    if len(words) != 2:
        raise CardError(f"unknown front {text.strip()!r} (write: pair RANK, RANK RANK, "
                        "two highest singles, highest or strongest back; then keeping "
                        "BACK)")  # fmt: skip
    a, b = (_rank_arg(w) for w in words)
    return Choice(SEL_RANKS, (a, b), backs, royal)


# ---------------------------------------------------------------------------------------------
# Conditions


@dataclass
class _Value:
    kind: str  # "rank", "count", "bool", "cat", "id", "num", "word"
    code: list[int]
    text: str
    # the hand structures (bits of ``STRUCTURES``) for which a condition may hold
    structures: int = EVERY_STRUCTURE


_CALL = re.compile(r"\b(can|front_high|front_low|front|back)\s*\(")


def _lift_choices(text: str) -> tuple[str, list[str]]:
    """``text`` with the argument of each ``can(...)``, ``front(...)`` and ``back(...)`` (a
    front spec, in the card's words) taken out as ``name(#k)``, and those specs."""
    specs: list[str] = []
    out, at = [], 0
    for m in _CALL.finditer(text):
        if m.start() < at:
            continue
        depth, end = 1, m.end()
        while end < len(text) and depth:
            depth += (text[end] == "(") - (text[end] == ")")
            end += 1
        if depth:
            raise CardError(f"{m.group(1)}( is not closed")
        out.append(text[at : m.end()] + f"choice{len(specs)})")
        specs.append(text[m.end() : end - 1])
        at = end
    out.append(text[at:])
    return "".join(out), specs


class _Parser:
    def __init__(self, text: str, choices: list[Choice]) -> None:
        self.text = text
        lifted, self.specs = _lift_choices(text)
        self.toks = tokens(lifted)
        self.at = 0
        self.choices = choices

    def peek(self, k: int = 0) -> str | None:
        return self.toks[self.at + k] if self.at + k < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            got = "the end" if tok is None else repr(tok)
            raise CardError(f"expected {want!r}, found {got}" if want else "unexpected end")
        self.at += 1
        return tok

    def parse(self) -> tuple[list[int], int]:
        if not self.toks:
            return [OP_CONST, 1], EVERY_STRUCTURE
        v = self.expr()
        if self.peek() is not None:
            raise CardError(f"unexpected {self.peek()!r}")
        return self.truth(v).code, v.structures

    # grammar: or > and > not > comparison > atom
    def expr(self) -> _Value:
        v = self.conj()
        while self.peek() == "or":
            self.take()
            w = self.conj()
            v = _Value("bool", self.truth(v).code + self.truth(w).code + [OP_OR, 0], "or",
                       v.structures | w.structures)
        return v

    def conj(self) -> _Value:
        v = self.neg()
        while self.peek() == "and":
            self.take()
            w = self.neg()
            v = _Value("bool", self.truth(v).code + self.truth(w).code + [OP_AND, 0], "and",
                       v.structures & w.structures)
        return v

    def neg(self) -> _Value:
        if self.peek() == "not":
            self.take()
            v = self.neg()
            return _Value("bool", [*self.truth(v).code, OP_NOT, 0], "not")
        return self.comparison()

    def comparison(self) -> _Value:
        left = self.atom()
        op = self.peek()
        ops = {"==": OP_EQ, "!=": OP_NE, "<": OP_LT, "<=": OP_LE, ">": OP_GT, ">=": OP_GE}
        if op in ops:
            self.take()
            right = self.atom()
            a, b = self.pair(left, right, op)
            return _Value("bool", a.code + b.code + [ops[op], 0], op)
        negate = False
        if op == "not" and self.peek(1) == "in":
            self.take()
            negate = True
            op = "in"
        if op == "in":
            self.take()
            v = self.membership(left)
            return _Value("bool", [*v.code, OP_NOT, 0], "not in") if negate else v
        return left

    def membership(self, left: _Value) -> _Value:
        if self.peek() == "{":
            self.take()
            items = [self.atom()]
            while self.peek() == ",":
                self.take()
                items.append(self.atom())
            self.take("}")
            code: list[int] = []
            for i, item in enumerate(items):
                a, b = self.pair(left, item, "in")
                code += a.code + b.code + [OP_EQ, 0] + ([OP_OR, 0] if i else [])
            return _Value("bool", code, "in")
        lo = self.atom()
        self.take("..")
        hi = self.atom()
        a, b = self.pair(left, lo, "in")
        c, d = self.pair(left, hi, "in")
        code = [*a.code, *b.code, OP_GE, 0, *c.code, *d.code, OP_LE, 0, OP_AND, 0]
        return _Value("bool", code, "in")

    def atom(self) -> _Value:
        tok = self.take()
        if tok in ("==", "!=", "<=", ">=", "..", "<", ">", ")", ",", "{", "}"):
            raise CardError(f"expected a value, found {tok!r}")
        if tok == "(":
            v = self.expr()
            self.take(")")
            return v
        if tok.isdigit():
            return _Value("num", [], tok)
        if tok in ("true", "false"):
            return _Value("bool", [OP_CONST, int(tok == "true")], tok,
                          EVERY_STRUCTURE if tok == "true" else 0)
        if tok in FUNCTIONS and self.peek() == "(":
            return self.call(tok)
        if tok in FACTS:
            kind = ("rank" if tok in RANK_FACTS else "count" if tok in COUNT_FACTS else
                    "cat" if tok in CATEGORY_FACTS else "bool")  # fmt: skip
            shape = "full_house" if tok == "two_trips" else tok
            structures = 1 << STRUCTURES.index(shape) if shape in STRUCTURES else EVERY_STRUCTURE
            return _Value(kind, [OP_FACT, FACTS.index(tok)], tok, structures)
        if tok in RANK_WORDS:
            return _Value("rank", [OP_CONST, RANK_WORDS[tok]], tok)
        if tok in CATEGORIES or tok == ROYAL:
            return _Value("word", [], tok)
        raise CardError(f"unknown fact {tok!r} (facts: {', '.join(FACTS)}; functions: "
                        f"{', '.join(FUNCTIONS)})")  # fmt: skip

    def call(self, name: str) -> _Value:
        self.take("(")
        if name in ("count", "singleton"):
            r = self.atom()
            self.take(")")
            r = self.as_rank(r, name)
            code = [*r.code, OP_COUNT, 0]
            if name == "singleton":
                return _Value("bool", [*code, OP_CONST, 1, OP_EQ, 0], name)
            return _Value("count", code, name)
        spec = self.specs[int(self.take().removeprefix("choice"))]
        self.take(")")
        choice = parse_choice(spec)
        if choice not in self.choices:
            self.choices.append(choice)
        c = self.choices.index(choice)
        op = {"can": OP_HAS, "front": OP_FRONT, "back": OP_BACK, "front_high": OP_FRONT_HIGH,
              "front_low": OP_FRONT_LOW}[name]  # fmt: skip
        kind = {"can": "bool", "front_high": "rank", "front_low": "rank"}.get(name, "id")
        return _Value(kind, [op, c], f"{name}({spec})")

    def as_rank(self, v: _Value, where: str) -> _Value:
        if v.kind == "rank":
            return v
        if v.kind == "num" and v.text in RANK_WORDS:
            return _Value("rank", [OP_CONST, RANK_WORDS[v.text]], v.text)
        raise CardError(f"{where} wants a rank, not {v.text!r}")

    def pair(self, a: _Value, b: _Value, op: str) -> tuple[_Value, _Value]:
        """Both sides of a comparison with one type (numbers and words typed by the other)."""
        for x, y in ((a, b), (b, a)):
            if x.kind in ("num", "word") and y.kind not in ("num", "word"):
                typed = self.typed(x, y.kind, y.text)
                return (typed, b) if x is a else (a, typed)
        if a.kind in ("num", "word"):
            raise CardError(f"{a.text!r} {op} {b.text!r} compares two constants")
        if a.kind != b.kind or a.kind == "bool":
            raise CardError(f"cannot compare {a.text!r} ({a.kind}) with {b.text!r} ({b.kind})")
        return a, b

    def typed(self, v: _Value, kind: str, other: str) -> _Value:
        if kind == "rank":
            if v.text not in RANK_WORDS:
                raise CardError(f"{v.text!r} is not a rank (beside {other!r})")
            return _Value("rank", [OP_CONST, RANK_WORDS[v.text]], v.text)
        if kind == "count" and v.kind == "num":
            return _Value("count", [OP_CONST, int(v.text)], v.text)
        if kind == "cat" and v.kind == "word" and v.text in CATEGORIES:
            return _Value("cat", [OP_CONST, CATEGORIES[v.text]], v.text)
        raise CardError(f"{v.text!r} cannot stand beside {other!r} ({kind})")

    def truth(self, v: _Value) -> _Value:
        if v.kind != "bool":
            raise CardError(f"{v.text!r} is a {v.kind}, not a condition")
        return v


def _depth(code: Sequence[int]) -> int:
    n = deepest = 0
    for op in code[::2]:
        n += 1 if op in (OP_CONST, OP_FACT, OP_HAS, OP_FRONT, OP_BACK, OP_FRONT_HIGH,
                         OP_FRONT_LOW) else (
            0 if op in (OP_COUNT, OP_NOT) else -1)  # fmt: skip
        deepest = max(deepest, n)
    return deepest


def compile_condition(text: str, choices: list[Choice]) -> tuple[list[int], int]:
    """The postfix code of one condition (appending to ``choices`` those it names) and the
    hand structures for which it may hold."""
    code, structures = _Parser(text, choices).parse()
    if _depth(code) > STACK:
        raise CardError(f"a condition this deep needs more than {STACK} stack entries")
    return code, structures


def compile_card(rules: Sequence[tuple[str, str | Choice, int]]) -> np.ndarray:
    """The program of a card's rules, each ``(condition, choice, rule-name index)``, in the
    order the card tries them."""
    choices: list[Choice] = []
    compiled = []
    for i, (when, front, name) in enumerate(rules):
        try:
            code, structures = compile_condition(when, choices)
            choice = front if isinstance(front, Choice) else parse_choice(front)
        except CardError as err:
            raise CardError(f"rule {i + 1}: {err}") from None
        if choice not in choices:
            choices.append(choice)
        compiled.append((code, choices.index(choice), name, structures))
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
    for choice in choices:
        prog += choice.encode()
    prog += dispatch + body
    return np.array(prog, dtype=np.int64)
