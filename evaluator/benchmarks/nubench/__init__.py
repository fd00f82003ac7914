"""NUBench: sentence-level negation understanding as multiple choice (SPEC §2, papers/nubench.txt).

The official release is not available to NegHub. The release folder bundled with the package
(`evaluator/benchmarks/nubench/release/`) holds a sample NegHub wrote in the release's schema
(appendix L); the official files load through the same code from a mirror folder
(`<data-dir>/nubench/multiple-choice/test.jsonl`, ...), with `--unverified` until their sha256s
are pinned here.

Two prediction modes, as the paper evaluates:
- `completion`: one log-likelihood per option; the prediction is the arg-max (first on ties),
  scored as `acc` and as the length-normalised `acc_norm` of lm-evaluation-harness.
- `option`: the model's raw output for the prompt with shuffled, lettered options; the evaluator
  rebuilds the shuffle exactly as appendix M's `process_docs_option` does and parses the letter.
The diagnostics (error rate, incorrect-choice distribution, local-negation confusion rate per
`choice2_type`, format-wrong count) follow section 5.3 and appendix R.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from ...core.benchmark import (
    BaselineRun,
    BoardNote,
    ChartSeries,
    ChartSpec,
    Display,
    Headline,
    HeadlineBoard,
    MetricDisplay,
    PrimaryBoard,
)
from ...core.errors import InputError, Problem
from ...families import multiple_choice as family
from ...families.multiple_choice import (
    FORMAT_WRONG,
    LETTERS,
    MAX_OUTPUT_CHARS,
    MODES,
    MultipleChoiceSpec,
    MultipleChoiceSplit,
    choose_by_loglikelihood,
    multiple_choice_benchmark,
    parse_answer,
    read_release_file,
    validation_problem,
)
from ...papers.quotes import quote
from . import protocol
from .metadata import METADATA, MULTIPLE_CHOICE, SENTENCE_NEGATION

NAME = "nubench"
# 2: Wilson intervals for accuracy; per-item outcomes in the result
TASK_VERSION = "2"
HERE = Path(__file__).parent
RELEASE_DIR = HERE / "release"  # the sample NegHub wrote, shipped in the package
MULTIPLE_CHOICE_SPLITS = ("test", "demonstration")
CHOICE_KEYS = ("choice1", "choice2", "choice3", "choice4")
# What each option is (Table 4); choice1, the standard negation, is always the answer.
WRONG_CHOICE_NAMES = {"choice2": "local_negation", "choice3": "contradiction", "choice4": "paraphrase"}
CHOICE2_TYPES = ("relative_part", "pp_part", "adverb_part", "compound_part", "non-applicable")
LOCAL_NEGATION_TYPES = CHOICE2_TYPES[:4]
NON_APPLICABLE = "non-applicable"
Choice2Type = Literal["relative_part", "pp_part", "adverb_part", "compound_part", "non-applicable"]
OPTION_SEED = 42  # appendix M: process_docs_option(dataset, seed=42)
BASELINE_KINDS = ("first", "random", "constant:choiceN")

Text = Annotated[str, StringConstraints(min_length=1)]


class MultipleChoiceRecord(BaseModel):
    """One line of `multiple-choice/{test,demonstration}.jsonl` (appendix L.2)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    index: int
    wikipedia_index: Text
    sentence: Text
    choice1: Text
    choice2: str | None
    choice2_type: Choice2Type
    choice2_element: str | None
    choice3: Text
    choice4: Text

    @property
    def has_local_negation(self) -> bool:
        return self.choice2_type != NON_APPLICABLE

    def option_keys(self) -> tuple[str, ...]:
        """The options offered, in the order of appendix M's `gathered` list (choice2 left out when n/a)."""
        return CHOICE_KEYS if self.has_local_negation else ("choice1", "choice3", "choice4")


