"""The shipped side-bet paytables: the envy tables of ``data/envy`` and the bet files of
``data/bets`` named after a bet (``fortune-3`` is Fortune's table 3), each read as a paytable
(``analysis.games.paytables``); and any paytable or bet file by its path.

>>> t = shipped_paytable("fortune", "1")
>>> t.pay("three pair"), t.pay("straight"), t.pay("nothing")
(Fraction(0, 1), Fraction(2, 1), Fraction(-1, 1))
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

from analysis.bets.files import BET_DIR, read_bet
from analysis.games.paytables import (
    BET_EVENTS,
    ENVY_DIR,
    Paytable,
    PaytableError,
    load_paytable,
    ordered_pays,
)
from enumerate.datafile import fail, read_toml

_fail = partial(fail, PaytableError)


def from_bet_file(path: str | Path, bet: str, name: str) -> Paytable:
    """The pays (and its own envy amounts) of the bet file at ``path`` as a paytable of
    ``bet`` called ``name``; its events must be events of the bet."""
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
                    pays=ordered_pays(bet, pays), envy=ordered_pays(bet, envy), note=b.notes,
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
