"""The pull-request summary says what the merged site will (leaderboard/summary.py).

Each scenario is a git history GitHub could produce: main as the base branch, a pull request's branch beside it. The
summary is computed from the base branch's checkout (its history) and the pull request's tree, as submission.yml
runs it; then the pull request is merged with GitHub's merge commit and the site is built from main. Every row's
verdict must be the same in both (status, holds, rank). Front-running: the summary of a copy of an earlier open
pull request's row names that pull request, read through GitHub's API (a server on 127.0.0.1) and `git fetch` of
its head (a local origin).
"""

from __future__ import annotations

import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from neghub.leaderboard.summary import summary
from tests.histories import Main, build, git, hub_model, jnli_run, submission
from tests.test_evidence_attacks import changed, honest_main, model


def pull_request_tree(main: Main, number: int, owner: str, files: dict[str, Any], base: str | None = None) -> Path:
    """The pull request's branch, from main's tip or `base`, checked out beside the repository (HEAD_ROOT)."""
    branch = f"pr-{number}"
    git(main.root, "branch", branch, base or "main")
    tree = main.root.parent / f"head-{number}"
    git(main.root, "worktree", "add", "-q", str(tree), branch)
    main_of_tree = Main(tree)
    main_of_tree.push(f"{owner}'s change", files)
    return tree


def merge_branch(main: Main, number: int, owner: str) -> None:
    git(
        main.root,
        "merge",
        "-q",
        "--no-ff",
        "-m",
        f"Merge pull request #{number} from {owner}/pr-{number}",
        f"pr-{number}",
    )


def pull_event(number: int, author: str, base_sha: str = "", head_sha: str = "") -> dict[str, Any]:
    return {
        "pull_request": {
            "number": number,
            "user": {"login": author},
            "author_association": "NONE",
            "head": {
                "ref": f"pr-{number}",
                "sha": head_sha,
                "repo": {"full_name": f"{author}/neghub", "owner": {"login": author}},
            },
            "base": {"ref": "main", "sha": base_sha, "repo": {"full_name": "neghub/neghub"}},
        }
    }


def verdicts(entries: list[dict[str, Any]], ids: set[str]) -> dict[str, tuple[Any, ...]]:
    return {
        e["submission"]: (e["status"], tuple(h["kind"] for h in e["holds"]), e["rank"], e["trust"])
        for e in entries
        if e["submission"] in ids and e["kind"] == "verified"
    }


def summary_file(head: Path, base: Path, event: dict[str, Any]) -> dict[str, Any]:
    """The leaderboard file the summary computes (what it prints is read from it)."""
    from neghub.leaderboard.summary import merged_board

    _, board, _ = merged_board(head / "submissions", base / "submissions", event)
    return json.loads(board.file.model_dump_json())


@pytest.mark.parametrize("scenario", ["backdated", "same-commit", "edit"])
def test_the_summary_and_the_merged_build_agree_on_every_row(
    tmp_path: Path, split: tuple[list[int], list[str]], scenario: str
) -> None:
    main, answers = honest_main(tmp_path, split)
    copy = changed(answers["alice"], split, 0.03, towards_gold=False)
    mallory = hub_model("Copy", "mallory/c", "7" * 40)
    if scenario == "backdated":
        files = submission("aaa-copy", mallory, "mallory", [jnli_run(copy)])
    elif scenario == "same-commit":
        files = {
            **submission("aaa-copy", mallory, "mallory", [jnli_run(copy)]),
            **submission(
                "zzz-own", hub_model("Own", "mallory/o", "6" * 40), "mallory", [jnli_run(model(split, 0.5, 9))]
            ),
        }
    else:
        main.merge(2, "mallory", submission("aaa-copy", mallory, "mallory", [jnli_run(model(split, 0.4, 8))]))
        files = {"submissions/aaa-copy/predictions/jnli-neg/run.jsonl": jnli_run(copy)[1]}
    tree = pull_request_tree(main, 5, "mallory", files)
    if scenario == "backdated":
        git(tree, "commit", "-q", "--amend", "--no-edit", "--date=2024-01-01T00:00:00Z")
    event = pull_event(5, "mallory")
    text = summary(tree / "submissions", main.root / "submissions", event)
    (line,) = [row for row in text.splitlines() if row.startswith("| aaa\\-copy")]
    # rules version 5: a submitted row ranks nothing until NegHub runs it; what the summary says, the site says
    assert "listed, not ranked" in line and "queue position" in line, line
    before = summary_file(tree, main.root, event)
    merge_branch(main, 5, "mallory")
    after = build(main.root).file()
    ids = {e["submission"] for e in after["rows"] if e["submission"]}
    assert verdicts(before["rows"], ids) == verdicts(after["rows"], ids)


