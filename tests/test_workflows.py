"""The GitHub workflows as GitHub and an auditor read them: actionlint (with shellcheck on every `run:` script)
finds nothing; no workflow grants a permission to all its jobs, and each job's permissions say why, inline; the
GPU job installs only hashed, locked packages, all before the one step that holds the Hub token; the lock is for
the GPU runner and satisfies NegHub's own requirements; the runner registers for one job with the labels the
workflow asks for. (zizmor's audit is `nox -s zizmor`, a session of ci.yml.)
"""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT_CONFIG = ROOT / ".github" / "actionlint.yaml"
GPU_WORKFLOW = ROOT / ".github" / "workflows" / "gpu-eval.yml"
GPU_REPRODUCE_WORKFLOW = ROOT / ".github" / "workflows" / "gpu-reproduce.yml"
GPU_LOCK = ROOT / "requirements" / "gpu-eval.txt"
NOX_LOCK = ROOT / "requirements" / "nox.txt"
LEADERBOARD_LOCK = ROOT / "requirements" / "leaderboard.txt"
SUBMISSION_WORKFLOW = ROOT / ".github" / "workflows" / "submission.yml"
RUNNER_SCRIPT = ROOT / ".github" / "gpu-runner" / "one-job.sh"
RUNNER_UNIT = ROOT / ".github" / "gpu-runner" / "neghub-gpu-runner.service"
# the GPU runner as the lock targets it, in the names of PEP 508's environment markers
RUNNER_MARKERS = {
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "python_version": "3.11",
    "python_full_version": "3.11.0",
}


def program(name: str) -> str:
    """A program the test extra installs: beside this interpreter, else on PATH; the test fails without it."""
    search = os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")])
    found = shutil.which(name, path=search)
    if found is None:
        pytest.fail(f"{name} is not installed: install NegHub's `test` extra")
    return found


def actionlint(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """actionlint with shellcheck on the `run:` scripts; pyflakes off (no step runs inline Python)."""
    command = [program("actionlint"), "-no-color", "-shellcheck", program("shellcheck"), "-pyflakes=", *map(str, args)]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def load(path: Path) -> dict[str, Any]:
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict), path
    return loaded


def mapping(node: yaml.Node) -> dict[str, yaml.Node]:
    """A composed YAML mapping by its keys (the nodes keep the lines they were read from)."""
    assert isinstance(node, yaml.MappingNode), node.start_mark
    return {key.value: value for key, value in node.value}


def test_actionlint_finds_nothing_in_any_workflow() -> None:
    result = actionlint("-config-file", ACTIONLINT_CONFIG, *WORKFLOWS, cwd=ROOT)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_actionlint_knows_the_gpu_label_only_from_the_configuration(tmp_path: Path) -> None:
    # the same workflow in a repository without .github/actionlint.yaml: the runner's label is unknown
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    shutil.copyfile(GPU_WORKFLOW, workflows / GPU_WORKFLOW.name)
    result = actionlint(workflows / GPU_WORKFLOW.name, cwd=tmp_path)
    findings = [line for line in result.stdout.splitlines() if re.match(r"\S+:\d+:\d+: ", line)]
    assert result.returncode == 1
    assert len(findings) == 1
    assert findings[0].startswith(".github/workflows/gpu-eval.yml:")
    assert 'label "gpu" is unknown' in findings[0] and findings[0].endswith("[runner-label]")
    assert load(ACTIONLINT_CONFIG) == {"self-hosted-runner": {"labels": ["gpu"]}}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda path: path.name)
def test_no_workflow_grants_a_permission_to_all_its_jobs(path: Path) -> None:
    assert load(path)["permissions"] == {}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda path: path.name)
