"""Minimal pairs and their metrics, for every benchmark built on negation minimal pairs (SPEC §1).

A record is normalised to `Instance` (its group, its type and the cue on each sentence); the
pairs are built once per dataset into integer arrays, and scoring a prediction file is a handful
of vectorised numpy operations over those arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, ValidationError, with_config
from typing_extensions import TypedDict  # pydantic needs typing_extensions' TypedDict before Python 3.12

from ..core.benchmark import (
    BaselineRun,
    Benchmark,
    ChartSeries,
    ChartSpec,
    Display,
    EvalOptions,
    Headline,
    MetricDisplay,
)
from ..core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ..core.numbers import fixed, percent
from ..core.results import Result, assemble_result
from ..core.stats import (
    BootstrapConfig,
    bootstrap_proportion_ci,
    mcnemar_exact_p,
    paired_bootstrap_counts_ci,
)
from ..fileio.files import read_bytes
from ..fileio.jsonl import JsonlReader, json_type_name, parse_jsonl
from ..fileio.lines import STRICT_LINE, LineGate
from ..releases.loading import Release, ResolvedFile
from ..releases.metadata import ReleaseFile

InstanceType = Literal["original", "p_neg", "h_neg", "p_neg_h_neg"]

PAIR_KINDS = ("single_s1", "single_s2", "both_from_s1", "both_from_s2")
CUE_POSITIONS = ("end", "mid")
# The release names the part of speech in Japanese; results use stable English keys.
TARGET_POS = {"動詞": "verb", "形容詞": "i_adjective", "形容動詞": "na_adjective"}
PAIR_SETS = ("M", "M_i", "M_u")
MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024
# The code of a model answer that could not be parsed (`prediction: null` with `raw_output`): no gold equals it.
UNPARSEABLE = -2


class Negation(BaseModel):
    """The cue inserted into one sentence; `neg_id` numbers the insertion points of its source sentence."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    neg_id: int
    neg_position: Literal["end", "mid"]
    target_pos: Literal["動詞", "形容詞", "形容動詞"]


# --- what a prediction line of every minimal-pair benchmark shares (each benchmark adds its parsed line) ------

ItemId = Annotated[int, Field(ge=0, le=2**53 - 1, description="the dataset's id of the instance")]
RawOutput = Annotated[str, Field(description="the model's answer as generated")]


@with_config(STRICT_LINE)
class UnparseableLine(TypedDict):
    """A model answer that could not be parsed: no prediction, the text kept; it is scored wrong, never dropped."""

    id: ItemId
    prediction: None
    raw_output: RawOutput


@dataclass(frozen=True)
class Instance:
    """A record reduced to what the pair construction needs."""

    id: int
    group: int
    type: InstanceType
    s1_neg: Negation | None
    s2_neg: Negation | None
    gold: int  # the gold label's index in the task's label vocabulary, or the STS score itself


@dataclass(frozen=True)
class MinimalPairs:
    """Pairs as parallel arrays of row indices into the instance arrays, with their attributes."""

    control: NDArray[np.int64]
    treatment: NDArray[np.int64]
    kind: NDArray[np.int8]  # index into PAIR_KINDS
    cue_position: NDArray[np.int8]  # index into CUE_POSITIONS, of the cue the treatment adds
    target_pos: NDArray[np.int8]  # index into TARGET_POS, of that cue
    important: NDArray[np.bool_]  # gold differs between control and treatment (M_i)
    unmatched_both: int  # D_12 instances whose D_1/D_2 control is absent from the release

    @property
    def size(self) -> int:
        return int(self.control.size)


@dataclass(frozen=True)
class MinimalPairDataset:
    """One split of a minimal-pair benchmark, ready to score."""

    task: str
    split: str
    release: Release
    file: ResolvedFile
    ids: NDArray[np.int64]
    gold: NDArray[np.int16]
    is_original: NDArray[np.bool_]
    pairs: MinimalPairs
    row_of_id: dict[int, int]

    @property
    def verified(self) -> bool:
        return self.file.verified


