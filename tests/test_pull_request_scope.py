"""A submission's pull request changes its one folder and nothing else (issue 32 items 5 and 7).

The pull-request check reads the leaderboard's data; what a pull request changes elsewhere reaches main's next build
unread: a root `.gitattributes` re-encoding `mkdocs.yml`, a `site/overrides/main.html` printing a made-up leader,
`mkdocs.yml` itself. A pull request that adds or changes a submission therefore changes nothing outside
`submissions/<its one folder>/`; anything else makes it a code change, which the check refuses to pass as a
submission, one line per path saying why. The maintainers' pull requests may change more (they review code changes).
CODEOWNERS gives every path outside `submissions/` an owner.

Each attack is a pull request GitHub could receive (tests/test_attacks_round2.py: open_pull_request runs the check
as submission.yml runs it, on the base branch's checkout and the pull request's).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.histories import hub_model, jnli_run, submission
from tests.test_attacks_round2 import open_pull_request, write
from tests.test_evidence_attacks import honest_main, model

ROOT = Path(__file__).resolve().parent.parent
Split = tuple[list[int], list[str]]
OUTSIDE = "outside the submission's folder"


def own(split: Split) -> dict[str, str | bytes | None]:
    """Mallory's valid submission: a new folder of her own account."""
    return submission(
        "mallory-60", hub_model("Mallory 60", "mallory/m", "8" * 40), "mallory", [jnli_run(model(split, 0.6, 60))]
    )


@pytest.mark.parametrize(
    ("path", "content"),
    [
        (".gitattributes", "mkdocs.yml working-tree-encoding=UTF-16LE\n"),
        ("site/overrides/main.html", "{% extends 'base.html' %}{% block content %}Leader: Mallory 60{% endblock %}\n"),
        ("mkdocs.yml", "site_name: NegHub\nhooks: [scripts/mine.py]\n"),
    ],
    ids=["root-gitattributes", "site-override", "mkdocs-yml"],
)
def test_a_valid_submission_with_a_change_to_the_build_is_refused_naming_the_path(
    tmp_path: Path, split: Split, path: str, content: str
) -> None:
    main, _ = honest_main(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 2, "mallory", write({**own(split), path: content}))
    assert len(pull.problems) == 1, pull.problems
    (problem,) = pull.problems
    assert problem.startswith(f"{path}: ") and "code change" in problem, problem


def test_the_same_submission_alone_passes(tmp_path: Path, split: Split) -> None:
    main, _ = honest_main(tmp_path, split)
    assert open_pull_request(main, tmp_path, 2, "mallory", write(own(split))).problems == []


def test_a_gitattributes_aimed_at_another_accounts_folder_is_refused_for_what_it_is(
    tmp_path: Path, split: Split
) -> None:
    """Mallory's .gitattributes inside Alice's folder re-encodes Alice's metadata on checkout: refused because a
    pull request adds no .gitattributes and does not touch another account's folder, not for an account that
    seems to change."""
    main, _ = honest_main(tmp_path, split)
    files = {**own(split), "submissions/alice-55/.gitattributes": "metadata.yaml working-tree-encoding=UTF-16LE\n"}
    pull = open_pull_request(main, tmp_path, 2, "mallory", write(files))
    assert pull.problems, "refused"
    assert not any("keeps the account that landed it" in p for p in pull.problems), pull.problems
    assert any(
        p.startswith("submissions/alice-55/.gitattributes: ") and "how git checks out" in p for p in pull.problems
    )


def test_a_pull_request_of_two_submission_folders_is_refused(tmp_path: Path, split: Split) -> None:
    """Item 5: one pull request, one submission folder (a pull request of three folders held three honest rows)."""
    main, _ = honest_main(tmp_path, split)
    second = submission(
        "mallory-61", hub_model("Mallory 61", "mallory/n", "9" * 40), "mallory", [jnli_run(model(split, 0.6, 61))]
    )
    pull = open_pull_request(main, tmp_path, 2, "mallory", write({**own(split), **second}))
    assert len(pull.problems) == 1 and "one submission folder" in pull.problems[0], pull.problems
    assert "mallory-60" in pull.problems[0] and "mallory-61" in pull.problems[0]


def test_a_maintainers_pull_request_may_not_change_code_beside_a_submission(tmp_path: Path, split: Split) -> None:
    """The verdict is the default branch's code's: code merged beside the data would judge it otherwise once merged,
    unread; a maintainer opens the code change as its own pull request (issue 38 item 2)."""
    main, _ = honest_main(tmp_path, split)
    main.push("The maintainers", {".github/MAINTAINERS": "a-maintainer\n"})
    files = {
        **submission(
            "fix-60", hub_model("Fix", "org/fix", "7" * 40), "a-maintainer", [jnli_run(model(split, 0.6, 62))]
        ),
        "mkdocs.yml": "site_name: NegHub\n",
    }
    problems = open_pull_request(main, tmp_path, 2, "a-maintainer", write(files)).problems
    assert len(problems) == 1 and problems[0].startswith("mkdocs.yml: ") and "code change" in problems[0], problems


