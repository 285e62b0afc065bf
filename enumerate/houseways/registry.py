"""The registry of house ways by name: ``register``, ``get_way`` (a name, a name with a reading
in brackets, or the path of a rule card file), ``registered_ways``, ``readings_of``; and
``import_file`` for a way module given by its path."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from types import ModuleType

from enumerate.houseways.cards import card_way, read_card
from enumerate.houseways.way import Clause, HouseWay, resolve_reading, spell_reading

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
