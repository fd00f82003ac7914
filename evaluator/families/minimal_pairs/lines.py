"""The prediction lines of the minimal-pair benchmarks: what every line shares (the instance id, the model's raw
output, the line of an answer that could not be parsed) and each benchmark's line model, built for the type of its
parsed answer (a label, a score)."""

from __future__ import annotations

import types
from typing import Annotated, Any, NotRequired

from pydantic import BaseModel, ConfigDict, Field, RootModel, with_config
from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from ...fileio.lines import STRICT_LINE

ItemId = Annotated[int, Field(ge=0, le=2**53 - 1, description="the dataset's id of the instance")]
RawOutput = Annotated[str, Field(description="the model's answer as generated")]


@with_config(STRICT_LINE)
class UnparseableLine(TypedDict):
    """A model answer that could not be parsed: no prediction, the text kept; it is scored wrong, never dropped."""

    id: ItemId
    prediction: None
    raw_output: RawOutput


def prediction_line_model(prediction: Any, *, parsed_doc: str, line_doc: str) -> type[BaseModel]:
    """The line model of a minimal-pair benchmark whose parsed answer has the type `prediction`: a parsed line
    (`ParsedLine`, the model's text may stay beside it in raw_output) or an `UnparseableLine`. The docstrings are
    the published schema's descriptions."""
    fields: dict[str, Any] = {"id": ItemId, "prediction": prediction, "raw_output": NotRequired[RawOutput]}
    ParsedLine: Any = TypedDict("ParsedLine", fields)  # type: ignore[misc]  # its fields are the caller's
    ParsedLine.__doc__ = parsed_doc
    root: Any = RootModel[with_config(STRICT_LINE)(ParsedLine) | UnparseableLine]  # type: ignore[misc]

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(__doc__=line_doc, model_config=ConfigDict(strict=True, frozen=True), __module__=__name__)

    model: type[BaseModel] = types.new_class("PredictionLine", (root,), exec_body=body)
    return model
