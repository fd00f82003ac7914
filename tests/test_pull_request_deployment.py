"""A deployment names its own maintainers and repository, and the verdict comes from the default branch's code
(issue 38 items 1 and 2).

- No account ships: while .github/MAINTAINERS lists none, a clearance by any account is refused; once it lists one,
  that account's clearance passes.
- The repository's identity is `.github/neghub.yaml` (else GITHUB_REPOSITORY), never a constant: a build in a clone
  named otherwise, without GITHUB_REPOSITORY, trusts what the build with it trusts; with neither, it stops.
- The decision code (pull_request.all_problems, as submission.yml's `check` job runs it on the pull request's files
  as data) refuses a submission's pull request that edits submission.yml, noxfile.py or pyproject.toml or adds a
  workflow; passes a code change as "not a submission"; and judges a branch behind main by what it changed.
- `deployment check` asks GitHub's REST API (here a server on 127.0.0.1 answering as GitHub's REST description
  says) and names each setting a deployment lacks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.histories import Main, build, git, hub_model, jnli_run, submission
from tests.test_attacks_round2 import entry, open_pull_request, write
from tests.test_evidence_attacks import honest_main, model

Split = tuple[list[int], list[str]]
CLEARANCE = (
    "clearances:\n  - submission: strong\n    holds: [above-published-best]\n    boards: [jnli-neg--valid--0shot]\n"
    '    by: {by}\n    date: "2026-11-26"\n    why: reviewed\naccepted_prompts: []\n'
)


def _event(author: str, base_sha: str = "", head_sha: str = "") -> dict[str, Any]:
    return {
        "pull_request": {
            "number": 7,
            "user": {"login": author},
            "changed_files": 1,
            "head": {"sha": head_sha, "ref": "x", "repo": {"full_name": f"{author}/neghub"}},
            "base": {"sha": base_sha, "ref": "main", "repo": {"full_name": "acme/neghub"}},
        }
    }


# --- no maintainer ships ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("author", ["alice", "neghub-bot", "octocat"])
def test_a_clearance_by_any_account_is_refused_while_no_maintainer_is_configured(tmp_path: Path, author: str) -> None:
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong").mkdir(parents=True)
    shutil.copytree(Path(__file__).resolve().parents[1] / ".github", base / ".github")  # as the repository ships it
    (head / "clearances.yaml").write_text(CLEARANCE.format(by=author), encoding="utf-8")
    problems = clearance_problems(_event(author), head, base)
    assert len(problems) == 1 and "lists no maintainer" in problems[0], problems


def test_a_clearance_by_a_configured_maintainer_is_accepted(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong").mkdir(parents=True)
    (base / ".github").mkdir(parents=True)
    (base / ".github" / "MAINTAINERS").write_text("# ours\nalice\n", encoding="utf-8")
    (head / "clearances.yaml").write_text(CLEARANCE.format(by="alice"), encoding="utf-8")
    assert clearance_problems(_event("alice"), head, base) == []
    (head / "clearances.yaml").write_text(CLEARANCE.format(by="bob"), encoding="utf-8")
    assert "only a maintainer" in clearance_problems(_event("bob"), head, base)[0]


def test_a_clearance_naming_no_submission_is_refused_with_the_nearest_name(tmp_path: Path) -> None:
    from neghub.leaderboard.pull_request import clearance_problems

    head, base = tmp_path / "head", tmp_path / "base"
    (head / "submissions" / "strong-70").mkdir(parents=True)
    (head / "submissions" / "weak-40").mkdir(parents=True)
    (base / ".github").mkdir(parents=True)
    (base / ".github" / "MAINTAINERS").write_text("alice\n", encoding="utf-8")
    (head / "clearances.yaml").write_text(
        CLEARANCE.format(by="alice").replace("submission: strong", "submission: strong-07"), encoding="utf-8"
    )
    problems = clearance_problems(_event("alice"), head, base)
    assert len(problems) == 1 and "'strong-07' is no submission" in problems[0], problems
    assert "did you mean 'strong-70'?" in problems[0]


def test_the_build_says_in_one_line_what_the_deployment_lacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from neghub.leaderboard.deployment import unconfigured_lines

    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    (tmp_path / ".github").mkdir()
    assert [line.split(":")[0] for line in unconfigured_lines(tmp_path)] == [
        "NegHub is not deployed",
        "NegHub's repository is not named",
    ]
    (tmp_path / ".github" / "MAINTAINERS").write_text("alice\n", encoding="utf-8")
    (tmp_path / ".github" / "neghub.yaml").write_text("repository: acme/neghub\n", encoding="utf-8")
    assert unconfigured_lines(tmp_path) == []


# --- the repository's identity --------------------------------------------------------------------------------------


def _with_a_gpu_eval_landing(tmp_path: Path, split: Split) -> Main:
    """main whose row "gpu-run" the gpu-eval workflow landed: its branch gpu-eval/gpu-run of the repository, opened by
    the workflows' account (GitHub writes "from neghub/gpu-eval/gpu-run" in the merge commit)."""
    from neghub.leaderboard.deployment import DEFAULT_BOT

    main, _ = honest_main(tmp_path, split)
    files = submission(
        "gpu-run", hub_model("GPU 71", "org/gpu", "8" * 40), DEFAULT_BOT, [jnli_run(model(split, 0.6, 9))]
    )
    main.merge(3, "neghub", files, branch="gpu-eval/gpu-run")
    return main


