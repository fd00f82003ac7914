"""NegHub's public plugin API: everything a benchmark plugin imports, from one module.

A third-party benchmark is a Python distribution that names a `Benchmark` (or a function returning one) in the
entry-point group `neghub.benchmarks` (README.md, "Adding a benchmark"; tests/fixtures/plugin/ is the worked
plugin). It imports from here only:

- the benchmark and how the leaderboard shows it: `Benchmark`, `Display`, `Headline`, `MetricDisplay`,
  `ChartSpec`, `ChartSeries`, `PrimaryBoard`, and what a benchmark built by hand passes around (`EvalOptions`,
  `Result`, `ReferenceRule`, `BaselineRun`, `InputError`, `Problem`);
- the families' builders and specs: a multiple-choice benchmark (`MultipleChoiceSpec`,
  `multiple_choice_benchmark`, `shuffle_each_item`, `Prompts`, `multiple_choice_plans`) or a minimal-pair one
  (`MinimalPairSpec`, `RecordSchema`, `TaskField`, `minimal_pair_benchmark`, `minimal_pair_display`,
  `prediction_line_model`);
- the release's metadata and its record types: `DatasetMetadata`, `ReleaseFile`, `LicenseFile`, `RecordField`,
  `CardText`, `HubRelease`, `ExpectedSplit`;
- the runs `neghub run` executes and `neghub export lm-eval` writes: `RunSettings`, `RunPlan`, `Request`,
  `Answer`, `Rows`, `LoadedModel`, `LmEvalScoring`.

The modules these names are defined in are NegHub's own and move when its layers change; the names here do not.
This module's `__all__` is held against tests/plugin_api_names.txt: adding a name is a minor
release's entry in CHANGELOG.md, and removing one takes a deprecation in one minor release and the removal in
the next (semantic versioning for 0.x). An import path plugins used before this module existed keeps working for
one minor release, with a `DeprecationWarning` naming the import from here (protocol/deprecation.py).
"""

from __future__ import annotations

from .core.benchmark import (
    BaselineRun,
    Benchmark,
    ChartSeries,
    ChartSpec,
    Display,
    EvalOptions,
    Headline,
    MetricDisplay,
    PrimaryBoard,
    ReferenceRule,
)
from .core.errors import InputError, Problem
from .core.registry import ENTRY_POINT_GROUP
from .core.results import Result
from .families.minimal_pairs import (
    MinimalPairSpec,
    RecordSchema,
    TaskField,
    minimal_pair_benchmark,
    minimal_pair_display,
    prediction_line_model,
)
from .families.multiple_choice import (
    MultipleChoiceSpec,
    OptionOrder,
    Prompts,
    multiple_choice_benchmark,
    multiple_choice_plans,
    shuffle_each_item,
)
from .protocol.lm_eval import LmEvalScoring
from .protocol.metadata import (
    CardText,
    DatasetMetadata,
    ExpectedSplit,
    HubRelease,
    LicenseFile,
    RecordField,
    ReleaseFile,
)
from .protocol.model import LoadedModel
from .protocol.plans import DEFAULT_SEEDS, Rows, RunPlan, RunSettings
from .protocol.requests import Answer, Request

__all__ = [
    "DEFAULT_SEEDS",
    "ENTRY_POINT_GROUP",
    "Answer",
    "BaselineRun",
    "Benchmark",
    "CardText",
    "ChartSeries",
    "ChartSpec",
    "DatasetMetadata",
    "Display",
    "EvalOptions",
    "ExpectedSplit",
    "Headline",
    "HubRelease",
    "InputError",
    "LicenseFile",
    "LmEvalScoring",
    "LoadedModel",
    "MetricDisplay",
    "MinimalPairSpec",
    "MultipleChoiceSpec",
    "OptionOrder",
    "PrimaryBoard",
    "Problem",
    "Prompts",
    "RecordField",
    "RecordSchema",
    "ReferenceRule",
    "ReleaseFile",
    "Request",
    "Result",
    "Rows",
    "RunPlan",
    "RunSettings",
    "TaskField",
    "minimal_pair_benchmark",
    "minimal_pair_display",
    "multiple_choice_benchmark",
    "multiple_choice_plans",
    "prediction_line_model",
    "shuffle_each_item",
]
