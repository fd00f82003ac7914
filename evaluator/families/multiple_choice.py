"""Multiple choice, as the negation multiple-choice paper evaluates it (SPEC §2), for any benchmark composing it.

A benchmark describes its items with a `MultipleChoiceSpec`: the record model of its release, the option
keys in the release's order (the order of the paper's `gathered` list), which option is right, which
options an item offers, and optionally the kind of each wrong option and a type per item (the kind of
local negation, say) for the diagnostics. Two prediction modes:
- `completion`: one log-likelihood per option; the prediction is the arg-max (first on ties), scored as
  `acc` and as the length-normalised `acc_norm` of lm-evaluation-harness (length in characters);
- `option`: the model's raw output for the prompt with shuffled, lettered options; the evaluator rebuilds
  the shuffle (one `random.Random(seed)` advanced item by item in file order) and parses the letter.
The diagnostics: error rate, the distribution of wrong picks over the wrong options' kinds, the confusion
rate of one option per item type (picking the local negation, say), accuracy per type, and the count
of answers in no offered letter (option mode).
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ValidationError

from ..core.benchmark import BaselineRun, Benchmark, Display, EvalOptions
from ..core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ..core.numbers import percent
from ..core.results import Result, assemble_result
from ..core.stats import BootstrapConfig, bootstrap_mean_ci
from ..fileio.files import read_bytes
from ..fileio.jsonl import JsonlReader, json_type_name, parse_jsonl
from ..fileio.lines import LineGate
from ..releases.loading import Release, ResolvedFile, find_release
from ..releases.metadata import DatasetMetadata

if TYPE_CHECKING:
    from ..runners.backend import Backend
    from ..runners.plans import RunPlan, RunSettings

MODES = ("completion", "option")
LETTERS = tuple(string.ascii_uppercase)  # appendix M's label_map, as far as options go
FORMAT_WRONG = -1  # the code of an option-mode answer that is none of the offered letters
MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024
MAX_OUTPUT_CHARS = 10_000  # an option-mode output is a letter; the cap only bounds abuse


@dataclass(frozen=True)
class MultipleChoiceSpec:
    """What a multiple-choice benchmark tells the family about its items."""

    name: str
    metadata: DatasetMetadata
    record_model: type[BaseModel]  # one line of the release's multiple-choice files
    config: str  # the release configuration that holds the multiple-choice splits
    splits: tuple[str, ...]  # the splits predictions are scored on
    option_keys: tuple[str, ...]  # every option field, in the release's order
    item_id: Callable[[Any], int]
    answer: Callable[[Any], str]  # the key of the right option
    offered: Callable[[Any], tuple[str, ...]]  # the keys an item offers, in the release's order
    id_field: str = "index"  # what the release calls the id a prediction line names
    wrong_choice_names: Mapping[str, str] = field(default_factory=dict)  # option key -> what a wrong pick of it is
    item_type: Callable[[Any], str] | None = None
    item_types: tuple[str, ...] = ()
    confusion_key: str | None = None  # the option whose pick rate per item type is the confusion rate
    confusion_types: tuple[str, ...] = ()  # the types whose items offer it
    record_problems: Callable[[Any], list[tuple[str, str]]] = lambda record: []
    # the words of a log-likelihood line's messages: why an item does not offer an option; why a null is
    # wrong for an option it offers (None: no hint); what to write for an option missing from the line
    absent_reason: Callable[[Any, str], str] = lambda record, key: f"does not offer {key}"
    null_hint: Callable[[Any, str], str | None] = lambda record, key: None
    missing_hint: Mapping[str, str] = field(default_factory=dict)
    option_seed: int = 42
    bundled: Path | None = None

    def option_text(self, record: Any, key: str) -> str:
        return str(getattr(record, key) or "")


@dataclass(frozen=True)
class MultipleChoiceSplit:
    """One multiple-choice split, ready to score: records in file order and their arrays."""

    split: str
    release: Release
    file: ResolvedFile
    records: tuple[Any, ...]
    ids: NDArray[np.int64]
    answer_code: NDArray[np.int8]  # index into option_keys of each item's right option
    type_code: NDArray[np.int8]  # index into item_types (0 where the benchmark has none)
    option_length: NDArray[np.float64]  # (n, options) characters of each option; nan where not offered
    row_of_id: dict[int, int]


def release(spec: MultipleChoiceSpec, *, data_dir: Path | None = None, unverified: bool = False) -> Release:
    """Where the files come from (releases.loading.find_release), the benchmark's bundled copy last."""
    return find_release(spec.metadata, data_dir=data_dir, unverified=unverified, bundled=spec.bundled)


