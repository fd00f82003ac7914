"""Re-score every submission and build the leaderboard's boards.

Nothing a submission states about its own scores is read: each run's prediction file is scored again
through the registry against the pinned dataset. A submission whose metadata does not validate, whose
files are missing or malformed, or whose data is unverified is refused as a whole, with a note for the
maintainers. Runs whose dataset this build cannot read are left out with a note.

Every row sits on one board (boards.py: benchmark, dataset release, split, protocol) and says what NegHub
checked of it: *reported* (printed in a paper), *re-scored* (its predictions re-scored against the pinned
data), *reproduced* (NegHub re-ran the model on a sample of the items and got the same answers). Runs that
differ only by seed are averaged (mean and sample standard deviation). Ranking (ranking.py) applies the
rules that a valid file alone cannot satisfy, then gives each ranked row a rank range.
"""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..evaluator.core.benchmark import EvalOptions
from ..evaluator.core.errors import InputError
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.results import Result, release_digest
from ..evaluator.core.stats import BootstrapConfig
from ..evaluator.submissions.format import Metadata, Run
from ..evaluator.submissions.reproduction import Reproduction
from .boards import CUSTOM_PROMPT, Board, neghub_dataset, prompt_style, verified_board
from .history import landing_dates
from .paper_results import ReportedRow, ReportedTable, load_reported
from .ranking import Candidate, name_key, rank_ranges

# reproduction records are repository data, like the submissions: `neghub reproduce` writes them to
# reproductions/ of the checkout, beside submissions/ (read from there, never from the package)
REPRODUCTIONS_FOLDER = Path("reproductions")
FINE_TUNED = "fine-tuned"  # the prompt style of a classifier run

SUBMISSIONS_ENV = "NEGHUB_SUBMISSIONS_DIR"
SettingValue = str | int | float | bool | None
RowKind = Literal["verified", "reported"]


def load_reproductions(folder: Path) -> dict[str, Reproduction]:
    """Submission id -> its reproduction record (`neghub reproduce` writes reproductions/<id>.json)."""
    from pydantic import ValidationError

    records = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            record = Reproduction.model_validate_json(path.read_bytes())
        except (ValidationError, OSError) as error:
            first = error.errors()[0] if isinstance(error, ValidationError) else {"loc": (), "msg": str(error)}
            where = ".".join(str(part) for part in first["loc"])
            raise InputError.single(str(path), f"not a reproduction record: {where} {first['msg']}".strip()) from None
        if record.submission != path.stem:
            raise InputError.single(str(path), f"records submission {record.submission!r}, not {path.stem!r}")
        records[record.submission] = record
    return records


def submissions_dir(repository: Path | None = None) -> Path:
    """The folder to collect: $NEGHUB_SUBMISSIONS_DIR, else `submissions/` of the repository (default: the
    working directory, where `mkdocs build` and the nox sessions run)."""
    env = os.environ.get(SUBMISSIONS_ENV)
    return Path(env) if env else (repository or Path.cwd()) / "submissions"


SettingKey = Board  # the key rows are grouped by: a board


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
    source: str | None = None  # the table of a reported row
    paper: str | None = None  # the paper of a reported row (its title)
    note: str | None = None
    rank: int | None = None  # the best rank of the range (for sorting); None when unranked
    rank_range: tuple[int, int] | None = None
    unranked: str | None = None  # why a NegHub-scored row is not ranked
    trust: str = "re-scored"  # reported | re-scored | reproduced
    reproduction: str | None = None  # what the reproduction found, in words
    flags: list[str] = field(default_factory=list)  # what a reader should know (few parsed answers, ...)
    submitter: str | None = None
    landed: str | None = None  # when the submission landed on main (git), ISO
    verdict: str | None = None  # a paper row: the paper's verdict, in its words
    verdict_source: str | None = None
    items: Any = None  # per-item headline scores, for the paired bootstrap (not shown)

    @property
    def headline_ci(self) -> tuple[float, float] | None:
        path = get_benchmark(self.task).display.headline.ci_path
        if path is None:
            return None
        low, high = self.metrics.get(f"{path}.0"), self.metrics.get(f"{path}.1")
        return None if low is None or high is None else (low, high)

    @property
    def parsed_share(self) -> float | None:
        return self.metrics.get("answers.parsed_share")


@dataclass(frozen=True)
class Note:
    """Something the site must show: a refused submission or a skipped run."""

    submission: str
    level: Literal["refused", "skipped"]
    messages: tuple[str, ...]
    # the task of each run left out because this build could not read its release (the pages say rows are missing)
    unreadable: tuple[str, ...] = ()


