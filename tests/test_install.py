"""The toolkit as installed from a wheel, outside the checkout: the wheel carries the shipped
data (rule cards, variants, bets, envy tables, published figures) and nothing of the cache, and
an installed copy finds its data and answers ``paigow analyze face-up`` with the checkout's
numbers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from analysis.api import return_table
from enumerate.paths import SOURCE_ROOT

DECK = "TJQKA:cdh+joker"


def _data_files() -> set[str]:
    data = SOURCE_ROOT / "data"
    return {p.relative_to(data).as_posix() for p in data.rglob("*.toml")
            if "cache" not in p.relative_to(data).parts}  # fmt: skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the sources (so no build folder lands in the checkout)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(SOURCE_ROOT / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "cache", "*.pyc")
    for folder in ("enumerate", "analysis", "data"):
        shutil.copytree(SOURCE_ROOT / folder, src / folder, ignore=skip)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(src)], check=True, cwd=src)  # fmt: skip
    (found,) = out.glob("*.whl")
    return found


def test_the_wheel_carries_the_data_and_no_cache(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.removeprefix("enumerate/data/") for n in names if n.startswith("enumerate/data/")}
    assert shipped == _data_files()
    assert not any("/cache/" in n for n in names)


def test_an_installed_copy_runs_analyze_face_up_outside_the_checkout(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(site), str(wheel)], check=True)  # fmt: skip
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site), "PAIGOW_CACHE_DIR": str(tmp_path / "cache")}
    where = subprocess.run(
        [sys.executable, "-c", "import enumerate.paths as p; print(p.data_dir())"],
        cwd=work, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert Path(where.stdout.strip()) == site / "enumerate" / "data"
    got = subprocess.run(
        [sys.executable, "-m", "analysis", "analyze", "face-up", "--deck", DECK,
         "--format", "json"],
        cwd=work, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    want = return_table("face-up", deck=DECK, use_cache=False)
    assert json.loads(got.stdout)["house_edge_fraction"] == str(want.house_edge)