def build_pairs(instances: Sequence[Instance]) -> MinimalPairs:
    """Build M as SPEC §1 defines it: single pairs from the original, both pairs through the shared
    negated sentence (matched by group and the cue's insertion point)."""
    original_row: dict[int, int] = {}
    s1_negated_row: dict[tuple[int, int], int] = {}
    s2_negated_row: dict[tuple[int, int], int] = {}
    for row, inst in enumerate(instances):
        if inst.type == "original":
            original_row[inst.group] = row
        elif inst.type == "p_neg" and inst.s1_neg is not None:
            s1_negated_row[(inst.group, inst.s1_neg.neg_id)] = row
        elif inst.type == "h_neg" and inst.s2_neg is not None:
            s2_negated_row[(inst.group, inst.s2_neg.neg_id)] = row

    control: list[int] = []
    treatment: list[int] = []
    kind: list[int] = []
    added: list[Negation] = []
    unmatched = 0

    def add(control_row: int | None, treatment_row: int, pair_kind: int, cue: Negation | None) -> bool:
        if control_row is None or cue is None:
            return False
        control.append(control_row)
        treatment.append(treatment_row)
        kind.append(pair_kind)
        added.append(cue)
        return True

    for row, inst in enumerate(instances):
        if inst.type == "p_neg":
            add(original_row.get(inst.group), row, 0, inst.s1_neg)
        elif inst.type == "h_neg":
            add(original_row.get(inst.group), row, 1, inst.s2_neg)
        elif inst.type == "p_neg_h_neg" and inst.s1_neg is not None and inst.s2_neg is not None:
            # both-from-s1: the control shares the negated s1, the treatment adds the s2 cue
            if not add(s1_negated_row.get((inst.group, inst.s1_neg.neg_id)), row, 2, inst.s2_neg):
                unmatched += 1
            if not add(s2_negated_row.get((inst.group, inst.s2_neg.neg_id)), row, 3, inst.s1_neg):
                unmatched += 1

    gold = np.array([inst.gold for inst in instances], dtype=np.int16)
    control_arr = np.array(control, dtype=np.int64)
    treatment_arr = np.array(treatment, dtype=np.int64)
    pos_codes = list(TARGET_POS)
    return MinimalPairs(
        control=control_arr,
        treatment=treatment_arr,
        kind=np.array(kind, dtype=np.int8),
        cue_position=np.array([CUE_POSITIONS.index(c.neg_position) for c in added], dtype=np.int8),
        target_pos=np.array([pos_codes.index(c.target_pos) for c in added], dtype=np.int8),
        important=gold[control_arr] != gold[treatment_arr] if control else np.zeros(0, dtype=np.bool_),
        unmatched_both=unmatched,
    )


# Splits already loaded in this process, by file identity: a leaderboard build re-scores many runs
# against the same split, and parsing (and hashing) it each time would dominate. The key holds the
# file's size, modification time and inode, so a file changed on disk is read and verified again.
_LOADED: dict[tuple[Any, ...], MinimalPairDataset] = {}
_LOADED_MAX = 8


