"""Every script in perf/ runs to its end with its quickest options, so that a changed command line breaks a check,
not a measurement (`nox -s perf` had stopped at exit 2, unnoticed, once `neghub run` required --submitter-github).

The scripts run as `nox -s perf` runs them: a whole process each, from the repository root, its exit status and
its closing lines read. Where lm-eval is not installed (this suite's environment) the two scripts that time
`neghub run` against it run their NegHub half on a tiny model and print lm-eval's command line, which is checked
against the options `nox -s interop` passes to lm-eval 0.4.13 (tests/interop/test_lm_eval_interop.py). The GPU
script runs its CPU-side steps (`--shape tiny --device cpu`).

The scripts that take more than a few seconds so (the two against lm-eval: whole `neghub run` processes, 30 to 50 s
on 2 busy cores; the site's: real site builds, minutes) are marked `perf_scripts`, left out of the default run;
`nox -s tests` runs them in a step of its own (`pytest -n auto -m perf_scripts tests/test_perf_scripts.py`: the
suite's workers, as none checks a time).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

PERF = ROOT / "perf"
SCRIPTS = sorted(path.name for path in PERF.glob("bench_*.py"))
# lm-eval 0.4.13's options, as `nox -s interop` runs lm_eval with them on NegHub's exported tasks
LM_EVAL_OPTIONS = {
    "--model",
    "--model_args",
    "--include_path",
    "--tasks",
    "--batch_size",
    "--device",
    "--log_samples",
    "--output_path",
    "--limit",
}


def _perf(args: list[str], tmp_path: Path, timeout: float = 600) -> str:
    """`python perf/SCRIPT ARGS` from the repository root, as `nox -s perf` runs it; its output (exit 0)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _checked_lm_eval_command(line: str, folder: str) -> list[str]:
    words = shlex.split(line.split("lm_eval command (not run: --without-lm-eval): ", 1)[1])
    assert words[0] == "lm_eval"
    options = {word for word in words if word.startswith("--")}
    assert options <= LM_EVAL_OPTIONS, options - LM_EVAL_OPTIONS
    assert words[words.index("--model") + 1] == "hf"
    assert words[words.index("--model_args") + 1].startswith(f"pretrained={folder},dtype=")
    assert "--log_samples" in words and "--include_path" in words
    return words


def test_every_perf_script_is_checked_here() -> None:
    checked = {"bench_minimal_pairs.py", "bench_scn.py", "bench_validate.py", "bench_hostile_submissions.py"}
    checked |= {"bench_runner_overheads.py", "bench_runner_vs_lmeval.py", "bench_gpu_runner_vs_lmeval.py"}
    checked |= {"bench_site.py"}
    assert set(SCRIPTS) == checked


# the scripts this file checks for --help and for refusing empty inputs (bench_site.py's are its own test's)
HELPED = [name for name in SCRIPTS if name != "bench_site.py"]


def _exit_and_output(args: list[str], timeout: float = 120) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("script", HELPED)
def test_every_perf_script_answers_help_without_running(script: str) -> None:
    code, out, err = _exit_and_output([f"perf/{script}", "--help"], timeout=60)
    assert (code, err) == (0, "") and out.startswith("usage: "), (code, out[:300], err[-300:])
    assert "machine:" not in out  # nothing was measured


