"""Re-score every submission, gather the facts the rules may trust, and decide every verdict (verdicts.decide).

Nothing a submission states about its own scores is read: each run's prediction file is scored again through the
registry against the pinned dataset, and the leaderboard reads nothing but those `Result`s (headline, metrics,
per-item outcomes). A submission whose metadata does not validate, whose files are missing or malformed, or whose
data is unverified is refused as a whole, with a note for the maintainers. Runs whose dataset this build cannot
read are left out with a note.

Every row sits on one board (boards.py: benchmark, dataset release, split, protocol). Beside the re-scored rows
NegHub computes the rule rows of every board from the data and the rule (each benchmark's `references`), and adds
the papers' rows. What GitHub recorded (history.py) gives each submission its landing and its account, and says
which reproduction records and clearances count (evidence.py). `decide` then returns the leaderboard file; the
`Leaderboard` holds the facts and that file, joined into the rows the site shows.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import statistics
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.errors import InputError, Problem
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.results import Result, dig, release_digest
from ..evaluator.core.stats import BootstrapConfig
from ..evaluator.runners.setting import SETTING_KEYS, recorded_setting, setting_in_words
from ..evaluator.submissions.format import Metadata, Run
from ..evaluator.submissions.identity import model_identity
from ..evaluator.submissions.reproduction import Reproduction
from ..evaluator.submissions.rules import RuleResult, rule_results
from .answers import RunAnswers, intern_ids, items_file, items_path, run_answers, view_files
from .board_file import HistoryEntry, LeaderboardFile, LeaderEntry
from .boards import BASE_TEST, Board, check_unique_ids, neghub_dataset, primary_board, prompt_style, verified_board
from .clearances import load_clearances
from .evidence import account_of, maintainers_run, record_facts
from .facts import RecordFacts, Row, RowFacts, SettingValue, joined
from .history import History, read_history
from .kept_answers import neghubs_figures
from .marks import ignored_negation
from .paper_results import ReportedRow, ReportedTable, load_reported
from .score_cache import ScoreCache
from .verdicts import Context, decide

# reproduction records are repository data, like the submissions: `neghub reproduce` writes them to
# reproductions/ of the checkout, beside submissions/ (read from there, never from the package)
REPRODUCTIONS_FOLDER = Path("reproductions")
CLEARANCES_FILE = Path("clearances.yaml")
FINE_TUNED = "fine-tuned"  # the prompt style of a classifier run
SUBMISSIONS_ENV = "NEGHUB_SUBMISSIONS_DIR"
# "none": read no history (the pull-request check builds the site from the pull request's tree, whose first-parent
# history is its author's branch, not main's)
HISTORY_ENV = "NEGHUB_HISTORY"


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
    """One build's facts, the leaderboard file decided from them, and the rows the site shows (both joined)."""

    facts: list[RowFacts]
    file: LeaderboardFile
    notes: list[Note]
    submissions: dict[str, Metadata]
    reported_tables: list[ReportedTable]
    history: History
    views: dict[str, bytes] = field(default_factory=dict)  # the answers view's files (answers.py)
    rows: list[Row] = field(init=False)

    def __post_init__(self) -> None:
        entries = self.file.entries()
        self.rows = [joined(facts, entries[facts.id]) for facts in self.facts]
        self._by_id = {row.id: row for row in self.rows}

    def row(self, row_id: str) -> Row:
        return self._by_id[row_id]

    def tables(self) -> dict[Board, list[Row]]:
        """One table per board, in page order, each in table order (the leaderboard file's). A primary board lists
        the comparable paper rows too (theirs is another board, named in each)."""
        keys = {row.key.slug: row.key for row in self.rows}
        for task in benchmark_names():
            declared = primary_board(task)
            if declared is not None:
                keys.setdefault(declared.slug, declared)
        return {keys[board.board]: [self._by_id[row_id] for row_id in board.rows] for board in self.file.boards}

    @property
    def leaders(self) -> dict[str, LeaderEntry]:
        return {leader.task: leader for leader in self.file.leaders}

    def landing_words(self, sid: str) -> str:
        landing = self.history.submissions.get(sid) if self.history.recorded else None
        if landing is None:
            return self.history.why_not or "not landed on main"
        return f"position {landing.position} of main's history: {landing.words}"


