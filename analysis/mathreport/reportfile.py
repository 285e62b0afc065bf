"""A report file: a math report's printed lines, in the report's own terms, checked against
the exact tables of a game (``paigow verify REPORT.toml``; ``docs/games.md``).

A report file names its game (a game file, a shipped game's name, or a ``[game]`` table of a
game file's fields) and lists ``[[line]]`` entries: the wager (``base``, a side bet's name,
``hands``, ``optimal``, ``house-optimal`` or any table's key), the event as the table names it
(a row; several rows are summed), the figure (``combinations``, ``probability``, ``return``,
``pays``, or a statistic such as ``house edge`` or ``standard deviation``) and the value as the
report prints it: ``"0.2855"``, ``"2.73%"``, ``"1 in 3,427.5"`` or an integer count. The
precision is read from the printed digits; a value agrees when the exact figure rounds (or,
with ``rounding = "cut"``, truncates) to it. ``open = "why"`` records a known disagreement.

"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from analysis.mathreport.build import GamePricer, side_key, wager_key
from analysis.mathreport.game import FIELDS as GAME_FIELDS
from analysis.mathreport.game import Game, game_from_doc, load_game
from analysis.render.document import Column, Document, Figure, Section, Table
from analysis.render.printed import Printed, parse_printed
from enumerate.datafile import fail, read_toml, text_field
from enumerate.errors import GameFileError, ReportFileError
from enumerate.paths import data_dir

PUBLISHED = data_dir() / "published"
FIELDS = ("title", "source", "notes", "game", "defaults", "line")
LINE_FIELDS = ("wager", "player", "event", "figure", "value", "rounding", "tolerance", "open",
               "source")
ROUNDINGS = ("round", "cut")
ROW_FIGURES = ("combinations", "probability", "return", "pays")
STATISTICS = {  # a statistic as reports name it -> the row of the statistics table
    "house edge": "house edge",
    "house advantage": "house edge",
    "house edge per resolved bet": "house edge per resolved bet",
    "element of risk": "element of risk",
    "variance": "variance",
    "standard deviation": "standard deviation",
    "sd": "standard deviation",
    "hit frequency": "hit frequency",
    "top award odds": "top award odds (1 in)",
    "break-even top award": "break-even top award",
}
OUTCOMES = ("win", "push", "loss")

_fail = partial(fail, ReportFileError)
_text = partial(text_field, ReportFileError)


@dataclass(frozen=True)
class Line:
    """One printed figure of the report, resolved to a cell of the game's tables."""

    number: int
    wager: str
    event: tuple[str, ...]
    figure: str
    printed: Printed
    rounding: str
    tolerance: Fraction | None  # a stated error (an estimate's), instead of the rounding
    table: str  # the key of the table it is read from
    rows: tuple[str, ...]  # the rows summed
    column: str
    open: str
    source: str

    @property
    def label(self) -> str:
        return " + ".join(self.event) if self.event else "-"


@dataclass(frozen=True)
class ReportFile:
    path: Path
    title: str
    source: str
    notes: str
    game: Game
    lines: tuple[Line, ...]


def _game(doc: dict[str, Any], path: Path, title: str, source: str) -> Game:
    raw = doc.get("game")
    if raw is None:
        raise _fail(path, "game", "missing (a game file, a shipped game's name, or a table)")
    try:
        if isinstance(raw, dict):
            inline = {"name": path.stem, "title": title, "source": source, **raw}
            unknown = [k for k in inline if k not in GAME_FIELDS]
            if unknown:
                raise _fail(path, f"game.{unknown[0]}",
                            f"unknown field (known: {', '.join(GAME_FIELDS)})")  # fmt: skip
            return game_from_doc(inline, path, "game")
        if not isinstance(raw, str):
            raise _fail(path, "game", f"expected a game file, a name or a table, got {raw!r}")
        spec = Path(raw)
        if raw.endswith(".toml") and not spec.is_absolute():
            spec = path.parent / spec
        return load_game(spec if raw.endswith(".toml") else raw)
    except GameFileError as err:
        raise ReportFileError(f"{path}: game: {err}") from None


