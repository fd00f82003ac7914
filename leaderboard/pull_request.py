"""What a pull request may change, checked from what GitHub recorded of it (submission.yml); nothing in it is run.

`python -m neghub.leaderboard.pull_request HEAD_SUBMISSIONS BASE_SUBMISSIONS` prints the folders of HEAD
(the pull request's `submissions/`) that are new or differ from BASE (the base branch's), one per line.
Folders are compared byte for byte and mode for mode, every name included (none is skipped as a VCS file).
(The trust check below reads git's record instead where it has one.)

`python -m neghub.leaderboard.pull_request trust EVENT_JSON HEAD_ROOT BASE_ROOT` refuses the pull request, one
line per problem and exit code 2, when it:

- adds or changes a symbolic link anywhere in the tree (`git diff --raw BASE...HEAD` in HEAD_ROOT: mode 120000;
  where HEAD_ROOT is no git checkout, every link in it that BASE_ROOT does not hold): a link would show the checks
  one file and the build another; or a submodule (mode 160000: a checkout shows it as an empty folder); or an
  executable file (mode 100755) among the leaderboard's data (submissions/, reproductions/, clearances.yaml);
- adds a submission whose `submitter.github` is not the account that opened it (the event's
  `pull_request.user.login`), changes that field of a landed submission, or changes or removes a submission another
  account landed without being a maintainer. What the pull request changes is what git records of it
  (`git diff --raw BASE...HEAD` from where its branch forked: a file's mode and a submodule entry included, a
  folder main changed or added since the fork not, as GitHub's merge keeps main's); where HEAD_ROOT is no git
  checkout, every folder whose bytes or modes differ;
- changes or removes NegHub's run (evidence.maintainers_run on the base branch's history), unless the gpu-eval
  workflow opened it (this repository's `gpu-eval/` branch, the workflows' account): a maintainer changes NegHub's
  run by a direct push, which the site reads as theirs, and anyone else's change would make it another row;
- is opened by the workflows' account (the NegHub App's bot, deployment.workflow_account) with a submission from
  anywhere but this repository's `gpu-eval/` branch, or with anything beside that one submission folder;
- changes a reproduction record unless the gpu-reproduce workflow opened it: a branch `reproduce/...` of this
  repository, the workflow's account, that one record (with the re-run files it keeps under reproductions/<id>/)
  and nothing else;
- changes the leaderboard's data (submissions/, reproductions/, clearances.yaml) and anything else: code,
  `.github/` (a workflow, the maintainers, the deployment's identity), a second submission folder (unless a
  maintainer opens it). The verdict is the default branch's code's (submission.yml runs on pull_request_target and
  reads the pull request's tree as data); code or a workflow merged beside the data would judge it otherwise once
  merged, unread, so such a pull request is a code change, refused as a submission whoever opens it, one line per
  path. A `.gitattributes` anywhere is refused unless a maintainer opens it: it changes how git checks out and diffs
  other files, so the checked-out bytes the checks read are no longer what git records. A pull request that
  changes no data is a code change: `trust` passes it with one line, "not a submission", and writes `kind=code` to
  $GITHUB_OUTPUT (the maintainers review it, CODEOWNERS; ci.yml tests it);
- changes clearances.yaml while `.github/MAINTAINERS` on the base branch lists nobody (the repository ships no
  maintainer: nothing can be cleared until a deployment names its own), or without being a maintainer, or adds or
  changes an entry whose `by:` is not the pull request's author, or naming a submission the tree does not hold
  (with the nearest existing name), or leaves the file as the site would refuse to read it (an entry lifting a
  hold of a row's answers or figure names the boards reviewed: leaderboard/clearances.py). What it added is judged
  against the file where its branch forked (the merge base), as records are: a branch behind main is not blamed
  for an entry or a record main landed since.

A maintainer is an account `.github/MAINTAINERS` lists (one GitHub login a line, `#` comments), read from the base
branch's checkout (BASE_ROOT), never from the pull request's: a pull request cannot name its own author.
GitHub's `author_association` is not read: an organisation's member or a collaborator with write access is not
thereby one of the people who review verdicts. CODEOWNERS is generated from the same file (deployment.py).

The site then trusts each of these as landed (evidence.py).
"""

