"""The import contracts of pyproject.toml ([tool.importlinter], checked by `nox -s lint`) hold on NegHub's code, and
each breaks on the one import it forbids: a copy of the package with that import added fails lint-imports, naming
the contract. The copy is a regular package in a temporary folder, which lint-imports puts first on sys.path."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
LAYERS = "The evaluator's layers: each imports only those below it"
TYPE_CHECKING_IMPORT = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from {module} import {name}\n"


def _package_copy(folder: Path) -> Path:
    package = folder / "neghub"
    for part in ("evaluator", "leaderboard"):
        shutil.copytree(ROOT / part, package / part, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "__init__.py").write_text("", encoding="utf-8")  # regular: it shadows an installed neghub
    return package


def _lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    command = [str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False)


def test_the_code_keeps_every_contract(tmp_path: Path) -> None:
    _package_copy(tmp_path)
    linted = _lint_imports(tmp_path)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert "0 broken" in linted.stdout


# (module of the copy, the import appended to it, the contract that must break)
FORBIDDEN = [
    pytest.param("evaluator/core/registry.py", "from ..runners import run\n", LAYERS, id="core-imports-runners"),
    pytest.param(
        "evaluator/protocol/plans.py",
        TYPE_CHECKING_IMPORT.format(module="..core.benchmark", name="Benchmark"),
        LAYERS,
        id="type-checking-import-counts",
    ),
    pytest.param("evaluator/families/runs.py", "from ..submissions import format\n", LAYERS, id="independent-siblings"),
    pytest.param("evaluator/runners/run.py", "from ..interop import prompts\n", LAYERS, id="runners-import-interop"),
    pytest.param(
        "evaluator/benchmarks/scn/words.py",
        "from ..nubench import metadata\n",
        "No benchmark folder imports another",
        id="benchmark-imports-benchmark",
    ),
    pytest.param(
        "evaluator/releases/cards.py",
        "from ...leaderboard import site\n",
        "The leaderboard uses the evaluator; the evaluator never imports the leaderboard",
        id="evaluator-imports-leaderboard",
    ),
    pytest.param(
        "leaderboard/history.py",
        "from ..evaluator import cli\n",
        "The leaderboard and the command line are independent",
        id="leaderboard-imports-cli",
    ),
    pytest.param(
        "evaluator/families/reading.py",
        "def _lazy() -> None:\n    import torch\n",
        "Only the runners import torch and transformers",
        id="torch-below-runners",
    ),
]


@pytest.mark.parametrize(("module", "line", "contract"), FORBIDDEN)
def test_a_forbidden_import_breaks_its_contract(tmp_path: Path, module: str, line: str, contract: str) -> None:
    package = _package_copy(tmp_path)
    with (package / module).open("a", encoding="utf-8") as handle:
        handle.write("\n\n" + line)
    linted = _lint_imports(tmp_path)
    assert linted.returncode != 0
    broken = [line for line in linted.stdout.splitlines() if line.endswith(" BROKEN")]
    assert [line for line in broken if line.startswith(contract)], linted.stdout


def test_a_new_folder_of_the_evaluator_must_take_its_place_in_the_layers(tmp_path: Path) -> None:
    package = _package_copy(tmp_path)
    (package / "evaluator" / "newcomer").mkdir()
    (package / "evaluator" / "newcomer" / "__init__.py").write_text('"""Not in the layers yet."""\n', "utf-8")
    linted = _lint_imports(tmp_path)
    assert linted.returncode != 0
    assert "newcomer" in linted.stdout + linted.stderr


# --- no code outside a benchmark's folder names a built-in benchmark ------------------------------------------

BUILT_IN = re.compile(r"(?<![a-z])(jnli[-_]neg|jsts[-_]neg|nubench|scn)(?![a-z])", re.IGNORECASE)
# where a built-in benchmark may be named in code: its own folder; the leaderboard is its maintainers' (issue 26)
NAMING_ALLOWED = ("evaluator/benchmarks/", "leaderboard/")


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings (comments are no tokens of the tree at all)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_of_built_in_benchmarks(source: str) -> list[str]:
    """The identifiers and strings of a module's code (docstrings and comments aside) that name a built-in
    benchmark."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.alias):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append(node.module)
    return sorted({match for word in words for match in BUILT_IN.findall(word)})


def test_the_finder_sees_names_in_code_and_not_in_prose() -> None:
    source = '"""NUBench and SCN, in a docstring."""\n# jnli-neg in a comment\nfrom ..benchmarks import nubench\n'
    source += 'SCN_METRICS = ("drop",)\nTASK = "jsts-neg"\n\n\ndef f() -> None:\n    """scn"""\n'
    assert names_of_built_in_benchmarks(source) == ["SCN", "jsts-neg", "nubench"]


def test_no_module_outside_a_benchmarks_folder_names_a_built_in_benchmark() -> None:
    named = {}
    for path in sorted([*(ROOT / "evaluator").rglob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(NAMING_ALLOWED):
            continue
        found = names_of_built_in_benchmarks(path.read_text(encoding="utf-8"))
        if found:
            named[relative] = found
    assert named == {}