def submissions_dir(repository: Path | None = None) -> Path:
    """The folder to collect: $NEGHUB_SUBMISSIONS_DIR, else `submissions/` of the repository (default: the
    working directory, where `mkdocs build` and the nox sessions run)."""
    env = os.environ.get(SUBMISSIONS_ENV)
    return Path(env) if env else (repository or Path.cwd()) / "submissions"


def load_reproductions(folder: Path) -> dict[str, tuple[Path, Reproduction]]:
    """Submission id -> its reproduction record and the record's path (`neghub reproduce` writes
    reproductions/<id>.json)."""
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
        records[record.submission] = (path, record)
    return records


def refuse_links(*paths: Path) -> None:
    """The leaderboard's inputs (submissions/, reproductions/, clearances.yaml) are read only where none of them is
    a symbolic link, holds one, or sits below one: a link would let a pull request show the checks one file and the
    build another."""
    problems = []
    for path in paths:
        absolute = Path(os.path.abspath(path))
        for parent in (absolute, *absolute.parents):
            if parent.is_symlink():
                problems.append(Problem(str(path), None, None, f"{parent.name} is a symbolic link: refused"))
                break
        if absolute.is_dir() and not absolute.is_symlink():
            for inner in absolute.rglob("*"):
                if inner.is_symlink():
                    relative = inner.relative_to(absolute).as_posix()
                    problems.append(Problem(str(path), None, relative, "a symbolic link: refused"))
                    break
    if problems:
        raise InputError(problems)


# --- one submission -----------------------------------------------------------------------------------------


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
    if run.chat_template is not None:
        return run.chat_template
    recorded = metadata.recorded_settings(run).get("chat_template")
    return recorded if isinstance(recorded, bool) else None


def _prompt_sha256(metadata: Metadata, run: Run) -> str | None:
    recorded = metadata.recorded_settings(run).get("prompt_sha256")
    return recorded if isinstance(recorded, str) else None


@dataclass
class Collected:
    """One submission collected (in a worker process, where there are many): what the parent needs of it."""

    metadata: Metadata | None
    rows: list[RowFacts]
    notes: list[Note]
    views: dict[str, bytes]
    samples: dict[Board, Result]  # one result per board of shared items: the board's rule rows are computed on it