def test_every_job_grants_its_own_permissions_each_with_its_reason_inline(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    jobs = mapping(mapping(yaml.compose(path.read_text(encoding="utf-8")))["jobs"])
    for job_name, job in jobs.items():
        granted = mapping(job).get("permissions")
        assert granted is not None, f"{path.name}: job {job_name} sets no permissions of its own"
        # a mapping, one permission a line (`read-all`, `write-all` grant everything at once)
        assert isinstance(granted, yaml.MappingNode), f"{path.name}: job {job_name} grants {granted.value!r}"
        for key, _level in granted.value:
            reason = re.search(r"\s#\s*(.*)$", lines[key.start_mark.line])
            assert reason and len(reason[1].split()) >= 3, f"{path.name}:{key.start_mark.line + 1}: {key.value}: why?"


# each GPU workflow, and the one step it runs after the Hub token's step (the model offline, without the token)
GPU_WORKFLOWS = {
    GPU_WORKFLOW: 'nox -s gpu_eval -- "$MODEL" "$REVISION" "$TASKS" "$SUBMISSION_ID"',
    GPU_REPRODUCE_WORKFLOW: 'nox -s gpu_reproduce -- "$SUBMISSION_ID"',
}


def gpu_job(path: Path = GPU_WORKFLOW) -> dict[str, Any]:
    job = load(path)["jobs"]["run"]
    assert isinstance(job, dict)
    return job


def mentions_a_secret(value: object) -> bool:
    return "secrets." in json.dumps(value)


@pytest.mark.parametrize("path", GPU_WORKFLOWS, ids=lambda path: path.name)
def test_the_gpu_job_holds_the_hub_token_in_one_step_which_downloads_the_model(path: Path) -> None:
    job = gpu_job(path)
    assert not mentions_a_secret({key: value for key, value in job.items() if key != "steps"})
    with_secrets = [step for step in job["steps"] if mentions_a_secret(step)]
    assert len(with_secrets) == 1
    (step,) = with_secrets
    assert step["run"] == 'nox -s gpu_download -- "$MODEL" "$REVISION"'
    assert [name for name, value in step["env"].items() if mentions_a_secret(value)] == ["HF_TOKEN"]


@pytest.mark.parametrize("path", GPU_WORKFLOWS, ids=lambda path: path.name)
def test_the_gpu_job_installs_only_hashed_locks_and_all_before_the_token(path: Path) -> None:
    steps = gpu_job(path)["steps"]
    token_step = next(index for index, step in enumerate(steps) if mentions_a_secret(step))
    runs = [(index, step["run"]) for index, step in enumerate(steps) if "run" in step]
    pip_installs = [run for _index, run in runs if "pip install" in run]
    assert len(pip_installs) == 1  # nox itself, from its lock; gpu_install installs everything else
    assert "--require-hashes" in pip_installs[0] and "-r requirements/nox.txt" in pip_installs[0]
    installs = [index for index, run in runs if "pip install" in run or run == "nox -s gpu_install"]
    assert len(installs) == 2 and max(installs) < token_step
    after = [run for index, run in runs if index > token_step]
    assert after == [GPU_WORKFLOWS[path]]


def test_the_sessions_that_run_with_or_after_the_token_install_nothing() -> None:
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    sessions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name in ("gpu_download", "gpu_eval", "gpu_reproduce_model", "gpu_reproduce"):
        calls = [node for node in ast.walk(sessions[name]) if isinstance(node, ast.Call)]
        called = {call.func.attr for call in calls if isinstance(call.func, ast.Attribute)}
        assert "install" not in called, name
        assert not [
            call for call in calls if any(isinstance(a, ast.Constant) and a.value == "install" for a in call.args)
        ], name


def locked(path: Path) -> dict[str, tuple[Version, list[str]]]:
    """A lock file's pins: name -> (version, sha256s); every line is a pin, a hash of the pin above, or a comment."""
    pins: dict[str, tuple[Version, list[str]]] = {}
    current: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        pin = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+!-]*) \\", line)
        digest = re.fullmatch(r"--hash=sha256:([0-9a-f]{64})( \\)?", stripped)
        if pin:
            current = []
            pins[canonicalize_name(pin[1])] = (Version(pin[2]), current)
        elif digest and line.startswith(" ") and pins:
            current.append(digest[1])
        else:
            pytest.fail(f"{path.name}:{number}: neither an exact pin, its hash nor a comment: {line!r}")
    return pins


@pytest.mark.parametrize("path", [GPU_LOCK, NOX_LOCK, LEADERBOARD_LOCK], ids=lambda path: path.name)
def test_every_locked_package_is_an_exact_version_with_its_sha256s(path: Path) -> None:
    pins = locked(path)
    assert pins
    assert [name for name, (_version, hashes) in pins.items() if not hashes] == []


