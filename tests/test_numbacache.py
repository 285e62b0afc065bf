"""numba's cache files saved and loaded under their folder's lock
(``enumerate.runtime.numbacache``): a save holds it alone, loads share it, so a process never
reads or takes an index entry another process is writing."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from enumerate.runtime.numbacache import LOCK_NAME, lock_cache_files


def _can_take(path: Path, mode: int) -> bool:
    """Whether another open file of ``path`` gets ``mode`` now (flock locks belong to an open
    file, so this process's own lock counts against it)."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def test_a_save_holds_the_lock_alone_and_a_load_shares_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from numba.core import caching

    assert lock_cache_files()
    assert lock_cache_files()  # a second call changes nothing
    lock = tmp_path / LOCK_NAME
    seen: dict[str, tuple[bool, bool]] = {}

    def probing(name: str, method):  # type: ignore[no-untyped-def]
        def probe(self, *args):  # type: ignore[no-untyped-def]
            seen[name] = (_can_take(lock, fcntl.LOCK_SH), _can_take(lock, fcntl.LOCK_EX))
            return method(self, *args)

        return probe

    files = caching.IndexDataCacheFile
    monkeypatch.setattr(files, "_save_data", probing("save", files._save_data))
    monkeypatch.setattr(files, "_load_data", probing("load", files._load_data))
    cache = files(str(tmp_path), "kernel", ("stamp", 1))
    cache.save("signature", {"code": 1})
    assert cache.load("signature") == {"code": 1}
    assert seen["save"] == (False, False)  # held alone while the index and data are written
    assert seen["load"] == (True, False)  # shared: other loads go on, no save
    assert _can_take(lock, fcntl.LOCK_EX)  # and let go after each
