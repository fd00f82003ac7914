"""A plugin written for NegHub 0.1.0 still works in 0.2.0, and says what to change before 0.3.0.

tests/fixtures/plugin_0_1/ is the worked plugin as commit e607791^ wrote it (README.md's "Adding a benchmark" of
that time), renamed `korean-negation-legacy`: it imports `neghub.evaluator.releases.metadata` and
`neghub.evaluator.runners.plans`, the paths e607791 moved to `neghub.evaluator.protocol`. Installed as a third
party's distribution (tests/plugins.py), it runs through `neghub tasks`, `evaluate`, `validate` and a site build
with no error, each command naming the public import once on stderr: for the two moved paths (they warn when
imported) and for the two internal modules the plugin imports (read from its source). One test covers the four
commands: the site build is slow, and the plugin is installed once.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES, ROOT
from tests.plugins import Installed, complaints, pip_install

NAME = "korean-negation-legacy"
WHERE = "korean_negation_legacy:BENCHMARK of korean-negation-legacy 0.1"
PREFIX = f"warning: the plugin benchmark {NAME!r} ({WHERE}) uses a deprecated import: "
# what each command says, once: the two retired paths the plugin imports (each warns when imported), then the two
# internal modules it imports (read from its source, with the line), each with the import that replaces it
DEPRECATIONS = [
    *(
        f"{PREFIX}neghub.evaluator.{old} is deprecated since NegHub 0.2.0 and will be removed in 0.3.0: import from "
        f"neghub.evaluator.plugin instead (from neghub.evaluator.plugin import {names})"
        for old, names in (
            ("releases.metadata", "DatasetMetadata, ReleaseFile, LicenseFile, RecordField, ..."),
            ("runners.plans", "RunPlan, RunSettings, Rows"),
        )
    ),
    *(
        f"{PREFIX}neghub.evaluator.{internal} (korean_negation_legacy/__init__.py, line {line}) is internal to "
        "NegHub: deprecated for plugins since NegHub 0.2.0, it may move without notice from 0.3.0 on; import from "
        f"neghub.evaluator.plugin instead (from neghub.evaluator.plugin import {names})"
        for internal, line, names in (
            ("core.benchmark", 18, "ChartSeries, ChartSpec, Display, Headline, MetricDisplay"),
            (
                "families.multiple_choice",
                19,
                "MultipleChoiceSpec, Prompts, multiple_choice_benchmark, multiple_choice_plans, shuffle_each_item",
            ),
        )
    ),
]
# the answer of items 0..9 of the release (the worked plugin's, read off release/test.jsonl by eye): b is the
# answer of items 0, 3, 6 and 9
ANSWERS = ("b", "a", "c", "b", "a", "c", "b", "a", "c", "b")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("legacy-plugin")
    source = work / "source"
    shutil.copytree(
        FIXTURES / "plugin_0_1", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info")
    )
    pip_install(source, work / "site")
    return Installed((work / "site",))


def said(stderr: str) -> list[str]:
    """The deprecation lines of a command's stderr."""
    return [line for line in stderr.splitlines() if "uses a deprecated import" in line]


def always_b(path: Path) -> Path:
    """Completion-mode lines that always pick option b: right on the 4 items whose answer is b."""
    lines = [{"id": i, "loglikelihoods": {"a": -3.0, "b": -1.0, "c": -2.0}} for i in range(len(ANSWERS))]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def submission(root: Path, predictions: Path) -> Path:
    folder = root / "legacy-plugin-run"
    rel = f"predictions/{NAME}/run.jsonl"
    (folder / rel).parent.mkdir(parents=True)
    shutil.copyfile(predictions, folder / rel)
    metadata = {
        "model": {
            "kind": "local",
            "name": "Always b (0.1.0 plugin test)",
            "file": "always-b",
            "sha256": "d" * 64,
            "parameters": 1,
            "open_weights": True,
            "license": "Apache-2.0",
        },
        "submitter": {"name": "Tester", "contact": "https://example.org/tester", "github": "tester"},
        "date": "2025-05-01",
        "description": "A constant answer to the 0.1.0 plugin's benchmark.",
        "runs": [{"task": NAME, "split": "test", "file": rel, "shots": 0, "seed": 0, "mode": "completion"}],
    }
    (folder / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), encoding="utf-8")
    return folder


def test_a_plugin_written_for_0_1_runs_every_command_and_names_the_public_import(
    installed: Installed, tmp_path: Path
) -> None:
    listed = installed.neghub("tasks")
    assert listed.returncode == 0, listed.stderr
    assert NAME in [line.split("\t")[0] for line in listed.stdout.splitlines()]
    assert said(listed.stderr) == DEPRECATIONS
    assert complaints(listed.stderr) == []  # no other line: no error, no traceback

    predictions = always_b(tmp_path / "b.jsonl")
    scored = installed.neghub("evaluate", NAME, predictions, "--mode", "completion", "--json")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["metrics"]["acc"] == pytest.approx(4 / 10)
    assert said(scored.stderr) == DEPRECATIONS

    folder = submission(tmp_path / "submissions", predictions)
    validated = installed.neghub("validate", folder)
    assert validated.returncode == 0, validated.stderr
    assert said(validated.stderr) == DEPRECATIONS
    assert complaints(validated.stderr) == []

    pytest.importorskip("mkdocs", reason="the site extra is not installed (pip install -e '.[site]')")
    out = tmp_path / "public"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env=installed.env(NEGHUB_SUBMISSIONS_DIR=str(tmp_path / "submissions"), NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    html = (out / "benchmarks" / f"{NAME}.html").read_text(encoding="utf-8")
    assert "Always b (0.1.0 plugin test)" in html  # the submission's row, scored through the old paths
    assert said(built.stderr) == DEPRECATIONS
