"""House ways by name: ``get_way("gli")``, ``get_way("gli[two-pair=or]")`` (a named reading),
``register(HouseWay(...))``.

The shipped ways are the rule cards of ``data/ways`` (``enumerate.houseways.cards``), registered
under their names; a module of numba rule functions (``--way-module``) registers its own.
"""

from enumerate.houseways.apply import WayColumns, WaySetting, apply_way, apply_ways, set_one_hand
from enumerate.houseways.cards import card_way, shipped_cards
from enumerate.houseways.registry import (
    get_way,
    readings_of,
    register,
    registered_ways,
    split_way_names,
)
from enumerate.houseways.way import FALLBACK, Clause, HouseWay

for _card in shipped_cards():
    register(card_way(_card))

__all__ = [
    "FALLBACK",
    "Clause",
    "HouseWay",
    "WayColumns",
    "WaySetting",
    "apply_way",
    "apply_ways",
    "get_way",
    "readings_of",
    "register",
    "registered_ways",
    "set_one_hand",
    "split_way_names",
]
