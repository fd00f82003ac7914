"""Minimal pairs and their metrics, for every benchmark built on negation minimal pairs (SPEC §1).

A record is normalised to `Instance` (its group, its type and the cue on each sentence); the pairs are built once
per split into integer arrays, and scoring a prediction file is a handful of vectorised numpy operations over
those arrays.

One module per job: records.py (a release line's model, parametrised by corpus and task, and the `Instance` it
reduces to), pairs.py (the pairs built), dataset.py (a split loaded), spec.py (what a benchmark declares),
lines.py (what every prediction line shares), reader.py (a prediction file read), scoring.py (the metrics and
per-item outcomes), text_report.py, baselines.py, display.py (the leaderboard's display block) and benchmark.py
(all of it wired into a `Benchmark`).
"""

from __future__ import annotations

from .baselines import baseline_codes
from .benchmark import minimal_pair_benchmark
from .dataset import MinimalPairDataset, load_split
from .display import minimal_pair_display
from .lines import ItemId, RawOutput, UnparseableLine, prediction_line_model
from .pairs import CUE_POSITIONS, PAIR_KINDS, PAIR_SETS, TARGET_POS, MinimalPairs, build_pairs
from .reader import MAX_PREDICTION_FILE_BYTES, UNPARSEABLE, read_predictions
from .records import Instance, InstanceType, Negation, RecordSchema, TaskField
from .scoring import outcomes, score_pairs
from .spec import MinimalPairSpec
from .text_report import format_report

__all__ = [
    "CUE_POSITIONS",
    "MAX_PREDICTION_FILE_BYTES",
    "PAIR_KINDS",
    "PAIR_SETS",
    "TARGET_POS",
    "UNPARSEABLE",
    "Instance",
    "InstanceType",
    "ItemId",
    "MinimalPairDataset",
    "MinimalPairSpec",
    "MinimalPairs",
    "Negation",
    "RawOutput",
    "RecordSchema",
    "TaskField",
    "UnparseableLine",
    "baseline_codes",
    "build_pairs",
    "format_report",
    "load_split",
    "minimal_pair_benchmark",
    "minimal_pair_display",
    "outcomes",
    "prediction_line_model",
    "read_predictions",
    "score_pairs",
]
