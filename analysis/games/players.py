"""How the player sets his hands: the player modes every return table is priced for.

>>> Player("best-response") is Player.BEST_RESPONSE, Player.OPTIMAL == "optimal"
(True, True)
>>> [p.value for p in Player]
['house-way', 'best-response', 'optimal', 'banking', 'banking-optimal']
"""

from __future__ import annotations

from enum import StrEnum


class Player(StrEnum):
    """A player mode. Its value is the name the command line and the reports use."""

    HOUSE_WAY = "house-way"
    """Sets every hand by a house way without seeing the dealer's (blind)."""
    BEST_RESPONSE = "best-response"
    """Sees the dealer's setting and picks his best non-dominated setting (exposed games)."""
    OPTIMAL = "optimal"
    """Sets every hand blind with the highest exact EV against the house way (the optimal
    strategy, from the per-hand table)."""
    BANKING = "banking"
    """Banks against one opponent who sets by the house way; the banker sets by it too."""
    BANKING_OPTIMAL = "banking-optimal"
    """Banks against one opponent who sets by the house way; the banker sets every hand for
    his highest exact EV against that opponent."""

    @property
    def describe(self) -> str:
        """One line for a return table's heading."""
        return _TEXT[self]


_TEXT = {
    Player.HOUSE_WAY: "sets every hand by the house way, without seeing the dealer",
    Player.BEST_RESPONSE: "sees the dealer's setting and picks the best non-dominated setting",
    Player.OPTIMAL: "sets every hand blind with the highest exact EV (the optimal strategy)",
    Player.BANKING: "banks against one opponent; both set by the house way",
    Player.BANKING_OPTIMAL: "banks against one opponent; the banker sets for his highest EV",
}
