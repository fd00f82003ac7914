"""The pull-request summary: every verdict the merged site will print of a pull request's submissions.

`python -m neghub.leaderboard.summary HEAD_SUBMISSIONS BASE_SUBMISSIONS [--event EVENT_JSON] [-o FILE]`
(run by `nox -s submission_summary` in submission.yml).

The summary computes with the order and identity the merged build will: the base branch's history (its landings
and accounts, history.py), and the pull request's new and changed submissions landing after all of them, as its
merge commit, by the account that opened it (the event's `pull_request.user.login`: the pull-request check holds
`submitter.github` equal to it). The verdicts are read from the leaderboard file `verdicts.decide` returns for that
merged state, with the base branch's reproduction records and clearances; so the summary and the merged site agree
on every row; it prints them in the site's words (a row folded into another reads as that row's "also submitted
by").

It also compares the pull request's rows with those of every other open pull request, the way the site would were
both merged: `verdicts.decide` (the rules' one function, no rule of the summary's own) on the merged state with the
other pull requests' rows landed after this one's, every row of either branched from the base branch before the
other landed (`RowFacts.forked_at`), so the copy rule treats them as open at once, as they are (which lands first
is the maintainers' choice, and a pull request's number says only when it was opened). It prints each verdict of a
row of either side that names a row of the other. Files first: a prediction file of another pull request byte for
byte one of this one's (git's blob id, which git already holds for every fetched head) is named as the same answers
without re-scoring. Then within a budget: at most `OPEN_RUNS_BUDGET` runs of other pull requests are re-scored, the
oldest pull request first, and the summary names every open pull request it did not compare; the copy rule at
landing compares every row whatever the summary compared. A metadata-only change of another pull request (a rename)
is not compared. Cells are escaped: model names come from the pull request and are untrusted text; no cell is cut.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from ..evaluator.core.errors import InputError, Problem
from ..evaluator.core.registry import benchmark_names, get_benchmark
from .board_file import HistoryEntry, LeaderboardFile, RowEntry
from .collect import Leaderboard, collect, collect_submission
from .facts import Account, RowFacts
from .history import History, Landing, read_history, shown_of
from .maintainers import clearance_summary, entry_name_problems
from .pull_request import changed_ids, folders_differ, removed_ids
from .verdicts import Context, decide, shown

API_ENV = "GITHUB_API_URL"
TOKEN_ENV = "GITHUB_TOKEN"
DEFAULT_API = "https://api.github.com"
PER_PAGE = 100  # GitHub's most per page
CHANGED_SHOWN = 30  # rows of other submissions listed, then a count: a summary stays readable on a full board
# The other open pull requests the summary compares, at most, oldest first (the pull requests most likely to land
# first, and a placeholder opened early is the copy the maintainers must hear of): it reads the files of at most
# OPEN_PULLS_BUDGET of them (git's blob ids of one `git diff` each, about 18 ms a pull request on a loaded 2-core
# machine: 300 in about 5 s) and re-scores and compares at most OPEN_RUNS_BUDGET runs whose files are not byte for
# byte this pull request's (about 0.2 s a run there, re-scoring and the rules together: 50 in about 10 s). The
# comparison is advice to the reviewer, the copy rule at landing compares every row, and a flood of open pull
# requests must not make every other one's check slow: 2,000 open runs had added 11 s, linearly.
OPEN_PULLS_BUDGET = 300
OPEN_RUNS_BUDGET = 50
OPEN_SHOWN = 30  # lines of the comparison printed, then a count


def cell(text: object) -> str:
    """Untrusted text as an inert Markdown table cell (never cut)."""
    return re.sub(r"[\\`*_{}\[\]<>()#+!|~-]", lambda m: "\\" + m.group(0), str(text).replace("\n", " "))


def _changes_since_fork(head: Path, base: Path) -> list[tuple[str, str, str]] | None:
    """What the pull request changes under submissions/ as GitHub's merge applies it: `git diff --raw` from the merge
    base of its head (HEAD of HEAD's checkout) and the base branch (HEAD of BASE's) to its head, paths from the
    repository's root; None where git cannot say (no checkout: the folders are then compared byte for byte)."""
    base_head = _git(base, "rev-parse", "HEAD")
    if base_head.returncode != 0:
        return None
    merge_base = _git(head, "merge-base", "HEAD", base_head.stdout.decode().strip())
    prefix = _git(head, "rev-parse", "--show-prefix")
    if merge_base.returncode != 0 or prefix.returncode != 0:
        return None
    done = _git(head, "diff", "--raw", "--no-renames", "-z", merge_base.stdout.decode().strip(), "HEAD", "--", ".")
    if done.returncode != 0:
        return None
    # paths as the pull-request check reads them: submissions/<id>/... whatever the folder's place in the checkout
    inside = prefix.stdout.decode().strip()
    fields = done.stdout.decode("utf-8", "replace").split("\0")
    changes = []
    for meta, path in zip(fields[::2], fields[1::2], strict=False):
        modes = meta.lstrip(":").split(" ")
        if len(modes) > 1 and path.startswith(inside):
            changes.append((modes[0], modes[1], f"submissions/{path[len(inside) :]}"))
    return changes


