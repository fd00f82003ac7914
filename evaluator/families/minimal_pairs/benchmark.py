"""The minimal-pair family's `Benchmark`: `minimal_pair_benchmark` wires a spec's split loading, file reading,
scoring, report and baselines together."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from typing_extensions import Unpack

from ...core.benchmark import Benchmark, EvalOptions
from ...core.results import Result, read_predictions_file
from ..wiring import BenchmarkFields, Scored, family_benchmark
from .baselines import baseline_codes, reference_rules
from .dataset import MinimalPairDataset, load_split
from .reader import MAX_PREDICTION_FILE_BYTES, read_predictions
from .scoring import outcomes
from .spec import MinimalPairSpec
from .text_report import format_report


def minimal_pair_benchmark(
    spec: MinimalPairSpec,
    *,
    prediction_line: type[BaseModel],
    report: Callable[[Result], str] = format_report,
    **fields: Unpack[BenchmarkFields],
) -> Benchmark:
    """A minimal-pair benchmark, its lines checked by `prediction_line`."""
    return family_benchmark(
        spec,
        "minimal-pairs",
        score_file,
        baseline,
        fields,
        report=report,
        prediction_lines={None: prediction_line},
        read_split=lambda release, split: load_split(spec.name, split, release, spec.record.parse),
        references=partial(reference_rules, spec.n_values, spec.prediction_value),
    )


def score_file(spec: MinimalPairSpec, benchmark: Benchmark, path: Path, options: EvalOptions) -> Scored:
    """A prediction file scored against the split asked (read once: hashed and parsed from the same bytes)."""
    dataset = load_for(spec, str(benchmark.default_split), options)
    data, sha256 = read_predictions_file(path, MAX_PREDICTION_FILE_BYTES)
    raw_outputs: dict[int, str] = {}
    predicted = read_predictions(
        path,
        dataset,
        spec.parse_prediction,
        display_name=options.display_name,
        line_model=benchmark.prediction_line(None),
        data=data,
        raw_outputs=raw_outputs,
    )
    items, headline_items, pairs = outcomes(dataset, predicted, spec.prediction_value, raw_outputs)
    scores = spec.score(dataset, predicted, options.bootstrap)
    return Scored(sha256, dataset.split, None, dataset.release, dataset.file, scores, items, headline_items, pairs)


def baseline(
    spec: MinimalPairSpec, default_split: str, kind: str, options: EvalOptions, seed: int
) -> list[dict[str, Any]]:
    """The lines of a trivial model on the split (the majority is the train split's)."""
    dataset = load_for(spec, default_split, options)
    train = partial(load_for, spec, "train", EvalOptions(data_dir=options.data_dir, unverified=options.unverified))
    codes = baseline_codes(kind, dataset, seed, n_values=spec.n_values, parse=spec.parse_prediction, train=train)
    return [
        {"id": int(i), "prediction": spec.prediction_value(int(c))} for i, c in zip(dataset.ids, codes, strict=True)
    ]


def load_for(spec: MinimalPairSpec, default_split: str, options: EvalOptions) -> MinimalPairDataset:
    return spec.load(options.split or default_split, data_dir=options.data_dir, unverified=options.unverified)
