"""README.md's Layout: its layer diagram is the one scripts/layer_diagram.py draws from the code now (run as
`nox -s layers` runs it), what it draws follows the imports and the contracts' comments, and every entry at the
top of the repository is listed there with its job."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "layer_diagram.py"
README = ROOT / "README.md"
BEGIN, END = "<!-- layers:begin -->", "<!-- layers:end -->"


def _draw(root: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--root", str(root)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def draw(root: Path) -> str:
    drawn = _draw(root)
    assert drawn.returncode == 0, drawn.stderr
    return drawn.stdout


def readme_diagram() -> str:
    found = re.search(rf"^{BEGIN}\n(.*?)^{END}$", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert found, f"README.md has no {BEGIN} ... {END} block"
    return found[1]


def imports(drawn: str) -> dict[str, set[str]]:
    """What each module of the diagram imports, as its line `  module → a, b; torch` says."""
    lines = re.findall(r"^  (\w+) → (.*)$", drawn, re.MULTILINE)
    return {
        module: set() if what.startswith("nothing of ") else set(re.split(r", |; ", what)) for module, what in lines
    }


def test_the_readme_shows_the_layers_of_the_code_as_it_is() -> None:
    assert readme_diagram() == draw(ROOT), "README.md's layer diagram is stale: `nox -s layers` redraws it"


def _checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    for folder in ("evaluator", "leaderboard"):
        shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", root)
    return root


def test_an_import_that_appears_or_goes_changes_the_diagram(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    before = draw(root)
    drawn = imports(before)
    assert "papers" in drawn["benchmarks"] and "papers" not in drawn["releases"], "this test's imports have moved"
    assert "torch" not in drawn["families"]
    with (root / "evaluator" / "releases" / "__init__.py").open("a", encoding="utf-8") as module:
        module.write("\n\nfrom ..papers import quotes\n")
    with (root / "evaluator" / "families" / "__init__.py").open("a", encoding="utf-8") as module:
        module.write("\n\ndef _lazy() -> None:\n    import torch\n")
    for path in (root / "evaluator" / "benchmarks").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^from \.+papers\b.*\n", "", source, flags=re.MULTILINE), encoding="utf-8")

    after = imports(draw(root))
    assert after["releases"] == drawn["releases"] | {"papers"}
    assert after["benchmarks"] == drawn["benchmarks"] - {"papers"}
    assert after["families"] == drawn["families"] | {"torch"}
    unchanged = {module for module in drawn if module not in ("releases", "benchmarks", "families")}
    assert {module: after[module] for module in unchanged} == {module: drawn[module] for module in unchanged}


def test_a_layers_job_is_the_comment_beside_it(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    said = re.compile(r'^(    "releases",  # ).*$', re.MULTILINE)
    assert said.search(text), "pyproject.toml: the releases layer is no longer on a line of its own"
    pyproject.write_text(said.sub(r"\1a job said anew", text), encoding="utf-8")
    assert re.search(r"^releases +a job said anew$", draw(root), re.MULTILINE)


def test_a_folder_in_no_layer_is_refused_by_name(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / "evaluator" / "newcomer").mkdir()
    (root / "evaluator" / "newcomer" / "__init__.py").write_text('"""Not in the layers yet."""\n', encoding="utf-8")
    drawn = _draw(root)
    assert drawn.returncode != 0
    assert "neghub.evaluator.newcomer: in no layer" in drawn.stderr


# --- every entry at the top of the repository, with its job ---------------------------------------------------


def layout_entries() -> dict[str, str]:
    """The lines of the Layout's listing (its text blocks, the diagram aside) that start at the margin: an entry
    and its job."""
    layout = README.read_text(encoding="utf-8").split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    layout = re.sub(rf"^{BEGIN}$.*?^{END}$", "", layout, flags=re.MULTILINE | re.DOTALL)
    blocks = re.findall(r"^```text\n(.*?)^```$", layout, re.MULTILINE | re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines() if line and not line[0].isspace()]
    return {entry: job for entry, _, job in (line.partition(" ") for line in lines)}


def tracked_top_level() -> set[str]:
    """The names at the top of the checkout that git tracks, a folder's with a slash."""
    top = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != ROOT:
        pytest.skip("not a git checkout (the sdist's tests): git alone tells which entries are tracked")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, text=True, check=True)
    return {path.split("/", 1)[0] + ("/" if "/" in path else "") for path in listed.stdout.split("\0") if path}


def test_the_layout_lists_every_tracked_entry_at_the_top_and_its_job() -> None:
    listed = layout_entries()
    tracked = tracked_top_level()
    assert sorted(tracked - listed.keys()) == [], "README.md's Layout: list each new entry with its job"
    assert sorted(listed.keys() - tracked) == [], "README.md's Layout lists entries that are not in the repository"
    assert [entry for entry, job in listed.items() if not job.strip()] == []
