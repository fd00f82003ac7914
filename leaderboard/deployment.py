"""What a deployment of NegHub names for itself, and whether GitHub is set as it says (README, "Deploying NegHub").

The repository ships no account and no identity: a placeholder would be someone's to register. A deployment names

- **its maintainers** in `.github/MAINTAINERS` (one GitHub login a line, `#` comments): the accounts whose pull
  requests may change clearances.yaml or another account's submission (pull_request.py reads the base branch's copy).
  `.github/CODEOWNERS` is generated from it (`python -m neghub.leaderboard.deployment codeowners --write`; a test
  holds the two equal). Until it lists one, no pull request can clear anything, and every build says so in one line
  (`unconfigured_lines`; an annotation on GitHub);
- **its repository** (OWNER/NAME) in `.github/neghub.yaml` (`repository:`), else GitHub Actions' `GITHUB_REPOSITORY`.
  Trust decides from it whether a merged branch was the workflows' own (`gpu-eval/`, `reproduce/`), so it is never a
  constant: where neither names one and trust needs it, the build stops with one line saying where to set it.
  The file wins over the variable: a maintainer's local build then trusts what Pages trusts.

`python -m neghub.leaderboard.deployment check` (nox -s deploy_check) asks GitHub's REST API what only GitHub
holds: the default branch's required check and the App it must come from, each maintainer's permission, the
`gpu-eval` environment's reviewers, the Actions settings, and the runner group. It reads with $GITHUB_TOKEN (an
admin's token: several of these endpoints need it) from $GITHUB_API_URL (default https://api.github.com), and
prints one line per setting, exit code 2 when any is missing.
"""

from __future__ import annotations

import json
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from ..evaluator.core.errors import InputError
from ..evaluator.submissions.format import GITHUB_LOGIN_PATTERN

MAINTAINERS_FILE = ".github/MAINTAINERS"
CODEOWNERS_FILE = ".github/CODEOWNERS"
CONFIG_FILE = ".github/neghub.yaml"
REPOSITORY_ENV = "GITHUB_REPOSITORY"  # set by GitHub Actions: OWNER/NAME of the repository the workflow runs in
REPOSITORY_PATTERN = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}"
# the check run the default branch's protection requires, posted by the NegHub App (submission.yml's verdict job)
REQUIRED_CHECK = "NegHub verdict"
GPU_ENVIRONMENT = "gpu-eval"
APP_ENVIRONMENT = "neghub-app"  # holds the App's key; deployments from the default branch only
RUNNER_GROUP = "neghub-gpu"
GPU_WORKFLOWS = ("gpu-eval.yml", "gpu-reproduce.yml")

# CODEOWNERS: every path the maintainers own, each with why it matters; submissions/ has no owner (the check decides)
OWNED_PATHS: tuple[tuple[str, str], ...] = (
    ("*", "everything: the first line"),
    ("/.gitattributes", "the build: re-encoding files on checkout"),
    ("/mkdocs.yml", "the build"),
    ("/site/", "the build: page overrides"),
    ("/scripts/", "the build"),
    ("/.ci/", "the CI"),
    ("/.github/", "the workflows, the maintainers, the deployment's identity"),
    ("/.github/MAINTAINERS", "who reviews verdicts"),
    ("/evaluator/", "the evaluator"),
    ("/leaderboard/", "the leaderboard's rules"),
    ("/schemas/", "the published schemas"),
    ("/noxfile.py", "the sessions the workflows run"),
    ("/requirements/", "the hashed locks"),
    ("/pyproject.toml", "the dependencies"),
    ("/setup.py", "the package"),
    ("/reproductions/", "the trust records (the gpu-reproduce workflow's)"),
    ("/clearances.yaml", "the maintainers' reviewed lifting of holds"),
)
UNOWNED_PATHS = ("/submissions/",)


def read_maintainers(root: Path) -> frozenset[str]:
    """The logins (lower case) ROOT's `.github/MAINTAINERS` lists; none where it is missing or unreadable (a malformed
    line names nobody: maintainers_problems says which)."""
    return frozenset(login.lower() for login in maintainer_logins(root))


