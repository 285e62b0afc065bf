"""Side-bet paytables: what each event of a bet pays. The shipped ones are the bet files of
``data/bets`` named after a bet (``fortune-3``: Fortune's table 3, read by ``from_bet_file``)
and the envy tables of ``data/envy``. A paytable file of the format below also works wherever a
paytable is asked for.

A paytable names its bet and says what each event pays, *to 1* (a losing bet is -1)::

    bet = "fortune"                 # one of BET_EVENTS
    name = "1"                      # how --paytable finds it among the bet's tables
    title = "Fortune, pay table 1"  # optional
    source = "docs/rules.md, Side bets: Fortune table 1"
    template = false                # true: placeholder figures, not a real casino table

    [pays]                          # event = pay to 1, "push" or "lose"; events not listed lose
    "natural 7-card straight flush" = 5000
    "three pair" = "push"

    [envy]                          # optional (bets with an envy bonus): dollars per OTHER player
    "four of a kind" = 5

Every problem is reported as ONE line naming the file, the field and what is wrong, as a
``PaytableError`` (a ``ValueError``), e.g.
``fortune-9.toml: pays."royal flsh": unknown event for bet fortune (known: ...)``.

>>> t = shipped_paytable("fortune", "1")
>>> t.pay("three pair"), t.pay("straight"), t.pay("nothing")
(Fraction(0, 1), Fraction(2, 1), Fraction(-1, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from enumerate.classes import SevenCardClass
from enumerate.datafile import DataFileError, quoted, read_toml
from enumerate.paths import data_dir

ENVY_DIR = data_dir() / "envy"  # the envy tables, in this format
# the other bets' tables are bet files (analysis.bets), read as paytables
BET_DIR = data_dir() / "bets"

PUSH = Fraction(0)
LOSE = Fraction(-1)

# the Fortune order, strongest first, down to three pair ("nothing" never pays)
FORTUNE_EVENTS: tuple[str, ...] = tuple(
    c.label for c in sorted(SevenCardClass, reverse=True) if c != SevenCardClass.NOTHING
)
NINE_HIGH_LOW_EVENT = "nine-high low hand"
PLAYER_AND_DEALER_ACE_HIGH = "player and dealer ace-high pai gow"
DEALER_ACE_HIGH_JOKER = "dealer ace-high pai gow, joker as the ace"
DEALER_ACE_HIGH_NATURAL = "dealer ace-high pai gow, natural ace"
QUEEN_HIGH_EVENT = "dealer queen-high pai gow"
TIGER_9_EVENT = "dealer nine-high low hand"

# the events each bet can pay on, in the order of precedence (the first a deal holds pays)
BET_EVENTS: dict[str, tuple[str, ...]] = {
    "fortune": FORTUNE_EVENTS,
    "chan-chu": FORTUNE_EVENTS,
    "envy": FORTUNE_EVENTS,
    "dealer-bonus": (*FORTUNE_EVENTS, NINE_HIGH_LOW_EVENT),
    "push-ace-high": (PLAYER_AND_DEALER_ACE_HIGH, DEALER_ACE_HIGH_JOKER, DEALER_ACE_HIGH_NATURAL),
    "queens-dragon": (QUEEN_HIGH_EVENT,),
    "tiger-9": (TIGER_9_EVENT,),
    "jacks-beat": (*FORTUNE_EVENTS, SevenCardClass.NOTHING.label),
}
ENVY_BETS = ("fortune", "chan-chu", "envy")  # bets whose tables may carry an [envy] section
FIELDS = ("bet", "envy", "name", "note", "pays", "source", "template", "title")


class PaytableError(DataFileError):
    """A paytable file is wrong."""


def exact(value: object) -> Fraction | None:
    """An exact number from a TOML value (int, float read as its decimal text, or a string such
    as ``"0.95"``, ``"19/20"`` or ``"5%"``); None when it is not a finite number.

    >>> exact(0.95), exact("5%"), exact(True), exact("lots")
    (Fraction(19, 20), Fraction(1, 20), None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip()
        scale = Fraction(1)
        if text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        try:
            return Fraction(text) * scale
        except (ValueError, ZeroDivisionError):
            return None
    return None


@dataclass(frozen=True)
class Paytable:
    """What a bet pays per event (to 1; 0 = push, -1 = lose) and its envy amounts (dollars)."""

    bet: str
    name: str
    title: str
    source: str
    template: bool
    pays: tuple[tuple[str, Fraction], ...]  # in the bet's event order
    envy: tuple[tuple[str, Fraction], ...] = ()
    note: str = ""
    path: str = ""

    def pay(self, event: str) -> Fraction:
        """The pay of ``event``: -1 (lose) when the table does not list it."""
        return dict(self.pays).get(event, LOSE)

    @property
    def label(self) -> str:
        return self.title or f"{self.bet} {self.name}"


def _fail(path: Path, field: str, problem: str) -> PaytableError:
    return PaytableError(f"{path}: {field}: {problem}")


def _text(doc: Mapping[str, Any], key: str, path: Path, required: bool) -> str:
    if key not in doc:
        if required:
            raise _fail(path, key, "missing (required)")
        return ""
    value = doc[key]
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, key, f"expected a non-empty string, got {value!r}")
    return value.strip()


