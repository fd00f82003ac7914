"""Multiple choice, as the negation multiple-choice paper evaluates it (SPEC §2), for any benchmark composing it.

A benchmark describes its items with a `MultipleChoiceSpec` (spec.py): the record model of its release, the
option keys in the release's order (the order of the paper's `gathered` list), which option is right, which
options an item offers, and optionally the kind of each wrong option and a type per item (the kind of local
negation, say) for the diagnostics. Two prediction modes:
- `completion`: one log-likelihood per option; the prediction is the arg-max (first on ties), scored as
  `acc` and as the length-normalised `acc_norm` of lm-evaluation-harness (length in characters);
- `option`: the model's raw output for the prompt with shuffled, lettered options; the evaluator rebuilds
  the shuffle (by default one `random.Random(seed)` advanced item by item in file order; a spec's
  `option_order` orders each item by itself) and parses the letter.
The diagnostics: error rate, the distribution of wrong picks over the wrong options' kinds, the confusion
rate of one option per item type (picking the local negation, say), accuracy per type, and the count
of answers in no offered letter (option mode).

One module per job: spec.py (what a benchmark declares), dataset.py (a split loaded), options.py (the letters),
reader.py (a prediction file read), scoring.py (the metrics and per-item outcomes), text_report.py,
baselines.py, lines.py (the prediction-line models, derived from the option keys), benchmark.py (all of it wired
into a `Benchmark`) and protocol.py (how `neghub run` asks a model).
"""

from __future__ import annotations

from .baselines import BASELINE_KINDS, baseline_choices, baseline_rows
from .benchmark import multiple_choice_benchmark
from .dataset import MultipleChoiceSplit, load, read_release_file, release, validation_problem
from .lines import prediction_line_models
from .options import option_orders, parse_answer, shuffle_each_item
from .protocol import OPTION_MAX_NEW_TOKENS, Prompts, multiple_choice_plans
from .reader import Predictions, choose_by_loglikelihood, choose_by_output, read_predictions
from .scoring import diagnostics, outcomes, score
from .spec import (
    FORMAT_WRONG,
    LETTERS,
    MAX_OUTPUT_CHARS,
    MAX_PREDICTION_FILE_BYTES,
    MODES,
    MultipleChoiceSpec,
    OptionOrder,
)
from .text_report import report

__all__ = [
    "BASELINE_KINDS",
    "FORMAT_WRONG",
    "LETTERS",
    "MAX_OUTPUT_CHARS",
    "MAX_PREDICTION_FILE_BYTES",
    "MODES",
    "OPTION_MAX_NEW_TOKENS",
    "MultipleChoiceSpec",
    "MultipleChoiceSplit",
    "OptionOrder",
    "Predictions",
    "Prompts",
    "baseline_choices",
    "baseline_rows",
    "choose_by_loglikelihood",
    "choose_by_output",
    "diagnostics",
    "load",
    "multiple_choice_benchmark",
    "multiple_choice_plans",
    "option_orders",
    "outcomes",
    "parse_answer",
    "prediction_line_models",
    "read_predictions",
    "read_release_file",
    "release",
    "report",
    "score",
    "shuffle_each_item",
    "validation_problem",
]
