"""A re-run (`neghub reproduce`) killed half-way resumes after the last run it finished and ends with the same
record and kept answers, byte for byte, as one never interrupted; it says how far it is and what is left.

The kill is played by a model that stops answering (KeyboardInterrupt, as Ctrl-C or a runner's cancel) at the
second run's first batch: everything `neghub reproduce` writes goes through a temporary file and a rename, so a
SIGKILL at any other moment leaves the same files as a stop at the nearest run's end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.cli import main

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.test_runners import _causal  # noqa: E402


@pytest.fixture(scope="module")
def nubench_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A tiny causal model and its NUBench submission (two runs: both modes), written by `neghub run`."""
    root = tmp_path_factory.mktemp("resume-run")
    model = _causal(root / "model")
    out = root / "tiny-model"
    assert main(["run", str(model), "--tasks", "nubench", "-o", str(out), "--no-progress", "--batch-size", "4"]) == 0
    return model, out


@pytest.fixture(scope="module")
def whole_rerun(nubench_run: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The submission re-run once, never interrupted (what every stopped re-run must end as), and its stderr."""
    import contextlib
    import io

    model, sub = nubench_run
    whole = tmp_path_factory.mktemp("resume-whole") / "whole"
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert main(["reproduce", str(sub), "--model", str(model), "-o", str(whole)]) == 0
    return whole, err.getvalue()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _answers_counted(monkeypatch: pytest.MonkeyPatch, stop_at_run: int | None) -> list[int]:
    """Count the items the model answers in each run; stop (as a kill) at run `stop_at_run`'s first batch."""
    from neghub.evaluator.runners import reproduce as module

    per_run: list[int] = []
    model_answers = module._model_answers

    def counted(backend: Any, plan: Any) -> Callable[[Sequence[Any]], Any]:
        per_run.append(0)
        answer = model_answers(backend, plan)

        def count(batch: Sequence[Any]) -> Any:
            if len(per_run) == stop_at_run:
                raise KeyboardInterrupt
            per_run[-1] += len(batch)
            return answer(batch)

        return count

    monkeypatch.setattr(module, "_model_answers", counted)
    return per_run


def test_a_rerun_killed_half_way_resumes_and_ends_with_the_same_bytes(
    nubench_run: tuple[Path, Path],
    whole_rerun: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model, sub = nubench_run
    (whole, err), resumed = whole_rerun, tmp_path / "resumed"
    # progress per run, with an estimate from its own rate (46 items a run, 92 in all)
    assert "[1/2] predictions/nubench/" in err and "46/92 items of the re-run done in" in err and " left at " in err
    assert "92/92 items of the re-run done in" in err

    per_run = _answers_counted(monkeypatch, stop_at_run=2)
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(resumed)]) == 130  # stopped
    assert per_run == [46, 0]
    # what it compared is on disk: the first run's answers and the partial record, no record yet
    assert not (resumed / "tiny-model.json").exists() and (resumed / "tiny-model.in-progress").is_file()
    assert list(_files(resumed / "tiny-model")) == [next(iter(_files(whole / "tiny-model")))]

    per_run = _answers_counted(monkeypatch, stop_at_run=None)
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(resumed)]) == 0
    assert per_run == [46]  # the second run alone: the finished one is not answered again
    assert "compared before (resumed)" in capsys.readouterr().err
    assert _files(resumed) == _files(whole)  # the record and both kept files, byte for byte; no .in-progress


def test_a_rerun_of_another_setting_or_tolerance_starts_over(
    nubench_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    model, sub = nubench_run
    records = tmp_path / "records"
    _answers_counted(monkeypatch, stop_at_run=2)
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 130
    per_run = _answers_counted(monkeypatch, stop_at_run=None)
    assert main(["reproduce", str(sub), "--model", str(model), "--tolerance", "0.01", "-o", str(records)]) == 0
    assert per_run == [46, 46] and "starting over" in capsys.readouterr().err
    # --restart ignores a matching partial record too
    _answers_counted(monkeypatch, stop_at_run=2)
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 130
    per_run = _answers_counted(monkeypatch, stop_at_run=None)
    assert main(["reproduce", str(sub), "--model", str(model), "--restart", "-o", str(records)]) == 0
    assert per_run == [46, 46]


def test_a_rerun_killed_by_sigkill_after_its_first_run_resumes_to_the_same_bytes(
    nubench_run: tuple[Path, Path], whole_rerun: tuple[Path, str], tmp_path: Path
) -> None:
    # a real kill: `neghub reproduce` in its own process, SIGKILLed as soon as its partial record appears (the first
    # run compared, the second under way), then started again
    import os
    import signal
    import subprocess
    import sys
    import time

    model, sub = nubench_run
    (whole, _), killed = whole_rerun, tmp_path / "killed"
    command = [sys.executable, "-m", "neghub.evaluator.cli", "reproduce", str(sub), "--model", str(model)]
    process = subprocess.Popen([*command, "-o", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not (killed / "tiny-model.in-progress").exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL and not (killed / "tiny-model.json").exists()  # killed half-way
    # what a kill in the middle of a write leaves (atomic_write's temporary files) is swept when the re-run ends
    (killed / ".tiny-model.in-progress.k1ll.tmp").write_text("{")
    (killed / "tiny-model" / "predictions" / ".half.jsonl.k1ll.tmp").write_text("{")
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(killed)]) == 0
    assert _files(killed) == _files(whole)
