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

import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from neghub.evaluator.core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from neghub.evaluator.core.registry import EvalOptions, Task, register
from neghub.evaluator.core.results import assemble_result
from neghub.evaluator.core.stats import BootstrapConfig, bootstrap_mean_ci
from neghub.evaluator.fileio.files import read_bytes
from neghub.evaluator.fileio.jsonl import JsonlReader, json_type_name, parse_jsonl
from neghub.evaluator.releases.loading import Release, ResolvedFile, find_release
from neghub.evaluator.releases.metadata import CardText, DatasetMetadata, RecordField, ReleaseFile

NAME = "nubench"
TASK_VERSION = "1"
MODES = ("completion", "option")
MULTIPLE_CHOICE = "multiple-choice"
SENTENCE_NEGATION = "sentence-negation"
MULTIPLE_CHOICE_SPLITS = ("test", "demonstration")

CHOICE_KEYS = ("choice1", "choice2", "choice3", "choice4")
# What each option is (Table 4); choice1, the standard negation, is always the answer.
WRONG_CHOICE_NAMES = {1: "local_negation", 2: "contradiction", 3: "paraphrase"}
CHOICE2_TYPES = ("relative_part", "pp_part", "adverb_part", "compound_part", "non-applicable")
LOCAL_NEGATION_TYPES = CHOICE2_TYPES[:4]
NON_APPLICABLE = "non-applicable"
Choice2Type = Literal["relative_part", "pp_part", "adverb_part", "compound_part", "non-applicable"]

OPTION_SEED = 42  # appendix M: process_docs_option(dataset, seed=42)
LETTERS = ("A", "B", "C", "D")  # appendix M: label_map
FORMAT_WRONG = -1  # the code of an option-mode answer that is none of the offered letters
BASELINE_KINDS = ("first", "random", "constant:choiceN")
MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024
# An option-mode output is a few tokens (the runner generates at most 4); the cap, published in
# schemas/prediction-nubench-option.schema.json, only bounds abuse.
MAX_OUTPUT_CHARS = 10_000
RELEASE_DIR = Path(__file__).parent / "release"  # the sample NegHub wrote, shipped in the package

_SAMPLE_FILES = (
    ReleaseFile(
        path="multiple-choice/test.jsonl",
        config=MULTIPLE_CHOICE,
        split="test",
        sha256="9b2e46ed22965a0d5c1255343912ed6c96691c2745b1708d193ea7b29bfb43e0",
        n_records=46,
    ),
    ReleaseFile(
        path="multiple-choice/demonstration.jsonl",
        config=MULTIPLE_CHOICE,
        split="demonstration",
        sha256="b7e4a8ff93d5510be0eac285cadf191e4eb6cdec10ba419bd2a5c58be504ac84",
        n_records=10,
    ),
    ReleaseFile(
        path="sentence-negation/train.jsonl",
        config=SENTENCE_NEGATION,
        split="train",
        sha256="1acb778118e23382f26ca1114408e2295fa97c846db46913d7c94a9bc8a16d24",
        n_records=20,
    ),
)

