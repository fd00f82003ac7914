"""Reading a multiple-choice prediction file: completion lines (a log-likelihood per option) or option lines (the
model's raw output), every problem of the file collected, then the option each item chose."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from ...fileio.jsonl import json_type_name
from ..reading import LineIds, PredictionLines, ProblemOf, read_lines
from .dataset import MultipleChoiceSplit
from .options import option_orders, parse_answer
from .spec import FORMAT_WRONG, MAX_OUTPUT_CHARS, MAX_PREDICTION_FILE_BYTES, MultipleChoiceSpec


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _parse_loglikelihoods(
    spec: MultipleChoiceSpec, value: Any, record: Any, problem: ProblemOf
) -> NDArray[np.float64] | None:
    """The log-likelihood of every option of a completion-mode line (-inf where not offered), or None."""
    keys = spec.option_keys
    if not isinstance(value, dict):
        problem("loglikelihoods", f"expected an object with {', '.join(keys)}, got {json_type_name(value)}")
        return None
    ok = True
    for key in sorted(set(value) - set(keys)):
        problem(f"loglikelihoods.{key}", f"unknown field (expected only {', '.join(keys)})")
        ok = False
    out = np.full(len(keys), -np.inf, dtype=np.float64)
    offered = spec.offered(record)
    for column, key in enumerate(keys):
        field_name = f"loglikelihoods.{key}"
        if key not in value:
            problem(field_name, "missing field" + spec.missing_hint.get(key, ""))
            ok = False
            continue
        raw = value[key]
        if key not in offered:
            if raw is not None:
                problem(
                    field_name,
                    f"expected null: item {spec.item_id(record)} {spec.absent_reason(record, key)}, "
                    f"got {json_type_name(raw)}",
                )
                ok = False
            continue
        number = _number(raw)
        if number is None:
            why = spec.null_hint(record, key) if raw is None else None
            hint = f" (item {spec.item_id(record)} {why})" if why else ""
            problem(field_name, f"expected a number, got {json_type_name(raw)}{hint}")
            ok = False
        elif number > 0.0:
            problem(field_name, f"log-likelihood {raw} is positive (expected a number <= 0)")
            ok = False
        else:
            out[column] = number
    return out if ok else None


def _parse_output(value: Any, problem: ProblemOf) -> str | None:
    if not isinstance(value, str):
        problem("output", f"expected a string (the model's raw output), got {json_type_name(value)}")
        return None
    if len(value) > MAX_OUTPUT_CHARS:
        problem(
            "output", f"expected at most {MAX_OUTPUT_CHARS:,} characters (the model's raw output), got {len(value):,}"
        )
        return None
    return value


@dataclass(frozen=True)
class Predictions:
    """A prediction file read against a split: the option each item chose (an index into option_keys, or
    FORMAT_WRONG) and, in completion mode, the choice under length normalisation too; in option mode the
    raw output of every row (what a wrong format was)."""

    mode: str
    chosen: NDArray[np.int8]
    chosen_norm: NDArray[np.int8] | None
    outputs: tuple[str, ...] = ()


def read_predictions(
    spec: MultipleChoiceSpec,
    path: Path,
    dataset: MultipleChoiceSplit,
    mode: str,
    *,
    display_name: str | None = None,
    line_model: type[BaseModel] | None = None,
    data: bytes | None = None,
) -> Predictions:
    """Read a prediction file of `mode` (its `data` where the caller has read it already); every problem of
    the file is collected and raised together. Each line's verdict is its line model's (what schemas/
    publishes)."""
    read = partial(_read_predictions, spec, dataset, mode)
    return read_lines(
        path, read, line_model=line_model, max_bytes=MAX_PREDICTION_FILE_BYTES, display_name=display_name, data=data
    )


def _read_predictions(
    spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, mode: str, lines: PredictionLines
) -> Predictions:
    value_field = "loglikelihoods" if mode == "completion" else "output"
    n = dataset.ids.size
    loglikelihoods = np.full((n, len(spec.option_keys)), -np.inf, dtype=np.float64)
    outputs: list[str | None] = [None] * n
    ids = LineIds(dataset.split, dataset.row_of_id, spec.id_field)
    for line, obj, problem in lines:
        for key in sorted(set(obj) - {"id", value_field}):
            problem(key, f"unknown field (expected only id and {value_field} in --mode {mode})")
        row = ids.row(obj, line, problem)
        if row is not None and value_field not in obj:
            problem(value_field, "missing field")
        elif row is not None and mode == "completion":
            parsed = _parse_loglikelihoods(spec, obj[value_field], dataset.records[row], problem)
            if parsed is not None:
                loglikelihoods[row] = parsed
        elif row is not None:
            outputs[row] = _parse_output(obj[value_field], problem)
    lines.finish(ids.missing(lines.name, dataset.ids))
    if mode == "completion":
        return Predictions(mode, *choose_by_loglikelihood(loglikelihoods, dataset.option_length))
    texts = tuple(o or "" for o in outputs)
    return Predictions(mode, choose_by_output(spec, texts, dataset), None, texts)


def choose_by_loglikelihood(
    loglikelihoods: NDArray[np.float64], option_length: NDArray[np.float64]
) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Arg-max of the log-likelihoods, plain and divided by each option's length in characters.

    As lm-evaluation-harness (EleutherAI/lm-evaluation-harness, lm_eval/api/task.py,
    ConfigurableTask.process_results for multiple_choice):
        completion_len = np.array([float(len(i)) for i in choices])
        pred = np.argmax(lls); pred_norm = np.argmax(lls / completion_len)
    `len` of the option string itself (without the space delimiter), and np.argmax takes the first
    of equal maxima. An option not offered is -inf, which never wins, so the tie order is that of the
    release's option order.
    """
    with np.errstate(invalid="ignore"):
        normalised = loglikelihoods / np.where(np.isnan(option_length), 1.0, option_length)
    return (
        np.argmax(loglikelihoods, axis=1).astype(np.int8),
        np.argmax(normalised, axis=1).astype(np.int8),
    )


def choose_by_output(
    spec: MultipleChoiceSpec, outputs: Sequence[str], dataset: MultipleChoiceSplit
) -> NDArray[np.int8]:
    """Map each raw output through the rebuilt shuffle to the option it names (FORMAT_WRONG if none)."""
    chosen = np.full(len(outputs), FORMAT_WRONG, dtype=np.int8)
    for row, (output, order) in enumerate(zip(outputs, option_orders(spec, dataset.records), strict=True)):
        position = parse_answer(output, len(order))
        if position is not None:
            chosen[row] = spec.option_keys.index(order[position])
    return chosen
