"""The reports: markdown, CSV, JSON and HTML renderings, plots, the browsable site, and `paigow
reports` with its ahead-of-need work.
"""