def _merged_folder(head: Path, base: Path, ids: list[str], removed: list[str], into: Path) -> Path:
    """The submissions folder GitHub's merge will leave: BASE's, with the folders the pull request adds or changes
    as HEAD holds them and those it removes gone (a folder main changed after the branch forked stays main's)."""
    merged = into / "submissions"
    if base.is_dir():
        shutil.copytree(base, merged, symlinks=True)
    else:
        merged.mkdir(parents=True)
    for sid in [*ids, *removed]:
        if (merged / sid).is_dir():
            shutil.rmtree(merged / sid)
    for sid in ids:
        shutil.copytree(head / sid, merged / sid, symlinks=True)
    return merged


def merged_history(
    base: History, ids: list[str], event: dict[str, Any], head_dir: Path | None = None, base_dir: Path | None = None
) -> History:
    """`base` with the pull request's merge commit after everything, as history.py will read it: a new folder lands
    there, and a changed one where its prediction files or what its row shows changed (a description's typo keeps
    its landing); every other changed folder keeps its own."""
    if not base.recorded:
        return base
    pull = event.get("pull_request") or {}
    number = int(pull.get("number") or 0) or None
    head = pull.get("head") or {}
    owner = ((head.get("repo") or {}).get("owner") or {}).get("login") or ""
    branch = f"{owner}/{head.get('ref') or ''}" if owner else None
    paths = frozenset(f"{base.prefix}{sid}/" for sid in ids)
    landing = Landing(len(base.landings) + 1, "the-pull-request's-merge", number or 0, branch, paths, "")
    if number is None:  # no event: a pull request all the same, by an account the summary cannot name
        landing = dataclasses.replace(landing, pull_request=0)
    fork = _fork_position(head_dir, base_dir)
    if fork is not None:
        # where the branch forked from main, as history.py reads it of the merge commit (Landing.forked_at): the copy
        # rule tells rows of two pull requests open at once by it, so the summary lands the pull request with it
        landing = dataclasses.replace(landing, forked_at=fork)
    new = [sid for sid in ids if sid not in base.added or base_dir is None or not (base_dir / sid).is_dir()]
    moved = new + [
        sid
        for sid in ids
        if sid not in new
        and head_dir is not None
        and base_dir is not None
        and _lands_anew(head_dir / sid, base_dir / sid)
    ]
    return dataclasses.replace(
        base,
        landings=(*base.landings, landing),
        submissions={**base.submissions, **dict.fromkeys(moved, landing)},
        added={**base.added, **dict.fromkeys(new, landing)},
    )


