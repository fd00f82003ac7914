"""A reproduction record counts only when the gpu-reproduce workflow opened it (leaderboard/pull_request.py trust).

Tried offline with pull_request event payloads of both kinds, as GitHub writes them to $GITHUB_EVENT_PATH: the
workflow's own pull request (a branch of the repository, its bot account, one record) passes; a hand-written
record from a fork, from a maintainer's branch, or beside a submission is refused, one line per reason, exit 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from neghub.leaderboard.pull_request import DEFAULT_BOT, changed_records, trust_problems

ROOT = Path(__file__).resolve().parent.parent
RECORD = (ROOT / "reproductions" / "smollm2-135m-instruct.json").read_text(encoding="utf-8")


def event(
    head_repo: str | None, author: str, changed_files: int, base_repo: str = "neghub/neghub"
) -> dict[str, object]:
    """The parts of a pull_request event payload the check reads (GitHub's field names)."""
    return {
        "action": "opened",
        "pull_request": {
            "number": 7,
            "user": {"login": author},
            "changed_files": changed_files,
            "head": {"ref": "reproduce/x", "repo": None if head_repo is None else {"full_name": head_repo}},
            "base": {"ref": "main", "repo": {"full_name": base_repo}},
        },
    }


def trees(tmp_path: Path, records: dict[str, str]) -> tuple[Path, Path]:
    """A base checkout with the committed records and a pull request's checkout that writes `records`."""
    base, head = tmp_path / "base", tmp_path / "head"
    for root in (base, head):
        (root / "reproductions").mkdir(parents=True)
        (root / "reproductions" / "smollm2-135m-instruct.json").write_text(RECORD, encoding="utf-8")
    for name, text in records.items():
        (head / "reproductions" / name).write_text(text, encoding="utf-8")
    return head, base


FORGED = json.dumps({**json.loads(RECORD), "submission": "z1-gold"})


def test_the_workflows_own_pull_request_passes(tmp_path: Path) -> None:
    head, base = trees(tmp_path, {"z1-gold.json": FORGED})
    assert changed_records(head, base) == ["reproductions/z1-gold.json"]
    assert trust_problems(event("neghub/neghub", DEFAULT_BOT, 1), changed_records(head, base)) == []


def test_a_pull_request_that_changes_no_record_is_not_concerned(tmp_path: Path) -> None:
    head, base = trees(tmp_path, {})
    assert trust_problems(event("someone/fork", "someone", 12), changed_records(head, base)) == []


@pytest.mark.parametrize(
    ("payload", "reasons"),
    [
        # a hand-written record from a fork: every condition fails
        (event("mallory/neghub", "mallory", 1), ["from mallory/neghub", "is mallory's", None]),
        # a maintainer's own branch of the repository, by hand: not the workflow's account
        (event("neghub/neghub", "a-maintainer", 1), [None, "is a-maintainer's", None]),
        # the bot's account, but the record beside other files (a submission, say)
        (event("neghub/neghub", DEFAULT_BOT, 3), [None, None, "changes 1 record(s) and 3 file(s)"]),
        # a fork whose repository was deleted
        (event(None, DEFAULT_BOT, 1), ["from a deleted repository", None, None]),
    ],
)
def test_a_record_not_opened_by_the_workflow_is_refused(
    tmp_path: Path, payload: dict[str, object], reasons: list[str | None]
) -> None:
    head, base = trees(tmp_path, {"z1-gold.json": FORGED})
    problems = trust_problems(payload, changed_records(head, base))
    expected = [r for r in reasons if r is not None]
    assert len(problems) == len(expected)
    for problem, words in zip(problems, expected, strict=True):
        assert problem.startswith("reproductions/z1-gold.json: ") and words in problem


def test_a_changed_or_removed_record_counts_as_a_change(tmp_path: Path) -> None:
    # the pull request edits the committed record (one more space) and deletes another the base branch has
    head, base = trees(tmp_path, {"smollm2-135m-instruct.json": RECORD + " "})
    (base / "reproductions" / "old.json").write_text("{}", encoding="utf-8")
    assert changed_records(head, base) == ["reproductions/old.json", "reproductions/smollm2-135m-instruct.json"]


def test_the_command_line_check_reads_the_event_file_and_exits_2(tmp_path: Path) -> None:
    head, base = trees(tmp_path, {"z1-gold.json": FORGED})
    payload = tmp_path / "event.json"

    def check(event_payload: dict[str, object]) -> subprocess.CompletedProcess[str]:
        payload.write_text(json.dumps(event_payload), encoding="utf-8")
        command = [sys.executable, "-m", "neghub.leaderboard.pull_request", "trust", str(payload), str(head), str(base)]
        return subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)

    refused = check(event("mallory/neghub", "mallory", 1))
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 2  # a fork, and not the workflow's account
    ok = check(event("neghub/neghub", DEFAULT_BOT, 1))
    assert ok.returncode == 0, ok.stderr


def test_the_submission_check_runs_on_records_and_builds_the_site() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "submission.yml").read_text(encoding="utf-8"))
    paths = workflow[True]["pull_request"]["paths"]  # YAML 1.1 reads the key `on` as True
    assert {"submissions/**", "reproductions/**"} <= set(paths)
    steps = workflow["jobs"]["check"]["steps"]
    checkout = next(s for s in steps if s.get("with", {}).get("path") == "pull-request")
    assert set(checkout["with"]["sparse-checkout"].split()) == {"submissions", "reproductions"}
    runs = [s.get("run", "") for s in steps]
    assert any(r.startswith('nox -s reproduction_trust -- "$GITHUB_EVENT_PATH" pull-request .') for r in runs)
    assert any(r.startswith("nox -s site_check -- pull-request/submissions") for r in runs)


def test_codeowners_covers_the_rules_and_the_trust_records() -> None:
    owners = {
        line.split()[0]
        for line in (ROOT / ".github" / "CODEOWNERS").read_text().splitlines()
        if line and not line.startswith("#")
    }
    for path in (
        "/reproductions/",
        "/leaderboard/",
        "/evaluator/",
        "/noxfile.py",
        "/requirements/",
        "/pyproject.toml",
        "/setup.py",
        "/.github/",
        "/clearances.yaml",
    ):
        assert path in owners, path
