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
        e["submission"]: (e["status"], tuple(h["kind"] for h in e["holds"]), e["rank"], e["claimed"])
        for e in entries
        if e["submission"] in ids and e["kind"] == "verified"
    }


def summary_file(head: Path, base: Path, event: dict[str, Any]) -> dict[str, Any]:
    """The leaderboard file the summary computes (what it prints is read from it)."""
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.history import read_history
    from neghub.leaderboard.pull_request import changed_ids
    from neghub.leaderboard.summary import merged_history

    ids = changed_ids(head / "submissions", base / "submissions")
    history = merged_history(read_history(base / "submissions"), ids, event)
    board = collect(
        head / "submissions",
        reproductions_dir=base / "reproductions",
        clearances_file=base / "clearances.yaml",
        history=history,
    )
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
    assert "held: Its answers copy those of alice\\-55" in line, line
    before = summary_file(tree, main.root, event)
    merge_branch(main, 5, "mallory")
    after = build(main.root).file()
    ids = {e["submission"] for e in after["rows"] if e["submission"]}
    assert verdicts(before["rows"], ids) == verdicts(after["rows"], ids)


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


def test_rows_of_two_open_pull_requests_that_answer_alike_are_named_together(
    tmp_path: Path, split: tuple[list[int], list[str]], github_api: type[_Pulls]
) -> None:
    main, answers = honest_main(tmp_path, split)
    base_sha = main.head()
    # Bob's pull request #4 is open; Mallory's #5 copies Bob's answers under another name
    bob_tree = pull_request_tree(
        main,
        4,
        "bob",
        submission("bob-57", hub_model("Bob 57", "org/bob", "3" * 40), "bob", [jnli_run(answers["bob"])]),
    )
    copy = changed(answers["bob"], split, 0.02, towards_gold=True)
    tree = pull_request_tree(
        main, 5, "mallory", submission("front", hub_model("Front", "mallory/f", "9" * 40), "mallory", [jnli_run(copy)])
    )
    # the base checkout's origin holds the open pull requests' heads, as GitHub's refs/pull/N/head
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(main.root), str(origin))
    for number, head in ((4, bob_tree), (5, tree)):
        git(origin, "fetch", "-q", str(head), f"+HEAD:refs/pull/{number}/head")
    checkout = tmp_path / "base-checkout"
    git(tmp_path, "clone", "-q", str(origin), str(checkout))
    shutil.rmtree(checkout / "submissions", ignore_errors=True)
    git(checkout, "checkout", "-q", base_sha, "--", ".")
    github_api.pulls = [
        {"number": 4, "head": {"sha": git(bob_tree, "rev-parse", "HEAD").strip()}},
        {"number": 5, "head": {"sha": git(tree, "rev-parse", "HEAD").strip()}},
    ]
    event = pull_event(5, "mallory", base_sha, git(tree, "rev-parse", "HEAD").strip())
    text = summary(tree / "submissions", checkout / "submissions", event)
    assert "front \\(Front\\) and bob\\-57 \\(Bob 57\\) of open pull request \\#4 answer alike beyond chance" in text, (
        text
    )
    assert "Whichever lands later is held as a copy of the other" in text