def _fork_position(head_dir: Path | None, base_dir: Path | None) -> int | None:
    """The first-parent position on the base branch of the merge base of the pull request's head (HEAD of the
    checkout holding `head_dir`) and the base branch (HEAD of the one holding `base_dir`), or None where git cannot
    say (no checkout, a shallow one)."""
    if head_dir is None or base_dir is None:
        return None
    base_head = _git(base_dir, "rev-parse", "HEAD")
    if base_head.returncode != 0:
        return None
    merge_base = _git(head_dir, "merge-base", "HEAD", base_head.stdout.decode().strip())
    if merge_base.returncode != 0:
        return None
    count = _git(base_dir, "rev-list", "--first-parent", "--count", merge_base.stdout.decode().strip())
    text = count.stdout.decode().strip()
    return int(text) if count.returncode == 0 and text.isdigit() else None


def _lands_anew(mine: Path, theirs: Path) -> bool:
    """Whether a changed folder lands with the merge (history.py's rule): its predictions or what its row shows."""
    predictions = mine / "predictions", theirs / "predictions"
    if predictions[0].is_dir() != predictions[1].is_dir():
        return True
    if predictions[0].is_dir() and folders_differ(*predictions):
        return True
    texts = [
        (folder / "metadata.yaml").read_bytes() if (folder / "metadata.yaml").is_file() else b""
        for folder in (mine, theirs)
    ]
    return shown_of(texts[0]) != shown_of(texts[1])


def _best_ranked(file: LeaderboardFile, excluded: set[str]) -> dict[str, RowEntry]:
    """Per board slug, the best ranked row of the current leaderboard (`excluded` submissions left out)."""
    best: dict[str, RowEntry] = {}
    for entry in file.rows:
        if entry.status != "ranked" or entry.submission in excluded or entry.headline is None:
            continue
        sign = 1.0 if get_benchmark(entry.task).display.headline.higher_is_better else -1.0
        current = best.get(entry.board)
        if current is None or sign * entry.headline > sign * (current.headline or 0.0):
            best[entry.board] = entry
    return best


def _changed_elsewhere(before: LeaderboardFile, after: LeaderboardFile, ids: set[str]) -> list[str]:
    """What the merge changes in the verdicts of rows outside the pull request: one line per row, before and after."""
    was = {e.row: e for e in before.rows if e.kind == "verified"}
    lines = []
    for entry in after.rows:
        old = was.get(entry.row)
        if old is None or entry.submission in ids:
            continue
        then, now = verdict_words(old, before), verdict_words(entry, after)
        if then != now:
            lines.append(f"{entry.submission} ({entry.model}, {entry.board}): now {then}; once merged {now}")
    return lines


def verdict_words(entry: RowEntry, file: LeaderboardFile) -> str:
    """What the merged site says of a row, in full."""
    entries = file.entries()
    parts = []
    if entry.status == "ranked" and entry.rank is not None:
        low, high = entry.rank
        rank = str(low) if low == high else f"{low}–{high}"
        parts.append(f"ranked {rank}")
    elif entry.status == "duplicate" and entry.duplicate_of is not None:
        standing = entries[entry.duplicate_of]
        # the site shows the row once, as the standing row, which names this submission among "also submitted by"
        also = [who for who in standing.also_submitted_by if who.endswith(f"({entry.submission})")]
        parts.append(
            f"shown once, as {standing.submission}'s row (the same model, the same answers)"
            + "".join(f", which reads: also submitted by {who}" for who in also[:1])
        )
    else:
        words = {"held": "held", "unranked": "not ranked", "listed": "listed, not ranked"}
        parts.append(words.get(entry.status, entry.status))
    parts += [f"held: {hold.reason}" for hold in entry.holds]
    if entry.status in ("unranked", "listed") and entry.why:
        parts.append(entry.why)
    parts += [f"cleared: {words}" for words in entry.cleared]
    parts += [f"also submitted by {who}" for who in entry.also_submitted_by]
    parts += list(entry.marks)
    if entry.floor:
        parts.append(f"against the floor: {entry.floor}")
    if entry.verdict:
        parts.append(f"verdict: {entry.verdict}")
    parts.append(f"trust: {entry.trust} ({entry.reproduction or 'not run by NegHub'})")
    return "; ".join(parts)