@dataclass
class Leaderboard:
    rows: list[Row]
    notes: list[Note]
    submissions: dict[str, Metadata]
    reported_tables: list[ReportedTable]
    landed: dict[str, str] = field(default_factory=dict)  # submission id -> when it landed on main (git)

    def group(self) -> dict[Board, list[Row]]:
        grouped: dict[Board, list[Row]] = {}
        for row in self.rows:
            grouped.setdefault(row.key, []).append(row)
        return grouped

    def tables(self) -> dict[Board, list[Row]]:
        """One table per board: ranked rows by their best rank, then unranked NegHub rows, then paper rows."""
        grouped: dict[Board, list[Row]] = {}
        for row in self.rows:
            grouped.setdefault(row.key, []).append(row)
        order = benchmark_names()

        def board_order(key: Board) -> tuple[object, ...]:
            # NegHub's own boards first (a reader comes for them), the papers' after
            scored = any(r.kind == "verified" for r in grouped[key])
            return (order.index(key.task), not scored, key.sort_key())

        return {key: _table_order(grouped[key]) for key in sorted(grouped, key=board_order)}


def _table_order(rows: list[Row]) -> list[Row]:
    def key(row: Row) -> tuple[int, float, float, str]:
        group = 0 if row.rank is not None else (1 if row.kind == "verified" else 2)
        value = headline(row)
        sign = 1.0 if get_benchmark(row.task).display.headline.higher_is_better else -1.0
        return (group, float(row.rank or 0), -sign * value if value is not None else math.inf, row.model)

    return sorted(rows, key=key)


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
    """Rank one board's NegHub rows (the rules of ranking.py); paper rows keep no rank. Returns the table order."""
    verified = [r for r in rows if r.kind == "verified"]
    benchmark = get_benchmark(rows[0].task) if rows else None
    for row in verified:
        if row.unranked is None and headline(row) is None:
            row.unranked = "no headline figure"
        if (
            row.unranked is None
            and benchmark is not None
            and benchmark.item_scores is None
            and row.trust != "reproduced"
        ):
            row.unranked = "ranked only once NegHub has reproduced it (its items depend on the model)"
        if row.unranked is None and benchmark is not None and benchmark.display.items_path is not None:
            count = row.metrics.get(benchmark.display.items_path)
            display = benchmark.display
            if count is None or count < display.min_items:
                shown = "no" if count is None else f"{count:.0f}"
                row.unranked = f"scored on {shown} {display.items_noun} (ranked from {display.min_items})"
        ci = row.headline_ci
        bound = benchmark.display.max_ci_half_width if benchmark else None
        if row.unranked is None and ci is not None and bound is not None and (ci[1] - ci[0]) / 2 > bound:
            half = 100 * (ci[1] - ci[0]) / 2
            row.unranked = f"interval too wide to rank: ±{half:.1f} points (ranked at ±{100 * bound:.0f} or less)"
    ranked = [r for r in verified if r.unranked is None]
    sign = 1.0 if benchmark is None or benchmark.display.headline.higher_is_better else -1.0
    candidates = []
    for index, row in enumerate(ranked):
        value = headline(row)
        ci = row.headline_ci
        candidates.append(
            Candidate(
                key=index,
                value=None if value is None else sign * value,
                ci=None if ci is None else ((sign * ci[0], sign * ci[1]) if sign > 0 else (-ci[1], -ci[0])),
                items=None if row.items is None else sign * row.items,
            )
        )
    ranges = rank_ranges(candidates)
    for index, row in enumerate(ranked):
        row.rank_range = ranges[index]
        row.rank = ranges[index][0]
    for row in rows:
        if row.kind == "verified" and row.unranked is not None:
            row.rank, row.rank_range = None, None
    return _table_order(rows)


def _verified_board(run: Run, result: Result, chat_template: bool | None) -> Board:
    dataset = result.provenance.dataset
    if dataset is None:
        identity = (f"{run.task} (no dataset)", "no dataset")
        is_sample = False
    else:
        identity = neghub_dataset(run.task, dataset.name, dataset.version, dataset.release_digest, dataset.is_sample)
        is_sample = dataset.is_sample
    return verified_board(
        run.task,
        dataset=identity,
        is_sample=is_sample,
        split=run.split,
        mode=run.mode,
        shots=run.shots,
        prompt=run.prompt,
        chat_template=chat_template,
        fine_tuned=run.prompt == FINE_TUNED,
    )


def _chat_template(metadata: Metadata, run: Run) -> bool | None:
    """Whether the runner applied a chat template to this run's prompts (None: not stated)."""
    if metadata.model.kind == "baseline":
        return False  # a rule reads no prompt at all
    if run.chat_template is not None:
        return run.chat_template
    recorded = metadata.recorded_settings(run).get("chat_template")
    return recorded if isinstance(recorded, bool) else None