def _file_identity(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None  # release.file() names the problem
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


def load_split(
    task: str,
    split: str,
    release: Release,
    parse_record: Callable[[dict[str, Any]], Instance],
) -> MinimalPairDataset:
    """Read one split's file (checked against its pin), validate every record, build the pairs.

    The result is shared between callers in one process (see `_LOADED`); its arrays are read-only."""
    files = release.metadata.files_for(split)
    if not files:
        raise InputError.single(
            task, f"unknown split {split!r} (expected one of: {', '.join(release.metadata.splits)})", field="split"
        )
    identity = _file_identity(release.root / files[0].path)
    key = (task, split, str(release.root), release.source, release.unverified_allowed, identity)
    if identity is not None and key in _LOADED:
        return _LOADED[key]
    dataset = _read_split(task, split, release, files[0], parse_record)
    if identity is not None:
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = dataset
    return dataset


def _read_split(
    task: str,
    split: str,
    release: Release,
    release_file: ReleaseFile,
    parse_record: Callable[[dict[str, Any]], Instance],
) -> MinimalPairDataset:
    resolved = release.file(release_file)
    content = parse_jsonl(read_bytes(resolved.path), str(resolved.path), blank_lines="skip")
    problems = list(content.problems)
    instances: list[Instance] = []
    for line, obj in content.objects:
        try:
            instances.append(parse_record(obj))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(part) for part in err["loc"]) or None
            problems.append(Problem(str(resolved.path), line, where, f"invalid record: {err['msg']}"))
        except ValueError as exc:
            problems.append(Problem(str(resolved.path), line, None, f"invalid record: {exc}"))
    row_of_id: dict[int, int] = {}
    for row, inst in enumerate(instances):
        if inst.id in row_of_id:
            problems.append(Problem(str(resolved.path), None, "id", f"duplicate id {inst.id} in the release"))
        row_of_id[inst.id] = row
    if problems:
        raise InputError(problems[:20])
    dataset = MinimalPairDataset(
        task=task,
        split=split,
        release=release,
        file=resolved,
        ids=np.array([inst.id for inst in instances], dtype=np.int64),
        gold=np.array([inst.gold for inst in instances], dtype=np.int16),
        is_original=np.array([inst.type == "original" for inst in instances], dtype=np.bool_),
        pairs=build_pairs(instances),
        row_of_id=row_of_id,
    )
    pairs = dataset.pairs
    for array in (dataset.ids, dataset.gold, dataset.is_original, pairs.control, pairs.treatment, pairs.kind):
        array.flags.writeable = False  # shared between callers: a write would be a bug, so make it fail
    for array in (pairs.cue_position, pairs.target_pos, pairs.important):
        array.flags.writeable = False
    return dataset


def read_predictions(
    path: Path,
    dataset: MinimalPairDataset,
    parse_value: Callable[[Any], int],
    *,
    display_name: str | None = None,
    line_model: type[BaseModel] | None = None,
) -> NDArray[np.int16]:
    """Read `{"id": ..., "prediction": ...}` lines into an array aligned with the dataset's rows.

    Each line's verdict is its prediction-line model's (`line_model`, what schemas/ publishes): a line
    the model refuses is a problem, worded by the checks below where they name it, else by pydantic.

    `parse_value` turns a prediction into the task's integer code, or raises ValueError with
    what was expected. A runner whose model answered something it could not parse writes
    `"prediction": null` with the text in `"raw_output"`: that row gets UNPARSEABLE, which equals no
    gold value, so it is scored wrong and never dropped. Every problem of the file is collected
    and raised together.
    """
    name = display_name or str(path)
    problems = FileProblems()
    try:
        return _read_predictions(path, name, dataset, parse_value, problems, LineGate.of(line_model))
    except TooManyProblems:
        raise stopped(name, problems) from None


def _read_predictions(
    path: Path,
    name: str,
    dataset: MinimalPairDataset,
    parse_value: Callable[[Any], int],
    problems: FileProblems,
    gate: LineGate,
) -> NDArray[np.int16]:
    content = JsonlReader(read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES), name, problems)
    predicted = np.full(dataset.ids.size, -1, dtype=np.int16)
    first_line_of_row: dict[int, int] = {}
    for line, obj in content:
        before = len(problems)
        _read_line(name, line, obj, dataset, parse_value, problems, predicted, first_line_of_row)
        if len(problems) == before and not gate.accepts(obj):
            problems.append(gate.problem(name, line, obj))
    return _finish(name, dataset, content, problems, predicted, first_line_of_row)


