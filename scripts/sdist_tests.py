"""Which tests the sdist's run in `nox -s wheel` runs: those that read the repository's tree, what can differ in an
unpacked archive (the files it carries, the history it lacks). The other tests run the same installed code on the
same inputs as in `nox -s tests`, which already ran them. tests/test_sdist_run_selection.py keeps the selection
honest. Standard library only: it runs in the wheel session's environment.

    python scripts/sdist_tests.py TESTS_FOLDER    # the selected tests' pytest node ids, one a line
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

# What can differ in the unpacked sdist, a tree without git: the files the archive carries, and no history. A test
# reads the tree when the code it runs names the repository's root (conftest's ROOT, a path a folder or more above
# tests/) or works from the current folder (READS_THE_TREE): its own source, its decorators, the fixtures and
# module-level names it uses, and theirs, however deep, across the helper modules of tests/ it imports from. Git
# run on the repository's history names its root too; git run on a history a test builds in a temporary folder
# (tests/histories.py) is the same with or without an archive, and so is ../shared (ROOT.parent, parents[2]),
# linked beside the unpacked sdist as it sits beside a clone. Only these run there (`tree_tests`).
READS_THE_TREE = re.compile(r"\bROOT\b(?!\.parent\b)|parents\[1\]|parent\.parent(?!\.parent)|\bcwd\(|chdir\(")


def tree_tests(tests: Path) -> list[str]:
    """The tests of the modules directly in `tests` (test_*.py) that read the repository's tree, as pytest node ids
    (`tests/test_x.py::test_name`, every parametrization), sorted.

    Each top-level definition of a module of `tests` (function, fixture, class, assignment) is a node: its source
    (decorators included) reads the tree or not, and it uses the names it mentions: its module's definitions of
    those names and those it imports from other modules of `tests`, at the top of its module or inside itself.
    A test reads the tree when a node it reaches does; a module's autouse fixtures count for each of its tests.
    conftest.py's autouse fixtures are left out: they set up the environment (a git signer in a temporary
    folder), and read no file of the tree."""
    sources = {path.stem: path.read_text(encoding="utf-8") for path in sorted(tests.glob("*.py"))}
    reads: dict[tuple[str, str], bool] = {}
    uses: dict[tuple[str, str], set[tuple[str, str]]] = {}
    tests_of: dict[str, list[str]] = {}
    autouse: dict[str, list[str]] = {}

    def imported(node: ast.AST) -> dict[str, tuple[str, str]]:
        names: dict[str, tuple[str, str]] = {}
        for each in ast.walk(node):
            if isinstance(each, ast.ImportFrom) and each.module:
                helper = each.module.removeprefix("tests.") if each.level == 0 else each.module
                if (each.level == 1 or each.module.startswith("tests.")) and helper in sources:
                    names.update({alias.asname or alias.name: (helper, alias.name) for alias in each.names})
        return names

    for module, source in sources.items():
        tree = ast.parse(source)
        lines = source.splitlines()
        top_imports = imported(
            ast.Module(body=[n for n in tree.body if isinstance(n, ast.ImportFrom)], type_ignores=[])
        )
        defined: dict[str, ast.stmt] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                defined[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for each in ast.walk(target):
                        if isinstance(each, ast.Name):
                            defined[each.id] = node
        for name, definition in defined.items():
            first = min([definition.lineno, *(d.lineno for d in getattr(definition, "decorator_list", []))])
            text = "\n".join(lines[first - 1 : definition.end_lineno])
            # ROOT.parent is ../shared's folder, not the tree: a name used only so is not followed
            above = {id(n.value) for n in ast.walk(definition) if isinstance(n, ast.Attribute) and n.attr == "parent"}
            mentioned = {n.id for n in ast.walk(definition) if isinstance(n, ast.Name) and id(n) not in above}
            arguments = {
                a.arg for n in ast.walk(definition) if isinstance(n, ast.arguments) for a in (*n.args, *n.kwonlyargs)
            }
            local_imports = imported(definition)
            known = {*defined, *top_imports, *local_imports}
            # a fixture the module neither defines nor imports is conftest.py's
            conftest_fixtures = {("conftest", a) for a in arguments - known}
            mentioned |= arguments
            reads[module, name] = bool(READS_THE_TREE.search(text))
            uses[module, name] = {
                (module, m) if m in defined and m != name else {**top_imports, **local_imports}[m]
                for m in mentioned
                if (m in defined and m != name) or m in top_imports or m in local_imports
            } | conftest_fixtures
            if isinstance(definition, ast.FunctionDef) and "autouse=True" in text.split("def ", 1)[0]:
                autouse.setdefault(module, []).append(name)
        tests_of[module] = [
            n for n, definition in defined.items() if isinstance(definition, ast.FunctionDef) and n.startswith("test_")
        ]

    def reaches(start: tuple[str, str]) -> bool:
        seen: set[tuple[str, str]] = set()
        todo = [start]
        while todo:
            node = todo.pop()
            if node in seen or node not in reads:
                continue
            seen.add(node)
            if reads[node]:
                return True
            todo += uses[node]
        return False

    return sorted(
        f"{tests.name}/{module}.py::{test}"
        for module in sources
        if module.startswith("test_")
        for test in tests_of[module]
        if reaches((module, test)) or any(reaches((module, fixture)) for fixture in autouse.get(module, []))
    )


if __name__ == "__main__":
    print("\n".join(tree_tests(Path(sys.argv[1]))))
