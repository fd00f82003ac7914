"""NEGHUB_PLUGINS: the plugin benchmarks the leaderboard's sessions install are requirement lines pinned by hash,
from the repository variable or else the checkout's requirements/plugins.txt (scripts/plugin_requirements.py);
anything else is refused, one line per bad line, before pip sees it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "plugin_requirements.py"
_spec = importlib.util.spec_from_file_location("plugin_requirements", SCRIPT)
assert _spec is not None and _spec.loader is not None
plugins: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(plugins)

A = "a" * 64
B = "b" * 64


def run(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_pip_compile_output_becomes_one_line_per_requirement() -> None:
    text = (
        "# the leaderboard's plugins\n"
        f"korean-negation-mc==1.0 \\\n    --hash=sha256:{A} \\\n    --hash=sha256:{B}\n"
        "    # via -r plugins.in\n"
        "\n"
        f"Some_Dep[extra]==2.0.post1 --hash=sha256:{B}  # a dependency of the plugin\n"
    )
    lines, problems = plugins.requirement_lines("plugins.txt", text)
    assert problems == []
    assert lines == [
        f"korean-negation-mc==1.0 --hash=sha256:{A} --hash=sha256:{B}",
        f"Some_Dep[extra]==2.0.post1 --hash=sha256:{B}",
    ]


@pytest.mark.parametrize(
    "line",
    [
        "korean-negation-mc==1.0",  # no hash
        f"korean-negation-mc>=1.0 --hash=sha256:{A}",  # not pinned
        f"korean-negation-mc==1.0 --hash=md5:{A[:32]}",  # not sha256
        f"-e ./plugin --hash=sha256:{A}",  # an editable folder: code from anywhere
        "--index-url https://example.org/simple",  # another index
        f"https://example.org/plugin.whl --hash=sha256:{A}",  # a URL
        f"korean-negation-mc==1.0 --hash=sha256:{A} --pre",  # an option after the hashes
    ],
)
def test_anything_but_a_pinned_hashed_requirement_is_refused(line: str) -> None:
    lines, problems = plugins.requirement_lines("plugins.txt", f"# ok\n{line}\n")
    assert lines == []
    assert problems == [
        f"plugins.txt:2: expected a pinned requirement with its hash (name==version --hash=sha256:HEX), got {line!r}"
    ]


def test_the_repository_variable_replaces_the_file_and_is_checked_alike() -> None:
    done = run(NEGHUB_PLUGINS=f"korean-negation-mc==1.0 --hash=sha256:{A}\nfoo>=1\n")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "error: $NEGHUB_PLUGINS:2: expected a pinned requirement with its hash (name==version "
        "--hash=sha256:HEX), got 'foo>=1'\n"
    )
    done = run(NEGHUB_PLUGINS=f"korean-negation-mc==1.0 --hash=sha256:{A}\n")
    assert (done.returncode, done.stdout) == (0, f"korean-negation-mc==1.0 --hash=sha256:{A}\n")


def test_without_the_variable_the_committed_file_lists_no_plugin() -> None:
    # an empty variable (a repository without it) falls back to requirements/plugins.txt, empty by default
    done = run(NEGHUB_PLUGINS="")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "", "")
    assert plugins.PLUGINS_FILE.is_file()


def test_workflows_pass_the_repository_variable_to_the_sessions_that_install_plugins() -> None:
    # the variable, never a file of the pull request: the checks run the base branch's code and files
    for workflow in ("pages.yml", "submission.yml"):
        text = (ROOT / ".github" / "workflows" / workflow).read_text(encoding="utf-8")
        assert "NEGHUB_PLUGINS: ${{ vars.NEGHUB_PLUGINS }}" in text
