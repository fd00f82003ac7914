"""What GitHub recorded of each landing on main: its position, whether a pull request landed it, what it changed.

A verdict may rest on a landing because nobody who opens a pull request can write one: the position of a commit on
`git log --first-parent` of main, and the merge commit GitHub writes when it merges a pull request: two parents and
the subject `Merge pull request #N from OWNER/BRANCH` (the repository allows merge commits only: README,
"Repository settings"). Any other commit on main's first-parent history was pushed there by someone allowed to push
to main, the maintainers, whatever its subject says: a single-parent commit whose subject ends "(#7)", as a squash
merge's would, is a push (the row says "pushed", never "merge commit"). Dates are never read (a commit's date is
whatever its author typed), nor the author or committer.

A submission lands with the commit that added its folder, changed its prediction files or changed what its row
shows in `metadata.yaml` (the model's name, size and pin, the runs, the numeric setting, the prompts: the fields
`metadata_sha256` covers), a merge commit compared with its first parent; a change to the rest of `metadata.yaml`
(a description, a contact) keeps its landing. Its account is the one that added the folder (`added`): a
maintainer's later fix does not make a submitter's row the maintainers'. Any other file (a reproduction record,
clearances.yaml) lands with the last commit that changed it. A change is one of content: a commit that changes a
file's mode alone (its executable bit, which the pull-request check refuses anyway) moves no landing.

Where a pull request's branch forked from main (`Landing.forked_at`, which the copy rule reads to tell two pull
requests that were open at once): the first-parent position of the merge base of its merge commit's two parents,
counted as the first landing whose commit contains that base (a base on main's first-parent history is its own
position; a base on another pull request's branch is that pull request's landing). All landings' fork points come
from one `git rev-list --parents` of main. What git cannot show: when a branch was opened. A branch updated from
main (main merged into it, or rebased onto it) moves its merge base forward, so an honest pull request opened
before another landed, then updated, reads as forked after it; and anyone may branch from an old commit, so an early
fork point shows only that the branch holds no later state of main, never that it was open that early (nor what its
author had read: an open pull request's files are public).

Where the build has no record (no git repository, a shallow clone, an unpacked sdist), `History.recorded` is False
and says why: the leaderboard then orders rows by submission id and takes every row for another account's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

import yaml

# GitHub's subject for the merge commit of a pull request (squash and rebase merging are off: a single-parent
# commit is a push, whatever its subject)
MERGE_SUBJECT = re.compile(r"^Merge pull request #(?P<number>[0-9]+) from (?P<branch>\S+)$")
GIT_TIMEOUT = 120


@dataclass(frozen=True)
class Landing:
    """One commit of main's first-parent history, as far as the leaderboard reads it."""

    position: int  # 1 for main's first commit; a later landing has a larger one
    commit: str
    pull_request: int | None  # the pull request GitHub merged; None: pushed to main directly (the maintainers)
    branch: str | None  # OWNER/BRANCH as GitHub's merge commit names the merged branch (None: a push)
    paths: frozenset[str]  # every path the commit changed, from the repository's root
    date: str = ""  # the commit's committer date, UTC (shown; never ordered by: GitHub writes a merge's, not others')
    # a pull request's merge commit: the position where its branch forked from main (see the module docstring); None
    # for a push, or where git shows no common history
    forked_at: int | None = None

    @property
    def words(self) -> str:
        if self.pull_request is None:
            return f"pushed to main by the maintainers (commit {self.commit[:12]})"
        return f"pull request #{self.pull_request} (merge commit {self.commit[:12]})"


@dataclass(frozen=True)
class History:
    """Main's first-parent history, as it concerns the leaderboard's files."""

    recorded: bool
    why_not: str | None = None  # why nothing is on record
    landings: tuple[Landing, ...] = ()
    prefix: str = ""  # the submissions folder's path from the repository's root, with a trailing '/'
    submissions: Mapping[str, Landing] = field(default_factory=dict)  # submission id -> its landing
    added: Mapping[str, Landing] = field(default_factory=dict)  # submission id -> the landing that added its folder
    last_change: Mapping[str, Landing] = field(default_factory=dict)  # path from the root -> last landing changing it
    root: Path | None = None  # the repository's root on this machine (never published)

    def landing_of_file(self, path: Path) -> Landing | None:
        """The last landing that changed `path` (a file in the repository), or None."""
        if self.root is None:
            return None
        try:
            relative = path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None
        return self.last_change.get(relative)

    def file_at(self, landing: Landing, path: Path) -> bytes | None:
        """`path` as it was in `landing`'s commit (None where it did not exist)."""
        if self.root is None:
            return None
        relative = path.resolve().relative_to(self.root).as_posix()
        done = _git(self.root, "show", f"{landing.commit}:{relative}")
        return None if done is None or done.returncode != 0 else done.stdout


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, timeout=GIT_TIMEOUT, check=False, text=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def _output(root: Path, *args: str) -> str | None:
    done = _git(root, *args)
    if done is None or done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace")