def merged_board(
    head: Path, base: Path, event: dict[str, Any], data_dir: Path | None = None
) -> tuple[list[str], Leaderboard, History]:
    """The pull request's new and changed submission ids, the leaderboard of the state GitHub's merge will leave
    (every verdict decided as the merged build will: see the module docstring) and the base branch's history."""
    changes = _changes_since_fork(head, base)
    ids = changed_ids(head, base, changes)
    removed = removed_ids(head, base, changes)
    repository = Path(os.path.abspath(base)).parent
    base_history = read_history(base)
    history = merged_history(base_history, ids, event, head, base)
    records, clearances = repository / "reproductions", repository / "clearances.yaml"
    with tempfile.TemporaryDirectory(prefix="neghub-merged-") as folder:
        state = head if changes is None else _merged_folder(head, base, ids, removed, Path(folder))
        merged = collect(
            state, data_dir=data_dir, history=history, reproductions_dir=records, clearances_file=clearances
        )
    return ids, merged, base_history


def summary(head: Path, base: Path, event: dict[str, Any] | None = None, data_dir: Path | None = None) -> str:
    event = event or {}
    if not changed_ids(head, base, _changes_since_fork(head, base)):
        return "## NegHub submissions\n\nNo submission is new or changed.\n" + _clearances_section(
            head, base, event, data_dir
        )
    ids, merged, base_history = merged_board(head, base, event, data_dir)
    repository = Path(os.path.abspath(base)).parent
    records, clearances = repository / "reproductions", repository / "clearances.yaml"
    history = merged_history(base_history, ids, event, head, base)
    current = (
        collect(base, data_dir=data_dir, history=base_history, reproductions_dir=records, clearances_file=clearances)
        if base.is_dir()
        else None
    )
    best = {} if current is None else _best_ranked(current.file, set(ids))
    lines = ["## NegHub submissions", ""]
    if not history.recorded:
        lines += [f"The base branch's history is not here ({history.why_not}): rows are ordered by id.", ""]
    lines += [
        "| submission | model | board | runs | headline | best ranked on the leaderboard | verdict once merged |",
        "|---|---|---|---|---|---|---|",
    ]
    facts = {row.id: row for row in merged.facts}
    for entry in sorted(merged.file.rows, key=lambda e: (e.submission or "", e.task, e.board)):
        if entry.submission not in ids or entry.kind != "verified":
            continue
        row = facts[entry.row]
        top = best.get(entry.board)
        top_words = "none" if top is None else f"{shown(top.headline, top.task)} ({top.model})"
        value = shown(entry.headline, entry.task)
        lines.append(
            f"| {cell(entry.submission)} | {cell(entry.model)} | {cell(row.key.title)} (`{entry.board}`) "
            f"| {row.n_runs} | {value} | {cell(top_words)} | {cell(verdict_words(entry, merged.file))} |"
        )
    changed = [] if current is None else _changed_elsewhere(current.file, merged.file, set(ids))
    if changed:
        lines += ["", "### Rows of other submissions whose verdict this merge changes", ""]
        lines += [f"- {cell(words)}" for words in changed[:CHANGED_SHOWN]]
        if len(changed) > CHANGED_SHOWN:
            lines.append(f"- … and {len(changed) - CHANGED_SHOWN} more rows")
    for note in (n for n in merged.notes if n.submission in ids):
        lines += ["", f"**{cell(note.submission)}** {note.level}: " + "; ".join(cell(m) for m in note.messages[:10])]
    mine = [r for r in merged.facts if r.submission_id in ids]
    alike = open_copies(mine, event, base, data_dir, others=list(merged.facts), head=head)
    if alike:
        lines += ["", "### Other open pull requests", ""]
        shown_lines = alike if len(alike) <= OPEN_SHOWN else [*alike[: OPEN_SHOWN - 1], alike[-1]]
        lines += [f"- {cell(words)}" for words in shown_lines]
        if len(alike) > OPEN_SHOWN:
            lines.append(f"- … and {len(alike) - OPEN_SHOWN} more lines of the comparison")
    return "\n".join(lines) + "\n"


