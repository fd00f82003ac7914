"""Which submissions a pull request adds or changes: the pull-request workflow checks only those.

`python -m neghub.leaderboard.pull_request HEAD_SUBMISSIONS BASE_SUBMISSIONS` prints the folders of HEAD
(the pull request's `submissions/`) that are new or differ from BASE (the base branch's), one per line.
Folders are compared byte for byte; nothing in them is run.
"""

from __future__ import annotations

import filecmp
import sys
from pathlib import Path


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


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m neghub.leaderboard.pull_request HEAD_SUBMISSIONS BASE_SUBMISSIONS", file=sys.stderr)
        return 2
    head = Path(argv[0])
    for sid in changed_ids(head, Path(argv[1])):
        print(head / sid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