def collect_submission(sub_dir: Path, data_dir: Path | None, known_tasks: Iterable[str]) -> Collected:
    """Validate and re-score one submission: its rows (with the rule rows of a row whose items are its own), or a
    refusal note (and notes for skipped runs)."""
    from ..evaluator.submissions.validation import check_submission

    sid = sub_dir.name
    # the validator reads and scores every prediction file anyway: its results are all the leaderboard reads
    checked = check_submission(sub_dir, data_dir=data_dir, bootstrap=BootstrapConfig())
    # a run whose dataset this build cannot read says nothing against the submission: it is left out
    # (with a note) and the other runs are shown; any other problem refuses the whole submission
    not_readable = {p for found in checked.unavailable.values() for p in found}
    blocking = [p for p in checked.problems if p not in not_readable]
    if blocking or checked.metadata is None:
        return Collected(None, [], [Note(sid, "refused", tuple(str(p) for p in checked.problems))], {}, {})
    metadata = checked.metadata
    known = set(known_tasks)
    run_task = {run.file: run.task for run in metadata.runs}
    skipped = [
        f"{r.file}: no scorer for task {r.task} yet; run not shown" for r in metadata.runs if r.task not in known
    ]
    # one short line per run (how to show it is said once per build, by the MkDocs hook: not in each line)
    skipped += [
        f"{rel}: left out: this build could not read the {run_task[rel]} release "
        f"({'; '.join(p.without_advice() for p in found)})"
        for rel, found in checked.unavailable_reasons.items()
    ]
    unreadable = tuple(run_task[rel] for rel in checked.unavailable_reasons)
    notes = [Note(sid, "skipped", tuple(skipped), unreadable)] if skipped else []
    groups: dict[Board, list[tuple[Run, Result]]] = {}
    refusals: list[str] = []
    for run in metadata.runs:
        if run.task not in known or run.file in checked.unavailable:
            continue
        result = checked.results[run.file]
        if not result.provenance.verified:
            refusals.append(f"{run.file}: scored against data that differs from the pinned release (unverified)")
            continue
        board = _verified_board(run, result, _chat_template(metadata, run), _prompt_sha256(metadata, run))
        groups.setdefault(board, []).append((run, result))
    if refusals:
        return Collected(None, [], [Note(sid, "refused", tuple(refusals)), *notes], {}, {})
    rows: list[RowFacts] = []
    views: dict[str, bytes] = {}
    samples: dict[Board, Result] = {}
    for board, runs in groups.items():
        runs.sort(key=lambda pair: (pair[0].seed is not None, pair[0].seed or 0))
        key = dataclasses.replace(board, seeds=len(runs))
        row = _row(sid, metadata, key, runs, views)
        rows.append(row)
        first = runs[0][1]
        if first.headline_items is None:
            rows.extend(reference_rows(first, key, data_dir, for_row=row.id))
        else:
            samples.setdefault(key, first)
    return Collected(metadata, rows, notes, views, samples)


def _row(sid: str, metadata: Metadata, key: Board, runs: list[tuple[Run, Result]], views: dict[str, bytes]) -> RowFacts:
    results = [result for _, result in runs]
    means, sds = mean_and_sd([flatten_metrics(result.metrics) for result in results])
    provenance = tuple(provenance_record(run, result) for run, result in runs)
    identity = model_identity(metadata)
    answers = {run.seed: run_answers(result) for run, result in runs}
    setting = recorded_setting(metadata.provenance)
    row_id = f"{sid}/{key.slug}"
    row_views: list[str] = []
    for run, result in runs:
        files = view_files(result, answers[run.seed], metadata.model.name, sid, run.file)
        if files:
            views.update(files)
            row_views.extend(files)
            shared = items_path(result)
            if shared not in views:
                views[shared] = items_file(result)
    not_rankable = None
    seeds = {run.seed for run, _ in runs}
    if len(seeds) < len(runs) or len({p["predictions_sha256"] for p in provenance}) < len(runs):
        not_rankable = "its runs repeat a seed or the same predictions (an average needs distinct runs)"
    first = results[0]
    return RowFacts(
        id=row_id,
        kind="verified",
        task=key.task,
        key=key,
        model=metadata.model.name,
        setting={"split": key.split, "shots": key.shots, "mode": key.mode, "prompt": runs[0][0].prompt},
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
        weights_file=getattr(metadata.model, "file", None) if metadata.model.kind == "hub" else None,
        numeric_setting=setting_in_words(metadata.provenance) if setting.dtype or setting.device else None,
        setting_fields={k: getattr(setting, k) for k in SETTING_KEYS},
        headline_items=_headline_items(results),
        headline_clusters=headline_clusters(results),
        answers=answers,
        correct=None if first.items.correct is None else np.array(first.items.correct, dtype=np.bool_),
        views=tuple(row_views),
        verdict=_verdict(key.task, results),
        verdict_value=_verdict_value(key.task, results),
        ignored=ignored_negation(first),
        not_rankable=not_rankable,
    )


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


def headline_clusters(results: list[Result]) -> tuple[str, ...] | None:
    """Each headline unit's source (HeadlineItems.clusters), where every run records the same; else None."""
    found = {
        None if r.headline_items is None or r.headline_items.clusters is None else tuple(r.headline_items.clusters)
        for r in results
    }
    (clusters,) = found if len(found) == 1 else (None,)
    return None if clusters is None else intern_ids(clusters)


