"""Reading the toolkit's TOML data files (paytables, variants, rule cards): every failure is
one line of the caller's error class naming the file, never a traceback."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class DataFileError(ValueError):
    """A data file is wrong: one line naming the file and the field."""


def quoted(key: str) -> str:
    """A TOML key as written in a dotted field name: bare when it can be.

    >>> quoted("win"), quoted("five aces")
    ('win', '"five aces"')
    """
    bare = key.replace("-", "").replace("_", "").isalnum()
    return key if bare else f'"{key}"'


def read_text(path: Path, error: type[DataFileError]) -> str:
    """The text of the file at ``path``; a missing or unreadable file is one line of ``error``."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise error(f"{path}: cannot read: {err}") from None


def parse_toml(text: str, where: str, error: type[DataFileError]) -> dict[str, Any]:
    """The TOML document ``text`` (``where`` names it in the message of a syntax error)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{where}: not valid TOML: {err}") from None


def read_toml(
    path: Path, error: type[DataFileError], fields: Iterable[str] | None = None
) -> dict[str, Any]:
    """The TOML document at ``path``; any failure, or a top-level key not in ``fields`` (when
    given), is one line of ``error``."""
    doc = parse_toml(read_text(path, error), str(path), error)
    if fields is not None:
        known = tuple(fields)
        for key in doc:
            if key not in known:
                raise error(f"{path}: {quoted(key)}: unknown field (known: {', '.join(known)})")
    return doc