from __future__ import annotations

import difflib
import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from ..evaluator.core.errors import InputError
from ..evaluator.submissions.format import Metadata
from . import deployment
from .clearances import parse_clearances
from .deployment import MAINTAINERS_FILE, NO_MAINTAINER, maintainers_problems, read_maintainers  # noqa: F401 (re-exported)
from .evidence import account_of, maintainers_run
from .history import read_history

REPRODUCTIONS = "reproductions"
SUBMISSIONS = "submissions"
CLEARANCES = "clearances.yaml"
DEFAULT_BOT = deployment.DEFAULT_BOT  # the workflows' account where the deployment names none
LINK_MODE = "120000"
SUBMODULE_MODE = "160000"
EXECUTABLE_MODE = "100755"
DATA = (f"{SUBMISSIONS}/", f"{REPRODUCTIONS}/", CLEARANCES)  # the files the verdicts read


def git_changes(head_root: Path, event: dict[str, Any]) -> list[tuple[str, str, str]] | None:
    """(mode before, mode after, path) of every path `git diff --raw BASE...HEAD` records in HEAD_ROOT (the event's
    base and head commits), or None where HEAD_ROOT is no checkout holding both."""
    pull = event.get("pull_request") or {}
    base_sha = ((pull.get("base") or {}).get("sha")) or ""
    head_sha = ((pull.get("head") or {}).get("sha")) or ""
    if not (base_sha and head_sha):
        return None
    done = subprocess.run(
        ["git", "-C", str(head_root), "diff", "--raw", "--no-renames", "-z", f"{base_sha}...{head_sha}"],
        capture_output=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        return None
    fields = done.stdout.decode("utf-8", "replace").split("\0")
    changes = []
    for meta, path in zip(fields[::2], fields[1::2], strict=False):
        modes = meta.lstrip(":").split(" ")
        if len(modes) > 1:
            changes.append((modes[0], modes[1], path))
    return changes


def _under(changes: list[tuple[str, str, str]] | None, folder: str) -> set[str]:
    """The first path part below `folder` of each path the changes name there (a submission id, a record)."""
    names = set()
    for _, _, path in changes or []:
        if path.startswith(f"{folder}/"):
            names.add(path[len(folder) + 1 :].split("/", 1)[0])
    return names


def changed_ids(head: Path, base: Path, changes: list[tuple[str, str, str]] | None = None) -> list[str]:
    """Submission ids HEAD holds that the pull request adds or changes: where git's record of it is here
    (`changes`: `git diff --raw BASE...HEAD`, every path it changes against where it forked, a file's mode and a
    submodule entry included), the folders it names; else the folders new in HEAD or differing from BASE byte for
    byte. A folder main changed after the branch forked is not the pull request's change (GitHub's merge keeps
    main's), so an honest branch behind main is not read as changing another account's folder."""
    folders = sorted(p for p in head.iterdir() if p.is_dir() and not p.name.startswith(".")) if head.is_dir() else []
    if changes is not None:
        recorded = _under(changes, SUBMISSIONS)
        return [folder.name for folder in folders if folder.name in recorded]
    return [
        folder.name
        for folder in folders
        if not (base / folder.name).is_dir() or folders_differ(folder, base / folder.name)
    ]


def removed_ids(head: Path, base: Path, changes: list[tuple[str, str, str]] | None = None) -> list[str]:
    """Submission ids BASE holds that the pull request removes: from git's record where it is here (a folder main
    added after the branch forked is not removed by the merge), else every one HEAD does not hold."""
    if not base.is_dir():
        return []
    gone = sorted(p.name for p in base.iterdir() if p.is_dir() and not (head / p.name).is_dir())
    return gone if changes is None else [sid for sid in gone if sid in _under(changes, SUBMISSIONS)]


def folders_differ(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b, ignore=[], hide=[])  # by default dircmp skips CVS, RCS, tags, __pycache__, ...
    if cmp.left_only or cmp.right_only or cmp.funny_files:
        return True
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    if mismatch or errors:
        return True
    if any(_executable(a / name) != _executable(b / name) for name in cmp.common_files):
        return True
    return any(folders_differ(a / d, b / d) for d in cmp.common_dirs)


def _executable(path: Path) -> bool:
    return bool(path.lstat().st_mode & 0o111)


def changed_records(head_root: Path, base_root: Path, changes: list[tuple[str, str, str]] | None = None) -> list[str]:
    """reproductions/<file> paths the pull request adds, changes or removes: where git's record of it is here
    (`changes`: `git diff --raw BASE...HEAD`, from where its branch forked), the paths it names, a mode included;
    else every one HEAD_ROOT and BASE_ROOT hold otherwise. A record main landed after the branch forked is not the
    pull request's change: an honest branch behind main is not blamed for "removing" it."""
    if changes is not None:
        return sorted(f"{REPRODUCTIONS}/{name}" for name in _under(changes, REPRODUCTIONS))
    head, base = head_root / REPRODUCTIONS, base_root / REPRODUCTIONS
    names = {p.name for folder in (head, base) if folder.is_dir() for p in folder.iterdir()}
    changed = []
    for name in sorted(names):
        mine, theirs = head / name, base / name
        if mine.is_dir() or theirs.is_dir():
            # NegHub's kept answers of a schema-5 record (reproductions/<id>/<run.file>): a folder, compared file
            # by file (Contract R)
            if not _same_tree(mine, theirs):
                changed.append(f"{REPRODUCTIONS}/{name}")
            continue
        added_or_removed = mine.exists() != theirs.exists()
        if added_or_removed or not filecmp.cmp(mine, theirs, shallow=False) or _executable(mine) != _executable(theirs):
            changed.append(f"{REPRODUCTIONS}/{name}")
    return changed


def _same_tree(first: Path, second: Path) -> bool:
    """Whether two folders hold the same files, byte for byte and mode for mode (links are never the same)."""
    if not (first.is_dir() and second.is_dir()) or first.is_symlink() or second.is_symlink():
        return False
    files = [{p.relative_to(root) for p in root.rglob("*")} for root in (first, second)]
    if files[0] != files[1]:
        return False
    for relative in files[0]:
        a, b = first / relative, second / relative
        if a.is_symlink() or b.is_symlink() or a.is_dir() != b.is_dir():
            return False
        if a.is_file() and (not filecmp.cmp(a, b, shallow=False) or _executable(a) != _executable(b)):
            return False
    return True


def changed_links(head_root: Path, base_root: Path, event: dict[str, Any]) -> list[str]:
    """Paths of symbolic links the pull request adds or changes: from `git diff --raw BASE...HEAD` in HEAD_ROOT
    where it is a checkout holding both commits, else every link under HEAD_ROOT that BASE_ROOT lacks or holds
    otherwise."""
    changes = git_changes(head_root, event)
    if changes is not None:
        return [path for _, mode, path in changes if mode == LINK_MODE]
    links = []
    for root, dirs, files in os.walk(head_root, followlinks=False):
        dirs[:] = [d for d in dirs if d != ".git"]
        for entry in (*dirs, *files):
            path = Path(root) / entry
            if path.is_symlink():
                relative = path.relative_to(head_root)
                other = base_root / relative
                if not other.is_symlink() or os.readlink(other) != os.readlink(path):
                    links.append(relative.as_posix())
    return sorted(links)


def changed_paths(head_root: Path, base_root: Path, event: dict[str, Any]) -> list[str]:
    """Every path the pull request adds, changes or removes: from `git diff BASE...HEAD` in HEAD_ROOT where it is a
    checkout holding both commits, else every file of the two trees (.git aside) that one lacks or holds otherwise."""
    changes = git_changes(head_root, event)
    if changes is not None:
        return sorted({path for _, _, path in changes})
    files: dict[str, list[Path]] = {}
    for root in (head_root, base_root):
        for folder, dirs, names in os.walk(root, followlinks=False):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in names:
                path = Path(folder) / name
                files.setdefault(path.relative_to(root).as_posix(), []).append(path)
    differ = []
    for relative, found in files.items():
        if len(found) != 2 or not filecmp.cmp(found[0], found[1], shallow=False):
            differ.append(relative)
    return sorted(differ)


def is_data(path: str) -> bool:
    """Whether `path` is the leaderboard's data (a submission folder's file, a reproduction record, the clearances)."""
    return path.startswith(DATA[:2]) or path == CLEARANCES


def submission_kind(paths: list[str]) -> str | None:
    """What the verdict judges: None for a code change (no path of the leaderboard's data: the maintainers review
    it as code, CODEOWNERS, and ci.yml tests it), else "submission", "reproduction" or "clearance" (the first the
    pull request changes, in that order)."""
    data = [path for path in paths if is_data(path)]
    if not data:
        return None
    for prefix, kind in ((f"{SUBMISSIONS}/", "submission"), (f"{REPRODUCTIONS}/", "reproduction")):
        if any(path.startswith(prefix) for path in data):
            return kind
    return "clearance"


def scope_problems(
    event: dict[str, Any], head_root: Path, base_root: Path, paths: list[str] | None = None
) -> list[str]:
    """Why a pull request of the leaderboard's data is a code change (see the module docstring): one line per path.
    A pull request that changes the data changes nothing else, whoever opens it (a maintainer included): the
    verdict is computed by the default branch's code, and code or a workflow merged beside the data would judge it
    otherwise on the next build, unread. A `.gitattributes` anywhere is refused unless a maintainer opens it."""
    paths = changed_paths(head_root, base_root, event) if paths is None else paths
    maintainer = _is_maintainer(event, base_root)
    problems = [
        f"{path}: a .gitattributes changes how git checks out and diffs other files (their encoding, line ends, "
        "filters), so what the checks read is not what git records: it makes this pull request a code change, "
        "which only a maintainer opens"
        for path in paths
        if PurePosixPath(path).name == ".gitattributes" and not maintainer
    ]
    kind = submission_kind(paths)
    if kind is None:
        return problems
    for path in paths:
        if is_data(path) or (PurePosixPath(path).name == ".gitattributes" and not maintainer):
            continue
        what = "a workflow or the deployment's settings (.github/)" if path.startswith(".github/") else "the build"
        problems.append(
            f"{path}: it changes {what} beside the leaderboard's data, which makes this pull request a code change, "
            f"not a {kind}: the verdict comes from the default branch's code, and this would judge the data "
            "otherwise once merged; move the change to a pull request of its own (a maintainer reviews it) and keep "
            "this one to the data"
        )
    if maintainer:
        return problems
    folders = sorted({path.split("/")[1] for path in paths if path.startswith(f"{SUBMISSIONS}/") and path.count("/")})
    if len(folders) > 1:
        shown = ", ".join(f"{SUBMISSIONS}/{sid}/" for sid in folders)
        problems.append(
            f"{shown}: a pull request adds or changes one submission folder: open one pull request for each (one "
            "submission's review cannot hold or clear another's)"
        )
        return problems
    if folders:
        (folder,) = folders
        for path in paths:
            if is_data(path) and not path.startswith(f"{SUBMISSIONS}/{folder}/"):
                problems.append(
                    f"{path}: outside the submission's folder ({SUBMISSIONS}/{folder}/): it changes the leaderboard's "
                    "data beside the submission; move the change to a pull request of its own and keep this one to "
                    "the folder"
                )
    return problems


def _pull(event: dict[str, Any]) -> dict[str, Any]:
    pull = event.get("pull_request") or {}
    return pull if isinstance(pull, dict) else {}


def _author(event: dict[str, Any]) -> str:
    return str((_pull(event).get("user") or {}).get("login") or "")


def _is_maintainer(event: dict[str, Any], base_root: Path) -> bool:
    author = _author(event).lower()
    return bool(author) and author in read_maintainers(base_root)


def neghub_runs(base_root: Path) -> set[str]:
    """The submission ids of BASE_ROOT that are NegHub's run, as the site reads them from its history (evidence.py);
    none where BASE_ROOT has no history (the account rule then still keeps another account's folder its own)."""
    folder = base_root / SUBMISSIONS
    if not folder.is_dir():
        return set()
    history = read_history(folder)
    if not history.recorded:
        return set()
    runs = set()
    for sid in history.added:
        try:
            data = yaml.safe_load((folder / sid / "metadata.yaml").read_text(encoding="utf-8"))
            metadata = Metadata.model_validate(data)
        except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError):
            continue
        if maintainers_run(history, sid, account_of(history, sid, metadata)):
            runs.add(sid)
    return runs


