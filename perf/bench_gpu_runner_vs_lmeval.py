"""On one GPU: `neghub run` against lm-evaluation-harness 0.4.13 (HF backend) on a random model with the shapes of
Llama-3.1-8B, end to end, whole processes taking turns. Skipped (exit 0, one line) where CUDA is not available.

The model is built here from its configuration (no download): Llama-3.1-8B's shapes (32 layers, hidden 4096,
32 heads, 8 key-value heads, MLP 14336, vocabulary 128256), random weights in bfloat16, saved once into --cache,
with a byte-level BPE tokenizer trained here on the benchmarks' own text (its vocabulary is smaller than the
model's: the extra rows are never used). Random weights give meaningless answers and the same computation.

Timed, for each of JNLI-Neg log-likelihood (the llm-jp-eval-loglikelihood prompt, 1,363 items) and NUBench
completion (46 items), after one untimed warm-up of each tool (--warm-ups N: N of each):
- `neghub run FOLDER --tasks T [--prompt/--mode] --device cuda --dtype bfloat16 --batch-size B --batch-tokens K`;
- `lm_eval --model hf --model_args pretrained=FOLDER,dtype=bfloat16 --device cuda --batch_size B --tasks NAME
  --include_path DIR --log_samples` on the task `neghub export lm-eval` writes for the same run (the same
  prompts and options; its metric is `bypass`, which lm-eval runs only with --log_samples).
Reported: every run's seconds, medians, the ratio (targets: JNLI-Neg log-likelihood >= 2x, then 4x; NUBench
completion >= 1.5x), the GPU, the 1-minute load average before each run.

`--shape tiny --device cpu` runs the same steps with a two-layer model on the CPU: a check of the script itself,
not a measurement; with `--without-lm-eval --max-items N` too (tests/test_perf_scripts.py, where lm-eval is not
installed), `neghub run` alone on a sample of N items, and lm_eval's command line printed instead of run; with
`--warm-ups 0` too, no untimed run before the timed one (the check needs no warm cache).
Every run's answers are counted before it is timed or reported (perf/measured.py: exit 1, "nothing measured"):
the untimed warm-ups of each tool, and each timed run, must answer every item of its task (or of its sample), as
`answered_items` counts them in its output: neghub's prediction lines, lm_eval's logged samples.
Usage: python perf/bench_gpu_runner_vs_lmeval.py [--repeats 3] [--warm-ups 1] [--batch-size 64]
[--batch-tokens 32768] [--cache build/random-llama-8b] [--shape 8b|tiny] [--device cuda|cpu] [--without-lm-eval]
[--max-items N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from measured import machine_line, require

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
LLAMA_3_1_8B = {
    "vocab_size": 128256,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 131072,
    "rms_norm_eps": 1e-5,
    "rope_theta": 500000.0,
    "tie_word_embeddings": False,
}
TINY = {**LLAMA_3_1_8B, "vocab_size": 4096, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2}
TINY.update(num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096)
# a benchmark's submissions are thrown away; they are signed all the same (neghub run has no default signer)
BENCHMARK_SIGN = (
    "--submitter-name",
    "NegHub benchmark",
    "--submitter-contact",
    "https://github.com/neghub/neghub",
    "--submitter-github",
    "neghub",
)
# the runs timed: (label, neghub run options selecting it)
# (JNLI-Neg without a chat template: the random model has none, and an option that applies to none of a run's
# tasks, as --chat-template does to NUBench's, is refused)
RUNS = (
    (
        "JNLI-Neg log-likelihood",
        ["--tasks", "jnli-neg", "--prompt", "llm-jp-eval-loglikelihood", "--chat-template", "off"],
    ),
    ("NUBench completion", ["--tasks", "nubench", "--mode", "completion"]),
)


def corpus() -> list[str]:
    """The benchmarks' own text, for the tokenizer: every JNLI-Neg prompt and NUBench context and option."""
    from neghub.evaluator.interop.prompts import expressible_plans
    from neghub.evaluator.protocol.plans import RunSettings

    texts: list[str] = []
    for task, prompt, modes in (("jnli-neg", "llm-jp-eval-loglikelihood", ()), ("nubench", "simple", ("completion",))):
        for plan in expressible_plans(task, RunSettings(prompt=prompt, modes=modes, chat_template="off"), "causal"):
            for item in plan.items:
                for request in plan.requests(item) if plan.requests else ():
                    texts += [request.prompt, *request.continuations]
    return texts