def test_a_clone_named_otherwise_without_github_repository_trusts_what_the_pages_build_trusts(
    tmp_path: Path, split: Split, monkeypatch: pytest.MonkeyPatch
) -> None:
    main = _with_a_gpu_eval_landing(tmp_path, split)
    clone = tmp_path / "my-local-copy"
    subprocess.run(["git", "clone", "-q", str(main.root), str(clone)], check=True, timeout=120)
    monkeypatch.setenv("GITHUB_REPOSITORY", "neghub/neghub")
    on_pages = entry(build(clone), "gpu-run")
    monkeypatch.delenv("GITHUB_REPOSITORY")
    local = entry(build(clone), "gpu-run")
    assert on_pages["trust"] == local["trust"] == "neghub-run", (on_pages, local)


def test_a_build_that_cannot_name_its_repository_stops_where_trust_needs_it(
    tmp_path: Path, split: Split, monkeypatch: pytest.MonkeyPatch
) -> None:
    from neghub.evaluator.core.errors import InputError

    main = _with_a_gpu_eval_landing(tmp_path, split)
    main.push("No identity", {".github/neghub.yaml": "# repository: OWNER/NAME\n"})
    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    with pytest.raises(InputError, match="repository: not set"):
        build(main.root)


# --- the decision code on a pull request's files ------------------------------------------------------------------


def _own(split: Split, owner: str = "mallory") -> dict[str, str | bytes | None]:
    return submission(
        f"{owner}-60", hub_model("M 60", f"{owner}/m", "9" * 40), owner, [jnli_run(model(split, 0.6, 60))]
    )


@pytest.mark.parametrize(
    "extra",
    [
        {".github/workflows/submission.yml": "on: pull_request\njobs: {check: {runs-on: x, steps: [{run: exit 0}]}}\n"},
        {"noxfile.py": "import nox\n"},
        {"pyproject.toml": "[project]\nname = 'neghub'\n"},
        {".github/workflows/verdict.yml": "on: pull_request\njobs: {'NegHub verdict': {runs-on: x, steps: []}}\n"},
    ],
    ids=["edits-submission-yml", "edits-noxfile", "edits-pyproject", "adds-a-workflow"],
)
def test_a_submission_that_also_changes_code_or_a_workflow_is_refused(
    tmp_path: Path, split: Split, extra: dict[str, str | bytes | None]
) -> None:
    main, _ = honest_main(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 2, "mallory", write({**_own(split), **extra}))
    (path,) = extra
    refused = [p for p in pull.problems if p.startswith(f"{path}: ")]
    assert refused and "code change" in refused[0], pull.problems


def test_a_maintainers_submission_that_touches_github_is_refused_too(tmp_path: Path, split: Split) -> None:
    main, _ = honest_main(tmp_path, split)
    main.push("The maintainers", {".github/MAINTAINERS": "a-maintainer\n"})
    files = {**_own(split, "a-maintainer"), ".github/neghub.yaml": "repository: evil/neghub\n"}
    pull = open_pull_request(main, tmp_path, 2, "a-maintainer", write(files))
    assert [p.split(":")[0] for p in pull.problems] == [".github/neghub.yaml"], pull.problems