METADATA = DatasetMetadata(
    name="nubench",
    pretty_name="NUBench",
    version="neghub-sample-1",
    languages=("en",),
    # The paper's ethics statement: "released under the Creative Commons Attribution Non-Commercial
    # Share Alike 4.0"; the sample is published under the same terms so that both can sit together.
    license="cc-by-nc-sa-4.0",
    homepage="https://openreview.net/",
    citation=(
        "@misc{nubench,\n"
        "  title  = {{NUBench}: A Benchmark for {LLMs}' Sentence-Level Negation Understanding},\n"
        "  author = {Anonymous},\n"
        "  note   = {Paper under double-blind review},\n"
        "  year   = {2025}\n"
        "}"
    ),
    description=(
        "A SAMPLE WRITTEN BY NEGHUB, for testing and demonstration only: not the NUBench release and not "
        "comparable with the paper's numbers. NUBench tests sentence-level negation understanding: for an "
        "English sentence, pick its standard negation (choice1) among a local negation (choice2, absent for "
        "non-applicable items, which have three options), a contradiction (choice3) and a paraphrase "
        "(choice4). The sample has the release's layout and schema (configurations multiple-choice with "
        "splits test and demonstration, sentence-negation with split train; appendix L), written in NegHub's "
        "own words (46 test items, 10 demonstrations, 20 sentence/negation pairs). The official release "
        "loads through the same code from a mirror folder (--data-dir DIR with DIR/nubench/multiple-choice/"
        "test.jsonl, ...); its files differ from the sample's pinned sha256s, so score it with --unverified "
        "until NegHub pins them."
    ),
    hub_repo_id="neghub/nubench",
    revision=None,
    files=_SAMPLE_FILES,
    record_fields=(
        RecordField(name="index", type="int", description="item id, unique within the split (multiple-choice)"),
        RecordField(
            name="wikipedia_index",
            type="str",
            description="row of the Wikipedia Summary dataset the sentence comes from; 'S<n>' for conditionals "
            "found by manual search",
        ),
        RecordField(name="sentence", type="str", description="the original sentence"),
        RecordField(name="choice1", type="str", description="standard negation: the answer"),
        RecordField(
            name="choice2", type="str | null", description="local negation; null (or empty) for non-applicable items"
        ),
        RecordField(
            name="choice2_type",
            type="relative_part | pp_part | adverb_part | compound_part | non-applicable",
            description="where the local negation sits (relative, participle or adverbial clause, one clause of "
            "a compound sentence), or non-applicable",
        ),
        RecordField(
            name="choice2_element", type="str | null", description="the phrase or clause the local negation negates"
        ),
        RecordField(name="choice3", type="str", description="contradiction without explicit negation"),
        RecordField(name="choice4", type="str", description="paraphrase"),
        RecordField(name="premise", type="str", description="sentence-negation pairs: the original sentence"),
        RecordField(name="hypothesis", type="str", description="sentence-negation pairs: its standard negation"),
    ),
    is_sample=True,
    card=CardText(
        task_categories=("multiple-choice",),
        tags=("negation", "standard-negation", "local-negation"),
        phenomena=(
            "Sentence-level (standard) negation in English, defined over the logical structure of the sentence: "
            "the main predicate of every main clause is negated, coordinations follow De Morgan (Neg(P and Q) = "
            'Neg(P) or Neg(Q)), conditionals "if P, Q" are negated as "P and Neg(Q)", and complementary '
            "antonyms count as negation. Distractors: local negation (a relative clause, a participle clause, "
            "an adverbial clause or one conjunct of a compound sentence negated: `choice2_type`), a "
            "contradiction and a paraphrase."
        ),
        construction=(
            "Sentences from HoVer and the Wikipedia Summary dataset, corrected and split into single sentences; "
            "the standard and local negations written by hand, the contradiction and paraphrase generated and "
            "then reviewed by the authors. Multiple choice: `choice1` is the standard negation (the answer), "
            "`choice2` the local negation (left out when `choice2_type` is `non-applicable`, leaving three "
            "options), `choice3` a contradiction, `choice4` a paraphrase. NUBench has no minimal pairs; the "
            "sentence-negation configuration pairs each sentence with its standard negation, for fine-tuning."
        ),
        licensing="CC BY-NC-SA 4.0, as the NUBench paper states (Ethics statement): non-commercial use only.",
        limitations=(
            "English only; sentences come from Wikipedia-style factual prose.",
            "Which option is the standard negation rests on the paper's operational definition (Table 2), "
            "which natural-language coordination does not always fit unambiguously.",
        ),
    ),
)

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


@dataclass(frozen=True)
class MultipleChoiceSplit:
    """One multiple-choice split, ready to score: records in file order and their arrays."""

    split: str
    release: Release
    file: ResolvedFile
    records: tuple[MultipleChoiceRecord, ...]
    ids: NDArray[np.int64]
    type_code: NDArray[np.int8]  # index into CHOICE2_TYPES
    option_length: NDArray[np.float64]  # (n, 4) characters of each option; nan where choice2 is absent
    row_of_id: dict[int, int]

    @property
    def has_local_negation(self) -> NDArray[np.bool_]:
        has_local: NDArray[np.bool_] = self.type_code != CHOICE2_TYPES.index(NON_APPLICABLE)
        return has_local


