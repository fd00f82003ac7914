"""The sdist's run in `nox -s wheel` runs only the test modules that read the repository's tree (noxfile.tree_tests):
what can differ in an unpacked archive is the files it carries and the history it lacks. A module that reads the
tree, directly or through a helper module of tests/, must be selected, or the sdist would ship untested where it
differs; a module that reads nothing of it is left to `nox -s tests`. (nox is not installed beside the tests: the
noxfile's pure helper is run from its source.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from .conftest import ROOT

NOXFILE = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))


def _tree_tests() -> Any:
    wanted = {"READS_THE_TREE", "TESTS_HELPER_IMPORT", "tree_tests"}
    body = [
        node
        for node in NOXFILE.body
        if (isinstance(node, ast.FunctionDef) and node.name in wanted)
        or (isinstance(node, ast.Assign) and {getattr(t, "id", None) for t in node.targets} & wanted)
    ]
    assert len(body) == 3
    namespace: dict[str, Any] = {"re": re, "Path": Path}
    exec(compile(ast.Module(body=body, type_ignores=[]), "noxfile.py", "exec"), namespace)
    return namespace["tree_tests"]


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_module_that_reads_the_tree_runs_in_the_sdist_and_a_pure_one_does_not(tmp_path: Path) -> None:
    tests = _write(
        tmp_path / "tests",
        {
            "__init__.py": "",
            "conftest.py": 'from pathlib import Path\nROOT = Path(__file__).parents[1]\nDATA = "x"\n',
            "history.py": 'import subprocess\ndef log(root):\n    return subprocess.run(["git", "-C", root, "log"])\n',
            "deeper.py": "from .history import log\n",
            "facts.py": "def fact():\n    return 1\n",
            "test_readme.py": 'from .conftest import ROOT\ndef test_it():\n    (ROOT / "README.md").read_text()\n',
            "test_own_root.py": 'from pathlib import Path\nREADME = Path(__file__).parent.parent / "README.md"\n',
            "test_history.py": "from .history import log\n",
            "test_deep.py": "from tests.deeper import log\n",
            "test_current_folder.py": "from pathlib import Path\ndef test_it():\n    Path.cwd()\n",
            # conftest.py's other names are no reading of the tree, nor is a helper that reads nothing
            "test_pure.py": "from .conftest import DATA\nfrom .facts import fact\ndef test_it():\n    fact()\n",
        },
    )
    assert _tree_tests()(tests) == [
        "tests/test_current_folder.py",
        "tests/test_deep.py",
        "tests/test_history.py",
        "tests/test_own_root.py",
        "tests/test_readme.py",
    ]


def test_the_suites_modules_that_read_files_or_history_are_selected() -> None:
    selected = set(_tree_tests()(ROOT / "tests"))
    # README's commands, the committed submissions and the git history of the maintainers' pushes
    assert {"tests/test_readme_commands.py", "tests/test_history.py", "tests/test_board_slugs.py"} <= selected
    assert "tests/test_rules_decide.py" not in selected  # rules at `decide`, on hand-made facts


def test_the_wheel_session_runs_the_selection_in_the_unpacked_sdist() -> None:
    (wheel,) = [node for node in NOXFILE.body if isinstance(node, ast.FunctionDef) and node.name == "wheel"]
    called = {
        node.func.id for node in ast.walk(wheel) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert "tree_tests" in called
    starred = {getattr(node.value, "id", None) for node in ast.walk(wheel) if isinstance(node, ast.Starred)}
    assert "selected" in starred  # the modules go to the sdist's pytest
