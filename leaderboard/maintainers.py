"""What the maintainers work from (the "Maintainers" page): every held row with all its holds, what lifts each, its
board's slug and the exact clearances.yaml entry to paste; the reproduction queue in order with an estimate of its
cost; the clearances that name a board, a hold or a submission that does not exist; and what the deployment lacks.

Everything here is read from the leaderboard file the build decided (board_file.LeaderboardFile: its rows' holds,
and its `queue` where the build writes one, Contract Q) and from clearances.yaml; nothing is decided again.
The estimate of a re-run's cost is a measurement's, stated as such: SmolLM2-135M on 2 CPU cores took 0.35 to 0.64 s
per item (README, "Running a model": the difference of two trial runs, machine load 1.6 to 3.4); a re-run costs
what its run cost, in the same setting, and an 8B model on the GPU runner was not measured.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .board_file import LeaderboardFile, RowEntry
from .decision import SUBMISSION_WIDE_HOLDS
from .verdicts import rule_for

# README's measured rates (SmolLM2-135M, CPU, 2 cores): the fastest and slowest per item of the benchmarks timed
SECONDS_PER_ITEM = (0.35, 0.64)
RATE_SOURCE = "SmolLM2-135M on 2 CPU cores, 0.35–0.64 s per item (README's measured rates)"


@dataclass
class Held:
    """One submission's held rows, each with every hold it has, and the entry that clears those a review lifts."""

    submission: str
    model: str
    account: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    entry: str = ""


def _lifts(kind: str) -> str:
    try:
        lifted = rule_for(kind).lifted_by
    except KeyError:
        return "not stated"
    return " or ".join(lifted) if lifted else "nothing"


def held_submissions(board: LeaderboardFile) -> list[Held]:
    """Every held row of the file, grouped by submission in the file's order, each row with all its holds (kind,
    reason, what lifts it), and the clearances.yaml entry lifting the holds a maintainer's review lifts."""
    found: dict[str, Held] = {}
    # a held row waits for a maintainer's review; where its submission also waits in NegHub's queue, its place
    positions = {entry.submission: entry.position for entry in board.queue}
    for row in board.rows:
        if not row.holds or row.submission is None:
            continue
        held = found.setdefault(row.submission, Held(row.submission, row.model, row.account or "not on record"))
        held.rows.append(
            {
                "board": row.board,
                "row": row.row,
                "holds": [{"kind": h.kind, "reason": h.reason, "lifted_by": _lifts(h.kind)} for h in row.holds],
                "queued": positions.get(row.submission),
            }
        )
    for held in found.values():
        held.entry = clearance_entry(held.submission, [h for r in held.rows for h in r["holds"]], held.rows)
    return list(found.values())


