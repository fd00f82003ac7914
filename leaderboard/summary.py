"""The pull-request summary: every verdict the merged site will print of a pull request's submissions.

`python -m neghub.leaderboard.summary HEAD_SUBMISSIONS BASE_SUBMISSIONS [--event EVENT_JSON] [-o FILE]`
(run by `nox -s submission_summary` in submission.yml).

The summary computes with the order and identity the merged build will: the base branch's history (its landings
and accounts, history.py), and the pull request's new and changed submissions landing after all of them, as its
merge commit, by the account that opened it (the event's `pull_request.user.login`: the pull-request check holds
`submitter.github` equal to it). The verdicts are read from the leaderboard file `verdicts.decide` returns for that
merged state, with the base branch's reproduction records and clearances; so the summary and the merged site agree
on every row. It also compares the pull request's rows with those of every other open pull request, opened before
or after it: two rows that answer alike beyond chance are named together, neither as the copy (a pull request's
number says when it was opened, not when its answers were pushed: a placeholder opened first can take a copy of a
later one's answers by a force-push), and whichever lands later is held as the copy on the site; the maintainers
read which answers were pushed first in the two pull requests' timelines. Cells are escaped: model names come
from the pull request and are untrusted text; no cell is cut.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from ..evaluator.core.registry import get_benchmark
from .board_file import LeaderboardFile, RowEntry
from .collect import collect, collect_submission
from .copies import agreement, is_copy
from .facts import RowFacts
from .history import History, Landing, read_history, shown_of
from .pull_request import changed_ids, folders_differ
from .verdicts import answered_of, shown

API_ENV = "GITHUB_API_URL"
TOKEN_ENV = "GITHUB_TOKEN"
DEFAULT_API = "https://api.github.com"
CHANGED_SHOWN = 30  # rows of other submissions listed, then a count: a summary stays readable on a full board


def cell(text: object) -> str:
    """Untrusted text as an inert Markdown table cell (never cut)."""
    return re.sub(r"[\\`*_{}\[\]<>()#+!|~-]", lambda m: "\\" + m.group(0), str(text).replace("\n", " "))


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
        parts.append(f"claimed rank {rank}, not reproduced" if entry.claimed else f"ranked {rank}")
    elif entry.status == "duplicate" and entry.duplicate_of is not None:
        standing = entries[entry.duplicate_of]
        # the site shows the row once, as the standing row, which names this submission among "also submitted by"
        also = [who for who in standing.also_submitted_by if who.endswith(f"({entry.submission})")]
        parts.append(
            f"shown once, as {standing.submission}'s row (the same model, the same answers)"
            + "".join(f", which reads: also submitted by {who}" for who in also[:1])
        )
    else:
        parts.append({"held": "held", "unranked": "not ranked"}.get(entry.status, entry.status))
    parts += [f"held: {hold.reason}" for hold in entry.holds]
    if entry.status == "unranked" and entry.why:
        parts.append(entry.why)
    parts += [f"cleared: {words}" for words in entry.cleared]
    parts += [f"also submitted by {who}" for who in entry.also_submitted_by]
    parts += list(entry.marks)
    if entry.floor:
        parts.append(f"against the floor: {entry.floor}")
    if entry.verdict:
        parts.append(f"verdict: {entry.verdict}")
    parts.append(f"trust: {entry.trust} ({entry.reproduction or 'not reproduced'})")
    return "; ".join(parts)


def summary(head: Path, base: Path, event: dict[str, Any] | None = None, data_dir: Path | None = None) -> str:
    ids = changed_ids(head, base)
    if not ids:
        return "## NegHub submissions\n\nNo submission is new or changed.\n"
    event = event or {}
    repository = Path(os.path.abspath(base)).parent
    base_history = read_history(base)
    history = merged_history(base_history, ids, event, head, base)
    records, clearances = repository / "reproductions", repository / "clearances.yaml"
    merged = collect(head, data_dir=data_dir, history=history, reproductions_dir=records, clearances_file=clearances)
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
            f"| {cell(entry.submission)} | {cell(entry.model)} | {cell(row.key.title)} | {row.n_runs} | {value} "
            f"| {cell(top_words)} | {cell(verdict_words(entry, merged.file))} |"
        )
    changed = [] if current is None else _changed_elsewhere(current.file, merged.file, set(ids))
    if changed:
        lines += ["", "### Rows of other submissions whose verdict this merge changes", ""]
        lines += [f"- {cell(words)}" for words in changed[:CHANGED_SHOWN]]
        if len(changed) > CHANGED_SHOWN:
            lines.append(f"- … and {len(changed) - CHANGED_SHOWN} more rows")
    for note in (n for n in merged.notes if n.submission in ids):
        lines += ["", f"**{cell(note.submission)}** {note.level}: " + "; ".join(cell(m) for m in note.messages[:10])]
    alike = open_copies([r for r in merged.facts if r.submission_id in ids], event, base, data_dir)
    if alike:
        lines += ["", "### Other open pull requests", ""]
        lines += [f"- {cell(words)}" for words in alike]
    return "\n".join(lines) + "\n"


# --- open pull requests ------------------------------------------------------------------------------------


def _api_get(url: str) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.github+json"})
    token = os.environ.get(TOKEN_ENV)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read().decode("utf-8"))


def open_pull_requests(event: dict[str, Any]) -> list[tuple[int, str]]:
    """(number, head sha) of every other open pull request of the repository."""
    pull = event.get("pull_request") or {}
    number = int(pull.get("number") or 0)
    repo = ((pull.get("base") or {}).get("repo") or {}).get("full_name")
    if not number or not repo:
        return []
    api = os.environ.get(API_ENV) or DEFAULT_API
    found = []
    for page in range(1, 51):
        batch = _api_get(f"{api}/repos/{repo}/pulls?state=open&per_page=100&page={page}")
        if not batch:
            break
        found += [(int(p["number"]), str(p["head"]["sha"])) for p in batch if int(p["number"]) != number]
    return sorted(found)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=300, check=False)


def _their_submissions(root: Path, number: int, sha: str, base_sha: str, into: Path) -> list[Path]:
    """The submission folders open pull request #number adds or changes, extracted into `into` (data only)."""
    fetched = _git(root, "fetch", "--no-tags", "origin", f"+refs/pull/{number}/head:refs/neghub/pull/{number}")
    if fetched.returncode != 0:
        return []
    names = _git(root, "diff", "--name-only", "--diff-filter=AM", base_sha, sha, "--", "submissions/")
    if names.returncode != 0:
        return []
    ids = sorted({line.split("/")[1] for line in names.stdout.decode().splitlines() if line.count("/") >= 2})
    folders = []
    for sid in ids:
        archive = _git(root, "archive", "--format=tar", sha, f"submissions/{sid}")
        if archive.returncode != 0:
            continue
        target = into / str(number)
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=False, timeout=300)
        folder = target / "submissions" / sid
        if folder.is_dir() and not any(p.is_symlink() for p in folder.rglob("*")):
            folders.append(folder)
    return folders


