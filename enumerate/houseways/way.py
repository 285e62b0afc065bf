"""House ways: rule books that set a seven-card hand, registered by name.

A house way is a module of small rule functions compiled by numba, one per numbered rule of its
rule card, and a ``choose(f)`` function that reads a hand's ``HandFacts`` and returns
``(setting, rule_id)``: the setting index 0..20 (``enumerate.evaluate.SETTING_PAIRS``) and the
index of the rule that fired in the way's ``rules`` tuple of names.

To add a way, write such a module and register it::

    from enumerate.houseways import HouseWay, register
    from mypackage import my_way

    register(HouseWay("my-way", "1", "what it is", my_way.RULES, my_way.choose, my_way))

A setting a way returns that is not valid (or ``NONE``) is replaced by the valid setting with
the strongest back and counted under the extra rule name ``FALLBACK``: a correct way never
triggers it, and the tests check that.

Readings. Where a rule card is terse, a way may name its ambiguous clauses (``Clause``: an id,
the clause in one line, its alternatives and the literal reading) and register with the reading
it uses by default and a ``build(reading) -> (rule names, choose, params)``. Another reading is
then a way of its own, named ``way[clause=alternative,...]``::

    get_way("gli[two-pair=or]")                  # or get_way("gli", {"two-pair": "or"})
    get_way("gli[two-pair=high-sevens,complete-two-pair=singleton-ace]")

The name is canonical (clauses in the card's order, the way's own readings left out: plain
``gli`` reads ``two-pair=high-sevens``, so ``gli[two-pair=high-sevens]`` is ``gli``, while the
literal reading ``gli[two-pair=and]`` is a way of its own)
and the reading is part of the way's ``fingerprint`` and ``key``, so caches of different
readings never mix.
``readings_of(way)`` lists each clause with the alternative the way takes.

A way with ``params`` (a tuple of ints, e.g. the encoding of its reading) has a
``choose(f, params)`` instead: ``apply_way`` passes them at run time, so the ways sharing one
``choose`` (every reading of ``gli``) share one compiled kernel, and a new reading compiles
nothing.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

FALLBACK = "fallback: the way gave no valid setting"

Reading = tuple[tuple[str, str], ...]
"""A reading of a rule card: ``(clause id, alternative)`` for each of its clauses, in order."""


@dataclass(frozen=True)
class Clause:
    """An ambiguous clause of a rule card and the ways its words can be read.

    >>> c = Clause("pair", "2", "a pair", (("exact", "held twice"), ("trips", "or 3")), "exact")
    >>> c.names, c.meaning("trips")
    (('exact', 'trips'), 'or 3')
    """

    id: str
    rule: str  # the rule of the card it belongs to, e.g. "5"
    text: str  # the clause, in one line
    alternatives: tuple[tuple[str, str], ...]  # (name, what the clause then means, one line)
    literal: str  # the alternative that reads the words as they stand

    def __post_init__(self) -> None:
        if len(set(self.names)) != len(self.names) or self.literal not in self.names:
            raise ValueError(f"clause {self.id!r}: alternatives {self.names}, literal "
                             f"{self.literal!r}")  # fmt: skip

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.alternatives)

    def meaning(self, alternative: str) -> str:
        return dict(self.alternatives)[alternative]


def resolve_reading(
    clauses: Sequence[Clause],
    choices: Mapping[str, str],
    start: Mapping[str, str] | None = None,
    way: str = "",
) -> Reading:
    """The reading taking ``choices`` (clause id -> alternative) and, for every other clause,
    its alternative in ``start`` (by default the literal one), in the order of ``clauses``; a
    one-line ``ValueError`` naming the clause and its alternatives for an unknown one."""
    of = f" of house way {way!r}" if way else ""
    by_id = {c.id: c for c in clauses}
    for cid, alternative in choices.items():
        clause = by_id.get(cid)
        if clause is None:
            raise ValueError(f"unknown clause {cid!r}{of} (clauses: {', '.join(by_id)})")
        if alternative not in clause.names:
            raise ValueError(f"unknown reading {alternative!r} of clause {cid!r}{of} "
                             f"(readings: {', '.join(clause.names)})")  # fmt: skip
    start = start or {}
    return tuple((c.id, choices.get(c.id, start.get(c.id, c.literal))) for c in clauses)


def spell_reading(reading: Reading) -> str:
    """``clause=alternative,...``, as in a way's name."""
    return ",".join(f"{cid}={alternative}" for cid, alternative in reading)


WayBuilder = Callable[[Mapping[str, str]], Any]
"""A way's ``build``: a reading (every clause id -> alternative) -> (rule names, choose,
params): ``choose(f)`` when params is None, else ``choose(f, params)``; a rule card's build
gives the whole ``HouseWay`` of the reading."""


@dataclass(frozen=True)
class HouseWay:
    """A named rule book for setting hands.

    A way with named readings has ``clauses``, its ``reading`` of each (in their order) and
    ``build``, which makes the way of another reading (see ``get_way``). A way with ``params``
    sets a hand by ``choose(f, params)`` (the params array passed at run time), else by
    ``choose(f)``."""

    name: str
    version: str
    description: str
    rules: tuple[str, ...]
    choose: Callable[..., Any] = field(repr=False, compare=False)
    module: ModuleType | None = field(default=None, repr=False, compare=False)
    clauses: tuple[Clause, ...] = field(default=(), repr=False, compare=False)
    reading: Reading = ()
    build: WayBuilder | None = field(default=None, repr=False, compare=False)
    params: tuple[int, ...] | None = None
    # numba ``clauses_read(f)``: the clauses (bit q: ``params[q]``) that setting the hand of
    # facts ``f`` may read, so readings that agree on them set it alike (None: every clause)
    clauses_read: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    # a kernel of the way's module setting hands by its ``choose`` (and ``clauses_read``):
    # ``set_range`` or ``set_range_read`` without those arguments, which numba can cache
    kernel: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    # a rule card: its compiled program (``interpreter``), run by one kernel for every card,
    # and the card's text, hashed into the provenance of the way's caches
    program: tuple[int, ...] | None = field(default=None, repr=False)
    text: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.params is not None and not all(
            isinstance(x, int) and not isinstance(x, bool) for x in self.params
        ):
            raise ValueError(f"house way {self.name!r}: params must be a tuple of ints")
        if self.clauses or self.reading:
            full = resolve_reading(self.clauses, dict(self.reading), way=self.name)
            if full != tuple(self.reading) or self.build is None:
                raise ValueError(f"house way {self.name!r}: its reading must name each clause "
                                 "once, in order, and it needs a build")  # fmt: skip

    @property
    def rule_names(self) -> tuple[str, ...]:
        """Names by rule id, the fallback last."""
        return (*self.rules, FALLBACK)

    @property
    def fingerprint(self) -> str:
        """Hash of the way's module source and of its reading: part of the provenance of its
        caches."""
        if self.module is None and not self.reading and not self.text:
            return "none"
        h = hashlib.sha256(inspect.getsource(self.module).encode() if self.module else b"")
        h.update(self.text.encode())
        if self.reading:
            h.update(f"\nreading: {spell_reading(self.reading)}".encode())
        return h.hexdigest()[:16]

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}#{self.fingerprint}"