def release(*, data_dir: Path | None = None, unverified: bool = False) -> Release:
    """Where the NUBench files come from (datasets.find_release): `data_dir/nubench/`, else
    $NEGHUB_DATA_DIR/nubench/ when that exists, else the sample bundled with the package (no Hub
    revision is pinned). An explicit `data_dir` without nubench/ is an error, as for every task."""
    return find_release(METADATA, data_dir=data_dir, unverified=unverified, bundled=RELEASE_DIR)


def _read_release_file(
    source: Release, split: str, config: str
) -> tuple[ResolvedFile, list[tuple[int, dict[str, Any]]]]:
    files = METADATA.files_for(split, config)
    if not files:
        known = ", ".join(f.split for f in METADATA.files if f.config == config)
        raise InputError.single(NAME, f"unknown {config} split {split!r} (expected one of: {known})", field="split")
    resolved = source.file(files[0])
    content = parse_jsonl(read_bytes(resolved.path), str(resolved.path))
    if content.problems:
        raise InputError(content.problems[:20])
    return resolved, content.objects


def _validation_problem(file: str, line: int, exc: ValidationError) -> Problem:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or None
    return Problem(file, line, where, f"invalid record: {err['msg']}")


def load(split: str = "test", *, data_dir: Path | None = None, unverified: bool = False) -> MultipleChoiceSplit:
    """Load one multiple-choice split (test or demonstration), checked against its pin and validated."""
    source = release(data_dir=data_dir, unverified=unverified)
    resolved, objects = _read_release_file(source, split, MULTIPLE_CHOICE)
    file = str(resolved.path)
    problems: list[Problem] = []
    records: list[MultipleChoiceRecord] = []
    first_line: dict[int, int] = {}
    for line, obj in objects:
        try:
            record = MultipleChoiceRecord.model_validate(obj)
        except ValidationError as exc:
            problems.append(_validation_problem(file, line, exc))
            continue
        problems.extend(Problem(file, line, where, message) for where, message in _choice2_problems(record))
        if record.index in first_line:
            problems.append(
                Problem(
                    file, line, "index", f"duplicate index {record.index} (first on line {first_line[record.index]})"
                )
            )
        first_line.setdefault(record.index, line)
        records.append(record)
    if problems:
        raise InputError(problems[:20])
    lengths = np.array(
        [
            [float(len(getattr(r, key) or "")) if key in r.option_keys() else np.nan for key in CHOICE_KEYS]
            for r in records
        ],
        dtype=np.float64,
    ).reshape(len(records), len(CHOICE_KEYS))
    return MultipleChoiceSplit(
        split=split,
        release=source,
        file=resolved,
        records=tuple(records),
        ids=np.array([r.index for r in records], dtype=np.int64),
        type_code=np.array([CHOICE2_TYPES.index(r.choice2_type) for r in records], dtype=np.int8),
        option_length=lengths,
        row_of_id={r.index: row for row, r in enumerate(records)},
    )


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


# --- the option-mode shuffle and answer parsing (appendix M; prompts: evaluator/runners/prompts.py) ---


def option_orders(records: Sequence[MultipleChoiceRecord], seed: int = OPTION_SEED) -> list[tuple[str, ...]]:
    """The option keys in the order shown as A, B, C(, D), for every item, as `process_docs_option` makes them.

    One `random.Random(seed)` is created per split and advanced item by item in file order: each
    item's `gathered` options (choice1..choice4, choice2 left out for non-applicable items) are
    shuffled with `rng.shuffle`. The shuffle's draws depend only on the list's length, so
    shuffling the keys alone gives the same permutation as the paper's (text, key) pairs.
    """
    rng = random.Random(seed)
    orders: list[tuple[str, ...]] = []
    for record in records:
        keys = list(record.option_keys())
        rng.shuffle(keys)
        orders.append(tuple(keys))
    return orders


_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)