def read_history(submissions: Path) -> History:
    """The history of the repository holding `submissions` (its HEAD's first-parent chain: main on GitHub's
    build, the base branch in a pull request's check)."""
    folder = submissions if submissions.is_dir() else submissions.parent
    top = _output(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return History(False, "this build has no git history (not a clone of the repository)")
    root = Path(top.strip()).resolve()
    if (_output(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true":
        return History(False, "this build's clone is shallow: main's history is cut off")
    try:
        prefix = submissions.resolve().relative_to(root).as_posix().rstrip("/") + "/"
    except ValueError:
        return History(False, "the submissions folder is outside the repository's history")
    log = _output(
        root,
        "log",
        "--first-parent",
        "--reverse",
        "--diff-merges=first-parent",
        "--no-renames",
        "--raw",
        "--no-abbrev",
        "--format=%x00%H%x00%P%x00%ct%x00%s",
        "HEAD",
    )
    if log is None:
        return History(False, "this build has no git history (no commit on HEAD)")
    parsed = _landings(log)
    forks = _fork_points(root, [(landing, parents) for landing, parents, _ in parsed])
    landings = [
        (dataclasses.replace(landing, forked_at=forks.get(landing.commit)), statuses) for landing, _, statuses in parsed
    ]
    submissions_landed: dict[str, Landing] = {}
    added_by: dict[str, Landing] = {}
    last_change: dict[str, Landing] = {}
    for landing, statuses in landings:
        for status, path, before, after in statuses:
            if status == "=":
                continue  # its mode alone changed: the same bytes
            last_change[path] = landing
            if not path.startswith(prefix):
                continue
            parts = PurePosixPath(path[len(prefix) :]).parts
            if len(parts) < 2:
                continue
            sid = parts[0]
            metadata = parts[1] == "metadata.yaml" and len(parts) == 2
            if metadata and status == "A":
                added_by[sid] = submissions_landed[sid] = landing
            elif parts[1] == "predictions" or (
                metadata and status == "M" and _shown(root, before) != _shown(root, after)
            ):
                submissions_landed[sid] = landing
    return History(
        True,
        None,
        tuple(landing for landing, _ in landings),
        prefix,
        submissions=submissions_landed,
        added=added_by,
        last_change=last_change,
        root=root,
    )


def _shown(root: Path, blob: str) -> str:
    done = _git(root, "cat-file", "blob", blob)
    return shown_of(b"" if done is None or done.returncode != 0 else done.stdout)


def shown_of(text: bytes) -> str:
    """What a row shows of a version of `metadata.yaml` (its `metadata_sha256`), or the sha256 of its bytes where
    that version does not read as metadata."""
    from pydantic import ValidationError

    from ..evaluator.submissions.format import Metadata
    from ..evaluator.submissions.reproduction import metadata_sha256

    try:
        return metadata_sha256(Metadata.model_validate(yaml.safe_load(text.decode("utf-8"))))
    except (UnicodeDecodeError, yaml.YAMLError, ValidationError, ValueError, TypeError, AttributeError):
        return hashlib.sha256(text).hexdigest()


def _fork_points(root: Path, landings: Sequence[tuple[Landing, Sequence[str]]]) -> dict[str, int]:
    """Each pull request's merge commit -> the position where its branch forked from main (the module docstring),
    from one `git rev-list --parents HEAD`: every commit is given the position of the first landing that contains it
    (`landed`); the fork point of merge commit k is the latest position among the commits where a walk from its
    second parent leaves the branch (the commits main held before k), which is the merge base's position."""
    listing = _output(root, "rev-list", "--parents", "HEAD")
    if listing is None:
        return {}
    parents_of: dict[str, list[str]] = {}
    for line in listing.splitlines():
        commit, *listed = line.split()
        parents_of[commit] = listed
    landed: dict[str, int] = {}
    forks: dict[str, int] = {}
    for landing, parents in landings:
        landed.setdefault(landing.commit, landing.position)
        # its first parent is the previous landing (or none): the walk starts from the others (a merge's branch)
        stack = list(parents[1:])
        fork: int | None = None
        while stack:
            commit = stack.pop()
            earlier = landed.get(commit)
            if earlier is not None:
                if earlier < landing.position:  # main held it before: where the branch leaves main's history
                    fork = earlier if fork is None else max(fork, earlier)
                continue
            landed[commit] = landing.position
            stack += parents_of.get(commit, [])
        if landing.pull_request is not None and fork is not None:
            forks[landing.commit] = fork
    return forks


def _landings(log: str) -> list[tuple[Landing, list[str], list[tuple[str, str, str, str]]]]:
    """Parse `git log --format=%x00%H%x00%P%x00%ct%x00%s --raw --no-abbrev`: each commit's parents, and each changed
    path with its status letter, or "=" where only its mode changed (the same blob before and after), and its blobs
    before and after."""
    out: list[tuple[Landing, list[str], list[tuple[str, str, str, str]]]] = []
    records = log.split("\x00")
    # records: "", H, P, T, "S\n\nstatus lines", H, P, T, ...
    index = 1
    while index + 3 < len(records):
        commit, parents, stamp, rest = (
            records[index],
            records[index + 1].split(),
            records[index + 2],
            records[index + 3],
        )
        index += 4
        subject, _, body = rest.partition("\n")
        statuses = []
        for line in body.splitlines():
            if line.startswith(":") and "\t" in line:
                fields, path = line.split("\t", 1)
                _, _, before, after, status = fields[1:].split(" ", 4)
                statuses.append(("=" if before == after else status[:1], path, before, after))
        pull_request, branch = None, None
        merged = MERGE_SUBJECT.match(subject)
        if len(parents) == 2 and merged:
            pull_request, branch = int(merged.group("number")), merged.group("branch")
        date = datetime.fromtimestamp(int(stamp), tz=UTC).isoformat() if stamp.isdigit() else ""
        landing = Landing(len(out) + 1, commit, pull_request, branch, frozenset(s[1] for s in statuses), date)
        out.append((landing, parents, statuses))
    return out