def _clearances_section(head: Path, base: Path, event: dict[str, Any], data_dir: Path | None) -> str:
    """A clearance pull request's summary: what each entry it adds lifts, row by row (maintainers.clearance_lifts),
    on the base branch's leaderboard; nothing where clearances.yaml is unchanged."""
    head_root, repository = Path(os.path.abspath(head)).parent, Path(os.path.abspath(base)).parent
    if not (head_root / "clearances.yaml").is_file() or not event:
        return ""
    current = None
    if base.is_dir():
        current = collect(
            base,
            data_dir=data_dir,
            history=read_history(base),
            reproductions_dir=repository / "reproductions",
            clearances_file=repository / "clearances.yaml",
        ).file
    if current is not None:
        # an entry this pull request adds that names no submission or no board of it lifts nothing: refused here,
        # with the nearest name (the build only reports such entries of main's file)
        from .pull_request import CLEARANCES, _at_fork, _entries, _entries_text

        before = _entries_text(_at_fork(head_root, event, CLEARANCES))
        added = [e for e in _entries(head_root / CLEARANCES) if e not in before and "submission" in e]
        known = sorted(p.name for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
        problems = entry_name_problems(added, current, known, "the entry {number} this pull request adds")
        if problems:
            raise InputError([Problem(CLEARANCES, None, None, line) for line in problems])
    return clearance_summary(head_root, event, current)


# --- open pull requests ------------------------------------------------------------------------------------


def _api_get(url: str) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.github+json"})
    token = os.environ.get(TOKEN_ENV)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


@dataclasses.dataclass(frozen=True)
class OpenPull:
    """Another open pull request, as GitHub's API lists it."""

    number: int
    sha: str
    author: str  # its user.login ("" where the API did not say)


def open_pull_requests(event: dict[str, Any]) -> list[OpenPull]:
    """Every other open pull request of the repository, by number."""
    pull = event.get("pull_request") or {}
    number = int(pull.get("number") or 0)
    repo = ((pull.get("base") or {}).get("repo") or {}).get("full_name")
    if not number or not repo:
        return []
    api = os.environ.get(API_ENV) or DEFAULT_API
    found: dict[int, OpenPull] = {}
    for page in range(1, 51):
        batch = _api_get(f"{api}/repos/{repo}/pulls?state=open&per_page={PER_PAGE}&page={page}")
        if not batch:
            break
        for p in batch:
            if int(p["number"]) != number:
                found[int(p["number"])] = OpenPull(
                    int(p["number"]), str(p["head"]["sha"]), str((p.get("user") or {}).get("login") or "")
                )
        if len(batch) < PER_PAGE:
            break  # the last page
    return [found[n] for n in sorted(found)]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=300, check=False)


def blob_id(data: bytes) -> str:
    """git's object id of a file's bytes (what `git diff --raw` prints of it): a file hash git already holds for
    every open pull request's files, so comparing needs neither a checkout nor a re-score."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _fetch(root: Path, pulls: list[OpenPull]) -> None:
    """Every open pull request's head, in as few `git fetch` calls as the command line allows."""
    for start in range(0, len(pulls), 200):
        refspecs = [f"+refs/pull/{p.number}/head:refs/neghub/pull/{p.number}" for p in pulls[start : start + 200]]
        _git(root, "fetch", "--no-tags", "--quiet", "origin", *refspecs)


def _their_files(root: Path, pull: OpenPull, base_sha: str) -> dict[str, dict[str, str]]:
    """Submission id -> {path in its folder: blob id} of each file open pull request `pull` adds or changes under
    submissions/ (against where it forked from the base branch: `BASE...HEAD`)."""
    done = _git(
        root, "diff", "--raw", "--no-abbrev", "--no-renames", "-z", f"{base_sha}...{pull.sha}", "--", "submissions/"
    )
    if done.returncode != 0:
        return {}
    fields = done.stdout.decode("utf-8", "replace").split("\0")
    found: dict[str, dict[str, str]] = {}
    for meta, path in zip(fields[::2], fields[1::2], strict=False):
        parts = meta.lstrip(":").split(" ")
        if len(parts) < 5 or parts[4][:1] not in ("A", "M") or path.count("/") < 2:
            continue
        _, sid, rest = path.split("/", 2)
        found.setdefault(sid, {})[rest] = parts[3]
    return found