def open_copies(rows: list[RowFacts], event: dict[str, Any], base: Path, data_dir: Path | None) -> list[str]:
    """One line per row of this pull request that answers alike beyond chance with a row of another open pull
    request (see the module docstring)."""
    if not rows or not event:
        return []
    try:
        others = open_pull_requests(event)
    except (OSError, ValueError, KeyError):
        return ["the open pull requests could not be read from GitHub's API: not compared with them"]
    base_sha = str(((event.get("pull_request") or {}).get("base") or {}).get("sha") or "HEAD")
    root = Path(os.path.abspath(base)).parent
    lines = []
    from ..evaluator.core.registry import benchmark_names

    with tempfile.TemporaryDirectory(prefix="neghub-open-") as folder:
        for number, sha in others:
            for sub_dir in _their_submissions(root, number, sha, base_sha, Path(folder)):
                theirs = collect_submission(sub_dir, data_dir, benchmark_names()).rows
                for mine in rows:
                    lines += _copies_of(mine, theirs, number)
    return lines


def _copies_of(mine: RowFacts, theirs: list[RowFacts], number: int) -> list[str]:
    found_lines = []
    first = answered_of(mine)
    if first is None or mine.kind != "verified":
        return []
    for other in theirs:
        if other.kind != "verified" or other.key.release_key() != mine.key.release_key():
            continue
        second = answered_of(other)
        if second is None:
            continue
        found = agreement(first, second)
        if is_copy(found):
            found_lines.append(
                f"{mine.submission_id} ({mine.model}) and {other.submission_id} ({other.model}) of open pull request "
                f"#{number} answer alike beyond chance: {found.words}. Whichever lands later is held as a copy of the "
                f"other: merge first the pull request whose answers were pushed first (its timeline's commits and "
                "force-pushes; its number says only when it was opened)"
            )
    return found_lines


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
    text = summary(Path(args[0]), Path(args[1]), event, Path(data_dir) if data_dir else None)
    if out:
        with open(out, "a", encoding="utf-8") as handle:  # $GITHUB_STEP_SUMMARY is appended to
            handle.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
