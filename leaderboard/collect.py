"""Re-score every submission and build the leaderboard's tables.

Nothing a submission states about its own scores is read: each run's prediction file is scored
again through the task registry against the pinned dataset. A submission whose metadata does not
validate, whose files are missing or malformed, or whose data is unverified is refused as a whole,
with a note the site shows. Runs of a task whose scorer does not exist yet, or whose dataset this
build cannot read (not yet pinned on the Hub, no mirror), are skipped with a note.
Runs that differ only by seed are averaged (mean and sample standard deviation).
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.evaluator.core.results import Result
from neghub.evaluator.core.stats import BootstrapConfig
from neghub.evaluator.submissions.format import Metadata, Run
from neghub.leaderboard.paper_results import ReportedRow, ReportedTable, load_reported

SUBMISSIONS_ENV = "NEGHUB_SUBMISSIONS_DIR"
SettingValue = str | int | float | bool | None
RowKind = Literal["verified", "reported"]
def submissions_dir(repository: Path | None = None) -> Path:
    """The folder to collect: $NEGHUB_SUBMISSIONS_DIR, else `submissions/` of the repository (default: the
    working directory, where `mkdocs build` and the nox sessions run)."""
    env = os.environ.get(SUBMISSIONS_ENV)
    return Path(env) if env else (repository or Path.cwd()) / "submissions"


@dataclass(frozen=True)
class SettingKey:
    """What makes two rows comparable in one table: split, shots, mode and whether the model was fine-tuned."""

    task: str
    split: str | None
    shots: int | None
    mode: str | None
    fine_tuned: bool

    @property
    def slug(self) -> str:
        parts = [self.task, self.split or "nosplit"]
        parts.append("noshots" if self.shots is None else f"{self.shots}shot")
        if self.mode:
            parts.append(self.mode)
        if self.fine_tuned:
            parts.append("finetuned")
        return "--".join(parts)

    @property
    def label(self) -> str:
        parts = []
        if self.split:
            parts.append(f"{self.split} split")
        if self.shots is not None:
            parts.append(f"{self.shots}-shot")
        if self.mode:
            parts.append(f"{self.mode} mode")
        parts.append("fine-tuned" if self.fine_tuned else ("" if self.shots is not None else "no prompting setting"))
        return " · ".join(p for p in parts if p) or "default"

    def sort_key(self) -> tuple[Any, ...]:
        return (self.split or "", self.fine_tuned, -1 if self.shots is None else self.shots, self.mode or "")


@dataclass
class Row:
    """One model in one setting: a re-scored ("verified") row averaged over seeds, or a paper's ("reported") row."""

    kind: RowKind
    task: str
    key: SettingKey
    model: str
    setting: dict[str, SettingValue]
    metrics: dict[str, float]
    sd: dict[str, float] = field(default_factory=dict)
    submission_id: str | None = None
    parameters: int | None = None
    open_weights: bool | None = None
    date: str | None = None
    n_runs: int = 1
    provenance: list[dict[str, Any]] = field(default_factory=list)
    source: str | None = None  # the paper and table of a reported row
    note: str | None = None
    rank: int | None = None


@dataclass(frozen=True)
class Note:
    """Something the site must show: a refused submission or a skipped run."""

    submission: str
    level: Literal["refused", "skipped"]
    messages: tuple[str, ...]


@dataclass
class Leaderboard:
    rows: list[Row]
    notes: list[Note]
    submissions: dict[str, Metadata]
    reported_tables: list[ReportedTable]

    def tables(self) -> dict[SettingKey, list[Row]]:
        """One table per benchmark and setting: verified rows ranked first, reported rows after, unranked."""
        grouped: dict[SettingKey, list[Row]] = {}
        for row in self.rows:
            grouped.setdefault(row.key, []).append(row)
        order = benchmark_names()
        ordered = sorted(grouped, key=lambda k: (order.index(k.task), k.sort_key()))
        return {key: rank_rows(grouped[key]) for key in ordered}


