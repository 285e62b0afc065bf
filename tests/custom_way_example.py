"""A user-defined house way, ``pair-in-front``: the example of docs/extending.md, "A house way".

Load it with ``paigow --way-module tests/custom_way_example.py ...`` or
``PAIGOW_WAY_MODULES=tests/custom_way_example.py``; importing it registers the way.
"""

import sys

import numpy as np
from numba import njit

from enumerate.houseways import HouseWay, register
from enumerate.houseways.facts import NONE, by_front_ranks, highest_back

RULES = (
    "1. the highest pair the back still beats goes in front",
    "2. no pair can go in front: strongest back, then strongest front",
)


@njit
def highest_pair_in_front(f):
    """Rule 1: put in front the highest pair (from a pair, trips or quads; the joker pairs an
    ace) whose setting is valid; NONE when no pair can go in front."""
    for rank in range(12, -1, -1):
        if f.counts[rank] >= 2:
            s = by_front_ranks(f, rank, rank)  # valid settings only, strongest back
            if s != NONE:
                return s
    return NONE


@njit
def strongest_back(f):
    """Rule 2: the strongest five-card hand in back; among those, the strongest front."""
    return highest_back(f, np.ones(21, dtype=np.bool_))


@njit
def choose(f):
    """(setting, rule id): rule ids index RULES."""
    s = highest_pair_in_front(f)
    if s != NONE:
        return s, 0
    return strongest_back(f), 1


register(
    HouseWay(
        "pair-in-front",
        "1",
        "example: highest pair in front, else strongest back",
        RULES,
        choose,
        sys.modules[__name__],  # its source is hashed into the provenance of its caches
    )
)