def _from_own_branch(event: dict[str, Any], prefix: str) -> bool:
    pull = _pull(event)
    head = pull.get("head") or {}
    head_repo = (head.get("repo") or {}).get("full_name")
    base_repo = ((pull.get("base") or {}).get("repo") or {}).get("full_name")
    return head_repo is not None and head_repo == base_repo and str(head.get("ref") or "").startswith(prefix)


def _github_of(folder: Path) -> str | None:
    """The `submitter.github` of a submission folder's metadata.yaml (None where it cannot be read: the
    validator says why)."""
    try:
        data = yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    submitter = data.get("submitter") if isinstance(data, dict) else None
    value = submitter.get("github") if isinstance(submitter, dict) else None
    return value if isinstance(value, str) else None


def submission_problems(
    event: dict[str, Any],
    head_root: Path,
    base_root: Path,
    bot: str = DEFAULT_BOT,
    changes: list[tuple[str, str, str]] | None = None,
) -> list[str]:
    """Why the pull request may not add, change or remove these submissions (see the module docstring)."""
    head, base = head_root / SUBMISSIONS, base_root / SUBMISSIONS
    author = _author(event)
    maintainer = _is_maintainer(event, base_root)
    workflow = author == bot and _from_own_branch(event, "gpu-eval/")
    ours = neghub_runs(base_root)
    problems = []
    changed = changed_ids(head, base, changes)
    for sid in changed:
        claimed = _github_of(head / sid)
        where = f"{SUBMISSIONS}/{sid}/metadata.yaml: submitter.github"
        if not (base / sid).is_dir():
            if claimed is None or claimed.lower() != author.lower():
                problems.append(
                    f"{where}: expected the account that opens this pull request, {author or 'unknown'}, got "
                    f"{claimed or 'nothing'}: write `github: {author}` under submitter (neghub run and neghub import "
                    "write it from --submitter-github)"
                )
            continue
        landed_by = _github_of(base / sid)
        if sid in ours and not workflow:
            problems.append(
                f"{SUBMISSIONS}/{sid}: NegHub's run: only the gpu-eval workflow's pull request or the maintainers' "
                "direct push changes it (anyone else's change would make it another row): open a new submission "
                "folder instead"
            )
        elif claimed != landed_by:
            problems.append(f"{where}: a landed submission keeps the account that landed it ({landed_by or 'none'})")
        elif (landed_by or "").lower() != author.lower() and not maintainer and not (workflow and sid in ours):
            problems.append(
                f"{SUBMISSIONS}/{sid}: landed by {landed_by or 'another account'}; only that account or a maintainer "
                "may change it: open a new submission folder instead"
            )
    for sid in removed_ids(head, base, changes):
        if sid in ours:
            problems.append(f"{SUBMISSIONS}/{sid}: NegHub's run: only the maintainers' direct push removes it")
        elif (_github_of(base / sid) or "").lower() != author.lower() and not maintainer:
            problems.append(f"{SUBMISSIONS}/{sid}: landed by another account; only a maintainer may remove it")
    if author == bot and changed:
        changed_files = _pull(event).get("changed_files")
        if not _from_own_branch(event, "gpu-eval/") or len(changed) != 1 or changed_files is None:
            problems.append(
                f"{', '.join(changed)}: the workflows' account lands a submission only from this repository's "
                "gpu-eval/ branch, one submission folder at a time"
            )
    return problems