def _runs_in(root: Path, pull: OpenPull, sid: str) -> int:
    """How many prediction files re-scoring the pull request's folder `sid` reads (each is re-scored)."""
    listed = _git(root, "ls-tree", "-r", "--name-only", pull.sha, "--", f"submissions/{sid}/predictions/")
    return max(1, len(listed.stdout.splitlines())) if listed.returncode == 0 else 1


def _extract(root: Path, pull: OpenPull, sid: str, into: Path) -> Path | None:
    """submissions/<sid> of the pull request's head, extracted as data (never run), or None."""
    archive = _git(root, "archive", "--format=tar", pull.sha, f"submissions/{sid}")
    if archive.returncode != 0:
        return None
    target = into / str(pull.number)
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=False, timeout=300)
    folder = target / "submissions" / sid
    if not folder.is_dir() or any(p.is_symlink() for p in folder.rglob("*")):
        return None
    return folder


def open_copies(
    rows: list[RowFacts],
    event: dict[str, Any],
    base: Path,
    data_dir: Path | None,
    others: list[RowFacts] | None = None,
    head: Path | None = None,
) -> list[str]:
    """What the site would say of this pull request's rows (`rows`) and another open pull request's, were both
    merged: one line per verdict of either that names the other (see the module docstring). `others` are the
    base branch's rows (the merged state's), `head` the pull request's submissions folder (its files' hashes)."""
    if not rows or not event:
        return []
    try:
        pulls = open_pull_requests(event)
    except (OSError, ValueError, KeyError):
        return ["the open pull requests could not be read from GitHub's API: not compared with them"]
    if not pulls:
        return []
    base_sha = str(((event.get("pull_request") or {}).get("base") or {}).get("sha") or "HEAD")
    root = Path(os.path.abspath(base)).parent
    read, unread = pulls[:OPEN_PULLS_BUDGET], pulls[OPEN_PULLS_BUDGET:]
    _fetch(root, read)
    mine = _my_files(rows, head)
    lines: list[str] = []
    chosen: list[tuple[OpenPull, list[str]]] = []
    skipped = [pull.number for pull in unread]
    spent = 0
    for pull in read:
        changed = _their_files(root, pull, base_sha)
        new_answers = []
        for sid, files in sorted(changed.items()):
            same = [(path, mine[blob]) for path, blob in sorted(files.items()) if blob in mine]
            lines += [
                f"#{pull.number}'s {sid}/{path} is byte for byte this pull request's {where}: the same answers "
                "(compared by hash, not re-scored)"
                for path, where in same
            ]
            if any(path.startswith("predictions/") and blob not in mine for path, blob in files.items()):
                new_answers.append(sid)
        if not new_answers:
            continue
        if spent >= OPEN_RUNS_BUDGET:
            skipped.append(pull.number)
            continue
        cost = sum(_runs_in(root, pull, sid) for sid in new_answers)
        if spent + cost > OPEN_RUNS_BUDGET:
            skipped.append(pull.number)
            continue
        spent += cost
        chosen.append((pull, new_answers))
    lines += _decided_with(rows, others or [], chosen, root, data_dir)
    if skipped:
        lines.append(
            f"not compared (the summary reads at most {OPEN_PULLS_BUDGET} open pull requests and re-scores at most "
            f"{OPEN_RUNS_BUDGET} of their runs, the oldest first; the copy rule compares every row when it lands): "
            + ", ".join(f"#{n}" for n in sorted(skipped))
        )
    return list(dict.fromkeys(lines))


def _my_files(rows: list[RowFacts], head: Path | None) -> dict[str, str]:
    """blob id -> `sid/path` of each of this pull request's prediction files."""
    found: dict[str, str] = {}
    for row in rows:
        for run in row.provenance:
            name = f"{row.submission_id}/{run.get('file')}"
            path = None if head is None else head / name
            if path is not None and path.is_file():
                found.setdefault(blob_id(path.read_bytes()), name)
    return found