def test_without_a_git_checkout_the_trees_are_compared_whole(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import changed_paths

    head, base = tmp_path / "head", tmp_path / "base"
    for root in (head, base):
        (root / "submissions" / "x").mkdir(parents=True)
        (root / "submissions" / "x" / "metadata.yaml").write_text("a: 1\n", encoding="utf-8")
        (root / "mkdocs.yml").write_text("site_name: NegHub\n", encoding="utf-8")
    (head / "mkdocs.yml").write_text("site_name: Mine\n", encoding="utf-8")
    (head / "site").mkdir()
    (head / "site" / "new.html").write_text("x", encoding="utf-8")
    (base / "README.md").write_text("x", encoding="utf-8")
    assert changed_paths(head, base, {}) == ["README.md", "mkdocs.yml", "site/new.html"]


# --- CODEOWNERS: every path outside submissions/ has an owner --------------------------------------------------------


def _codeowners(text: str) -> list[tuple[str, list[str]]]:
    lines = text.splitlines()
    return [(line.split()[0], line.split()[1:]) for line in lines if line.strip() and not line.startswith("#")]


def test_codeowners_of_a_deployment_gives_every_path_outside_submissions_an_owner(tmp_path: Path) -> None:
    """CODEOWNERS as a deployment generates it from its .github/MAINTAINERS (the repository ships none)."""
    from neghub.leaderboard.deployment import codeowners

    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "MAINTAINERS").write_text("# ours\nalice\nbob\n", encoding="utf-8")
    rules = _codeowners(codeowners(tmp_path))
    assert rules[0] == ("*", ["@alice", "@bob"]), "the first rule owns everything"
    assert rules[0][0] == "*" and rules[0][1], "the first rule owns everything"
    # every file of the tree (a clone or an unpacked sdist, which has no git), but what builds and tools leave
    left_by_tools = {".git", ".nox", ".venv", "build", "public", "__pycache__", ".mypy_cache", ".ruff_cache"}
    tracked = [
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.is_file() and not left_by_tools.intersection(path.relative_to(ROOT).parts)
    ]
    paths = [*tracked, ".gitattributes", "mkdocs.yml", "site/overrides/main.html", "docs/x.md", "tests/x.py"]
    for path in paths:
        owners = _owners_of(rules, path)
        if path.startswith("submissions/"):
            assert owners == [], path
        else:
            assert owners, path


def _owners_of(rules: list[tuple[str, list[str]]], path: str) -> list[str]:
    """GitHub's reading: the last matching rule wins (patterns here: `*`, /file, /folder/)."""
    found: list[str] = []
    for pattern, owners in rules:
        folder = pattern.endswith("/") and ("/" + path).startswith(pattern)
        if pattern == "*" or folder or "/" + path == pattern:
            found = owners
    return found


def test_an_honest_branch_behind_main_is_not_read_as_changing_what_main_landed_since(
    tmp_path: Path, split: Split
) -> None:
    """Mallory's branch forked before Alice's row landed: her checkout lacks Alice's folder. GitHub's merge keeps
    it; the check reads what the pull request changes from git (BASE...HEAD), not from the two checkouts' difference,
    so it does not refuse her for "removing" Alice's folder."""
    from neghub.leaderboard.pull_request import all_problems
    from tests.histories import git

    # Alice's row without NegHub's re-run: the check compares reproductions/ from the two checkouts, so a record
    # landed on main after the fork would read as changed by the branch (pull_request.changed_records)
    main, _ = honest_main(tmp_path, split, rerun_alice=False)
    before_alice = git(main.root, "rev-parse", "HEAD^1").strip()
    git(main.root, "checkout", "-q", "-b", "behind", before_alice)
    write(own(split))(main.root)
    git(main.root, "commit", "-q", "-m", "mallory's submission")
    head = git(main.root, "rev-parse", "HEAD").strip()
    git(main.root, "checkout", "-q", "main")
    base_root, head_root = tmp_path / "base", tmp_path / "head"
    subprocess.run(["git", "clone", "-q", str(main.root), str(base_root)], check=True, timeout=120)
    subprocess.run(["git", "clone", "-q", str(main.root), str(head_root)], check=True, timeout=120)
    git(head_root, "checkout", "-q", head)
    event = {
        "pull_request": {
            "number": 2,
            "user": {"login": "mallory"},
            "changed_files": 2,
            "head": {"sha": head, "ref": "behind", "repo": {"full_name": "mallory/neghub"}},
            "base": {"sha": main.head(), "ref": "main", "repo": {"full_name": "neghub/neghub"}},
        }
    }
    assert not (head_root / "submissions" / "alice-55").exists()  # the set-up: her checkout lacks Alice's folder
    assert all_problems(event, head_root, base_root) == []