def read_release_file(
    spec: MultipleChoiceSpec, source: Release, split: str, config: str
) -> tuple[ResolvedFile, list[tuple[int, dict[str, Any]]]]:
    files = spec.metadata.files_for(split, config)
    if not files:
        known = ", ".join(f.split for f in spec.metadata.files if f.config == config)
        raise InputError.single(
            spec.name, f"unknown {config} split {split!r} (expected one of: {known})", field="split"
        )
    resolved = source.file(files[0])
    content = parse_jsonl(read_bytes(resolved.path), str(resolved.path))
    if content.problems:
        raise InputError(content.problems[:20])
    return resolved, content.objects


def validation_problem(file: str, line: int, exc: ValidationError) -> Problem:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or None
    return Problem(file, line, where, f"invalid record: {err['msg']}")


def load(
    spec: MultipleChoiceSpec, split: str, *, data_dir: Path | None = None, unverified: bool = False
) -> MultipleChoiceSplit:
    """Load one multiple-choice split, checked against its pin and validated."""
    source = release(spec, data_dir=data_dir, unverified=unverified)
    resolved, objects = read_release_file(spec, source, split, spec.config)
    file = str(resolved.path)
    problems: list[Problem] = []
    records: list[Any] = []
    first_line: dict[int, int] = {}
    for line, obj in objects:
        try:
            record = spec.record_model.model_validate(obj)
        except ValidationError as exc:
            problems.append(validation_problem(file, line, exc))
            continue
        problems.extend(Problem(file, line, where, message) for where, message in spec.record_problems(record))
        item = spec.item_id(record)
        if item in first_line:
            problems.append(
                Problem(
                    file, line, spec.id_field, f"duplicate {spec.id_field} {item} (first on line {first_line[item]})"
                )
            )
        first_line.setdefault(item, line)
        records.append(record)
    if problems:
        raise InputError(problems[:20])
    keys = spec.option_keys
    lengths = np.array(
        [
            # characters, as lm-eval's len(option) counts them (not UTF-8 bytes: a Japanese or Korean option
            # would otherwise count three times its length)
            [float(len(spec.option_text(r, key))) if key in spec.offered(r) else np.nan for key in keys]
            for r in records
        ],
        dtype=np.float64,
    ).reshape(len(records), len(keys))
    type_of = spec.item_type
    return MultipleChoiceSplit(
        split=split,
        release=source,
        file=resolved,
        records=tuple(records),
        ids=np.array([spec.item_id(r) for r in records], dtype=np.int64),
        answer_code=np.array([keys.index(spec.answer(r)) for r in records], dtype=np.int8),
        type_code=np.array([spec.item_types.index(type_of(r)) if type_of else 0 for r in records], dtype=np.int8),
        option_length=lengths,
        row_of_id={spec.item_id(r): row for row, r in enumerate(records)},
    )


# --- the option-mode shuffle and answer parsing (the paper's appendix M) ---------------------------------