def flatten_metrics(metrics: dict[str, Any]) -> dict[str, float]:
    """Numeric leaves of a result's metrics as dot-paths (lists of numbers by index; booleans as 0/1)."""
    flat: dict[str, float] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, bool):
            flat[prefix] = 1.0 if value else 0.0
        elif isinstance(value, int | float):
            if math.isfinite(value):
                flat[prefix] = float(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), item)
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                walk(f"{prefix}.{index}", item)

    walk("", metrics)
    return flat


def provenance_record(run: Run, result: Result) -> dict[str, Any]:
    """What the site and the downloads say of one scored file: the run, and what was scored by which code."""
    prov = result.provenance
    dataset = prov.dataset
    return {
        "file": run.file,
        "seed": run.seed,
        "task": prov.task,
        "task_version": prov.task_version,
        "evaluator_version": prov.evaluator_version,
        "split": prov.split,
        "mode": prov.mode,
        "predictions_sha256": prov.predictions_sha256,
        "verified": prov.verified,
        "dataset_name": None if dataset is None else dataset.name,
        "dataset_version": None if dataset is None else dataset.version,
        "dataset_source": None if dataset is None else dataset.source,
        "dataset_revision": None if dataset is None else dataset.revision,
        "dataset_release_digest": None if dataset is None else dataset.release_digest,
        "dataset_sha256": None if dataset is None else dataset.sha256,
        "dataset_is_sample": None if dataset is None else dataset.is_sample,
    }


def mean_and_sd(values: list[dict[str, float]]) -> tuple[dict[str, float], dict[str, float]]:
    """Per metric path present in every run: the mean and, with two runs or more, the sample SD (n − 1)."""
    if not values:
        return {}, {}
    common = set(values[0]).intersection(*values[1:])
    means = {path: statistics.fmean(v[path] for v in values) for path in sorted(common)}
    sds = {path: statistics.stdev(v[path] for v in values) for path in sorted(common)} if len(values) > 1 else {}
    return means, sds


def headline(row: Row) -> float | None:
    """The figure the row's benchmark ranks by (its display block's headline)."""
    return row.metrics.get(get_benchmark(row.task).display.headline.path)


def or_lowest(value: float | None) -> float:
    return -math.inf if value is None else value


def rank_rows(rows: list[Row]) -> list[Row]:
    """Rank verified rows by the benchmark's headline (its direction from the display block); reported rows
    keep no rank."""
    verified = [r for r in rows if r.kind == "verified"]
    reported = [r for r in rows if r.kind == "reported"]
    sign = {r.task: 1.0 if get_benchmark(r.task).display.headline.higher_is_better else -1.0 for r in verified}

    def signed(row: Row) -> float | None:
        value = headline(row)
        return None if value is None else sign[row.task] * value

    verified.sort(key=lambda r: (-or_lowest(signed(r)), r.model))
    for position, row in enumerate(verified, start=1):
        row.rank = position if headline(row) is not None else None
    return verified + reported


def _setting_key(task: str, split: str | None, shots: int | None, mode: str | None, fine_tuned: bool) -> SettingKey:
    # a benchmark without a split (a cloze test) has no prompt either: its shots mean nothing
    return SettingKey(task, split, None if get_benchmark(task).default_split is None else shots, mode, fine_tuned)


