"""The one error of the condition language: what is wrong, where in the text, in which entry of
which file."""

from __future__ import annotations

from enumerate.datafile import DataFileError


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
