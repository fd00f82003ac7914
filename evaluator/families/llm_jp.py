"""llm-jp-eval's way of asking a generative model a Japanese NLI or STS question, shared by the
minimal-pair benchmarks (their papers evaluate LLMs "following Han et al." with llm-jp-eval's settings).

The template is llm-jp-eval's Alpaca-style prompt (Han et al., 2024): a fixed preamble, `### 指示:` with the
task's instruction, few-shot examples as `### 入力:` / `### 応答:` blocks, then the item. Greedy decoding of a
few tokens; the answer is llm-jp-eval's extraction (NFKC, up to the first blank line, stripped), parsed by
the benchmark. Each benchmark's folder supplies its instruction, its input format and its answer parser.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.runners.plans import Rows, RunPlan, RunSettings, prompt_lengths

if TYPE_CHECKING:
    from neghub.evaluator.runners.backend import Backend

LLM_JP_PREAMBLE = "以下は、タスクを説明する指示と、文脈のある入力の組み合わせです。要求を適切に満たす応答を書きなさい。"
PROMPT_STYLE = "llm-jp-eval"


def llm_jp_prompt(instruction: str, item_input: str, shots: Sequence[tuple[str, str]] = ()) -> str:
    """llm-jp-eval's template: preamble, instruction, (input, answer) examples, then the item's input."""
    parts = [f"{LLM_JP_PREAMBLE}\n\n### 指示:\n{instruction}"]
    for shot_input, shot_answer in shots:
        parts.append(f"\n\n### 入力:\n{shot_input}\n\n### 応答:\n{shot_answer}")
    parts.append(f"\n\n### 入力:\n{item_input}\n\n### 応答:\n")
    return "".join(parts)


def extract_llm_jp_answer(text: str) -> str:
    """llm-jp-eval's extraction: NFKC, the text up to the first blank line, stripped."""
    normalised = unicodedata.normalize("NFKC", text)
    return normalised.split("\n\n", 1)[0].strip()


@dataclass(frozen=True)
class LlmJpTask:
    """What a minimal-pair benchmark gives the shared generation protocol."""

    name: str
    default_split: str
    instruction: str
    make_input: Callable[[dict[str, Any]], str]  # a release record -> the item's input text
    gold_answer: Callable[[dict[str, Any]], str]  # a release record -> its answer, as a shot shows it
    parse_answer: Callable[[str], Any]  # the model's text -> the prediction, or None when it does not parse
    choose_shots: Callable[[list[dict[str, Any]], int, int], list[dict[str, Any]]]  # train, shots, seed
    records: Callable[[str, Any, bool], list[dict[str, Any]]]  # split, data dir, unverified -> records
    max_new_tokens: int


def generation_plans(task: LlmJpTask, settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    """One run per seed (one run at zero shots): the llm-jp-eval prompt of every item, greedy decoding."""
    if backend_kind != "causal":
        raise InputError.single("--tasks", f"{task.name} needs a causal LM (generation); this model is {backend_kind}")
    split = settings.split or task.default_split
    records = task.records(split, settings.data_dir, settings.unverified)
    plans: list[RunPlan] = []
    for seed in settings.seeds if settings.shots else [None]:
        examples: list[dict[str, Any]] = []
        if settings.shots:
            assert seed is not None
            train = task.records("train", settings.data_dir, settings.unverified)
            examples = task.choose_shots(train, settings.shots, seed)
        shot_pairs = [(task.make_input(r), task.gold_answer(r)) for r in examples]
        items = [(r["id"], llm_jp_prompt(task.instruction, task.make_input(r), shot_pairs)) for r in records]
        items.sort(key=lambda item: len(item[1]))  # batch by length: little padding (the order is still fixed)

        def process(backend: Backend, batch: Sequence[Any]) -> list[Rows]:
            outputs = backend.generate([p for _, p in batch], task.max_new_tokens, special_tokens=True)
            rows: list[Rows] = []
            for (item_id, _), text in zip(batch, outputs, strict=True):
                value = task.parse_answer(text)
                line: dict[str, Any] = {"id": item_id, "prediction": value}
                if value is None:
                    line["raw_output"] = text
                rows.append([line])
            return rows

        plans.append(
            RunPlan(
                task=task.name,
                split=split,
                shots=settings.shots,
                seed=seed,
                prompt=PROMPT_STYLE,
                mode=None,
                items=items,
                item_key=lambda item: item[0],
                process=process,
                batch_size=settings.batch_size,
                settings={"max_new_tokens": task.max_new_tokens, "decoding": "greedy", "chat_template": False},
                token_lengths=prompt_lengths(special_tokens=True),
                protocol="generation",
            )
        )
    return plans
