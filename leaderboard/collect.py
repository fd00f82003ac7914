"""Re-score every submission and lay the leaderboard's boards out; verdicts.py then decides every row's status.

Nothing a submission states about its own scores is read: each run's prediction file is scored again
through the registry against the pinned dataset, and the leaderboard reads nothing but those `Result`s
(headline, metrics, per-item outcomes). A submission whose metadata does not validate, whose files are
missing or malformed, or whose data is unverified is refused as a whole, with a note for the maintainers.
Runs whose dataset this build cannot read are left out with a note.

Every row sits on one board (boards.py: benchmark, dataset release, split, protocol) and says what NegHub
checked of it: *reported* (printed in a paper), *re-scored* (its predictions re-scored against the pinned
data), *reproduced* (NegHub re-ran the model on a sample of the items and got the same answers). Runs that
differ only by seed are averaged (mean and sample standard deviation). Rule baselines are *reference* rows,
copied onto every board of their data release.
"""

from __future__ import annotations

import dataclasses
import math
import os
import statistics
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.errors import InputError
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.results import Result, dig, release_digest
from ..evaluator.core.stats import BootstrapConfig
from ..evaluator.submissions.format import Metadata, Run
from ..evaluator.submissions.identity import model_identity
from ..evaluator.submissions.reproduction import Reproduction
from .answers import RunAnswers, intern_ids, items_file, items_path, run_answers, view_files
from .boards import BASE_TEST, Board, neghub_dataset, prompt_style, verified_board
from .clearances import load_clearances
from .history import landing_dates
from .paper_results import ReportedRow, ReportedTable, load_reported
from .ranking import name_key
from .verdicts import Hold, Leader, apply_rules, headline, leader, published_best

# reproduction records are repository data, like the submissions: `neghub reproduce` writes them to
# reproductions/ of the checkout, beside submissions/ (read from there, never from the package)
REPRODUCTIONS_FOLDER = Path("reproductions")
FINE_TUNED = "fine-tuned"  # the prompt style of a classifier run

SUBMISSIONS_ENV = "NEGHUB_SUBMISSIONS_DIR"
SettingValue = str | int | float | bool | None
RowKind = Literal["verified", "reported", "reference"]
RowStatus = Literal["ranked", "unranked", "held", "reference", "reported", "confirmation"]


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
    """One model in one setting: a re-scored ("verified") row averaged over seeds, a rule baseline ("reference"),
    or a paper's ("reported") row. `status` and its evidence are verdicts.py's."""

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
    unranked: str | None = None  # why a NegHub row is not ranked (held: the holds, in words)
    trust: str = "re-scored"  # reported | re-scored | reproduced
    reproduction: str | None = None  # what the reproduction found, in words
    flags: list[str] = field(default_factory=list)  # what a reader should know (few parsed answers, ...)
    submitter: str | None = None
    landed: str | None = None  # when the submission landed on main (git), ISO
    verdict: str | None = None  # the benchmark's verdict (a paper row: the paper's, in its words)
    verdict_source: str | None = None
    status: RowStatus = "unranked"
    holds: list[Hold] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)  # holds lifted, each with by what
    confirmed_by: list[str] = field(default_factory=list)
    confirms: Row | None = None  # the earlier row this one confirms (status "confirmation")
    identity: str | None = None  # evaluator.submissions.identity: what pins the model
    identity_words: str | None = None
    name_owner: str | None = None  # another submitter's model whose name this row's reads as
    numeric_setting: str | None = None  # dtype and device its runs record, in words
    floor_comparison: str | None = None  # a ranked row's comparison with the board's floor
    # what the rules read of the results (not shown): the headline per unit (keys, values averaged over the
    # runs) and each run's answers as codes, keyed by the run's seed (answers.py)
    headline_items: tuple[tuple[str, ...], NDArray[np.float64]] | None = None
    answers: dict[int | None, RunAnswers] = field(default_factory=dict)
    views: list[str] = field(default_factory=list)  # the answers view's file of each run that has one

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
    boards: dict[Board, list[Row]] = field(default_factory=dict)  # in page order, each in table order
    leaders: dict[str, Leader] = field(default_factory=dict)
    views: dict[str, bytes] = field(default_factory=dict)  # the answers view's files (answers.py)

    def tables(self) -> dict[Board, list[Row]]:
        """One table per board: ranked rows by their best rank, then the other NegHub rows, the reference rows,
        the paper's rows. NegHub's boards first (a reader comes for them), the papers' after."""
        return self.boards


STATUS_ORDER = {"ranked": 0, "held": 1, "unranked": 1, "confirmation": 1, "reference": 2, "reported": 3}


