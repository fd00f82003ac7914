"""The leaderboard file: every row's verdict, every board and every leader, as one versioned JSON document.

`verdicts.decide` returns it; the site's pages, the downloads and the pull-request summary read it, and nothing
else decides a verdict. The site publishes it as `data/leaderboard.json`; its schema is published as
`schemas/leaderboard.schema.json` (`python -m neghub.leaderboard.board_file --schema`, run by `nox -s schemas`, writes
it with the other site files' schemas). Its `version` is the data contract's (contract.py): one version for every
file the site publishes.
A row's figures beyond its headline are in the board's downloads; this file holds what the rules decided, with the
evidence each decision printed.
"""

from __future__ import annotations

import sys
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .contract import DATA_CONTRACT_VERSION

LEADERBOARD_FILE_VERSION: Literal[2] = DATA_CONTRACT_VERSION
_CLOSED = ConfigDict(extra="forbid", frozen=True)

HoldKind = Literal["near-copy", "above-published-best", "custom-prompt", "name-of-another"]
# listed: submitted, not run by NegHub: shown unnumbered with its own figure, never ranked, never a leader or a best
Status = Literal["ranked", "unranked", "held", "listed", "reference", "reported", "duplicate"]
# reported: printed in a paper; re-scored: NegHub re-scored the submitted predictions (a claim: listed, never
# ranked); reproduced: NegHub re-ran the pinned weights and scored its own answers (the row's figures are NegHub's);
# neghub-run: the maintainers ran it (pushed to main, or their gpu-eval workflow); rule: a baseline NegHub computed
Trust = Literal["reported", "re-scored", "reproduced", "neghub-run", "rule"]


class HoldEntry(BaseModel):
    """Why a row is held (shown, never ranked, never the leader), in words with its evidence."""

    model_config = _CLOSED
    kind: HoldKind
    reason: str


class RowEntry(BaseModel):
    """One row's verdict, with the facts a reader needs to know which row it is."""

    model_config = _CLOSED
    row: str = Field(description="the row's id in this file")
    kind: Literal["verified", "reference", "reported"] = Field(
        description="verified: a submission re-scored by NegHub; reference: a baseline NegHub computed; reported: a "
        "paper's row"
    )
    task: str
    board: str = Field(description="the slug of the board it is on")
    model: str = Field(description="the model's name as its submitter or paper gives it (a claim)")
    pin: str | None = Field(
        default=None,
        description="the pinned model (a Hub repo's namespace/name, or the identity in words), shown in the model "
        "cell where another row's name reads like this one's on another pin",
    )
    submission: str | None = None
    account: str | None = Field(default=None, description="who landed it, as GitHub recorded it")
    landing: int | None = Field(
        default=None, description="its position on main's first-parent history (None: no record)"
    )
    trust: Trust
    status: Status
    headline: float | None = None
    headline_ci: tuple[float, float] | None = None
    rank: tuple[int, int] | None = Field(
        default=None, description="the rank range of a ranked row (only a row NegHub ran is ranked)"
    )
    submitted_headline: float | None = Field(
        default=None,
        description="the submitter's own headline, where the row's headline is NegHub's re-run of it (a claim)",
    )
    holds: list[HoldEntry] = Field(default_factory=list)
    cleared: list[str] = Field(default_factory=list, description="holds lifted, each with by whom and why")
    why: str | None = Field(default=None, description="why it is not ranked")
    fails: list[str] = Field(
        default_factory=list, description="every ranking condition (rule kind) it fails, whether or not it ranks"
    )
    floor: str | None = Field(default=None, description="a ranked row's comparison with its board's best baseline")
    reproduction: str | None = Field(default=None, description="what NegHub's reproduction found, in words")
    queue_position: int | None = Field(
        default=None, description="its place in NegHub's reproduction queue (LeaderboardFile.queue), where it waits"
    )
    also_submitted_by: list[str] = Field(
        default_factory=list, description="other accounts whose rows of the same model gave the same answers"
    )
    credited: list[str] = Field(
        default_factory=list,
        description="every account that submitted this model's same answers, alphabetically (a row shown once)",
    )
    duplicate_of: str | None = Field(default=None, description="the row this one repeats (status duplicate)")
    marks: list[str] = Field(default_factory=list, description="what a reader should know of the row, in words")
    mark_kinds: list[str] = Field(
        default_factory=list, description="the rules that marked it (verdicts.rule_for(kind)): disputed, names-alike..."
    )
    tags: list[str] = Field(default_factory=list, description="the same in a few words each, for a table's rank column")
    verdict: str | None = Field(default=None, description="the benchmark's own verdict of the row, with its reason")