def test_the_gpu_lock_satisfies_neghub_its_models_extra_and_its_build() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *pyproject["project"]["dependencies"],
        *pyproject["project"]["optional-dependencies"]["models"],
        # gpu_install builds NegHub without build isolation: its build backend comes from the lock too
        *pyproject["build-system"]["requires"],
    ]
    pins = locked(GPU_LOCK)
    unmet = []
    for text in wanted:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate({**RUNNER_MARKERS, "extra": "models"}):
            continue
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None or not requirement.specifier.contains(pin[0], prereleases=True):
            unmet.append(f"{text} (locked: {pin[0] if pin else 'nothing'})")
    assert unmet == [], "run `nox -s lock`"


def test_the_gpu_lock_has_the_tests_torch_as_pypi_builds_it_for_linux_with_cuda() -> None:
    torch_pin = re.search(r'^TORCH = "torch==([^"]+)"$', (ROOT / "noxfile.py").read_text(encoding="utf-8"), re.M)
    assert torch_pin is not None
    pins = locked(GPU_LOCK)
    assert pins["torch"][0] == Version(torch_pin[1])
    # PyPI's Linux x86_64 torch wheel brings CUDA's libraries as packages; a lock made for a CPU-only platform
    # (this machine's +cpu wheel, macOS) has none of them
    assert {"nvidia-cublas", "nvidia-cudnn-cu13", "triton"} <= set(pins)


def test_the_nox_lock_pins_nox() -> None:
    assert "nox" in locked(NOX_LOCK)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda path: path.name)
def test_every_workflow_installs_nox_from_its_hashed_lock_only(path: Path) -> None:
    """nox runs every later step of a job: each job installs it with pip from requirements/nox.txt, every file
    pinned by its sha256 (--require-hashes) and nothing resolved beside it (--no-deps)."""
    installs = [
        step["run"]
        for job in load(path)["jobs"].values()
        for step in job.get("steps", [])
        if "pip install" in step.get("run", "")
    ]
    nox_installs = [run for run in installs if "nox" in run]
    assert nox_installs, f"{path.name} installs no nox"
    for run in nox_installs:
        assert run == "python -m pip install --no-cache-dir --require-hashes --no-deps -r requirements/nox.txt", run


def test_the_runner_script_passes_shellcheck() -> None:
    result = subprocess.run(
        [program("shellcheck"), str(RUNNER_SCRIPT)], capture_output=True, text=True, timeout=60, check=False
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_the_runner_registers_for_one_job_with_the_labels_the_gpu_job_asks_for() -> None:
    script = RUNNER_SCRIPT.read_text(encoding="utf-8")
    labels = re.search(r"labels: (\[[^]]*\])", script)
    assert labels is not None
    for path in GPU_WORKFLOWS:
        assert sorted(json.loads(labels[1])) == sorted(gpu_job(path)["runs-on"]["labels"])
    # a just-in-time configuration: one job per registration, then a new one
    assert "/actions/runners/generate-jitconfig" in script and "exec ./run.sh'" in script
    unit = RUNNER_UNIT.read_text(encoding="utf-8").splitlines()
    for setting in ("Restart=always", "KillMode=control-group", "PrivateTmp=yes"):
        assert setting in unit


def test_the_runners_credential_never_reaches_a_command_line() -> None:
    """`run.sh --jitconfig CONFIG` shows the one-job credential to every user of the machine (/proc/PID/cmdline):
    it goes by a file only the runner's user reads (umask 077, then chown), read into the runner's environment
    (ACTIONS_RUNNER_INPUT_JITCONFIG, which the runner reads for --jitconfig) by the runner's own shell, and deleted."""
    script = RUNNER_SCRIPT.read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("#"))
    assert "--jitconfig" not in code
    assert "(umask 077 && jq -j .encoded_jit_config" in code and 'chown "$runner_user:" "$jit_file"' in code
    assert '\'ACTIONS_RUNNER_INPUT_JITCONFIG=$(<"$NEGHUB_JIT_FILE") && rm -f "$NEGHUB_JIT_FILE"' in code


