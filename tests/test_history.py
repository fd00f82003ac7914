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


# --- where a pull request's branch forked from main (Landing.forked_at) ------------------------------------------


def _positions(main: Main) -> dict[str, tuple[int, int | None]]:
    """Each landing's commit -> (its position, its fork point)."""
    return {
        landing.commit: (landing.position, landing.forked_at)
        for landing in read_history(main.root / "submissions").landings
    }


def test_two_pull_requests_open_at_once_fork_before_either_lands(tmp_path: Path) -> None:
    main = Main.create(tmp_path / "repo")  # position 1: the repository's first commit
    base = main.head()
    first = main.merge(1, "alice", {"alice.txt": "a"})  # position 2, branched from 1
    second = main.merge(2, "bob", {"bob.txt": "b"}, base=base)  # position 3, branched from 1 too: open at once
    assert _positions(main)[first] == (2, 1)
    assert _positions(main)[second] == (3, 1)  # forked before #1 landed (position 2)


def test_a_pull_request_branched_after_another_landed_forks_after_it(tmp_path: Path) -> None:
    main = Main.create(tmp_path / "repo")
    first = main.merge(1, "alice", {"alice.txt": "a"})  # position 2
    pushed = main.push("A maintainer's fix (#9)", {"fix.txt": "f"})  # position 3: a push, whatever its subject
    second = main.merge(2, "bob", {"bob.txt": "b"})  # position 4, branched from main's tip (3)
    positions = _positions(main)
    assert (positions[first], positions[pushed], positions[second]) == ((2, 1), (3, None), (4, 3))


def test_a_branch_forked_from_another_pull_requests_branch_forks_where_that_one_landed(tmp_path: Path) -> None:
    # Bob branches from Alice's branch before it lands: the merge base is Alice's commit, which main holds from her
    # merge commit (position 2) on: Bob's branch held her files, so it forked no earlier than her landing
    main = Main.create(tmp_path / "repo")
    main.merge(1, "alice", {"alice.txt": "a"}, branch="alice-row")  # position 2
    second = main.merge(2, "bob", {"bob.txt": "b"}, base="alice-row")  # position 3
    assert _positions(main)[second] == (3, 2)


def test_a_branch_updated_from_main_reads_as_forked_where_it_was_updated(tmp_path: Path) -> None:
    # what git cannot show: Bob's branch was opened before Alice's landed, then main was merged into it
    from tests.histories import git

    main = Main.create(tmp_path / "repo")
    git(main.root, "checkout", "-q", "-b", "bob-row", "main")
    (main.root / "bob.txt").write_text("b", encoding="utf-8")
    git(main.root, "add", "-A")
    git(main.root, "commit", "-q", "-m", "bob's row")
    git(main.root, "checkout", "-q", "main")
    main.merge(1, "alice", {"alice.txt": "a"})  # position 2
    git(main.root, "checkout", "-q", "bob-row")
    git(main.root, "merge", "-q", "--no-ff", "-m", "Merge branch 'main' into bob-row", "main")
    git(main.root, "checkout", "-q", "main")
    git(main.root, "merge", "-q", "--no-ff", "-m", "Merge pull request #2 from bob/bob-row", "bob-row")
    assert _positions(main)[main.head()] == (3, 2)  # not 1, where the branch was first opened


def test_a_row_carries_the_fork_point_of_the_pull_request_that_landed_it(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    from neghub.leaderboard.collect import collect

    ids, gold = split
    answers = dict(zip(ids, gold, strict=True))
    main = Main.create(tmp_path / "repo")
    base = main.head()
    main.push("NegHub's run", submission("pushed", hub_model("P", "org/p", "1" * 40), "neghub", [jnli_run(answers)]))
    main.merge(1, "alice", submission("alice", hub_model("A", "org/a", "2" * 40), "alice", [jnli_run(answers)]))
    bob = submission("bob", hub_model("B", "org/b", "3" * 40), "bob", [jnli_run(answers)])
    main.merge(2, "bob", bob, base=base)
    rows = {r.submission_id: r for r in collect(main.root / "submissions", reported=False).rows if r.kind == "verified"}
    assert {sid: (row.landing, row.forked_at) for sid, row in rows.items()} == {
        "pushed": (2, None),
        "alice": (3, 2),
        "bob": (4, 1),
    }
    # the number GitHub's merge subject gives, which dates a pull request's opening (answer_rules._open_together)
    assert {sid: row.pull_request for sid, row in rows.items()} == {"pushed": None, "alice": 1, "bob": 2}
