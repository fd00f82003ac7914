"""The verdict on one prediction line, by its pydantic model: the same model schemas/ publishes.

A reader asks `accepts` of every line; where its own checks did not already name what is wrong with a
refused line, `problem` words pydantic's first error as one NegHub problem (field path, message), so a
line the published contract refuses is never let through, whatever the reader's own checks cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from ..core.errors import Problem

# what every benchmark's prediction-line models are: no key beyond theirs, no type coerced, no NaN or infinity
STRICT_LINE = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


@dataclass(frozen=True)
class LineGate:
    adapter: TypeAdapter[Any] | None

    @classmethod
    def of(cls, model: type[BaseModel] | None) -> LineGate:
        return cls(None if model is None else TypeAdapter(model))

    def accepts(self, obj: Any) -> bool:
        if self.adapter is None:
            return True
        try:
            self.adapter.validate_python(obj)
        except ValidationError:
            return False
        return True

    def problem(self, file: str, line: int, obj: Any) -> Problem:
        """The first reason the model gives for refusing `obj`, as one problem."""
        assert self.adapter is not None
        try:
            self.adapter.validate_python(obj)
        except ValidationError as exc:
            error = exc.errors()[0]
            parts = [str(p) for p in error["loc"] if not _is_union_member(p)]
            message = str(error["msg"]).removeprefix("Value error, ")
            return Problem(file, line, ".".join(parts) or None, f"{message} (the published line schema)")
        return Problem(file, line, None, "refused by the published line schema")


def _is_union_member(part: Any) -> bool:
    # pydantic names the member of a union it tried (a model or TypedDict name, or a function): not a key
    return isinstance(part, str) and (part[:1].isupper() or "[" in part or "(" in part)
