"""Rule cards: a house way (or a player's strategy) written as a TOML file and priced like any
way. ``docs/cards.md`` describes the format; ``load_card`` reads and checks one, and the shipped
cards in ``data/ways/`` register under their names when ``enumerate.houseways`` is imported.

A card is a title, its source and notes, optional named clauses whose readings a rule may
quote, and an ordered list of rules, each with the card's own number and words, a condition
(``when``) and the setting it makes (``front``, optionally ``back``); a card whose front is
``most points`` gives its points chart (``points``)::

    name = "my-way"
    title = "My casino"
    source = "the card posted at the tables"

    [[rule]]
    id = "3"
    text = "two pair, both low: kept together with an ace"
    when = "two_pair and pair1 <= 6 and singleton_ace"
    front = "two highest singles"

The first rule whose condition holds sets the hand. A clause names the readings of an ambiguous
phrase; a rule quotes the chosen reading as ``{clause-id}``::

    [[clause]]
    id = "two-pair"
    rule = "5"
    text = "both pairs sevens or better and no singleton ace"
    literal = "and"
    default = "and"
    [clause.readings]
    and = { means = "both 7+, and no singleton ace", when = "pair2 >= 7 and not singleton_ace" }
    or = { means = "both 7+, or no singleton ace", when = "pair2 >= 7 or not singleton_ace" }

Every mistake in a card is one line naming the file, the rule and what is wrong: a
``ConditionError`` for a condition or a front (with its column), a ``CardError`` for the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from enumerate.conditions import CARD, ConditionError, read
from enumerate.conditions.settings import read_front
from enumerate.datafile import parse_toml, read_text, text_field
from enumerate.errors import CardError
from enumerate.houseways.interpreter import run_card
from enumerate.houseways.points import Points, read_points
from enumerate.houseways.program import compile_card
from enumerate.houseways.way import Clause, HouseWay, resolve_reading, spell_reading
from enumerate.paths import data_dir

WAY_DIR = data_dir() / "ways"
CARD_FIELDS = {"name", "version", "title", "source", "notes", "rule", "clause", "kind",
               "points"}  # fmt: skip
RULE_FIELDS = {"id", "text", "when", "front", "back"}
CLAUSE_FIELDS = {"id", "rule", "text", "literal", "default", "readings"}
KINDS = ("house way", "strategy")
_QUOTE = re.compile(r"\{([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_-]+))?\}")
_DEPTH = 5  # quotes inside quoted fragments, at most this deep


_text = partial(text_field, CardError)


@dataclass(frozen=True)
class CardRule:
    """One rule of a card: the card's number and words, the condition and the setting."""

    id: str
    text: str
    when: str
    front: str
    back: str | None = None

    @property
    def name(self) -> str:
        """The rule's name in way tables and reports: ``"3. two pair ..."`` for a numbered
        rule, ``"two pair: ..."`` for a card that names its sections."""
        return _rule_name(self.id, self.text)


def _rule_name(rule_id: str, text: str) -> str:
    if not rule_id:
        return text
    return f"{rule_id}. {text}" if re.fullmatch(r"\d+[a-z]?", rule_id) else f"{rule_id}: {text}"


