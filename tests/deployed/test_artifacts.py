"""What the wheel and the sdist carry: every tracked file of the package folders, the LICENSE, one top-level name.

An editable or in-tree run cannot see a module missing from the wheel (it once hid one); these tests
read the built files themselves.
"""

from __future__ import annotations

import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT, tracked_files

pytestmark = pytest.mark.deployed

PACKAGE_FOLDERS = ("evaluator", "leaderboard")  # installed as neghub.evaluator and neghub.leaderboard
# tracked files that only the repository needs; the sdist leaves them out (the workflows and .ci/run travel
# with it: the tests that check them run from the unpacked sdist too)
# neghub/ holds two links (neghub/evaluator -> evaluator/, neghub/leaderboard -> leaderboard/) for editors and mypy
# in a checkout; the sdist carries the folders themselves, and the build maps them (setup.py)
REPOSITORY_ONLY = (".gitignore", "neghub/")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
DIST_INFO = f"{PROJECT['name']}-{PROJECT['version']}.dist-info"
SDIST_ROOT = f"{PROJECT['name']}-{PROJECT['version']}"


def package_files() -> list[str]:
    return [name for name in tracked_files() if name.split("/", 1)[0] in PACKAGE_FOLDERS]


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {info.filename for info in archive.infolist() if not info.is_dir()}


def test_wheel_carries_every_tracked_file_of_the_packages(wheel: Path) -> None:
    files = package_files()
    assert any(name.endswith(".py") for name in files)
    missing = sorted(set(f"neghub/{name}" for name in files) - wheel_names(wheel))
    assert missing == []


def test_wheel_carries_nothing_untracked_in_the_packages(wheel: Path) -> None:
    """A module deleted or renamed in the repository must not travel on in the wheel (stale build/lib)."""
    expected = {f"neghub/{name}" for name in package_files()}
    strays = sorted(name for name in wheel_names(wheel) if name.startswith("neghub/") and name not in expected)
    assert strays == []


def test_wheel_installs_one_top_level_name(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        top_level = archive.read(f"{DIST_INFO}/top_level.txt").decode()
    assert top_level.split() == ["neghub"]
    outside = sorted(n for n in wheel_names(wheel) if not n.startswith(("neghub/", f"{DIST_INFO}/")))
    assert outside == []


def test_wheel_carries_the_license(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        licenses = [n for n in archive.namelist() if n.startswith(f"{DIST_INFO}/") and n.endswith("/LICENSE")]
        assert licenses == [f"{DIST_INFO}/licenses/LICENSE"]
        assert archive.read(licenses[0]) == (ROOT / "LICENSE").read_bytes()
        metadata = archive.read(f"{DIST_INFO}/METADATA").decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()


def sdist_members(sdist: Path) -> dict[str, tarfile.TarInfo]:
    with tarfile.open(sdist) as archive:
        return {m.name: m for m in archive.getmembers() if m.isfile()}


def test_sdist_carries_every_tracked_file_but_the_repository_settings(sdist: Path) -> None:
    """The sdist runs its own test suite (nox -s wheel), so it needs the tests, submissions, site sources..."""
    expected = {f"{SDIST_ROOT}/{name}" for name in tracked_files() if not name.startswith(REPOSITORY_ONLY)}
    assert any(name.startswith(f"{SDIST_ROOT}/evaluator/") and name.endswith(".py") for name in expected)
    missing = sorted(expected - set(sdist_members(sdist)))
    assert missing == []


def test_sdist_carries_the_license(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        handle = archive.extractfile(f"{SDIST_ROOT}/LICENSE")
        assert handle is not None
        assert handle.read() == (ROOT / "LICENSE").read_bytes()