def parse_answer(output: str, n_options: int) -> int | None:
    """The position (0 = A) a raw option-mode output names, or None for "answer format wrong".

    The paper's lm-evaluation-harness filters keep the first line (regex `^(.*?)(?=\\n|$)`), strip
    leading and trailing whitespace, and exact_match ignores case and ASCII punctuation
    (`string.punctuation`). So "b.", " (B)" and "**B**" name B; "B. Chromosome 2 ..." or "Answer: B"
    do not, and neither does D for a three-option item.
    """
    first_line = output.split("\n", 1)[0].strip()
    answer = first_line.lower().translate(_DROP_PUNCTUATION)
    offered = [letter.lower() for letter in LETTERS[:n_options]]
    return offered.index(answer) if answer in offered else None


# --- predictions ---------------------------------------------------------------------------------


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _parse_loglikelihoods(
    value: Any, record: MultipleChoiceRecord, problem: Callable[[str, str], None]
) -> NDArray[np.float64] | None:
    """The four log-likelihoods of a completion-mode line (-inf where choice2 is absent), or None."""
    if not isinstance(value, dict):
        problem("loglikelihoods", f"expected an object with {', '.join(CHOICE_KEYS)}, got {json_type_name(value)}")
        return None
    ok = True
    for key in sorted(set(value) - set(CHOICE_KEYS)):
        problem(f"loglikelihoods.{key}", f"unknown field (expected only {', '.join(CHOICE_KEYS)})")
        ok = False
    out = np.full(len(CHOICE_KEYS), -np.inf, dtype=np.float64)
    for column, key in enumerate(CHOICE_KEYS):
        field = f"loglikelihoods.{key}"
        if key not in value:
            problem(field, "missing field" + (" (null for a non-applicable item)" if key == "choice2" else ""))
            ok = False
            continue
        raw = value[key]
        if key == "choice2" and not record.has_local_negation:
            if raw is not None:
                problem(
                    field,
                    f"expected null: item {record.index} is non-applicable and has no local negation option, "
                    f"got {json_type_name(raw)}",
                )
                ok = False
            continue
        number = _number(raw)
        if number is None:
            hint = ""
            if raw is None and key == "choice2":
                hint = (
                    f" (item {record.index} has a local negation, {record.choice2_type}; "
                    "null is for non-applicable items)"
                )
            problem(field, f"expected a number, got {json_type_name(raw)}{hint}")
            ok = False
        elif number > 0.0:
            problem(field, f"log-likelihood {raw} is positive (expected a number <= 0)")
            ok = False
        else:
            out[column] = number
    return out if ok else None


def _parse_output(value: Any, problem: Callable[[str, str], None]) -> str | None:
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
    """A prediction file read against a split: the option each item chose (code 0..3 = choice1..4, or
    FORMAT_WRONG) and, in completion mode, the choice under length normalisation too."""

    mode: str
    chosen: NDArray[np.int8]
    chosen_norm: NDArray[np.int8] | None


def read_predictions(
    path: Path, dataset: MultipleChoiceSplit, mode: str, *, display_name: str | None = None
) -> Predictions:
    """Read a prediction file of `mode`; every problem of the file is collected and raised together."""
    name = display_name or str(path)
    problems = FileProblems()
    try:
        return _read_predictions(path, name, dataset, mode, problems)
    except TooManyProblems:
        raise stopped(name, problems) from None