def option_orders(spec: MultipleChoiceSpec, records: Sequence[Any], seed: int | None = None) -> list[tuple[str, ...]]:
    """The option keys in the order shown as A, B, C, ..., for every item, as `process_docs_option` makes them.

    One `random.Random(seed)` is created per split and advanced item by item in file order: each item's
    offered options are shuffled with `rng.shuffle`. The shuffle's draws depend only on the list's length,
    so shuffling the keys alone gives the same permutation as the paper's (text, key) pairs.
    """
    rng = random.Random(spec.option_seed if seed is None else seed)
    orders: list[tuple[str, ...]] = []
    for record in records:
        keys = list(spec.offered(record))
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
    spec: MultipleChoiceSpec, value: Any, record: Any, problem: Callable[[str, str], None]
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
    """A prediction file read against a split: the option each item chose (an index into option_keys, or
    FORMAT_WRONG) and, in completion mode, the choice under length normalisation too."""

    mode: str
    chosen: NDArray[np.int8]
    chosen_norm: NDArray[np.int8] | None


def read_predictions(
    spec: MultipleChoiceSpec,
    path: Path,
    dataset: MultipleChoiceSplit,
    mode: str,
    *,
    display_name: str | None = None,
    line_model: type[BaseModel] | None = None,
) -> Predictions:
    """Read a prediction file of `mode`; every problem of the file is collected and raised together. Each
    line's verdict is its line model's (what schemas/ publishes)."""
    name = display_name or str(path)
    problems = FileProblems()
    try:
        return _read_predictions(spec, path, name, dataset, mode, problems, LineGate.of(line_model))
    except TooManyProblems:
        raise stopped(name, problems) from None


def _read_predictions(
    spec: MultipleChoiceSpec,
    path: Path,
    name: str,
    dataset: MultipleChoiceSplit,
    mode: str,
    problems: FileProblems,
    gate: LineGate,
) -> Predictions:
    content = JsonlReader(read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES), name, problems)
    value_field = "loglikelihoods" if mode == "completion" else "output"
    n = dataset.ids.size
    loglikelihoods = np.full((n, len(spec.option_keys)), -np.inf, dtype=np.float64)
    outputs: list[str | None] = [None] * n
    first_line_of_row: dict[int, int] = {}
    for line, obj in content:
        before = len(problems)

        def problem(field_name: str, message: str, line: int = line) -> None:
            problems.append(Problem(name, line, field_name, message))

        for key in sorted(set(obj) - {"id", value_field}):
            problem(key, f"unknown field (expected only id and {value_field} in --mode {mode})")
        row = _row(obj, dataset, spec, first_line_of_row, line, problem)
        if row is not None and value_field not in obj:
            problem(value_field, "missing field")
        elif row is not None and mode == "completion":
            parsed = _parse_loglikelihoods(spec, obj[value_field], dataset.records[row], problem)
            if parsed is not None:
                loglikelihoods[row] = parsed
        elif row is not None:
            outputs[row] = _parse_output(obj[value_field], problem)
        if len(problems) == before and not gate.accepts(obj):
            problems.append(gate.problem(name, line, obj))
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
    return Predictions(mode, choose_by_output(spec, [o or "" for o in outputs], dataset), None)


def _row(
    obj: dict[str, Any],
    dataset: MultipleChoiceSplit,
    spec: MultipleChoiceSpec,
    first_line_of_row: dict[int, int],
    line: int,
    problem: Callable[[str, str], None],
) -> int | None:
    """The dataset row a line names by its id, or None after saying why it names none."""
    if "id" not in obj:
        problem("id", "missing field")
        return None
    raw_id = obj["id"]
    if not isinstance(raw_id, int) or isinstance(raw_id, bool):
        problem("id", f"expected an integer id (the item's {spec.id_field}), got {json_type_name(raw_id)}")
        return None
    row = dataset.row_of_id.get(raw_id)
    if row is None:
        problem("id", f"unknown id {raw_id} (not an {spec.id_field} of the {dataset.split} split)")
        return None
    if row in first_line_of_row:
        problem("id", f"duplicate id {raw_id} (first on line {first_line_of_row[row]})")
        return None
    first_line_of_row[row] = line
    return row


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


