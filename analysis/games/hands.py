"""One seven-card hand as the rules read it: its 21 settings (names, rank ids, validity), its
Fortune class, its best five cards and the flags the variants and side bets look at
(``paigow hand``). Nothing here starts numba: one hand is read in plain Python.

>>> h = hand_report("Jk Kd 9c 7h 5s 3d 2c")
>>> h.description.name, h.description.ace_high_pai_gow, sum(s.valid for s in h.settings)
('nothing', True, 15)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from analysis.render.formats import markdown_cells, to_json
from analysis.render.notebook import ShowsAsHtml
from enumerate.cards import Card, parse_cards
from enumerate.classes import HandDescription, describe
from enumerate.evaluate import SettingValue, settings
from enumerate.rules import Rules


@dataclass(frozen=True)
class HandReport(ShowsAsHtml):
    """A hand, its description and its 21 settings (in ``SETTING_PAIRS`` order)."""

    cards: tuple[Card, ...]
    description: HandDescription
    settings: tuple[SettingValue, ...]

    @property
    def flags(self) -> list[str]:
        """The names of the hand's pai gow flags that hold."""
        d = self.description
        return [name for name, on in (
            ("pai gow", d.pai_gow), ("ace-high pai gow", d.ace_high_pai_gow),
            ("joker is the ace", d.joker_is_ace), ("queen-high pai gow", d.queen_high_pai_gow),
        ) if on]  # fmt: skip

    def by_strength(self) -> list[SettingValue]:
        """The settings, valid ones first, strongest high hand first."""
        return sorted(self.settings, key=lambda s: (s.valid, s.high_id, s.low_id), reverse=True)

    def render(self, fmt: str = "text") -> str:
        """Text (``paigow hand``), markdown or JSON."""
        d = self.description
        if fmt == "json":
            return to_json({
                "hand": _names(self.cards), "class": d.name, "best_five": d.best_five_name,
                "settings": [{"high": _names(s.high), "low": _names(s.low),
                              "high_id": s.high_id, "low_id": s.low_id, "valid": s.valid,
                              "high_name": s.high_name, "low_name": s.low_name}
                             for s in self.settings],
            }) + "\n"  # fmt: skip
        head = [f"hand: {' '.join(_names(self.cards))}",
                f"class: {d.name}; best five: {d.best_five_name}",
                f"flags: {', '.join(self.flags) or 'none'}; jacks: {d.jacks}"]  # fmt: skip
        if fmt == "md":
            rows = [[" ".join(_names(s.high)), str(s.high_id), " ".join(_names(s.low)),
                     str(s.low_id), "yes" if s.valid else "FOUL", s.high_name, s.low_name]
                    for s in self.by_strength()]  # fmt: skip
            table = markdown_cells(["high hand", "id", "low", "id", "valid", "high name",
                                    "low name"], rows, [False, True, False, True, False,
                                                        False, False])  # fmt: skip
            return "  \n".join(head) + "\n\n" + table + "\n"
        if fmt != "text":
            raise ValueError(f"format {fmt!r}: expected text, md or json")
        columns = f"{'high hand':<16} {'id':>4}  {'low':<6} {'id':>2}  {'valid':<5}  names"
        lines = [*head, "", columns]
        for s in self.by_strength():
            lines.append(
                f"{' '.join(_names(s.high)):<16} {s.high_id:>4}  "
                f"{' '.join(_names(s.low)):<6} {s.low_id:>2}  {'yes' if s.valid else 'FOUL':<5}"
                f"  {s.high_name} / {s.low_name}"
            )
        return "\n".join(lines) + "\n"


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def hand_report(cards: Sequence[Card] | str, rules: Rules | None = None) -> HandReport:
    """The description and the 21 settings of seven cards (a one-line ``ValueError`` for a
    bad card or count)."""
    hand = parse_cards(cards, count=7)
    return HandReport(tuple(hand), describe(hand, rules), tuple(settings(hand, rules)))
