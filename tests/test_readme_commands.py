"""The README's commands, as a reader copies them: every `neghub` command parses with the CLI's own parser,
every nox session it names exists, installs are the pinned torch and the project (never editable: an
editable install once hid a subpackage missing from the wheel), the evaluator's quick start runs, and the
test command is the one `.ci/run` runs."""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# placeholders the README writes where a reader puts their own value
PLACEHOLDERS = {"<40-hex commit>": "0123456789abcdef0123456789abcdef01234567"}


def bash_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    return [m[1] for m in re.finditer(r"^```bash\n(.*?)^```$", text, re.M | re.S)]


def command_lines(block: str) -> list[str]:
    """A block's commands: continuation lines joined, comments dropped, `a && b` split."""
    lines = []
    for line in block.replace("\\\n", " ").splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            lines += [part.strip() for part in line.split("&&")]
    return lines


def every_command() -> list[str]:
    return [command for block in bash_blocks() for command in command_lines(block)]


def nox_sessions() -> set[str]:
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.decorator_list}


def test_the_readme_has_the_commands_this_test_reads() -> None:
    names = {shlex.split(c)[0] for c in every_command()}
    assert {"neghub", "pip", "python3"} <= names


def test_every_neghub_command_parses() -> None:
    from neghub.evaluator.cli import build_parser

    checked = 0
    for command in every_command():
        for placeholder, value in PLACEHOLDERS.items():
            command = command.replace(placeholder, value)
        words = shlex.split(command)
        if words[0] != "neghub":
            continue
        try:
            build_parser().parse_args(words[1:])
        except SystemExit as exited:  # argparse exits 2 on an unknown option or a missing argument
            pytest.fail(f"README: {command}: the CLI refuses it (exit {exited.code})")
        checked += 1
    assert checked >= 10


def test_every_nox_session_named_exists() -> None:
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"nox -s ([a-z_]+)", text))
    assert {"tests", "site", "interop", "perf"} <= named
    assert named <= nox_sessions(), named - nox_sessions()


def test_installs_are_the_pinned_torch_or_the_project_never_editable() -> None:
    installs = [c for c in every_command() if re.match(r"(\S*/)?pip install", c)]
    assert installs
    for command in installs:
        words = shlex.split(command)
        assert "-e" not in words and "--editable" not in words, command
        targets = [w for w in words[2:] if not w.startswith("-")]
        # and the worked plugin of "Adding a benchmark", installed as a third party's distribution
        allowed = {"torch==2.13.0", ".", ".[models]", ".[site]", "nox", "uv", "./tests/fixtures/plugin"}
        assert all(t in allowed for t in targets), command


def test_the_test_command_is_the_one_ci_runs() -> None:
    test_command = "python3 -m venv .venv && .venv/bin/pip install -q nox uv && .venv/bin/nox -s tests"
    assert any(block.strip() == test_command for block in bash_blocks())
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_evaluator_quick_start_runs(tmp_path: Path) -> None:
    """The block that starts with the base install, run as written after it (the test venv has NegHub)."""
    mirror = ROOT.parent / "shared" / "datasets"
    if not (mirror / "jnli-neg").is_dir():
        pytest.skip("the quick start reads the mirror ../shared/datasets, which this checkout does not have")
    (block,) = [b for b in bash_blocks() if b.startswith("pip install .")]
    neghub = str(Path(sys.executable).with_name("neghub"))
    env = {**os.environ, "NEGHUB_DATA_DIR": str(mirror)}
    outputs = []
    for command in command_lines(block)[2:]:  # after the install and the export, which env= stands in for
        words = shlex.split(command)
        assert words[0] == "neghub", command
        done = subprocess.run([neghub, *words[1:]], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        outputs.append(done.stdout)
    assert command_lines(block)[1] == "export NEGHUB_DATA_DIR=../shared/datasets"
    # the majority baseline gives every item one label, so no answer changes within a pair: on M_u, where the
    # gold does not change either, Acc and Acc' are equal and no pair is discordant
    result = json.loads(outputs[-1])
    m_u = result["metrics"]["pair_metrics"]["M_u"]
    assert m_u["acc_chg"] == 0.0 and m_u["discordant"] == {"control_only": 0, "treatment_only": 0}
