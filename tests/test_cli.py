"""The paigow command: output for people and programs, one-line errors with exit code 2."""

import json
import os
import subprocess
import sys

import pytest

from analysis.cli.main import main
from enumerate.runtime.allocator import HUGE_PAGE_VARIABLE


def test_hand_lists_21_settings(capsys):
    assert main(["hand", "As Ks Qs Js Ts 2c Jk"]) == 0
    out = capsys.readouterr().out
    assert out.count("royal flush /") == 6
    assert out.count("FOUL") == 3


def test_hand_json(capsys):
    assert main(["hand", "As Ks Qs Js Ts 2c Jk", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["settings"]) == 21
    assert data["class"] == "royal flush"
    for s in data["settings"]:
        assert sorted(s["high"] + s["low"]) == sorted(data["hand"])


def test_categories_json_small_deck(capsys):
    assert main(["categories", "--deck", "TJQKA:cdh+joker", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 11440  # C(16, 7)
    assert sum(r["combinations"] for r in data["rows"]) == data["total"]


def test_categories_csv_small_deck(capsys):
    assert main(["categories", "--deck", "TJQKA:cdh+joker", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "class,combinations,probability"
    assert lines[-1].startswith("total,11440,")


@pytest.mark.parametrize(
    "argv,message",
    [
        (["hand", "As Ks"], "expected 7 cards, got 2"),
        (["hand", "As Ks Qs Js Ts 2c Zz"], "unknown card 'Zz'"),
        (["hand", "As Ks Qs Js Ts 2c As"], "duplicate card 'As'"),
        (["categories", "--deck", "AK:cq"], "deck 'AK:cq'"),
        (["categories", "--deck", "AK:c"], "has 2 cards"),
        (["categories", "--format", "xml"], "invalid choice"),
        (["nosuch"], "invalid choice"),
        (["--wheel", "high", "hand", "x"], "invalid choice"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("paigow: error: ")
    assert message in err


def test_module_entry_point_exit_code():
    proc = subprocess.run(
        [sys.executable, "-m", "analysis", "hand", "As"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "paigow: error: expected 7 cards, got 1"
    assert "Traceback" not in proc.stderr


def test_the_cli_asks_numpy_for_no_huge_pages_unless_the_user_chose(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # numpy reads the variable when it is imported: a command's child processes (the
    # report's way tables) and a fresh ``paigow`` process get it (``enumerate.runtime.allocator``)
    monkeypatch.delenv(HUGE_PAGE_VARIABLE, raising=False)
    assert main(["categories", "--deck", "TJQKA:cdh+joker", "--format", "csv"]) == 0
    assert os.environ[HUGE_PAGE_VARIABLE] == "0"
    monkeypatch.setenv(HUGE_PAGE_VARIABLE, "1")
    assert main(["categories", "--deck", "TJQKA:cdh+joker", "--format", "csv"]) == 0
    assert os.environ[HUGE_PAGE_VARIABLE] == "1"