def _wager_table(wager: str, player: str | None, pricer: GamePricer, where: str) -> str:
    """The key of the table a line's wager names."""
    g = pricer.game
    w = wager.strip()
    if w == "base":
        mode = player or str(g.players[0])
        if mode not in pricer.modes():
            raise ReportFileError(f"{where}: player {mode!r}: not a player mode of game "
                                  f"{g.name} (modes: {', '.join(pricer.modes())})")  # fmt: skip
        return wager_key(mode)
    if player is not None:
        raise ReportFileError(f"{where}: player: only the base wager has player modes")
    name = w.removeprefix("side bet ").strip()
    for b in g.side_bets:
        if name in (b.label, b.bet, Path(b.bet).stem):
            return side_key(b)
    if w in ("optimal", "house-optimal") or w in pricer.parts():
        return w
    known = ["base", *(b.label for b in g.side_bets), "hands",
             "optimal" if not g.variant.dealer_exposed else "house-optimal"]
    return _any_table(w, pricer, where, known)


def _any_table(key: str, pricer: GamePricer, where: str, known: list[str]) -> str:
    try:
        pricer.table(key)
    except KeyError:
        raise ReportFileError(f"{where}: wager {key!r}: not in game {pricer.game.name}'s "
                              f"report (wagers: {', '.join(known)}; or a table's key)") from None
    return key


def _resolve(entry: dict[str, Any], number: int, pricer: GamePricer, path: Path) -> Line:
    where = f"{path}: line {number}"
    for key in entry:
        if key not in LINE_FIELDS:
            raise ReportFileError(f"{where}: {key}: unknown field (known: "
                                  f"{', '.join(LINE_FIELDS)})")  # fmt: skip
    wager = _text(entry, "wager", where)
    player = entry.get("player")
    if player is not None and not isinstance(player, str):
        raise ReportFileError(f"{where}: player: expected a player mode, got {player!r}")
    raw_event = entry.get("event", [])
    events = (raw_event,) if isinstance(raw_event, str) else tuple(raw_event)
    if not all(isinstance(e, str) for e in events):
        raise ReportFileError(f"{where}: event: expected a row's name or a list of them")
    figure = " ".join(_text(entry, "figure", where).replace("_", " ").split()).lower()
    if "value" not in entry:
        raise ReportFileError(f"{where}: value: missing (the figure as printed)")
    printed = parse_printed(entry["value"], f"{where}: value")
    rounding = _text(entry, "rounding", where, "round")
    if rounding not in ROUNDINGS:
        raise ReportFileError(f"{where}: rounding: {rounding!r} (known: {', '.join(ROUNDINGS)})")
    tolerance = None
    if "tolerance" in entry:
        tolerance = abs(parse_printed(entry["tolerance"], f"{where}: tolerance").value)
    where = f"{where} ({wager}{': ' + ' + '.join(events) if events else ''}, {figure})"
    key = _wager_table(wager, player, pricer, where)
    table = pricer.table(key)
    is_return = table.names[:2] == ("event", "outcome")
    rows: tuple[str, ...] = events
    column = figure
    if is_return and not events:
        if figure not in STATISTICS:
            kinds = ", ".join([*ROW_FIGURES, *STATISTICS])
            raise ReportFileError(f"{where}: figure {figure!r} is not a figure of a wager "
                                  f"(figures: {kinds}; {', '.join(ROW_FIGURES)} need an "
                                  "event)")  # fmt: skip
        key, rows, column = f"{key}-statistics", (STATISTICS[figure],), "value"
        table = pricer.table(key)
        if STATISTICS[figure] not in table.row_names:
            raise ReportFileError(f"{where}: the wager has no {figure}")
    elif is_return and len(events) == 1 and events[0] in OUTCOMES and figure == "probability":
        key, rows, column = f"{key}-statistics", (f"probability of a {events[0]}",), "value"
        table = pricer.table(key)
    elif is_return:
        if figure not in ROW_FIGURES:
            raise ReportFileError(f"{where}: figure {figure!r} is not a figure of an event "
                                  f"(figures: {', '.join(ROW_FIGURES)})")  # fmt: skip
        if len(events) > 1 and figure == "pays":
            raise ReportFileError(f"{where}: pays: one event at a time, not a sum")
    else:
        if not events:
            raise ReportFileError(f"{where}: table {key} needs an event (a row: "
                                  f"{', '.join(table.row_names[:12])})")  # fmt: skip
        if figure not in table.names[1:]:
            raise ReportFileError(f"{where}: figure {figure!r} is not a column of table {key} "
                                  f"(columns: {', '.join(table.names[1:])})")  # fmt: skip
    for row in rows:
        if row not in table.row_names:
            shown = ", ".join(table.row_names[:20])
            raise ReportFileError(f"{where}: event {row!r} is not a row of table {key} (rows: "
                                  f"{shown})")  # fmt: skip
        cell = table.value(row, column)
        if not isinstance(cell, int | Fraction):
            raise ReportFileError(f"{where}: {row}, {column} is not a number ({cell!r})")
    return Line(number, wager, events, figure, printed, rounding, tolerance, key, rows, column,
                str(entry.get("open", "")), str(entry.get("source", "")))


