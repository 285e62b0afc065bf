"""Tables that show themselves in Jupyter as the HTML report shows them.

A table type with a ``render(fmt)`` method that writes markdown mixes in ``ShowsAsHtml``: a bare
table in a notebook cell then renders as the report's HTML (the table and its summary), from
the same markdown the report pages are made of.
"""

from __future__ import annotations

from analysis.render.formats import figure_tables, html_fragment


class ShowsAsHtml:
    """Mixin: ``_repr_html_`` from ``self.render("md")``."""

    def render(self, fmt: str = "md") -> str:  # pragma: no cover - every user defines it
        raise NotImplementedError

    def _repr_html_(self) -> str:

        with figure_tables():  # the summary figures as a table, as on the report's pages
            return html_fragment(self.render("md"))