class SentenceNegationRecord(BaseModel):
    """One line of `sentence-negation/train.jsonl` (appendix L.1)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    index: int
    premise: Text
    hypothesis: Text


def _choice2_problems(record: MultipleChoiceRecord) -> list[tuple[str, str]]:
    """The option set must match the type: a local negation exactly when the type is not non-applicable.

    The paper's loader drops choice2 when the type is non-applicable *or* choice2 is empty; the two
    must agree here, or an item would silently lose or keep an option.
    """
    out: list[tuple[str, str]] = []
    if record.has_local_negation:
        if not record.choice2:
            out.append(("choice2", f"empty, but choice2_type is {record.choice2_type} (expected the local negation)"))
        if not record.choice2_element:
            out.append(("choice2_element", f"empty, but choice2_type is {record.choice2_type}"))
    else:
        if record.choice2:
            out.append(("choice2", "must be null or empty when choice2_type is non-applicable (three options)"))
        if record.choice2_element:
            out.append(("choice2_element", "must be null or empty when choice2_type is non-applicable"))
    return out


def _null_hint(record: MultipleChoiceRecord, key: str) -> str | None:
    if key != "choice2":
        return None
    return f"has a local negation, {record.choice2_type}; null is for non-applicable items"


SPEC = MultipleChoiceSpec(
    name=NAME,
    metadata=METADATA,
    record_model=MultipleChoiceRecord,
    config=MULTIPLE_CHOICE,
    splits=MULTIPLE_CHOICE_SPLITS,
    option_keys=CHOICE_KEYS,
    item_id=lambda record: record.index,
    answer=lambda record: "choice1",
    offered=lambda record: record.option_keys(),
    id_field="index",
    wrong_choice_names=WRONG_CHOICE_NAMES,
    item_type=lambda record: record.choice2_type,
    item_types=CHOICE2_TYPES,
    confusion_key="choice2",
    confusion_types=LOCAL_NEGATION_TYPES,
    record_problems=_choice2_problems,
    absent_reason=lambda record, key: "is non-applicable and has no local negation option",
    null_hint=_null_hint,
    missing_hint={"choice2": " (null for a non-applicable item)"},
    option_seed=OPTION_SEED,
    optional_options={"choice2": "three-option items"},
    bundled=RELEASE_DIR,
)


def release(*, data_dir: Path | None = None, unverified: bool = False) -> Any:
    """Where the NUBench files come from: `data_dir/nubench/`, else $NEGHUB_DATA_DIR/nubench/ when that
    exists, else the sample bundled with the package (no Hub revision is pinned)."""
    return family.release(SPEC, data_dir=data_dir, unverified=unverified)


def load(split: str = "test", *, data_dir: Path | None = None, unverified: bool = False) -> MultipleChoiceSplit:
    """Load one multiple-choice split (test or demonstration), checked against its pin and validated."""
    return family.load(SPEC, split, data_dir=data_dir, unverified=unverified)


def _read_release_file(source: Any, split: str, config: str) -> Any:
    return read_release_file(SPEC, source, split, config)


_validation_problem = validation_problem


def load_pairs(*, data_dir: Path | None = None, unverified: bool = False) -> tuple[SentenceNegationRecord, ...]:
    """Load the sentence-negation pairs (the fine-tuning set), checked against the pin and validated."""
    resolved, objects = _read_release_file(
        release(data_dir=data_dir, unverified=unverified), "train", SENTENCE_NEGATION
    )
    problems: list[Problem] = []
    records: list[SentenceNegationRecord] = []
    seen: set[int] = set()
    for line, obj in objects:
        try:
            record = SentenceNegationRecord.model_validate(obj)
        except ValidationError as exc:
            problems.append(_validation_problem(str(resolved.path), line, exc))
            continue
        if record.index in seen:
            problems.append(Problem(str(resolved.path), line, "index", f"duplicate index {record.index}"))
        seen.add(record.index)
        records.append(record)
    if problems:
        raise InputError(problems[:20])
    return tuple(records)


def option_orders(records: Any, seed: int = OPTION_SEED) -> list[tuple[str, ...]]:
    """The option keys in the order shown as A, B, C(, D) for every item (appendix M's shuffle)."""
    return family.option_orders(SPEC, records, seed)


def read_predictions(
    path: Path, dataset: MultipleChoiceSplit, mode: str, *, display_name: str | None = None
) -> family.Predictions:
    """Read a prediction file of `mode` as `neghub evaluate` does (the line models decide each line)."""
    line_model = BENCHMARK.prediction_line(mode)
    return family.read_predictions(SPEC, path, dataset, mode, display_name=display_name, line_model=line_model)


def baseline_rows(kind: str, dataset: MultipleChoiceSplit, mode: str, seed: int) -> list[dict[str, Any]]:
    return family.baseline_rows(SPEC, kind, dataset, mode, seed)


def baseline_choices(kind: str, dataset: MultipleChoiceSplit, seed: int) -> NDArray[np.int8]:
    return family.baseline_choices(SPEC, kind, dataset, seed)


# The paper's error analyses (Tables 16 to 24) are of one run each: said on every board of theirs, so that a
# reader does not take a NegHub row's mean over seeds and the paper's one seed for the same kind of figure.
ERROR_ANALYSIS_NOTE = (
    "One run, seed 1234 (the paper's, line 1631): the paper's error analyses are single runs, not means over "
    "seeds, their few-shot examples drawn with that one seed (appendix R: "
    f"“{quote('nubench.error-analysis-seed').text}”)"
)

DISPLAY = Display(
    name="NUBench",
    summary="English multiple choice: pick the standard negation of a sentence among a local negation, a "
    "contradiction and a paraphrase, by log-likelihood (completion) or by answering a letter (option).",
    headline=Headline(path="acc", label="accuracy", unit="percent", ci_path="acc_ci95", higher_is_better=True),
    columns=(
        MetricDisplay(path="acc", label="acc", ci_path="acc_ci95"),
        MetricDisplay(
            path="acc_norm",
            label="acc_norm",
            ci_path="acc_norm_ci95",
            description="arg-max of the log-likelihood per character (completion mode)",
        ),
        MetricDisplay(path="error_rate", label="error rate"),
        MetricDisplay(path="incorrect_choice_distribution.local_negation", label="wrong → local negation"),
        MetricDisplay(path="incorrect_choice_distribution.contradiction", label="wrong → contradiction"),
        MetricDisplay(path="incorrect_choice_distribution.paraphrase", label="wrong → paraphrase"),
        *(
            MetricDisplay(path=f"confusion_rate.{t}", label=f"confusion: {t.replace('_part', '').replace('_', ' ')}")
            for t in LOCAL_NEGATION_TYPES
        ),
        MetricDisplay(path="format_wrong", label="answer format wrong", unit="count"),
    ),
    key_columns=("incorrect_choice_distribution.local_negation",),
    charts=(
        ChartSpec(
            kind="by_setting",
            title="Accuracy by number of shots",
            setting="shots",
            series=(ChartSeries(label="accuracy", path="acc", ci_path="acc_ci95"),),
            x_title="shots",
            y_title="accuracy (%)",
        ),
        ChartSpec(
            kind="heatmap",
            title="Local-negation confusion rate by the kind of local negation",
            series=tuple(
                ChartSeries(label=t.replace("_part", "").replace("_", " "), path=f"confusion_rate.{t}")
                for t in LOCAL_NEGATION_TYPES
            ),
        ),
    ),
    max_ci_half_width=0.10,
    prompt_styles=tuple(protocol.INSTRUCTIONS),
    primary_board=PrimaryBoard(
        split="test",
        mode="completion",
        shots=0,
        prompt="simple",
        why="The paper's first setting (its Table 12): zero-shot, the simple prompt, each option scored by its "
        "log-likelihood (completion), which asks nothing of the answer's format.",
        published_table="Table 12",
        no_leader="NegHub holds a 46-item sample of NUBench's test set, not the official test set: a row needs 40 of "
        "46 items right to reach a ±10-point interval, which only a model that saw the items reaches, so the board "
        "names no leader until the official test set is pinned.",
    ),
    board_notes=(BoardNote(test="error analysis", words=ERROR_ANALYSIS_NOTE),),
    headline_board=HeadlineBoard(
        table="Table 12", shots=0, mode="completion", finding="nubench.struggle-to-differentiate"
    ),
)

BENCHMARK = multiple_choice_benchmark(
    SPEC,
    version=TASK_VERSION,
    display=DISPLAY,
    default_split="test",
    baseline_runs={
        "random": (
            BaselineRun("random", split="test", mode="completion"),
            BaselineRun("random", split="test", mode="option"),
        ),
        "first": (
            BaselineRun("first", split="test", mode="completion"),
            BaselineRun("first", split="test", mode="option"),
        ),
    },
    reported_dir=HERE / "reported",
    plans=protocol.plans,
    baseline_kinds=BASELINE_KINDS,
)

# the line models, derived from the option keys (schemas/prediction-nubench-{completion,option}.schema.json)
NubenchCompletionPrediction = BENCHMARK.prediction_line("completion")
NubenchOptionPrediction = BENCHMARK.prediction_line("option")

__all__ = [
    "BASELINE_KINDS",
    "BENCHMARK",
    "FORMAT_WRONG",
    "LETTERS",
    "MAX_OUTPUT_CHARS",
    "MODES",
    "Problem",
    "ValidationError",
    "choose_by_loglikelihood",
    "parse_answer",
]