def record_problems(
    event: dict[str, Any], records: list[str], bot: str = DEFAULT_BOT, files_of: list[str] | None = None
) -> list[str]:
    """Why a pull request may not change these reproduction records (none: it may, or it changes none). `files_of`:
    every path the pull request changes where git's record of it is here (the record and its kept re-run files
    count as one record; GitHub's `changed_files` must be that many), else the record alone."""
    if not records:
        return []
    pull = _pull(event)
    head_repo = ((pull.get("head") or {}).get("repo") or {}).get("full_name")
    base_repo = ((pull.get("base") or {}).get("repo") or {}).get("full_name")
    author = _author(event)
    changed_files = pull.get("changed_files")
    shown = ", ".join(records)
    problems = []
    if head_repo is None or head_repo != base_repo or not _from_own_branch(event, "reproduce/"):
        problems.append(
            f"{shown}: a reproduction record comes only from a reproduce/ branch of {base_repo} that the gpu-reproduce "
            f"workflow pushed; this pull request comes from {head_repo or 'a deleted repository'}"
        )
    if author != bot:
        problems.append(
            f"{shown}: a reproduction record comes only from the gpu-reproduce workflow's account ({bot}); this pull "
            f"request is {author or 'an unknown author'}'s. Ask a maintainer to run gpu-reproduce (README, "
            "'Reproducing a submission')"
        )
    # a record is reproductions/<id>.json with the re-run's answers it keeps under reproductions/<id>/ (Contract R)
    ids = {PurePosixPath(path).name.removesuffix(".json") for path in records}
    if len(ids) != 1 or changed_files != len(files_of or [None]):
        files = "an unknown number of" if changed_files is None else changed_files
        problems.append(
            f"{shown}: a pull request that changes a reproduction record changes that one record alone (this one "
            f"changes {len(ids)} record(s) and {files} file(s) in all)"
        )
    return problems


