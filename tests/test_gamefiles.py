"""Game files, a game's math report and report files checked line by line, on a 16-card deck.

The game is written here from a rule text: a new variant (hidden dealer, no commission, the
dealer's queen-high pai gow wins every bet), a one-rule strategy card for the player, and a bet
file paying on the player's flush. Its report must hold every section and table; a report file
typed from the report's own printed figures, rounded as a vendor would, verifies; the same with
one figure's last digit changed fails on exactly that line.
"""

from __future__ import annotations

import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from analysis import api
from analysis.cli.main import main
from analysis.mathreport.game import load_game, shipped_games
from analysis.mathreport.reportfile import check_report_file, parse_printed, published_files

DECK = "TJQKA:cdh+joker"
HANDS = comb(16, 7)  # seven-card hands of the 16-card deck

VARIANT = """
name = "queens-lose"
title = "Queens Lose Pai Gow"
description = "dealer hidden; no commission; dealer queen-high pai gow: the dealer wins"
source = "the rule text of this test"
dealer_exposed = false
commission = 0
house_way = "gli"

[dealer_rules]
"queen-high pai gow" = "dealer-wins"
"""

CARD = """
name = "test-max-back"
version = "1"
title = "the strongest back, then the strongest front"
source = "the rule text of this test"

[[rule]]
text = "strongest back, then strongest front"
front = "strongest back"
"""

BET = """
name = "flush-bonus"
title = "Flush Bonus"
source = "the rule text of this test"
hand = "player"

[[event]]
name = "flush or straight flush"
when = "best_five == flush or best_five == straight_flush"
pays = 3
"""

GAME = f"""
name = "queens-lose"
title = "Queens Lose Pai Gow with the Flush Bonus"
source = "the rule text of this test"
variant = "queens-lose.toml"
way = "gli"
deck = "{DECK}"
players = ["house-way", "optimal"]
strategies = ["max-back-card.toml"]
simulate = 3000

[[side_bet]]
bet = "flush-bonus.toml"
"""


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("game")
    for name, text in (("queens-lose.toml", VARIANT), ("max-back-card.toml", CARD),
                       ("flush-bonus.toml", BET), ("game.toml", GAME)):  # fmt: skip
        (d / name).write_text(text)
    return d


@pytest.fixture(scope="module")
def written(game_dir: Path):
    out = game_dir / "out"
    report = api.game_report(str(game_dir / "game.toml"), out=out, log=lambda _m: None)
    return report, out


def test_the_report_has_every_section_in_a_labs_order(written):
    report, _out = written
    assert [s.title for s in report.document.sections] == [
        "The game", "Hand frequencies", "The base wager", "Side bets",
        "Optimal play and the house way", "Monte Carlo cross-check",
        "Appendix: exact fractions", "Provenance"]  # fmt: skip
    keys = {t.key for t in report.document.tables}
    for mode in ("house-way", "optimal", "card-test-max-back"):
        assert {f"base-{mode}", f"base-{mode}-statistics", f"base-{mode}-intervals",
                f"base-{mode}-exact"} <= keys  # fmt: skip
    assert {"hands", "side-flush-bonus", "side-flush-bonus-statistics", "optimal",
            "optimal-by-rule", "monte-carlo", "inputs", "house-way"} <= keys  # fmt: skip


def test_figures_from_the_rule_text(written):
    report, _out = written
    doc = report.document
    assert doc.table("hands").value("total", "combinations") == HANDS
    # the dealer's queen-high pai gow is a row of its own, a loss, in every mode
    base = doc.table("base-house-way")
    assert "dealer queen-high pai gow: dealer wins" in base.row_names
    # the bet pays 3 to 1 on a flush or straight flush: its edge is 1 - 4 P(flush or straight flush)
    side = doc.table("side-flush-bonus")
    p = Fraction(side.value("flush or straight flush", "combinations"), HANDS)
    assert doc.table("side-flush-bonus-statistics").value("house edge", "value") == 1 - 4 * p
    # optimal play never does worse than the house way
    optimal = doc.table("optimal")
    assert optimal.value("gain of optimal play", "house edge") >= 0
    # the game in words says what the files say
    words = doc.markdown()
    assert "no commission" in words and "queen-high pai gow" in words
    assert "the dealer wins every bet" in words and "one joker" in words


