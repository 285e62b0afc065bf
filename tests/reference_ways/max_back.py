"""A minimal example way, ``max-back``: the strongest back hand, then the strongest front.

It is no casino's house way; it shows how a user-defined way is written and registered, and
serves as a simple reference in tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from enumerate.houseways.facts import highest_back

RULES = ("strongest back, then strongest front",)


@njit(cache=True)
def strongest_back(f):
    """Put the strongest five-card hand in back; among those, the strongest front."""
    return highest_back(f, np.ones(21, dtype=np.bool_))


@njit(cache=True)
def choose(f):
    return strongest_back(f), 0
