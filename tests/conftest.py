"""Shared fixtures: caches go to a temporary folder so tests never touch data/cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    os.environ["PAIGOW_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(autouse=True, scope="session")
def _locked_numba_cache() -> None:
    """The test workers (and the report's child processes they start) compile into the same
    numba cache folders: each saves and loads there under the folder's lock."""
    from enumerate.runtime.numbacache import lock_cache_files

    lock_cache_files()
