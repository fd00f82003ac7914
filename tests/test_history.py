"""What GitHub recorded of each landing on main, read one way (leaderboard/history.py): a landing is GitHub's merge
commit of a pull request (two parents, the subject GitHub writes), or else the maintainers' push, whatever its
subject says.

Each test builds a small repository as GitHub grows main (tests/histories.py) and reads its history."""

from __future__ import annotations

from pathlib import Path

from neghub.leaderboard.history import read_history
from tests.histories import Main, hub_model, jnli_run, submission

ROW = submission("row", hub_model("Row", "org/row", "a" * 40), "carol", [jnli_run({0: "entailment"})])


def test_a_direct_push_whose_subject_names_a_pull_request_is_the_maintainers_push(tmp_path: Path) -> None:
    # a squash merge would write "Title (#7)" as its subject; the repository allows merge commits only, so a
    # single-parent commit on main is a push, whatever its subject claims
    main = Main.create(tmp_path / "repo")
    commit = main.push("Add row (#7)", ROW)
    history = read_history(main.root / "submissions")
    landing = history.submissions["row"]
    assert (landing.commit, landing.pull_request, landing.branch) == (commit, None, None)
    assert landing.words == f"pushed to main by the maintainers (commit {commit[:12]})"
    assert "merge commit" not in landing.words


def test_a_merge_commit_with_githubs_subject_is_the_pull_request(tmp_path: Path) -> None:
    main = Main.create(tmp_path / "repo")
    commit = main.merge(7, "carol", ROW, branch="add-row")
    landing = read_history(main.root / "submissions").submissions["row"]
    assert (landing.commit, landing.pull_request, landing.branch) == (commit, 7, "carol/add-row")
    assert landing.words == f"pull request #7 (merge commit {commit[:12]})"
