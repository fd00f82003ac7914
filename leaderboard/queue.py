"""NegHub's reproduction queue (Contract Q): which submitted rows NegHub re-runs, in what order, and why a row waits.

Only a row NegHub ran is ranked (verdicts.py), so the queue decides whose claim becomes a figure. No account can
flood it or jump it:
- one entry per pinned model and numeric setting: a second submission of the same weights in the same setting
  waits on the first's entry (the re-run answers for the weights, whoever submitted them);
- only runs that could rank: the benchmark's primary board (its evaluation split and protocol), and the same
  protocol at the few-shot counts of `QUEUED_SHOTS`; a run on any other board is listed, never queued;
- closed weights never queue: NegHub cannot run them;
- round robin over accounts, first in first out within one (by landing order on main): an account's tenth
  submission waits behind every other account's first; a pin two accounts submitted takes the earlier of their
  two turns, so landing another account's pin first does not move its entry back;
- a submitter's own figure never sets the order (nothing here reads a headline).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .board_file import QueueEntry
from .boards import Board, primary_board
from .decision import pin_words
from .facts import RowFacts
from .row_figures import account_key, account_words, landing_order, on_evaluation_split

# the few-shot counts NegHub re-runs beside a primary board's own: the common few-shot settings of the papers and
# of lm-eval; every other count is listed only, so that one submission cannot claim GPU hours for each count
QUEUED_SHOTS = (1, 3, 5)
CLOSED_WEIGHTS = "closed weights: NegHub cannot check this"


@dataclass(frozen=True)
class Queue:
    """The queue's entries, and for each submitted row NegHub has not run why it is not ranked (its position)."""

    entries: list[QueueEntry]
    why: dict[str, str]  # row id -> "submitted, not run by NegHub yet: queue position N", or why it is not queued
    position: dict[str, int]  # row id -> its entry's position


def queueable(board: Board) -> bool:
    """Whether a run on `board` could rank: the primary board, or its protocol at one of QUEUED_SHOTS."""
    primary = primary_board(board.task)
    if primary is None:
        return False
    return board == primary or (
        board.shots in QUEUED_SHOTS and dataclasses.replace(board, shots=primary.shots) == primary
    )


def rerun_runs(rows: Sequence[RowFacts]) -> dict[str, list[str]]:
    """Submission id -> the prediction files NegHub's re-run of it runs: every run of its rows on the benchmark's
    evaluation split, on any board (`neghub reproduce` re-runs a whole submission, not the boards that queued it)."""
    files: dict[str, set[str]] = {}
    for row in rows:
        if row.submission_id is not None and on_evaluation_split(row):
            files.setdefault(row.submission_id, set()).update(str(p["file"]) for p in row.provenance)
    return {submission: sorted(found) for submission, found in files.items()}


def build_queue(rows: Sequence[RowFacts], submitted: Sequence[RowFacts] = ()) -> Queue:
    """The queue of `rows` (the shown verified rows NegHub has not run), in landing order within each account; each
    entry's runs are those the re-run of its submission runs, read from its rows among `submitted` (every verified
    row) and `rows`."""
    rerun = rerun_runs([*submitted, *rows])
    why: dict[str, str] = {}
    groups: dict[tuple[str, str], list[RowFacts]] = {}
    for row in sorted(rows, key=landing_order):
        if row.open_weights is False:
            why[row.id] = CLOSED_WEIGHTS
        elif row.identity is None:
            why[row.id] = "submitted, not run by NegHub: it pins no weights NegHub could run"
        elif not queueable(row.key):
            shots = ", ".join(str(s) for s in QUEUED_SHOTS)
            why[row.id] = (
                "submitted, not run by NegHub: NegHub re-runs the primary board's protocol (and its "
                f"{shots}-shot settings) only"
            )
        else:
            groups.setdefault((row.identity, row.numeric_setting or ""), []).append(row)
    # an entry is in the turns of every account that submitted its pin and setting, each in that account's own
    # landing order, and takes the first of those turns: an account that lands another's pin before it cannot move
    # that account's entry to its own place in the round
    by_account: dict[str, list[list[RowFacts]]] = {}
    for members in groups.values():
        for key in dict.fromkeys(account_key(r) for r in members):
            by_account.setdefault(key, []).append(members)

    def own_first(key: str, members: list[RowFacts]) -> RowFacts:
        return next(r for r in members if account_key(r) == key)

    for key, turns in by_account.items():
        turns.sort(key=lambda members: landing_order(own_first(key, members)))
    accounts = sorted(by_account, key=lambda key: landing_order(own_first(key, by_account[key][0])))
    order: list[tuple[RowFacts, list[RowFacts]]] = []
    placed: set[int] = set()
    cursor = dict.fromkeys(accounts, 0)
    while len(order) < len(groups):
        for key in accounts:
            turns = by_account[key]
            while cursor[key] < len(turns) and id(turns[cursor[key]]) in placed:
                cursor[key] += 1
            if cursor[key] < len(turns):
                members = turns[cursor[key]]
                placed.add(id(members))
                order.append((own_first(key, members), members))
    entries: list[QueueEntry] = []
    position: dict[str, int] = {}
    for place, (first, members) in enumerate(order, start=1):
        own = [r for r in members if r.submission_id == first.submission_id]
        entries.append(
            QueueEntry(
                position=place,
                account=account_words(first),
                submission=first.submission_id or first.id,
                pin=pin_words(first) or first.identity or "",
                setting=first.numeric_setting or "not recorded",
                runs=rerun.get(first.submission_id or "", []),
                boards=[r.key.slug for r in own],
                why="a submitted open-weights model NegHub has not run, on a board it could rank on",
            )
        )
        for row in members:
            position[row.id] = place
            why[row.id] = f"submitted, not run by NegHub yet: queue position {place}"
    return Queue(entries, why, position)
