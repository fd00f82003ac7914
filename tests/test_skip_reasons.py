"""The end of a test run says why tests were skipped: one line per reason, with how many it skipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import ROOT

SKIPPING = """
import pytest

needs_chromium = pytest.mark.skip(reason="Chromium is not installed")


@pytest.mark.parametrize("page", range(3))
@needs_chromium
def test_page(page):
    pass


def test_release():
    pytest.skip("the real JNLI-Neg release is not here")


@needs_chromium
def test_one_more_page():
    pass


def test_runs():
    pass
"""


def test_each_skip_reason_is_one_line_with_its_count(tmp_path: Path) -> None:
    module = tmp_path / "test_skipping.py"
    module.write_text(SKIPPING, encoding="utf-8")
    # this suite's conftest as a plugin, in a folder of its own (no ini file: no markers or options of ours)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-q", "-p", "no:cacheprovider", str(module)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.split("why tests were skipped", 1)[1].splitlines()[1:3]
    assert summary == [
        "    4 skipped: Chromium is not installed",
        "    1 skipped: the real JNLI-Neg release is not here",
    ]