def _read_predictions(
    path: Path, name: str, dataset: MultipleChoiceSplit, mode: str, problems: FileProblems
) -> Predictions:
    content = JsonlReader(read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES), name, problems)
    value_field = "loglikelihoods" if mode == "completion" else "output"
    n = dataset.ids.size
    loglikelihoods = np.full((n, len(CHOICE_KEYS)), -np.inf, dtype=np.float64)
    outputs: list[str | None] = [None] * n
    first_line_of_row: dict[int, int] = {}
    for line, obj in content:

        def problem(field: str, message: str, line: int = line) -> None:
            problems.append(Problem(name, line, field, message))

        for key in sorted(set(obj) - {"id", value_field}):
            problem(key, f"unknown field (expected only id and {value_field} in --mode {mode})")
        if "id" not in obj:
            problem("id", "missing field")
            continue
        raw_id = obj["id"]
        if not isinstance(raw_id, int) or isinstance(raw_id, bool):
            problem("id", f"expected an integer id (the item's index), got {json_type_name(raw_id)}")
            continue
        row = dataset.row_of_id.get(raw_id)
        if row is None:
            problem("id", f"unknown id {raw_id} (not an index of the {dataset.split} split)")
            continue
        if row in first_line_of_row:
            problem("id", f"duplicate id {raw_id} (first on line {first_line_of_row[row]})")
            continue
        first_line_of_row[row] = line
        if value_field not in obj:
            problem(value_field, "missing field")
            continue
        if mode == "completion":
            parsed = _parse_loglikelihoods(obj[value_field], dataset.records[row], problem)
            if parsed is not None:
                loglikelihoods[row] = parsed
        else:
            outputs[row] = _parse_output(obj[value_field], problem)
    missing = [row for row in range(n) if row not in first_line_of_row]
    if missing:
        shown = ", ".join(str(int(dataset.ids[row])) for row in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        problems.append(
            Problem(
                name, None, "id", f"{len(missing)} ids of the {dataset.split} split have no prediction: {shown}{more}"
            )
        )
    if problems:
        raise InputError(problems)
    if mode == "completion":
        return Predictions(mode, *choose_by_loglikelihood(loglikelihoods, dataset.option_length))
    return Predictions(mode, choose_by_output([o or "" for o in outputs], dataset), None)


def choose_by_loglikelihood(
    loglikelihoods: NDArray[np.float64], option_length: NDArray[np.float64]
) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Arg-max of the log-likelihoods, plain and divided by each option's length in characters.

    As lm-evaluation-harness (EleutherAI/lm-evaluation-harness, lm_eval/api/task.py,
    ConfigurableTask.process_results for multiple_choice):
        completion_len = np.array([float(len(i)) for i in choices])
        pred = np.argmax(lls); pred_norm = np.argmax(lls / completion_len)
    `len` of the option string itself (without the space delimiter), and np.argmax takes the first
    of equal maxima. An absent choice2 is -inf, which never wins, so the tie order is that of the
    paper's [choice1, choice3, choice4] list.
    """
    with np.errstate(invalid="ignore"):
        normalised = loglikelihoods / np.where(np.isnan(option_length), 1.0, option_length)
    return (
        np.argmax(loglikelihoods, axis=1).astype(np.int8),
        np.argmax(normalised, axis=1).astype(np.int8),
    )


def choose_by_output(outputs: Sequence[str], dataset: MultipleChoiceSplit) -> NDArray[np.int8]:
    """Map each raw output through the rebuilt shuffle to the option it names (FORMAT_WRONG if none)."""
    chosen = np.full(len(outputs), FORMAT_WRONG, dtype=np.int8)
    for row, (output, order) in enumerate(zip(outputs, option_orders(dataset.records), strict=True)):
        position = parse_answer(output, len(order))
        if position is not None:
            chosen[row] = CHOICE_KEYS.index(order[position])
    return chosen


# --- metrics -------------------------------------------------------------------------------------


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def diagnostics(
    chosen: NDArray[np.int8], type_code: NDArray[np.int8], bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """Accuracy and the error analysis of section 5.3 / appendix R for one vector of chosen options.

    Format-wrong answers count as errors in `acc` and `error_rate`, but "are not included in the
    incorrect choice distribution or confusion rate" (appendix R): the distribution's denominator is
    the wrong answers that named an option, and they are never counted as a local-negation pick.
    The confusion rate's denominator is every item of the type (section 5.3's example: 32 of 320).
    """
    correct = chosen == 0
    n = int(chosen.size)
    acc = _share(int(correct.sum()), n)
    wrong_counts = np.bincount(chosen[chosen > 0].astype(np.int64), minlength=len(CHOICE_KEYS))
    wrong_total = int(wrong_counts[1:].sum())
    confusion: dict[str, float | None] = {}
    for code, type_name in enumerate(CHOICE2_TYPES):
        if type_name == NON_APPLICABLE:
            continue
        of_type = type_code == code
        confusion[type_name] = _share(int(np.count_nonzero(of_type & (chosen == 1))), int(of_type.sum()))
    ci = None if bootstrap is None else bootstrap_mean_ci(correct, bootstrap)
    return {
        "acc": acc,
        "error_rate": None if acc is None else 1.0 - acc,
        "acc_ci95": None if ci is None else [ci[0], ci[1]],
        "incorrect_choice_distribution": {
            name: _share(int(wrong_counts[code]), wrong_total) for code, name in WRONG_CHOICE_NAMES.items()
        },
        "confusion_rate": confusion,
        "acc_by_type": {
            type_name: _share(int(np.count_nonzero(correct & (type_code == code))), int((type_code == code).sum()))
            for code, type_name in enumerate(CHOICE2_TYPES)
        },
    }


def score(dataset: MultipleChoiceSplit, predictions: Predictions, bootstrap: BootstrapConfig | None) -> dict[str, Any]:
    """The metrics of one prediction file: SPEC §2's accuracy and diagnostics, in both modes' keys."""
    result: dict[str, Any] = {"mode": predictions.mode, "n_items": int(dataset.ids.size)}
    main = diagnostics(predictions.chosen, dataset.type_code, bootstrap)
    result["acc"] = main.pop("acc")
    if predictions.chosen_norm is not None:
        normalised = diagnostics(predictions.chosen_norm, dataset.type_code, bootstrap)
        result["acc_norm"] = normalised["acc"]
        result["acc_norm_ci95"] = normalised["acc_ci95"]
    result.update(main)
    result["format_wrong"] = (
        int(np.count_nonzero(predictions.chosen == FORMAT_WRONG)) if predictions.mode == "option" else None
    )
    result["n_items_by_type"] = {
        type_name: int(np.count_nonzero(dataset.type_code == code)) for code, type_name in enumerate(CHOICE2_TYPES)
    }
    if predictions.mode == "option":
        result["option_seed"] = OPTION_SEED
    result["diagnostics_from"] = "acc (un-normalised arg-max)" if predictions.mode == "completion" else "parsed letters"
    return result


def report(result: dict[str, Any]) -> str:
    """A readable summary (percentages, as the paper prints them; --json gives fractions)."""

    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{100 * value:.2f}"

    ci = result["acc_ci95"]
    lines = [
        f"{result['task']} ({result['split']}, {result['mode']} mode), evaluator {result['evaluator_version']}, "
        f"task version {result['task_version']}, verified: {str(result['verified']).lower()}, "
        f"source: {result['dataset_source']}",
        f"items: {result['n_items']} (" + ", ".join(f"{k} {v}" for k, v in result["n_items_by_type"].items()) + ")",
        f"acc {pct(result['acc'])}%  95% CI [{pct(ci[0]) if ci else 'n/a'}, {pct(ci[1]) if ci else 'n/a'}]"
        + (f"  acc_norm {pct(result['acc_norm'])}%" if "acc_norm" in result else "")
        + f"  error rate {result['error_rate']:.3f}" * (result["error_rate"] is not None),
    ]
    if result["format_wrong"] is not None:
        lines.append(f"answer format wrong: {result['format_wrong']}")
    lines.append(
        "incorrect-choice distribution: "
        + ", ".join(f"{k} {pct(v)}%" for k, v in result["incorrect_choice_distribution"].items())
    )
    lines.append(
        "local-negation confusion rate: " + ", ".join(f"{k} {pct(v)}%" for k, v in result["confusion_rate"].items())
    )
    lines.append("accuracy by choice2_type: " + ", ".join(f"{k} {pct(v)}%" for k, v in result["acc_by_type"].items()))
    if result["dataset_source"] == "bundled":
        lines.append("NOTE: scored against NegHub's sample, not the NUBench release; not comparable with the paper.")
    return "\n".join(lines)


# --- baselines -----------------------------------------------------------------------------------


def baseline_choices(kind: str, dataset: MultipleChoiceSplit, seed: int) -> NDArray[np.int8]:
    """The option a trivial model picks for every item (codes 0..3), the same in both modes.

    - `first`: the option shown first (letter A) in the option-mode shuffle;
    - `random`: a uniformly random offered option (numpy default_rng(seed));
    - `constant:choiceN`: always choiceN; where an item lacks it (choice2 of a non-applicable
      item) the option shown first, as `first` does.
    A majority baseline does not apply: the answer is always choice1, so it would score 1.
    """
    orders = option_orders(dataset.records)
    first = np.array([CHOICE_KEYS.index(order[0]) for order in orders], dtype=np.int8)
    if kind == "first":
        return first
    if kind == "random":
        rng = np.random.default_rng(seed)
        return np.array([CHOICE_KEYS.index(order[int(rng.integers(len(order)))]) for order in orders], dtype=np.int8)
    if kind.startswith("constant:"):
        key = kind.removeprefix("constant:")
        if key not in CHOICE_KEYS:
            raise InputError.single("--kind", f"unknown option {key!r} (expected constant:choice1 .. constant:choice4)")
        code = CHOICE_KEYS.index(key)
        constant = np.full(len(orders), code, dtype=np.int8)
        return np.where((code == 1) & (dataset.type_code == CHOICE2_TYPES.index(NON_APPLICABLE)), first, constant)
    raise InputError.single("--kind", f"unknown baseline {kind!r} for nubench (expected {', '.join(BASELINE_KINDS)})")


# The picked option's log-likelihood is 0 and the others' -100, so it wins with and without
# length normalisation (-100/len < 0 for any length).
_PICKED_LL = 0.0
_OTHER_LL = -100.0


def baseline_rows(kind: str, dataset: MultipleChoiceSplit, mode: str, seed: int) -> list[dict[str, Any]]:
    """Prediction lines of a baseline in `mode`; both modes' lines pick the same options."""
    chosen = baseline_choices(kind, dataset, seed)
    rows: list[dict[str, Any]] = []
    for record, order, code in zip(dataset.records, option_orders(dataset.records), chosen, strict=True):
        picked = CHOICE_KEYS[int(code)]
        if mode == "option":
            rows.append({"id": record.index, "output": LETTERS[order.index(picked)]})
            continue
        lls: dict[str, float | None] = {
            key: (_PICKED_LL if key == picked else _OTHER_LL) if key in record.option_keys() else None
            for key in CHOICE_KEYS
        }
        rows.append({"id": record.index, "loglikelihoods": lls})
    return rows


