"""The sdist's run in `nox -s wheel` runs only the tests that read the repository's tree (scripts/sdist_tests.py): what
can differ in an unpacked archive is the files it carries and the history it lacks. A test that reads the tree,
itself or through a fixture, a helper or a constant, here or in a helper module of tests/, must be selected, or the
sdist would ship untested where it differs; a test that reads nothing of it is left to `nox -s tests`."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import ROOT

NOXFILE = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
SCRIPT = ROOT / "scripts" / "sdist_tests.py"


def _tree_tests() -> Any:
    spec = importlib.util.spec_from_file_location("sdist_tests", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script.tree_tests


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


CONFTEST = """from pathlib import Path
import pytest
ROOT = Path(__file__).parents[1]
SHARED = ROOT.parent / "shared"
@pytest.fixture
def readme():
    return (ROOT / "README.md").read_text()
@pytest.fixture
def shared():
    return SHARED
"""
HELPER = """from .conftest import ROOT
def committed():
    return sorted((ROOT / "submissions").iterdir())
def arithmetic():
    return 1 + 1
"""
MODULE = """import subprocess
from pathlib import Path
import pytest
from .conftest import ROOT
from .helper import arithmetic
CARDS = Path(__file__).parent.parent / "datasets_cards"
def _cards():
    return sorted(CARDS.iterdir())
def _history(folder):
    return subprocess.run(["git", "-C", str(folder), "log"])
def test_direct():
    assert (ROOT / "LICENSE").is_file()
def test_through_a_helper_and_a_constant():
    assert _cards()
def test_through_a_conftest_fixture(readme):
    assert readme
def test_through_a_helper_module_imported_inside():
    from tests.helper import committed
    assert committed()
@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "docs").iterdir()))
def test_through_its_parameters(name):
    assert name
def test_from_the_current_folder():
    assert Path.cwd()
def test_git_on_a_history_it_builds(tmp_path):
    _history(tmp_path)
def test_shared_beside_the_tree(shared):
    assert shared
def test_pure_logic():
    assert arithmetic() == 2
"""


def test_a_test_that_reads_the_tree_runs_in_the_sdist_and_one_that_does_not_is_left_out(tmp_path: Path) -> None:
    tests = _write(
        tmp_path / "tests",
        {"__init__.py": "", "conftest.py": CONFTEST, "helper.py": HELPER, "test_module.py": MODULE},
    )
    selected = [name.removeprefix("tests/test_module.py::") for name in _tree_tests()(tests)]
    assert selected == [
        "test_direct",
        "test_from_the_current_folder",
        "test_through_a_conftest_fixture",
        "test_through_a_helper_and_a_constant",
        "test_through_a_helper_module_imported_inside",
        "test_through_its_parameters",
    ]


def test_an_autouse_fixture_that_reads_the_tree_selects_every_test_of_its_module(tmp_path: Path) -> None:
    module = """import pytest
from .conftest import ROOT
@pytest.fixture(autouse=True)
def _in_the_checkout(monkeypatch):
    monkeypatch.setenv("X", str(ROOT))
def test_one():
    pass
"""
    tests = _write(tmp_path / "tests", {"__init__.py": "", "conftest.py": CONFTEST, "test_auto.py": module})
    assert _tree_tests()(tests) == ["tests/test_auto.py::test_one"]


def test_the_suites_tests_that_read_files_or_history_are_selected() -> None:
    selected = set(_tree_tests()(ROOT / "tests"))
    # README's commands; the committed submissions' paths; git's list of the repository's files
    assert "tests/test_readme_commands.py::test_the_test_command_is_the_one_ci_runs" in selected
    assert "tests/test_layer_diagram.py::test_the_layout_lists_every_tracked_entry_at_the_top_and_its_job" in selected
    assert not any(name.startswith("tests/test_rules_decide.py::") for name in selected)  # hand-made facts
    # a history built in a temporary folder is the same with or without an archive
    assert not any(name.startswith("tests/test_attacks_round2.py::") for name in selected)


def test_the_wheel_session_runs_the_selection_in_the_unpacked_sdist() -> None:
    (wheel,) = [node for node in NOXFILE.body if isinstance(node, ast.FunctionDef) and node.name == "wheel"]
    constants = {node.value for node in ast.walk(wheel) if isinstance(node, ast.Constant)}
    assert {"scripts", "sdist_tests.py"} <= constants
    starred = {getattr(node.value, "id", None) for node in ast.walk(wheel) if isinstance(node, ast.Starred)}
    assert "selected" in starred  # the node ids go to the sdist's pytest


def test_the_script_prints_the_selection_one_node_id_a_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(ROOT / "tests")], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == _tree_tests()(ROOT / "tests") != []