def clearance_entry(submission: str, holds: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The clearances.yaml entry (under `clearances:`) lifting every hold of these rows that a review lifts, on their
    boards; `by`, `date` and `why` for the maintainer to fill."""
    kinds = sorted({h["kind"] for h in holds if "a maintainer's review" in h["lifted_by"]})
    if not kinds:
        return ""
    boards = sorted({r["board"] for r in rows if any(h["kind"] in kinds for h in r["holds"])})
    entry: dict[str, Any] = {"submission": submission, "holds": kinds}
    if any(kind not in SUBMISSION_WIDE_HOLDS for kind in kinds):
        entry["boards"] = boards
    entry.update({"by": "YOUR-GITHUB-LOGIN", "date": "YYYY-MM-DD", "why": "what you reviewed, in a sentence"})
    text = yaml.safe_dump([entry], sort_keys=False, allow_unicode=True, width=1000, default_flow_style=None)
    text = text.replace("date: YYYY-MM-DD", 'date: "YYYY-MM-DD"')  # quoted: YAML reads a bare date as a date
    # quoted: a sentence written over the placeholder as it stands may hold ": ", which bare YAML reads as a mapping
    text = text.replace("why: what you reviewed, in a sentence", 'why: "what you reviewed, in a sentence"')
    return "".join(f"  {line}\n" for line in text.splitlines())


def _lines(path: Path) -> int:
    """The lines of a text file that hold more than blanks (its lines as universal-newline mode reads them): without
    a Python step per line where every line ends in \n alone (the queue reads every queued prediction file: a
    million lines at 1,000 submissions)."""
    text = path.read_text(encoding="utf-8")
    if "\r" not in text:
        return sum(map(bool, map(str.strip, text.split("\n"))))
    with open(path, encoding="utf-8") as handle:
        return sum(1 for line in handle if line.strip())


def queue_entries(board: LeaderboardFile, submissions_dir: Path | None) -> list[dict[str, Any]]:
    """The reproduction queue (the file's `queue`, Contract Q) in order, each entry with its items (the lines of the
    prediction files it re-runs, where this build can read them) and an estimate of its cost."""
    out = []
    for entry in getattr(board, "queue", None) or []:
        items = 0
        readable = submissions_dir is not None
        for run in entry.runs:
            path = submissions_dir / entry.submission / run if submissions_dir is not None else None
            if path is None or not path.is_file():
                readable = False
                continue
            items += _lines(path)
        low, high = (items * rate / 60 for rate in SECONDS_PER_ITEM)
        out.append(
            {
                "position": entry.position,
                "account": entry.account,
                "submission": entry.submission,
                "pin": entry.pin,
                "setting": entry.setting,
                "runs": list(entry.runs),
                "boards": list(entry.boards),
                "why": entry.why,
                "item_count": items if readable else None,
                "minutes": (round(low), round(high)) if readable else None,
            }
        )
    return out


def nearest(name: str, names: list[str]) -> str:
    """ "; did you mean X?" for the existing name nearest to `name` (difflib), or "" where none is near."""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def clearance_name_problems(path: Path, board: LeaderboardFile, submissions: list[str]) -> list[str]:
    """Each clearance of `path` that names a submission, a board or a hold that does not exist (it lifts nothing),
    with the nearest existing name; reported by the build, not fatal (the pull-request check refuses them:
    `entry_name_problems` of the entries a pull request adds)."""
    if not path.is_file():
        return []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []  # the build's own reading of the file reports it
    entries = data.get("clearances") if isinstance(data, dict) else None
    listed = [e for e in (entries if isinstance(entries, list) else []) if isinstance(e, dict)]
    return entry_name_problems(listed, board, submissions, f"{path.name}: clearance {{number}}")


def entry_name_problems(
    entries: list[dict[str, Any]], board: LeaderboardFile, submissions: list[str], where: str
) -> list[str]:
    """Each of `entries` that names a submission or a board that does not exist, with the nearest existing name;
    `where` names an entry ({number}: its place among `entries`, from 1)."""
    boards = sorted({b.board for b in board.boards})
    by_submission: dict[str, set[str]] = {}
    for row in board.rows:
        if row.submission is not None:
            by_submission.setdefault(row.submission, set()).add(row.board)
    problems = []
    for number, entry in enumerate(entries, 1):
        sid = str(entry.get("submission"))
        named = f"{where.format(number=number)} ({sid})"
        if sid not in submissions:
            problems.append(f"{named}: no submission {sid!r}{nearest(sid, submissions)}")
            continue
        for slug in entry.get("boards") or []:
            if str(slug) not in by_submission.get(sid, set()):
                known = sorted(by_submission.get(sid, set())) or boards
                problems.append(f"{named}: no row of {sid} on a board {slug!r}{nearest(str(slug), known)}")
    return problems


def held_words(row: RowEntry) -> str:
    return "; ".join(f"{h.kind} ({_lifts(h.kind)})" for h in row.holds)


def clearance_lifts(entries: list[dict[str, Any]], board: LeaderboardFile) -> list[str]:
    """What each clearance entry a pull request adds or changes lifts, row by row, on the leaderboard as it stands
    (`board`: the base branch's): each row of its submission on a board it names (every board, for a hold of the
    whole submission) with the holds the entry lifts there and those it leaves; an entry that meets no row says so."""
    lines = []
    for entry in entries:
        sid = str(entry.get("submission"))
        kinds = {str(kind) for kind in entry.get("holds") or []}
        boards = {str(slug) for slug in entry.get("boards") or []}
        wide = kinds & set(SUBMISSION_WIDE_HOLDS)
        met = False
        for row in board.rows:
            if row.submission != sid or not row.holds:
                continue
            named = kinds if row.board in boards else wide
            lifted = [h.kind for h in row.holds if h.kind in named]
            left = [h.kind for h in row.holds if h.kind not in named]
            if not lifted:
                continue
            met = True
            rest = f"; still held: {', '.join(left)}" if left else "; no hold left"
            lines.append(f"`{sid}` on `{row.board}`: lifts {', '.join(lifted)}{rest}")
        if not met:
            lines.append(f"`{sid}`: lifts nothing: no row of it on the boards named holds {', '.join(sorted(kinds))}")
    return lines


def clearance_summary(head_root: Path, event: dict[str, Any], current: LeaderboardFile | None) -> str:
    """The summary's section for a pull request that changes clearances.yaml: each entry it adds or changes (against
    the file where its branch forked), and what it lifts, row by row."""
    from .pull_request import CLEARANCES, _at_fork, _entries, _entries_text

    mine = _entries(head_root / CLEARANCES)
    before = _entries_text(_at_fork(head_root, event, CLEARANCES))
    new = [entry for entry in mine if entry not in before and "submission" in entry]
    if not new:
        return ""
    lines = ["", "### What the clearances lift", ""]
    if current is None:
        return "\n".join([*lines, "The leaderboard of the base branch could not be built here."]) + "\n"
    lines += [f"- {line}" for line in clearance_lifts(new, current)]
    return "\n".join(lines) + "\n"