def test_a_refused_registration_stops_after_a_bounded_number_of_tries_with_one_line() -> None:
    script = RUNNER_SCRIPT.read_text(encoding="utf-8")
    assert re.search(r"^tries=3$", script, re.MULTILINE) and 'for try in $(seq "$tries")' in script
    (line,) = [line for line in script.splitlines() if "registration refused" in line]
    assert line.strip().startswith("echo ") and line.strip().endswith(">&2")
    assert "exit 78" in script
    unit = RUNNER_UNIT.read_text(encoding="utf-8").splitlines()
    for setting in ("RestartPreventExitStatus=78", "StartLimitIntervalSec=600", "StartLimitBurst=20"):
        assert setting in unit


# --- the verdict: the default branch's code, posted by the NegHub App (issue 38 item 2) -----------------------------


def triggers(path: Path) -> dict[str, Any]:
    data = load(path)
    on = data.get("on", data.get(True))  # PyYAML reads the bare key `on` as True
    assert isinstance(on, dict)
    return on


def test_the_verdict_runs_on_every_pull_request_with_the_default_branchs_workflow() -> None:
    # pull_request_target: the workflow file is the default branch's (a pull request's edit of it, or a workflow it
    # adds, never runs here); no paths filter: a required check that never starts blocks a pull request forever
    assert list(triggers(SUBMISSION_WORKFLOW)) == ["pull_request_target"]
    assert "paths" not in triggers(SUBMISSION_WORKFLOW)["pull_request_target"]
    assert "paths-ignore" not in triggers(SUBMISSION_WORKFLOW)["pull_request_target"]


def test_the_check_job_reads_the_pull_request_as_data_with_the_default_branchs_code() -> None:
    job = load(SUBMISSION_WORKFLOW)["jobs"]["check"]
    assert job["permissions"] == {"contents": "read", "pull-requests": "read"}
    steps = job["steps"]
    base_check = next(
        index for index, step in enumerate(steps) if "base is not the default branch" in step.get("name", "")
    )
    checkouts = [
        (index, step) for index, step in enumerate(steps) if step.get("uses", "").startswith("actions/checkout@")
    ]
    assert base_check < checkouts[0][0], "the base is refused before any code is checked out"
    (_, code), (_, data) = checkouts
    assert code["with"]["ref"] == "${{ github.sha }}" and "path" not in code["with"]
    assert data["with"]["ref"] == "${{ github.event.pull_request.head.sha }}" and data["with"]["path"] == "pull-request"
    for _, step in checkouts:
        assert step["with"]["persist-credentials"] is False
    # the pull request's folder is read, never run: no step runs or installs anything from it
    for step in steps:
        run = step.get("run", "")
        assert "pull-request/" not in run.split("--")[0].replace("nox -s", ""), run
        assert not re.search(r"pip install[^\n]*pull-request", run), run
    assert not mentions_a_secret(job)


def test_no_pull_request_run_saves_a_cache() -> None:
    # a cache saved by a pull request's run would be restored by the default branch's (cache poisoning)
    text = SUBMISSION_WORKFLOW.read_text(encoding="utf-8")
    uses = [step.get("uses", "") for job in load(SUBMISSION_WORKFLOW)["jobs"].values() for step in job["steps"]]
    assert not [u for u in uses if u.startswith(("actions/cache@", "actions/cache/save@"))], uses
    assert "cache: " not in text  # setup-python's own cache saves as well
    assert [u for u in uses if u.startswith("actions/cache/restore@")]


APP_TOKEN = "actions/create-github-app-token@"


def app_jobs() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path.name, name, job)
        for path in WORKFLOWS
        for name, job in load(path)["jobs"].items()
        if any(step.get("uses", "").startswith(APP_TOKEN) for step in job.get("steps", []))
    ]


def test_the_verdict_and_the_gpu_workflows_pull_requests_use_the_apps_token() -> None:
    # the required check is the App's check run; a pull request opened with GITHUB_TOKEN would start no check
    assert sorted((workflow, name) for workflow, name, _ in app_jobs()) == [
        ("gpu-eval.yml", "pull-request"),
        ("gpu-reproduce.yml", "pull-request"),
        ("submission.yml", "verdict"),
    ]
    verdict = load(SUBMISSION_WORKFLOW)["jobs"]["verdict"]
    assert verdict["needs"] == "check" and verdict["permissions"] == {}
    assert 'name="NegHub verdict"' in verdict["steps"][-1]["run"] and "check-runs" in verdict["steps"][-1]["run"]
    for path in WORKFLOWS:
        assert "github.token" not in json.dumps(
            [job for name, job in load(path)["jobs"].items() if name in ("pull-request", "verdict")]
        ), path.name