def _table_order(rows: list[Row]) -> list[Row]:
    def key(row: Row) -> tuple[int, float, float]:
        value = headline(row)
        sign = 1.0 if get_benchmark(row.task).display.headline.higher_is_better else -1.0
        # no name in the key: rows that tie keep the order they landed in, never an alphabetical one
        return (STATUS_ORDER[row.status], float(row.rank or 0), -sign * value if value is not None else math.inf)

    return sorted(rows, key=key)


def order_boards(grouped: dict[Board, list[Row]]) -> dict[Board, list[Row]]:
    order = benchmark_names()

    def board_order(key: Board) -> tuple[object, ...]:
        scored = any(r.kind == "verified" for r in grouped[key])
        return (order.index(key.task), not scored, key.sort_key())

    return {key: _table_order(grouped[key]) for key in sorted(grouped, key=board_order)}


def flatten_metrics(metrics: dict[str, Any]) -> dict[str, float]:
    """Numeric leaves of a result's metrics as dot-paths (lists of numbers by index; booleans as 0/1)."""
    flat: dict[str, float] = {}

    def walk(prefix: str, value: Any) -> None:
        # the paths are interned: every row of a benchmark has the same few hundred, and a build holds thousands
        if isinstance(value, bool):
            flat[sys.intern(prefix)] = 1.0 if value else 0.0
        elif isinstance(value, int | float):
            if math.isfinite(value):
                flat[sys.intern(prefix)] = float(value)
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


def or_lowest(value: float | None) -> float:
    return -math.inf if value is None else value


def _verified_board(run: Run, result: Result, chat_template: bool | None, prompt_sha256: str | None) -> Board:
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
        prompt_sha256=prompt_sha256,
    )


def _chat_template(metadata: Metadata, run: Run) -> bool | None:
    """Whether the runner applied a chat template to this run's prompts (None: not stated)."""
    if metadata.model.kind == "baseline":
        return False  # a rule reads no prompt at all
    if run.chat_template is not None:
        return run.chat_template
    recorded = metadata.recorded_settings(run).get("chat_template")
    return recorded if isinstance(recorded, bool) else None


def _prompt_sha256(metadata: Metadata, run: Run) -> str | None:
    recorded = metadata.recorded_settings(run).get("prompt_sha256")
    return recorded if isinstance(recorded, str) else None


def numeric_setting(metadata: Metadata) -> str | None:
    """The dtype and device a submission's runs record (provenance), in words."""
    provenance = metadata.provenance or {}
    dtype, device = provenance.get("dtype"), provenance.get("device_type", provenance.get("device"))
    if dtype is None and device is None:
        return None
    return f"{dtype or 'dtype not stated'} on {device or 'a device not stated'}"


def collect_submission(
    sub_dir: Path, data_dir: Path | None, known_tasks: Iterable[str], views: dict[str, bytes] | None = None
) -> tuple[Metadata | None, list[Row], list[Note]]:
    """Validate and re-score one submission: its rows, or a refusal note (and notes for skipped runs). The
    answers view's files of its runs are added to `views`; its Results are not kept."""
    from ..evaluator.submissions.validation import check_submission

    sid = sub_dir.name
    # the validator reads and scores every prediction file anyway: its results are all the leaderboard reads
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
        board = _verified_board(run, result, _chat_template(metadata, run), _prompt_sha256(metadata, run))
        groups.setdefault((board, run.prompt), []).append((run, result))
    if refusals:
        return None, [], [Note(sid, "refused", tuple(refusals)), *notes]
    identity = model_identity(metadata)
    is_baseline = metadata.model.kind == "baseline"
    rows = []
    for (board, prompt), runs in groups.items():
        runs.sort(key=lambda pair: (pair[0].seed is not None, pair[0].seed or 0))
        results = [result for _, result in runs]
        means, sds = mean_and_sd([flatten_metrics(result.metrics) for result in results])
        provenance = [provenance_record(run, result) for run, result in runs]
        row = Row(
            kind="reference" if is_baseline else "verified",
            task=board.task,
            key=dataclasses.replace(board, seeds=len(runs)),
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
            identity=None if identity is None else identity.key,
            identity_words=None if identity is None else identity.words,
            numeric_setting=numeric_setting(metadata),
            headline_items=_headline_items(results),
            answers={run.seed: run_answers(result) for run, result in runs},
            verdict=_verdict(board.task, results),
        )
        if views is not None:
            for run, result in runs:
                files = view_files(result, row.answers[run.seed], metadata.model.name, sid, run.file)
                if files:
                    views.update(files)
                    row.views.extend(files)
                    shared = items_path(result)
                    if shared not in views:
                        views[shared] = items_file(result)
        if len({run.seed for run, _ in runs}) < len(runs) or len({p["predictions_sha256"] for p in provenance}) < len(
            runs
        ):
            row.unranked = "its runs repeat a seed or the same predictions (an average needs distinct runs)"
        rows.append(row)
    return metadata, rows, notes