def _pays(path: Path, bet: str, section: str, table: object, words: bool) -> dict[str, Fraction]:
    if not isinstance(table, dict):
        raise _fail(path, section, "expected a table of event = pay")
    known = BET_EVENTS[bet]
    out: dict[str, Fraction] = {}
    for event, raw in table.items():
        field = f"{section}.{quoted(event)}"
        if event not in known:
            raise _fail(path, field, f"unknown event for bet {bet} (known: {', '.join(known)})")
        if words and isinstance(raw, str) and raw.strip().lower() in ("push", "lose"):
            out[event] = PUSH if raw.strip().lower() == "push" else LOSE
            continue
        value = exact(raw)
        if value is None:
            expected = (
                'a pay to 1 such as 2 or 0.5, "push" or "lose"' if words else "dollars such as 5"
            )
            raise _fail(path, field, f"not a number: {raw!r} (expected {expected})")
        if value < 0:
            hint = '; write "lose" for a losing hand' if words else ""
            unit = "pays are to 1" if words else "amounts are dollars"
            raise _fail(path, field, f"negative pay {raw} ({unit}{hint})")
        out[event] = value
    return out


def _ordered(bet: str, pays: dict[str, Fraction]) -> tuple[tuple[str, Fraction], ...]:
    return tuple((e, pays[e]) for e in BET_EVENTS[bet] if e in pays)


def load_paytable(path: str | Path) -> Paytable:
    """Read and check one paytable file."""
    path = Path(path)
    doc = read_toml(path, PaytableError, FIELDS)
    bet = _text(doc, "bet", path, required=True)
    if bet not in BET_EVENTS:
        raise _fail(path, "bet", f"unknown bet {bet!r} (known: {', '.join(sorted(BET_EVENTS))})")
    name = _text(doc, "name", path, required=True)
    template = doc.get("template", False)
    if not isinstance(template, bool):
        raise _fail(path, "template", f"expected true or false, got {template!r}")
    pays: dict[str, Fraction] = {}
    if bet == "envy":
        if "pays" in doc:
            raise _fail(path, "pays", "an envy table has only an [envy] section")
    elif "pays" not in doc:
        raise _fail(path, "pays", "missing (required)")
    else:
        pays = _pays(path, bet, "pays", doc["pays"], words=True)
        if not any(v > 0 for v in pays.values()):
            raise _fail(path, "pays", "no event pays (at least one pay above 0 is needed)")
    envy: dict[str, Fraction] = {}
    if "envy" in doc:
        if bet not in ENVY_BETS:
            raise _fail(path, "envy", f"bet {bet} has no envy bonus")
        envy = _pays(path, bet, "envy", doc["envy"], words=False)
    elif bet == "envy":
        raise _fail(path, "envy", "missing (required)")
    return Paytable(
        bet=bet,
        name=name,
        title=_text(doc, "title", path, required=False),
        source=_text(doc, "source", path, required=False),
        template=template,
        pays=_ordered(bet, pays),
        envy=_ordered(bet, envy),
        note=_text(doc, "note", path, required=False),
        path=str(path),
    )


