"""House ways by name: ``get_way("gli")``, ``get_way("gli[two-pair=or]")`` (a named reading),
``register(HouseWay(...))``."""

from enumerate.houseways import cached, foxwoods, gli, max_back, trump_plaza
from enumerate.houseways.base import (
    FALLBACK,
    Clause,
    HouseWay,
    WayColumns,
    WaySetting,
    apply_way,
    apply_ways,
    get_way,
    readings_of,
    register,
    registered_ways,
    set_hand,
    split_way_names,
)

# gli sets hands by choose_read and its reading's params, so plain gli and every other reading
# share one compiled kernel
register(HouseWay("gli", "1", "reference way of the dealer-open game's math report (docs/rules.md)",
                  gli.RULES, gli.choose_read, gli, gli.CLAUSES, gli.reading(), gli.parts,
                  tuple(gli.reading_params().tolist()), gli.clauses_read,
                  cached.set_gli))  # fmt: skip
register(HouseWay("trump-plaza", "1", "Trump Plaza, Atlantic City, from its gaming guide",
                  trump_plaza.RULES, trump_plaza.choose, trump_plaza,
                  kernel=cached.set_trump_plaza))  # fmt: skip
register(HouseWay("foxwoods", "1", "Foxwoods, from its rule card (the 2013 exact analysis)",
                  foxwoods.RULES, foxwoods.choose, foxwoods,
                  kernel=cached.set_foxwoods))  # fmt: skip
register(HouseWay("max-back", "1", "example: strongest back, then front", max_back.RULES,
                  max_back.choose, max_back, kernel=cached.set_max_back))  # fmt: skip

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
    "set_hand",
    "split_way_names",
]
