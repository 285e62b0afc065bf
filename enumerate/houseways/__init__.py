"""House ways by name: ``get_way("gli")``, ``register(HouseWay(...))``."""

from enumerate.houseways import max_back
from enumerate.houseways.base import (
    FALLBACK,
    HouseWay,
    WayColumns,
    WaySetting,
    apply_way,
    get_way,
    register,
    registered_ways,
    set_hand,
)

register(HouseWay("max-back", "1", "example: strongest back, then front", max_back.RULES,
                  max_back.choose, max_back))  # fmt: skip

__all__ = [
    "FALLBACK",
    "HouseWay",
    "WayColumns",
    "WaySetting",
    "apply_way",
    "get_way",
    "register",
    "registered_ways",
    "set_hand",
]