def _headline_items(results: list[Result]) -> tuple[tuple[str, ...], NDArray[np.float64]] | None:
    """The headline per unit, averaged over a row's runs (which share their units); None where there are none."""
    items = [result.headline_items for result in results]
    if any(item is None for item in items):
        return None
    keys = {tuple(item.keys) for item in items if item is not None}
    if len(keys) != 1:
        return None
    values = np.mean([np.asarray(item.values, dtype=np.float64) for item in items if item is not None], axis=0)
    return intern_ids(keys.pop()), values


def _verdict(task: str, results: list[Result]) -> str | None:
    """The benchmark's own verdict of a row (SCN: passes, partially passes, fails), with its reason; where the
    runs of a row disagree, that they do."""
    display = get_benchmark(task).display
    if display.verdict_path is None:
        return None
    verdicts = [dig(result.metrics, display.verdict_path) for result in results]
    if any(not isinstance(v, str) for v in verdicts):
        return None
    if len(set(verdicts)) > 1:
        return "its runs disagree: " + ", ".join(str(v) for v in verdicts)
    reason = dig(results[0].metrics, display.verdict_reason_path) if display.verdict_reason_path else None
    return f"{verdicts[0]}: {reason}" if isinstance(reason, str) else str(verdicts[0])


def reported_rows(table: ReportedTable) -> list[Row]:
    """A paper table's rows (not its aggregate rows: group means are not models; none of a table that repeats
    others' rows, or that holds statistics rather than results)."""
    if table.excerpt_of is not None or table.setting.get("test") == STATISTICS_TEST:
        return []
    rows = []
    for printed in table.rows:
        setting = {**table.setting, **printed.setting}
        rows.append(_reported_row(table, printed, setting))
    return rows


STATISTICS_TEST = "selection statistics"  # a table of how a test was built, not of results (SCN's Table 5)


def _reported_row(table: ReportedTable, printed: ReportedRow, setting: dict[str, SettingValue]) -> Row:
    def text(key: str) -> str | None:
        value = setting.get(key)
        return None if value is None else str(value)

    shots = setting.get("shots")
    fine_tuned = setting.get("fine_tuned_on") is not None or setting.get("method") == "fine-tuning"
    seeds = setting.get("seeds")
    board = reported_board(
        table, text("split"), shots if isinstance(shots, int) else None, text("mode"), text("prompt"), fine_tuned
    )
    board = dataclasses.replace(
        board,
        fine_tuned_on=text("fine_tuned_on"),
        test=text("test") or BASE_TEST,
        seeds=seeds if isinstance(seeds, int) else 1,
    )
    return Row(
        kind="reported",
        task=table.task,
        key=board,
        trust="reported",
        status="reported",
        verdict=printed.verdict if printed.verdict_en is None else f"{printed.verdict} ({printed.verdict_en})",
        verdict_source=None
        if printed.verdict_source is None
        else f"{table.paper.file}, line {printed.verdict_source.line}"
        + (f", {printed.verdict_source.section}" if printed.verdict_source.section else ""),
        model=printed.model,
        setting=setting,
        metrics=_with_derived(table.task, dict(printed.metrics)),
        sd={k: v for k, v in printed.sd.items()},
        n_runs=seeds if isinstance(seeds, int) else 1,
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
    clearances_file: Path | None = None,
    landed: dict[str, str] | None = None,
) -> Leaderboard:
    """Re-score every submission folder, add the paper-reported rows, lay the boards out and decide every
    verdict (verdicts.py). Reproduction records are read from `reproductions_dir`, maintainers' clearances from
    `clearances_file`, by default reproductions/ and clearances.yaml of the repository holding the submissions.
    `landed` (submission id -> when it landed) orders the rows, by default from the git history of the folder;
    a submission it does not name comes after every one it does."""
    folder = submissions_dir() if submissions is None else submissions
    repository = folder.resolve().parent
    if reproductions_dir is None:
        reproductions_dir = repository / REPRODUCTIONS_FOLDER
    if clearances_file is None:
        clearances_file = repository / CLEARANCES_FILE
    known = benchmark_names()
    rows: list[Row] = []
    notes: list[Note] = []
    accepted: dict[str, Metadata] = {}
    views: dict[str, bytes] = {}
    if folder.is_dir():
        folders = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
        for sub_dir, (metadata, sub_rows, sub_notes, sub_views) in zip(
            folders, _collect_all(folders, data_dir, known), strict=True
        ):
            rows.extend(sub_rows)
            notes.extend(sub_notes)
            views.update(sub_views)
            if metadata is not None:
                accepted[sub_dir.name] = metadata
    tables = [table for _, table in load_reported()] if reported else []
    for table in tables:
        rows.extend(reported_rows(table))
    if landed is None:
        landed = landing_dates(folder) if folder.is_dir() else {}
    for row in rows:
        row.landed = landed.get(row.submission_id or "")
    apply_reproductions(rows, reproductions_dir)
    _name_owners(rows, landed)
    grouped = place_references(rows)
    clearances, accepted_prompts = load_clearances(clearances_file)
    published = published_best(rows)
    decided = apply_rules(
        grouped, published=published, clearances=clearances, accepted_prompts=accepted_prompts, landed=landed
    )
    boards = order_boards(decided)
    leaders = {task: leader(task, boards, published) for task in known}
    return Leaderboard(
        rows=rows,
        notes=notes,
        submissions=accepted,
        reported_tables=tables,
        landed=landed,
        boards=boards,
        leaders=leaders,
        views=views,
    )


