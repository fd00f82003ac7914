"""Problems with user input, reported one per line as `file:line: field: what was expected`.

Every command turns an `InputError` into those lines on stderr and exit code 2 (3 for a `SourceUnavailable`:
a dataset release that cannot be reached here); nothing else about bad input may reach the user as a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field

EXIT_BAD_INPUT = 2
# A source NegHub needs cannot be reached here (a dataset release: offline, the host unreachable, no copy on this
# machine): nothing is wrong with what the user gave, so it is told apart from bad input (README, "Exit codes").
EXIT_UNAVAILABLE = 3
# Bounds on what one input file can make NegHub do and print (issue "The front door holds"): past
# STOP_AFTER problems a file's verdict is certain and reading it stops; at most SHOWN_PER_FILE of its
# problems are printed, then one line saying how many more there are.
STOP_AFTER = 1000
SHOWN_PER_FILE = 20
_STOPPED = "checking stopped"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one place of one input file."""

    file: str
    line: int | None
    field: str | None
    message: str
    # a line about other problems ("… and 30 more problems in FILE"), printed as its message alone
    summary: bool = dataclass_field(default=False, compare=False)
    # how to get on where the fix is the user's to choose (read a local copy instead): printed after the message
    # by a command; a build that says it once for all its problems prints `without_advice()`
    advice: str | None = dataclass_field(default=None, compare=False)

    def __str__(self) -> str:
        if self.summary:
            return self.message
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.field:
            return f"{where}: {self.field}: {self.full_message}"
        return f"{where}: {self.full_message}"

    @property
    def full_message(self) -> str:
        """The message with its advice, as a command prints it after the problem's place."""
        return self.message if self.advice is None else f"{self.message}; {self.advice}"

    def without_advice(self) -> str:
        """The problem without its advice."""
        return str(replace(self, advice=None))


class InputError(Exception):
    """Bad input: carries every problem found, so they can be reported together."""

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else list(problems)
        if not self.problems:
            raise ValueError("InputError needs at least one problem")
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(
        cls, file: str, message: str, *, line: int | None = None, field: str | None = None, advice: str | None = None
    ) -> InputError:
        return cls(Problem(file, line, field, message, advice=advice))


class SourceUnavailable(InputError):
    """A source NegHub needs cannot be reached on this machine (exit code 3): its problems name what is missing
    and where it was looked for."""


class TooManyProblems(Exception):
    """Raised by `FileProblems` when a file reaches STOP_AFTER problems: its verdict is certain."""


class FileProblems(list[Problem]):
    """The problems of one file being read. Appending the STOP_AFTER-th raises TooManyProblems, so that a
    reader of a huge garbage file stops early instead of describing every line of it."""

    def append(self, problem: Problem) -> None:
        super().append(problem)
        if len(self) >= STOP_AFTER:
            raise TooManyProblems

    def extend(self, problems: Iterable[Problem]) -> None:
        for problem in problems:
            self.append(problem)

    def __iadd__(self, problems: Iterable[Problem]) -> FileProblems:  # type: ignore[override,misc]
        self.extend(problems)
        return self


def stopped(file: str, problems: Iterable[Problem]) -> InputError:
    """The InputError of a file whose reading stopped at STOP_AFTER problems."""
    return InputError([*problems, Problem(file, None, None, _STOPPED, summary=True)])


def bounded(problems: Iterable[Problem], shown: int = SHOWN_PER_FILE) -> list[Problem]:
    """At most `shown` problems per file, in their order; then, for each file with more, one line
    `… and N more problems in FILE` (saying so when its reading stopped early)."""
    out: list[Problem] = []
    counts: dict[str, int] = {}
    was_stopped: set[str] = set()
    for problem in problems:
        if problem.summary:
            if problem.message == _STOPPED:
                was_stopped.add(problem.file)
            continue
        counts[problem.file] = counts.get(problem.file, 0) + 1
        if counts[problem.file] <= shown:
            out.append(problem)
    for file, count in counts.items():
        if count > shown:
            more = f"… and {count - shown} more problems in {file}"
            if file in was_stopped:
                more = f"… and at least {count - shown} more problems in {file} (checking stopped after {count})"
            out.append(Problem(file, None, None, more, summary=True))
    return out
