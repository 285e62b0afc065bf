"""The settings a condition can ask about, as the functions that take them read them: a rule
card's fronts (``can(FRONT)``, ``front(FRONT)`` ... and a rule's own ``front``) and what a bet's
``can_set(BACK[, FRONT])`` asks for.

A card's front names what goes in front, optionally which backs it may keep::

    pair pair1                         a pair of that rank
    A single1                          two ranks (the joker reads as an ace)
    two highest singles                single1 single2
    highest                            the highest front, then the strongest back
    highest K-high or better           ... among fronts king-high or better (or a pair)
    strongest back                     the strongest back, then the highest front
    most points                        the most points of the card's chart (back plus front),
                                       then the strongest back, then the highest front
    ... keeping straight or better     only settings whose back is a straight or better
    ... keeping straight, flush or straight flush
    ... keeping royal flush

>>> read_front("pair pair1 keeping straight or better").backs == frozenset(range(4, 10))
True
>>> read_front("two highest singles").ranks
(Fact(name='single1', kind=<Kind.RANK: 'rank'>, at=0), Fact(name='single2', \
kind=<Kind.RANK: 'rank'>, at=0))
>>> read_can_set("natural royal_flush, pair K")
CanSet(category=8, royal=True, natural_back=True, pair=11, natural_front=False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from enumerate.conditions.facts import CARD_FACTS
from enumerate.conditions.syntax import split_arguments
from enumerate.conditions.tree import Const, Fact, Kind
from enumerate.conditions.values import CATEGORIES, RANK_WORDS, value_of
from enumerate.errors import ConditionError
from enumerate.vocabulary import Category

ROYAL = "royal_flush"
EVERY_BACK = frozenset(int(c) for c in Category)
CARD_RANK_FACTS = tuple(f.name for f in CARD_FACTS if f.kind == Kind.RANK)


class Selector(StrEnum):
    """How a front picks among the valid settings it allows."""

    RANKS = "ranks"  # the front of two given ranks, then the strongest back
    HIGHEST_FRONT = "highest front"  # the highest front, then the strongest back
    STRONGEST_BACK = "strongest back"  # the strongest back, then the highest front
    POINTS = "most points"  # the most points of the card's chart, then the strongest back


@dataclass(frozen=True)
class Choice:
    """What a rule puts in front: a selector, the two ranks (``Selector.RANKS``: each a rank
    fact or a rank), the categories of back it may keep (``royal``: only a royal flush) and
    the rank a front's higher card must reach unless it is a pair."""

    selector: Selector
    ranks: tuple[Fact | Const, Fact | Const] | None = None
    backs: frozenset[int] = EVERY_BACK
    royal: bool = False
    least: int | None = None


def _rank(word: str) -> Fact | Const:
    if word.upper() in RANK_WORDS:
        return Const(RANK_WORDS[word.upper()], Kind.RANK, word)
    if word in CARD_RANK_FACTS:
        return Fact(word, Kind.RANK)
    raise ConditionError(f"{word!r} is not a rank (a rank is 2-10, T, J, Q, K, A or one of "
                         f"{', '.join(sorted(CARD_RANK_FACTS))})")  # fmt: skip


def read_backs(text: str) -> tuple[frozenset[int], bool]:
    """The back categories (and royal only) of a back such as ``straight or better`` or
    ``straight, flush or straight flush``."""
    words = [w for w in re.split(r"\s+|(,)", text.strip().lower()) if w]
    if not words:
        raise ConditionError("an empty back")
    better = words[-2:] == ["or", "better"]
    if better:
        words = words[:-2]
    names: list[str] = []
    current: list[str] = []
    for w in [*words, "or"]:
        if w in ("or", ","):
            if not current:
                raise ConditionError(f"cannot read the back {text!r}")
            names.append("_".join(current))
            current = []
        elif current or w not in ("a", "an"):  # "a straight", "four of a kind"
            current.append(w)
    backs: set[int] = set()
    royal = False
    for name in names:
        if name in (ROYAL, "royal"):
            backs.add(int(Category.STRAIGHT_FLUSH))
            royal = True
        elif name in CATEGORIES:
            backs.add(CATEGORIES[name])
        else:
            every = ", ".join(sorted({*CATEGORIES, ROYAL}))
            raise ConditionError(f"unknown back {name.replace('_', ' ')!r} (known: {every})")
    if royal and (len(names) > 1 or better):
        raise ConditionError("a royal flush back stands alone")
    if better:
        backs |= set(range(min(CATEGORIES[n] for n in names), len(Category)))
    return frozenset(backs), royal


