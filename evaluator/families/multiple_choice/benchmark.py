"""The multiple-choice family's `Benchmark`: `multiple_choice_benchmark` wires a spec's split loading, file reading,
scoring, report and baselines together, with the two modes' checks."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from typing_extensions import Unpack

from ...core.benchmark import Benchmark, EvalOptions, ReferenceRule
from ...core.errors import InputError
from ...core.results import Result, read_predictions_file
from ..wiring import BenchmarkFields, Scored, family_benchmark
from .baselines import BASELINE_KINDS, baseline_rows, reference_rules
from .dataset import MultipleChoiceSplit, load
from .lines import prediction_line_models
from .lm_eval import multiple_choice_lm_eval
from .reader import read_predictions
from .scoring import outcomes, score
from .spec import MAX_PREDICTION_FILE_BYTES, MODES, MultipleChoiceSpec
from .text_report import report


def multiple_choice_benchmark(
    spec: MultipleChoiceSpec,
    *,
    prediction_lines: Mapping[str | None, type[BaseModel]] | None = None,
    baseline_kinds: tuple[str, ...] = BASELINE_KINDS,
    **fields: Unpack[BenchmarkFields],
) -> Benchmark:
    """A multiple-choice benchmark. Its prediction-line models are derived from the option keys
    (`lines.prediction_line_models`) unless `prediction_lines` gives them; lm-eval scores its exported runs as
    lm_eval.py says unless `lm_eval` is given."""
    lines = prediction_lines or prediction_line_models(spec, fields["display"].name)
    fields.setdefault("lm_eval", partial(multiple_choice_lm_eval, spec, fields["default_split"]))
    return family_benchmark(
        spec,
        "multiple-choice",
        score_file,
        baseline,
        fields,
        report=report,
        prediction_lines=dict(lines),
        modes=MODES,
        splits=spec.splits,
        baseline_kinds=baseline_kinds,
        bundled_release=spec.bundled,
        references=partial(references, spec, fields["default_split"]),
    )


def references(
    spec: MultipleChoiceSpec, default_split: str, result: Result, options: EvalOptions
) -> list[ReferenceRule]:
    """The rule rows of the board of `result` (its split and mode)."""
    split_options = EvalOptions(split=result.provenance.split, data_dir=options.data_dir, unverified=options.unverified)
    return reference_rules(spec, load_for(spec, default_split, split_options), str(result.provenance.mode))


def score_file(spec: MultipleChoiceSpec, benchmark: Benchmark, path: Path, options: EvalOptions) -> Scored:
    """A prediction file of the mode asked, scored against the split asked (read once: hashed and parsed from the
    same bytes)."""
    mode = mode_of(spec, options)
    dataset = load_for(spec, benchmark.default_split, options)
    data, sha256 = read_predictions_file(path, MAX_PREDICTION_FILE_BYTES)
    line_model = benchmark.prediction_line(mode)
    predictions = read_predictions(
        spec, path, dataset, mode, display_name=options.display_name, line_model=line_model, data=data
    )
    items, headline_items = outcomes(spec, dataset, predictions)
    scores = score(spec, dataset, predictions, options.bootstrap)
    return Scored(sha256, dataset.split, mode, dataset.release, dataset.file, scores, items, headline_items)


def baseline(
    spec: MultipleChoiceSpec, default_split: str, kind: str, options: EvalOptions, seed: int
) -> list[dict[str, Any]]:
    return baseline_rows(spec, kind, load_for(spec, default_split, options), mode_of(spec, options), seed)


def mode_of(spec: MultipleChoiceSpec, options: EvalOptions) -> str:
    if options.mode is None:
        raise InputError.single("--mode", f"{spec.name} needs --mode ({' or '.join(MODES)})")
    if options.mode not in MODES:
        raise InputError.single(
            "--mode", f"unknown mode {options.mode!r} for {spec.name} (expected {', '.join(MODES)})"
        )
    return options.mode


def load_for(spec: MultipleChoiceSpec, default_split: str | None, options: EvalOptions) -> MultipleChoiceSplit:
    split = options.split or default_split
    if split not in spec.splits:
        raise InputError.single(
            "--split", f"{spec.name} scores the multiple-choice splits only (expected {', '.join(spec.splits)})"
        )
    return load(spec, split, data_dir=options.data_dir, unverified=options.unverified)
