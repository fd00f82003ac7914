"""Plugins cannot break the house: broken plugins on the path leave every command working for every other
benchmark, each with one warning on stderr naming its distribution and its error.

Four distributions are written into a temporary site folder as an installer leaves them (package and dist-info,
with real entry points in the group `neghub.benchmarks`; tests/plugins.py), and NegHub's installed command line
runs with that folder on PYTHONPATH:
- `neghub-raises-on-import` 0.1: its module raises as it is imported;
- `neghub-not-a-benchmark` 0.2: its object is a dict, not a Benchmark;
- `neghub-wrong-name` 0.3: a Benchmark (NUBench's own) declared under another name;
- `neghub-claims-nubench` 0.4: an entry point named like the built-in NUBench.
The test environment itself sees none of them.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from neghub.evaluator.core.registry import benchmark_names
from tests.conftest import ROOT
from tests.plugins import Installed, complaints, write_distribution
from tests.rule_submissions import rule_submission

RAISES = "raises-on-import"
NOT_A_BENCHMARK = "not-a-benchmark"
WRONG_NAME = "wrong-name"
# what each plugin's warning says after "warning: the plugin benchmark NAME is left out: "
WHY = {
    RAISES: "neghub_raises_on_import:BENCHMARK of neghub-raises-on-import 0.1: RuntimeError: the plugin's own bug",
    NOT_A_BENCHMARK: "neghub_not_a_benchmark:BENCHMARK of neghub-not-a-benchmark 0.2: InvalidBenchmark: "
    "neghub_not_a_benchmark:BENCHMARK is a dict, not a neghub Benchmark",
    WRONG_NAME: "neghub_wrong_name:BENCHMARK of neghub-wrong-name 0.3: InvalidBenchmark: it is declared as "
    "'wrong-name' but names itself 'nubench'",
    "nubench": "neghub_claims_nubench:BENCHMARK of neghub-claims-nubench 0.4 claims the name of a benchmark built "
    "into NegHub",
}
WARNINGS = [f"warning: the plugin benchmark {name!r} is left out: {why}" for name, why in WHY.items()]
BASELINE = rule_submission("first")  # NUBench runs: its sample ships with NegHub


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    site = tmp_path_factory.mktemp("broken-plugins")
    write_distribution(
        site, "neghub-raises-on-import", "0.1", {RAISES: "neghub_raises_on_import:BENCHMARK"},
        'raise RuntimeError("the plugin\'s own bug")\n',
    )  # fmt: skip
    write_distribution(
        site, "neghub-not-a-benchmark", "0.2", {NOT_A_BENCHMARK: "neghub_not_a_benchmark:BENCHMARK"},
        'BENCHMARK = {"name": "not-a-benchmark"}\n',
    )  # fmt: skip
    write_distribution(
        site, "neghub-wrong-name", "0.3", {WRONG_NAME: "neghub_wrong_name:BENCHMARK"},
        "from neghub.evaluator.benchmarks.nubench import BENCHMARK as BENCHMARK\n",
    )  # fmt: skip
    write_distribution(
        site, "neghub-claims-nubench", "0.4", {"nubench": "neghub_claims_nubench:BENCHMARK"},
        "from neghub.evaluator.benchmarks.nubench import BENCHMARK as BENCHMARK\n",
    )  # fmt: skip
    return Installed((site,))


def warned(stderr: str) -> list[str]:
    """The warnings about this test's plugins, in order (each must come once)."""
    return [line for line in stderr.splitlines() if line in WARNINGS]


def test_tasks_lists_every_other_benchmark_and_warns_once_per_plugin(broken: Installed) -> None:
    done = broken.neghub("tasks")
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == benchmark_names()
    assert sorted(warned(done.stderr)) == sorted(WARNINGS)  # each once, though `tasks` looks every name up twice
    assert complaints(done.stderr) == []


def test_a_command_that_names_a_builtin_loads_no_plugin(broken: Installed, tmp_path: Path) -> None:
    # `baseline` and `evaluate` import the benchmark they name alone: no plugin is imported, none warns
    out = tmp_path / "first.jsonl"
    done = broken.neghub("baseline", "scn", "--kind", "repeat", "-o", out)
    assert (done.returncode, done.stderr) == (0, f"wrote 16000 predictions to {out}\n")
    done = broken.neghub("evaluate", "scn", out, "--json")
    assert (done.returncode, done.stderr) == (0, "")
    assert '"task": "scn"' in done.stdout


