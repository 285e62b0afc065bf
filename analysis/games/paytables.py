"""Side-bet paytables: what each event of a bet pays, and the paytable file format. The shipped
ones (``analysis.bets.paytables``) are the bet files of ``data/bets`` named after a bet
(``fortune-3``: Fortune's table 3) and the envy tables of ``data/envy``, in the format below,
which also works wherever a paytable is asked for.

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

>>> t = load_paytable(ENVY_DIR / "5000.toml")
>>> t.bet, dict(t.envy)["four of a kind"]
('envy', Fraction(5, 1))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path

from enumerate.classes import SevenCardClass
from enumerate.datafile import exact, fail, quoted, read_toml, text_field
from enumerate.errors import PaytableError
from enumerate.paths import data_dir

ENVY_DIR = data_dir() / "envy"  # the envy tables, in this format

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


_fail = partial(fail, PaytableError)
_text = partial(text_field, PaytableError)


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


def ordered_pays(bet: str, pays: Mapping[str, Fraction]) -> tuple[tuple[str, Fraction], ...]:
    """The pays of ``bet`` in its events' order."""
    return tuple((e, pays[e]) for e in BET_EVENTS[bet] if e in pays)


def load_paytable(path: str | Path) -> Paytable:
    """Read and check one paytable file."""
    path = Path(path)
    doc = read_toml(path, PaytableError, FIELDS)
    bet = _text(doc, "bet", path)
    if bet not in BET_EVENTS:
        raise _fail(path, "bet", f"unknown bet {bet!r} (known: {', '.join(sorted(BET_EVENTS))})")
    name = _text(doc, "name", path)
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
        title=_text(doc, "title", path, ""),
        source=_text(doc, "source", path, ""),
        template=template,
        pays=ordered_pays(bet, pays),
        envy=ordered_pays(bet, envy),
        note=_text(doc, "note", path, ""),
        path=str(path),
    )
