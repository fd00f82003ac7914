"""What the leaderboard knows of a row before any rule is applied: facts NegHub computed or GitHub recorded.

`collect.py` builds one `RowFacts` per row (a submission's runs on one board, a rule row NegHub computed, a paper's
row) and never changes it afterwards; `verdicts.decide` reads them and returns each row's verdict as a new value
(`board_file.RowEntry`); the site reads both, joined in a `Row`. A fact a submitter writes (a model's name, a
submitter's name) is kept as a claim: shown, never the ground of a verdict but where a rule says so (a name that
reads as another's is held for the name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from .boards import Board

if TYPE_CHECKING:
    from .answers import RunAnswers
    from .board_file import RowEntry
    from .marks import IgnoredNegation

SettingValue = str | int | float | bool | None
RowKind = Literal["verified", "reference", "reported"]


@dataclass(frozen=True)
class Account:
    """Who landed a submission, as the rules compare it.

    `key` is what "the same submitter" means: `github:<login>` (lower case) for a pull request's author, whose
    `submitter.github` the pull-request check held equal to the event's `pull_request.user.login`;
    `maintainers` for a direct push to main; `unrecorded:<id>` where the build has no record (each submission
    another account)."""

    key: str
    words: str  # how a page names it: "@alice", "the maintainers"
    maintainers: bool = False


@dataclass(frozen=True)
class RecordFacts:
    """A reproduction record of a row, as collect read it: whether it counts (`accepted`, with why not), and what
    NegHub's re-run answered.

    `rerun` is true where the record kept NegHub's own answers (schema 5) and the build scored them: the row's
    figures are then NegHub's (collect.py replaces the submitted ones), and the submitted answers are compared with
    them for a mark (`differing` of `compared` items), never for a condition."""

    accepted: bool
    words: str  # what it found, or why it does not count
    checked: int = 0
    agreeing: int = 0
    unexpected: int = 0
    date: str | None = None
    weights_sha256: str | None = None  # the weights NegHub's re-run loaded, where the record names them
    rerun: bool = False  # NegHub's re-run answers were kept and scored: the row's figures are NegHub's
    compared: int = 0  # items both NegHub's re-run and the submitted files answered
    differing: int = 0  # of those, items answered otherwise
    across_settings: bool = False  # NegHub re-ran in its own numeric setting, not the submitted one

    @property
    def agrees(self) -> bool:
        return self.accepted and self.checked > 0 and self.agreeing == self.checked and not self.unexpected


@dataclass(frozen=True, eq=False)
class RowFacts:
    """One row: a model on one board, a rule row NegHub computed for a board, or a paper's row."""

    id: str  # unique in a build: "<submission>/<board slug>", "rule/<rule>/<board slug>", "paper/<table>/<n>"
    kind: RowKind
    task: str
    key: Board
    model: str
    metrics: Mapping[str, float]
    setting: Mapping[str, SettingValue] = field(default_factory=dict)
    sd: Mapping[str, float] = field(default_factory=dict)
    submission_id: str | None = None
    parameters: int | None = None
    open_weights: bool | None = None
    date: str | None = None  # the date the submitter gave (a claim, shown only)
    n_runs: int = 1
    provenance: tuple[Mapping[str, Any], ...] = ()
    source: str | None = None  # the table of a paper's row
    paper: str | None = None  # the paper of a paper's row (its title)
    note: str | None = None
    submitter: str | None = None  # the name metadata.yaml gives (a claim)
    account: Account | None = None  # who landed it (history.py, evidence.py)
    landing: int | None = None  # its position on main's first-parent history (None: not on record)
    landing_words: str | None = None
    # the position on main's first-parent history of the commit the pull request that landed it branched from
    # (history.py: the merge base of its merge commit's parents); None for a push or where nothing is on record
    forked_at: int | None = None
    # the number GitHub gave the pull request that landed it, from the merge subject (history.Landing.pull_request):
    # numbers grow with the time a pull request or issue was opened, which the fork point does not show
    pull_request: int | None = None
    maintainers_run: bool = False  # landed by the maintainers (a direct push, or their gpu-eval workflow)
    record: RecordFacts | None = None
    identity: str | None = None  # evaluator.submissions.identity's key
    identity_words: str | None = None
    weights_file: str | None = None  # the one file of a pinned Hub revision a row names, where it names one
    numeric_setting: str | None = None  # dtype, device, attention kernel, batch size, as the runs record them
    setting_fields: Mapping[str, SettingValue] = field(default_factory=dict)
    headline_items: tuple[tuple[str, ...], NDArray[np.float64]] | None = None
    # each unit's source, aligned with headline_items (HeadlineItems.clusters): intervals cluster by it (stats.py)
    headline_clusters: tuple[str, ...] | None = None
    answers: Mapping[int | None, RunAnswers] = field(default_factory=dict)
    correct: NDArray[np.bool_] | None = None  # the first run's items answered right (aligned with its answers)
    views: tuple[str, ...] = ()  # the answers view's file of each run that has one
    verdict: str | None = None  # the benchmark's own verdict (a paper's row: the paper's, in its words)
    verdict_value: str | None = None  # that verdict alone, where the display orders a board by it
    verdict_en: str | None = None  # a paper's verdict in English, where the paper is not (shown beside the quote)
    ignored: IgnoredNegation | None = None  # its first run's M_i pairs answered alike (marks.py)
    verdict_source: str | None = None
    not_rankable: str | None = None  # why a row cannot be ranked whatever the rules say (its runs repeat a seed)
    rule: str | None = None  # a rule row's rule, in words
    reference_for: str | None = None  # a rule row computed on one row's own items: that row's id
    # the submitter's own headline and interval, where NegHub's re-run replaced the row's figures (a claim, shown)
    submitted_headline: float | None = None
    submitted_headline_ci: tuple[float, float] | None = None

    @property
    def headline(self) -> float | None:
        return self.metrics.get(get_benchmark(self.task).display.headline.path)

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

    @property
    def trusted(self) -> bool:
        """NegHub ran it: the maintainers' run, or NegHub's re-run of the pinned weights whose answers the build
        scored (the row's figures are NegHub's). Only such a row is ranked."""
        return self.maintainers_run or (self.record is not None and self.record.accepted and self.record.rerun)


