"""A derived rule in the card language and in words a dealer reads, and a derived card's file.

A literal ``lo <= fact <= hi`` is written as the card language writes it (``pair1 >= J``,
``single1 in 9..Q``, ``not joker``, ``best_five == flush``) and said in words ("high pair jacks
or better", "highest single 9 to queen", "no joker", "best five cards a flush"). A front is one of
``classes.FRONTS``, said in words too ("second pair in front").

>>> lit = Literal(DERIVE_FACTS.index("pair1"), 9, 12)
>>> condition_text((lit,)), condition_words((lit,))
('pair1 >= J', 'high pair jacks or better')
>>> lit = Literal(DERIVE_FACTS.index("front_high(highest keeping straight or better)"), -1, 10)
>>> condition_text((lit,))
'front_high(highest keeping straight or better) <= Q'
>>> condition_words((lit,))
'a straight or better would leave a front of queen high or lower (or none)'
>>> front_words("single2 single3")
'the second and third highest singles in front'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from analysis.derive.classes import CHOICE_OF, DERIVE_FACTS, fact_domain
from analysis.derive.search import Literal
from enumerate.conditions import CARD, Kind, Node, text
from enumerate.conditions.settings import read_front
from enumerate.conditions.tree import And, Apply, Compare, Const, Fact, Not, Within
from enumerate.conditions.values import CATEGORIES, RANK_NAMES
from enumerate.houseways.interpreter import FACTS

_CATEGORY_NAMES = {v: k for k, v in CATEGORIES.items() if k not in ("trips", "quads")}
# category words a condition can write: the others are also facts (``two_pair`` is a hand's
# structure), so a bound on them is written by their neighbours
_WRITABLE = {v: k for k, v in CATEGORIES.items() if k not in FACTS}
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")  # fmt: skip
_SINGULAR = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
_ORDINAL = ("", "", "second ", "third ", "fourth ", "fifth ", "sixth ", "seventh ")
_RANK_SUBJECT = {
    "quad1": "four of a kind", "trips1": "trips", "trips2": "second trips",
    "pair1": "high pair", "pair2": "second pair", "pair3": "third pair",
    **{f"single{i}": f"{_ORDINAL[i]}highest single".replace("  ", " ") for i in range(1, 8)},
}  # fmt: skip
_STRUCTURE = {
    "five_aces": "five aces", "quads": "four of a kind", "full_house": "a full house",
    "trips": "trips", "three_pair": "three pair", "two_pair": "two pair",
    "one_pair": "one pair", "no_pair": "no pair", "two_trips": "two trips",
    "joker": "the joker", "ace": "an ace", "singleton_ace": "a lone ace",
    "complete": "a straight or flush",
}  # fmt: skip
_COUNT = {"n_quads": "four of a kind", "n_trips": "trips", "n_pairs": "pairs",
          "n_singles": "singles"}  # fmt: skip


def _rank(v: int) -> str:
    return RANK_NAMES[v]


def literal_node(lit: Literal) -> Node:
    """The literal as a typed condition of a rule card."""
    name = DERIVE_FACTS[lit.fact]
    lo, hi = fact_domain(name)
    choice = CHOICE_OF.get(name)
    fact: Node
    if choice is not None:
        fact = Apply(choice[0], Kind.RANK, read_front(choice[1]), choice[1])
        return _interval_node(fact, Kind.RANK, lit, lo, hi, False)
    fact = Fact(name, CARD.facts[name].kind)
    if name in _STRUCTURE:
        return fact if lit.lo == 1 else Not(fact)
    if name == "best_five":
        return _category_node(fact, lit, lo, hi)
    return _interval_node(fact, fact.kind, lit, lo, hi, name in _COUNT)


def _interval_node(fact: Node, kind: Kind, lit: Literal, lo: int, hi: int, count: bool) -> Node:
    """``fact`` within the literal's interval: ``==``, ``>=``, ``<=`` or ``in a..b``."""
    def value(v: int) -> Const:
        return Const(v, kind, str(v) if count else _rank(v))

    if lit.lo == lit.hi:
        return Compare("==", fact, value(lit.lo))
    if lit.hi == hi:
        return Compare(">=", fact, value(lit.lo))
    if lit.lo == lo:
        return Compare("<=", fact, value(lit.hi))
    return Within(fact, value(lit.lo), value(lit.hi))


