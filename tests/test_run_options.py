"""Every run option checked against the tasks chosen before a dataset or a model is read (`neghub run`, `prompts`,
`import`, `export`, `reproduce`): an option that applies to none of them is refused, naming it; a value a task it
applies to does not take is refused, with "did you mean". Each refusal's fix is run.

And what a run publishes (its command, its model's name): nothing of the machine it was made on. The lm-eval
export's and import's own are in test_lm_eval_files.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.submissions.format import absolute_path

from .conftest import ROOT

REVISION = "0123456789abcdef0123456789abcdef01234567"
# a Hub model that is nowhere: a run that got past its options would fail at the model (offline), not before
NOWHERE = ["run", "example/not-downloaded", "--revision", REVISION]


@pytest.fixture
def nothing_loads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No mirror, no network, an empty cache: reading a release or a model would fail, and say so."""
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    monkeypatch.setenv("NEGHUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "empty-cache"))
    return tmp_path


@pytest.mark.parametrize(
    ("options", "line"),
    [
        (
            ["--tasks", "jnli-neg", "--mode", "option"],
            "--mode: applies to none of the tasks chosen (jnli-neg): it sets the mode (only nubench takes it); "
            "leave it out",
        ),
        (
            ["--tasks", "nubench", "--prompt", "simpel"],
            "--prompt: nubench has no prompt style 'simpel' (expected simple, definition, detail); did you mean "
            "'simple'?",
        ),
        (
            ["--tasks", "jnli-neg", "--split", "vaild"],
            "--split: jnli-neg has no split 'vaild' (expected train, valid); did you mean 'valid'?",
        ),
        (
            ["--tasks", "scn", "--shots", "5"],
            "--shots: applies to none of the tasks chosen (scn): it sets the few-shot count (only jnli-neg, "
            "jsts-neg, nubench take it); leave it out",
        ),
        (
            ["--tasks", "nubench", "--max-pairs", "3"],
            "--max-pairs: applies to none of the tasks chosen (nubench): it sets the name/profession pairs (only scn "
            "takes it); leave it out",
        ),
    ],
)
def test_run_refuses_an_option_before_anything_is_read(
    options: list[str], line: str, nothing_loads: Path, neghub: Any
) -> None:
    out = nothing_loads / "out"
    result = neghub(*NOWHERE, *options, "-o", out)
    assert (result.code, result.err) == (2, f"error: {line}\n")
    assert not out.exists()


def test_every_refusal_is_said_at_once(nothing_loads: Path, neghub: Any) -> None:
    options = ["--tasks", "nubench", "--prompt", "detial", "--split", "tset", "--max-pairs", "2"]
    result = neghub(*NOWHERE, *options, "-o", nothing_loads / "out")
    assert result.code == 2
    assert [line.split(": ")[1] for line in result.err.splitlines()] == ["--split", "--prompt", "--max-pairs"]
    assert "did you mean 'test'?" in result.err and "did you mean 'detail'?" in result.err


def test_prompts_refuses_an_option_its_task_does_not_take_and_the_fix_writes_the_requests(
    tmp_path: Path, neghub: Any
) -> None:
    requests = tmp_path / "requests.jsonl"
    refused = neghub("prompts", "nubench", "--mode", "option", "--max-pairs", "3", "-o", requests)
    assert refused.code == 2 and "--max-pairs: applies to none of the tasks chosen (nubench)" in refused.err
    assert not requests.exists()
    fixed = neghub("prompts", "nubench", "--mode", "option", "-o", requests)  # the fix: left out
    assert fixed.code == 0, fixed.err
    assert len(requests.read_text().splitlines()) == 46  # the bundled sample's test items


def test_prompts_says_did_you_mean_and_the_suggestion_works(tmp_path: Path, neghub: Any) -> None:
    requests = tmp_path / "requests.jsonl"
    refused = neghub("prompts", "nubench", "--mode", "optoin", "-o", requests)
    assert refused.err == (
        "error: --mode: nubench has no mode 'optoin' (expected completion, option); did you mean 'option'?\n"
    )
    assert neghub("prompts", "nubench", "--mode", "option", "-o", requests).code == 0


def test_import_refuses_an_option_before_reading_the_answers(tmp_path: Path, neghub: Any) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text("not even json\n")
    result = neghub("import", "nubench", answers, "--mode", "option", "--chat-template", "on", "-o", tmp_path / "s")
    assert result.code == 2
    assert result.err.startswith("error: --chat-template: applies to none of the tasks chosen (nubench)")
    assert "answers.jsonl" not in result.err


def test_reproduce_refuses_an_unknown_task_before_reading_the_submission(nothing_loads: Path, neghub: Any) -> None:
    result = neghub("reproduce", ROOT / "submissions" / "smollm2-135m-instruct", "--tasks", "jnli", "-o", nothing_loads)
    assert result.err == "error: task: unknown task 'jnli'; did you mean 'jnli-neg'?\n"


@pytest.mark.models
def test_the_fixes_of_a_run_s_refusals_run(tmp_path: Path, neghub: Any) -> None:
    """The same command as above with the option left out, or the value suggested: the run gets past its options
    and writes its submission (a tiny model, NUBench's bundled sample)."""
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    model = _causal(tmp_path / "model")
    common = ["run", str(model), "--tasks", "nubench", "--max-items", "2", "--no-progress"]
    assert neghub(*common, "--prompt", "simpel", "-o", tmp_path / "a").code == 2
    assert neghub(*common, "--prompt", "simple", "-o", tmp_path / "a").code == 0  # did you mean 'simple'?
    assert neghub(*common, "--max-pairs", "3", "-o", tmp_path / "b").code == 2
    assert neghub(*common, "-o", tmp_path / "b").code == 0  # leave it out


# --- nothing of this machine in what is published ----------------------------------------------------------------


def test_a_published_command_names_the_weights_and_folders_not_this_machine() -> None:
    from neghub.evaluator.runners.run import published_command

    argv = [
        "run",
        "/home/someone/models/tiny.gguf",
        "--tasks",
        "nubench",
        "--data-dir",
        "/home/someone/mirror",
        "--description=made on /home/someone/box",
        "-o",
        "/home/someone/subs/tiny",
    ]
    command = published_command(argv, "/home/someone/models/tiny.gguf", "tiny.gguf", Path("/home/someone/subs/tiny"))
    assert command == "neghub run tiny.gguf --tasks nubench --data-dir DATA_DIR --description=PATH -o tiny"
    # a relative model path that an option's value repeats: only the positional MODEL is the weights
    command = published_command(["run", "--model-name", "m", "m", "--output=out/x"], "m", "weights", Path("out/x"))
    assert command == "neghub run --model-name m weights --output=x"


@pytest.mark.models
def test_a_run_records_no_path_of_this_machine(tmp_path: Path, neghub: Any) -> None:
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    model = _causal(tmp_path / "tiny-model")
    out = tmp_path / "subs" / "tiny"
    assert neghub("run", model, "--tasks", "nubench", "--mode", "option", "--no-progress", "-o", out).code == 0
    text = (out / "metadata.yaml").read_text(encoding="utf-8")
    assert str(tmp_path) not in text and all(absolute_path(line) is None for line in text.splitlines())
    meta = safe_yaml.load(text).value
    assert meta["provenance"]["command"] == "neghub run tiny-model --tasks nubench --mode option --no-progress -o tiny"
    # the model named by what pins it: the folder's name and its sha256's first digits
    assert meta["model"]["name"] == f"tiny-model (sha256 {meta['model']['sha256'][:12]}…)"