@pytest.mark.parametrize("workflow", ["submission.yml", "gpu-eval.yml", "gpu-reproduce.yml"])
def test_the_apps_key_sits_in_jobs_that_install_and_run_no_package(workflow: str) -> None:
    """The App's key is a secret of the `neghub-app` environment (deployments from the default branch only); the jobs
    that hold it check out at most the default branch, install nothing, and run only git and gh after the token."""
    for name, job_name, job in app_jobs():
        if name != workflow:
            continue
        assert job["environment"] == "neghub-app", job_name
        steps = job["steps"]
        token = next(index for index, step in enumerate(steps) if step.get("uses", "").startswith(APP_TOKEN))
        assert re.fullmatch(APP_TOKEN + r"[0-9a-f]{40}", steps[token]["uses"])
        assert steps[token]["with"]["private-key"] == "${{ secrets.NEGHUB_APP_PRIVATE_KEY }}"
        for step in steps:
            assert "pip" not in step.get("run", "") and "nox" not in step.get("run", ""), (job_name, step)
            assert not step.get("uses", "").startswith("actions/setup-python@"), (job_name, step)
        for step in steps[token + 1 :]:
            commands = [line.split()[0] for line in step["run"].splitlines() if line.strip() and line[0] != " "]
            assert set(commands) <= {
                "gh",
                "git",
                "if",
                "elif",
                "else",
                "fi",
                "conclusion=success",
                "conclusion=failure",
            }


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda path: path.name)
def test_jobs_with_a_write_token_install_only_from_hashes(path: Path) -> None:
    for name, job in load(path)["jobs"].items():
        writes = "write" in json.dumps(job.get("permissions") or {}) or any(
            step.get("uses", "").startswith(APP_TOKEN) for step in job.get("steps", [])
        )
        if not writes:
            continue
        for step in job.get("steps", []):
            run = step.get("run", "")
            for install in re.findall(r"pip install[^\n]*", run):
                assert "--require-hashes" in install, (path.name, name, install)
            assert "nox -s" not in run, (path.name, name, run)  # a session may install unpinned (install_project)


def test_the_gpu_reproduce_check_recomputes_agreement_from_a_hashed_install() -> None:
    job = load(GPU_REPRODUCE_WORKFLOW)["jobs"]["check"]
    assert job["permissions"] == {"contents": "read"} and not mentions_a_secret(job)
    assert load(GPU_REPRODUCE_WORKFLOW)["jobs"]["pull-request"]["needs"] == ["run", "check"]
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    (session,) = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "reproduction_check"]
    source = ast.unparse(session)
    assert "'--require-hashes', '--no-deps', '--only-binary', ':all:'" in source and "leaderboard.txt" in source
    assert "install_project" not in source and "session.install" not in source
    assert "check_rerun.py" in source


def test_the_gpu_machine_takes_jobs_only_from_its_runner_group() -> None:
    # A pull request can add any job to its own copy of a workflow, labels included: only an organisation runner
    # group whose access is limited to the two GPU workflows on main keeps such a job off the machine (README,
    # "The GPU runner"). The runner registers in that group, and both GPU jobs ask for it by name.
    script = RUNNER_SCRIPT.read_text(encoding="utf-8")
    assert "https://api.github.com/orgs/$org/actions/runners/generate-jitconfig" in script
    assert "/repos/" not in script  # a repository's runners sit in its default group, open to every workflow
    assert re.search(r"runner_group_id: \(\$group\|tonumber\)", script)
    unit = RUNNER_UNIT.read_text(encoding="utf-8")
    assert "Environment=NEGHUB_RUNNER_ORG=" in unit and "Environment=NEGHUB_RUNNER_GROUP_ID=" in unit
    for path in GPU_WORKFLOWS:
        assert gpu_job(path)["runs-on"]["group"] == "neghub-gpu"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in GPU_WORKFLOWS:
        assert f"OWNER/NAME/.github/workflows/{path.name}@refs/heads/main" in readme