@dataclass(frozen=True)
class Card:
    """A rule card as read from its file."""

    path: str
    name: str
    version: str
    title: str
    source: str
    notes: str
    kind: str
    rules: tuple[CardRule, ...]
    clauses: tuple[Clause, ...]
    readings: Mapping[str, Mapping[str, Mapping[str, str]]]  # clause -> reading -> fields
    default: tuple[tuple[str, str], ...]
    text: str  # the file, for the fingerprint of the way's caches
    points: Points | None = None  # the chart a front "most points" reads

    def quote(self, text: str, field: str, reading: Mapping[str, str], where: str) -> str:
        """``text`` with each ``{clause}`` (its reading's ``field``) and ``{clause.key}`` (its
        reading's ``key``) replaced by the fragment of ``reading``; a condition's fragment in
        parentheses."""
        def one(m: re.Match[str]) -> str:
            cid, part = m.group(1), m.group(2) or field
            if cid not in self.readings:
                raise CardError(f"{where}: unknown clause {{{cid}}} (clauses: "
                                f"{', '.join(self.readings) or 'none'})")  # fmt: skip
            got = self.readings[cid][reading[cid]].get(part)
            if got is None:
                raise CardError(f"{where}: reading {reading[cid]!r} of clause {cid!r} has no "
                                f"{part!r}")  # fmt: skip
            return f"({got})" if field == "when" else got

        for _ in range(_DEPTH):
            quoted = _QUOTE.sub(one, text)
            if quoted == text:
                return text
            text = quoted
        raise CardError(f"{where}: clauses quote each other more than {_DEPTH} deep")

    def _where(self, i: int) -> str:
        return f"{self.path}: rule {i + 1} ({self.rules[i].name[:40]})"

    def names(self, reading: Mapping[str, str]) -> list[str]:
        """Each rule's name under ``reading`` (its text may quote a clause)."""
        out = []
        for i, r in enumerate(self.rules):
            out.append(_rule_name(r.id, self.quote(r.text, "text", reading, self._where(i))))
        return out

    def rule_names(self, reading: Mapping[str, str] | None = None) -> tuple[str, ...]:
        """The distinct names of the rules under ``reading`` (default: the card's own), in the
        card's order."""
        return tuple(dict.fromkeys(self.names(reading or dict(self.default))))

    def resolved(self, reading: Mapping[str, str]) -> list[tuple[str, str, str | None]]:
        """Each rule's (when, front, back) with the quoted clauses replaced by ``reading``."""
        out = []
        for i, r in enumerate(self.rules):
            where = self._where(i)
            back = self.quote(r.back, "front", reading, where) if r.back else None
            out.append((self.quote(r.when, "when", reading, where),
                        self.quote(r.front, "front", reading, where), back))  # fmt: skip
        return out

    def program(self, reading: Mapping[str, str]) -> tuple[int, ...]:
        """The compiled program of the card under ``reading``."""
        names = self.names(reading)
        distinct = list(dict.fromkeys(names))
        rules = []
        for i, (when, front, back) in enumerate(self.resolved(reading)):
            where = self._where(i)
            try:
                choice = read_front(front, back)
            except ConditionError as err:
                raise err.located(f"{where}: front") from None
            rules.append((read(when, CARD, f"{where}: when"), choice, distinct.index(names[i])))
        try:
            prog = compile_card(rules, self.points)
        except ConditionError as err:
            raise err.located(f"{self.path}: {err.where}" if err.where else self.path) from None
        return tuple(int(x) for x in prog)


def _unknown(doc: Mapping[str, Any], known: set[str], where: str) -> None:
    extra = sorted(set(doc) - known)
    if extra:
        raise CardError(f"{where}: unknown field {extra[0]!r} (fields: {', '.join(sorted(known))})")


def read_card(path: str | Path, every_reading: bool = True) -> Card:
    """Read and check a card file: its conditions compile under its own reading and, with
    ``every_reading``, under every reading of each clause."""
    path = Path(path)
    return card_from_text(read_text(path, CardError), str(path), every_reading)


def card_from_text(text: str, where: str, every_reading: bool = True) -> Card:
    """``read_card`` of a card's text (``where`` names it in messages)."""
    doc = parse_toml(text, where, CardError)
    _unknown(doc, CARD_FIELDS, where)
    name = _text(doc, "name", where)
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        raise CardError(f"{where}: name: {name!r} is not a way name (lowercase letters, digits, "
                        "'.', '_', '-')")  # fmt: skip
    title, source = _text(doc, "title", where), _text(doc, "source", where)
    kind = _text(doc, "kind", where, "house way")
    if kind not in KINDS:
        raise CardError(f"{where}: kind: {kind!r} (kinds: {', '.join(KINDS)})")
    clauses, readings, default = _clauses(doc.get("clause", []), where)
    raw = doc.get("rule")
    if not isinstance(raw, list) or not raw:
        raise CardError(f"{where}: rule: a card needs at least one [[rule]]")
    rules = []
    for i, r in enumerate(raw):
        at = f"{where}: rule {i + 1}"
        if not isinstance(r, dict):
            raise CardError(f"{at}: expected a table")
        _unknown(r, RULE_FIELDS, at)
        back = r.get("back")
        if back is not None and not isinstance(back, str):
            raise CardError(f"{at}: back: expected text, got {back!r}")
        rules.append(CardRule(_text(r, "id", at, ""), _text(r, "text", at),
                              _text(r, "when", at, ""), _text(r, "front", at), back))  # fmt: skip
    points = read_points(doc["points"], where) if "points" in doc else None
    card = Card(where, name, _text(doc, "version", where, "1"), title, source,
                _text(doc, "notes", where, ""), kind, tuple(rules), clauses, readings, default,
                text, points)  # fmt: skip
    own = dict(default)
    for reading in _every_reading(card) if every_reading else [own]:
        try:
            card.program(reading)
        except (CardError, ConditionError) as err:
            other = [f"{c}={a}" for c, a in reading.items() if a != own[c]]
            if not other:
                raise
            note = f" (reading {other[0]})"
            if isinstance(err, ConditionError):
                raise ConditionError(err.message + note, err.at, err.where) from None
            raise CardError(f"{err}{note}") from None
    return card


