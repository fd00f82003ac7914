"""NegHub's public plugin API (`neghub.evaluator.plugin`) holds still while the modules behind it move.

- its names are the committed list (tests/plugin_api_names.txt): a name added or removed fails here, where the
  change is seen and written into CHANGELOG.md, not in a third party's plugin;
- the worked plugin (tests/fixtures/plugin/) and README.md's "Adding a benchmark" import from it alone;
- every import path plugins used before it existed (the worked plugin and README at commit e607791^, and the
  modules that commit moved from releases/ and runners/ to protocol/) still gives the names it gave, with one
  DeprecationWarning that names the public import;
- the version is one number everywhere, and CHANGELOG.md has its entry.

tests/test_plugin_deprecations.py installs a whole plugin written against the old paths and runs the commands.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import neghub.evaluator
import neghub.evaluator.plugin as plugin
from tests.conftest import FIXTURES, ROOT

NAMES_FILE = Path(__file__).with_name("plugin_api_names.txt")
PUBLIC = "neghub.evaluator.plugin"
# the names each retired path held at commit e607791^ (`git show e607791^:evaluator/<path>`, its top-level
# classes, functions and constants but the private ones), that a plugin may have imported from it; the names
# that commit moved elsewhere than protocol/ (runners/requests.py's answer parsing, now interop/answers.py)
# were never a plugin's
OLD_PATHS = {
    "neghub.evaluator.releases.metadata": (
        "neghub.evaluator.protocol.metadata",
        "CardText DatasetMetadata ExpectedSplit HubPin HubRelease LicenseFile PIN_FILE_NAME PIN_HEADER PinnedFile "
        "RecordField ReleaseFile pin_text read_pin relative_inside",
    ),
    "neghub.evaluator.releases.licenses": (
        "neghub.evaluator.protocol.licenses",
        "HUB_LICENSES NOT_SPECIFIED hub_license_fields spdx_id",
    ),
    "neghub.evaluator.runners.plans": (
        "neghub.evaluator.protocol.plans",
        "DEFAULT_SEEDS PARTIAL_ITEMS SAMPLE_SEED SPLIT_ITEMS Rows RunPlan RunSettings batches partial_sample "
        "prompt_lengths token_batches",
    ),
    "neghub.evaluator.runners.requests": (
        "neghub.evaluator.protocol.requests",
        "BROKEN_CHARACTER MASK_PLACEHOLDER REQUEST_KINDS Request cut_at dumps execute request_from_json "
        "request_json requests_process",
    ),
}


def committed_names() -> list[str]:
    lines = NAMES_FILE.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_the_public_names_are_the_committed_list() -> None:
    names = committed_names()
    assert names == sorted(names)  # one place for each name: a change reads as one line of the diff
    assert sorted(plugin.__all__) == sorted(names)


def test_every_public_name_is_there() -> None:
    missing = [name for name in plugin.__all__ if not hasattr(plugin, name)]
    assert missing == []


def _neghub_imports(source: str) -> list[str]:
    """The NegHub modules a Python source imports (`import neghub...` and `from neghub... import`)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "neghub":
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "neghub"]
    return found


def test_the_worked_plugin_imports_the_public_module_only() -> None:
    sources = sorted((FIXTURES / "plugin").rglob("*.py"))
    assert sources
    imported = {module for path in sources for module in _neghub_imports(path.read_text(encoding="utf-8"))}
    assert imported == {PUBLIC}


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def test_readmes_adding_a_benchmark_imports_the_public_module_only() -> None:
    section = _section((ROOT / "README.md").read_text(encoding="utf-8"), "## Adding a benchmark")
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the section shows a plugin's imports"
    imported = {module for block in blocks for module in _neghub_imports(block)}
    assert imported == {PUBLIC}


CHECK_OLD_PATHS = """
import importlib, json, sys, warnings
paths = json.loads(sys.argv[1])
seen = {}
for old, (new, names) in paths.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
        importlib.import_module(old)  # a second import: the module is not run again
    moved = importlib.import_module(new)
    seen[old] = {
        "warnings": [[w.category.__name__, issubclass(w.category, DeprecationWarning), str(w.message)] for w in caught],
        "missing": [n for n in names.split() if not hasattr(module, n)],
        "other": [n for n in names.split() if hasattr(module, n) and getattr(module, n) is not getattr(moved, n)],
    }
print(json.dumps(seen))
"""


def test_each_retired_path_gives_its_names_and_warns_once_naming_the_public_import() -> None:
    # a fresh interpreter: this process may have imported the old paths already (a module warns when it runs)
    done = subprocess.run(
        [sys.executable, "-c", CHECK_OLD_PATHS, json.dumps(OLD_PATHS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    for old in OLD_PATHS:
        assert seen[old]["missing"] == [] and seen[old]["other"] == [], old
        ((category, is_deprecation, message),) = seen[old]["warnings"]
        assert (category, is_deprecation) == ("NegHubDeprecationWarning", True)
        assert message.startswith(f"{old} is deprecated since NegHub 0.2.0 and will be removed in 0.3.0: ")
        assert f"import from {PUBLIC} instead" in message


def test_the_old_paths_names_are_the_public_modules_objects() -> None:
    # what a plugin gets from an old path is the very class the public module exports (isinstance holds across)
    from neghub.evaluator.protocol import metadata, plans

    assert plugin.DatasetMetadata is metadata.DatasetMetadata and plugin.RunPlan is plans.RunPlan


def test_one_version_everywhere_and_its_changelog_entry() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == neghub.evaluator.__version__ == "0.2.0"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+)", changelog, re.M)
    assert "0.2.0" in headings and "0.1.0" in headings
    assert "\n## Plugin API\n" in changelog


def test_a_plugins_internal_imports_are_named_with_the_public_import() -> None:
    from neghub.evaluator.protocol.deprecation import internal_imports

    source = (
        "import json\n"
        "from neghub.evaluator.plugin import Display\n"  # the public module
        "from neghub.evaluator import __version__\n"  # the package's version
        "from neghub.evaluator.releases.metadata import CardText\n"  # retired: the module warns itself
        "from neghub.evaluator.core.benchmark import Display, Headline, Benchmark, TaskName\n"
        "import neghub.evaluator.families.minimal_pairs\n"
        "from . import sibling\n"  # the plugin's own
    )
    assert internal_imports(source, "p/__init__.py", frozenset(plugin.__all__)) == [
        "neghub.evaluator.core.benchmark (p/__init__.py, line 5) is internal to NegHub: deprecated for plugins since "
        "NegHub 0.2.0, it may move without notice from 0.3.0 on; import from neghub.evaluator.plugin instead "
        "(from neghub.evaluator.plugin import Display, Headline, Benchmark); TaskName: not in the plugin API",
        "neghub.evaluator.families.minimal_pairs (p/__init__.py, line 6) is internal to NegHub: deprecated for "
        "plugins since NegHub 0.2.0, it may move without notice from 0.3.0 on; import from neghub.evaluator.plugin "
        "instead",
    ]
    assert internal_imports("def broken(:\n", "p/x.py", frozenset()) == []  # the import says what is wrong with it