def read_report_file(path: str | Path, pricer_log: Any = None) -> tuple[ReportFile, GamePricer]:
    """Read and check a report file: every line resolved to a cell of its game's tables (the
    parts they address are priced here). One ``ReportFileError`` line on any mistake."""
    path = Path(path)
    doc = read_toml(path, ReportFileError, FIELDS)
    title = _text(doc, "title", path)
    source = _text(doc, "source", path)
    game = _game(doc, path, title, source)
    pricer = GamePricer(game, pricer_log or (lambda _m: None))
    defaults = doc.get("defaults", {})
    raw = doc.get("line", [])
    if not isinstance(defaults, dict) or not isinstance(raw, list) or not raw:
        raise _fail(path, "line", "expected [[line]] entries (and an optional [defaults])")
    lines = []
    for i, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise _fail(path, f"line {i}", "expected a table")
        lines.append(_resolve({**defaults, **entry}, i, pricer, path))
    return ReportFile(path, title, source, _text(doc, "notes", path, ""), game,
                      tuple(lines)), pricer  # fmt: skip


@dataclass(frozen=True)
class Checked:
    line: Line
    computed: Fraction
    difference: Fraction  # computed - published, in the printed form (odds as odds)
    status: str  # "pass", "FAIL" or "open"


def _compare(line: Line, exact: Fraction) -> Checked:
    p = line.printed
    shown = exact
    if p.odds:
        shown = (1 / exact if line.figure != "top award odds" else exact) if exact else Fraction(0)
    diff = shown - p.value
    if line.tolerance is not None:
        ok = abs(diff) <= line.tolerance
    elif line.rounding == "cut":
        ok = 0 <= (abs(shown) - abs(p.value)) < p.unit
    else:
        ok = abs(diff) <= p.unit / 2
    return Checked(line, shown, diff, "pass" if ok else "open" if line.open else "FAIL")


def check_report_file(path: str | Path, log: Any = None) -> tuple[ReportFile, list[Checked]]:
    """Every line of a report file, computed and compared."""
    report, pricer = read_report_file(path, log)
    out = []
    for line in report.lines:
        table = pricer.table(line.table)
        total = sum((Fraction(table.value(r, line.column) or 0) for r in line.rows), Fraction(0))
        out.append(_compare(line, total))
    return report, out


def _shown(c: Checked) -> str:
    """The computed figure in the published one's form, two more places than it printed."""
    p = c.line.printed
    if p.unit == 1 and c.computed.denominator == 1:
        return f"{c.computed.numerator:,}"
    places = max(0, len(str(p.unit.denominator)) - 1) + 2
    if p.text.endswith("%"):
        return f"{float(c.computed * 100):,.{max(places - 2, 0)}f}%"
    return f"{float(c.computed):,.{places}f}"


def verification_table(checked: list[Checked], key: str = "lines") -> Table:
    rows = []
    for c in checked:
        p = c.line.printed
        scale = 100 if p.text.endswith("%") else 1
        tol = c.line.tolerance if c.line.tolerance is not None else (
            p.unit if c.line.rounding == "cut" else p.unit / 2)
        rows.append((str(c.line.number), c.line.wager, c.line.label, c.line.figure, p.text,
                     Figure(c.computed, _shown(c)),
                     Figure(c.difference, f"{float(c.difference * scale):+.2g}"
                                          + ("%" if scale == 100 else "")),
                     Figure(tol, f"{float(tol * scale):.2g}" + ("%" if scale == 100 else "")),
                     c.status))  # fmt: skip
    cols = (Column("line"), Column("wager"), Column("event"), Column("figure"),
            Column("published"), Column("computed"), Column("difference"),
            Column("tolerance"), Column("status"))  # fmt: skip
    return Table(key, "Each line: published, computed, difference, agrees or not", cols,
                 tuple(rows))  # fmt: skip