def _verdict_value(task: str, results: list[Result]) -> str | None:
    """The benchmark's own verdict of a row, where every run gives the same (the board orders rows by it)."""
    path = get_benchmark(task).display.verdict_path
    values = {dig(result.metrics, path) for result in results} if path is not None else set()
    (value,) = values if len(values) == 1 else (None,)
    return value if isinstance(value, str) else None


def _verdict(task: str, results: list[Result]) -> str | None:
    """The benchmark's own verdict of a row (a cloze test's passes, partially passes, fails), with its reason;
    where the runs of a row disagree, that they do."""
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


# --- rule rows ----------------------------------------------------------------------------------------------


def reference_rows(result: Result, board: Board, data_dir: Path | None, for_row: str | None = None) -> list[RowFacts]:
    """The rule rows NegHub computes on `result`'s items (its board's, or one row's own). A rule given by its
    expected score (random guessing) has that figure alone, and beside it the figures every scored rule row shares:
    those of the data, not of the answers (the counts of items and pairs)."""
    rows = [_reference_row(found, board, for_row) for found in rule_results(result, data_dir)]
    scored = [r for r in rows if r.answers]
    shared = (
        {path: value for path, value in scored[0].metrics.items() if all(r.metrics.get(path) == value for r in scored)}
        if len(scored) > 1
        else {}
    )
    return [r if r.answers else dataclasses.replace(r, metrics={**shared, **r.metrics}) for r in rows]


def _reference_row(found: RuleResult, board: Board, for_row: str | None) -> RowFacts:
    rule = found.rule
    slug = re.sub(r"[^a-z0-9]+", "-", rule.name.lower()).strip("-")
    row_id = f"rule/{slug}/{board.slug}" + (f"/{for_row}" if for_row else "")
    verdict_value = None
    if found.result is not None:
        scored = found.result
        verdict_value = _verdict_value(board.task, [scored])
        metrics = flatten_metrics(scored.metrics)
        items = _headline_items([scored])
        clusters = headline_clusters([scored])
        answers: dict[int | None, RunAnswers] = {None: run_answers(scored)}
        correct = None if scored.items.correct is None else np.array(scored.items.correct, dtype=np.bool_)
    else:
        assert found.expected is not None
        keys = intern_ids(found.expected[0])
        values = np.array(found.expected[1], dtype=np.float64)
        metrics = {get_benchmark(board.task).display.headline.path: float(values.mean())}
        items = (keys, values)
        clusters = None
        answers = {}
        correct = None
    return RowFacts(
        id=row_id,
        kind="reference",
        task=board.task,
        key=board,
        model=rule.name,
        metrics=metrics,
        parameters=0,
        open_weights=True,  # a rule hides nothing: its every answer follows from the data
        note=rule.words,
        rule=rule.words,
        headline_items=items,
        headline_clusters=clusters,
        answers=answers,
        correct=correct,
        reference_for=for_row,
        verdict_value=verdict_value,
    )


# --- paper rows ---------------------------------------------------------------------------------------------

STATISTICS_TEST = "selection statistics"  # a table of how a test was built, not of results (SCN's Table 5)


def reported_rows(table: ReportedTable) -> list[RowFacts]:
    """A paper table's rows (not its aggregate rows: group means are not models; none of a table that repeats
    others' rows, or that holds statistics rather than results)."""
    if table.excerpt_of is not None or table.setting.get("test") == STATISTICS_TEST:
        return []
    return [
        _reported_row(table, printed, {**table.setting, **printed.setting}, index)
        for index, printed in enumerate(table.rows)
    ]


