"""Every `neghub` subcommand, run from the wheel installed into a fresh environment (base install, no extras).

Runs on the committed submissions and the data CI has: JNLI-Neg from $NEGHUB_DATA_DIR (skipped where it
is absent), NUBench and SCN from the files the wheel carries, JSTS-Neg from the tests' hand-made fixture.
"""

from __future__ import annotations

import json
import stat
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import ROOT

pytestmark = pytest.mark.deployed

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
SUBMISSIONS = sorted(p for p in (ROOT / "submissions").iterdir() if (p / "metadata.yaml").is_file())
TASKS = ["jnli-neg", "jsts-neg", "nubench", "scn"]
JSTS_NEG_FIXTURE = ROOT / "tests" / "fixtures" / "mirror"  # hand-made, in the release's schema
HUB_REVISION = "0123456789abcdef0123456789abcdef01234567"
NUBENCH_LICENSE = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "LICENSE"


def metadata(folder: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8"))
    return loaded


def committed_runs() -> list[tuple[Path, dict[str, Any]]]:
    return [(folder, run) for folder in SUBMISSIONS for run in metadata(folder)["runs"]]


def run_id(value: Any) -> str:
    if isinstance(value, Path):
        return value.name
    return str(value.get("file", value)) if isinstance(value, dict) else str(value)


def needs_data(task: str, data_dir: Path | None) -> None:
    if task == "jnli-neg" and data_dir is None:
        pytest.skip("JNLI-Neg needs $NEGHUB_DATA_DIR (../shared/datasets), absent here")


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def installed_package(neghub_bin: Path, module: str) -> Path:
    """Where the fresh environment's Python finds `module` (the installed copy, not the repository)."""
    python = neghub_bin.parent / "python"
    code = f"import {module} as m, pathlib; print(pathlib.Path(m.__file__).parent)"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, cwd="/")
    return Path(done.stdout.strip())


def test_the_command_runs_the_installed_copy(neghub_bin: Path) -> None:
    package = installed_package(neghub_bin, "neghub.evaluator")
    environment = neghub_bin.parent.parent
    assert package.is_relative_to(environment)
    assert package.parent.parent.name == "site-packages"


def test_help_lists_every_subcommand(cli: Any) -> None:
    result = cli("--help")
    assert result.code == 0, result.err
    assert result.out.startswith("usage: neghub ")
    for command in ("evaluate", "baseline", "tasks", "datasets", "validate", "run"):
        assert command in result.out


def test_version_is_the_projects(cli: Any) -> None:
    result = cli("--version")
    assert result.code == 0, result.err
    assert result.out == f"neghub {VERSION}\n"


def test_tasks_lists_the_four_benchmarks(cli: Any) -> None:
    result = cli("tasks")
    assert result.code == 0, result.err
    assert [line.split("\t")[0] for line in result.out.splitlines()] == TASKS


BASELINE_RUNS = [(f, r) for f, r in committed_runs() if metadata(f)["model"].get("kind") == "baseline"]


@pytest.mark.parametrize(("folder", "run"), BASELINE_RUNS, ids=[f"{f.name}-{run_id(r)}" for f, r in BASELINE_RUNS])
def test_baseline_writes_the_committed_predictions(
    folder: Path, run: dict[str, Any], cli: Any, data_dir: Path | None, tmp_path: Path
) -> None:
    """The installed command writes, byte for byte, the committed baseline submissions (scripts/baseline_submissions.py
    made them from the source tree with these arguments), as a 0644 file under umask 022."""
    needs_data(run["task"], data_dir)
    kind = metadata(folder)["model"]["baseline"]
    output = tmp_path / "predictions.jsonl"
    args = ["baseline", run["task"], "--kind", kind, "--seed", str(run["seed"] or 0), "-o", output]
    args += ["--split", run["split"]] if run["split"] else []
    args += ["--mode", run["mode"]] if run["mode"] else []
    result = cli(*args)
    assert result.code == 0, result.err
    assert output.read_bytes() == (folder / run["file"]).read_bytes()
    assert mode_of(output) == 0o644