def verification_document(report: ReportFile, checked: list[Checked]) -> Document:
    """The verification report of one report file."""
    n = len(checked)
    count = {s: sum(c.status == s for c in checked) for s in ("pass", "FAIL", "open")}
    summary = (f"{n} lines: {count['pass']} agree, {count['FAIL']} disagree, {count['open']} "
               "open (disagreements on record)")  # fmt: skip
    opens = tuple(f"line {c.line.number}: {c.line.open}" for c in checked if c.status == "open")
    fails = tuple(f"line {c.line.number} ({c.line.wager}, {c.line.label}, {c.line.figure}): "
                  f"published {c.line.printed.text}, computed {_shown(c)}"
                  for c in checked if c.status == "FAIL")  # fmt: skip
    sections = [Section("Summary", (
        f"{report.title}. {report.source}.",
        f"Checked against the exact tables of game {report.game.name} ({report.game.title}), "
        f"deck {report.game.deck.name}. A line agrees when the exact figure rounds to the "
        "printed one at its printed precision (or truncates to it, for a line marked cut).",
        (summary,) + (("disagreements: " + "; ".join(fails),) if fails else ())))]
    sections.append(Section("Lines", (verification_table(checked),)))
    if opens:
        sections.append(Section("Open questions", (opens,)))
    digest = hashlib.sha256(report.path.read_bytes()).hexdigest()
    inputs = [("report file", str(report.path), digest), *report.game.digests()]
    sections.append(Section("Provenance", (Table("inputs", "Input files", (
        Column("input"), Column("file"), Column("SHA-256")), tuple(inputs)),)))
    return Document(f"Verification: {report.title}", tuple(sections),
                    (("game", report.game.name), ("result", summary)))


def published_files(folder: Path = PUBLISHED) -> list[Path]:
    """The report files of ``data/published``."""
    return sorted(folder.glob("*.toml"))


@dataclass(frozen=True)
class Verification:
    """The lines of report files checked: each line's result, and the verification report."""

    reports: tuple[ReportFile, ...]
    checked: tuple[tuple[ReportFile, Checked], ...]

    @property
    def counts(self) -> dict[str, int]:
        return {s: sum(c.status == s for _r, c in self.checked) for s in ("pass", "FAIL", "open")}

    @property
    def failed(self) -> bool:
        return self.counts["FAIL"] > 0

    def summary(self) -> str:
        n = self.counts
        return f"{n['pass']} passed, {n['FAIL']} failed" + (
            f", {n['open']} open (disagreements on record)" if n["open"] else "")

    def document(self) -> Document:
        if len(self.reports) == 1:
            return verification_document(self.reports[0], [c for _r, c in self.checked])
        sections = []
        for r in self.reports:
            mine = [c for rr, c in self.checked if rr is r]
            sections.append(Section(f"{r.title} ({r.path.name}, game {r.game.name})", (
                f"{r.source}.", verification_table(mine, f"lines-{r.path.stem}"))))
        opens = tuple(f"{r.path.name} line {c.line.number}: {c.line.open}"
                      for r, c in self.checked if c.status == "open")  # fmt: skip
        if opens:
            sections.append(Section("Open questions", (opens,)))
        return Document("Verification of the published figures", tuple(sections),
                        (("result", self.summary()),))

    def rows(self) -> list[dict[str, object]]:
        """One record per line (the command line's table)."""
        out = []
        for r, c in self.checked:
            p = c.line.printed
            out.append({"file": r.path.name, "line": c.line.number, "wager": c.line.wager,
                        "event": c.line.label, "figure": c.line.figure, "published": p.text,
                        "computed": _shown(c), "difference": float(c.difference),
                        "status": c.status,
                        "source": c.line.source or r.source,
                        "open": c.line.open})  # fmt: skip
        return out


def verify_files(paths: list[Path], only: str | None = None, log: Any = None) -> Verification:
    """Check every line of the report files (``only``: the lines whose wager, event or figure
    contains this text)."""
    reports, checked = [], []
    for path in paths:
        report, lines = check_report_file(path, log)
        reports.append(report)
        for c in lines:
            text = f"{c.line.wager} {c.line.label} {c.line.figure}"
            if only is None or only in text:
                checked.append((report, c))
    return Verification(tuple(reports), tuple(checked))