def from_bet_file(path: str | Path, bet: str, name: str) -> Paytable:
    """The pays (and its own envy amounts) of the bet file at ``path`` as a paytable of
    ``bet`` called ``name``; its events must be events of the bet."""
    from analysis.bets.files import read_bet

    b = read_bet(path)
    known = BET_EVENTS[bet]
    for e in b.events:
        if e.name not in known:
            raise _fail(Path(path), "event", f"{e.name!r} is no event of bet {bet} "
                        f"(known: {', '.join(known)})")  # fmt: skip
        if e.pay.meter:
            raise _fail(Path(path), "event", f"{e.name!r}: a progressive pay is for a bet file "
                        "priced as one (paigow sidebet FILE)")  # fmt: skip
    pays = {e.name: e.pay.odds for e in b.events}
    envy = {} if b.envy_table else dict(b.envy)
    return Paytable(bet=bet, name=name, title=b.title, source=b.source, template=b.template,
                    pays=_ordered(bet, pays), envy=_ordered(bet, envy), note=b.notes,
                    path=str(path))  # fmt: skip


@cache
def _shipped(envy_dir: Path, bet_dir: Path) -> tuple[Paytable, ...]:
    """The envy tables, then every bet file named ``<bet>-<paytable>`` of a known bet."""
    tables = [load_paytable(p) for p in sorted(envy_dir.glob("*.toml"))]
    for path in sorted(bet_dir.glob("*.toml")):
        bet = next((b for b in BET_EVENTS if b != "envy" and path.stem.startswith(b + "-")), None)
        if bet is not None:
            tables.append(from_bet_file(path, bet, path.stem[len(bet) + 1:]))
    return tuple(tables)


def shipped_paytables(bet: str | None = None, directory: Path = ENVY_DIR) -> list[Paytable]:
    """The shipped paytables (of one bet if given): the envy tables of ``data/envy`` and the
    bet files of ``data/bets`` named after a bet (``fortune-3`` is Fortune's table 3)."""
    return [t for t in _shipped(directory, BET_DIR) if bet is None or t.bet == bet]


def shipped_paytable(bet: str, name: str, directory: Path = ENVY_DIR) -> Paytable:
    """The shipped paytable ``name`` of ``bet``; a one-line error naming the known ones."""
    tables = shipped_paytables(bet, directory)
    for t in tables:
        if name in (t.name, f"{t.bet}-{t.name}", Path(t.path).stem):
            return t
    known = ", ".join(t.name for t in tables) or "none"
    raise PaytableError(f"unknown paytable {name!r} for {bet} (known: {known})")


def find_paytable(bet: str, spec: str, directory: Path = ENVY_DIR) -> Paytable:
    """A paytable named ``spec`` among the shipped ones of ``bet``, or read from the file
    ``spec`` (a path ending in ``.toml``, or any existing file: a paytable, or a bet file whose
    events are the bet's); it must be a table of ``bet``."""
    path = Path(spec)
    if spec.endswith(".toml") or path.is_file():
        if "hand" in read_toml(path, PaytableError):  # a bet file
            return from_bet_file(path, bet, path.stem)
        table = load_paytable(path)
        if table.bet != bet:
            raise _fail(path, "bet", f"this paytable is for {table.bet}, not {bet}")
        return table
    return shipped_paytable(bet, spec, directory)