# --- metrics -------------------------------------------------------------------------------------


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def diagnostics(
    spec: MultipleChoiceSpec, chosen: NDArray[np.int8], dataset: MultipleChoiceSplit, bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """Accuracy and the error analysis of the paper's section 5.3 / appendix R for one vector of chosen options.

    Format-wrong answers count as errors in `acc` and `error_rate`, but "are not included in the
    incorrect choice distribution or confusion rate" (appendix R): the distribution's denominator is
    the wrong answers that named an option, and they are never counted as a confused pick.
    The confusion rate's denominator is every item of the type (section 5.3's example: 32 of 320).
    """
    correct = chosen == dataset.answer_code
    n = int(chosen.size)
    acc = _share(int(correct.sum()), n)
    ci = None if bootstrap is None else bootstrap_mean_ci(correct, bootstrap)
    out: dict[str, Any] = {
        "acc": acc,
        "error_rate": None if acc is None else 1.0 - acc,
        "acc_ci95": None if ci is None else [ci[0], ci[1]],
    }
    if spec.wrong_choice_names:
        wrong = chosen[(chosen >= 0) & ~correct].astype(np.int64)
        wrong_counts = np.bincount(wrong, minlength=len(spec.option_keys))
        wrong_total = int(wrong_counts.sum())
        out["incorrect_choice_distribution"] = {
            name: _share(int(wrong_counts[spec.option_keys.index(key)]), wrong_total)
            for key, name in spec.wrong_choice_names.items()
        }
    if spec.item_types:
        if spec.confusion_key is not None:
            code = spec.option_keys.index(spec.confusion_key)
            out["confusion_rate"] = {
                type_name: _share(
                    int(np.count_nonzero((dataset.type_code == t) & (chosen == code))),
                    int(np.count_nonzero(dataset.type_code == t)),
                )
                for t, type_name in enumerate(spec.item_types)
                if type_name in spec.confusion_types
            }
        out["acc_by_type"] = {
            type_name: _share(
                int(np.count_nonzero(correct & (dataset.type_code == t))), int(np.count_nonzero(dataset.type_code == t))
            )
            for t, type_name in enumerate(spec.item_types)
        }
    return out


def score(
    spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, predictions: Predictions, bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """The metrics of one prediction file: accuracy and diagnostics, in both modes' keys."""
    result: dict[str, Any] = {"mode": predictions.mode, "n_items": int(dataset.ids.size)}
    main = diagnostics(spec, predictions.chosen, dataset, bootstrap)
    result["acc"] = main.pop("acc")
    if predictions.chosen_norm is not None:
        normalised = diagnostics(spec, predictions.chosen_norm, dataset, bootstrap)
        result["acc_norm"] = normalised["acc"]
        result["acc_norm_ci95"] = normalised["acc_ci95"]
    result.update(main)
    result["format_wrong"] = (
        int(np.count_nonzero(predictions.chosen == FORMAT_WRONG)) if predictions.mode == "option" else None
    )
    unparsed = result["format_wrong"] or 0  # a log-likelihood always "parses"; a letter may name no option
    result["answers"] = {"unparsed": unparsed, "parsed_share": _share(result["n_items"] - unparsed, result["n_items"])}
    if spec.item_types:
        result["n_items_by_type"] = {
            type_name: int(np.count_nonzero(dataset.type_code == t)) for t, type_name in enumerate(spec.item_types)
        }
    if predictions.mode == "option":
        result["option_seed"] = spec.option_seed
    result["diagnostics_from"] = "acc (un-normalised arg-max)" if predictions.mode == "completion" else "parsed letters"
    return result


def report(full: Result) -> str:
    """A readable summary (percentages, as the papers print them; --json gives fractions)."""

    pct = percent  # never "-0.00"; "n/a" with no unit after it (core/numbers.py)
    prov = full.provenance
    result = full.metrics
    ci = result["acc_ci95"]
    source = prov.dataset.source if prov.dataset else "n/a"
    lines = [
        f"{prov.task} ({prov.split}, {result['mode']} mode), evaluator {prov.evaluator_version}, "
        f"task version {prov.task_version}, verified: {str(prov.verified).lower()}, source: {source}",
        f"items: {result['n_items']}"
        + (
            " (" + ", ".join(f"{k} {v}" for k, v in result["n_items_by_type"].items()) + ")"
            if "n_items_by_type" in result
            else ""
        ),
        f"acc {pct(result['acc'], unit='%')}  95% CI [{pct(ci[0]) if ci else 'n/a'}, {pct(ci[1]) if ci else 'n/a'}]"
        + (f"  acc_norm {pct(result['acc_norm'], unit='%')}" if "acc_norm" in result else "")
        + f"  error rate {result['error_rate']:.3f}" * (result["error_rate"] is not None),
    ]
    if result["format_wrong"] is not None:
        lines.append(f"answer format wrong: {result['format_wrong']}")
    if "incorrect_choice_distribution" in result:
        lines.append(
            "incorrect-choice distribution: "
            + ", ".join(f"{k} {pct(v, unit='%')}" for k, v in result["incorrect_choice_distribution"].items())
        )
    if "confusion_rate" in result:
        lines.append(
            "confusion rate: " + ", ".join(f"{k} {pct(v, unit='%')}" for k, v in result["confusion_rate"].items())
        )
    if "acc_by_type" in result:
        lines.append(
            "accuracy by type: " + ", ".join(f"{k} {pct(v, unit='%')}" for k, v in result["acc_by_type"].items())
        )
    if prov.dataset is not None and prov.dataset.is_sample:
        lines.append(
            "NOTE: scored against a sample NegHub wrote, not the official release; not comparable with the paper."
        )
    return "\n".join(lines)


# --- baselines -----------------------------------------------------------------------------------

BASELINE_KINDS = ("first", "random", "constant:KEY")


def baseline_choices(spec: MultipleChoiceSpec, kind: str, dataset: MultipleChoiceSplit, seed: int) -> NDArray[np.int8]:
    """The option a trivial model picks for every item, the same in both modes.

    - `first`: the option shown first (letter A) in the option-mode shuffle;
    - `random`: a uniformly random offered option (numpy default_rng(seed));
    - `constant:KEY`: always that option; where an item does not offer it, the option shown first.
    A majority baseline does not apply where the answer is always the same option.
    """
    keys = spec.option_keys
    orders = option_orders(spec, dataset.records)
    first = np.array([keys.index(order[0]) for order in orders], dtype=np.int8)
    if kind == "first":
        return first
    if kind == "random":
        rng = np.random.default_rng(seed)
        return np.array([keys.index(order[int(rng.integers(len(order)))]) for order in orders], dtype=np.int8)
    if kind.startswith("constant:"):
        key = kind.removeprefix("constant:")
        if key not in keys:
            expected = " .. ".join(f"constant:{k}" for k in (keys[0], keys[-1]))
            raise InputError.single("--kind", f"unknown option {key!r} (expected {expected})")
        code = keys.index(key)
        offers = np.array([key in order for order in orders], dtype=np.bool_)
        return np.where(offers, np.int8(code), first).astype(np.int8)
    kinds = ", ".join((*BASELINE_KINDS[:-1], f"constant:{spec.option_keys[0].rstrip('0123456789')}N"))
    raise InputError.single("--kind", f"unknown baseline {kind!r} for {spec.name} (expected {kinds})")


# The picked option's log-likelihood is 0 and the others' -100, so it wins with and without
# length normalisation (-100/len < 0 for any length).
_PICKED_LL = 0.0
_OTHER_LL = -100.0


def baseline_rows(
    spec: MultipleChoiceSpec, kind: str, dataset: MultipleChoiceSplit, mode: str, seed: int
) -> list[dict[str, Any]]:
    """Prediction lines of a baseline in `mode`; both modes' lines pick the same options."""
    chosen = baseline_choices(spec, kind, dataset, seed)
    rows: list[dict[str, Any]] = []
    for record, order, code in zip(dataset.records, option_orders(spec, dataset.records), chosen, strict=True):
        picked = spec.option_keys[int(code)]
        if mode == "option":
            rows.append({"id": spec.item_id(record), "output": LETTERS[order.index(picked)]})
            continue
        lls: dict[str, float | None] = {
            key: (_PICKED_LL if key == picked else _OTHER_LL) if key in spec.offered(record) else None
            for key in spec.option_keys
        }
        rows.append({"id": spec.item_id(record), "loglikelihoods": lls})
    return rows


# --- the benchmark -------------------------------------------------------------------------------


def multiple_choice_benchmark(
    spec: MultipleChoiceSpec,
    *,
    version: str,
    display: Display,
    prediction_lines: Mapping[str | None, type[BaseModel]],
    default_split: str,
    baseline_runs: Mapping[str, tuple[BaselineRun, ...]] | None = None,
    reported_dir: Path | None = None,
    plans: Callable[[RunSettings, str], list[RunPlan]] | None = None,
    baseline_kinds: tuple[str, ...] = BASELINE_KINDS,
) -> Benchmark:
    """A multiple-choice benchmark: load, read, score, report and baselines wired to `spec`."""

    def mode_of(options: EvalOptions) -> str:
        if options.mode is None:
            raise InputError.single("--mode", f"{spec.name} needs --mode ({' or '.join(MODES)})")
        if options.mode not in MODES:
            raise InputError.single(
                "--mode", f"unknown mode {options.mode!r} for {spec.name} (expected {', '.join(MODES)})"
            )
        return options.mode

    def load_for(options: EvalOptions) -> MultipleChoiceSplit:
        split = options.split or default_split
        if split not in spec.splits:
            raise InputError.single(
                "--split", f"{spec.name} scores the multiple-choice splits only (expected {', '.join(spec.splits)})"
            )
        return load(spec, split, data_dir=options.data_dir, unverified=options.unverified)

    def evaluate(path: Path, options: EvalOptions) -> Result:
        mode = mode_of(options)
        dataset = load_for(options)
        predictions = read_predictions(
            spec, path, dataset, mode, display_name=options.display_name, line_model=prediction_lines[mode]
        )
        return assemble_result(
            benchmark=benchmark,
            split=dataset.split,
            mode=mode,
            predictions=path,
            release=dataset.release,
            dataset_file=dataset.file,
            scores=score(spec, dataset, predictions, options.bootstrap),
            bootstrap=options.bootstrap,
        )

    def baseline(kind: str, options: EvalOptions, seed: int) -> list[dict[str, Any]]:
        return baseline_rows(spec, kind, load_for(options), mode_of(options), seed)

    def answers(path: Path, options: EvalOptions, limit: int) -> list[dict[str, Any]]:
        """Every item answered wrong, by what the wrong pick was (the kind of the option, or no letter)."""
        mode = mode_of(options)
        dataset = load_for(options)
        predictions = read_predictions(spec, path, dataset, mode, line_model=prediction_lines[mode])
        outputs = _outputs(path) if mode == "option" else {}
        out: list[dict[str, Any]] = []
        for row, record in enumerate(dataset.records):
            chosen = int(predictions.chosen[row])
            if chosen == int(dataset.answer_code[row]):
                continue
            item = spec.item_id(record)
            if chosen == FORMAT_WRONG:
                category, answer = "answer format wrong", outputs.get(item, "")
            else:
                key = spec.option_keys[chosen]
                category = spec.wrong_choice_names.get(key, key)
                answer = spec.option_text(record, key)
            entry = {
                "category": category,
                "id": str(item),
                "text": str(getattr(record, "sentence", "")),
                "answer": answer,
                "expected": spec.option_text(record, spec.answer(record)),
            }
            if spec.item_type is not None:
                entry["type"] = spec.item_type(record)
            out.append(entry)
        return out[:limit]

    def item_scores(path: Path, options: EvalOptions) -> NDArray[np.float64]:
        """Per item, in the split's order: was it answered right (the arg-max, or the parsed letter)."""
        mode = mode_of(options)
        dataset = load_for(options)
        predictions = read_predictions(spec, path, dataset, mode, line_model=prediction_lines[mode])
        scores: NDArray[np.float64] = (predictions.chosen == dataset.answer_code).astype(np.float64)
        return scores

    benchmark = Benchmark(
        name=spec.name,
        version=version,
        metadata=spec.metadata,
        display=display,
        family="multiple-choice",
        evaluate=evaluate,
        report=report,
        baseline=baseline,
        default_split=default_split,
        prediction_lines={mode: model for mode, model in prediction_lines.items()},
        modes=MODES,
        splits=spec.splits,
        baseline_kinds=baseline_kinds,
        baseline_runs=dict(baseline_runs or {}),
        bundled_release=spec.bundled,
        reported_dir=reported_dir,
        plans=plans,
        item_scores=item_scores,
        answers=answers,
    )
    return benchmark


def _outputs(path: Path) -> dict[int, str]:
    """id -> raw output of an option-mode file (already checked: read without checks)."""
    return {
        obj["id"]: obj["output"]
        for _, obj in JsonlReader(read_bytes(path), str(path), [])
        if isinstance(obj.get("id"), int) and isinstance(obj.get("output"), str)
    }


# --- the runner's protocol (the paper's appendices M and O; lm-evaluation-harness) -----------------------


@dataclass(frozen=True)
class Prompts:
    """How a multiple-choice benchmark words its questions, per prompt style."""

    styles: tuple[str, ...]
    completion: Callable[[Any, str], str]  # record, style -> the context before an option
    option: Callable[[Any, Sequence[str], str], str]  # record, option texts in shown order, style -> prompt
    demonstration_split: str | None = None  # where few-shot demonstrations come from


OPTION_MAX_NEW_TOKENS = 4


def multiple_choice_plans(
    spec: MultipleChoiceSpec, prompts: Prompts, settings: RunSettings, backend_kind: str, default_split: str
) -> list[RunPlan]:
    """One run per mode and seed: completion (log-likelihood of every option after the prompt, with
    lm-eval's token boundaries) and option (greedy letters after the shuffled, lettered options)."""
    from ..runners.plans import Rows, RunPlan, prompt_lengths
    from ..runners.requests import Answer, Request, requests_process

    if backend_kind != "causal":
        raise InputError.single("--tasks", f"{spec.name} needs a causal LM; this model is {backend_kind}")
    style = settings.prompt or prompts.styles[0]
    if style not in prompts.styles:
        raise InputError.single("--prompt", f"{spec.name} prompt styles are {', '.join(prompts.styles)}")
    test = load(spec, settings.split or default_split, data_dir=settings.data_dir).records
    demos: tuple[Any, ...] = ()
    if settings.shots:
        if prompts.demonstration_split is None:
            raise InputError.single("--shots", f"{spec.name} has no demonstrations for few-shot prompts")
        demos = load(spec, prompts.demonstration_split, data_dir=settings.data_dir).records
    plans: list[RunPlan] = []
    for mode in settings.modes or MODES:
        if mode not in MODES:
            raise InputError.single("--mode", f"{spec.name} modes are {' and '.join(MODES)}, got {mode!r}")
        for seed in settings.seeds if settings.shots else [None]:
            shot_docs = random.Random(seed).sample(list(demos), settings.shots) if settings.shots else []
            if mode == "completion":
                plans.append(_completion_plan(spec, prompts, style, test, shot_docs, seed, settings, default_split))
                continue
            demo_orders = dict(zip((spec.item_id(d) for d in demos), option_orders(spec, demos), strict=True))
            prefix = ""
            for d in shot_docs:
                order = demo_orders[spec.item_id(d)]
                text = prompts.option(d, [spec.option_text(d, k) for k in order], style)
                prefix += f"{text} {LETTERS[order.index(spec.answer(d))]}\n\n"
            orders = option_orders(spec, test)
            items = [
                (r, prefix + prompts.option(r, [spec.option_text(r, k) for k in order], style))
                for r, order in zip(test, orders, strict=True)
            ]
            items.sort(key=lambda item: len(item[1]))

            def requests(item: Any) -> list[Request]:
                record, prompt = item
                # lm-eval's generate_until stops at the first newline
                return [
                    Request(
                        id=spec.item_id(record),
                        kind="generate",
                        prompt=prompt,
                        max_new_tokens=OPTION_MAX_NEW_TOKENS,
                        until=("\n",),
                    )
                ]

            def lines(item: Any, answers: list[Answer]) -> Rows:
                (text,) = answers
                return [{"id": spec.item_id(item[0]), "output": text}]

            plans.append(
                RunPlan(
                    task=spec.name,
                    split=settings.split or default_split,
                    shots=settings.shots,
                    seed=seed,
                    prompt=style,
                    mode=mode,
                    items=items,
                    process=requests_process(requests, lines),
                    batch_size=settings.batch_size,
                    settings={"max_new_tokens": OPTION_MAX_NEW_TOKENS, "decoding": "greedy", "until": "\\n"},
                    token_lengths=prompt_lengths(special_tokens=False),
                    protocol="generation",
                    requests=requests,
                    lines=lines,
                )
            )
    return plans


def _completion_plan(
    spec: MultipleChoiceSpec,
    prompts: Prompts,
    style: str,
    test: Sequence[Any],
    shot_docs: Sequence[Any],
    seed: int | None,
    settings: RunSettings,
    default_split: str,
) -> RunPlan:
    from ..runners.plans import Rows, RunPlan
    from ..runners.requests import Answer, Request, requests_process

    prefix = "".join(f"{prompts.completion(d, style)} {spec.option_text(d, spec.answer(d))}\n\n" for d in shot_docs)
    items = [(r, prefix + prompts.completion(r, style)) for r in test]
    # batch by length (prompt and options): the packed rows of a batch pad little
    items.sort(key=lambda item: len(item[1]) + sum(len(spec.option_text(item[0], k)) for k in spec.offered(item[0])))

    def requests(item: Any) -> list[Request]:
        record, context = item
        options = tuple(" " + spec.option_text(record, k) for k in spec.offered(record))
        return [Request(id=spec.item_id(record), kind="loglikelihood", prompt=context, continuations=options)]

    def lines(item: Any, answers: list[Answer]) -> Rows:
        record = item[0]
        (scores,) = answers
        assert isinstance(scores, list)
        ll: dict[str, float | None] = dict.fromkeys(spec.option_keys)
        ll.update(zip(spec.offered(record), scores, strict=True))
        return [{"id": spec.item_id(record), "loglikelihoods": ll}]

    def token_lengths(backend: Backend, items: Sequence[Any]) -> list[int]:
        """Each item's length as packed: its context and its options' prefix tree (`Backend.packed_lengths`)."""
        packed = [(r.prompt, list(r.continuations or ())) for item in items for r in requests(item)]
        return backend.packed_lengths(packed)

    return RunPlan(
        task=spec.name,
        split=settings.split or default_split,
        shots=settings.shots,
        seed=seed,
        prompt=style,
        mode="completion",
        items=items,
        process=requests_process(requests, lines),
        batch_size=settings.batch_size,
        settings={"scoring": "loglikelihood, lm-eval token boundaries, target delimiter ' '"},
        token_lengths=token_lengths,
        protocol="loglikelihood",
        requests=requests,
        lines=lines,
    )
