"""Reading the toolkit's TOML data files (paytables, variants, rule cards): every failure is
one line of the caller's error class naming the file, never a traceback."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from enumerate.errors import DataFileError

E = TypeVar("E", bound=DataFileError)


def fail(error: type[E], where: Path | str, field: str, problem: str) -> E:
    """The one-line error ``where: field: problem`` of class ``error`` (to raise)."""
    return error(f"{where}: {field}: {problem}")


def text_field(error: type[DataFileError], doc: Mapping[str, Any], key: str, where: Path | str,
               default: str | None = None) -> str:  # fmt: skip
    """The text of field ``key`` (stripped), ``default`` when absent; absent without a default,
    not text, or blank where required is one line of ``error``.

    >>> text_field(DataFileError, {"name": " gli "}, "name", "f.toml")
    'gli'
    >>> text_field(DataFileError, {}, "name", "f.toml")
    Traceback (most recent call last):
    ...
    enumerate.errors.DataFileError: f.toml: name: missing (required)
    """
    if key not in doc:
        if default is None:
            raise fail(error, where, key, "missing (required)")
        return default
    value = doc[key]
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise fail(error, where, key, f"expected text, got {value!r}")
    return value.strip()


def exact(value: object) -> Fraction | None:
    """An exact number from a TOML value (int, float read as its decimal text, or a string such
    as ``"0.95"``, ``"19/20"`` or ``"5%"``); None when it is not a finite number.

    >>> exact(0.95), exact("5%"), exact(True), exact("lots")
    (Fraction(19, 20), Fraction(1, 20), None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip()
        scale = Fraction(1)
        if text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        try:
            return Fraction(text) * scale
        except (ValueError, ZeroDivisionError):
            return None
    return None


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
