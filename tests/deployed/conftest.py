"""Checks of the built artifacts, run by `nox -s wheel` (never by the default test session: marker `deployed`).

The session builds the wheel and the sdist, installs the wheel into a fresh virtual environment and
passes three paths:
- NEGHUB_WHEEL, NEGHUB_SDIST: the built files;
- NEGHUB_DEPLOYED_BIN: the `neghub` command of that fresh environment (a base install: no extras).
These tests read the repository (tracked files, committed submissions) but never import NegHub: the
session's own environment has only pytest and PyYAML, and the `neghub` they run is the installed one,
started from a temporary folder so that no source folder can be imported by accident.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def artifact(variable: str) -> Path:
    value = os.environ.get(variable)
    if not value:
        pytest.fail(f"${variable} is not set: these tests check a built artifact; run them with `nox -s wheel`")
    path = Path(value)
    if not path.exists():
        pytest.fail(f"${variable} names {path}, which does not exist")
    return path


@pytest.fixture(scope="session")
def wheel() -> Path:
    return artifact("NEGHUB_WHEEL")


@pytest.fixture(scope="session")
def sdist() -> Path:
    return artifact("NEGHUB_SDIST")


@pytest.fixture(scope="session")
def neghub_bin() -> Path:
    return artifact("NEGHUB_DEPLOYED_BIN")


@pytest.fixture(scope="session")
def data_dir() -> Path | None:
    """The JNLI-Neg mirror ($NEGHUB_DATA_DIR, set by nox where ../shared/datasets exists), else None."""
    value = os.environ.get("NEGHUB_DATA_DIR")
    return Path(value) if value and (Path(value) / "jnli-neg").is_dir() else None


def tracked_files() -> list[str]:
    """Every file git tracks in the repository, as POSIX paths relative to its root."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return sorted(name.decode() for name in listing.split(b"\0") if name)


@dataclass
class Completed:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(neghub_bin: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run the installed `neghub ARGS...` from an empty temporary folder with umask 022 (`unset`: variables to drop)."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()

    def run(*args: str | Path, unset: tuple[str, ...] = ()) -> Completed:
        # no PYTHONPATH: only what is installed may be imported
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", *unset)}
        done = subprocess.run(
            [str(neghub_bin), *(str(a) for a in args)],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=600,
            umask=0o022,
            env=env,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return Completed(done.returncode, done.stdout, done.stderr)

    return run