def _interval(lit: Literal, lo: int, hi: int, forms: tuple[str, str, str, str],
              value: Callable[[int], str]) -> str:  # fmt: skip
    """The literal's interval in the first of four forms that fits it: one value, a value or
    more, a value or less, from one value to another (``value`` writes a value)."""
    if lit.lo == lit.hi:
        return forms[0].format(value(lit.lo))
    if lit.hi == hi:
        return forms[1].format(value(lit.lo))
    if lit.lo == lo:
        return forms[2].format(value(lit.hi))
    return forms[3].format(value(lit.lo), value(lit.hi))


def _category_node(fact: Fact, lit: Literal, lo: int, hi: int) -> Node:
    """A literal on ``best_five``, each bound by a category word the card reads as one.

    >>> from enumerate.houseways.interpreter import FACTS
    >>> text(literal_node(Literal(FACTS.index("best_five"), 6, 6)))
    'best_five > flush and best_five < four_of_a_kind'
    """
    def cat(v: int) -> Const:
        return Const(v, Kind.CATEGORY, _WRITABLE[v])

    if lit.lo == lit.hi and lit.lo in _WRITABLE:
        return Compare("==", fact, cat(lit.lo))
    parts: list[Node] = []
    if lit.lo > lo:
        parts.append(Compare(">=", fact, cat(lit.lo)) if lit.lo in _WRITABLE
                     else Compare(">", fact, cat(lit.lo - 1)))  # fmt: skip
    if lit.hi < hi:
        parts.append(Compare("<=", fact, cat(lit.hi)) if lit.hi in _WRITABLE
                     else Compare("<", fact, cat(lit.hi + 1)))  # fmt: skip
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def condition_node(literals: Sequence[Literal]) -> Node:
    """A rule's ``when`` as a typed condition: its literals, structure first."""
    parts: list[Node] = []
    for lit in _ordered(literals):
        node = literal_node(lit)
        parts.extend(node.parts if isinstance(node, And) else (node,))
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def literal_text(lit: Literal) -> str:
    """The literal in the card language."""
    return text(literal_node(lit))


def condition_text(literals: Sequence[Literal]) -> str:
    """A rule's ``when`` in the card language."""
    return text(condition_node(literals)) if literals else ""


def _ordered(literals: Sequence[Literal]) -> list[Literal]:
    """Structure facts first (the card reads "two pair, ..."), then in the facts' order."""
    def rank(lit: Literal) -> tuple[int, int]:
        return (0 if DERIVE_FACTS[lit.fact] in _STRUCTURE and lit.lo == 1 else 1, lit.fact)

    return sorted(literals, key=rank)


def literal_words(lit: Literal) -> str:
    """The literal in words."""
    name = DERIVE_FACTS[lit.fact]
    lo, hi = fact_domain(name)
    choice = CHOICE_OF.get(name)
    if choice is not None:
        back = choice[1].removeprefix("highest keeping ")
        said = (f"a {back} would leave a front of {{}} high" if choice[0] == "front_high"
                else f"a {back} would leave a front whose lower card is {{}}")  # fmt: skip
        return _interval(lit, lo, hi, (said, f"{said} or better", f"{said} or lower (or none)",
                                       said.replace("{}", "{} to {}")), _SINGULAR.__getitem__)
    if name in _STRUCTURE:
        return _STRUCTURE[name] if lit.lo == 1 else f"not {_STRUCTURE[name]}".replace(
            "not the joker", "no joker").replace("not an ace", "no ace")  # fmt: skip
    if name == "best_five":
        cats = [_CATEGORY_NAMES[c].replace("_", " ") for c in range(lit.lo, lit.hi + 1)]
        if lit.hi == hi and lit.lo > lo:
            return f"best five cards {cats[0]} or better"
        if lit.lo == lo and lit.hi < hi:
            return f"best five cards {cats[-1]} or worse"
        if len(cats) > 2:
            return f"best five cards {cats[0]} to {cats[-1]}"
        return "best five cards " + " or ".join(cats)
    if name in _COUNT:
        return _count_words(_COUNT[name], lit, lo, hi)
    subject = _RANK_SUBJECT[name]
    plural = name.startswith(("pair", "trips", "quad"))
    words = _PLURAL if plural else _SINGULAR
    return _interval(lit, lo, hi, (f"{subject} {{}}", f"{subject} {{}} or better",
                                   f"{subject} {{}} or lower (or none)", f"{subject} {{}} to {{}}"),
                     words.__getitem__)  # fmt: skip