def test_a_pull_request_branched_before_the_row_it_copies_landed_reads_as_the_merged_site(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    """Mallory's branch forked from main before Alice's row landed (the two pull requests open at once): the copy
    rule reads where each branch forked (history.py: the merge base of the merge commit's parents), so the summary
    lands the pull request with the same fork point, and its verdicts are the merged site's."""
    main, answers = honest_main(tmp_path, split)
    before_alice = git(main.root, "rev-parse", "HEAD^1").strip()  # main's first parent: NegHub's run alone
    copy = changed(answers["alice"], split, 0.03, towards_gold=False)
    files = submission("aaa-copy", hub_model("Copy", "mallory/c", "7" * 40), "mallory", [jnli_run(copy)])
    tree = pull_request_tree(main, 5, "mallory", files, base=before_alice)
    event = pull_event(5, "mallory")
    before = summary_file(tree, main.root, event)
    merge_branch(main, 5, "mallory")
    after = build(main.root).file()
    ids = {e["submission"] for e in after["rows"] if e["submission"]}
    assert verdicts(before["rows"], ids) == verdicts(after["rows"], ids)
    assert {e["submission"] for e in before["rows"] if e["submission"]} >= {"aaa-copy", "alice-55"}


class _Pulls(http.server.BaseHTTPRequestHandler):
    pulls: ClassVar[list[dict[str, Any]]] = []

    def do_GET(self) -> None:
        page = 1 if "page=1" in self.path or "page=" not in self.path else 2
        body = json.dumps(self.pulls if page == 1 else []).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def github_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_Pulls]]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pulls)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("GITHUB_API_URL", f"http://127.0.0.1:{server.server_address[1]}")
    try:
        yield _Pulls
    finally:
        server.shutdown()


def open_pulls(
    tmp_path: Path,
    main: Main,
    github_api: type[_Pulls],
    theirs: dict[int, tuple[str, dict[str, Any]]],
    mine: tuple[int, str, dict[str, Any]],
) -> tuple[Path, Path, dict[str, Any]]:
    """Open pull requests `theirs` (number -> author, files) and this one (`mine`), each branched from main's tip,
    their heads in the base checkout's origin as GitHub's refs/pull/N/head and listed by GitHub's API (a server on
    127.0.0.1). Returns this pull request's tree, the base checkout and the event."""
    base_sha = main.head()
    trees = {n: (author, pull_request_tree(main, n, author, files)) for n, (author, files) in theirs.items()}
    number, author, files = mine
    tree = pull_request_tree(main, number, author, files)
    trees[number] = (author, tree)
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(main.root), str(origin))
    for n, (_, head) in trees.items():
        git(origin, "fetch", "-q", str(head), f"+HEAD:refs/pull/{n}/head")
    checkout = tmp_path / "base-checkout"
    git(tmp_path, "clone", "-q", str(origin), str(checkout))
    shutil.rmtree(checkout / "submissions", ignore_errors=True)
    git(checkout, "checkout", "-q", base_sha, "--", ".")
    github_api.pulls = [
        {"number": n, "user": {"login": who}, "head": {"sha": git(head, "rev-parse", "HEAD").strip()}}
        for n, (who, head) in sorted(trees.items())
    ]
    return tree, checkout, pull_event(number, author, base_sha, git(tree, "rev-parse", "HEAD").strip())


def bob_and_front(split: tuple[list[int], list[str]], answers: dict[str, Any], share: float) -> tuple[Any, Any]:
    bob = submission("bob-57", hub_model("Bob 57", "org/bob", "3" * 40), "bob", [jnli_run(answers["bob"])])
    copy = changed(answers["bob"], split, share, towards_gold=True)
    front = submission("front", hub_model("Front", "mallory/f", "9" * 40), "mallory", [jnli_run(copy)])
    return bob, front