def test_every_zizmor_suppression_is_justified_just_above_it() -> None:
    for path in WORKFLOWS:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            for rule in re.findall(r"zizmor: ignore\[([a-z-]+)\]", line):
                above = []
                for previous in reversed(lines[:number]):
                    if not previous.strip().startswith("#"):
                        break
                    above.append(previous)
                assert rule in " ".join(above), f"{path.name}:{number + 1}: ignore[{rule}] with no reason above it"


def noxfile_constant(name: str) -> Any:
    """A literal constant of noxfile.py (nox itself is not installed beside the tests)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    pytest.fail(f"noxfile.py has no constant {name}")


@pytest.mark.models
def test_a_model_as_gpu_download_caches_it_runs_offline_without_its_other_weight_formats(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from tests.test_runners import _causal

    revision = "89abcdef0123456789abcdef0123456789abcdef"
    built = _causal(tmp_path / "built", constant=True)
    (built / "pytorch_model.bin").write_bytes(b"not a checkpoint: never downloaded, never read")
    # the Hub cache's layout as snapshot_download leaves it, holding only what its ignore_patterns let through
    cache = tmp_path / "hub"
    snapshot = cache / "models--example--tiny" / "snapshots" / revision
    snapshot.mkdir(parents=True)
    skipped = noxfile_constant("UNREAD_WEIGHT_FORMATS")
    for file in built.iterdir():
        if not any(fnmatch.fnmatch(file.name, pattern) for pattern in skipped):
            shutil.copyfile(file, snapshot / file.name)
    assert not (snapshot / "pytorch_model.bin").exists() and (snapshot / "model.safetensors").is_file()

    def neghub_run(out: Path) -> subprocess.CompletedProcess[str]:
        """`neghub run` as gpu_eval runs it: offline, no token (on the CPU here; SCN's bundled word lists)."""
        env = {k: v for k, v in os.environ.items() if k not in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")}
        env.update(HF_HUB_CACHE=str(cache), HF_HUB_OFFLINE="1")
        command = [program("neghub"), "run", "example/tiny", "--revision", revision, "--tasks", "scn"]
        command += ["--max-pairs", "1", "--device", "cpu", "--no-progress", "-o", str(out)]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)

    ran = neghub_run(tmp_path / "sub")
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "sub" / "metadata.yaml").is_file()
    # the control: without the snapshot's safetensors file the same run has no model to load
    (snapshot / "model.safetensors").unlink()
    failed = neghub_run(tmp_path / "sub-without-weights")
    assert failed.returncode != 0 and "model.safetensors" in failed.stderr


def test_gpu_reproduce_downloads_the_hub_model_a_submission_pins_and_refuses_other_kinds(tmp_path: Path) -> None:
    program = noxfile_constant("PINNED_HUB_MODEL")
    hub = tmp_path / "hub.yaml"
    hub.write_text(f"model: {{kind: hub, repo_id: org/model-1, revision: '{'ab' * 20}'}}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", program, str(hub)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"repo_id=org/model-1\nrevision={'ab' * 20}\n")
    smollm2 = ROOT / "submissions" / "smollm2-135m-instruct" / "metadata.yaml"
    done = subprocess.run([sys.executable, "-c", program, str(smollm2)], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().endswith(
        "model.kind is 'pypi-gguf'; gpu-reproduce re-runs Hub models (others: neghub reproduce by hand)"
    )


def test_reproduction_check_reads_the_records_as_the_site_does(tmp_path: Path) -> None:
    program = noxfile_constant("READ_REPRODUCTIONS")
    committed = ROOT / "reproductions"
    done = subprocess.run([sys.executable, "-c", program, str(committed)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    (tmp_path / "some-model.json").write_text(
        (ROOT / "tests" / "fixtures" / "reproductions" / "sampled-schema-2-smollm2-135m-instruct.json").read_text(
            encoding="utf-8"
        )
    )
    done = subprocess.run([sys.executable, "-c", program, str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "some-model.json" in done.stderr


def test_the_gpu_sessions_check_submission_ids_with_the_format_s_pattern() -> None:
    from neghub.evaluator.submissions.format import SUBMISSION_ID_PATTERN

    assert f"^{noxfile_constant('SUBMISSION_ID')}$" == SUBMISSION_ID_PATTERN
