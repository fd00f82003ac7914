"""Reading a minimal-pair prediction file: `{"id": ..., "prediction": ...}` lines (or a null prediction with the
model's `raw_output`), every problem of the file collected, into an array aligned with the split's rows."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from ...fileio.files import read_bytes
from ...fileio.jsonl import MAX_LINE_BYTES, PLAIN_INT, PLAIN_STRING_OR_INT, json_type_name
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
    raws = {} if raw_outputs is None else raw_outputs
    if data is None:
        data = read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES)
    fast = read_plain_predictions(data, dataset, parse_value, raws)
    if fast is not None:
        return fast
    raws.clear()
    read = partial(_read_predictions, dataset, parse_value, raws)
    return read_lines(
        path, read, line_model=line_model, max_bytes=MAX_PREDICTION_FILE_BYTES, display_name=display_name, data=data
    )


# The usual line as `neghub run` writes it: `{"id": N, "prediction": V}`, or an unparsed answer `{"id": N,
# "prediction": null, "raw_output": "TEXT"}` whose text holds no escape, quote or control character.
_PLAIN_LINE = re.compile(
    r'^\{"id": '
    + PLAIN_INT
    + r', "prediction": (?:'
    + PLAIN_STRING_OR_INT
    + r'|null, "raw_output": "([^"\\\x00-\x1f]*)")\}$',
    re.MULTILINE,
)
# a raw output of at most this many characters keeps its line within the line cap (UTF-8: 4 bytes at most each)
MAX_RAW_CHARS = MAX_LINE_BYTES // 4


def read_plain_predictions(
    data: bytes, dataset: MinimalPairDataset, parse_value: Callable[[Any], int], raw_outputs: dict[int, str]
) -> NDArray[np.int16] | None:
    """The fast path for the usual file: every line as `neghub run` writes it (_PLAIN_LINE) and one line per instance
    of the split, every value one the task parses. Such a file is exactly one that the line-by-line reader and the
    published line model accept, with the same result; anything else (a problem to name, another key order, an
    escape in a raw output) returns None and is read line by line."""
    if b"\r" in data or data.startswith(codecs.BOM_UTF8) or len(data) > MAX_PREDICTION_FILE_BYTES:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    body = text.rstrip("\n")
    n = dataset.ids.size
    if body.count("\n") + 1 != n:
        return None
    rows = _PLAIN_LINE.findall(body)
    if len(rows) != n:
        return None
    predicted = np.full(n, _NO_LINE, dtype=np.int16)
    codes: dict[str, int] = {}
    row_of_id = dataset.row_of_id
    for raw_id, raw_value, raw_output in rows:
        item = int(raw_id)
        row = row_of_id.get(item)
        if row is None or predicted[row] != _NO_LINE or len(raw_output) > MAX_RAW_CHARS:
            return None
        if not raw_value:
            predicted[row] = UNPARSEABLE
            raw_outputs[item] = raw_output
            continue
        code = codes.get(raw_value)
        if code is None:
            try:
                code = codes[raw_value] = parse_value(json.loads(raw_value))
            except ValueError:
                return None
        predicted[row] = code
    return predicted


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
