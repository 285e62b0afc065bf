"""The compile warm-up child of ``paigow reports``: started only where it can help, and
gone, with its folder, when the report is done."""

import time
from pathlib import Path

from analysis import warmup
from enumerate.rules import Deck


def test_no_child_for_a_small_deck_or_when_turned_off(monkeypatch):
    monkeypatch.delenv(warmup.ENV_OFF, raising=False)
    assert warmup.start(Deck.parse(warmup.DECK), ["gli"]) is None
    monkeypatch.setenv(warmup.ENV_OFF, "1")
    assert warmup.start(Deck.full(), ["gli"]) is None


def test_the_child_runs_at_low_priority_and_is_cleaned_up(monkeypatch):
    monkeypatch.delenv(warmup.ENV_OFF, raising=False)
    w = warmup.start(Deck.full(), ["gli"])
    assert w is not None
    try:
        assert w.folder.is_dir()
        stat = Path(f"/proc/{w.process.pid}/stat")
        if stat.exists():  # Linux: the child lowers its own priority as it starts
            deadline = time.monotonic() + 20
            while int(stat.read_text().rsplit(")", 1)[1].split()[16]) != 19:
                assert time.monotonic() < deadline and w.process.poll() is None
                time.sleep(0.05)
        assert w.process.poll() is None  # still compiling
    finally:
        w.stop()
    assert w.process.poll() is not None
    assert not w.folder.exists()