def test_an_open_pull_requests_identical_file_is_named_by_hash_without_re_scoring(
    tmp_path: Path, split: tuple[list[int], list[str]], github_api: type[_Pulls], monkeypatch: pytest.MonkeyPatch
) -> None:
    from neghub.leaderboard import summary as module

    main, answers = honest_main(tmp_path, split)
    bob, _ = bob_and_front(split, answers, 0.0)
    same = submission("front", hub_model("Front", "mallory/f", "9" * 40), "mallory", [jnli_run(answers["bob"])])
    tree, checkout, event = open_pulls(tmp_path, main, github_api, {4: ("bob", bob)}, (5, "mallory", same))

    def refuse(folder: Path, *args: Any) -> Any:
        raise AssertionError(f"re-scored {folder}: its file is identical by hash")

    real = module.collect_submission
    monkeypatch.setattr(
        module, "collect_submission", lambda f, *a: refuse(f) if "neghub-open-" in str(f) else real(f, *a)
    )
    text = summary(tree / "submissions", checkout / "submissions", event)
    assert (
        "\\#4's bob\\-57/predictions/jnli\\-neg/run.jsonl is byte for byte this pull request's "
        "front/predictions/jnli\\-neg/run.jsonl" in text
    ), text


def test_open_pull_requests_beyond_the_budget_are_named_as_not_compared(
    tmp_path: Path, split: tuple[list[int], list[str]], github_api: type[_Pulls], monkeypatch: pytest.MonkeyPatch
) -> None:
    from neghub.leaderboard import summary as module

    monkeypatch.setattr(module, "OPEN_RUNS_BUDGET", 1)
    main, answers = honest_main(tmp_path, split)
    bob, front = bob_and_front(split, answers, 0.02)
    carol = submission("carol", hub_model("Carol", "org/carol", "c" * 40), "carol", [jnli_run(model(split, 0.5, 31))])
    dan = submission("dan", hub_model("Dan", "org/dan", "d" * 40), "dan", [jnli_run(model(split, 0.5, 32))])
    theirs = {3: ("carol", carol), 4: ("bob", bob), 6: ("dan", dan)}
    tree, checkout, event = open_pulls(tmp_path, main, github_api, theirs, (5, "mallory", front))
    text = summary(tree / "submissions", checkout / "submissions", event)
    (line,) = [line for line in text.splitlines() if "not compared" in line]
    assert line.endswith("\\#4, \\#6"), line  # #3, the oldest, took the one run of the budget


# --- the summary is the merged site (issue 32 item 1) -------------------------------------------------------------


def test_a_folder_of_the_maintainers_rows_reads_also_submitted_by_in_the_summary_and_on_the_merged_site(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    """Alice submits NegHub's run's model with the same answers (her own run of it, as the Submit page shows),
    and one run of her own on another board: the merged site folds the first into NegHub's row ("also submitted
    by @alice"); the summary must print, row for row, the words the merged site's leaderboard file gives."""
    from neghub.leaderboard.board_file import LeaderboardFile
    from neghub.leaderboard.summary import cell, verdict_words
    from tests.test_evidence_attacks import MAINTAINED

    main, answers = honest_main(tmp_path, split)
    own = model(split, 0.52, 21)
    files = submission(
        "alice-maintained",
        MAINTAINED,
        "alice",
        [jnli_run(answers["maintained"]), jnli_run(own, file="one-shot.jsonl", shots=1)],
    )
    tree = pull_request_tree(main, 6, "alice", files)
    text = summary(tree / "submissions", main.root / "submissions", pull_event(6, "alice"))
    merge_branch(main, 6, "alice")
    site = LeaderboardFile.model_validate(build(main.root).file())
    mine = [e for e in site.rows if e.submission == "alice-maintained"]
    assert len(mine) == 2
    lines = [line for line in text.splitlines() if line.startswith("| alice\\-maintained |")]
    assert len(lines) == len(mine), text
    for entry in mine:
        words = verdict_words(entry, site)
        assert any(line.endswith(f"| {cell(words)} |") for line in lines), (words, lines)
    folded = next(e for e in mine if e.status == "duplicate")
    assert "also submitted by @alice (alice-maintained)" in verdict_words(folded, site)
