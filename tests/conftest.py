"""Shared test fixtures: where ../shared/datasets is, and a helper to run the command line."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from neghub.evaluator.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True, scope="session")
def _default_data_dir() -> Iterator[None]:
    """Plain `pytest` reads ../shared/datasets as nox's tests session does (tests may still override it)."""
    import os

    if "NEGHUB_DATA_DIR" in os.environ or not SHARED_DATASETS.is_dir():
        yield
        return
    os.environ["NEGHUB_DATA_DIR"] = str(SHARED_DATASETS)
    yield
    del os.environ["NEGHUB_DATA_DIR"]


@pytest.fixture(autouse=True, scope="session")
def _no_real_network(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test reaches a real upstream host or the user's cache: upstream URLs go to a port on 127.0.0.1
    where nothing listens (tests that serve files set their own endpoint), into a cache of the session's."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with pytest.MonkeyPatch.context() as session_env:
        session_env.setenv("NEGHUB_UPSTREAM_ENDPOINT", closed)
        session_env.setenv("NEGHUB_CACHE", str(tmp_path_factory.mktemp("neghub-cache")))
        yield


@pytest.fixture(autouse=True, scope="session")
def _git_signer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test signs as one known git user, on any machine: `neghub run` and `neghub import` sign a
    submission with `git config user.name`/`user.email` where no --submitter-* option is given, and a fresh CI
    machine has none (a developer's own would leak into the files). The user's global configuration is still
    read first (safe.directory and the like); the identity below overrides it; no system configuration."""
    import os

    config = tmp_path_factory.mktemp("git") / "gitconfig"
    user_global = Path(os.environ.get("GIT_CONFIG_GLOBAL") or Path.home() / ".gitconfig")
    include = f"[include]\n\tpath = {user_global}\n" if user_global.is_file() else ""
    config.write_text(
        include + "[user]\n\tname = NegHub tests\n\temail = tests@example.org\n[github]\n\tuser = neghub-tests\n",
        encoding="utf-8",
    )
    with pytest.MonkeyPatch.context() as session_env:
        session_env.setenv("GIT_CONFIG_GLOBAL", str(config))
        session_env.setenv("GIT_CONFIG_NOSYSTEM", "1")
        yield


@pytest.fixture
def shared_datasets() -> Path:
    """A folder holding the real JNLI-Neg release as `jnli-neg/`: ../shared/datasets beside the checkout, or
    the mirror $NEGHUB_DATA_DIR names (where ../shared is absent, nox's tests session points it at the
    releases `nox -s data` fetched from their pinned upstream); tests that need it skip without either."""
    import os

    for root in (SHARED_DATASETS, Path(os.environ.get("NEGHUB_DATA_DIR") or SHARED_DATASETS)):
        if (root / "jnli-neg").is_dir():
            return root
    pytest.skip(f"the real JNLI-Neg release is not here (no {SHARED_DATASETS}, no NEGHUB_DATA_DIR mirror)")


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def neghub(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run `neghub ARGS...` in-process and capture its exit code, stdout and stderr."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def realistic_submissions() -> ModuleType:
    """perf/realistic_submissions.py (the site benchmark's submissions), loaded from its file: perf/ is no package."""
    spec = importlib.util.spec_from_file_location("realistic_submissions", ROOT / "perf" / "realistic_submissions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_json_problems(out: str, err: str) -> None:
    """`--json` on bad input: stdout is one JSON object, the problems stderr lists, never a half-written result."""
    import json

    record = json.loads(out)
    assert set(record) == {"error", "exit_code", "problems"} and record["error"] == "bad input"
    assert record["problems"] and all(p["message"] in err for p in record["problems"])


def flat_result(record: dict[str, Any]) -> dict[str, Any]:
    """A result record (schemas/result.schema.json) as one flat mapping, for assertions: the scorer's figures,
    the provenance, and the dataset's identity as dataset_* (dataset_sha256, dataset_source, ...)."""
    provenance = dict(record["provenance"])
    dataset = provenance.pop("dataset") or {}
    return {
        **record["metrics"],
        **provenance,
        **{f"dataset_{key}": value for key, value in dataset.items()},
        "headline": record["headline"],
    }


@pytest.fixture(scope="session")
def split() -> tuple[list[int], list[str]]:
    """The ids and gold labels of JNLI-Neg's validation split, in the release's order (the tests of the verdicts
    build their rows on it); skipped where the real release is not here."""
    import os

    from neghub.evaluator.benchmarks import jnli_neg

    for root in (SHARED_DATASETS, Path(os.environ.get("NEGHUB_DATA_DIR") or "/nonexistent")):
        if (root / "jnli-neg").is_dir():
            dataset = jnli_neg.load("valid", data_dir=root)
            return [int(i) for i in dataset.ids], [jnli_neg.LABELS[int(g)] for g in dataset.gold]
    pytest.skip("the real JNLI-Neg release is not here (no ../shared/datasets, no NEGHUB_DATA_DIR mirror)")


def skip_reasons(reports: list[Any]) -> list[tuple[int, str]]:
    """(count, reason) of the skipped tests' reports, most frequent first (ties by reason)."""
    from collections import Counter

    counted: Counter[str] = Counter()
    for report in reports:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
        counted[str(reason).removeprefix("Skipped: ")] += 1
    return sorted(((count, reason) for reason, count in counted.items()), key=lambda pair: (-pair[0], pair[1]))


@dataclass(frozen=True)
class SkipCause:
    """One cause of skipped tests, as the summary says it: the words that tell a test's reason is this cause, what
    the cause is, and what makes those tests run."""

    matches: tuple[str, ...]  # a reason holding any of these (case ignored) is this cause's
    cause: str
    fix: str


# the causes a checkout meets, each said once with its fix (the tests' own reasons vary in wording: nine
# ways of saying the JNLI-Neg release is not here); a reason of none of them is shown as it is
SKIP_CAUSES = (
    SkipCause(
        ("jnli-neg", "../shared", "shared/datasets", "shared/papers", "release is not", "release cannot be read"),
        "../shared is not beside this checkout (the real JNLI-Neg release, the papers' text)",
        "put the shared folder at ../shared, or point NEGHUB_DATA_DIR at a JNLI-Neg mirror (nox -s data fetches "
        "the releases, and nox -s tests then reads them)",
    ),
    SkipCause(
        ("not installed", "could not import", "no module named"),
        "a package or tool is not installed",
        "nox -s tests installs the test, site and models extras; Chromium, npm and node come from the system "
        "(README, Run the tests)",
    ),
    SkipCause(
        ("/proc", "root writes", "not a git checkout", "onednn"),
        "this machine cannot run them (Linux's /proc, a user other than root, a git checkout, oneDNN)",
        "run them on a Linux git checkout as a user other than root (CI does)",
    ),
)


def without_machine_paths(reason: str) -> str:
    """A skip reason with no path of this machine: the checkout's folder as `.`, the folder beside it as `..`, any
    other absolute path by its last part."""
    import re

    reason = reason.replace(str(ROOT) + "/", "").replace(str(ROOT.parent) + "/", "../")
    return re.sub(r"(?<![\w.])/(?:[^\s/:,()]+/)+([^\s/:,()]+)", r"\1", reason)


def skip_summary(reasons: list[tuple[int, str]]) -> list[str]:
    """The summary's lines: one per cause (its count, what it is, its fix; the causes in SKIP_CAUSES's order), then
    each reason of no known cause with its count; no path of this machine."""
    per_cause = [0] * len(SKIP_CAUSES)
    others: list[tuple[int, str]] = []
    for count, reason in reasons:
        folded = reason.lower()
        index = next((i for i, c in enumerate(SKIP_CAUSES) if any(m in folded for m in c.matches)), None)
        if index is None:
            others.append((count, without_machine_paths(reason)))
        else:
            per_cause[index] += count
    lines = [
        f"{count:>5} skipped: {cause.cause}: {cause.fix}"
        for count, cause in zip(per_cause, SKIP_CAUSES, strict=True)
        if count
    ]
    return lines + [f"{count:>5} skipped: {reason}" for count, reason in others]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Why tests were skipped, one line per cause with its count and fix, at the end of the run: a fresh clone skips
    those that need ../shared, lm-eval or Chromium, and says which and how many (README, "Run the tests")."""
    lines = skip_summary(skip_reasons(terminalreporter.stats.get("skipped", [])))
    if lines:
        terminalreporter.section("why tests were skipped")
        for line in lines:
            terminalreporter.write_line(line)
