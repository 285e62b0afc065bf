"""The errors a user can cause, one class per kind of input, each one line saying where and
what (the command line prints it and exits with status 2). All are ``DataFileError``s, which are
``ValueError``s; this module imports nothing, so the API exports them at no cost.
"""

from __future__ import annotations


class DataFileError(ValueError):
    """A data file is wrong: one line naming the file and the field."""


class CardError(DataFileError):
    """A mistake in a rule card: one line saying where and what."""


class BetFileError(DataFileError):
    """A bet file is wrong: one line naming the file and the entry."""


class PaytableError(DataFileError):
    """A paytable file is wrong."""


class VariantError(DataFileError):
    """A variant file is wrong, or a variant name is unknown."""


class ConditionError(DataFileError):
    """A condition that cannot be read: one line naming the file and the entry (``where``), the
    column, and what is wrong.

    >>> err = ConditionError("unknown fact 'pair9'", at=4)
    >>> str(err.located("my-way.toml: rule 2 (two pair): when"))
    "my-way.toml: rule 2 (two pair): when, column 5: unknown fact 'pair9'"
    """

    def __init__(self, message: str, at: int | None = None, where: str = "") -> None:
        self.message, self.at, self.where = message, at, where
        column = "" if at is None else f"column {at + 1}: "
        head = f"{where}, {column}" if where and column else (f"{where}: " if where else column)
        super().__init__(head + message)

    def located(self, where: str) -> ConditionError:
        """The same error in the entry ``where`` (a file and an entry)."""
        return ConditionError(self.message, self.at, where)

    def shifted(self, offset: int) -> ConditionError:
        """The same error, its column counted from ``offset`` characters earlier (an error in
        a call's arguments, in the column of the whole condition)."""
        return ConditionError(self.message, None if self.at is None else self.at + offset,
                              self.where)  # fmt: skip


class GameFileError(DataFileError):
    """A game file is wrong: one line naming the file and the entry."""


class ReportFileError(DataFileError):
    """A report file (a math report's lines, to verify) is wrong: one line naming the file and
    the line."""