def _count_words(what: str, lit: Literal, lo: int, hi: int) -> str:
    """A literal on a count in words: "no trips", "1 single", "2 or more pairs".

    >>> from enumerate.houseways.interpreter import FACTS
    >>> [_count_words("pairs", Literal(FACTS.index("n_pairs"), a, b), 0, 3)
    ...  for a, b in ((0, 0), (1, 1), (2, 3), (0, 1))]
    ['no pair', '1 pair', '2 or more pairs', '1 or fewer pairs']
    """
    def n(k: int) -> str:
        if what == "four of a kind":
            return "four of a kind" if k else "no four of a kind"
        if what == "trips":
            return "trips" if k == 1 else ("no trips" if k == 0 else f"{k} trips")
        one = what[:-1]
        return f"no {one}" if k == 0 else (f"1 {one}" if k == 1 else f"{k} {what}")

    if lit.lo == lit.hi:
        return n(lit.lo)
    if lit.hi == hi:
        return f"{lit.lo} or more {what}" if lit.lo > 1 or what == "trips" else (
            f"at least one {what[:-1] if what.endswith('s') and what != 'trips' else what}")
    if lit.lo == lo:
        return f"{lit.hi} or fewer {what}"
    return f"{lit.lo} to {lit.hi} {what}"


def condition_words(literals: Sequence[Literal]) -> str:
    """A rule's condition in words ("every hand" for none)."""
    if not literals:
        return "every hand"
    return ", ".join(literal_words(lit) for lit in _ordered(literals))


def _rank_words(arg: str) -> str:
    if arg in _RANK_SUBJECT:
        return _RANK_SUBJECT[arg]
    return "an ace (or the joker)" if arg == "A" else arg


def front_words(front: str) -> str:
    """A front of ``classes.FRONTS`` in words."""
    words = front.split()
    if words[0] == "pair":
        return f"the {_RANK_SUBJECT[words[1]]} in front"
    if words[0] == "highest" and len(words) == 1:
        return "the highest front"
    if words[:2] == ["strongest", "back"]:
        return "the strongest back"
    if words[0] == "highest":
        return f"the highest front that keeps {' '.join(words[2:])} behind"
    a, b = words
    if a.startswith("single") and b.startswith("single"):
        i, j = int(a[6:]), int(b[6:])
        first = _ORDINAL[i].strip() or "first"
        return (f"the {first} and {_ORDINAL[j].strip()} highest singles in front"
                if i > 1 or j > 2 else "the two highest singles in front")  # fmt: skip
    if a == "A":
        return f"an ace (or the joker) and the {_RANK_SUBJECT[b]} in front"
    return f"one card of the {_rank_words(a)} and the {_RANK_SUBJECT[b]} in front"


def toml_string(text: str) -> str:
    """A TOML basic string (a JSON string is one).

    >>> toml_string('say "hi"')
    '"say \\\\"hi\\\\""'
    """
    return json.dumps(text, ensure_ascii=False)


def card_file(name: str, kind: str, title: str, source: str, notes: str,
              rules: Sequence[tuple[str, str, str, str, str | None]]) -> str:  # fmt: skip
    """A card's TOML text: ``rules`` are (id, text, when, front, back)."""
    lines = [f"{field} = {toml_string(value)}" for field, value in
             (("name", name), ("kind", kind), ("title", title), ("source", source),
              ("notes", notes))]  # fmt: skip
    for rid, said, when, front, back in rules:
        lines += ["", "[[rule]]", f"id = {toml_string(rid)}", f"text = {toml_string(said)}",
                  f"when = {toml_string(when)}", f"front = {toml_string(front)}"]  # fmt: skip
        if back:
            lines.append(f"back = {toml_string(back)}")
    return "\n".join(lines) + "\n"