@dataclass(frozen=True, eq=False)
class Row(RowFacts):
    """A row as the site shows it: its facts and the verdict the leaderboard file holds for it."""

    entry: RowEntry | None = None

    @property
    def verdict_entry(self) -> RowEntry:
        if self.entry is None:
            raise ValueError(f"{self.id}: a row without a verdict")
        return self.entry

    @property
    def status(self) -> str:
        return self.verdict_entry.status

    @property
    def rank_range(self) -> tuple[int, int] | None:
        rank = self.verdict_entry.rank
        return None if rank is None else (rank[0], rank[1])

    @property
    def rank(self) -> int | None:
        rank = self.verdict_entry.rank
        return None if rank is None else rank[0]

    @property
    def holds(self) -> list[str]:
        return [hold.reason for hold in self.verdict_entry.holds]

    @property
    def hold_kinds(self) -> list[str]:
        return [hold.kind for hold in self.verdict_entry.holds]

    @property
    def cleared(self) -> list[str]:
        return list(self.verdict_entry.cleared)

    @property
    def unranked(self) -> str | None:
        return self.verdict_entry.why

    @property
    def trust(self) -> str:
        return self.verdict_entry.trust

    @property
    def reproduction(self) -> str | None:
        return self.verdict_entry.reproduction

    @property
    def floor_comparison(self) -> str | None:
        return self.verdict_entry.floor

    @property
    def also_submitted_by(self) -> list[str]:
        return list(self.verdict_entry.also_submitted_by)

    @property
    def duplicate_of(self) -> str | None:
        return self.verdict_entry.duplicate_of

    @property
    def marks(self) -> list[str]:
        return list(self.verdict_entry.marks)

    @property
    def tags(self) -> list[str]:
        return list(self.verdict_entry.tags)


def joined(facts: RowFacts, entry: RowEntry) -> Row:
    """The site's row: `facts` with `entry`, its verdict as the leaderboard file holds it."""
    values = {name: getattr(facts, name) for name in facts.__dataclass_fields__}
    return Row(**values, entry=entry)