# --- registration --------------------------------------------------------------------------------


def _mode(options: EvalOptions) -> str:
    if options.mode is None:
        raise InputError.single("--mode", f"nubench needs --mode ({' or '.join(MODES)})")
    if options.mode not in MODES:
        raise InputError.single("--mode", f"unknown mode {options.mode!r} for nubench (expected {', '.join(MODES)})")
    return options.mode


def _load_for(options: EvalOptions) -> MultipleChoiceSplit:
    split = options.split or "test"
    if split not in MULTIPLE_CHOICE_SPLITS:
        raise InputError.single(
            "--split", f"nubench scores the multiple-choice splits only (expected {', '.join(MULTIPLE_CHOICE_SPLITS)})"
        )
    return load(split, data_dir=options.data_dir, unverified=options.unverified)


def evaluate(path: Path, options: EvalOptions) -> dict[str, Any]:
    mode = _mode(options)
    dataset = _load_for(options)
    predictions = read_predictions(path, dataset, mode, display_name=options.display_name)
    return assemble_result(
        task=NAME,
        task_version=TASK_VERSION,
        split=dataset.split,
        predictions=path,
        release=dataset.release,
        dataset_file=dataset.file,
        scores=score(dataset, predictions, options.bootstrap),
        bootstrap=options.bootstrap,
    )


def baseline(kind: str, options: EvalOptions, seed: int) -> list[dict[str, Any]]:
    mode = _mode(options)
    return baseline_rows(kind, _load_for(options), mode, seed)


TASK = register(
    Task(
        name=NAME,
        version=TASK_VERSION,
        metadata=METADATA,
        evaluate=evaluate,
        report=report,
        baseline=baseline,
        default_split="test",
        modes=MODES,
        baseline_kinds=BASELINE_KINDS,
        bundled_release=RELEASE_DIR,
        splits=MULTIPLE_CHOICE_SPLITS,
    )
)