def _reported_row(table: ReportedTable, printed: ReportedRow, setting: dict[str, SettingValue], index: int) -> RowFacts:
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
        seeds=seeds if isinstance(seeds, int) else (None if "seeds" in setting else 1),
    )
    source = (
        None
        if printed.verdict_source is None
        else f"{table.paper.file}, line {printed.verdict_source.line}"
        + (f", {printed.verdict_source.section}" if printed.verdict_source.section else "")
    )
    return RowFacts(
        id=f"paper/{table.paper.file}/{table.table}/{index}",
        kind="reported",
        task=table.task,
        key=board,
        model=printed.model,
        setting=setting,
        metrics=_with_derived(table.task, dict(printed.metrics)),
        sd=dict(printed.sd),
        n_runs=seeds if isinstance(seeds, int) else 1,  # "runs not stated" is the board's to say
        source=table.table,
        paper=table.paper.title_en or table.paper.title,
        note=printed.note,
        verdict=printed.verdict,
        verdict_en=printed.verdict_en,
        verdict_source=source,
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
        label = table.dataset.label if table.dataset is not None else "the paper's data"
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


# --- the whole build ----------------------------------------------------------------------------------------


def collect(
    submissions: Path | None = None,
    *,
    data_dir: Path | None = None,
    reported: bool = True,
    reproductions_dir: Path | None = None,
    clearances_file: Path | None = None,
    history: History | None = None,
    score_cache: Path | None = None,
) -> Leaderboard:
    """Re-score every submission folder, compute the rule rows, add the paper rows, gather what GitHub recorded
    and decide every verdict. Reproduction records are read from `reproductions_dir`, maintainers' clearances
    from `clearances_file`, by default reproductions/ and clearances.yaml of the repository holding the
    submissions; `history` (landings, accounts) by default from the git history of that repository. With
    `score_cache` (a folder: score_cache.py), a submission (or the answers NegHub's re-run kept of one) scored
    before with the same files, releases and scorer is read from it instead of being scored again."""
    folder = submissions_dir() if submissions is None else submissions
    repository = Path(os.path.abspath(folder)).parent
    reproductions_dir = repository / REPRODUCTIONS_FOLDER if reproductions_dir is None else reproductions_dir
    clearances_file = repository / CLEARANCES_FILE if clearances_file is None else clearances_file
    refuse_links(folder, reproductions_dir, clearances_file)
    if history is None:
        history = (
            History(False, "this build reads a pull request's tree, whose history is not main's")
            if os.environ.get(HISTORY_ENV) == "none"
            else read_history(folder)
        )
    known = benchmark_names()
    facts: list[RowFacts] = []
    notes: list[Note] = []
    accepted: dict[str, Metadata] = {}
    views: dict[str, bytes] = {}
    samples: dict[Board, Result] = {}
    records = load_reproductions(reproductions_dir)
    cache = None if score_cache is None else ScoreCache(score_cache)
    if folder.is_dir():
        folders = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
        for sub_dir, collected in zip(folders, _collect_cached(folders, data_dir, known, cache), strict=True):
            notes.extend(collected.notes)
            views.update(collected.views)
            for board, result in collected.samples.items():
                samples.setdefault(board, result)
            if collected.metadata is None:
                continue
            accepted[sub_dir.name] = collected.metadata
            rows = [_with_evidence(r, collected.metadata, history, records) for r in collected.rows]
            facts.extend(
                neghubs_figures(rows, sub_dir, collected.metadata, records, reproductions_dir, data_dir, cache)
            )
    if cache is not None:
        cache.prune()  # after the kept answers too: the entries they used are kept
    for board, result in samples.items():
        facts.extend(reference_rows(result, board, data_dir))
    tables = [table for _, table in load_reported()] if reported else []
    for table in tables:
        facts.extend(reported_rows(table))
    clearances, prompts = load_clearances(clearances_file, history)
    words = (
        "landing order and accounts from main's first-parent history (GitHub's record)"
        if history.recorded
        else f"no record: {history.why_not}; rows are ordered by submission id and each is another account's"
    )
    context = Context(HistoryEntry(recorded=history.recorded, words=words), tuple(clearances), frozenset(prompts))
    check_unique_ids(facts)  # before decide, which keys rows by id: a second row would replace the first
    file = decide(facts, context)
    return Leaderboard(facts, file, notes, accepted, tables, history, views)


def _with_evidence(
    row: RowFacts, metadata: Metadata, history: History, records: dict[str, tuple[Path, Reproduction]]
) -> RowFacts:
    """A submission's row with what GitHub recorded of it: its landing, its account, whether it is the
    maintainers' run, and what its reproduction record counts for."""
    if row.kind != "verified" or row.submission_id is None:
        return row
    sid = row.submission_id
    account = account_of(history, sid, metadata)
    landing = history.submissions.get(sid) if history.recorded else None
    found = records.get(sid)
    record: RecordFacts | None = None
    if found is not None:
        files = {str(p["file"]): str(p["predictions_sha256"]) for p in row.provenance}
        record = record_facts(history, found[0], found[1], metadata, files, sid)
    return dataclasses.replace(
        row,
        account=account,
        landing=None if landing is None else landing.position,
        landing_words=None if landing is None else landing.words,
        forked_at=None if landing is None else landing.forked_at,
        pull_request=None if landing is None else landing.pull_request,
        maintainers_run=maintainers_run(history, sid, account),
        record=record,
    )


WORKERS_ENV = "NEGHUB_BUILD_WORKERS"
SERIAL_BELOW = 24  # submissions: fewer are collected in this process (a worker pool costs more than it saves)


def _collect_one(sub_dir: Path, data_dir: Path | None, known: list[str]) -> Collected:
    return collect_submission(sub_dir, data_dir, known)


@dataclass
class CachedSubmission:
    """A submission's score cache entry: what it collected but its board samples, and the boards it holds a sample
    of (the samples, whole Results and most of the entry's bytes, are kept in an entry of their own, read only for
    the submission whose sample of a board the build computes that board's rule rows on: the first)."""

    collected: Collected
    sample_boards: tuple[Board, ...]


SAMPLES = "board samples"  # the part of a submission's entry that holds its samples (ScoreCache.part_key)


def _collect_cached(
    folders: list[Path], data_dir: Path | None, known: list[str], cache: ScoreCache | None
) -> list[Collected]:
    """Every submission collected, in order: from the score cache where it holds the submission's entry, else
    scored (`_collect_all`) and kept in it (no cache: every one scored). Of the board samples, only the first
    submission's of each board is kept (the one the build computes the board's rule rows on), as each comes: a
    thousand submissions' whole Results of every board would not fit in memory together; from the cache, only the
    samples of those first submissions are read."""
    keys = [""] * len(folders) if cache is None else cache.keys(folders, data_dir)
    # board -> (submission, its place there, the sample; None: in the cache's entry of the submission's samples)
    first: dict[Board, tuple[int, int, Result | None]] = {}

    def with_first_samples(index: int, collected: Collected, samples: dict[Board, Result | None]) -> Collected:
        for place, (board, result) in enumerate(samples.items()):
            if board not in first or index < first[board][0]:
                first[board] = (index, place, result)
        return dataclasses.replace(collected, rows=[_shared(row) for row in collected.rows], samples={})

    found: list[Collected | None] = [None] * len(folders)
    for index, key in enumerate(keys):
        hit = None if cache is None else cache.get(key)
        if isinstance(hit, CachedSubmission):
            assert cache is not None
            cache.keep(cache.part_key(key, SAMPLES))  # read below only where needed, kept either way
            found[index] = with_first_samples(index, hit.collected, dict.fromkeys(hit.sample_boards))
    missing = [index for index, value in enumerate(found) if value is None]
    for index, collected in zip(missing, _collect_all([folders[i] for i in missing], data_dir, known), strict=True):
        # a release this build could not read: not kept (a build that reads it must score the runs left out)
        if cache is not None and not any(note.unreadable for note in collected.notes):
            _keep(cache, keys[index], collected)
        found[index] = with_first_samples(index, collected, dict(collected.samples))
    for board, (index, _, result) in sorted(first.items(), key=lambda item: item[1][:2]):
        found[index].samples[board] = (  # type: ignore[union-attr]
            _cached_sample(cache, keys[index], board, folders[index], data_dir, known) if result is None else result
        )
    return [collected for collected in found if collected is not None]


def _keep(cache: ScoreCache, key: str, collected: Collected) -> None:
    """A submission's entry, and its board samples in an entry of their own."""
    cache.put(key, CachedSubmission(dataclasses.replace(collected, samples={}), tuple(collected.samples)))
    cache.put(cache.part_key(key, SAMPLES), collected.samples)


def _cached_sample(
    cache: ScoreCache | None, key: str, board: Board, folder: Path, data_dir: Path | None, known: list[str]
) -> Result:
    """A cached submission's sample of `board`, from its samples' entry; the submission scored again (and both of
    its entries written again) where that entry is missing or unreadable."""
    assert cache is not None
    samples = cache.get(cache.part_key(key, SAMPLES))
    if not isinstance(samples, dict) or not isinstance(samples.get(board), Result):
        collected = _collect_one(folder, data_dir, known)
        _keep(cache, key, collected)
        samples = collected.samples
    result: Result = samples[board]
    return result


def _shared(row: RowFacts) -> RowFacts:
    """A row that came back pickled (from a worker or the score cache) with its metric paths and item ids shared
    with every other row's again, as flatten_metrics and intern_ids made them: each unpickled submission brings its
    own copies (JNLI-Neg's 1,363 item ids a row, and as many clusters), which at a thousand submissions were a third
    of what collecting holds."""
    items, clusters = row.headline_items, row.headline_clusters
    return dataclasses.replace(
        row,
        metrics=dict(zip(map(sys.intern, row.metrics), map(_one_float, row.metrics.values()), strict=True)),
        sd=dict(zip(map(sys.intern, row.sd), row.sd.values(), strict=True)),
        headline_items=None if items is None else (intern_ids(items[0]), items[1]),
        headline_clusters=None if clusters is None else intern_ids(clusters),
    )


_FLOATS: dict[float, float] = {}


def _one_float(value: float) -> float:
    """One float object for every equal figure of the build: at 1,000 submissions, 680,000 figures held 82,000
    values (counts, shares of 1,363 items), 14 MB as objects of their own. Zeros (0.0 and -0.0 are equal, yet print
    differently) and NaN (equal to nothing) stay as they are."""
    return _FLOATS.setdefault(value, value) if value and value == value else value


def _collect_all(folders: list[Path], data_dir: Path | None, known: list[str]) -> Iterator[Collected]:
    """Every submission collected, in order, as each is done: in worker processes (forked, one per core up to 4, or
    $NEGHUB_BUILD_WORKERS) where there are many, here otherwise. A submission's scoring is independent of every
    other's, so the result is the same either way; rows come back pickled (answers.RunAnswers re-codes itself)."""
    import multiprocessing

    workers = int(os.environ.get(WORKERS_ENV) or min(4, os.cpu_count() or 1))
    methods = multiprocessing.get_all_start_methods()
    if workers <= 1 or len(folders) < SERIAL_BELOW or "fork" not in methods:
        yield from (_collect_one(f, data_dir, known) for f in folders)
        return
    from concurrent.futures import ProcessPoolExecutor

    # forked: the workers inherit the loaded releases and the registry instead of loading them again
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        chunk = max(1, len(folders) // (workers * 8))
        yield from pool.map(_collect_one, folders, [data_dir] * len(folders), [known] * len(folders), chunksize=chunk)


__all__ = [
    "Collected",
    "Leaderboard",
    "Note",
    "Row",
    "RowFacts",
    "RunAnswers",
    "collect",
    "flatten_metrics",
    "mean_and_sd",
    "submissions_dir",
]
