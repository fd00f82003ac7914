"""The Self-Contained Negation Test (Kletz, Amsili and Candito, BlackboxNLP 2023; SPEC §3).

A triplet (NAME, PROF, ACT) is instantiated in five patterns: a context "NAME is a PROF who
(doesn't) like(s) to ACT." followed by a target "PRON is (not / very) happy to [MASK].". A model
keeps a triplet only when its top-1 at the mask of CpTp is ACT itself; the metric is, per pattern,
the share of kept triplets whose top-1 is still ACT (%-ACT-repetition), and drop = 1 - repetition.

The "dataset" is not a release of records but NegHub's word lists (words.py) and the generator (generator.py);
the triplets themselves are chosen per model by the runner (protocol.py). Scoring needs no data at all: it reads
the prediction file (reader.py), checks it (checks.py) and counts (scoring.py). The leaderboard also requires the
words to come from NegHub's lists (`check_vocabulary`). The rest: text_report.py, baselines.py, lines.py (the
published line model) and display.py; this module wires them into the `Benchmark`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.benchmark import BaselineRun, Benchmark, EvalOptions
from ...core.errors import InputError
from ...core.results import Result, assemble_result, read_predictions_file
from ...core.stats import BootstrapConfig
from . import protocol
from .baselines import BASELINE_KINDS, baseline_rows, prediction_row, reference_rules
from .checks import MAX_VERBS_PER_PAIR, check_predictions, check_vocabulary, load_predictions
from .criterion import CPTV_VETO, MIN_STRONG_DROP, judge
from .display import DISPLAY
from .generator import CONTEXTS, PRONOUN, TARGETS, instantiate, other_name, render
from .lines import PYTHON_WHITESPACE, PredictionLine
from .lm_eval import lm_eval_scoring
from .metadata import METADATA, PATTERNS, REFERENCE, VARIANTS
from .reader import (
    FIELDS,
    MAX_PREDICTION_FILE_BYTES,
    MAX_TOP1_CHARS,
    MAX_WORD_CHARS,
    Predictions,
    _columns,
    _columns_of_plain_rows,
    parse_predictions,
)
from .scoring import derive_metrics, negation_contrast, outcomes, score, triplet_outcomes
from .text_report import report
from .words import (
    WORD_LIST_DIR,
    WordLists,
    _load_word_lists,
    load_word_lists,
    parse_professions,
    parse_word_list,
    word_list_release,
)

NAME = "scn"
# 2: Wilson intervals for repetition and drop; the paper's three-way verdict
# 3: one verdict of the base test and the coreference controls together (passes, partially passes, fails,
#    inconclusive), each comparison paired or unpaired with its interval: NegHub's reading of sections 3.5 and 4
# 4: a non-coreference drop is small under the strong-drop minimum and below the base drop (lines 262, 270/287),
#    not merely below the coref drop; the CpTv veto is a part of its own
# 5: the criterion's words read relative to the other drops (criterion.READINGS): a negated drop at least 1.4 x the
#    CpTv drop (1.4 x both controls in coref), a non-coreference drop at most half the base drop, no fixed ceiling;
#    bert-large's base test read by line 246 and Table 6, not line 72; intervals clustered by name/profession pair
#    and by verb
TASK_VERSION = "5"


def evaluate(path: Path, options: EvalOptions) -> Result:
    """Score a prediction file; SCN has no split and reads no data (the words are in the file). For the
    leaderboard (`options.for_leaderboard`), its words must also come from NegHub's lists."""
    if options.split is not None:
        raise InputError.single("--split", "scn has no splits (leave --split out)")
    data, sha256 = read_predictions_file(path, MAX_PREDICTION_FILE_BYTES)
    predictions = load_predictions(path, display_name=options.display_name, data=data)
    if options.for_leaderboard:
        problems = check_vocabulary(predictions)
        if problems:
            raise InputError(problems)
    return result_from_predictions(sha256, predictions, options.bootstrap)


def result_from_predictions(predictions_sha256: str, predictions: Predictions, bootstrap: BootstrapConfig) -> Result:
    """The whole result of an already loaded (and checked) prediction file."""
    outcome = triplet_outcomes(predictions)  # one pass over every line, for the scores and the item outcomes
    return assemble_result(
        benchmark=BENCHMARK,
        split=None,
        mode=None,
        predictions_sha256=predictions_sha256,
        release=word_list_release(),
        dataset_file=None,
        scores=score(predictions, bootstrap, outcome),
        items=outcomes(predictions, outcome),
        headline_items=None,
        bootstrap=bootstrap,
    )


def baseline(kind: str, options: EvalOptions, seed: int) -> list[dict[str, Any]]:
    # `seed` is unused: both baselines are deterministic by construction
    if options.split is not None:
        raise InputError.single("--split", "scn has no splits (leave --split out)")
    return baseline_rows(kind, load_word_lists(unverified=options.unverified))


BENCHMARK = Benchmark(
    name=NAME,
    version=TASK_VERSION,
    metadata=METADATA,
    display=DISPLAY,
    family="cloze",
    evaluate=evaluate,
    report=report,
    baseline=baseline,
    default_split=None,
    prediction_lines={None: PredictionLine},
    baseline_kinds=BASELINE_KINDS,
    baseline_runs={"repeat": (BaselineRun("repeat"),), "never": (BaselineRun("never"),)},
    bundled_release=WORD_LIST_DIR,
    reported_dir=Path(__file__).parent / "reported",
    plans=protocol.plans,
    lm_eval=lm_eval_scoring,
    derive_metrics=derive_metrics,
    references=reference_rules,
)

__all__ = [
    "BASELINE_KINDS",
    "BENCHMARK",
    "CONTEXTS",
    "CPTV_VETO",
    "FIELDS",
    "MAX_PREDICTION_FILE_BYTES",
    "MAX_TOP1_CHARS",
    "MAX_VERBS_PER_PAIR",
    "MAX_WORD_CHARS",
    "METADATA",
    "MIN_STRONG_DROP",
    "PATTERNS",
    "PRONOUN",
    "PYTHON_WHITESPACE",
    "REFERENCE",
    "TARGETS",
    "VARIANTS",
    "WORD_LIST_DIR",
    "PredictionLine",
    "Predictions",
    "WordLists",
    "_columns",
    "_columns_of_plain_rows",
    "_load_word_lists",
    "check_predictions",
    "check_vocabulary",
    "derive_metrics",
    "instantiate",
    "judge",
    "load_predictions",
    "negation_contrast",
    "other_name",
    "parse_predictions",
    "parse_professions",
    "parse_word_list",
    "prediction_row",
    "render",
    "score",
    "triplet_outcomes",
    "word_list_release",
]
