"""Paper-reported results: the transcribed tables in each benchmark's `reported/*.yaml` (leaderboard/PAPER_TABLES.md).

These are rows of their own kind ("reported"): NegHub did not compute them, so they are shown
with a badge and never ranked together with re-scored rows. The files are the project's own,
read with PyYAML's safe loader and checked by a closed pydantic model.

A build reads every table several times (the boards, the pages, the profile, the downloads): each file is parsed
once per process, by libyaml's C safe loader where PyYAML has it (the pure-Python one took most of a build's
0.7 s of table reading), and kept by its path, modification time and size, so that a file changed on disk is read
again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Protocol

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..evaluator.core.errors import InputError, Problem

SettingValue = str | int | float | bool | None
# the C safe loader where PyYAML was built with libyaml (the same documents, parsed several times faster); the
# pure-Python safe loader otherwise
try:
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # PyYAML without libyaml
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]
_CLOSED = ConfigDict(extra="forbid", frozen=True)


class Paper(BaseModel):
    model_config = _CLOSED
    title: str
    title_en: str | None = None
    authors: str
    venue: str | None
    year: int | None
    file: str


class ReportedDataset(BaseModel):
    """The data a paper's table was computed on. When it is the very release NegHub pins (its release digest,
    evaluator.core.results.release_digest), the paper's rows share NegHub's boards; otherwise they sit on
    boards of their own, named by `label`."""

    model_config = _CLOSED
    label: str
    release_digest: str | None = None


class VerdictSource(BaseModel):
    """Where a quoted verdict stands in the paper's plain text (shared/papers/<file>), so that it can be checked."""

    model_config = _CLOSED
    file: Annotated[str, Field(min_length=1)]
    line: Annotated[int, Field(ge=1)]  # 1-based line of the file that holds the quoted words
    section: str | None = None  # the section as the paper numbers and titles it, for readers


class ReportedRow(BaseModel):
    """One model in one setting, as printed in a paper's table."""

    model_config = _CLOSED
    model: Annotated[str, Field(min_length=1)]
    hf_repo_id: str | None = None
    api_model_id: str | None = None
    setting: dict[str, SettingValue] = Field(default_factory=dict)
    metrics: dict[str, float]
    sd: dict[str, float] = Field(default_factory=dict)
    note: str | None = None
    # The paper's own judgement of this model, quoted verbatim (no quotation marks), where the paper states one
    # for the model; verdict_en renders it in English when the paper is not in English.
    verdict: Annotated[str, Field(min_length=1)] | None = None
    verdict_en: str | None = None
    verdict_source: VerdictSource | None = None

    @field_validator("metrics", "sd")
    @classmethod
    def _finite(cls, value: dict[str, float]) -> dict[str, float]:
        for key, number in value.items():
            if not math.isfinite(number):
                raise ValueError(f"{key}: not a finite number")
        return value

    @model_validator(mode="after")
    def _verdict_with_source(self) -> ReportedRow:
        if (self.verdict is None) != (self.verdict_source is None):
            raise ValueError("verdict and verdict_source go together: a quoted verdict needs the line it comes from")
        if self.verdict_en is not None and self.verdict is None:
            raise ValueError("verdict_en renders a verdict: give the verdict (the paper's words) too")
        return self


class ReportedTable(BaseModel):
    """One transcribed paper table (the format of leaderboard/PAPER_TABLES.md)."""

    model_config = _CLOSED
    task: str  # a registered benchmark (checked when the tables are loaded)
    paper: Paper
    table: str
    caption: str
    setting: dict[str, SettingValue] = Field(default_factory=dict)
    dataset: ReportedDataset | None = None
    rows: list[ReportedRow]
    aggregate_rows: list[ReportedRow] = Field(default_factory=list)
    notes: str | None = None
    # a table that only repeats rows of other tables (NUBench's Table 7 of Tables 18 and 19): transcribed and
    # checked, never drawn (a row drawn twice would be two models on a chart)
    excerpt_of: str | None = None

    def citation(self) -> str:
        year = self.paper.year if self.paper.year is not None else "n.d."
        return f"{self.paper.authors} ({year}), {self.table}"


def load_reported(directory: Path | None = None) -> list[tuple[Path, ReportedTable]]:
    """Every transcribed table: each registered benchmark's `reported/*.yaml` (or the `*.yaml` of one
    `directory`), validated; any problem raises one InputError listing them all. A table must belong to the
    benchmark whose folder holds it."""
    from ..evaluator.core.registry import benchmark_names, benchmarks

    folders: list[tuple[Path, str | None]] = (
        [(directory, None)]
        if directory is not None
        else [(b.reported_dir, b.name) for b in benchmarks() if b.reported_dir is not None]
    )
    names = set(benchmark_names())
    tables: list[tuple[Path, ReportedTable]] = []
    problems: list[Problem] = []
    for folder, owner in folders:
        for path in sorted(folder.glob("*.yaml")):
            stat = path.stat()
            parsed = _parse_table(path, stat.st_mtime_ns, stat.st_size)
            if not isinstance(parsed, ReportedTable):
                problems.extend(parsed)
                continue
            table = parsed
            if table.task not in names or (owner is not None and table.task != owner):
                problems.append(Problem(str(path), None, "task", f"{table.task!r} is not the benchmark of this folder"))
                continue
            tables.append((path, table))
    if problems:
        raise InputError(problems)
    return tables


@cache
def _parse_table(path: Path, mtime_ns: int, size: int) -> ReportedTable | tuple[Problem, ...]:
    """One table file parsed and validated, or its problems; cached per process by path, modification time and
    size (the tables are frozen models: every caller may share them)."""
    del mtime_ns, size  # the cache key only: a file changed on disk is parsed again
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_SafeLoader)  # a safe loader: plain data only
        return ReportedTable.model_validate(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = None if mark is None else mark.line + 1
        return (Problem(str(path), line, None, f"invalid YAML: {getattr(exc, 'problem', exc)}"),)
    except ValidationError as exc:
        return tuple(
            Problem(str(path), None, ".".join(str(part) for part in err["loc"]) or None, err["msg"])
            for err in exc.errors()
        )


# the flag of a paper row's figure that NegHub derived (SCN's negation contrast, from the paper's drops): every page
# that shows the figure (the benchmark's board, the profile's cell) says so in these words
COMPUTED_WORDS = "computed by NegHub from the paper's figures, not printed in the paper"


def computed_paths(task: str, metrics: Mapping[str, float]) -> frozenset[str]:
    """The figures of a paper row that NegHub derived (the benchmark's derive_metrics), not the paper's."""
    from ..evaluator.core.registry import get_benchmark

    derive = get_benchmark(task).derive_metrics
    return frozenset(derive(dict(metrics))) if derive is not None else frozenset()


class _Shown(Protocol):
    """A row as a page shows it (facts.RowFacts, facts.Row): its kind, benchmark and figures."""

    @property
    def kind(self) -> str: ...
    @property
    def task(self) -> str: ...
    @property
    def metrics(self) -> Mapping[str, float]: ...


def computed_flags(row: _Shown, path: str, label: str | None = None) -> list[str]:
    """["<label> computed by NegHub from the paper's figures, not printed in the paper"] (without a label where the
    cell names its figure already) where `row` is a paper's and its figure at `path` is NegHub's; else []."""
    if row.kind != "reported" or path not in computed_paths(row.task, row.metrics):
        return []
    return [COMPUTED_WORDS if label is None else f"{label} {COMPUTED_WORDS}"]