def test_a_code_change_is_not_a_submission_and_gets_a_short_verdict(tmp_path: Path, split: Split) -> None:
    from neghub.leaderboard.pull_request import changed_paths, submission_kind

    main, _ = honest_main(tmp_path, split)
    pull = open_pull_request(main, tmp_path, 2, "mallory", write({".github/workflows/submission.yml": "x: 1\n"}))
    assert pull.problems == []
    event = _event("mallory", pull.base, pull.head)
    assert submission_kind(changed_paths(pull.head_root, pull.base_root, event)) is None
    command = [sys.executable, "-m", "neghub.leaderboard.pull_request", "trust", _event_file(tmp_path, event)]
    command += [str(pull.head_root), str(pull.base_root)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stdout.startswith("not a submission: "), (done.stdout, done.stderr)


def _event_file(tmp_path: Path, event: dict[str, Any]) -> str:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event), encoding="utf-8")
    return str(path)


def test_a_branch_forked_before_a_record_and_a_clearance_landed_is_judged_by_what_it_changed(
    tmp_path: Path, split: Split
) -> None:
    """Bob's honest submission forked before the maintainers pushed a record and a clearance: comparing trees would
    blame him for removing both; the merge base says he changed his folder alone."""
    from neghub.leaderboard.pull_request import all_problems

    main, _ = honest_main(tmp_path, split)
    fork = main.head()
    main.push("A record", {"reproductions/alice-55.json": '{"schema_version": 4}\n'})
    main.push("A clearance", {"clearances.yaml": CLEARANCE.format(by="a-maintainer").replace("strong", "alice-55")})
    git(main.root, "checkout", "-q", "-b", "bob-behind", fork)
    for name, content in _own(split, "bob").items():
        path = main.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else str(content).encode("utf-8"))
    git(main.root, "add", "-A")
    git(main.root, "commit", "-q", "-m", "bob's submission")
    git(main.root, "checkout", "-q", "main")
    head, base = git(main.root, "rev-parse", "bob-behind").strip(), main.head()
    head_root, base_root = tmp_path / "head", tmp_path / "base"
    for root, commit in ((head_root, head), (base_root, base)):
        subprocess.run(["git", "clone", "-q", str(main.root), str(root)], check=True, timeout=120)
        git(root, "checkout", "-q", commit)
    event = _event("bob", base, head)
    event["pull_request"]["changed_files"] = len(git(main.root, "diff", "--name-only", f"{base}...{head}").split())
    assert all_problems(event, head_root, base_root) == []


# --- deploy-check against GitHub's REST API, offline ----------------------------------------------------------------

REPO = "acme/neghub"
APP_ID = 424242
WORKFLOWS = [f"{REPO}/.github/workflows/{name}@refs/heads/main" for name in ("gpu-eval.yml", "gpu-reproduce.yml")]


def _github(**changes: Any) -> dict[str, Any]:
    """GitHub's answers for a deployment set as README says (field names as GitHub's REST description gives them)."""
    answers: dict[str, Any] = {
        f"/repos/{REPO}": {"full_name": REPO, "default_branch": "main"},
        f"/repos/{REPO}/branches/main/protection/required_status_checks": {
            "strict": True,
            "contexts": ["NegHub verdict"],
            "checks": [{"context": "NegHub verdict", "app_id": APP_ID}],
        },
        f"/repos/{REPO}/rules/branches/main": [],
        f"/repos/{REPO}/collaborators/alice/permission": {"permission": "admin", "role_name": "admin"},
        f"/repos/{REPO}/environments/gpu-eval": {
            "name": "gpu-eval",
            "protection_rules": [
                {
                    "id": 1,
                    "type": "required_reviewers",
                    "reviewers": [{"type": "User", "reviewer": {"login": "alice"}}],
                },
                {"id": 2, "type": "branch_policy"},
            ],
            "deployment_branch_policy": {"protected_branches": True, "custom_branch_policies": False},
        },
        f"/repos/{REPO}/environments/neghub-app": {
            "name": "neghub-app",
            "protection_rules": [{"id": 3, "type": "branch_policy"}],
            "deployment_branch_policy": {"protected_branches": True, "custom_branch_policies": False},
        },
        f"/repos/{REPO}/actions/permissions/workflow": {
            "default_workflow_permissions": "read",
            "can_approve_pull_request_reviews": False,
        },
        f"/repos/{REPO}/actions/permissions/fork-pr-contributor-approval": {
            "approval_policy": "all_external_contributors"
        },
        "/orgs/acme/actions/runner-groups": {
            "total_count": 2,
            "runner_groups": [
                {"id": 1, "name": "Default", "visibility": "all", "restricted_to_workflows": False},
                {
                    "id": 2,
                    "name": "neghub-gpu",
                    "visibility": "selected",
                    "allows_public_repositories": True,
                    "restricted_to_workflows": True,
                    "selected_workflows": WORKFLOWS,
                },
            ],
        },
    }
    answers.update(changes)
    return answers