def test_baseline_jsts_neg_on_the_fixture_mirror(cli: Any, tmp_path: Path) -> None:
    output = tmp_path / "jsts-neg.jsonl"
    args = ("baseline", "jsts-neg", "--kind", "majority", "--data-dir", JSTS_NEG_FIXTURE, "--unverified", "-o", output)
    result = cli(*args)
    assert result.code == 0, result.err
    fixture_lines = (JSTS_NEG_FIXTURE / "jsts-neg" / "jsts-neg-test.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(output.read_text(encoding="utf-8").splitlines()) == len(fixture_lines)


RUNS = committed_runs()


@pytest.mark.parametrize(("folder", "run"), RUNS, ids=[f"{f.name}-{run_id(r)}" for f, r in RUNS])
def test_evaluate_scores_every_committed_run(
    folder: Path, run: dict[str, Any], cli: Any, data_dir: Path | None, tmp_path: Path
) -> None:
    needs_data(run["task"], data_dir)
    output = tmp_path / "result.json"
    args = ["evaluate", run["task"], folder / run["file"], "--json", "-o", output]
    args += ["--split", run["split"]] if run["split"] else []
    args += ["--mode", run["mode"]] if run["mode"] else []
    result = cli(*args)
    assert result.code == 0, result.err
    printed = json.loads(result.out)
    assert json.loads(output.read_text(encoding="utf-8")) == printed
    assert mode_of(output) == 0o644


def test_validate_passes_every_committed_submission(cli: Any, data_dir: Path | None) -> None:
    folders = [f for f in SUBMISSIONS if data_dir or all(r["task"] != "jnli-neg" for r in metadata(f)["runs"])]
    result = cli("validate", *folders)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    # each ok line is followed by the model the leaderboard takes the submission for (submissions/identity.py)
    assert lines[::2] == [f"ok: {f}" for f in folders]
    assert all(line.startswith("  model: ") for line in lines[1::2]) and len(lines) == 2 * len(folders)


def test_datasets_verify_passes_on_the_installed_files(cli: Any, neghub_bin: Path) -> None:
    result = cli("datasets", "verify", unset=("NEGHUB_DATA_DIR",))
    assert result.code == 0, result.err
    checked = [line.split()[1] for line in result.out.splitlines() if line.startswith("OK ")]
    benchmarks = installed_package(neghub_bin, "neghub.evaluator.benchmarks")
    # NUBench's sample and SCN's word lists are checked where the wheel put them, against their pins
    assert any(Path(path).is_relative_to(benchmarks / "nubench" / "release") for path in checked)
    assert any(Path(path).is_relative_to(benchmarks / "scn" / "word_lists") for path in checked)


def test_datasets_verify_passes_on_the_jnli_neg_mirror(cli: Any, data_dir: Path | None) -> None:
    needs_data("jnli-neg", data_dir)
    assert data_dir is not None
    result = cli("datasets", "verify", "jnli-neg", "--data-dir", data_dir)
    assert result.code == 0, result.err
    checked = [line.split()[1] for line in result.out.splitlines() if line.startswith("OK ")]
    assert checked == [str(data_dir / "jnli-neg" / f"jnli-neg-{split}-v1.1.jsonl") for split in ("train", "valid")]


def test_datasets_convert_jnli_neg_builds_a_release_that_verifies(
    cli: Any, data_dir: Path | None, tmp_path: Path
) -> None:
    needs_data("jnli-neg", data_dir)
    assert data_dir is not None
    mirror = tmp_path / "converted"
    result = cli("datasets", "convert", "jnli-neg", "--source", data_dir / "jnli-neg", "-o", mirror / "jnli-neg")
    assert result.code == 0, result.err
    written = sorted(p.name for p in (mirror / "jnli-neg").iterdir())
    assert {"LICENSE", "README.md", "jnli-neg-train-v1.1.jsonl", "jnli-neg-valid-v1.1.jsonl"} <= set(written)
    assert {mode_of(p) for p in (mirror / "jnli-neg").iterdir()} == {0o644}
    verified = cli("datasets", "verify", "jnli-neg", "--data-dir", mirror)
    assert verified.code == 0, verified.err


@pytest.mark.skipif(not NUBENCH_LICENSE.is_file(), reason=f"{NUBENCH_LICENSE.relative_to(ROOT)} is not committed yet")
def test_datasets_convert_nubench_from_the_installed_sample(cli: Any, neghub_bin: Path, tmp_path: Path) -> None:
    sample = installed_package(neghub_bin, "neghub.evaluator.benchmarks.nubench") / "release"
    result = cli("datasets", "convert", "nubench", "--source", sample, "-o", tmp_path / "nubench")
    assert result.code == 0, result.err
    assert (tmp_path / "nubench" / "LICENSE").read_bytes() == NUBENCH_LICENSE.read_bytes()


def test_run_help_needs_no_torch(cli: Any, neghub_bin: Path) -> None:
    python = neghub_bin.parent / "python"
    probe = "import importlib.util; print(importlib.util.find_spec('torch') is None)"
    torch_absent = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True, cwd="/")
    assert torch_absent.stdout == "True\n"  # the base install must not pull torch
    result = cli("run", "--help")
    assert result.code == 0, result.err
    assert result.out.startswith("usage: neghub run ")


def test_run_without_the_models_extra_is_one_line(cli: Any, tmp_path: Path) -> None:
    output = tmp_path / "submission"
    result = cli("run", "org/model", "--revision", HUB_REVISION, "--tasks", "scn", "-o", output)
    assert result.code == 2
    assert result.err.startswith("error: neghub run: needs the models extra (torch, transformers, ")
    assert result.err.endswith(" not installed): pip install torch==2.13.0 'neghub[models]'\n")
    assert result.err.count("\n") == 1
    assert not output.exists()


def test_an_unwritable_output_is_one_line(cli: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file where -o needs a folder\n")
    result = cli("baseline", "scn", "--kind", "never", "-o", blocker / "out.jsonl")
    assert result.code == 2
    assert result.err == f"error: {blocker / 'out.jsonl'}: cannot be written: {blocker} is a file, not a folder\n"