def test_every_table_is_written_and_the_pdf_holds_them(written):
    from pypdf import PdfReader

    report, out = written
    assert {p.name for p in out.iterdir()} == {"report.md", "report.html", "report.pdf",
                                               "tables"}  # fmt: skip
    for t in report.document.tables:
        assert (out / "tables" / f"{t.key}.csv").read_text() == t.csv()
    text = " ".join(page.extract_text() for page in PdfReader(out / "report.pdf").pages)
    flat = " ".join(text.split())
    for t in report.document.tables:
        assert " ".join(t.title.split()) in flat, t.title
    assert f"{HANDS:,}" in flat and "total" in flat


def test_writing_a_pdf_keeps_no_frame_of_its_caller_alive(tmp_path):
    """The tables a caller holds when it first writes a PDF are freed when it returns: fpdf2
    keeps the ImportError of its optional import, which held the importing frames."""
    import gc
    import weakref

    from analysis.render.document import Document, Section
    from analysis.render.pdf import write_pdf

    class Held:  # a table the caller holds
        pass

    def caller() -> weakref.ref:
        held = Held()
        write_pdf(Document("t", (Section("s", ("a line",)),)), tmp_path / "t.pdf")
        return weakref.ref(held)

    ref = caller()
    gc.collect()
    assert ref() is None
    import fpdf.encryption  # whoever imported it first, its error holds no frame

    error = getattr(fpdf.encryption, "import_error", None)
    assert error is None or error.__traceback__ is None


def _printed(x: Fraction, places: int) -> str:
    """A figure rounded as a vendor prints it."""
    return f"{float(x):.{places}f}"


def _report_file(report, game: Path, bump: int | None = None) -> str:
    """A vendor's report of the game typed from our report's printed figures: the house edge
    and probabilities to 4 or 6 places, combinations exact; ``bump``: the line whose last
    printed digit is off by one."""
    doc = report.document
    lines = []
    base = doc.table("base-house-way")
    for event in base.row_names[:-1]:
        lines.append(("base", event, "combinations", str(base.value(event, "combinations"))))
        lines.append(("base", event, "probability",
                      f'"{_printed(base.value(event, "probability"), 6)}"'))  # fmt: skip
    he = doc.table("base-house-way-statistics").value("house edge", "value")
    lines.append(("base", None, "house edge", f'"{float(100 * he):.2f}%"'))
    sd = doc.table("base-house-way-statistics").value("standard deviation", "value")
    lines.append(("base", None, "standard deviation", f'"{_printed(sd, 4)}"'))
    side = doc.table("side-flush-bonus-statistics").value("house edge", "value")
    lines.append(("flush-bonus", None, "house edge", f'"{_printed(side, 4)}"'))
    hands = doc.table("hands")
    lines.append(("hands", "flush", "combinations", str(hands.value("flush", "combinations"))))
    body = [f'title = "a vendor report"\nsource = "typed from our own"\ngame = "{game}"\n']
    for i, (wager, event, figure, value) in enumerate(lines, 1):
        if i == bump:
            value = _bump(value)
        ev = f'event = "{event}"\n' if event else ""
        body.append(f'[[line]]\nwager = "{wager}"\n{ev}figure = "{figure}"\nvalue = {value}\n')
    return "\n".join(body)


def _bump(value: str) -> str:
    """The printed value with its last digit changed by one."""
    m = re.search(r"(\d)(\D*)$", value)
    assert m is not None
    d = int(m.group(1))
    return value[: m.start(1)] + str(d - 1 if d else 1) + m.group(2)


def test_a_report_typed_from_the_report_verifies(written, game_dir):
    report, _out = written
    path = game_dir / "vendor.toml"
    path.write_text(_report_file(report, game_dir / "game.toml"))
    _, checked = check_report_file(path)
    assert len(checked) >= 8 and all(c.status == "pass" for c in checked)