def _read_line(
    name: str,
    line: int,
    obj: dict[str, Any],
    dataset: MinimalPairDataset,
    parse_value: Callable[[Any], int],
    problems: list[Problem],
    predicted: NDArray[np.int16],
    first_line_of_row: dict[int, int],
) -> None:
    unknown = sorted(set(obj) - {"id", "prediction", "raw_output"})
    for key in unknown:
        problems.append(Problem(name, line, key, "unknown field (expected only id, prediction and raw_output)"))
    if "raw_output" in obj and not isinstance(obj["raw_output"], str):
        problems.append(
            Problem(name, line, "raw_output", f"expected a string, got {json_type_name(obj['raw_output'])}")
        )
    if "id" not in obj:
        problems.append(Problem(name, line, "id", "missing field"))
        return
    raw_id = obj["id"]
    if not isinstance(raw_id, int) or isinstance(raw_id, bool):
        problems.append(Problem(name, line, "id", f"expected an integer id, got {json_type_name(raw_id)}"))
        return
    row = dataset.row_of_id.get(raw_id)
    if row is None:
        problems.append(Problem(name, line, "id", f"unknown id {raw_id} (not in the {dataset.split} split)"))
        return
    if row in first_line_of_row:
        problems.append(Problem(name, line, "id", f"duplicate id {raw_id} (first on line {first_line_of_row[row]})"))
        return
    first_line_of_row[row] = line
    if "prediction" not in obj:
        problems.append(Problem(name, line, "prediction", "missing field"))
        return
    if obj["prediction"] is None and isinstance(obj.get("raw_output"), str):
        predicted[row] = UNPARSEABLE
        return
    try:
        predicted[row] = parse_value(obj["prediction"])
    except ValueError as exc:
        problems.append(Problem(name, line, "prediction", str(exc)))


def _finish(
    name: str,
    dataset: MinimalPairDataset,
    content: JsonlReader,
    problems: list[Problem],
    predicted: NDArray[np.int16],
    first_line_of_row: dict[int, int],
) -> NDArray[np.int16]:
    missing = np.flatnonzero(predicted < 0)
    missing = np.array([row for row in missing if row not in first_line_of_row], dtype=np.int64)
    # A line that is not even JSON may hold any id: listing "missing" ids then only adds noise.
    if missing.size and not content.line_problems:
        shown = ", ".join(str(int(dataset.ids[row])) for row in missing[:5])
        more = f" and {missing.size - 5} more" if missing.size > 5 else ""
        problems.append(
            Problem(
                name, None, "id", f"{missing.size} ids of the {dataset.split} split have no prediction: {shown}{more}"
            )
        )
    if problems:
        raise InputError(problems)
    return predicted


