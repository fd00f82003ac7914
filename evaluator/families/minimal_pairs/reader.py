"""Reading a minimal-pair prediction file: `{"id": ..., "prediction": ...}` lines (or a null prediction with the
model's `raw_output`), every problem of the file collected, into an array aligned with the split's rows."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from ...fileio.jsonl import json_type_name
from ..reading import LineIds, PredictionLines, ProblemOf, read_lines
from .dataset import MinimalPairDataset

MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024
# The code of a model answer that could not be parsed (`prediction: null` with `raw_output`): no gold equals it.
UNPARSEABLE = -2
_NO_LINE = -1  # the code of a row no line has predicted (yet)


def read_predictions(
    path: Path,
    dataset: MinimalPairDataset,
    parse_value: Callable[[Any], int],
    *,
    display_name: str | None = None,
    line_model: type[BaseModel] | None = None,
    data: bytes | None = None,
    raw_outputs: dict[int, str] | None = None,
) -> NDArray[np.int16]:
    """Read `{"id": ..., "prediction": ...}` lines into an array aligned with the dataset's rows.

    `data` is the file's content where the caller has read it already (it is then not read again);
    `raw_outputs` collects id -> raw output of every answer that did not parse.

    Each line's verdict is its prediction-line model's (`line_model`, what schemas/ publishes): a line
    the model refuses is a problem, worded by the checks below where they name it, else by pydantic.

    `parse_value` turns a prediction into the task's integer code, or raises ValueError with
    what was expected. A runner whose model answered something it could not parse writes
    `"prediction": null` with the text in `"raw_output"`: that row gets UNPARSEABLE, which equals no
    gold value, so it is scored wrong and never dropped. Every problem of the file is collected
    and raised together.
    """
    read = partial(_read_predictions, dataset, parse_value, {} if raw_outputs is None else raw_outputs)
    return read_lines(
        path, read, line_model=line_model, max_bytes=MAX_PREDICTION_FILE_BYTES, display_name=display_name, data=data
    )


def _read_predictions(
    dataset: MinimalPairDataset,
    parse_value: Callable[[Any], int],
    raw_outputs: dict[int, str],
    lines: PredictionLines,
) -> NDArray[np.int16]:
    predicted = np.full(dataset.ids.size, _NO_LINE, dtype=np.int16)
    ids = LineIds(dataset.split, dataset.row_of_id)
    for line, obj, problem in lines:
        _read_line(obj, line, ids, parse_value, problem, predicted, raw_outputs)
    # A line that is not even JSON may hold any id: listing "missing" ids then only adds noise.
    lines.finish(None if lines.content.line_problems else ids.missing(lines.name, dataset.ids))
    return predicted


def _read_line(
    obj: dict[str, Any],
    line: int,
    ids: LineIds,
    parse_value: Callable[[Any], int],
    problem: ProblemOf,
    predicted: NDArray[np.int16],
    raw_outputs: dict[int, str],
) -> None:
    for key in sorted(set(obj) - {"id", "prediction", "raw_output"}):
        problem(key, "unknown field (expected only id, prediction and raw_output)")
    if "raw_output" in obj and not isinstance(obj["raw_output"], str):
        problem("raw_output", f"expected a string, got {json_type_name(obj['raw_output'])}")
    row = ids.row(obj, line, problem)
    if row is None:
        return
    if "prediction" not in obj:
        problem("prediction", "missing field")
        return
    if obj["prediction"] is None and isinstance(obj.get("raw_output"), str):
        predicted[row] = UNPARSEABLE
        raw_outputs[obj["id"]] = obj["raw_output"]
        return
    try:
        predicted[row] = parse_value(obj["prediction"])
    except ValueError as exc:
        problem("prediction", str(exc))