@pytest.mark.parametrize("bump", [2, 5, -3])
def test_one_digit_off_fails_on_exactly_that_line(written, game_dir, bump, capsys):
    report, _out = written
    n = len(_report_file(report, game_dir / "game.toml").split("[[line]]")) - 1
    line = bump if bump > 0 else n + 1 + bump
    path = game_dir / f"vendor-{line}.toml"
    path.write_text(_report_file(report, game_dir / "game.toml", bump=line))
    _, checked = check_report_file(path)
    assert [c.line.number for c in checked if c.status == "FAIL"] == [line]
    out_dir = game_dir / f"verification-{line}"
    assert main(["verify", str(path), "--out", str(out_dir)]) == 1
    assert f"{n - 1} passed, 1 failed" in capsys.readouterr().out
    assert (out_dir / "report.pdf").is_file()


def test_printed_values_carry_their_precision():
    assert parse_printed("28.55%", "x").unit == Fraction(1, 10**4)
    assert parse_printed("0.025007", "x").unit == Fraction(1, 10**6)
    assert parse_printed(12, "x").unit == 1
    with pytest.raises(api.ReportFileError, match="no precision"):
        parse_printed(0.2855, "x")


BAD_GAMES = [
    ('way = "no-such-way"', "way: unknown house way 'no-such-way'"),
    ('players = ["best-response"]', "players[0]: variant queens-lose hides the dealer's hand"),
    ('banking = true', "banking: player banking is priced for traditional"),
    ('[[side_bet]]\nbet = "no-such-bet"', "side_bet[1].bet: unknown bet 'no-such-bet'"),
    ('[[side_bet]]\nbet = "missing.toml"', "side_bet[1].bet: no such file"),
]


@pytest.mark.parametrize("extra,message", BAD_GAMES)
def test_a_bad_game_file_is_one_line_and_writes_nothing(game_dir, extra, message, capsys):
    text = GAME
    key = extra.split(" = ")[0]
    if not key.startswith("[[") and key in text:
        text = re.sub(rf"^{key} = .*$", "", text, flags=re.M)
    path = game_dir / "bad.toml"
    path.write_text(text + "\n" + extra + "\n" if key.startswith("[[") else extra + "\n" + text)
    out = game_dir / "bad-out"
    assert main(["report", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and message in err, err
    assert not out.exists()


BAD_LINES = [
    ('wager = "nope"\nfigure = "house edge"\nvalue = "1.0%"', "wager 'nope': not in game"),
    ('wager = "base"\nevent = "nope"\nfigure = "combinations"\nvalue = 3',
     "event 'nope' is not a row"),
    ('wager = "base"\nfigure = "house edge"\nvalue = 0.05', "has no precision"),
    ('wager = "base"\nfigure = "combinations"\nvalue = 3', "is not a figure of a wager"),
    ('wager = "base"\nevent = "total"\nfigure = "house edge"\nvalue = "1%"',
     "is not a figure of an event"),
    ('wager = "base"\nplayer = "best-response"\nfigure = "house edge"\nvalue = "1%"',
     "not a player mode of game"),
]  # fmt: skip


@pytest.mark.parametrize("body,message", BAD_LINES)
def test_a_bad_report_line_is_one_line(game_dir, body, message, capsys):
    path = game_dir / "bad-report.toml"
    path.write_text(f'title = "t"\nsource = "s"\ngame = "game.toml"\n\n[[line]]\n{body}\n')
    out = game_dir / "bad-verification"
    assert main(["verify", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "line 1" in err and message in err, err
    assert not out.exists()


def test_the_shipped_games_read():
    names = {load_game(p).name for p in shipped_games()}
    assert names == {"traditional", "face-up", "dealer-open", "ez", "commission-free"}
    g = load_game("dealer-open")
    assert [b.label for b in g.side_bets] == ["jacks-beat-template", "chan-chu-template"]
    assert load_game("traditional").players[-2:] == (api.Player.BANKING,
                                                     api.Player.BANKING_OPTIMAL)


def test_the_published_files_read_as_report_files():
    """Every published file names its game and lines in the report-file form (the figures
    themselves are computed by ``paigow verify``, a full-deck job)."""
    import tomllib

    files = published_files()
    lines = 0
    for path in files:
        doc = tomllib.loads(path.read_text())
        assert doc["title"] and doc["source"] and "game" in doc
        lines += len(doc["line"])
    assert lines == 56