@pytest.fixture
def github() -> Iterator[tuple[str, dict[str, Any]]]:
    answers: dict[str, Any] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.headers.get("Authorization") != "Bearer test-token" or self.path not in answers:
                self.send_response(404 if self.path not in answers else 401)
                self.end_headers()
                self.wfile.write(b'{"message": "Not Found"}')
                return
            body = json.dumps(answers[self.path]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", answers
    finally:
        server.shutdown()
        server.server_close()


def _deployment(root: Path) -> Path:
    (root / ".github").mkdir(parents=True)
    (root / ".github" / "MAINTAINERS").write_text("alice\n", encoding="utf-8")
    (root / ".github" / "neghub.yaml").write_text(f"repository: {REPO}\n", encoding="utf-8")
    return root


def test_deploy_check_passes_a_deployment_set_as_readme_says(
    tmp_path: Path, github: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from neghub.leaderboard.deployment import main

    url, answers = github
    answers.update(_github())
    monkeypatch.chdir(_deployment(tmp_path))
    monkeypatch.setenv("GITHUB_API_URL", url)
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    assert main(["check", "--app-id", str(APP_ID)]) == 0
    assert capsys.readouterr().out == f"ok: required check 'NegHub verdict' from app {APP_ID}\n"


@pytest.mark.parametrize(
    ("changes", "missing"),
    [
        (  # "any source": every Actions job has the same source, and a pull request can add one of this name
            {f"/repos/{REPO}/branches/main/protection/required_status_checks": {
                "checks": [{"context": "NegHub verdict", "app_id": None}]}},
            "required check",
        ),
        (  # the check required from GitHub Actions (app 15368): a workflow a pull request adds could post it
            {f"/repos/{REPO}/branches/main/protection/required_status_checks": {
                "checks": [{"context": "NegHub verdict", "app_id": 15368}]}},
            "required check",
        ),
        ({f"/repos/{REPO}/collaborators/alice/permission": {"permission": "read"}}, "maintainers"),
        ({f"/repos/{REPO}/environments/gpu-eval": {"protection_rules": [{"id": 2, "type": "branch_policy"}],
          "deployment_branch_policy": {"protected_branches": True, "custom_branch_policies": False}}},
         "gpu environment"),
        ({f"/repos/{REPO}/actions/permissions/fork-pr-contributor-approval": {
            "approval_policy": "first_time_contributors"}}, "actions"),
        ({f"/repos/{REPO}/actions/permissions/workflow": {
            "default_workflow_permissions": "write", "can_approve_pull_request_reviews": False}}, "actions"),
        ({"/orgs/acme/actions/runner-groups": {"runner_groups": [
            {"name": "neghub-gpu", "restricted_to_workflows": False}]}}, "runner group"),
    ],
    ids=["any-source", "actions-app", "maintainer-reads", "no-reviewers", "approval", "write-token", "open-group"],
)  # fmt: skip
def test_deploy_check_names_each_setting_github_lacks(
    tmp_path: Path, github: tuple[str, dict[str, Any]], changes: dict[str, Any], missing: str
) -> None:
    from neghub.leaderboard.deployment import api_getter, deploy_problems

    url, answers = github
    answers.update(_github(**changes))
    found = deploy_problems(_deployment(tmp_path), api_getter(url, "test-token"), APP_ID)
    assert [what for what, _ in found if what != "ok"] == [missing], found


def test_deploy_check_of_the_repository_as_it_ships_says_no_maintainer_is_set(
    tmp_path: Path, github: tuple[str, dict[str, Any]]
) -> None:
    from neghub.leaderboard.deployment import api_getter, deploy_problems

    url, answers = github
    answers.update(_github())
    root = _deployment(tmp_path)
    (root / ".github" / "MAINTAINERS").write_text("# nobody yet\n", encoding="utf-8")
    found = deploy_problems(root, api_getter(url, "test-token"), APP_ID)
    assert [what for what, _ in found if what != "ok"] == ["maintainers"], found