class BoardEntry(BaseModel):
    """One board: rows scored on the same data and protocol, in table order."""

    model_config = _CLOSED
    board: str = Field(description="its slug")
    task: str
    title: str
    primary: bool = Field(description="the board the benchmark names its leader on (its display block declares it)")
    rows: list[str] = Field(description="its rows' ids, in table order (duplicates left out)")
    floor: str | None = Field(
        default=None, description="the id of its best baseline (the score a ranked row must beat)"
    )


class LeaderEntry(BaseModel):
    """Who leads a benchmark, or what is true instead, with the evidence."""

    model_config = _CLOSED
    task: str
    board: str | None = None
    row: str | None = None
    runner_up: str | None = None
    margin: float | None = None
    margin_ci: tuple[float, float] | None = None
    text: str
    short: str
    context: str | None = None


class RuleEntry(BaseModel):
    """One rule of the build, as verdicts.RULES declares it, in the order the verdicts apply them: what a hold kind or
    a mark kind of a row means, in a table's phrase and in full."""

    model_config = _CLOSED
    kind: str = Field(description="the hold kind, mark kind or ranking condition (RowEntry.holds[i].kind, mark_kinds)")
    gives: Literal["not ranked", "hold", "mark", "shown once", "rank", "leader"]
    lifted_by: list[str] = Field(default_factory=list, description="what lifts it; empty: nothing")
    phrase: str = Field(description="at most 12 words, for a table's cell")
    sentence: str = Field(description="the full sentence, as it reads for any row")


class QueueEntry(BaseModel):
    """One place in NegHub's reproduction queue (leaderboard/queue.py): a pinned model in one numeric setting, the
    submission whose runs NegHub re-runs for it. Round robin over accounts, first in first out within one."""

    model_config = _CLOSED
    position: int = Field(ge=1, description="1-based, in queue order")
    account: str = Field(description="the account whose submission it is, in words (@alice)")
    submission: str
    pin: str = Field(description="the pinned model, in words")
    setting: str = Field(description="the numeric setting the submission records, in words")
    runs: list[str] = Field(description="the prediction files to re-run (metadata.yaml's paths)")
    boards: list[str] = Field(description="the slugs of the boards its runs could rank on")
    why: str = Field(description="why it is queued, in one phrase")


class HistoryEntry(BaseModel):
    """Whether landing order and accounts come from GitHub's record, and if not why."""

    model_config = _CLOSED
    recorded: bool
    words: str


class LeaderboardFile(BaseModel):
    """Every verdict of one build of the leaderboard."""

    model_config = _CLOSED
    version: Literal[2] = Field(
        default=LEADERBOARD_FILE_VERSION, description="the data contract's version (schemas/data-contract.json)"
    )
    rules_version: str
    rules: list[RuleEntry] = Field(default_factory=list, description="the rules in force, in the order applied")
    history: HistoryEntry
    boards: list[BoardEntry]
    rows: list[RowEntry]
    leaders: list[LeaderEntry]
    queue: list[QueueEntry] = Field(
        default_factory=list, description="NegHub's reproduction queue, in order (Contract Q)"
    )

    def entries(self) -> dict[str, RowEntry]:
        return {entry.row: entry for entry in self.rows}


SCHEMA_FILE = "leaderboard.schema.json"


def schema_text() -> str:
    """The published schema of the leaderboard file, as `schemas/leaderboard.schema.json` holds it (its `$id` under
    the data contract's version)."""
    from .contract import schema_text as text
    from .contract import site_schemas

    return text(site_schemas()[SCHEMA_FILE])


def main(argv: list[str]) -> int:
    """`--schema DIR [--check]`: write into DIR (or, with --check, compare) the schemas of every site file."""
    from .contract import main as contract_main

    if len(argv) not in (2, 3) or argv[0] != "--schema":
        print("usage: python -m neghub.leaderboard.board_file --schema DIR [--check]", file=sys.stderr)
        return 2
    return contract_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
