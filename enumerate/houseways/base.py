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
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numba import njit

from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SETTING_PAIRS, FiveCardTable, five_card_table
from enumerate.houseways.facts import NONE, hand_facts, highest_back
from enumerate.rules import Rules
from enumerate.runtime.inpython import in_python
from enumerate.runtime.threads import over_ranges

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


_REGISTRY: dict[str, HouseWay] = {}


def register(way: HouseWay) -> HouseWay:
    """Add a way to the registry under its name (replacing one of the same name)."""
    if "[" in way.name or "]" in way.name:
        raise ValueError(f"house way names hold no brackets: {way.name!r}")
    _REGISTRY[way.name] = way
    return way


def _parse_choices(name: str, inner: str) -> dict[str, str]:
    choices: dict[str, str] = {}
    for item in inner.split(",") if inner.strip() else ():
        cid, eq, alternative = (x.strip() for x in item.partition("="))
        if not eq or not cid or not alternative:
            raise ValueError(f"bad house way name {name!r}: write way[clause=reading,...]")
        if cid in choices:
            raise ValueError(f"clause {cid!r} given twice in {name!r}")
        choices[cid] = alternative
    return choices


def get_way(name: str, readings: Mapping[str, str] | None = None) -> HouseWay:
    """The registered way called ``name``, or the rule card of the file ``name`` (a path
    ending in ``.toml``, registered by the card's name); a clear error naming the known ways
    otherwise.

    ``name`` may choose readings of the way's clauses, ``"gli[two-pair=or]"``, and so may
    ``readings`` (clause id -> alternative, over those of the name). The way returned is named
    canonically: clauses in the order of the card, those the registered way reads alike left
    out.

    >>> get_way("gli[complete-pairs=two-only, two-pair=or]").name
    'gli[two-pair=or,complete-pairs=two-only]'
    >>> get_way("gli", {"two-pair": "or"}) == get_way("gli[two-pair=or]")
    True
    """
    base_name, bracket, rest = name.partition("[")
    base_name = base_name.strip()
    if base_name.endswith(".toml"):  # a rule card's file: read, and registered by its name
        base_name = _card_file_way(base_name)
    try:
        base = _REGISTRY[base_name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown house way {base_name!r} (known: {known})") from None
    choices: dict[str, str] = {}
    if bracket:
        inner, close, tail = rest.partition("]")
        if not close or tail.strip():
            raise ValueError(f"bad house way name {name!r}: write way[clause=reading,...]")
        choices = _parse_choices(name, inner)
    choices.update(readings or {})
    if not choices:
        return base
    if not base.clauses:
        raise ValueError(f"house way {base.name!r} has no readings to choose")
    own = dict(base.reading)
    reading = resolve_reading(base.clauses, choices, own, base.name)
    changed = tuple((cid, alt) for cid, alt in reading if alt != own[cid])
    if not changed:
        return base
    assert base.build is not None  # checked by HouseWay
    if base.program is not None:  # a rule card: its build makes the whole way
        way: HouseWay = base.build(dict(reading))
        return way
    rules, choose, params = base.build(dict(reading))
    return HouseWay(
        f"{base.name}[{spell_reading(changed)}]", base.version, base.description, rules,
        choose, base.module, base.clauses, reading, base.build, params, base.clauses_read,
        base.kernel if choose is base.choose else None,
    )  # fmt: skip


_CARD_FILES: dict[str, tuple[tuple[int, int], HouseWay]] = {}  # path -> (its stat, its way)


def _card_file_way(path: str) -> str:
    """Register the rule card of the file ``path`` and give its way's name; a file read before
    and unchanged since (same size and time) is not read and compiled again."""
    from enumerate.houseways.cards import card_way, read_card

    try:
        st = os.stat(path)
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (-1, -1)  # read_card says what is wrong with it
    seen = _CARD_FILES.get(path)
    if seen is not None and seen[0] == stamp and _REGISTRY.get(seen[1].name) is seen[1]:
        return seen[1].name
    way = register(card_way(read_card(path)))
    _CARD_FILES[path] = (stamp, way)
    return way.name


def split_way_names(text: str) -> list[str]:
    """The way names of a comma-separated list, keeping the commas between the brackets of a
    reading (for options such as ``--ways``).

    >>> split_way_names("gli, gli[two-pair=or,complete-pairs=two-only],trump-plaza")
    ['gli', 'gli[two-pair=or,complete-pairs=two-only]', 'trump-plaza']
    """
    names, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth <= 0:
            names.append(text[start:i].strip())
            start, depth = i + 1, 0
    return [n for n in names if n]


def registered_ways() -> list[HouseWay]:
    """The registered ways (by their plain names: no readings chosen)."""
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def readings_of(way: HouseWay | str) -> tuple[tuple[Clause, str], ...]:
    """Each named clause of ``way`` with the alternative it takes (none for a way without
    named readings).

    >>> [(c.id, a) for c, a in readings_of("gli[two-pair=or]") if c.rule == "5"]
    [('two-pair', 'or')]
    """
    way = get_way(way) if isinstance(way, str) else way
    chosen = dict(way.reading)
    return tuple((c, chosen[c.id]) for c in way.clauses)


def royal_id(table: FiveCardTable) -> int:
    return int(np.flatnonzero(table.category == 8).max())


# The kernels: ``set_range`` for a ``choose(f)``, ``set_range_read`` for a ``choose(f, params)``
# and one or more readings; they set the hands ``lo <= h < hi`` and run in threads
# (``enumerate.runtime.threads``). Each takes the way's ``choose`` as an argument, which keeps it
# out of numba's disk cache (the argument's type is the function object, new in every process): a
# long compile in every process that sets hands. A module way may give a kernel of its own that
# calls one of these with its ``choose`` read as an attribute of its module (``HouseWay.kernel``:
# cached, compiled once per checkout); a way without one is set by these directly. Rule cards
# need neither: one cached kernel runs every card (``interpreter.set_range_cards``).


@njit(inline="always")
def _facts(cards, h, ids5, max_low, category5, royal_id):
    return hand_facts(cards[h].astype(np.int64), ids5, max_low, category5, royal_id)


@njit(cache=True)
def settle(f, s, r, n_rules):
    """The (setting, rule id) a way's choice ``(s, r)`` for the hand of facts ``f`` stands
    for: a setting that is not valid (or ``NONE``) becomes the strongest back, by the fallback
    rule ``n_rules`` (numba; the kernels and ``set_hand`` share it)."""
    if s == NONE or not f.valid[s]:
        return highest_back(f, np.ones(21, dtype=np.bool_)), n_rules
    return s, r


@njit(inline="always")
def _store(f, s, r, n_rules, h, setting, rule, high, low):
    """Write setting ``s`` by rule ``r`` for hand ``h`` (``settle``d)."""
    s, r = settle(f, s, r, n_rules)
    setting[h] = s
    rule[h] = r
    high[h] = f.high[s]
    low[h] = f.low[s]


@njit(cache=False, nogil=True)
def set_range(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, choose, setting, rule,
               high, low):  # fmt: skip
    for h in range(lo, hi):
        f = _facts(cards, h, ids5, max_low, category5, royal_id)
        s, r = choose(f)
        _store(f, s, r, n_rules, h, setting, rule, high, low)


@njit(cache=False, nogil=True)
def set_range_read(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, choose,
                    clauses_read, params, same, setting, rule, high, low):  # fmt: skip
    """Every reading of ``params`` (a row each, with its ``n_rules``) of one way at once: a
    hand's facts are worked out once for all of them, and a reading that agrees with an
    earlier one on every clause the hand's rule reads (``clauses_read(f)``; ``same``, from
    ``_same_readings``) copies that one's setting instead of setting the hand again."""
    every = same.shape[0] - 1  # all the clauses' bits
    for h in range(lo, hi):
        f = _facts(cards, h, ids5, max_low, category5, royal_id)
        read = clauses_read(f) & every
        for k in range(params.shape[0]):
            j = same[read, k]
            if j == k:
                s, r = choose(f, params[k])
                s, r = settle(f, s, r, n_rules[k])
            else:  # reading j's setting, by its rule (or by this reading's fallback)
                s, r = setting[h, j], rule[h, j]
                if r == n_rules[j]:
                    r = n_rules[k]
            setting[h, k] = s
            rule[h, k] = r
            high[h, k] = f.high[s]
            low[h, k] = f.low[s]


@njit(cache=True)
def every_clause(f):
    """``clauses_read`` of a way that says nothing of its readings: a hand may read them all."""
    return np.int64(-1)


MAX_BATCH_CLAUSES = 12  # ``_same_readings`` has a row per subset of the clauses


def _same_readings(params: np.ndarray) -> np.ndarray:
    """``same[m, k]``: the first reading (row of ``params``) that agrees with reading k on
    every clause of the bits ``m``; ``k`` itself when no earlier one does.

    >>> _same_readings(np.array([[0, 0], [1, 0], [0, 1]])).tolist()
    [[0, 0, 0], [0, 1, 0], [0, 0, 2], [0, 1, 2]]
    """
    n, q = params.shape
    if q > MAX_BATCH_CLAUSES:
        raise ValueError(f"a batch of readings of {q} clauses (at most {MAX_BATCH_CLAUSES})")
    same = np.empty((1 << q, n), dtype=np.int64)
    for m in range(1 << q):
        keys = [tuple(row[[c for c in range(q) if m >> c & 1]]) for row in params]
        first: dict[tuple[int, ...], int] = {}
        same[m] = [first.setdefault(key, k) for k, key in enumerate(keys)]
    return same


@dataclass(frozen=True)
class WayColumns:
    """A way's choice for many hands: setting index, rule id, back id and front id."""

    setting: np.ndarray
    rule: np.ndarray
    high: np.ndarray
    low: np.ndarray


def _way_columns(n: int, readings: int) -> tuple[np.ndarray, ...]:
    """Empty (setting, rule, high, low) columns: a row per hand, its readings side by side."""
    shape = (n, readings)
    return (np.empty(shape, dtype=np.int8), np.empty(shape, dtype=np.int8),
            np.empty(shape, dtype=np.int16), np.empty(shape, dtype=np.int8))  # fmt: skip


def apply_way(way: HouseWay, cards: np.ndarray, rules: Rules | None = None) -> WayColumns:
    """Set every hand (rows of seven increasing card ids) the way ``way`` does."""
    return apply_ways([way], cards, rules)[0]


def apply_ways(ways: Sequence[HouseWay], cards: np.ndarray,
               rules: Rules | None = None) -> list[WayColumns]:  # fmt: skip
    """``apply_way`` of each way; the readings of one way (the ways with ``params`` sharing a
    ``choose``) in one pass over the hands (``set_range_read``), each by its way's own kernel
    when it has one (``HouseWay.kernel``)."""
    t = five_card_table(rules)
    n = cards.shape[0]
    table = (cards, t.ids, t.max_low, t.category, royal_id(t))
    out: dict[int, WayColumns] = {}
    batches: dict[int, list[int]] = {}
    cards_at = [i for i, way in enumerate(ways) if way.program is not None]
    if cards_at:  # every rule card in one pass: the facts of a hand worked out once
        from enumerate.houseways.interpreter import batch, set_range_cards

        progs, same, remap = batch([ways[i].program for i in cards_at],  # type: ignore[misc]
                                   [ways[i].rules for i in cards_at])  # fmt: skip
        n_rules = np.array([len(ways[i].rules) for i in cards_at], dtype=np.int64)
        cols = _way_columns(n, len(cards_at))
        over_ranges(set_range_cards, n, *table, n_rules, progs, same, remap, *cols)
        for k, i in enumerate(cards_at):
            out[i] = WayColumns(*(np.ascontiguousarray(c[:, k]) for c in cols))
    for i, way in enumerate(ways):
        if way.program is not None:
            continue
        if way.params is None:
            one = [c[:, 0] for c in _way_columns(n, 1)]
            if way.kernel is not None:
                over_ranges(way.kernel, n, *table, len(way.rules), *one)
            else:
                over_ranges(set_range, n, *table, len(way.rules), way.choose, *one)
            out[i] = WayColumns(*one)
        else:
            batches.setdefault(id(way.choose), []).append(i)
    for members in batches.values():
        first = ways[members[0]]
        params = np.array([ways[i].params for i in members], dtype=np.int64)
        n_rules = np.array([len(ways[i].rules) for i in members], dtype=np.int64)
        cols = _way_columns(n, len(members))
        same = _same_readings(params)
        if first.kernel is not None:
            over_ranges(first.kernel, n, *table, n_rules, params, same, *cols)
        else:
            over_ranges(set_range_read, n, *table, n_rules, first.choose,
                        first.clauses_read or every_clause, params, same, *cols)  # fmt: skip
        for k, i in enumerate(members):
            out[i] = WayColumns(*(np.ascontiguousarray(c[:, k]) for c in cols))
    return [out[i] for i in range(len(ways))]


@dataclass(frozen=True)
class WaySetting:
    """How a way sets one hand."""

    way: str
    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_id: int
    low_id: int
    rule: str


def set_hand(way: HouseWay, cards: Any, rules: Rules | None = None) -> WaySetting:
    """Set one seven-card hand by ``way``.

    >>> from enumerate.houseways import get_way
    >>> s = set_hand(get_way("max-back"), "As Ks Qs Js Ts 2c 3d")
    >>> " ".join(map(str, s.low))
    '3d 2c'
    """
    hand = parse_cards(cards, count=7)
    ordered = sorted(hand)
    t = five_card_table(rules)
    # one hand: the facts and the way's choose called from Python, not ``apply_way``, whose
    # kernels take ``choose`` as an argument and so compile in every process; and
    # run as Python (``in_python``): starting numba's JIT would take longer than the hand
    f = in_python(hand_facts)(np.array([c.id for c in ordered], dtype=np.int64), t.ids,
                              t.max_low, t.category, royal_id(t))  # fmt: skip
    choose = in_python(way.choose)
    if way.program is not None:
        from enumerate.houseways.interpreter import N_FACTS, STACK

        s, r = choose(f, np.array(way.program, dtype=np.int64), np.empty(N_FACTS, np.int64),
                      np.empty(STACK, np.int64))
        if r < 0:
            s = NONE
    elif way.params is None:
        s, r = choose(f)
    else:
        s, r = choose(f, np.array(way.params, dtype=np.int64))
    s, r = (int(x) for x in in_python(settle)(f, s, r, len(way.rules)))
    i, j = SETTING_PAIRS[s]
    back = tuple(sorted((c for m, c in enumerate(ordered) if m not in (i, j)), reverse=True))
    return WaySetting(
        way=way.name,
        high=back,
        low=(ordered[j], ordered[i]),
        high_id=int(f.high[s]),
        low_id=int(f.low[s]),
        rule=way.rule_names[r],
    )


def import_file(name: str, path: str) -> ModuleType:
    """Import the Python file ``path`` as module ``name`` (kept in ``sys.modules``: numba and
    inspect look modules up by name); a module that fails to run is not kept."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError("not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
