"""Environment problems of the command line: an output that cannot be written, the `models` extra missing,
and the permissions of what is written (the user's umask, as any other program's new files).

Each problem must be one `error:` line on stderr and exit code 2, never a traceback, and leave nothing behind.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neghub.evaluator.fileio.files import atomic_write, new_file_mode
from tests.rule_submissions import rule_submission


def scn_predictions() -> Path:
    return rule_submission("never") / "predictions" / "scn" / "predictions.jsonl"


HUB_REVISION = "0123456789abcdef0123456789abcdef01234567"


def writing_commands(output: Path) -> dict[str, list[str]]:
    """Every subcommand that writes, with `output` as its -o; none needs ../shared (scn is generated)."""
    return {
        "baseline": ["baseline", "scn", "--kind", "never", "-o", str(output)],
        "evaluate": ["evaluate", "scn", str(scn_predictions()), "--bootstrap-resamples", "10", "-o", str(output)],
        # a pinned Hub id is resolved without the network; the output is checked before the model loads
        "run": ["run", "org/model", "--revision", HUB_REVISION, "--tasks", "scn", "-o", str(output)],
    }


# `neghub run` gets past its check of the models extra only where the extra is installed
RUN = pytest.param("run", marks=pytest.mark.models)


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*"))


@pytest.mark.parametrize("command", ["baseline", "evaluate", RUN])
def test_output_under_a_file_is_one_line(command: str, tmp_path: Path, neghub: Any) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file where -o needs a folder\n")
    output = blocker / "out"
    result = neghub(*writing_commands(output)[command])
    assert result.code == 2
    assert result.err == f"error: {output}: cannot be written: {blocker} is a file, not a folder\n"
    assert files_under(tmp_path) == [blocker]


def test_datasets_convert_output_under_a_file_is_one_line(shared_datasets: Path, tmp_path: Path, neghub: Any) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file where -o needs a folder\n")
    output = blocker / "release"
    result = neghub("datasets", "convert", "jnli-neg", "--source", shared_datasets / "jnli-neg", "-o", output)
    assert result.code == 2
    # convert writes the release files in order: the first one is the first that cannot be written
    assert result.err.count("\n") == 1
    assert result.err.startswith(f"error: {output}/")
    assert result.err.endswith(f": cannot be written: {blocker} is a file, not a folder\n")
    assert files_under(tmp_path) == [blocker]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc, where nothing can be created")
@pytest.mark.parametrize("command", ["baseline", "evaluate", RUN])
def test_output_in_proc_is_one_line(command: str, neghub: Any) -> None:
    output = Path("/proc/neghub-cannot-write-here")
    result = neghub(*writing_commands(output)[command])
    assert result.code == 2
    assert result.err == f"error: {output}: cannot be written: No such file or directory\n"
    assert not output.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder: the check needs another user")
@pytest.mark.parametrize("command", ["baseline", "evaluate", RUN])
def test_output_in_a_read_only_folder_is_one_line(command: str, tmp_path: Path, neghub: Any) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    output = locked / "out"
    try:
        result = neghub(*writing_commands(output)[command])
    finally:
        locked.chmod(0o755)
    assert result.code == 2
    assert result.err == f"error: {output}: cannot be written: Permission denied\n"
    assert files_under(locked) == []


@pytest.mark.parametrize("command", ["baseline", "evaluate"])
def test_an_output_file_path_that_is_a_folder_is_one_line(command: str, tmp_path: Path, neghub: Any) -> None:
    output = tmp_path / "results"
    output.mkdir()
    result = neghub(*writing_commands(output)[command])
    assert result.code == 2
    assert result.err == f"error: {output}: cannot be written: is a folder (expected a file path)\n"
    assert files_under(tmp_path) == [output]


@pytest.mark.models
def test_run_output_that_is_a_file_is_one_line(tmp_path: Path, neghub: Any) -> None:
    output = tmp_path / "submission"
    output.write_text("not a folder\n")
    result = neghub(*writing_commands(output)["run"])
    assert result.code == 2
    assert result.err == f"error: {output}: cannot be written: is a file (expected a folder)\n"


@pytest.mark.models
def test_run_of_a_folder_without_config_json_is_one_line(tmp_path: Path, neghub: Any) -> None:
    not_a_model = tmp_path / "empty-model"
    not_a_model.mkdir()
    output = tmp_path / "submission"
    result = neghub("run", str(not_a_model), "--tasks", "scn", "--no-progress", "-o", str(output))
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"error: MODEL: {not_a_model}: a model folder holds a config.json (transformers' save_pretrained)\n"
    )
    assert not output.exists()


@pytest.mark.models
def test_run_of_a_model_transformers_does_not_know_is_one_line_and_leaves_no_folder(
    tmp_path: Path, neghub: Any
) -> None:
    pytest.importorskip("transformers")
    not_a_model = tmp_path / "odd-model"
    not_a_model.mkdir()
    (not_a_model / "config.json").write_text("{}\n")  # no model_type: transformers cannot tell what it is
    output = tmp_path / "submission"
    result = neghub("run", str(not_a_model), "--tasks", "scn", "--no-progress", "-o", str(output))
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("error: MODEL: transformers cannot read the model's configuration: ")
    assert result.err.count("\n") == 1
    assert not output.exists()


def test_run_of_weights_that_cannot_be_read_is_one_line_and_leaves_no_folder(tmp_path: Path, neghub: Any) -> None:
    # a model folder whose configuration transformers knows and whose weights file is not one (a truncated or
    # corrupted download): safetensors raised its own error, a traceback
    transformers = pytest.importorskip("transformers")
    folder = tmp_path / "broken-weights"
    config = transformers.BertConfig(
        vocab_size=8, hidden_size=4, intermediate_size=8, num_hidden_layers=1, num_attention_heads=1
    )
    config.architectures = ["BertForMaskedLM"]
    config.save_pretrained(folder)
    (folder / "model.safetensors").write_bytes(b"not weights")
    output = tmp_path / "submission"
    result = neghub("run", str(folder), "--tasks", "scn", "--no-progress", "-o", str(output))
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"error: MODEL: transformers cannot read the model's weights in {folder}: ")
    assert result.err.count("\n") == 1
    assert not output.exists()


# --- the `models` extra ----------------------------------------------------------------------------

# Runs the command line with torch and transformers unimportable, as in a base install: a None entry in
# sys.modules makes `import torch` fail and importlib.util.find_spec("torch") answer None.
HIDE_MODELS_EXTRA = (
    "import sys\n"
    "sys.modules['torch'] = None\n"
    "sys.modules['transformers'] = None\n"
    "from neghub.evaluator.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def run_without_models_extra(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HIDE_MODELS_EXTRA, *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.mark.models  # it hides torch and transformers: the rest of the extra must be there
def test_run_without_the_models_extra_is_one_line(tmp_path: Path) -> None:
    output = tmp_path / "submission"
    result = run_without_models_extra(
        "run", "org/model", "--revision", HUB_REVISION, "--tasks", "scn", "-o", str(output), cwd=tmp_path
    )
    assert result.returncode == 2
    assert result.stderr == (
        "error: neghub run: needs the models extra (torch, transformers not installed): "
        "pip install torch==2.13.0 'neghub[models]'\n"
    )
    assert result.stdout == ""
    assert not output.exists()


def test_run_help_works_without_the_models_extra(tmp_path: Path) -> None:
    result = run_without_models_extra("run", "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: neghub run ")
    assert "-o OUTPUT, --output OUTPUT" in result.stdout


# --- permissions: the user's umask ---------------------------------------------------------------


def neghub_with_umask(umask: int, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        umask=umask,
    )


@pytest.mark.parametrize(("umask", "expected_mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
@pytest.mark.parametrize("command", ["baseline", "evaluate"])
def test_outputs_get_the_users_umask(command: str, umask: int, expected_mode: int, tmp_path: Path) -> None:
    output = tmp_path / "out.json"
    result = neghub_with_umask(umask, *writing_commands(output)[command], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(output.stat().st_mode) == expected_mode


@pytest.mark.parametrize(("umask", "expected_mode"), [(0o022, 0o644), (0o077, 0o600)])
def test_datasets_convert_files_get_the_users_umask(
    umask: int, expected_mode: int, shared_datasets: Path, tmp_path: Path
) -> None:
    output = tmp_path / "release"
    args = ("datasets", "convert", "jnli-neg", "--source", str(shared_datasets / "jnli-neg"), "-o", str(output))
    result = neghub_with_umask(umask, *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = [p for p in output.rglob("*") if p.is_file()]
    assert written
    assert {stat.S_IMODE(p.stat().st_mode) for p in written} == {expected_mode}


@settings(max_examples=25, deadline=None)
@given(umask=st.integers(min_value=0, max_value=0o777))
def test_atomic_write_gives_the_mode_open_gives(umask: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whatever the umask, an output has the mode a plain open() gives a new file (the oracle: the OS itself)."""
    folder = tmp_path_factory.mktemp("umask")
    previous = os.umask(umask)
    new_file_mode.cache_clear()  # read once per process; this test changes the umask within one
    try:
        with open(folder / "plain.txt", "w") as handle:
            handle.write("x")
        atomic_write(folder / "atomic.txt", lambda handle: handle.write("x"))
    finally:
        os.umask(previous)
        new_file_mode.cache_clear()
    plain, atomic = (stat.S_IMODE((folder / name).stat().st_mode) for name in ("plain.txt", "atomic.txt"))
    assert atomic == plain
