"""Bet files: a side bet written as data (TOML, in ``data/bets/`` or any path), read and checked.

```toml
name = "fortune-1"
title = "Fortune Pai Gow Poker, pay table 1"
source = "where the pays come from"
hand = "player"           # player | dealer | first-three | deal
order = "first"           # first: the first event that holds pays; highest: the highest pay;
                          # left out: the events may not overlap
bet_size = 5              # dollars: needed by fixed amounts and progressive pays
game = "any"              # the variant the bet is dealt with (its house way settles "way_*")

[[event]]
name = "five aces"
when = "fortune == five_aces"
pays = 250                # to 1; "push"; "lose"; { fixed = 500 } dollars for bet_size;
                          # { meter = "10%" } a share of the progressive meter (plus fixed)

[envy]                    # dollars for every OTHER player holding the event (player bets);
"five aces" = 250         # or envy = "5000", a table of data/envy
```

Every mistake is one line naming the file and the entry: a ``ConditionError`` for a condition
(with its column), a ``BetFileError`` for the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from analysis.bets.scopes import HANDS, SCOPE_OF
from analysis.games.paytables import ENVY_DIR, PaytableError, load_paytable
from enumerate.conditions import Node, facts_used, read
from enumerate.datafile import exact, fail, quoted, read_toml, text_field
from enumerate.errors import BetFileError
from enumerate.paths import data_dir

BET_DIR = data_dir() / "bets"
FIELDS = ("bet_size", "envy", "event", "game", "hand", "name", "notes", "order", "source",
          "template", "title")  # fmt: skip
EVENT_FIELDS = ("name", "pays", "when")
ORDERS = ("first", "highest")
UNITS = {"player": "player hands", "dealer": "dealer hands", "first-three": "three-card hands",
         "deal": "deals"}  # fmt: skip


_fail = partial(fail, BetFileError)
_text = partial(text_field, BetFileError)


@dataclass(frozen=True)
class Pay:
    """What an event pays: ``odds`` to 1 (0 a push, -1 a loss) and a ``meter`` share of the
    progressive meter (dollars, for a bet of the file's ``bet_size``)."""

    odds: Fraction
    meter: Fraction = Fraction(0)

    @property
    def outcome(self) -> str:
        if self.odds < 0 and not self.meter:
            return "loss"
        return "push" if self.odds == 0 and not self.meter else "win"


LOSE = Pay(Fraction(-1))


@dataclass(frozen=True)
class BetEvent:
    name: str
    when: str
    pay: Pay
    condition: Node


@dataclass(frozen=True)
class BetFile:
    """A bet as its file says it."""

    path: Path
    name: str
    title: str
    source: str
    hand: str
    order: str | None  # None: the events may not overlap
    events: tuple[BetEvent, ...]
    bet_size: Fraction | None = None
    game: str = "any"
    template: bool = False
    notes: str = ""
    envy: tuple[tuple[str, Fraction], ...] = ()
    envy_table: str = ""  # the envy table named by the file ("" for its own [envy])

    @property
    def unit(self) -> str:
        return UNITS[self.hand]

    @property
    def progressive(self) -> bool:
        return any(e.pay.meter for e in self.events)

    @property
    def uses_way(self) -> bool:
        return any(f.startswith("way_") for e in self.events for f in facts_used(e.condition))

    def where(self, i: int) -> str:
        return f"{self.path}: event {i + 1} ({self.events[i].name})"


def _pay(value: object, bet_size: Fraction | None, path: Path, field: str) -> Pay:
    if value == "push":
        return Pay(Fraction(0))
    if value == "lose":
        return LOSE
    if isinstance(value, dict):
        for key in value:
            if key not in ("fixed", "meter"):
                raise _fail(path, f"{field}.{quoted(key)}", "unknown field (known: fixed, meter)")
        if bet_size is None:
            raise _fail(path, field, "a fixed amount or a meter share needs the file's bet_size")
        fixed = exact(value.get("fixed", 0))
        meter = exact(value.get("meter", 0))
        if fixed is None or fixed < 0:
            raise _fail(path, f"{field}.fixed", f"expected dollars, got {value.get('fixed')!r}")
        if meter is None or not 0 <= meter <= 1:
            raise _fail(path, f"{field}.meter", "expected a share of the meter from 0 to 1 "
                        f"(\"10%\", 0.1), got {value.get('meter')!r}")  # fmt: skip
        return Pay(fixed / bet_size, meter)
    odds = exact(value)
    if odds is None or (isinstance(value, str) and not re.fullmatch(r"[\d./]+", value)):
        raise _fail(path, field, f"expected a number (to 1), \"push\", \"lose\", {{ fixed = ... }} "
                    f"or {{ meter = ... }}, got {value!r}")  # fmt: skip
    if odds < -1:
        raise _fail(path, field, f"a bet cannot lose more than itself: {value!r}")
    return Pay(odds)


def read_bet(path: str | Path) -> BetFile:
    """Read and check a bet file (``BetFileError`` in one line on any mistake)."""
    path = Path(path)
    doc = read_toml(path, BetFileError, FIELDS)
    name = _text(doc, "name", path)
    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", name):
        raise _fail(path, "name", f"{name!r} is not a bet name (lowercase letters, digits, '.', "
                    "'_', '-')")  # fmt: skip
    hand = _text(doc, "hand", path)
    if hand not in HANDS:
        raise _fail(path, "hand", f"{hand!r} (hands: {', '.join(HANDS)})")
    order = doc.get("order")
    if order is not None and order not in ORDERS:
        raise _fail(path, "order", f"{order!r} (orders: {', '.join(ORDERS)}, or leave it out)")
    bet_size = None
    if "bet_size" in doc:
        bet_size = exact(doc["bet_size"])
        if bet_size is None or bet_size <= 0:
            raise _fail(path, "bet_size", f"expected dollars above 0, got {doc['bet_size']!r}")
    template = doc.get("template", False)
    if not isinstance(template, bool):
        raise _fail(path, "template", f"expected true or false, got {template!r}")
    raw = doc.get("event")
    if not isinstance(raw, list) or not raw:
        raise _fail(path, "event", "a bet needs at least one [[event]]")
    scope = SCOPE_OF[hand]
    events, names = [], set()
    for i, e in enumerate(raw):
        at = f"{path}: event {i + 1}"
        if not isinstance(e, dict):
            raise BetFileError(f"{at}: expected a table")
        for key in e:
            if key not in EVENT_FIELDS:
                raise BetFileError(f"{at}: {quoted(key)}: unknown field (known: "
                                   f"{', '.join(EVENT_FIELDS)})")  # fmt: skip
        ename = _text(e, "name", at)
        at = f"{path}: event {i + 1} ({ename})"
        if ename in names:
            raise BetFileError(f"{at}: name: given twice")
        names.add(ename)
        when = _text(e, "when", at)
        node = read(when, scope, f"{at}: when")
        if "pays" not in e:
            raise BetFileError(f"{at}: pays: missing (required)")
        pay = _pay(e["pays"], bet_size, path, f"event {i + 1} ({ename}): pays")
        events.append(BetEvent(ename, when, pay, node))
    envy_doc = doc.get("envy", {})
    envy_table = ""
    if isinstance(envy_doc, str):  # the name of an envy table of data/envy, or a file
        envy_table = envy_doc
        envy_doc = _envy_amounts(envy_doc, path)
    if not isinstance(envy_doc, dict):
        raise _fail(path, "envy", "expected a table of event = dollars, or an envy table's name")
    if envy_doc and hand != "player":
        raise _fail(path, "envy", "envy is paid on other players' hands: only for a player bet")
    envy = []
    for event, amount in envy_doc.items():
        field = f"envy.{quoted(event)}"
        if event not in names:
            raise _fail(path, field, "no event of the bet has this name")
        dollars = amount if isinstance(amount, Fraction) else exact(amount)
        if dollars is None or dollars <= 0:
            raise _fail(path, field, f"expected dollars above 0, got {amount!r}")
        envy.append((event, dollars))
    game = _text(doc, "game", path, "any")
    return BetFile(
        path, name, _text(doc, "title", path, name), _text(doc, "source", path), hand, order,
        tuple(events), bet_size, game, template, _text(doc, "notes", path, ""), tuple(envy),
        envy_table,
    )  # fmt: skip


def _envy_amounts(spec: str, path: Path) -> dict[str, Fraction]:
    """The amounts of the envy table ``spec`` (a name of ``data/envy`` or a file)."""
    file = Path(spec) if spec.endswith(".toml") else ENVY_DIR / f"{spec}.toml"
    if not file.is_file():
        known = ", ".join(p.stem for p in sorted(ENVY_DIR.glob("*.toml")))
        raise _fail(path, "envy", f"unknown envy table {spec!r} (known: {known}; or a file)")
    try:
        table = load_paytable(file)
    except PaytableError as err:
        raise _fail(path, "envy", str(err)) from None
    if table.bet != "envy":
        raise _fail(path, "envy", f"{file} is not an envy table")
    return dict(table.envy)


def shipped_bets(directory: Path = BET_DIR) -> list[BetFile]:
    """The bet files of ``data/bets``, by name."""
    return [read_bet(p) for p in sorted(directory.glob("*.toml"))]


def names_bet_file(spec: str, directory: Path = BET_DIR) -> bool:
    """Does ``spec`` name a bet file: a ``.toml`` path, or a file of ``data/bets``?"""
    return spec.endswith(".toml") or (directory / f"{spec}.toml").is_file()


def find_bet(spec: str, directory: Path = BET_DIR) -> BetFile:
    """A shipped bet by name, or a bet file by path."""
    if spec.endswith(".toml") or "/" in spec:
        return read_bet(spec)
    path = directory / f"{spec}.toml"
    if not path.is_file():
        known = ", ".join(p.stem for p in sorted(directory.glob("*.toml")))
        raise BetFileError(f"unknown bet {spec!r} (known: {known}; or give a bet file's path)")
    return read_bet(path)
