"""The layers of the packages (``tests.lint_imports``, also run by ``make lint``): the real tree
passes, and the checker sees each kind of problem it exists for."""

from __future__ import annotations

from tests import lint_imports
from tests.lint_imports import cycles, layer, problems


def test_the_packages_keep_their_layers():
    assert problems() == []


def test_layers_of_modules():
    assert layer("analysis.render.formats") == 0
    assert layer("analysis.pricing.returns") < layer("analysis.report.build")
    assert layer("analysis") == layer("analysis.api") < layer("analysis.cli.main")
    assert layer("enumerate.tables") is None


def test_a_cycle_is_found_however_long():
    edges = {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({("a", "b"), ("b", "c")}) == []


def test_an_upward_import_a_private_name_and_a_hidden_cycle_are_flagged(tmp_path, monkeypatch):
    for folder in ("analysis/games", "analysis/pricing", "enumerate"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "analysis" / "__init__.py").write_text("")
    (tmp_path / "enumerate" / "__init__.py").write_text("")
    (tmp_path / "analysis" / "games" / "rules.py").write_text(
        "def f():\n    from analysis.pricing.price import _helper\n"
    )
    (tmp_path / "analysis" / "pricing" / "price.py").write_text(
        "from analysis.games.rules import f\n\ndef _helper():\n    pass\n"
    )
    (tmp_path / "enumerate" / "core.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from analysis.games import rules\n"
    )
    monkeypatch.setattr(lint_imports, "ROOT", tmp_path)
    found = problems()
    assert any("analysis.games.rules (layer 1) imports analysis.pricing.price" in p for p in found)
    assert any("private _helper of analysis.pricing.price" in p for p in found)
    assert any(p.startswith("import cycle: analysis.games.rules -> analysis.pricing.price")
               for p in found)  # fmt: skip
    assert not any("engine imports" in p for p in found)  # a TYPE_CHECKING import does not run