def collect_submission(
    sub_dir: Path, data_dir: Path | None, known_tasks: Iterable[str]
) -> tuple[Metadata | None, list[Row], list[Note]]:
    """Validate and re-score one submission: its rows, or a refusal note (and notes for skipped runs)."""
    from ..evaluator.submissions.validation import check_submission

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
    # one short line per run (how to show it is said once per build, by the MkDocs hook)
    skipped += [
        f"{rel}: left out: this build could not read the {run_task[rel]} release ({'; '.join(map(str, found))})"
        for rel, found in checked.unavailable_reasons.items()
    ]
    unreadable = tuple(run_task[rel] for rel in checked.unavailable_reasons)
    notes = [Note(sid, "skipped", tuple(skipped), unreadable)] if skipped else []
    groups: dict[tuple[Any, ...], list[tuple[Run, Result]]] = {}
    refusals: list[str] = []
    for run in metadata.runs:
        if run.task not in known or run.file in checked.unavailable:
            continue
        result = checked.results[run.file]
        if not result.provenance.verified:
            refusals.append(f"{run.file}: scored against data that differs from the pinned release (unverified)")
            continue
        board = _verified_board(run, result, _chat_template(metadata, run))
        groups.setdefault((board, run.prompt), []).append((run, result))
    if refusals:
        return None, [], [Note(sid, "refused", tuple(refusals)), *notes]
    rows = []
    for (board, prompt), runs in groups.items():
        means, sds = mean_and_sd([flatten_metrics(result.metrics) for _, result in runs])
        provenance = [provenance_record(run, result) for run, result in runs]
        task = board.task
        rows.append(
            Row(
                kind="verified",
                task=task,
                key=board,
                model=metadata.model.name,
                setting={"split": board.split, "shots": board.shots, "mode": board.mode, "prompt": prompt},
                metrics=means,
                sd=sds,
                submission_id=sid,
                parameters=metadata.model.parameters,
                open_weights=metadata.model.open_weights,
                date=metadata.date,
                n_runs=len(runs),
                provenance=provenance,
                submitter=metadata.submitter.name,
                items=_item_scores(sub_dir, [run for run, _ in runs], data_dir),
            )
        )
        if len({run.seed for run, _ in runs}) < len(runs) or len({p["predictions_sha256"] for p in provenance}) < len(
            runs
        ):
            rows[-1].unranked = "its runs repeat a seed or the same predictions (an average needs distinct runs)"
        if board.prompt == CUSTOM_PROMPT:
            rows[-1].flags.append(f"prompt {prompt!r} is not one of the benchmark's styles: shown as custom")
    return metadata, rows, notes


def _item_scores(sub_dir: Path, runs: list[Run], data_dir: Path | None) -> Any:
    """The headline per item, averaged over the runs (seeds) of a row; None where the benchmark has none."""
    benchmark = get_benchmark(runs[0].task)
    if benchmark.item_scores is None:
        return None
    vectors = []
    for run in runs:
        options = EvalOptions(split=run.split, mode=run.mode, data_dir=data_dir)
        try:
            vectors.append(benchmark.item_scores(sub_dir / run.file, options))
        except InputError:
            return None
    return sum(vectors) / len(vectors)


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
        key=reported_board(
            table, text("split"), shots if isinstance(shots, int) else None, text("mode"), text("prompt"), fine_tuned
        ),
        trust="reported",
        verdict=printed.verdict if printed.verdict_en is None else f"{printed.verdict} ({printed.verdict_en})",
        verdict_source=None
        if printed.verdict_source is None
        else f"{table.paper.file}, line {printed.verdict_source.line}"
        + (f", {printed.verdict_source.section}" if printed.verdict_source.section else ""),
        model=printed.model,
        setting=setting,
        metrics=_with_derived(table.task, dict(printed.metrics)),
        sd={k: v for k, v in printed.sd.items()},
        n_runs=seeds if isinstance(seeds := setting.get("seeds"), int) else 1,
        source=table.table,
        paper=table.paper.title_en or table.paper.title,
        note=printed.note,
    )