def read_front(text: str, back: str | None = None) -> Choice:
    """A card's front (and its back, when the rule gives one apart) as a ``Choice``."""
    spec = text.strip()
    keep = None
    m = re.search(r"\s+keeping\s+", spec)
    if m:
        spec, keep = spec[: m.start()].strip(), spec[m.end() :]
    if keep is not None and back is not None:
        raise ConditionError("the back is given twice ('keeping' and back =)")
    keep = keep if keep is not None else back
    backs, royal = read_backs(keep) if keep is not None else (EVERY_BACK, False)
    words = spec.split()
    low = [w.lower() for w in words]
    if low in (["highest"], ["highest", "front"]):
        return Choice(Selector.HIGHEST_FRONT, backs=backs, royal=royal)
    if len(words) == 4 and low[0] == "highest" and low[2:] == ["or", "better"]:
        m = re.fullmatch(r"(.+)-high", words[1])
        if not m or m.group(1) not in RANK_WORDS:
            raise ConditionError(f"unknown front {text.strip()!r} (write: highest K-high or "
                                 "better)")  # fmt: skip
        return Choice(Selector.HIGHEST_FRONT, backs=backs, royal=royal,
                      least=RANK_WORDS[m.group(1)])  # fmt: skip
    if low == ["strongest", "back"]:
        return Choice(Selector.STRONGEST_BACK, backs=backs, royal=royal)
    if low == ["most", "points"]:
        return Choice(Selector.POINTS, backs=backs, royal=royal)
    if low == ["two", "highest", "singles"]:
        words = ["single1", "single2"]
    elif len(words) == 2 and low[0] == "pair":
        words = [words[1], words[1]]
    if len(words) != 2:
        raise ConditionError(f"unknown front {text.strip()!r} (write: pair RANK, RANK RANK, "
                             "two highest singles, highest, strongest back or most points; "
                             "then keeping BACK)")  # fmt: skip
    return Choice(Selector.RANKS, (_rank(words[0]), _rank(words[1])), backs, royal)


@dataclass(frozen=True)
class CanSet:
    """What ``can_set`` asks: a valid setting with a back of ``category`` or better (``royal``:
    a royal flush or better), with no joker in it if ``natural_back``; and, unless ``pair`` is
    None, a pair of that rank or better in front (with no joker if ``natural_front``)."""

    category: int
    royal: bool = False
    natural_back: bool = False
    pair: int | None = None
    natural_front: bool = False


def _natural(text: str) -> tuple[bool, list[str]]:
    words = text.split()
    natural = bool(words) and words[0] == "natural"
    return natural, words[1:] if natural else words


def read_can_set(text: str) -> CanSet:
    """``BACK[, FRONT]``: the back ``[natural] CATEGORY`` (that category or better) or
    ``[natural] royal_flush``; the front ``[natural] pair [RANK]``."""
    args = split_arguments(text)
    if len(args) > 2 or not args[0][0]:
        raise ConditionError(f"can_set takes a back and optionally a front, not {text!r}")
    (back, back_at), (front, front_at) = args[0], [*args, ("", len(text))][1]
    natural_back, words = _natural(back)
    if len(words) != 1:
        raise ConditionError(f"can_set: back {back!r}: write [natural] CATEGORY", back_at)
    if words[0] == ROYAL:
        category, royal = int(Category.STRAIGHT_FLUSH), True
    else:
        got = value_of(Kind.CATEGORY, words[0])
        if got is None:
            raise ConditionError(f"{words[0]!r} is not a five-card category (known: "
                                 f"{', '.join(CATEGORIES)}, {ROYAL})", back_at)  # fmt: skip
        category, royal = got, False
    natural_front, words = _natural(front)
    if not words:
        if natural_front:
            raise ConditionError("can_set: front 'natural': write natural pair [RANK]",
                                 front_at)  # fmt: skip
        return CanSet(category, royal, natural_back)
    if words[0] != "pair" or len(words) > 2:
        raise ConditionError(f"can_set: front {front!r}: write [natural] pair [RANK]", front_at)
    pair = 0
    if len(words) == 2:
        rank = value_of(Kind.RANK, words[1])
        if rank is None:
            raise ConditionError(f"can_set: {words[1]!r} is not a rank", front_at)
        pair = rank
    return CanSet(category, royal, natural_back, pair, natural_front)
