"""NegHub's runs bound to their answers, and the maintainers named in one file (issue 32 item 4).

A NegHub run's trust is bound to its prediction files and what its row shows as the maintainers (a direct push) or
the gpu-eval workflow landed them: a later change by anyone else makes it not NegHub's run, and the pull-request
check refuses a pull request that makes one (the workflows' own branches excepted). "Maintainer" is the list of
accounts in .github/MAINTAINERS on the base branch; GitHub's `author_association` (an organisation's MEMBER, a
COLLABORATOR) decides nothing.

Each attack is a git history GitHub could have produced (tests/histories.py), the check run as submission.yml runs
it (tests/test_attacks_round2.py: open_pull_request), then the pull request merged all the same and the site read
as a reader reads it: the check refusing is one defence, the site not trusting the result is the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.histories import build, clearances_yaml, jnli_run
from tests.test_attacks_round2 import entry, land, open_pull_request, write
from tests.test_evidence_attacks import honest_main, model

ROOT = Path(__file__).resolve().parent.parent
Split = tuple[list[int], list[str]]
NEGHUB_RUN = "submissions/maintained/predictions/jnli-neg/run.jsonl"


def maintainers_file(*logins: str) -> dict[str, str | bytes | None]:
    return {".github/MAINTAINERS": "# the maintainers of the tests' repository\n" + "".join(f"{x}\n" for x in logins)}


# --- the attack: an organisation member who is not a maintainer changes NegHub's run -----------------------------


@pytest.mark.parametrize("what", ["prediction-file", "metadata-shown"])
def test_a_members_pull_request_cannot_change_neghubs_run_and_keep_its_trust(
    tmp_path: Path, split: Split, what: str
) -> None:
    """Mallory is a MEMBER of the organisation (author_association) but not a maintainer. Her pull request writes
    90 % right answers into NegHub's run's prediction file (or renames the row's model): the check refuses it, and
    merged all the same, the row is no longer "run by NegHub" and does not lead."""
    main, _ = honest_main(tmp_path, split)
    main.push("The maintainers", maintainers_file("a-maintainer"))
    if what == "prediction-file":
        files: dict[str, str | bytes | None] = {NEGHUB_RUN: jnli_run(model(split, 0.90, 77))[1]}
    else:
        path = main.root / "submissions" / "maintained" / "metadata.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["model"]["name"] = "Maintained 70 XL"
        files = {"submissions/maintained/metadata.yaml": yaml.safe_dump(data, sort_keys=False)}
    pull = open_pull_request(main, tmp_path, 2, "mallory", write(files), member=True)
    assert any(p.startswith("submissions/maintained: ") and "NegHub's run" in p for p in pull.problems), pull.problems
    land(main, pull)
    site = build(main.root)
    row = entry(site, "maintained")
    assert row["trust"] != "neghub-run", row
    assert "run by NegHub" not in site.leader("JNLI-Neg"), site.leader("JNLI-Neg")


def test_neghubs_run_fixed_again_by_the_maintainers_push_is_neghubs_run(tmp_path: Path, split: Split) -> None:
    """The maintainers' own push after such a merge lands the files as they vouch for them: NegHub's run again."""
    main, answers = honest_main(tmp_path, split)
    main.merge(2, "mallory", {NEGHUB_RUN: jnli_run(model(split, 0.90, 77))[1]})
    assert entry(build(main.root), "maintained")["trust"] != "neghub-run"
    main.push("Restore NegHub's run", {NEGHUB_RUN: jnli_run(answers["maintained"])[1]})
    assert entry(build(main.root), "maintained")["trust"] == "neghub-run"


def test_the_gpu_eval_workflows_own_pull_request_may_change_neghubs_run(tmp_path: Path, split: Split) -> None:
    from neghub.leaderboard.pull_request import DEFAULT_BOT

    main, _ = honest_main(tmp_path, split)
    pull = open_pull_request(
        main,
        tmp_path,
        2,
        DEFAULT_BOT,
        write({NEGHUB_RUN: jnli_run(model(split, 0.71, 5))[1]}),
        branch="gpu-eval/maintained",
    )
    pull_event = _event_of(pull, repository="neghub/neghub")
    from neghub.leaderboard.pull_request import all_problems

    assert all_problems(pull_event, pull.head_root, pull.base_root) == []


def _event_of(pull: Any, repository: str) -> dict[str, Any]:
    """The event of a pull request from a branch of the repository itself (the workflows' own)."""
    from tests.histories import git

    files = len(git(pull.base_root, "diff", "--name-only", f"{pull.base}...{pull.head}").split())
    return {
        "pull_request": {
            "number": pull.number,
            "user": {"login": pull.owner},
            "author_association": "NONE",
            "changed_files": files,
            "head": {"sha": pull.head, "ref": pull.branch, "repo": {"full_name": repository}},
            "base": {"sha": pull.base, "ref": "main", "repo": {"full_name": repository}},
        }
    }


# --- maintainers: the list on the base branch, never author_association ---------------------------------------------


def _clearance_pull(tmp_path: Path, split: Split, author: str, member: bool, head_maintainers: bool = False) -> Any:
    main, _ = honest_main(tmp_path, split)
    main.push("The maintainers", maintainers_file("a-maintainer"))
    files: dict[str, str | bytes | None] = {
        "clearances.yaml": clearances_yaml("alice-55", ["above-published-best"], author, "2026-11-28", "reviewed")
    }
    if head_maintainers:
        files.update(maintainers_file("a-maintainer", author))
    return open_pull_request(main, tmp_path, 2, author, write(files), member=member)


def test_an_organisation_member_who_is_not_a_maintainer_cannot_clear(tmp_path: Path, split: Split) -> None:
    pull = _clearance_pull(tmp_path, split, "mallory", member=True)
    assert any(p.startswith("clearances.yaml: ") and "maintainer" in p for p in pull.problems), pull.problems


def test_a_pull_request_that_lists_its_author_as_a_maintainer_does_not_make_one(tmp_path: Path, split: Split) -> None:
    pull = _clearance_pull(tmp_path, split, "mallory", member=True, head_maintainers=True)
    assert any(p.startswith("clearances.yaml: ") for p in pull.problems), pull.problems


def test_a_listed_maintainer_clears_whatever_github_calls_them(tmp_path: Path, split: Split) -> None:
    pull = _clearance_pull(tmp_path, split, "a-maintainer", member=False)
    assert pull.problems == []


def test_a_listed_maintainer_may_change_another_accounts_folder_a_member_may_not(tmp_path: Path, split: Split) -> None:
    main, answers = honest_main(tmp_path, split)
    main.push("The maintainers", maintainers_file("a-maintainer"))
    fix = write({"submissions/alice-55/predictions/jnli-neg/run.jsonl": jnli_run(answers["alice"])[1] + "\n"})
    member = open_pull_request(main, tmp_path, 2, "mallory", fix, member=True, branch="member-fix")
    assert any(p.startswith("submissions/alice-55: landed by alice") for p in member.problems), member.problems
    maintainer = open_pull_request(main, tmp_path, 3, "a-maintainer", fix, branch="maintainer-fix")
    assert maintainer.problems == []


def test_the_repository_ships_no_maintainer_and_codeowners_is_generated_from_the_file() -> None:
    """No placeholder account (a name nobody holds is anyone's to register): MAINTAINERS holds comments only, and
    CODEOWNERS is what `deployment codeowners` makes of it (issue 38 item 1)."""
    from neghub.leaderboard.deployment import codeowners
    from neghub.leaderboard.pull_request import MAINTAINERS_FILE, maintainers_problems, read_maintainers

    assert maintainers_problems(ROOT) == []
    assert read_maintainers(ROOT) == frozenset()
    assert (ROOT / ".github" / "CODEOWNERS").read_text(encoding="utf-8") == codeowners(ROOT)
    # the file itself is the maintainers' to change
    assert f"/{MAINTAINERS_FILE}" in _codeowners_paths() or "/.github/" in _codeowners_paths()


def test_codeowners_names_exactly_the_maintainers_a_deployment_lists(tmp_path: Path) -> None:
    from neghub.leaderboard.deployment import codeowners

    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "MAINTAINERS").write_text("# ours\nAlice  # lead\nbob\n", encoding="utf-8")
    owners = set()
    for line in codeowners(tmp_path).splitlines():
        if line.strip() and not line.startswith("#"):
            owners |= {owner.lstrip("@").lower() for owner in line.split()[1:]}
    assert owners == {"alice", "bob"}


def test_no_placeholder_account_is_named_anywhere() -> None:
    """The placeholder of issue 38 appears nowhere in the repository (its tests included, but for this line)."""
    placeholder = "neghub-" + "maintainer"
    skip = {".git", ".nox", ".venv", "build", "public", "__pycache__", ".mypy_cache", ".ruff_cache", "node_modules"}
    for path in ROOT.rglob("*"):
        if path.is_file() and not skip.intersection(path.relative_to(ROOT).parts) and path.stat().st_size < 5_000_000:
            assert placeholder not in path.read_text(encoding="utf-8", errors="replace"), path


def _codeowners_paths() -> set[str]:
    lines = (ROOT / ".github" / "CODEOWNERS").read_text(encoding="utf-8").splitlines()
    return {line.split()[0] for line in lines if line.strip() and not line.startswith("#")}


def test_no_check_reads_author_association() -> None:
    for name in ("pull_request.py", "clearances.py", "evidence.py", "summary.py"):
        text = (ROOT / "leaderboard" / name).read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        assert '"author_association"' not in code and "MEMBERS" not in code, name


def test_a_malformed_maintainers_line_is_named(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import maintainers_problems

    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "MAINTAINERS").write_text("# ok\na-maintainer\nnot a login!\n", encoding="utf-8")
    assert maintainers_problems(tmp_path) == [
        ".github/MAINTAINERS:3: expected one GitHub account per line (letters, digits, '-'), got 'not a login!'"
    ]
