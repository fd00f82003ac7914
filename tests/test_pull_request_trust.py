"""What a pull request may change, checked from what GitHub recorded of it (leaderboard/pull_request.py trust).

Tried offline with pull_request event payloads, as GitHub writes them to $GITHUB_EVENT_PATH:
- a reproduction record counts only when the gpu-reproduce workflow opened it: the workflow's own pull request (a
  reproduce/ branch of the repository, its bot account, one record) passes; a hand-written record from a fork, from
  a maintainer's branch, or beside a submission is refused, one line per reason, exit 2;
- a submission's `submitter.github` is the account that opens the pull request, and a landed submission is changed
  only by that account or a maintainer (an account the base branch's .github/MAINTAINERS lists; GitHub's
  author_association decides nothing);
- no pull request adds or changes a symbolic link (git diff --raw BASE...HEAD, mode 120000);
- clearances.yaml is changed only by a maintainer, each new entry naming its author.
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
RECORD = (ROOT / "tests" / "fixtures" / "reproductions" / "sampled-schema-2-smollm2-135m-instruct.json").read_text(
    encoding="utf-8"
)


def event(
    head_repo: str | None,
    author: str,
    changed_files: int,
    base_repo: str = "neghub/neghub",
    *,
    ref: str = "reproduce/x",
    association: str = "NONE",
    shas: tuple[str, str] | None = None,
) -> dict[str, object]:
    """The parts of a pull_request event payload the check reads (GitHub's field names)."""
    head: dict[str, object] = {"ref": ref, "repo": None if head_repo is None else {"full_name": head_repo}}
    base: dict[str, object] = {"ref": "main", "repo": {"full_name": base_repo}}
    if shas is not None:
        base["sha"], head["sha"] = shas
    return {
        "action": "opened",
        "pull_request": {
            "number": 7,
            "user": {"login": author},
            "author_association": association,
            "changed_files": changed_files,
            "head": head,
            "base": base,
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


def test_the_submission_check_runs_on_every_pull_request_and_builds_the_site() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "submission.yml").read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True; no paths filter: records and clearances are judged as submissions are
    assert workflow[True] == {"pull_request_target": {"types": ["opened", "synchronize", "reopened"]}}
    steps = workflow["jobs"]["check"]["steps"]
    # both checkouts keep their history: the trust check diffs BASE...HEAD for links, the summary reads main's
    checkouts = [s for s in steps if "actions/checkout" in s.get("uses", "")]
    assert all(s["with"].get("fetch-depth") == 0 for s in checkouts), checkouts
    assert all("sparse-checkout" not in s["with"] for s in checkouts)
    runs = [s.get("run", "") for s in steps]
    assert any(r.startswith('nox -s reproduction_trust -- "$GITHUB_EVENT_PATH" pull-request .') for r in runs)
    assert any(r.startswith("nox -s site_check -- pull-request/submissions") for r in runs)
    assert any("--event" in r and r.startswith("nox -s submission_summary") for r in runs)
    assert workflow["jobs"]["check"]["permissions"] == {"contents": "read", "pull-requests": "read"}


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


# --- submissions: the account that opens the pull request --------------------------------------------------------


def submission_trees(tmp_path: Path, base_github: str | None, head_github: str | None) -> tuple[Path, Path]:
    """BASE with submissions/x landed by `base_github` (None: not there) and HEAD with it by `head_github`."""
    base, head = tmp_path / "base", tmp_path / "head"
    for root, login in ((base, base_github), (head, head_github)):
        (root / "submissions").mkdir(parents=True)
        (root / ".github").mkdir()
        (root / ".github" / "MAINTAINERS").write_text("a-maintainer\n", encoding="utf-8")
        if login is None:
            continue
        folder = root / "submissions" / "x"
        folder.mkdir()
        (folder / "metadata.yaml").write_text(
            f"submitter:\n  name: Someone\n  contact: https://example.org\n  github: {login}\n"
            f"description: {root.name}\n",
            encoding="utf-8",
        )
    return head, base


@pytest.mark.parametrize(
    ("base_login", "head_login", "author", "association", "words"),
    [
        (None, "alice", "alice", "NONE", None),  # a new submission by its own account
        (None, "Alice", "alice", "NONE", None),  # logins compare in any letter case, as GitHub's do
        (None, "neghub", "mallory", "NONE", "expected the account that opens this pull request, mallory"),
        (None, None, "mallory", "NONE", None),  # nothing added
        ("alice", "alice", "alice", "NONE", None),  # Alice changes her own
        ("alice", "alice", "mallory", "NONE", "landed by alice; only that account or a maintainer"),
        ("alice", "alice", "a-maintainer", "NONE", None),  # a maintainer changes it, keeping its account
        ("alice", "alice", "org-member", "MEMBER", "landed by alice; only that account or a maintainer"),
        ("alice", "mallory", "mallory", "NONE", "keeps the account that landed it (alice)"),
        ("alice", "mallory", "a-maintainer", "OWNER", "keeps the account that landed it (alice)"),
    ],
)
def test_a_submission_is_the_account_that_opens_the_pull_request(
    tmp_path: Path,
    base_login: str | None,
    head_login: str | None,
    author: str,
    association: str,
    words: str | None,
) -> None:
    from neghub.leaderboard.pull_request import submission_problems

    head, base = submission_trees(tmp_path, base_login, head_login)
    payload = event(f"{author}/neghub", author, 2, ref="main", association=association)
    problems = submission_problems(payload, head, base)
    if words is None:
        assert problems == []
    else:
        assert len(problems) == 1 and words in problems[0], problems


def test_removing_another_accounts_submission_is_refused(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import submission_problems

    head, base = submission_trees(tmp_path, "alice", None)
    problems = submission_problems(event("mallory/neghub", "mallory", 1, ref="main"), head, base)
    assert problems == ["submissions/x: landed by another account; only a maintainer may remove it"]


def test_the_workflows_account_lands_a_submission_only_from_its_own_branch(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import submission_problems

    head, base = submission_trees(tmp_path, None, DEFAULT_BOT)
    own = event("neghub/neghub", DEFAULT_BOT, 2, ref="gpu-eval/x")
    assert submission_problems(own, head, base) == []
    elsewhere = event("neghub/neghub", DEFAULT_BOT, 2, ref="some-branch")
    (problem,) = submission_problems(elsewhere, head, base)
    assert "only from this repository's gpu-eval/ branch" in problem


# --- links --------------------------------------------------------------------------------------------------------


def test_a_pull_request_that_adds_a_symbolic_link_anywhere_is_refused(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import all_problems
    from tests.histories import git

    repo = tmp_path / "repo"
    (repo / "submissions").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base_sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "topic")
    (repo / "docs").mkdir()
    (repo / "docs" / "submissions").symlink_to("../elsewhere")  # a link outside the folders the checks read
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a link")
    head_sha = git(repo, "rev-parse", "HEAD").strip()
    base = tmp_path / "base"
    (base / "submissions").mkdir(parents=True)
    problems = all_problems(event("m/neghub", "m", 1, ref="topic", shas=(base_sha, head_sha)), repo, base)
    assert problems == ["docs/submissions: a symbolic link: a pull request adds or changes none (copy the file in)"]


def test_without_a_git_checkout_every_new_link_is_refused(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import changed_links

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions").mkdir(parents=True)
    base.mkdir()
    (head / "reproductions").symlink_to("submissions")
    assert changed_links(head, base, {}) == ["reproductions"]


# --- clearances -----------------------------------------------------------------------------------------------------

ENTRY = (
    "clearances:\n  - submission: strong\n    holds: [above-published-best]\n    boards: [jnli-neg--valid--0shot]\n"
    "    by: {by}\n"
    '    date: "2026-11-26"\n    why: an API model the provider re-ran for us\naccepted_prompts: []\n'
)


@pytest.mark.parametrize(
    ("author", "association", "by", "words"),
    [
        ("a-maintainer", "NONE", "a-maintainer", None),
        ("a-maintainer", "CONTRIBUTOR", "another-maintainer", "names its author, a-maintainer"),
        ("mallory", "NONE", "mallory", "only a maintainer"),
        ("mallory", "MEMBER", "a-maintainer", "only a maintainer"),  # an organisation member is not thereby one
        ("mallory", "OWNER", "mallory", "only a maintainer"),
    ],
)
def test_clearances_change_only_by_a_listed_maintainer_naming_themselves(
    tmp_path: Path, author: str, association: str, by: str, words: str | None
) -> None:
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong").mkdir(parents=True)
    (base / ".github").mkdir(parents=True)
    (base / ".github" / "MAINTAINERS").write_text("# the maintainers\na-maintainer\n", encoding="utf-8")
    (base / "clearances.yaml").write_text("clearances: []\naccepted_prompts: []\n", encoding="utf-8")
    (head / "clearances.yaml").write_text(ENTRY.format(by=by), encoding="utf-8")
    problems = clearance_problems(event(f"{author}/neghub", author, 1, association=association), head, base)
    if words is None:
        assert problems == []
    else:
        assert len(problems) == 1 and words in problems[0], problems


def test_a_maintainers_clearance_of_a_figure_naming_no_board_is_refused(tmp_path: Path) -> None:
    """An entry lifting a hold of a row's figure reviewed some board: without `boards:` the site would refuse the
    file, so the check says so before it lands (and a name's hold, the submission's own, needs none)."""
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong").mkdir(parents=True)
    (base / ".github").mkdir(parents=True)
    (base / ".github" / "MAINTAINERS").write_text("a-maintainer\n", encoding="utf-8")
    unscoped = ENTRY.format(by="a-maintainer").replace("    boards: [jnli-neg--valid--0shot]\n", "")
    (head / "clearances.yaml").write_text(unscoped, encoding="utf-8")
    problems = clearance_problems(event("a-maintainer/neghub", "a-maintainer", 1), head, base)
    assert len(problems) == 1 and "name the boards reviewed" in problems[0], problems
    name_only = unscoped.replace("[above-published-best]", "[name-of-another]")
    (head / "clearances.yaml").write_text(name_only, encoding="utf-8")
    assert clearance_problems(event("a-maintainer/neghub", "a-maintainer", 1), head, base) == []


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param(
            b"clearances:\n  - submission: strong\n    why: reviewed: the answers\n",
            "clearances.yaml:3: invalid YAML: mapping values are not allowed here",
            id="invalid-yaml",
        ),
        pytest.param(
            b"- submission: strong\n",
            "clearances.yaml: Input should be a valid dictionary or instance of ClearancesFile",
            id="not-a-mapping",
        ),
        pytest.param(
            b"clearances:\n  - strong\n",
            "clearances.yaml: clearances.0: Input should be a valid dictionary or instance of ClearanceEntry",
            id="an-entry-not-a-mapping",
        ),
        pytest.param(b"clearances: []\n# \xff\n", "clearances.yaml: not UTF-8 text", id="not-utf-8"),
    ],
)
def test_a_maintainers_clearances_file_that_does_not_read_gets_one_line_saying_why(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    """The walk of the maintainers' path (issue 38): a clearances.yaml that is not valid YAML got a second line, "an
    entry this pull request adds or changes names its author, a-maintainer (got nothing)", blaming an entry that
    no reader of the file could see. A maintainer's file that does not read gets the one line that says why, with
    the line where YAML stopped."""
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong").mkdir(parents=True)
    (base / ".github").mkdir(parents=True)
    (base / ".github" / "MAINTAINERS").write_text("a-maintainer\n", encoding="utf-8")
    (base / "clearances.yaml").write_text("clearances: []\naccepted_prompts: []\n", encoding="utf-8")
    (head / "clearances.yaml").write_bytes(content)
    assert clearance_problems(event("a-maintainer/neghub", "a-maintainer", 1), head, base) == [expected]
