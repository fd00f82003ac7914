"""What every family's readers share: the words for an invalid release record, reading a prediction file line by
line within bounds, and its line ids.

A prediction file names each item of a split once by its id. `read_lines` reads the file (or takes the bytes the
caller hashed), gives the reader its lines (`PredictionLines`: each line's object and the function that records a
problem of it; a line the reader found nothing wrong with is still checked by its line model, the published
schema) and turns a file that reaches STOP_AFTER problems into one error. `LineIds` checks the `id` of each line as
it comes (present, an integer, an item of the split, not seen before) and names the ids no line gave.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ValidationError

from ..core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ..fileio.files import read_bytes
from ..fileio.jsonl import JsonlReader, json_type_name
from ..fileio.lines import LineGate

T = TypeVar("T")
# how a reader records one problem of the line at hand: (field, message)
ProblemOf = Callable[[str, str], None]


def record_problem(file: str, line: int, exc: ValidationError) -> Problem:
    """A release record its model refuses, as one problem: pydantic's first error, at its field."""
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or None
    return Problem(file, line, where, f"invalid record: {err['msg']}")


def read_lines(
    path: Path,
    read: Callable[[PredictionLines], T],
    *,
    line_model: type[BaseModel] | None,
    max_bytes: int,
    display_name: str | None = None,
    data: bytes | None = None,
) -> T:
    """`read` the lines of the prediction file at `path` (its `data` where the caller has read it already, so that
    what is parsed is what was hashed); a file whose problems reach STOP_AFTER stops, as one InputError."""
    name = display_name or str(path)
    problems = FileProblems()
    try:
        if data is None:
            data = read_bytes(path, max_bytes=max_bytes)
        return read(PredictionLines(JsonlReader(data, name, problems), name, problems, LineGate.of(line_model)))
    except TooManyProblems:
        raise stopped(name, problems) from None


@dataclass(frozen=True)
class PredictionLines:
    """The JSON objects of a prediction file, each with the function that records a problem of its line. Once the
    reader is done with a line and has found nothing wrong, the line model (`gate`) checks it too, so a line the
    published schema refuses never passes."""

    content: JsonlReader
    name: str
    problems: FileProblems
    gate: LineGate

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any], ProblemOf]]:
        for line, obj in self.content:
            before = len(self.problems)

            def problem(field_name: str, message: str, line: int = line) -> None:
                self.problems.append(Problem(self.name, line, field_name, message))

            yield line, obj, problem
            if len(self.problems) == before and not self.gate.accepts(obj):
                self.problems.append(self.gate.problem(self.name, line, obj))

    def finish(self, missing: Problem | None) -> None:
        """Add the problem of the ids no line gave, if any (none where the file is no JSON Lines at all: its one
        problem says what it is), and raise every problem of the file together."""
        if missing is not None and not self.content.not_json_lines:
            self.problems.append(missing)
        if self.problems:
            raise InputError(self.problems)


@dataclass
class LineIds:
    """The dataset row each line names by its `id`, checked line by line.

    `id_field` is what the release calls the id, where the messages name it ("the item's index"); None where
    the id is simply the instance's.
    """

    split: str
    row_of_id: Mapping[int, int]
    id_field: str | None = None
    first_line_of_row: dict[int, int] = field(default_factory=dict)

    def row(self, obj: dict[str, Any], line: int, problem: ProblemOf) -> int | None:
        """The row the line names, or None after saying (through `problem`) why it names none."""
        if "id" not in obj:
            problem("id", "missing field")
            return None
        raw_id = obj["id"]
        if not isinstance(raw_id, int) or isinstance(raw_id, bool):
            what = f" (the item's {self.id_field})" if self.id_field else ""
            problem("id", f"expected an integer id{what}, got {json_type_name(raw_id)}")
            return None
        row = self.row_of_id.get(raw_id)
        if row is None:
            where = (
                f"not an {self.id_field} of the {self.split} split"
                if self.id_field
                else f"not in the {self.split} split"
            )
            problem("id", f"unknown id {raw_id} ({where})")
            return None
        if row in self.first_line_of_row:
            problem("id", f"duplicate id {raw_id} (first on line {self.first_line_of_row[row]})")
            return None
        self.first_line_of_row[row] = line
        return row

    def missing(self, file: str, ids: Sequence[int] | NDArray[np.int64]) -> Problem | None:
        """One problem naming the first ids (of the split's `ids`, in row order) that no line gave, if any."""
        if len(self.first_line_of_row) == len(ids):
            return None
        missing = [row for row in range(len(ids)) if row not in self.first_line_of_row]
        shown = ", ".join(str(int(ids[row])) for row in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        return Problem(
            file, None, "id", f"{len(missing)} ids of the {self.split} split have no prediction: {shown}{more}"
        )