Readings = dict[str, dict[str, dict[str, str]]]


def _clauses(raw: Any, where: str) -> tuple[tuple[Clause, ...], Readings,
                                            tuple[tuple[str, str], ...]]:  # fmt: skip
    if not isinstance(raw, list):
        raise CardError(f"{where}: clause: write each as [[clause]]")
    clauses: list[Clause] = []
    readings: Readings = {}
    default: list[tuple[str, str]] = []
    for i, c in enumerate(raw):
        at = f"{where}: clause {i + 1}"
        if not isinstance(c, dict):
            raise CardError(f"{at}: expected a table")
        _unknown(c, CLAUSE_FIELDS, at)
        cid = _text(c, "id", at)
        table = c.get("readings")
        if not isinstance(table, dict) or not table:
            raise CardError(f"{at} ({cid}): readings: at least one reading, as a table")
        fields: dict[str, dict[str, str]] = {}
        for alt, body in table.items():
            if not isinstance(body, dict):
                raise CardError(f"{at} ({cid}): readings.{alt}: expected a table")
            fields[alt] = {k: _text(body, k, f"{at} ({cid}): readings.{alt}") for k in body}
        literal = _text(c, "literal", at, next(iter(table)))
        chosen = _text(c, "default", at, literal)
        alternatives = tuple((alt, f.get("means", alt)) for alt, f in fields.items())
        try:
            clause = Clause(cid, _text(c, "rule", at, ""), _text(c, "text", at), alternatives,
                            literal)  # fmt: skip
        except ValueError as err:
            raise CardError(f"{at} ({cid}): {err}") from None
        if chosen not in fields:
            raise CardError(f"{at} ({cid}): default: unknown reading {chosen!r} (readings: "
                            f"{', '.join(fields)})")  # fmt: skip
        if cid in readings:
            raise CardError(f"{at}: id: clause {cid!r} given twice")
        clauses.append(clause)
        readings[cid] = fields
        default.append((cid, chosen))
    return tuple(clauses), readings, tuple(default)


def _every_reading(card: Card) -> list[dict[str, str]]:
    """Each clause's every reading, the others at their default (a card is checked under
    each: a mistake in a reading is found before anyone chooses it)."""
    base = dict(card.default)
    out = [base]
    for cid, fields in card.readings.items():
        out += [{**base, cid: alt} for alt in fields if alt != base[cid]]
    return out


def card_way(card: Card, reading: Mapping[str, str] | None = None) -> HouseWay:
    """The house way of ``card`` under ``reading`` (default: the card's own)."""
    own = dict(card.default)
    full = dict(resolve_reading(card.clauses, dict(reading or {}), own, card.name))
    changed = tuple((cid, alt) for cid, alt in full.items() if alt != own[cid])
    name = f"{card.name}[{spell_reading(changed)}]" if changed else card.name

    def build(choices: Mapping[str, str]) -> HouseWay:
        return card_way(card, choices)

    return HouseWay(
        name, card.version, card.title, card.rule_names(full), run_card,
        clauses=card.clauses, reading=tuple(full.items()),
        build=build if card.clauses else None, program=card.program(full),
        text=card.text,
    )  # fmt: skip


@cache
def shipped_cards() -> tuple[Card, ...]:
    """The cards of ``data/ways`` (the tests check each under every reading)."""
    return tuple(read_card(p, every_reading=False) for p in sorted(WAY_DIR.glob("*.toml")))