def _decided_with(
    rows: list[RowFacts],
    base_rows: list[RowFacts],
    chosen: list[tuple[OpenPull, list[str]]],
    root: Path,
    data_dir: Path | None,
) -> list[str]:
    """`decide` on the merged state with the chosen open pull requests' rows landed after this one's, each branched
    from the base branch before this one lands (`forked_at`): the copy rule treats them as open at once, as they
    are. The lines are every verdict of a row of either side that names a row of the other."""
    if not chosen:
        return []
    mine_ids = {row.id for row in rows}
    kept = [r for r in base_rows if r.id not in mine_ids]
    landed = max((r.landing or 0 for r in kept), default=0)
    here = landed + 1
    ours = [
        dataclasses.replace(
            row, submission_id=f"this pull request's {row.submission_id}", landing=here, forked_at=landed
        )
        for row in rows
    ]
    theirs: list[RowFacts] = []
    owners: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="neghub-open-") as folder:
        for k, (pull, sids) in enumerate(chosen, 1):
            login = pull.author or f"the author of #{pull.number}"
            account = Account(f"github:{login.lower()}", f"@{login}")
            for sid in sids:
                extracted = _extract(root, pull, sid, Path(folder))
                if extracted is None:
                    continue
                for row in collect_submission(extracted, data_dir, benchmark_names()).rows:
                    name = f"#{pull.number}'s {sid}"
                    owners[name] = pull.number
                    if row.kind != "verified":  # a rule row computed on its row's own items (SCN's triplets)
                        own = None if row.reference_for is None else f"open/{pull.number}/{row.reference_for}"
                        theirs.append(dataclasses.replace(row, id=f"open/{pull.number}/{row.id}", reference_for=own))
                        continue
                    theirs.append(
                        dataclasses.replace(
                            row,
                            id=f"open/{pull.number}/{row.id}",
                            submission_id=name,
                            account=account,
                            landing=here + k,
                            landing_words=f"open pull request #{pull.number}",
                            forked_at=landed,
                            maintainers_run=False,
                            # not NegHub's run: listed, never ranked (no paired test is run for it)
                            record=None,
                        )
                    )
    file = decide([*kept, *ours, *theirs], Context(HistoryEntry(recorded=True, words="")))
    our_names = {row.submission_id or "" for row in ours}
    lines = []
    for entry in file.rows:
        name = entry.submission or ""
        if name in our_names:
            other_names = list(owners)
        elif name in owners:
            other_names = list(our_names)
        else:
            continue
        for words in _verdict_texts(entry):
            if any(other in words for other in other_names):
                lines.append(f"were both merged, the site would say of {name} ({entry.model}): {words}")
    return lines


def _verdict_texts(entry: RowEntry) -> list[str]:
    texts = [f"held: {hold.reason}" for hold in entry.holds]
    if entry.why and not any(hold.reason in entry.why for hold in entry.holds):
        texts.append(f"{'shown once' if entry.status == 'duplicate' else 'not ranked'}: {entry.why}")
    texts += [f"also submitted by {who}" for who in entry.also_submitted_by]
    texts += list(entry.marks)
    return texts


def main(argv: list[str]) -> int:
    args = list(argv)
    out = event_path = None
    if "-o" in args:
        i = args.index("-o")
        out = args[i + 1] if i + 1 < len(args) else None
        del args[i : i + 2]
    if "--event" in args:
        i = args.index("--event")
        event_path = args[i + 1] if i + 1 < len(args) else None
        del args[i : i + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    event = json.loads(Path(event_path).read_text(encoding="utf-8")) if event_path else None
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    try:
        text = summary(Path(args[0]), Path(args[1]), event, Path(data_dir) if data_dir else None)
    except InputError as error:  # one line per problem, the fix named; the check fails with exit code 2
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return 2
    if out:
        with open(out, "a", encoding="utf-8") as handle:  # $GITHUB_STEP_SUMMARY is appended to
            handle.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