def reported_board(
    table: ReportedTable, split: str | None, shots: int | None, mode: str | None, prompt: str | None, fine_tuned: bool
) -> Board:
    """A paper row's board: the release it names (sharing NegHub's board when it is the very release NegHub
    pins), else the paper's own data, which no NegHub-scored row shares."""
    benchmark = get_benchmark(table.task)
    if table.dataset is not None and table.dataset.release_digest == release_digest(benchmark.metadata):
        identity = neghub_dataset(
            table.task, benchmark.metadata.name, benchmark.metadata.version, table.dataset.release_digest, False
        )
    else:
        label = table.dataset.label if table.dataset is not None else f"the data of {table.paper.title}"
        identity = (f"paper:{table.paper.file}", f"as reported: {label}")
    return Board(
        task=table.task,
        dataset=identity[0],
        dataset_label=identity[1],
        is_sample=False,
        split=split,
        mode=mode,
        shots=None if benchmark.default_split is None else shots,
        prompt=prompt_style(table.task, prompt) if prompt else "paper",
        chat_template="not stated",
        fine_tuned=fine_tuned,
    )


def _with_derived(task: str, metrics: dict[str, float]) -> dict[str, float]:
    derive = get_benchmark(task).derive_metrics
    return {**metrics, **derive(metrics)} if derive is not None else metrics


def collect(
    submissions: Path | None = None,
    *,
    data_dir: Path | None = None,
    reported: bool = True,
    reproductions_dir: Path | None = None,
) -> Leaderboard:
    """Re-score every submission folder and add the paper-reported rows. Reproduction records are read from
    `reproductions_dir`, by default reproductions/ of the repository holding the submissions."""
    folder = submissions_dir() if submissions is None else submissions
    if reproductions_dir is None:
        reproductions_dir = folder.resolve().parent / REPRODUCTIONS_FOLDER
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
    landed = landing_dates(folder) if folder.is_dir() else {}
    apply_reproductions(rows, reproductions_dir)
    apply_rules(rows, landed)
    board = Leaderboard(rows=rows, notes=notes, submissions=accepted, reported_tables=tables, landed=landed)
    for table_rows in board.group().values():
        rank_rows(table_rows)
    return board


def apply_reproductions(rows: list[Row], folder: Path) -> None:
    """Each NegHub row's trust: reproduced when NegHub's re-run of a sample of every run's items agreed."""
    records = load_reproductions(folder)
    for row in rows:
        if row.kind != "verified" or row.submission_id is None:
            continue
        record = records.get(row.submission_id)
        if record is None:
            row.reproduction = "not reproduced"
            continue
        by_file = {r.file: r for r in record.runs}
        mine = [by_file.get(p["file"]) for p in row.provenance]
        if any(
            r is None or r.predictions_sha256 != p["predictions_sha256"]
            for r, p in zip(mine, row.provenance, strict=True)
        ):
            row.reproduction = "not reproduced (the reproduction is of other files)"
            continue
        checked = sum(r.items_checked for r in mine if r is not None)
        agreeing = sum(r.items_agreeing for r in mine if r is not None)
        unexpected = sum(r.unexpected_items for r in mine if r is not None)
        if checked and agreeing == checked and not unexpected:
            row.trust = "reproduced"
            row.reproduction = f"reproduced: {agreeing}/{checked} sampled items agree ({record.date})"
        else:
            extra = f"; {unexpected} items its recorded settings would not run" if unexpected else ""
            row.reproduction = f"disagrees on {checked - agreeing}/{checked} sampled items{extra} ({record.date})"


def apply_rules(rows: list[Row], landed: dict[str, str]) -> None:
    """The rules a valid file cannot satisfy on its own: no copy of another submission's predictions, no
    model name that reads as another submitter's, one row per model and board. Earlier landings win."""
    order = sorted(
        (r for r in rows if r.kind == "verified"),
        key=lambda r: (landed.get(r.submission_id or "", "9999"), r.submission_id or ""),
    )
    first_of_file: dict[str, str] = {}
    owner_of_name: dict[str, tuple[str, str]] = {}  # name key -> (model name, submitter)
    seen_on_board: dict[tuple[Board, str, str], str] = {}
    for row in order:
        sid = row.submission_id or ""
        shas = [p["predictions_sha256"] for p in row.provenance]
        earlier = [first_of_file[sha] for sha in shas if sha in first_of_file and first_of_file[sha] != sid]
        for sha in shas:
            first_of_file.setdefault(sha, sid)
        if earlier and row.unranked is None:
            row.unranked = f"duplicate of {earlier[0]}: the same predictions, byte for byte"
        key = name_key(row.model)
        owner = owner_of_name.setdefault(key, (row.model, row.submitter or ""))
        if owner[1] != (row.submitter or "") and row.unranked is None:
            row.unranked = f"its model name reads as {owner[0]!r}, submitted by {owner[1]}"
        board_key = (row.key, key, row.submitter or "")
        first = seen_on_board.setdefault(board_key, sid + "/" + str(row.setting.get("prompt")))
        if first != sid + "/" + str(row.setting.get("prompt")) and row.unranked is None:
            row.unranked = "another row of this model is on this board already (one row per model and board)"
