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
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numba import njit, prange

from enumerate.cards import Card, parse_cards
from enumerate.evaluate import SETTING_PAIRS, FiveCardTable, five_card_table
from enumerate.houseways.facts import NONE, hand_facts, highest_back
from enumerate.rules import Rules

FALLBACK = "fallback: the way gave no valid setting"


@dataclass(frozen=True)
class HouseWay:
    """A named rule book for setting hands."""

    name: str
    version: str
    description: str
    rules: tuple[str, ...]
    choose: Callable[..., Any] = field(repr=False, compare=False)
    module: ModuleType | None = field(default=None, repr=False, compare=False)

    @property
    def rule_names(self) -> tuple[str, ...]:
        """Names by rule id, the fallback last."""
        return (*self.rules, FALLBACK)

    @property
    def fingerprint(self) -> str:
        """Hash of the way's module source: part of the provenance of its caches."""
        if self.module is None:
            return "none"
        return hashlib.sha256(inspect.getsource(self.module).encode()).hexdigest()[:16]

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}#{self.fingerprint}"


_REGISTRY: dict[str, HouseWay] = {}


def register(way: HouseWay) -> HouseWay:
    """Add a way to the registry under its name (replacing one of the same name)."""
    _REGISTRY[way.name] = way
    return way


def get_way(name: str) -> HouseWay:
    """The registered way called ``name``; a clear error naming the known ways otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown house way {name!r} (known: {known})") from None


def registered_ways() -> list[HouseWay]:
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def _royal_id(table: FiveCardTable) -> int:
    return int(np.flatnonzero(table.category == 8).max())


@njit(cache=False, parallel=True)
def _apply(cards, ids5, max_low, category5, royal_id, n_rules, choose):
    n = cards.shape[0]
    setting = np.empty(n, dtype=np.int8)
    rule = np.empty(n, dtype=np.int8)
    high = np.empty(n, dtype=np.int16)
    low = np.empty(n, dtype=np.int8)
    for h in prange(n):
        f = hand_facts(cards[h].astype(np.int64), ids5, max_low, category5, royal_id)
        s, r = choose(f)
        if s == NONE or not f.valid[s]:
            s = highest_back(f, np.ones(21, dtype=np.bool_))
            r = n_rules
        setting[h] = s
        rule[h] = r
        high[h] = f.high[s]
        low[h] = f.low[s]
    return setting, rule, high, low


@dataclass(frozen=True)
class WayColumns:
    """A way's choice for many hands: setting index, rule id, back id and front id."""

    setting: np.ndarray
    rule: np.ndarray
    high: np.ndarray
    low: np.ndarray


def apply_way(way: HouseWay, cards: np.ndarray, rules: Rules | None = None) -> WayColumns:
    """Set every hand (rows of seven increasing card ids) the way ``way`` does."""
    t = five_card_table(rules)
    setting, rule, high, low = _apply(
        cards, t.ids, t.max_low, t.category, _royal_id(t), len(way.rules), way.choose
    )
    return WayColumns(setting, rule, high, low)


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
    rows = np.array([[c.id for c in ordered]], dtype=np.int64)
    col = apply_way(way, rows, rules)
    s = int(col.setting[0])
    i, j = SETTING_PAIRS[s]
    back = tuple(sorted((c for m, c in enumerate(ordered) if m not in (i, j)), reverse=True))
    return WaySetting(
        way=way.name,
        high=back,
        low=(ordered[j], ordered[i]),
        high_id=int(col.high[0]),
        low_id=int(col.low[0]),
        rule=way.rule_names[int(col.rule[0])],
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