def collect_submission(
    sub_dir: Path, data_dir: Path | None, known_tasks: Iterable[str]
) -> tuple[Metadata | None, list[Row], list[Note]]:
    """Validate and re-score one submission: its rows, or a refusal note (and notes for skipped runs)."""
    from neghub.evaluator.submissions.validation import check_submission

    sid = sub_dir.name
    # the validator reads and scores every prediction file anyway: keep its results instead of scoring twice
    checked = check_submission(sub_dir, data_dir=data_dir, bootstrap=BootstrapConfig())
    # a run whose dataset this build cannot read says nothing against the submission: it is left out
    # (with a note) and the other runs are shown; any other problem refuses the whole submission
    not_readable = {p for found in checked.unavailable.values() for p in found}
    blocking = [p for p in checked.problems if p not in not_readable]
    if blocking or checked.metadata is None:
        return None, [], [Note(sid, "refused", tuple(str(p) for p in checked.problems))]
    metadata = checked.metadata
    known = set(known_tasks)
    run_task = {run.file: run.task for run in metadata.runs}
    skipped = [
        f"{r.file}: no scorer for task {r.task} yet; run not shown" for r in metadata.runs if r.task not in known
    ]
    skipped += [
        f"{rel}: not re-scored and not shown: this build could not read the {run_task[rel]} release "
        f"({'; '.join(str(p) for p in found)}). To show it, let the build reach the release's pinned source "
        "(its upstream URL, or a Hub revision once published), or point NEGHUB_DATA_DIR at a mirror."
        for rel, found in checked.unavailable_reasons.items()
    ]
    notes = [Note(sid, "skipped", tuple(skipped))] if skipped else []
    groups: dict[tuple[Any, ...], list[tuple[Run, Result]]] = {}
    refusals: list[str] = []
    for run in metadata.runs:
        if run.task not in known or run.file in checked.unavailable:
            continue
        result = checked.results[run.file]
        if not result.provenance.verified:
            refusals.append(f"{run.file}: scored against data that differs from the pinned release (unverified)")
            continue
        groups.setdefault((run.task, run.split, run.shots, run.mode, run.prompt), []).append((run, result))
    if refusals:
        return None, [], [Note(sid, "refused", tuple(refusals)), *notes]
    rows = []
    for (task, split, shots, mode, prompt), runs in groups.items():
        means, sds = mean_and_sd([flatten_metrics(result.metrics) for _, result in runs])
        provenance = [provenance_record(run, result) for run, result in runs]
        rows.append(
            Row(
                kind="verified",
                task=task,
                key=_setting_key(task, split, shots, mode, fine_tuned=False),
                model=metadata.model.name,
                setting={"split": split, "shots": shots, "mode": mode, "prompt": prompt},
                metrics=means,
                sd=sds,
                submission_id=sid,
                parameters=metadata.model.parameters,
                open_weights=metadata.model.open_weights,
                date=metadata.date,
                n_runs=len(runs),
                provenance=provenance,
            )
        )
    return metadata, rows, notes


def reported_rows(table: ReportedTable) -> list[Row]:
    """A paper table's rows (not its aggregate rows: group means are not models)."""
    rows = []
    for printed in table.rows:
        setting = {**table.setting, **printed.setting}
        rows.append(_reported_row(table, printed, setting))
    return rows


def _reported_row(table: ReportedTable, printed: ReportedRow, setting: dict[str, SettingValue]) -> Row:
    def text(key: str) -> str | None:
        value = setting.get(key)
        return None if value is None else str(value)

    shots = setting.get("shots")
    fine_tuned = setting.get("fine_tuned_on") is not None or setting.get("method") == "fine-tuning"
    return Row(
        kind="reported",
        task=table.task,
        key=_setting_key(
            table.task, text("split"), shots if isinstance(shots, int) else None, text("mode"), fine_tuned
        ),
        model=printed.model,
        setting=setting,
        metrics=_with_derived(table.task, dict(printed.metrics)),
        sd={k: v for k, v in printed.sd.items()},
        n_runs=seeds if isinstance(seeds := setting.get("seeds"), int) else 1,
        source=f"{table.paper.title} — {table.table}",
        note=printed.note,
    )


def _with_derived(task: str, metrics: dict[str, float]) -> dict[str, float]:
    derive = get_benchmark(task).derive_metrics
    return {**metrics, **derive(metrics)} if derive is not None else metrics


def collect(submissions: Path | None = None, *, data_dir: Path | None = None, reported: bool = True) -> Leaderboard:
    """Re-score every submission folder and add the paper-reported rows."""
    folder = submissions_dir() if submissions is None else submissions
    known = benchmark_names()
    rows: list[Row] = []
    notes: list[Note] = []
    accepted: dict[str, Metadata] = {}
    if folder.is_dir():
        for sub_dir in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
            metadata, sub_rows, sub_notes = collect_submission(sub_dir, data_dir, known)
            rows.extend(sub_rows)
            notes.extend(sub_notes)
            if metadata is not None:
                accepted[sub_dir.name] = metadata
    tables = [table for _, table in load_reported()] if reported else []
    for table in tables:
        rows.extend(reported_rows(table))
    return Leaderboard(rows=rows, notes=notes, submissions=accepted, reported_tables=tables)