def test_the_claimed_builtin_name_still_serves_the_builtin(broken: Installed) -> None:
    file = BASELINE / "predictions" / "nubench" / "test-option.jsonl"
    done = broken.neghub("evaluate", "nubench", file, "--mode", "option", "--json")
    assert done.returncode == 0, done.stderr
    assert '"distribution": "neghub"' in done.stdout
    assert (warned(done.stderr), complaints(done.stderr)) == ([WARNINGS[-1]], [])


def test_validate_does_not_blame_a_builtin_submission(broken: Installed, tmp_path: Path) -> None:
    folder = tmp_path / "baseline-first"
    shutil.copytree(BASELINE, folder)
    done = broken.neghub("validate", folder)
    assert done.returncode == 0, done.stderr
    assert complaints(done.stderr) == []
    assert sorted(warned(done.stderr)) == sorted(WARNINGS)


def test_naming_a_broken_plugin_says_why(broken: Installed, tmp_path: Path) -> None:
    done = broken.neghub("evaluate", RAISES, tmp_path / "p.jsonl")
    assert done.returncode == 2
    assert complaints(done.stderr) == [f"error: task: the plugin benchmark {RAISES!r} is left out: {WHY[RAISES]}"]
    assert warned(done.stderr) == [WARNINGS[0]]  # only the plugin that was asked for was loaded


def test_schemas_are_the_builtins_alone(broken: Installed) -> None:
    done = broken.module("neghub.evaluator.submissions.schemas", "--check", ROOT / "schemas")
    without = Installed(()).module("neghub.evaluator.submissions.schemas", "--check", ROOT / "schemas")
    assert (done.returncode, complaints(done.stderr)) == (without.returncode, complaints(without.stderr))


def test_the_site_builds_with_the_other_benchmarks(broken: Installed, tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the site extra is not installed (pip install -e '.[site]')")
    submissions = tmp_path / "submissions"
    shutil.copytree(BASELINE, submissions / BASELINE.name)
    out = tmp_path / "public"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)]
    done = broken.run(command, ROOT, NEGHUB_SUBMISSIONS_DIR=str(submissions), NO_MKDOCS_2_WARNING="1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(warned(done.stderr)) == sorted(WARNINGS)
    assert "Rule: first" in (out / "benchmarks" / "nubench.html").read_text(encoding="utf-8")
    assert not (out / "benchmarks" / f"{RAISES}.html").exists()


def test_looking_up_one_builtin_imports_that_one_alone(broken: Installed) -> None:
    script = (
        "import sys\n"
        "from neghub.evaluator.core.registry import get_benchmark\n"
        "get_benchmark('scn')\n"
        "print(sorted(m for m in sys.modules if m.startswith('neghub.evaluator.benchmarks.') and m.count('.') == 3))\n"
    )
    done = broken.run([sys.executable, "-c", script])
    assert (done.returncode, done.stdout, done.stderr) == (0, "['neghub.evaluator.benchmarks.scn']\n", "")


def test_a_plugins_own_warnings_stay_pythons_and_its_internal_imports_are_named(tmp_path: Path) -> None:
    # the registry hears the warnings a plugin's import raises to tell NegHub's deprecations apart: any other
    # warning goes on to Python's filters as if no one had listened (a UserWarning is shown once, by default)
    code = (
        "import dataclasses\nimport warnings\n\n"
        'warnings.warn("the plugin\'s own warning", UserWarning)\n'
        "from neghub.evaluator.benchmarks.nubench import BENCHMARK as NUBENCH\n\n"
        'BENCHMARK = dataclasses.replace(NUBENCH, name="own-warning")\n'
    )
    write_distribution(
        tmp_path / "site", "neghub-own-warning", "0.5", {"own-warning": "neghub_own_warning:BENCHMARK"}, code
    )
    done = Installed((tmp_path / "site",)).neghub("tasks")
    assert done.returncode == 0, done.stderr
    assert "own-warning" in [line.split("\t")[0] for line in done.stdout.splitlines()]
    assert "UserWarning: the plugin's own warning" in done.stderr
    assert (
        "warning: the plugin benchmark 'own-warning' (neghub_own_warning:BENCHMARK of neghub-own-warning 0.5) uses a "
        "deprecated import: neghub.evaluator.benchmarks.nubench (neghub_own_warning/__init__.py, line 5) is internal "
        "to NegHub: deprecated for plugins since NegHub 0.2.0, it may move without notice from 0.3.0 on; import from "
        "neghub.evaluator.plugin instead; BENCHMARK: not in the plugin API"
    ) in done.stderr.splitlines()
