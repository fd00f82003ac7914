"""Markdown summary of a pull request's submissions, for the job summary (run by `nox -s submission_summary`).

Usage: submission_summary.py HEAD_SUBMISSIONS BASE_SUBMISSIONS [-o FILE]

Both folders are re-scored with the pinned data (scores are never read from a submission). For
every row of a submission that is new or changed in HEAD, the table shows its headline score, the best
ranked score of the same board in BASE (the current leaderboard), the difference, and the verdict the
leaderboard would give it once merged (leaderboard/verdicts.py, with the paper rows and the reproduction
records of BASE): ranked with its rank range, or held / not ranked with the reason. Cells are escaped:
model names come from the pull request and are untrusted text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from neghub.leaderboard.collect import Row, collect
from neghub.leaderboard.history import landing_dates
from neghub.leaderboard.pull_request import changed_ids
from neghub.leaderboard.verdicts import headline


def cell(text: object, limit: int = 120) -> str:
    """Untrusted text as an inert Markdown table cell."""
    return re.sub(r"[\\`*_{}\[\]<>()#+!|~-]", lambda m: "\\" + m.group(0), str(text).replace("\n", " "))[:limit]


def number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def verdict(row: Row) -> str:
    """What the leaderboard would say of a row (verdicts.py): its rank range, or why it is not ranked."""
    if row.status == "ranked" and row.rank_range is not None:
        low, high = row.rank_range
        return f"ranked {low}" if low == high else f"ranked {low}-{high}"
    if row.status == "confirmation" and row.confirms is not None:
        return f"confirms {row.confirms.submission_id}"
    return f"{row.status}: {row.unranked or ''}".rstrip(": ")


def summary(head: Path, base: Path) -> str:
    ids = changed_ids(head, base)
    if not ids:
        return "## NegHub submissions\n\nNo submission is new or changed.\n"
    # the trust records and clearances are the base branch's: a pull request's own cannot vouch for it
    records = base.resolve().parent / "reproductions"
    # rows in the order they will have landed once merged: BASE's as BASE's history has them, the pull request's
    # new ones after all of them (HEAD's shallow checkout adds every submission in one commit, so its own history
    # would order a copy named to sort first before the row it copies)
    landed = landing_dates(base) if base.is_dir() else {}
    head_board = collect(
        head,
        reported=True,
        reproductions_dir=records,
        clearances_file=base.resolve().parent / "clearances.yaml",
        landed=landed,
    )
    base_board = collect(base, reported=False, reproductions_dir=records) if base.is_dir() else None
    best: dict[object, float] = {}
    for row in base_board.rows if base_board else []:
        score = headline(row)
        if row.status == "ranked" and score is not None and row.submission_id not in ids:
            best[row.key] = max(score, best.get(row.key, score))
    lines = [
        "## NegHub submissions",
        "",
        "| submission | model | task | setting | runs | headline | best ranked on the leaderboard | difference "
        "| verdict once merged |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    rows: list[Row] = [r for r in head_board.rows if r.submission_id in ids]
    for row in sorted(rows, key=lambda r: (r.submission_id or "", r.task, r.key.slug)):
        score = headline(row)
        top = best.get(row.key)
        diff = None if score is None or top is None else score - top
        lines.append(
            f"| {cell(row.submission_id)} | {cell(row.model)} | {row.task} | {cell(row.key.label)} | {row.n_runs} "
            f"| {number(score)} | {number(top)} | {'n/a' if diff is None else f'{diff:+.4f}'} "
            f"| {cell(verdict(row), 400)} |"
        )
    refused = [n for n in head_board.notes if n.submission in ids]
    for note in refused:
        lines.append("")
        lines.append(f"**{cell(note.submission)}** {note.level}: " + "; ".join(cell(m) for m in note.messages[:10]))
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "-o"):
        print(__doc__, file=sys.stderr)
        return 2
    text = summary(Path(argv[0]), Path(argv[1]))
    if len(argv) == 4:
        with open(argv[3], "a", encoding="utf-8") as handle:  # $GITHUB_STEP_SUMMARY is appended to
            handle.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