trust_problems = record_problems  # the records' check under the name the tests and the session know


def mode_problems(changes: list[tuple[str, str, str]] | None) -> list[str]:
    """A submodule anywhere, an executable file among the leaderboard's data (see the module docstring)."""
    problems = []
    for _, mode, path in changes or []:
        if mode == SUBMODULE_MODE:
            problems.append(f"{path}: a submodule: a pull request adds none (copy the files in)")
        elif mode == EXECUTABLE_MODE and path.startswith(DATA):
            problems.append(f"{path}: an executable file: the leaderboard's data are plain files (chmod -x {path})")
    return problems


def clearance_problems(
    event: dict[str, Any], head_root: Path, base_root: Path, changes: list[tuple[str, str, str]] | None = None
) -> list[str]:
    """Why the pull request may not change clearances.yaml (none: it may, or it does not change it). Where git's
    record of it is here, what it changed is judged against the file where its branch forked (the merge base): an
    entry main landed since is not the pull request's."""
    mine, theirs = head_root / CLEARANCES, base_root / CLEARANCES
    if changes is not None:
        if not any(path == CLEARANCES for _, _, path in changes):
            return []
        before = _entries_text(_at_fork(head_root, event, CLEARANCES))
    else:
        same = mine.is_file() == theirs.is_file() and (not mine.is_file() or filecmp.cmp(mine, theirs, shallow=False))
        if same:
            return []
        before = _entries(theirs)
    author = _author(event)
    if not read_maintainers(base_root):
        return [f"{CLEARANCES}: {NO_MAINTAINER}"]
    if not _is_maintainer(event, base_root):
        return [
            f"{CLEARANCES}: only a maintainer ({MAINTAINERS_FILE} on the base branch) changes the clearances; this "
            f"pull request is {author or 'an unknown author'}'s"
        ]
    problems = []
    for entry in _entries(mine):
        if entry is _UNREADABLE or entry in before:
            continue  # a file or entry that does not read is said once, by _entry_problems: there is no `by` to judge
        by = str(entry.get("by") or "")
        if by.lower() != author.lower():
            problems.append(
                f"{CLEARANCES}: by: an entry this pull request adds or changes names its author, {author} (got "
                f"{by or 'nothing'}): the site prints the account that landed it"
            )
        problems += _unknown_names(entry, head_root)
    return problems + _entry_problems(mine)


