"""What a pull request adds or changes, for the pull-request workflow (submission.yml); nothing in it is run.

`python -m neghub.leaderboard.pull_request HEAD_SUBMISSIONS BASE_SUBMISSIONS` prints the folders of HEAD
(the pull request's `submissions/`) that are new or differ from BASE (the base branch's), one per line.
Folders are compared byte for byte.

`python -m neghub.leaderboard.pull_request trust EVENT_JSON HEAD_ROOT BASE_ROOT` refuses a pull request that
adds, changes or removes a reproduction record (reproductions/*.json) unless the gpu-reproduce workflow opened
it: its head is a branch of the base repository (not a fork), its author is the workflow's account
($REPRODUCTION_BOT, github-actions[bot] by default) and it changes that one record and nothing else. A record
makes a row "reproduced" and clears its holds (leaderboard/verdicts.py): a file a pull request could write by
hand must not do that. One line per problem, exit code 2.
"""

from __future__ import annotations

import filecmp
import json
import os
import sys
from pathlib import Path
from typing import Any

REPRODUCTIONS = "reproductions"
DEFAULT_BOT = (
    "github-actions[bot]"  # the account of the GITHUB_TOKEN that gpu-reproduce.yml opens its pull request with
)


def changed_ids(head: Path, base: Path) -> list[str]:
    """Submission ids whose folder is new in HEAD or differs from BASE."""
    ids = []
    for folder in (
        sorted(p for p in head.iterdir() if p.is_dir() and not p.name.startswith(".")) if head.is_dir() else []
    ):
        other = base / folder.name
        if not other.is_dir() or _differs(folder, other):
            ids.append(folder.name)
    return ids


def _differs(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return True
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return bool(mismatch or errors) or any(_differs(a / d, b / d) for d in cmp.common_dirs)


def changed_records(head_root: Path, base_root: Path) -> list[str]:
    """reproductions/<file> paths that the pull request (HEAD_ROOT) adds, changes or removes against BASE_ROOT."""
    head, base = head_root / REPRODUCTIONS, base_root / REPRODUCTIONS
    names = {p.name for folder in (head, base) if folder.is_dir() for p in folder.iterdir()}
    changed = []
    for name in sorted(names):
        mine, theirs = head / name, base / name
        added_or_removed = mine.exists() != theirs.exists() or mine.is_dir() or theirs.is_dir()
        if added_or_removed or not filecmp.cmp(mine, theirs, shallow=False):
            changed.append(f"{REPRODUCTIONS}/{name}")
    return changed


def trust_problems(event: dict[str, Any], records: list[str], bot: str = DEFAULT_BOT) -> list[str]:
    """Why a pull request may not change these reproduction records (none: it may, or it changes none)."""
    if not records:
        return []
    pull = event.get("pull_request") or {}
    head_repo = ((pull.get("head") or {}).get("repo") or {}).get("full_name")
    base_repo = ((pull.get("base") or {}).get("repo") or {}).get("full_name")
    author = (pull.get("user") or {}).get("login")
    changed_files = pull.get("changed_files")
    shown = ", ".join(records)
    problems = []
    if head_repo is None or head_repo != base_repo:
        problems.append(
            f"{shown}: a reproduction record comes only from a branch of {base_repo} that the gpu-reproduce workflow "
            f"pushed; this pull request comes from {head_repo or 'a deleted repository'}"
        )
    if author != bot:
        problems.append(
            f"{shown}: a reproduction record comes only from the gpu-reproduce workflow's account ({bot}); this pull "
            f"request is {author or 'an unknown author'}'s. Ask a maintainer to run gpu-reproduce (README, "
            "'Reproducing a submission')"
        )
    if len(records) != 1 or changed_files != 1:
        files = "an unknown number of" if changed_files is None else changed_files
        problems.append(
            f"{shown}: a pull request that changes a reproduction record changes that one record alone (this one "
            f"changes {len(records)} record(s) and {files} file(s) in all)"
        )
    return problems


def main(argv: list[str]) -> int:
    if argv[:1] == ["trust"]:
        if len(argv) != 4:
            print(
                "usage: python -m neghub.leaderboard.pull_request trust EVENT_JSON HEAD_ROOT BASE_ROOT", file=sys.stderr
            )
            return 2
        event = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
        problems = trust_problems(
            event, changed_records(Path(argv[2]), Path(argv[3])), os.environ.get("REPRODUCTION_BOT") or DEFAULT_BOT
        )
        for problem in problems:
            print(problem, file=sys.stderr)
        return 2 if problems else 0
    if len(argv) != 2:
        print("usage: python -m neghub.leaderboard.pull_request HEAD_SUBMISSIONS BASE_SUBMISSIONS", file=sys.stderr)
        return 2
    head = Path(argv[0])
    for sid in changed_ids(head, Path(argv[1])):
        print(head / sid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