CLEARANCES_FILE = Path("clearances.yaml")
WORKERS_ENV = "NEGHUB_BUILD_WORKERS"
SERIAL_BELOW = 24  # submissions: fewer are collected in this process (a worker pool costs more than it saves)
Collected = tuple[Metadata | None, list[Row], list[Note], dict[str, bytes]]


def _collect_one(sub_dir: Path, data_dir: Path | None, known: list[str]) -> Collected:
    views: dict[str, bytes] = {}
    metadata, rows, notes = collect_submission(sub_dir, data_dir, known, views)
    return metadata, rows, notes, views


def _collect_all(folders: list[Path], data_dir: Path | None, known: list[str]) -> list[Collected]:
    """Every submission collected, in order: in worker processes (forked, one per core up to 4, or
    $NEGHUB_BUILD_WORKERS) where there are many, here otherwise. A submission's scoring is independent of every
    other's, so the result is the same either way; rows come back pickled (answers.RunAnswers re-codes itself)."""
    import multiprocessing

    workers = int(os.environ.get(WORKERS_ENV) or min(4, os.cpu_count() or 1))
    methods = multiprocessing.get_all_start_methods()
    if workers <= 1 or len(folders) < SERIAL_BELOW or "fork" not in methods:
        return [_collect_one(f, data_dir, known) for f in folders]
    from concurrent.futures import ProcessPoolExecutor

    # forked: the workers inherit the loaded releases and the registry instead of loading them again
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        chunk = max(1, len(folders) // (workers * 8))
        return list(pool.map(_collect_one, folders, [data_dir] * len(folders), [known] * len(folders), chunksize=chunk))


def place_references(rows: list[Row]) -> dict[Board, list[Row]]:
    """Group rows by board, a rule baseline's row copied onto every board of its data release and split (of its
    mode, where the benchmark has modes) as a reference row; one no board shares stays on a board of its own."""
    grouped: dict[Board, list[Row]] = {}
    for row in rows:
        if row.kind != "reference":
            grouped.setdefault(row.key, []).append(row)
    for reference in (r for r in rows if r.kind == "reference"):
        homes = [
            board
            for board, board_rows in grouped.items()
            if board.release_key() == reference.key.release_key()
            and board.mode == reference.key.mode
            and board.test == reference.key.test
            and any(r.kind == "verified" for r in board_rows)
        ]
        for board in homes or [reference.key]:
            grouped.setdefault(board, []).append(dataclasses.replace(reference, key=board, status="reference"))
    return grouped


def _name_owners(rows: list[Row], landed: dict[str, str]) -> None:
    """A model name that reads as an earlier submitter's (NFKC, case folding, Unicode confusables) is that
    submitter's: a later row of another submitter under it is held (verdicts.py)."""
    owner_of_name: dict[str, tuple[str, str]] = {}
    verified = sorted(
        (r for r in rows if r.kind == "verified"),
        key=lambda r: (landed.get(r.submission_id or "", "9999"), r.submission_id or ""),
    )
    for row in verified:
        owner = owner_of_name.setdefault(name_key(row.model), (row.model, row.submitter or ""))
        if owner[1] != (row.submitter or ""):
            row.name_owner = f"{owner[0]!r}, submitted by {owner[1]}"


def apply_reproductions(rows: list[Row], folder: Path) -> None:
    """Each NegHub row's trust: reproduced when NegHub's re-run of a sample of every run's items agreed, in the
    run's own numeric setting, on the very files the row shows."""
    records = load_reproductions(folder)
    for row in rows:
        if row.kind == "reported" or row.submission_id is None:
            continue
        record = records.get(row.submission_id)
        if record is None:
            row.reproduction = "not reproduced"
            continue
        if record.kind != "same-setting":  # agreeing or not, it proves nothing of the submitted run
            row.reproduction = (
                "not reproduced (NegHub's record re-ran it in another numeric setting: a drift report)"
                if record.kind == "across-settings"
                else "not reproduced (NegHub's record was made before numeric settings were recorded)"
            )
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
            row.reproduction = f"{checked - agreeing}/{checked} sampled items differ{extra} ({record.date})"