def build_model(folder: Path, shape: dict[str, Any], device: str) -> None:
    """A random Llama of `shape`, created on `device` in bfloat16, and a tokenizer, saved into `folder` (once)."""
    if (folder / "config.json").is_file():
        return
    import tokenizers
    import torch
    import transformers

    bpe = tokenizers.ByteLevelBPETokenizer()
    bpe.train_from_iterator(corpus(), vocab_size=min(32000, shape["vocab_size"]), special_tokens=["<|endoftext|>"])
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer, eos_token="<|endoftext|>", pad_token="<|endoftext|>"
    )
    config = transformers.LlamaConfig(
        **shape, bos_token_id=None, eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id
    )
    started = time.perf_counter()
    torch.manual_seed(0)
    with torch.device(device):
        model = transformers.LlamaForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    parameters = sum(p.numel() for p in model.parameters())
    print(f"built {parameters / 1e9:.2f}B random parameters in {time.perf_counter() - started:.0f} s -> {folder}")
    del model
    if device == "cuda":
        torch.cuda.empty_cache()


def answered_items(out: Path) -> int:
    """The items a run answered, from its output folder: the lines of `neghub run`'s prediction files
    (predictions/TASK/*.jsonl), or of lm_eval's --log_samples files (samples_*.jsonl), one per item."""
    files = [*out.glob("predictions/*/*.jsonl"), *out.rglob("samples_*.jsonl")]
    return sum(1 for file in files for line in file.read_text(encoding="utf-8").splitlines() if line.strip())


def sampled_items(out: Path) -> int:
    """The items of a `neghub run --max-items` sample, as the run records them (`...partial_items: N` in its
    metadata.yaml), or 0."""
    metadata = out / "metadata.yaml"
    text = metadata.read_text(encoding="utf-8") if metadata.is_file() else ""
    return sum(int(n) for n in re.findall(r"\.partial_items: (\d+)$", text, re.M))


def check_answered(label: str, tool: str, answered: int, expected: int) -> None:
    """Stop before anything more is timed or reported unless the run answered every item it was given."""
    require(expected > 0 and answered == expected, f"{label}, {tool}: {answered} of {expected} items answered")


def export_tasks(folder: Path, max_items: int | None) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    """`neghub export lm-eval` of the timed runs; by label, their lm-eval task names and the items each tool is
    given: every item of the task, or with `max_items` lm_eval's `--limit` (the first items of the whole task the
    export writes) and, for neghub, 0: its sample keeps a minimal pair's items together, and the run records its
    size (`sampled_items`)."""
    from neghub.evaluator.cli import main as neghub
    from neghub.evaluator.interop.lm_eval import task_name
    from neghub.evaluator.interop.prompts import expressible_plans
    from neghub.evaluator.protocol.plans import RunSettings

    names, items = {}, {}
    for label, options in RUNS:
        task = options[1]
        assert neghub(["export", "lm-eval", str(folder), *options]) == 0
        prompt = options[3] if options[2] == "--prompt" else None
        modes = (options[3],) if options[2] == "--mode" else ()
        settings = RunSettings(prompt=prompt, modes=modes, chat_template="off")
        (plan,) = [p for p in expressible_plans(task, settings, "causal") if prompt in (None, p.prompt)]
        names[label] = task_name(plan)
        if max_items is None:
            items[label] = {"neghub": len(plan.items), "lm_eval": len(plan.items)}
        else:
            items[label] = {"neghub": 0, "lm_eval": min(max_items, len(plan.items))}
    return names, items


