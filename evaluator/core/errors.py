"""Problems with user input, reported one per line as `file:line: field: what was expected`.

Every command turns an `InputError` into those lines on stderr and exit code 2; nothing else
about bad input may reach the user as a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

EXIT_BAD_INPUT = 2


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one place of one input file."""

    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.field:
            return f"{where}: {self.field}: {self.message}"
        return f"{where}: {self.message}"


class InputError(Exception):
    """Bad input: carries every problem found, so they can be reported together."""

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else list(problems)
        if not self.problems:
            raise ValueError("InputError needs at least one problem")
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, file: str, message: str, *, line: int | None = None, field: str | None = None) -> InputError:
        return cls(Problem(file, line, field, message))
