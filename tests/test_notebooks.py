"""The notebooks run top to bottom on a small deck, and are committed without outputs.

Runs ``notebooks/run_notebooks.py`` (nbclient, a python3 kernel of this interpreter) on the deck
23579JQA:cd+joker into a temporary folder. nbclient, nbformat and ipykernel are dev
dependencies: when they are missing this test fails (an ImportError), it never skips.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
SMALL_DECK = "23579JQA:cd+joker"
EXPECTED = (
    "01-rules-and-hand-classes.ipynb",
    "02-variant-and-paytables.ipynb",
    "03-house-ways-compared.ipynb",
)


def _runner() -> ModuleType:
    """``notebooks/run_notebooks.py`` as a module (notebooks/ is not a package)."""
    name = "run_notebooks"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, NOTEBOOKS / "run_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_the_notebooks_are_there() -> None:
    runner = _runner()
    assert [p.name for p in runner.notebook_paths()] == list(EXPECTED)
    assert not (NOTEBOOKS / ".keep").exists()


@pytest.mark.parametrize("name", EXPECTED)
def test_committed_without_outputs_and_with_a_deck_parameter(name: str) -> None:
    cells = _cells(NOTEBOOKS / name)
    for cell in cells:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{name}: outputs stored; clear them"
            assert cell["execution_count"] is None, f"{name}: execution count stored"
    params = [c for c in cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, f"{name}: one cell tagged 'parameters'"
    source = "".join(params[0]["source"])
    assert 'DECK = os.environ.get("PAIGOW_NOTEBOOK_DECK", "full")' in source
    assert "deck = Deck.parse(DECK)" in source


def test_kernel_env_inherits_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = _runner()
    monkeypatch.setenv("PAIGOW_SOMETHING", "kept")
    env = runner.kernel_env(SMALL_DECK)
    assert env["PAIGOW_NOTEBOOK_DECK"] == SMALL_DECK
    assert env["PAIGOW_SOMETHING"] == "kept"
    assert env["PAIGOW_CACHE_DIR"] == os.environ["PAIGOW_CACHE_DIR"]  # tests/conftest.py
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(NOTEBOOKS.parent)


def test_all_notebooks_run_on_a_small_deck(tmp_path: Path) -> None:
    runner = _runner()
    out = tmp_path / "executed"
    # three kernels at once: a small deck needs little memory, and the notebooks wait less in turn
    runs = runner.run_notebooks(deck=SMALL_DECK, out_dir=out, timeout=600, jobs=3)
    assert [r.notebook.name for r in runs] == list(EXPECTED)
    failed = {r.notebook.name: r.error for r in runs if not r.ok}
    assert not failed, failed
    for run in runs:
        assert run.output == out / run.notebook.name
        cells = _cells(run.output)
        code = [c for c in cells if c["cell_type"] == "code"]
        assert all(c["execution_count"] is not None for c in code), run.notebook.name
        outputs = [o for c in code for o in c["outputs"]]
        assert not [o for o in outputs if o["output_type"] == "error"], run.notebook.name
        text = "".join("".join(o.get("text", "")) for o in outputs)
        assert SMALL_DECK in text, f"{run.notebook.name} did not read the deck parameter"
        assert "Traceback" not in text
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        assert images, f"{run.notebook.name}: no plot"
    # the committed notebooks stay clean
    for name in EXPECTED:
        assert all(c.get("outputs", []) == [] for c in _cells(NOTEBOOKS / name))


def test_a_failing_notebook_is_reported_and_written(tmp_path: Path) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    runner = _runner()
    bad = tmp_path / "99-bad.ipynb"
    nb = new_notebook(
        cells=[
            new_code_cell("import os\nprint(os.environ['PAIGOW_NOTEBOOK_DECK'])"),
            new_code_cell("1 / 0"),
        ]
    )
    nbformat.write(nb, bad)
    run = runner.run_notebook(bad, tmp_path / "out", deck=SMALL_DECK, timeout=60)
    assert not run.ok and run.error.startswith("ZeroDivisionError")
    executed = _cells(run.output)
    assert "".join(executed[0]["outputs"][0]["text"]).strip() == SMALL_DECK


def test_command_line_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    runner = _runner()
    assert runner.main(["--deck", "nonsense", "--out", str(tmp_path)]) == 2
    assert runner.main(["--out", str(tmp_path), "42"]) == 2
    assert runner.main(["--out", str(NOTEBOOKS)]) == 2
    assert runner.main(["--out", str(tmp_path), "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("run_notebooks: ") == 4