def timed_process(argv: list[str], log: Path) -> tuple[float, float]:
    """Seconds of one whole process, and the load average before it; stops the benchmark if it fails."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    with open(log, "wb") as out:
        done = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **OFFLINE}, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}):\n{tail}")
    return seconds, load


def beside(name: str) -> list[str]:
    """A console script of this environment (nox's perf session); `neghub` as its module where NegHub runs from
    its source tree (no console script: the tests' environment)."""
    path = Path(sys.executable).with_name(name)
    if path.exists():
        return [str(path)]
    if name == "neghub":
        return [sys.executable, "-m", "neghub.evaluator.cli"]
    raise SystemExit(f"{name} is not installed beside {sys.executable} (nox -s perf installs it)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per tool and task (medians reported)")
    parser.add_argument(
        "--warm-ups", type=int, default=1, help="untimed runs per tool and task before the timed ones (default 1)"
    )
    parser.add_argument("--batch-size", type=int, default=64, help="both tools' batch size")
    parser.add_argument("--batch-tokens", type=int, default=32768, help="neghub run's token budget per batch")
    parser.add_argument("--cache", type=Path, default=None, help="where the random model is saved (kept)")
    parser.add_argument("--shape", choices=("8b", "tiny"), default="8b")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    parser.add_argument(
        "--without-lm-eval", action="store_true", help="time neghub run alone; print lm_eval's command line instead"
    )
    parser.add_argument(
        "--max-items", type=int, default=None, help="a sample of N items per run (neghub --max-items, lm_eval --limit)"
    )
    args = parser.parse_args()
    if args.repeats < 1 or args.warm_ups < 0:
        parser.error("--repeats: at least 1; --warm-ups: at least 0")
    import torch

    if args.device == "cuda" and not torch.cuda.is_available():
        print(machine_line())
        print(f"skipped: no CUDA device here (torch {torch.__version__}, CUDA build {torch.version.cuda})")
        return
    dtype = "bfloat16" if args.device == "cuda" else "float32"
    shape = LLAMA_3_1_8B if args.shape == "8b" else TINY
    folder = (args.cache or Path(f"build/random-llama-{args.shape}")).resolve()
    build_model(folder, shape, args.device)
    device = torch.cuda.get_device_name(0) if args.device == "cuda" else "cpu"
    print(machine_line())
    print(f"{device}; torch {torch.__version__}, CUDA {torch.version.cuda}; model {folder.name}, {dtype}")
    work = Path(tempfile.mkdtemp(prefix="bench-gpu-"))
    names, items = export_tasks(work / "tasks", args.max_items)
    given = "" if args.max_items is None else f" (a sample: --max-items {args.max_items})"
    print("inputs: " + ", ".join(f"{label} {count['lm_eval']:,} items" for label, count in items.items()) + given)
    neghub = beside("neghub")
    lm_eval = ["lm_eval"] if args.without_lm_eval else beside("lm_eval")
    sample = (
        ([], []) if args.max_items is None else (["--max-items", str(args.max_items)], ["--limit", str(args.max_items)])
    )
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for label, options in RUNS:
        tools = {
            "neghub": lambda out, options=options: [
                *neghub, "run", str(folder), *options, "--device", args.device, "--dtype", dtype,
                "--batch-size", str(args.batch_size), "--batch-tokens", str(args.batch_tokens),
                "--no-progress", "-o", str(out), *BENCHMARK_SIGN, *sample[0],
            ],
            "lm_eval": lambda out, label=label: [
                *lm_eval, "--model", "hf", "--model_args", f"pretrained={folder},dtype={dtype}", "--tasks",
                names[label], "--include_path", str(work / "tasks"), "--batch_size", str(args.batch_size),
                "--device", args.device, "--output_path", str(out), "--log_samples",  # bypass metric: needed
                *sample[1],
            ],
        }  # fmt: skip
        if args.without_lm_eval:
            command = shlex.join(tools.pop("lm_eval")(work / "lm_eval-out"))
            print(f"  {label}: lm_eval command (not run: --without-lm-eval): {command}")
        for round_ in range(-args.warm_ups, args.repeats):  # rounds below 0: the untimed warm-ups of each
            for name in list(tools) if round_ % 2 == 0 else list(tools)[::-1]:
                out = work / f"{name}-{label.split()[0]}-{round_ + args.warm_ups}"
                seconds, load = timed_process(tools[name](out), work / "log.txt")
                # the warm-ups' first, before anything is timed; neghub's sample: its size as the run records it
                check_answered(label, name, answered_items(out), items[label][name] or sampled_items(out))
                if round_ >= 0:
                    results.setdefault((label, name), []).append((seconds, load))
                which = "warm-up" if round_ < 0 else f"run {round_ + 1}"
                print(f"  {label}, {which} {name}: {seconds:.1f} s", flush=True)
    targets = {"JNLI-Neg log-likelihood": ">= 2x, then 4x", "NUBench completion": ">= 1.5x"}
    runs_each = f"{args.repeats} runs each after {args.warm_ups} warm-up(s), batch size {args.batch_size}"
    print(f"end to end, whole processes taking turns, {runs_each}:")
    for label, _ in RUNS:
        medians = {}
        for name in ("neghub",) if args.without_lm_eval else ("neghub", "lm_eval"):
            runs = results[label, name]
            medians[name] = statistics.median(s for s, _ in runs)
            listed = ", ".join(f"{s:.1f}" for s, _ in runs)
            loads = ", ".join(f"{load:.1f}" for _, load in runs)
            print(f"  {label}, {name}: median {medians[name]:.1f} s [{listed}], load before {loads}")
        if "lm_eval" in medians:
            ratio = medians["lm_eval"] / medians["neghub"]
            print(f"  {label}: lm_eval / neghub {ratio:.2f}x (target {targets[label]})")
    print(json.dumps({"device": device, "shape": args.shape, "batch_size": args.batch_size}))


if __name__ == "__main__":
    main()