def baseline_codes(
    kind: str,
    dataset: MinimalPairDataset,
    seed: int,
    *,
    n_values: int,
    parse: Callable[[Any], int],
    train: Callable[[], MinimalPairDataset],
) -> NDArray[np.int64]:
    """Predictions of a trivial model: the train split's majority gold, uniform random (seeded), or a constant."""
    n = dataset.ids.size
    if kind == "majority":
        # the train split's majority, as a model that learned only the label prior would answer
        value = int(np.bincount(train().gold.astype(np.int64), minlength=n_values).argmax())
        return np.full(n, value, dtype=np.int64)
    if kind == "random":
        return np.random.default_rng(seed).integers(0, n_values, size=n)
    if kind.startswith("constant:"):
        raw = kind.removeprefix("constant:")
        try:
            value = parse(int(raw) if raw.isdigit() else raw)
        except ValueError as exc:
            raise InputError.single("--kind", str(exc)) from None
        return np.full(n, value, dtype=np.int64)
    raise InputError.single("--kind", f"unknown baseline {kind!r} (expected majority, random or constant:VALUE)")


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def score_pairs(
    dataset: MinimalPairDataset, predicted: NDArray[np.int16], bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """Counts, pair metrics on M / M_i / M_u, instance metrics and breakdowns (SPEC §1).

    Every pair figure is a function of four bits per pair: is it in M_i, was the control right,
    was the treatment right, did the prediction change. Packing them into one small integer and
    counting with `np.bincount` gives all sets and breakdowns without masks or loops over pairs.
    `bootstrap=None` leaves the intervals out (the benchmark times the metrics without them).
    """
    pairs = dataset.pairs
    correct = predicted == dataset.gold
    control_pred = predicted[pairs.control]
    treatment_pred = predicted[pairs.treatment]
    cell = (
        pairs.important.view(np.int8) * np.int8(8)
        + (control_pred != treatment_pred).view(np.int8) * np.int8(4)
        + correct[pairs.control].view(np.int8) * np.int8(2)
        + correct[pairs.treatment].view(np.int8)
    )
    # counts[important, changed, control right, treatment right]
    counts_by_cell = np.bincount(cell, minlength=16).reshape(2, 2, 2, 2)
    set_counts = {"M": counts_by_cell.sum(axis=0), "M_i": counts_by_cell[1], "M_u": counts_by_cell[0]}

    # the flip analysis looks only at pairs whose two answers parsed: two unparseable answers are no "unchanged
    # prediction", and one is no "changed" one (their count is reported beside the rates)
    both_parsed = (control_pred != UNPARSEABLE) & (treatment_pred != UNPARSEABLE)
    changed_parsed = both_parsed & (control_pred != treatment_pred)
    set_masks = {"M": np.ones_like(pairs.important), "M_i": pairs.important, "M_u": ~pairs.important}

    pair_metrics: dict[str, Any] = {}
    for set_name, by_changed in set_counts.items():
        right = by_changed.sum(axis=0)  # [control right, treatment right]
        entry = _pair_figures(right)
        n = entry["n"]
        only_control = int(right[1, 0])
        only_treatment = int(right[0, 1])
        ci = (
            None
            if bootstrap is None or n == 0
            else paired_bootstrap_counts_ci(n, only_control, only_treatment, bootstrap)
        )
        entry["acc_chg_ci95"] = None if ci is None else [ci[0], ci[1]]
        for key, hits in (("acc", int(right[1].sum())), ("acc_prime", int(right[:, 1].sum()))):
            interval = None if bootstrap is None or n == 0 else bootstrap_proportion_ci(hits, n, bootstrap)
            entry[f"{key}_ci95"] = None if interval is None else [interval[0], interval[1]]
        entry["discordant"] = {"control_only": only_control, "treatment_only": only_treatment}
        entry["mcnemar_p"] = mcnemar_exact_p(only_control, only_treatment)
        in_set = set_masks[set_name]
        flip_pairs = int(np.count_nonzero(in_set & both_parsed))
        changed = int(np.count_nonzero(in_set & changed_parsed))
        entry["pairs_with_unparsed"] = n - flip_pairs
        if set_name == "M_i":
            # the gold changed; a model that ignores the cue keeps its prediction
            entry["ignored_rate"] = _rate(flip_pairs - changed, flip_pairs)
        if set_name == "M_u":
            # the gold did not change; a model distracted by the cue changes its prediction
            entry["distracted_rate"] = _rate(changed, flip_pairs)
        pair_metrics[set_name] = entry

    subsets = {"D_orig": dataset.is_original, "D_neg": ~dataset.is_original, "D": np.ones_like(dataset.is_original)}
    instance_metrics = {
        name: {"n": int(mask.sum()), "acc": _rate(int(np.count_nonzero(correct & mask)), int(mask.sum()))}
        for name, mask in subsets.items()
    }
    # the breakdowns ignore the "changed" bit: drop it, keep (important, control right, treatment right)
    right_cell = (cell >> 3) * np.int8(4) + (cell & np.int8(3))
    breakdowns = {
        "pair_kind": _breakdown(pairs.kind, PAIR_KINDS, right_cell),
        "cue_position": _breakdown(pairs.cue_position, CUE_POSITIONS, right_cell),
        "target_pos": _breakdown(pairs.target_pos, tuple(TARGET_POS.values()), right_cell),
    }
    n_important = int(counts_by_cell[1].sum())
    counts = {
        "D_orig": int(dataset.is_original.sum()),
        "D_neg": int((~dataset.is_original).sum()),
        "M": pairs.size,
        "M_i": n_important,
        "M_u": pairs.size - n_important,
        "both_pairs_without_control": pairs.unmatched_both,
    }
    unparsed = int(np.count_nonzero(predicted == UNPARSEABLE))
    return {
        "counts": counts,
        "answers": {"unparsed": unparsed, "parsed_share": _rate(int(predicted.size) - unparsed, int(predicted.size))},
        "pair_metrics": pair_metrics,
        "instance_metrics": instance_metrics,
        "breakdowns": breakdowns,
    }


def _pair_figures(right: NDArray[np.int64]) -> dict[str, Any]:
    """n, Acc, Acc' and AccChg from the 2x2 table right[control right, treatment right]."""
    n = int(right.sum())
    acc = _rate(int(right[1].sum()), n)
    acc_prime = _rate(int(right[:, 1].sum()), n)
    return {
        "n": n,
        "acc": acc,
        "acc_prime": acc_prime,
        "acc_chg": None if acc is None or acc_prime is None else acc_prime - acc,
    }


def _breakdown(
    codes: NDArray[np.int8], names: Sequence[str], right_cell: NDArray[np.int8]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Acc, Acc' and AccChg per value of one pair attribute, for each pair set: one bincount."""
    k = len(names)
    # table[value, important, control right, treatment right]
    table = np.bincount(codes.astype(np.intp) * 8 + right_cell, minlength=8 * k).reshape(k, 2, 2, 2)
    return {
        name: {
            "M": _pair_figures(table[i].sum(axis=0)),
            "M_i": _pair_figures(table[i, 1]),
            "M_u": _pair_figures(table[i, 0]),
        }
        for i, name in enumerate(names)
    }


def format_report(full: Result) -> str:
    """A readable table of a minimal-pair result (percentages, as the papers print them)."""

    pct = percent  # never "-0.00"; "n/a" with no unit after it (core/numbers.py)
    prov = full.provenance
    result = full.metrics
    lines = [
        f"{prov.task} ({prov.split}), evaluator {prov.evaluator_version}, "
        f"task version {prov.task_version}, verified: {str(prov.verified).lower()}",
        "counts: " + ", ".join(f"{k} {v}" for k, v in result["counts"].items()),
        "",
        f"{'pairs':<6}{'n':>7}{'Acc':>8}{'Acc′':>8}{'AccChg':>8}  {'95% CI of AccChg':<18}{'McNemar p':>10}  flips",
    ]
    for name in PAIR_SETS:
        m = result["pair_metrics"][name]
        ci = m["acc_chg_ci95"]
        ci_text = "n/a" if ci is None else f"[{pct(ci[0])}, {pct(ci[1])}]"
        flips = ""
        if "ignored_rate" in m:
            flips = f"ignored {pct(m['ignored_rate'], unit='%')}"
        if "distracted_rate" in m:
            flips = f"distracted {pct(m['distracted_rate'], unit='%')}"
        lines.append(
            f"{name:<6}{m['n']:>7}{pct(m['acc']):>8}{pct(m['acc_prime']):>8}{pct(m['acc_chg']):>8}  "
            f"{ci_text:<18}{m['mcnemar_p']:>10.3g}  {flips}"
        )
    lines.append("")
    lines.append(
        "instances: "
        + ", ".join(
            f"{name} acc {pct(m['acc'], unit='%')} (n={m['n']})" for name, m in result["instance_metrics"].items()
        )
    )
    for extra in ("correlations",):
        if extra in result:
            lines.append(
                "correlations (all instances): "
                + ", ".join(f"{k} {fixed(v, 4)}" for k, v in result[extra].items())
            )
    for dim, table in result["breakdowns"].items():
        lines.append("")
        lines.append(
            f"by {dim}: "
            + "; ".join(
                f"{value} M_i {pct(sets['M_i']['acc_chg'])} (n={sets['M_i']['n']}), "
                f"M_u {pct(sets['M_u']['acc_chg'])} (n={sets['M_u']['n']})"
                for value, sets in table.items()
            )
        )
    lines.append("AccChg and rates in percentage points; --json gives fractions.")
    return "\n".join(lines)


Loader = Callable[..., MinimalPairDataset]


def raw_records(load: Loader) -> Callable[[str, Path | None, bool], list[dict[str, Any]]]:
    """The records of a split as dicts (for prompts), after `load`'s own checks of the file (pins, schema)."""

    def records(split: str, data_dir: Path | None, unverified: bool) -> list[dict[str, Any]]:
        dataset = load(split, data_dir=data_dir, unverified=unverified)
        path = dataset.file.path
        objects = [obj for _, obj in parse_jsonl(read_bytes(path), str(path), blank_lines="skip").objects]
        assert len(objects) == dataset.ids.size  # the same file load() checked
        return objects

    return records


def minimal_pair_display(name: str, summary: str, extra_columns: Sequence[MetricDisplay] = ()) -> Display:
    """The display block every minimal-pair benchmark shares (SPEC §1): ranked by Acc′ on M_i, the
    accuracy once the cue that changes the gold is added."""
    columns: list[MetricDisplay] = []
    for pair_set in ("M_i", "M_u", "M"):
        base = f"pair_metrics.{pair_set}"
        columns += [
            MetricDisplay(path=f"{base}.acc", label=f"{pair_set} Acc"),
            MetricDisplay(path=f"{base}.acc_prime", label=f"{pair_set} Acc′"),
            MetricDisplay(
                path=f"{base}.acc_chg", label=f"{pair_set} AccChg", unit="points", ci_path=f"{base}.acc_chg_ci95"
            ),
        ]
    columns += [
        MetricDisplay(path="instance_metrics.D_orig.acc", label="D_orig acc"),
        MetricDisplay(path="instance_metrics.D_neg.acc", label="D_neg acc"),
        MetricDisplay(
            path="pair_metrics.M_i.ignored_rate",
            label="negation ignored (M_i)",
            description="pairs of M_i whose prediction did not change although the gold did",
        ),
        MetricDisplay(
            path="pair_metrics.M_u.distracted_rate",
            label="distracted (M_u)",
            description="pairs of M_u whose prediction changed although the gold did not",
        ),
        *extra_columns,
    ]
    return Display(
        name=name,
        summary=summary,
        headline=Headline(
            path="pair_metrics.M_i.acc_prime",
            label="M_i Acc′",
            unit="percent",
            ci_path="pair_metrics.M_i.acc_prime_ci95",
            higher_is_better=True,
            description="accuracy on the treatments of the pairs whose gold the added cue changes",
        ),
        columns=tuple(columns),
        key_columns=("pair_metrics.M_i.acc_chg", "pair_metrics.M_i.ignored_rate"),
        charts=(
            ChartSpec(
                kind="dot_interval",
                title="AccChg on M_i and M_u",
                unit="points",
                series=(
                    ChartSeries(
                        label="M_i (gold changes)",
                        path="pair_metrics.M_i.acc_chg",
                        ci_path="pair_metrics.M_i.acc_chg_ci95",
                    ),
                    ChartSeries(
                        label="M_u (gold unchanged)",
                        path="pair_metrics.M_u.acc_chg",
                        ci_path="pair_metrics.M_u.acc_chg_ci95",
                    ),
                ),
                x_title="AccChg = Acc′ − Acc (points)",
            ),
            ChartSpec(
                kind="scatter",
                title="Acc against Acc′",
                series=(
                    ChartSeries(label="M_i", path="pair_metrics.M_i.acc_prime", x_path="pair_metrics.M_i.acc"),
                    ChartSeries(label="M_u", path="pair_metrics.M_u.acc_prime", x_path="pair_metrics.M_u.acc"),
                ),
                x_title="Acc (control)",
                y_title="Acc′ (treatment)",
            ),
        ),
        max_ci_half_width=0.10,
        prompt_styles=("llm-jp-eval", "llm-jp-eval-loglikelihood", "fine-tuned"),
    )


def minimal_pair_benchmark(
    *,
    name: str,
    version: str,
    metadata: Any,
    display: Display,
    load: Loader,
    parse_prediction: Callable[[Any], int],
    prediction_value: Callable[[int], Any],
    n_values: int,
    score: Callable[[MinimalPairDataset, NDArray[np.int16], BootstrapConfig], dict[str, Any]],
    default_split: str,
    prediction_line: type[BaseModel],
    report: Callable[[Result], str] | None = None,
    baseline_runs: dict[str, tuple[BaselineRun, ...]] | None = None,
    reported_dir: Path | None = None,
    parse_record: Callable[[dict[str, Any]], Instance],
    plans: Any = None,
) -> Benchmark:
    """A minimal-pair benchmark, wiring its load / score / report together."""

    def load_for(options: EvalOptions, split: str | None = None) -> MinimalPairDataset:
        return load(split or options.split or default_split, data_dir=options.data_dir, unverified=options.unverified)

    def evaluate(path: Path, options: EvalOptions) -> Result:
        dataset = load_for(options)
        predicted = read_predictions(
            path, dataset, parse_prediction, display_name=options.display_name, line_model=prediction_line
        )
        return assemble_result(
            benchmark=benchmark,
            split=dataset.split,
            mode=None,
            predictions=path,
            release=dataset.release,
            dataset_file=dataset.file,
            scores=score(dataset, predicted, options.bootstrap),
            bootstrap=options.bootstrap,
        )

    def baseline(kind: str, options: EvalOptions, seed: int) -> list[dict[str, Any]]:
        dataset = load_for(options)
        codes = baseline_codes(
            kind,
            dataset,
            seed,
            n_values=n_values,
            parse=parse_prediction,
            train=lambda: load_for(options, "train"),
        )
        return [{"id": int(i), "prediction": prediction_value(int(c))} for i, c in zip(dataset.ids, codes, strict=True)]

    def item_scores(path: Path, options: EvalOptions) -> NDArray[np.float64]:
        """Per pair of M_i (the headline's pairs, in pair order): was the treatment answered right."""
        dataset = load_for(options)
        predicted = read_predictions(path, dataset, parse_prediction, line_model=prediction_line)
        pairs = dataset.pairs
        right = predicted[pairs.treatment] == dataset.gold[pairs.treatment]
        scores: NDArray[np.float64] = right[pairs.important].astype(np.float64)
        return scores

    records_of = raw_records(load)

    def answers(path: Path, options: EvalOptions, limit: int) -> list[dict[str, Any]]:
        """The pairs the model flipped wrongly (negation ignored on M_i, distracted on M_u), with both
        sentences and both answers, and every answer that did not parse, verbatim."""
        dataset = load_for(options)
        predicted = read_predictions(path, dataset, parse_prediction, line_model=prediction_line)
        records = records_of(dataset.split, options.data_dir, options.unverified)
        raw = _raw_outputs(path)

        def shown(code: int) -> str:
            return "(did not parse)" if code == UNPARSEABLE else str(prediction_value(code))

        def sentences(row: int) -> str:
            record = records[row]
            return f"{record['sentence1']['sentence']} / {record['sentence2']['sentence']}"

        out: list[dict[str, Any]] = []
        pairs = dataset.pairs
        for c, t, important in zip(
            pairs.control.tolist(), pairs.treatment.tolist(), pairs.important.tolist(), strict=True
        ):
            pc, pt = int(predicted[c]), int(predicted[t])
            if UNPARSEABLE in (pc, pt):
                continue
            if important and pc == pt:
                category = "negation ignored"
            elif not important and pc != pt:
                category = "distracted"
            else:
                continue
            out.append(
                {
                    "category": category,
                    "id": f"{int(dataset.ids[c])} → {int(dataset.ids[t])}",
                    "text": sentences(c),
                    "text_after": sentences(t),
                    "answer": f"{shown(pc)} → {shown(pt)}",
                    "expected": f"{prediction_value(int(dataset.gold[c]))} → {prediction_value(int(dataset.gold[t]))}",
                }
            )
        for row in np.flatnonzero(predicted == UNPARSEABLE).tolist():
            item = int(dataset.ids[row])
            out.append(
                {
                    "category": "did not parse",
                    "id": str(item),
                    "text": sentences(row),
                    "answer": raw.get(item, ""),
                    "expected": str(prediction_value(int(dataset.gold[row]))),
                }
            )
        return out[:limit]

    benchmark = Benchmark(
        name=name,
        version=version,
        metadata=metadata,
        display=display,
        family="minimal-pairs",
        evaluate=evaluate,
        report=report or format_report,
        baseline=baseline,
        default_split=default_split,
        prediction_lines={None: prediction_line},
        baseline_runs=baseline_runs or {},
        reported_dir=reported_dir,
        plans=plans,
        read_split=lambda release, split: load_split(name, split, release, parse_record),
        item_scores=item_scores,
        answers=answers,
    )
    return benchmark


def _raw_outputs(path: Path) -> dict[int, str]:
    """id -> the raw output of every line whose answer did not parse (a checked file: read without checks)."""
    out: dict[int, str] = {}
    for _, obj in JsonlReader(read_bytes(path), str(path), []):
        if obj.get("prediction") is None and isinstance(obj.get("raw_output"), str) and isinstance(obj.get("id"), int):
            out[obj["id"]] = obj["raw_output"]
    return out