def maintainer_logins(root: Path) -> list[str]:
    """The logins of ROOT's `.github/MAINTAINERS` as written, in order (malformed lines left out)."""
    try:
        text = (root / MAINTAINERS_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    logins = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [login for login in logins if login and re.fullmatch(GITHUB_LOGIN_PATTERN, login)]


def maintainers_problems(root: Path) -> list[str]:
    """One line per line of ROOT's `.github/MAINTAINERS` that is not one GitHub login (a comment aside)."""
    path = root / MAINTAINERS_FILE
    if not path.is_file():
        return [f"{MAINTAINERS_FILE}: missing: list the maintainers' GitHub accounts, one a line"]
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        login = line.split("#", 1)[0].strip()
        if login and not re.fullmatch(GITHUB_LOGIN_PATTERN, login):
            problems.append(
                f"{MAINTAINERS_FILE}:{number}: expected one GitHub account per line (letters, digits, '-'), "
                f"got {login!r}"
            )
    return problems


NO_MAINTAINER = (
    f"NegHub is not deployed: {MAINTAINERS_FILE} lists no maintainer, so no pull request can clear a hold or change "
    "another account's submission; list the maintainers' GitHub accounts there, one a line, then run "
    "`python -m neghub.leaderboard.deployment codeowners --write` (README, 'Deploying NegHub')"
)


def unconfigured_lines(root: Path) -> list[str]:
    """What this deployment lacks, one line each (none: maintainers and repository are named)."""
    lines = []
    if not read_maintainers(root):
        lines.append(NO_MAINTAINER)
    if configured_repository(root) is None and not os.environ.get(REPOSITORY_ENV):
        lines.append(
            f"NegHub's repository is not named: set `repository: OWNER/NAME` in {CONFIG_FILE} (or build on GitHub "
            "Actions, which sets GITHUB_REPOSITORY); rows landed from the workflows' branches cannot be trusted "
            "without it"
        )
    return lines


def announce(root: Path) -> list[str]:
    """Print what the deployment lacks to stderr, one line each: a `::warning::` annotation on GitHub Actions (the
    Pages workflow's build shows it on the run's page). Never through logging: `mkdocs build --strict` fails on a
    logged warning, and a clone that is not yet deployed still builds."""
    lines = unconfigured_lines(root)
    prefix = "::warning title=NegHub deployment::" if os.environ.get("GITHUB_ACTIONS") == "true" else "warning: "
    for line in lines:
        print(f"{prefix}{line}", file=sys.stderr)
    return lines


def _setting(root: Path | None, key: str, pattern: str, expected: str) -> str | None:
    """`KEY:` of ROOT's `.github/neghub.yaml` (None where the file is missing or names none; an invalid one is an
    InputError: a setting that decides trust fails loudly)."""
    if root is None:
        return None
    path = root / CONFIG_FILE
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise InputError.single(CONFIG_FILE, f"unreadable: {exc}") from None
    value = data.get(key) if isinstance(data, dict) else None
    if value in (None, ""):
        return None
    if not isinstance(value, str) or not re.fullmatch(pattern, value):
        raise InputError.single(CONFIG_FILE, f"{key}: expected {expected}, got {value!r}")
    return value


def configured_repository(root: Path | None) -> str | None:
    """`repository:` of ROOT's `.github/neghub.yaml`, or None."""
    return _setting(root, "repository", REPOSITORY_PATTERN, "OWNER/NAME")


BOT_ENV = "REPRODUCTION_BOT"  # the repository variable the workflows pass (vars.REPRODUCTION_BOT)
DEFAULT_BOT = "github-actions[bot]"  # GitHub's own account (nobody registers it): trusts nothing the App opened


def workflow_account(root: Path | None) -> str:
    """The account the GPU workflows open their pull requests as: the NegHub App's bot (`<app-slug>[bot]`), from
    ROOT's `.github/neghub.yaml` (`bot:`), else $REPRODUCTION_BOT, else GitHub's own github-actions[bot], which
    the App's pull requests are not (so an unset deployment trusts no workflow's row, never a stranger's)."""
    return (
        _setting(root, "bot", r"[A-Za-z0-9][A-Za-z0-9-]{0,38}\[bot\]", "APP-SLUG[bot]")
        or os.environ.get(BOT_ENV)
        or DEFAULT_BOT
    )


def deployed_repository(root: Path | None) -> str | None:
    """OWNER/NAME where the deployment names one (ROOT's `.github/neghub.yaml`, else $GITHUB_REPOSITORY), else
    None; a $GITHUB_REPOSITORY that is not OWNER/NAME names none."""
    found = configured_repository(root) or os.environ.get(REPOSITORY_ENV)
    return found if found and re.fullmatch(REPOSITORY_PATTERN, found) else None


def pages_url(repository: str) -> str:
    """Where GitHub Pages serves OWNER/NAME's site: https://owner.github.io/NAME/ (lower-case owner: a host name),
    or https://owner.github.io/ for the OWNER/OWNER.github.io repository, which Pages serves at the root."""
    owner, name = repository.split("/")
    host = f"{owner.lower()}.github.io"
    return f"https://{host}/" if name.lower() == host else f"https://{host}/{name}/"


def repository(root: Path | None) -> str:
    """OWNER/NAME of the deployment: ROOT's `.github/neghub.yaml`, else $GITHUB_REPOSITORY; an InputError naming
    where to set it when neither does (trust is then undecidable, never guessed)."""
    found = configured_repository(root) or os.environ.get(REPOSITORY_ENV)
    if not found:
        raise InputError.single(
            CONFIG_FILE,
            "repository: not set, and GITHUB_REPOSITORY is not either: write `repository: OWNER/NAME` (this "
            "deployment's GitHub repository) so that the build can tell the workflows' own branches from a fork's",
        )
    return found


# --- CODEOWNERS, generated from MAINTAINERS --------------------------------------------------------------------


def codeowners(root: Path) -> str:
    """`.github/CODEOWNERS` as the maintainers ROOT's `.github/MAINTAINERS` lists make it."""
    owners = " ".join(f"@{login}" for login in maintainer_logins(root))
    lines = [
        f"# Generated from {MAINTAINERS_FILE} by `python -m neghub.leaderboard.deployment codeowners --write`; a test",
        "# holds the two equal. Every path but submissions/ is the maintainers'; a later match wins, same owners.",
        "# submissions/ has no owner: the pull-request check (leaderboard/pull_request.py) decides who changes one.",
    ]
    if not owners:
        lines.append(f"# {MAINTAINERS_FILE} lists no maintainer yet: no path has an owner, and nothing can be cleared.")
    for path, why in OWNED_PATHS:
        lines.append(f"# {why}")
        lines.append(f"{path} {owners}".rstrip())
    lines += [f"{path}" for path in UNOWNED_PATHS]
    return "\n".join(lines) + "\n"


# --- deploy-check: what GitHub's REST API shows ---------------------------------------------------------------

Get = Callable[[str], Any]  # an API path -> its decoded JSON (None: 404)


def api_getter(base: str, token: str | None) -> Get:
    def get(path: str) -> Any:
        request = urllib.request.Request(f"{base.rstrip('/')}{path}")
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise InputError.single(path, f"GitHub answered {exc.code}: is $GITHUB_TOKEN an admin's token?") from None
        except (urllib.error.URLError, TimeoutError) as exc:
            raise InputError.single(path, f"GitHub could not be reached: {exc}") from None

    return get


def _required_checks(get: Get, repo: str, branch: str) -> list[tuple[str, int | None]]:
    """(context, app id) of every check the branch's protection or its rulesets require."""
    found: list[tuple[str, int | None]] = []
    protection = get(f"/repos/{repo}/branches/{branch}/protection/required_status_checks")
    for check in (protection or {}).get("checks") or []:
        found.append((str(check.get("context")), check.get("app_id")))
    for rule in get(f"/repos/{repo}/rules/branches/{branch}") or []:
        if rule.get("type") == "required_status_checks":
            for check in (rule.get("parameters") or {}).get("required_status_checks") or []:
                found.append((str(check.get("context")), check.get("integration_id")))
    return found


def deploy_problems(root: Path, get: Get, app_id: int | None, org: str | None = None) -> list[tuple[str, str]]:
    """(setting, what is wrong) for each setting of the deployment at ROOT that GitHub does not hold as README's
    "Deploying NegHub" says; ("ok", setting) lines for the others are the caller's to print."""
    problems: list[tuple[str, str]] = []
    ok: list[str] = []
    repo = repository(root)
    owner = org or repo.split("/", 1)[0]
    maintainers = maintainer_logins(root)
    if not maintainers:
        problems.append(("maintainers", NO_MAINTAINER))
    info = get(f"/repos/{repo}")
    if info is None:
        return [*problems, ("repository", f"{repo}: not found (or $GITHUB_TOKEN cannot read it)")]
    branch = str(info.get("default_branch") or "main")
    # the required check: the verdict's name, from the NegHub App (never "any source": every Actions job shares one)
    required = _required_checks(get, repo, branch)
    named = [source for context, source in required if context == REQUIRED_CHECK]
    if not named:
        problems.append(
            (
                "required check",
                f"{branch} does not require the check {REQUIRED_CHECK!r} (branch protection or a ruleset)",
            )
        )
    elif app_id is None:
        problems.append(("required check", "the App's id is unknown: pass --app-id or set the variable NEGHUB_APP_ID"))
    elif any(source != app_id for source in named):
        problems.append(
            (
                "required check",
                f"{REQUIRED_CHECK!r} on {branch} must come from the NegHub App (id {app_id}), got source(s) "
                f"{', '.join(str(s) for s in named)}: set its source to the App, not 'any source'",
            )
        )
    else:
        ok.append(f"required check {REQUIRED_CHECK!r} from app {app_id}")
    # every maintainer can merge (write or above); CODEOWNERS ignores an account without write access
    for login in maintainers:
        answer = get(f"/repos/{repo}/collaborators/{login}/permission") or {}
        if answer.get("permission") not in ("admin", "maintain", "write"):
            problems.append(
                ("maintainers", f"@{login}: permission {answer.get('permission') or 'none'}; a maintainer needs write")
            )
    # the GPU environment: required reviewers, deployments from protected branches only
    environment = get(f"/repos/{repo}/environments/{GPU_ENVIRONMENT}")
    if environment is None:
        problems.append(("gpu environment", f"no environment {GPU_ENVIRONMENT!r}"))
    else:
        rules = environment.get("protection_rules") or []
        reviewers = [
            r for rule in rules if rule.get("type") == "required_reviewers" for r in rule.get("reviewers") or []
        ]
        if not reviewers:
            problems.append(("gpu environment", f"{GPU_ENVIRONMENT}: no required reviewers"))
        policy = environment.get("deployment_branch_policy") or {}
        if not (policy.get("protected_branches") or policy.get("custom_branch_policies")):
            problems.append(("gpu environment", f"{GPU_ENVIRONMENT}: deployments not limited to the default branch"))
    verdict = get(f"/repos/{repo}/environments/{APP_ENVIRONMENT}")
    if verdict is None or not (verdict.get("deployment_branch_policy") or {}):
        problems.append(("app key", f"environment {APP_ENVIRONMENT!r} (the App's key) missing or open to every branch"))
    # Actions: read-only default token, no approving pull requests, approval for every outside contributor
    workflow = get(f"/repos/{repo}/actions/permissions/workflow") or {}
    if workflow.get("default_workflow_permissions") != "read":
        problems.append(("actions", "Workflow permissions: choose 'Read repository contents and packages permissions'"))
    if workflow.get("can_approve_pull_request_reviews"):
        problems.append(("actions", "Workflow permissions: untick 'Allow GitHub Actions to ... approve pull requests'"))
    approval = get(f"/repos/{repo}/actions/permissions/fork-pr-contributor-approval") or {}
    if approval.get("approval_policy") != "all_external_contributors":
        problems.append(
            ("actions", "Fork pull request workflows: choose 'Require approval for all external contributors'")
        )
    # the runner group: the GPU workflows on the default branch only
    groups = (get(f"/orgs/{owner}/actions/runner-groups") or {}).get("runner_groups") or []
    group = next((g for g in groups if g.get("name") == RUNNER_GROUP), None)
    wanted = {f"{repo}/.github/workflows/{name}@refs/heads/{branch}" for name in GPU_WORKFLOWS}
    if group is None:
        problems.append(("runner group", f"no runner group {RUNNER_GROUP!r} in {owner}"))
    elif not group.get("restricted_to_workflows") or set(group.get("selected_workflows") or []) != wanted:
        problems.append(
            ("runner group", f"{RUNNER_GROUP}: limit it to the workflows {', '.join(sorted(wanted))} exactly")
        )
    return problems + [("ok", line) for line in ok]


def main(argv: list[str]) -> int:
    root = Path.cwd()  # the checkout's root (nox runs it there)
    if argv[:1] == ["codeowners"]:
        expected = codeowners(root)
        path = root / CODEOWNERS_FILE
        if argv[1:] == ["--write"]:
            path.write_text(expected, encoding="utf-8")
            return 0
        if path.read_text(encoding="utf-8") != expected:
            print(f"{CODEOWNERS_FILE}: differs from {MAINTAINERS_FILE}: run this command with --write", file=sys.stderr)
            return 2
        return 0
    if argv[:1] == ["check"]:
        app_id: int | None = None
        rest = argv[1:]
        if rest[:1] == ["--app-id"] and len(rest) == 2 and rest[1].isdigit():
            app_id = int(rest[1])
        elif rest:
            print("usage: python -m neghub.leaderboard.deployment check [--app-id N]", file=sys.stderr)
            return 2
        if app_id is None and (os.environ.get("NEGHUB_APP_ID") or "").isdigit():
            app_id = int(os.environ["NEGHUB_APP_ID"])
        get = api_getter(os.environ.get("GITHUB_API_URL") or "https://api.github.com", os.environ.get("GITHUB_TOKEN"))
        try:
            found = deploy_problems(root, get, app_id)
        except InputError as error:
            print(error, file=sys.stderr)
            return 2
        bad = [(what, line) for what, line in found if what != "ok"]
        for what, line in found:
            print(f"{'ok' if what == 'ok' else 'missing'}: {line if what == 'ok' else f'{what}: {line}'}")
        return 2 if bad else 0
    print("usage: python -m neghub.leaderboard.deployment codeowners [--write] | check [--app-id N]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
