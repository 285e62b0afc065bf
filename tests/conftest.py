"""Shared fixtures: caches go to a temporary folder so tests never touch data/cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    os.environ["PAIGOW_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
