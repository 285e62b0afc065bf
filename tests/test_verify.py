"""paigow verify: report files' lines computed and compared: pass, fail, a stated tolerance, a
disagreement on record, the exit code."""

from math import comb

from analysis.cli.main import main
from analysis.mathreport.reportfile import check_report_file

TOTAL = comb(16, 7)  # the 16-card deck's hands, worked out by hand
HEAD = """
title = "test report"
source = "test"

[game]
variant = "traditional"
deck = "TJQKA:cdh+joker"
players = ["house-way"]
simulate = 0

"""


def _write(folder, body):
    path = folder / "x.toml"
    path.write_text(HEAD + body)
    return path


def _line(value, extra=""):
    return (f'[[line]]\nwager = "hands"\nevent = "total"\nfigure = "combinations"\n'
            f"value = {value}\n{extra}\n")


def _statuses(path):
    return [c.status for c in check_report_file(path)[1]]


def test_pass_and_fail(tmp_path):
    path = _write(tmp_path, _line(TOTAL) + _line(TOTAL + 1))
    assert _statuses(path) == ["pass", "FAIL"]


def test_a_stated_tolerance(tmp_path):
    # five aces on T-A x 3 suits + joker: only 3 aces exist, so none
    body = ('[[line]]\nwager = "hands"\nevent = "five aces"\nfigure = "combinations"\n'
            'value = 2\ntolerance = "2"\n\n[[line]]\nwager = "hands"\nevent = "five aces"\n'
            'figure = "combinations"\nvalue = 3\ntolerance = "2"\n')
    assert _statuses(_write(tmp_path, body)) == ["pass", "FAIL"]


def test_cli_exit_code(tmp_path, capsys):
    path = _write(tmp_path, _line(TOTAL + 5))
    assert main(["verify", str(path)]) == 1
    assert "0 passed, 1 failed" in capsys.readouterr().out


def test_a_disagreement_on_record_is_shown_open(tmp_path, capsys):
    path = _write(tmp_path, _line(TOTAL + 5, 'open = "which edition the source counted"'))
    assert _statuses(path) == ["open"]
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "0 passed, 0 failed, 1 open" in out and "OPEN: which edition" in out


def test_volatility_figures(tmp_path):
    """A statistic of a wager: the main wager's hit frequency is its probability of winning
    both hands (the return table's, which test_pricing checks against brute force)."""
    from fractions import Fraction

    from analysis.pricing.returns import analyze
    from enumerate.rules import Deck

    win = analyze("traditional", "gli", "house-way", Deck.parse("TJQKA:cdh+joker")).probability(
        "win")
    body = (f'[[line]]\nwager = "base"\nfigure = "hit frequency"\nvalue = "{float(win):.6f}"\n\n'
            f'[[line]]\nwager = "base"\nfigure = "hit frequency"\n'
            f'value = "{float(win + Fraction(1, 10**5)):.6f}"\n')
    assert _statuses(_write(tmp_path, body)) == ["pass", "FAIL"]
