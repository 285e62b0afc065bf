"""The shipped house ways written as numba modules from the same rule texts as their cards
(``data/ways``): an independent implementation each, which the tests compare with the cards on
every class of reduced decks (``tests/test_cards.py``) and the benchmarks on the full deck.

``reference_way(name)`` registers nothing: it returns a ``HouseWay`` named after the module
(``"gli"``, ``"trump-plaza"``, ...) with a reading of gli if asked for, for ``apply_way``.
"""

from __future__ import annotations

from collections.abc import Mapping

from enumerate.houseways.way import HouseWay, resolve_reading, spell_reading
from tests.reference_ways import cached, foxwoods, gli, max_back, trump_plaza


def reference_way(name: str, reading: Mapping[str, str] | None = None) -> HouseWay:
    """The module way ``name``, of the gli reading ``reading`` (over gli's default)."""
    if name == "gli":
        full = resolve_reading(gli.CLAUSES, dict(reading or {}), gli.DEFAULT, "gli")
        changed = tuple((c, a) for c, a in full if a != gli.DEFAULT[c])
        label = f"gli[{spell_reading(changed)}]" if changed else "gli"
        rules, choose, params = gli.parts(dict(full))
        return HouseWay(label, "module", "gli, the module", rules, choose, gli, gli.CLAUSES,
                        full, gli.parts, params, gli.clauses_read, cached.set_gli)  # fmt: skip
    module, kernel = {
        "trump-plaza": (trump_plaza, cached.set_trump_plaza),
        "foxwoods": (foxwoods, cached.set_foxwoods),
        "max-back": (max_back, cached.set_max_back),
    }[name]
    return HouseWay(name, "module", f"{name}, the module", module.RULES, module.choose, module,
                    kernel=kernel)  # fmt: skip


def module_ids(card: HouseWay, module_rules: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """Each rule id of ``card`` (the fallback last) as the id of the rule of the same name in
    ``module_rules``, so that checks written with a module's rule ids read a card's columns."""
    import numpy as np

    return np.array([module_rules.index(n) for n in card.rules] + [len(module_rules)])
