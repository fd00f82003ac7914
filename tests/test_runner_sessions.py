"""The nox sessions around the runner: gpu_eval and gpu_reproduce compute in one numeric setting, and the
perf session gives each performance script only its own options (nox is not installed beside the tests: the noxfile is
read, and its pure helper run, from its source)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from neghub.evaluator.cli import build_parser

ROOT = Path(__file__).parents[1]
NOXFILE = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
SCRIPTS = sorted(path.name for path in (ROOT / "perf").glob("bench_*.py"))


def _function(name: str) -> Any:
    (node,) = [n for n in NOXFILE.body if isinstance(n, ast.FunctionDef) and n.name == name]
    return node


def _constant(name: str) -> Any:
    for node in NOXFILE.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"noxfile.py has no constant {name}")


def _session_words(name: str) -> list[str]:
    """The string constants and names a session passes to the commands it runs."""
    words = []
    for node in ast.walk(_function(name)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words.append(node.value)
        elif isinstance(node, ast.Starred) and isinstance(node.value, ast.Name):
            words.append(f"*{node.value.id}")
    return words


def test_gpu_eval_runs_in_the_gpu_setting_and_gpu_reproduce_in_the_recorded_one() -> None:
    setting = _constant("GPU_SETTING")
    run = ["run", "ORG/MODEL", "--revision", "0" * 40, "--tasks", "nubench", *setting, "-o", "x"]
    args = build_parser().parse_args(run)
    assert (args.device, args.dtype) == ("cuda", "bfloat16") and args.batch_size and args.batch_tokens
    assert "*GPU_SETTING" in _session_words("gpu_eval")
    # no setting option: `neghub reproduce` re-runs in the setting the submission records, GPU_SETTING for
    # gpu_eval's own submissions
    options = {"--device", "--dtype", "--attn-implementation", "--batch-size", "--batch-tokens"}
    assert not options & set(_session_words("gpu_reproduce"))
    assert "reproduce" in _session_words("gpu_reproduce")
    reproduce = build_parser().parse_args(["reproduce", "submissions/x"])
    assert (reproduce.device, reproduce.dtype, reproduce.batch_size, reproduce.batch_tokens) == (None, None, None, None)


def _perf_runs() -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(ast.Module(body=[_function("perf_runs")], type_ignores=[]), "noxfile.py", "exec"), namespace)
    return namespace["perf_runs"]


def test_the_perf_session_gives_each_script_its_own_options() -> None:
    runs = _perf_runs()
    assert runs([], SCRIPTS) == [(script, []) for script in SCRIPTS]
    quick = _constant("PERF_QUICK")
    assert set(quick) <= set(SCRIPTS)  # no quick options for a script that is gone
    assert runs([], SCRIPTS, quick) == [(script, quick.get(script, [])) for script in SCRIPTS]
    assert quick["bench_runner_vs_lmeval.py"] == ["--quick", "--threads", "2"]
    assert runs(["bench_runner_vs_lmeval.py", "--quick"], SCRIPTS) == [("bench_runner_vs_lmeval.py", ["--quick"])]
    two = ["perf/bench_scn.py", "--rows", "1000", "bench_runner_overheads.py", "--repeats", "1"]
    assert runs(two, SCRIPTS) == [
        ("bench_scn.py", ["--rows", "1000"]),
        ("bench_runner_overheads.py", ["--repeats", "1"]),
    ]
    assert runs(["--quick"], SCRIPTS).startswith("--quick: name the script first")
    assert runs(["bench_nothing.py"], SCRIPTS).startswith("no script bench_nothing.py in perf/")


def test_the_benchmark_scripts_the_readme_names_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for script in ("bench_runner_vs_lmeval.py", "bench_runner_overheads.py", "bench_gpu_runner_vs_lmeval.py"):
        assert script in SCRIPTS and script in readme