def nearest(name: str, names: list[str]) -> str:
    """ ", did you mean X?" for the existing name nearest to `name` (difflib), or "" where none is near."""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _unknown_names(entry: dict[str, Any], head_root: Path) -> list[str]:
    """A clearance naming a submission the pull request's tree does not hold lifts nothing: refused, with the
    nearest existing name. (Board slugs are checked where the boards are built: the summary and the build.)"""
    sid = entry.get("submission")
    if not isinstance(sid, str):
        return []
    folder = head_root / SUBMISSIONS
    ids = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    if sid in ids:
        return []
    return [f"{CLEARANCES}: submission: {sid!r} is no submission (no folder {SUBMISSIONS}/{sid}/){nearest(sid, ids)}"]


def _at_fork(head_root: Path, event: dict[str, Any], path: str) -> bytes | None:
    """`path` as it stood where the pull request's branch forked from the base (the merge base); None where it did
    not exist or git cannot say."""
    pull = _pull(event)
    base_sha = str((pull.get("base") or {}).get("sha") or "")
    head_sha = str((pull.get("head") or {}).get("sha") or "")
    fork = subprocess.run(
        ["git", "-C", str(head_root), "merge-base", base_sha, head_sha], capture_output=True, timeout=60, check=False
    )
    if fork.returncode != 0:
        return None
    shown = subprocess.run(
        ["git", "-C", str(head_root), "show", f"{fork.stdout.decode().strip()}:{path}"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    return shown.stdout if shown.returncode == 0 else None


def _entry_problems(path: Path) -> list[str]:
    """What the site's reading of the file would refuse (clearances.parse_clearances: a closed model, an entry that
    lifts a figure's hold naming the boards reviewed), said to the maintainer before it lands."""
    if not path.is_file():
        return []
    try:
        parse_clearances(path.read_text(encoding="utf-8"), CLEARANCES)
    except UnicodeDecodeError:
        return [f"{CLEARANCES}: not UTF-8 text"]
    except OSError as exc:
        return [f"{CLEARANCES}: cannot be read ({exc.strerror or exc})"]
    except InputError as exc:
        return [str(problem) for problem in exc.problems]
    return []


# what a file or an entry that does not read as a mapping stands for: as the fork's content, every entry of the
# pull request's file is new (judged whole); in the pull request's file, it is not judged by its `by` (it has none
# a reader could see) but refused once, saying why (_entry_problems, as the site's reading would refuse it)
_UNREADABLE: dict[str, Any] = {"by": None}


def _entries(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        return _entries_text(path.read_bytes())
    except OSError:
        return [_UNREADABLE]


def _entries_text(content: bytes | None) -> list[dict[str, Any]]:
    if content is None:
        return []
    try:
        data = yaml.safe_load(content.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError):
        return [_UNREADABLE]
    if not isinstance(data, dict):
        return [_UNREADABLE]
    out = []
    for key in ("clearances", "accepted_prompts"):
        for entry in data.get(key) or []:
            out.append(entry if isinstance(entry, dict) else _UNREADABLE)
    return out


def all_problems(event: dict[str, Any], head_root: Path, base_root: Path, bot: str = DEFAULT_BOT) -> list[str]:
    changes = git_changes(head_root, event)
    links = changed_links(head_root, base_root, event)
    problems = [f"{path}: a symbolic link: a pull request adds or changes none (copy the file in)" for path in links]
    problems += mode_problems(changes)
    scope = scope_problems(event, head_root, base_root)
    problems += scope
    if any(".gitattributes: " in p for p in scope):
        return problems  # the checked-out files are not what git records: no reading of them would be honest
    problems += submission_problems(event, head_root, base_root, bot, changes)
    files = sorted({path for _, _, path in changes}) if changes is not None else None
    problems += record_problems(event, changed_records(head_root, base_root, changes), bot, files)
    problems += clearance_problems(event, head_root, base_root, changes)
    return problems


def _write_output(name: str, value: str) -> None:
    """A step output for the workflow (submission.yml reads `kind`); nothing where $GITHUB_OUTPUT is unset."""
    target = os.environ.get("GITHUB_OUTPUT")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(f"{name}={value}\n")


def main(argv: list[str]) -> int:
    if argv[:1] == ["trust"]:
        if len(argv) != 4:
            print(
                "usage: python -m neghub.leaderboard.pull_request trust EVENT_JSON HEAD_ROOT BASE_ROOT", file=sys.stderr
            )
            return 2
        event = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
        head_root, base_root = Path(argv[2]), Path(argv[3])
        bot = deployment.workflow_account(base_root)  # the base branch's setting, never the pull request's
        kind = submission_kind(changed_paths(head_root, base_root, event))
        problems = all_problems(event, head_root, base_root, bot)
        _write_output("kind", kind or "code")
        if kind is None and not problems:
            print(
                "not a submission: this pull request changes no submission, reproduction record or clearance; it is "
                "a code change, which the maintainers review (CODEOWNERS) and ci.yml tests"
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