@pytest.mark.parametrize(
    "args",
    [
        ["perf/bench_minimal_pairs.py", "--pairs", "0", "--repeats", "1"],
        ["perf/bench_scn.py", "--rows", "0", "--repeats", "1"],
        ["perf/bench_validate.py", "--triplets", "0", "--repeats", "1"],
        # an empty valid file, which validate refuses: the baseline would time a refusal
        ["perf/bench_hostile_submissions.py", "--mib", "0", "--repeats", "1"],
        # a model folder of empty shards; a "GGUF" file that is not one (the loads would time an error)
        ["perf/bench_runner_overheads.py", "--gigabytes", "0", "--skip-gguf", "--repeats", "1"],
        ["perf/bench_runner_overheads.py", "--gguf", "README.md", "--skip-hashing", "--repeats", "1"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_perf_script_with_no_input_measures_nothing_and_exits_non_zero(args: list[str]) -> None:
    code, out, err = _exit_and_output(args)
    assert code == 1 and err.strip().endswith("nothing measured"), (code, err[-500:])
    assert "ratio" not in out and "met" not in out


def test_the_gpu_script_stops_unless_a_run_answered_every_item(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The GPU script's check, without a GPU: a run's answers are counted in its output folder (neghub's prediction
    lines, lm_eval's logged samples), and a run that answered fewer items than it was given stops the script, exit 1,
    before anything more is timed."""
    import importlib.util

    monkeypatch.syspath_prepend(str(PERF))  # the script imports perf/measured.py, as it does when run
    spec = importlib.util.spec_from_file_location("bench_gpu_runner_vs_lmeval", PERF / "bench_gpu_runner_vs_lmeval.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    neghub = tmp_path / "neghub" / "predictions" / "nubench"
    neghub.mkdir(parents=True)
    (neghub / "nubench-test-completion-simple-0shot.jsonl").write_text('{"id": 1}\n{"id": 2}\n{"id": 3}\n')
    lm_eval = tmp_path / "lm_eval" / "model"
    lm_eval.mkdir(parents=True)
    (lm_eval / "samples_neghub_nubench_completion_2026.jsonl").write_text('{"doc_id": 0}\n{"doc_id": 1}\n')
    (lm_eval / "results_2026.json").write_text("{}\n")  # not an answer
    assert script.answered_items(tmp_path / "neghub") == 3
    assert script.answered_items(tmp_path / "lm_eval") == 2
    assert script.answered_items(tmp_path / "nothing") == 0
    # a --max-items sample keeps a minimal pair's items together: its size is the one the run records
    (tmp_path / "neghub" / "metadata.yaml").write_text("  nubench.simple.completion.partial_items: 3\n")
    assert (script.sampled_items(tmp_path / "neghub"), script.sampled_items(tmp_path / "nothing")) == (3, 0)

    script.check_answered("NUBench completion", "neghub", 3, 3)  # every item answered: no stop
    for answered, expected in ((2, 3), (0, 0), (4, 3)):
        with pytest.raises(SystemExit) as stopped:
            script.check_answered("NUBench completion", "lm_eval", answered, expected)
        assert stopped.value.code == 1
        err = capsys.readouterr().err
        assert f"NUBench completion, lm_eval: {answered} of {expected} items answered: nothing measured" in err


def _runner_vs_lmeval_script() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_runner_vs_lmeval", PERF / "bench_runner_vs_lmeval.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # its dataclasses look their module up
    try:
        spec.loader.exec_module(script)
    finally:
        del sys.modules[spec.name]
    return script


def test_the_runner_against_lm_eval_calls_a_result_met_only_quiet_and_over_five_rounds() -> None:
    script = _runner_vs_lmeval_script()
    assert script.verdict(3.1, 5, 0.4, 0.2) == "target >= 3x: met"
    assert script.verdict(2.9, 7, 0.1, 0.0) == "target >= 3x: NOT met"
    assert script.verdict(3.5, 5, 2.7, 0.0).startswith(
        "target >= 3x: no verdict, the machine was loaded (load up to 2.7"
    )
    assert script.verdict(3.1, 5, 0.5, 0.0).startswith("target >= 3x: no verdict")  # the bar is "under 0.5"
    assert script.verdict(3.5, 3, 0.1, 0.0) == "target >= 3x: no verdict (3 rounds, fewer than 5)"


def test_the_runner_against_lm_eval_gives_no_verdict_when_others_computed_during_a_run() -> None:
    # a run that started quiet but shared the cores with another job (1.2 CPUs busy besides it) is no measurement
    script = _runner_vs_lmeval_script()
    busy = script.verdict(3.5, 5, 0.2, 1.2)
    assert busy.startswith("target >= 3x: no verdict, the machine was loaded (other processes' load up to 1.2")
    assert script.verdict(3.5, 5, 0.2, None).startswith("target >= 3x: no verdict")  # unknown is not quiet


def test_the_runner_against_lm_eval_waits_for_the_load_to_fall_and_no_longer_than_told() -> None:
    script = _runner_vs_lmeval_script()
    slept: list[float] = []
    falling = iter([1.4, 0.9, 0.45, 0.1])
    assert script.wait_for_quiet(150, 0.5, lambda: next(falling), slept.append, step_s=5) == (10.0, 0.45)
    assert slept == [5, 5]
    slept.clear()
    assert script.wait_for_quiet(12, 0.5, lambda: 1.5, slept.append, step_s=5) == (12.0, 1.5)
    assert slept == [5, 5, 2]  # bounded: the last pause is cut to the limit
    assert script.wait_for_quiet(0, 0.5, lambda: 1.5, slept.append, step_s=5) == (0.0, 1.5)


def test_a_timed_run_states_the_load_its_wait_read_not_a_second_reading(tmp_path: Path) -> None:
    # the 1-minute average ticks every 5 s: read again after the wait, it could be over the bar the wait saw under it
    # (a quiet run of 2026-12-02 printed "load before 0.50 (waited 25 s for load under 0.5)")
    script = _runner_vs_lmeval_script()
    run = script.run_process([sys.executable, "-c", "pass"], tmp_path / "log.txt", None, 0.49)
    assert run.load == 0.49


def test_the_runner_against_lm_eval_reads_other_processes_load_from_proc_stat(tmp_path: Path) -> None:
    script = _runner_vs_lmeval_script()
    stat = tmp_path / "stat"
    hz = os.sysconf("SC_CLK_TCK")
    # user nice system idle iowait irq softirq steal guest guest_nice; idle and iowait are not busy
    stat.write_text(f"cpu  {3 * hz} {hz} {2 * hz} {50 * hz} {7 * hz} 0 {hz} {hz} 0 0\ncpu0 1 2 3\n")
    assert script.busy_cpu_seconds(stat) == 8.0
    assert script.busy_cpu_seconds(tmp_path / "absent") is None
    # 10 s wall, the machine busy for 24 CPU seconds of which the run's own 20: others averaged 0.4 CPUs
    assert script.others_load(100.0, 124.0, 20.0, 10.0) == pytest.approx(0.4)
    assert script.others_load(100.0, 119.0, 20.0, 10.0) == 0.0  # clock ticks round: never below nothing
    assert script.others_load(None, 124.0, 20.0, 10.0) is None


def test_bench_minimal_pairs_runs(tmp_path: Path) -> None:
    out = _perf(["perf/bench_minimal_pairs.py", "--pairs", "20000", "--repeats", "1"], tmp_path)
    assert "inputs: 20,000 synthetic minimal pairs" in out and re.search(r"^ratio loop / vectorised: ", out, re.M)
    assert re.search(r"^machine: .*, load [0-9.]+ [0-9.]+ [0-9.]+ ", out, re.M)


def test_bench_scn_runs_and_its_loop_agrees_with_the_scorer(tmp_path: Path) -> None:
    # the script stops (an assertion) unless the loop's drops, design effects and contrasts are the scorer's: a
    # scorer that computes them otherwise fails here rather than printing a ratio of unequal work
    out = _perf(["perf/bench_scn.py", "--rows", "1000", "--repeats", "1"], tmp_path)
    assert "SCN predictions: 1,000 lines" in out
    assert re.search(r"^ratio loop / vectorised: [0-9.]+x \(target >= 20\): (met|NOT met)$", out, re.M)


def test_bench_validate_runs_on_a_submission_validate_accepts(tmp_path: Path) -> None:
    out = _perf(["perf/bench_validate.py", "--triplets", "50", "--repeats", "1"], tmp_path)
    assert re.search(r"^neghub validate: 1,000 lines in ", out, re.M)  # 50 triplets x 4 variants x 5 patterns


def test_bench_hostile_submissions_runs_and_its_valid_baseline_is_valid(tmp_path: Path) -> None:
    out = _perf(["perf/bench_hostile_submissions.py", "--repeats", "1", "--mib", "0.5"], tmp_path)
    (valid,) = [line for line in out.splitlines() if line.startswith("valid ")]
    assert "exit 0" in valid
    assert all("exit 2" in line for line in out.splitlines() if line.startswith("garbage"))  # refused


@pytest.mark.models
def test_bench_runner_overheads_runs(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    args = ["perf/bench_runner_overheads.py", "--repeats", "1", "--gigabytes", "0.01", "--skip-gguf"]
    assert "second run / baseline" in _perf(args, tmp_path)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    return _causal(tmp_path_factory.mktemp("perf-model") / "model")


@pytest.mark.models
@pytest.mark.perf_scripts
def test_bench_runner_vs_lmeval_runs_neghub_and_names_lm_eval_s_command(tiny_model: Path, tmp_path: Path) -> None:
    args = ["perf/bench_runner_vs_lmeval.py", "--model", str(tiny_model), "--quick", "--repeats", "1", "--quiet-wait"]
    args += ["0", "--warm-ups", "0"]  # a check of the script: no wait for a quiet machine, no untimed run
    out = _perf([*args, "--without-lm-eval"], tmp_path)
    assert "end to end, 1 runs after 0 warm-up(s)" in out and " warm-up " not in out
    (line,) = [line for line in out.splitlines() if "lm_eval command" in line]
    words = _checked_lm_eval_command(line, str(tiny_model.resolve()))
    assert words[words.index("--tasks") + 1] == "neghub_nubench_sample_completion"
    assert "items written: 46 of 46" in out  # NUBench's bundled sample, completion mode


@pytest.mark.models
@pytest.mark.perf_scripts
def test_bench_gpu_runner_vs_lmeval_runs_its_cpu_side(shared_datasets: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("tokenizers")
    args = ["perf/bench_gpu_runner_vs_lmeval.py", "--shape", "tiny", "--device", "cpu", "--repeats", "1"]
    args += ["--cache", str(tmp_path / "model"), "--without-lm-eval", "--max-items", "4", "--warm-ups", "0"]
    out = _perf(args, tmp_path)
    assert "1 runs each after 0 warm-up(s)" in out and ", warm-up neghub" not in out
    assert len([line for line in out.splitlines() if ", run 1 neghub: " in line]) == 2  # one timed run a task
    commands = [line for line in out.splitlines() if "lm_eval command" in line]
    assert len(commands) == 2  # JNLI-Neg log-likelihood, NUBench completion
    for line in commands:
        words = _checked_lm_eval_command(line, str((tmp_path / "model").resolve()))
        assert words[words.index("--limit") + 1] == "4" and words[words.index("--device") + 1] == "cpu"
    assert "JNLI-Neg log-likelihood, neghub: median " in out and "NUBench completion, neghub: median " in out


@pytest.mark.perf_scripts
def test_bench_site_runs_both_halves_at_a_few_submissions(shared_datasets: Path, tmp_path: Path) -> None:
    """The real site built at 0 (once: --repeats 1), 1 and 2 submissions, and weighed at 1 and 2: the goals are not
    checked at this scale (the script says whether they are met; its exit status then says no). Its submissions
    are JNLI-Neg runs, scored on the real release (skipped where it is not here, as in a clone without
    ../shared)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NEGHUB_DATA_DIR": str(shared_datasets)}
    done = subprocess.run(
        [sys.executable, "perf/bench_site.py", "--sizes", "1", "2", "--repeats", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr[-3000:]  # 1: a goal not met, at a scale that says nothing
    assert re.search(r"^ +0 submissions \(the committed ones\): +[\d.]+ s \(best of 1;", done.stdout, re.M)
    assert "growth no faster than linear: " in done.stdout
    assert "page weights within the bounds: " in done.stdout
    # the 10,000 extrapolation states its two parts, and what each kind of file adds per submission
    stated = r"extrapolated \(not built\): \d+ MB = fixed -?[\d.]+ MB .* \+ -?[\d.]+ KB a submission"
    assert re.search(stated, done.stdout)
    assert "KB a submission by kind of file" in done.stdout and "models/<submission>.html" in done.stdout


@pytest.mark.perf_scripts
def test_bench_site_stops_before_timing_when_a_synthetic_submission_is_refused(
    shared_datasets: Path, tmp_path: Path
) -> None:
    """The site benchmark times accepted submissions only: written without `submitter.github` (as it once wrote
    them, timing an empty site), every one is refused, and it stops with exit 2 before it times a build. Its run at
    a few accepted submissions (above) exits 0 or 1 only when every one was accepted and shows as a row."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NEGHUB_DATA_DIR": str(shared_datasets)}
    done = subprocess.run(
        [sys.executable, "perf/bench_site.py", "--sizes", "1", "2", "--without-github"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    assert "submitter.github: missing field" in done.stderr
    assert " cold " not in done.stdout and " warm " not in done.stdout  # no build was timed
