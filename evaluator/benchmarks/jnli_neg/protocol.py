"""How `neghub run` asks a model JNLI-Neg: llm-jp-eval's JNLI prompt with greedy decoding and its answer
parsing, or the same prompt with each label scored by log-likelihood; a fine-tuned NLI classifier's head."""

from __future__ import annotations

import random
from typing import Any

from ...families.llm_jp import LlmJpTask, extract_llm_jp_answer, llm_jp_lm_eval, sentence_pair_plans
from ...protocol.lm_eval import LmEvalScoring
from ...protocol.plans import RunPlan, RunSettings
from .metadata import LABELS, RECORD

MAX_NEW_TOKENS = 8  # "contradiction" is 3 to 5 tokens in most English-centred vocabularies

# llm-jp-eval's JNLI instruction (its jnli dataset processor), unchanged: the JNLI-Neg paper evaluates
# LLMs "following Han et al." with llm-jp-eval's generation settings.
INSTRUCTION = (
    "前提と仮説の関係をentailment、contradiction、neutralの中から回答してください。"
    "それ以外には何も含めないことを厳守してください。\n\n"
    "制約：\n"
    "- 前提から仮説が、論理的知識や常識的知識を用いて導出可能である場合はentailmentと出力\n"
    "- 前提と仮説が両立しえない場合はcontradictionと出力\n"
    "- そのいずれでもない場合はneutralと出力"
)


def item_input(record: dict[str, Any]) -> str:
    return f"前提：{record['sentence1']['sentence']}\n仮説：{record['sentence2']['sentence']}"


def parse_answer(text: str) -> str | None:
    """The label the model answered (exact match after extraction), or None when it is not a label."""
    answer = extract_llm_jp_answer(text)
    return answer if answer in LABELS else None


def choose_shots(train: list[dict[str, Any]], shots: int, seed: int) -> list[dict[str, Any]]:
    return random.Random(seed).sample(train, shots)


def task() -> LlmJpTask:
    """What the llm-jp-eval runs of this benchmark ask and how they read the answers."""
    from . import NAME, records

    return LlmJpTask(
        name=NAME,
        default_split="valid",
        instruction=INSTRUCTION,
        make_input=item_input,
        gold_answer=lambda r: str(r["gold_label"]),
        parse_answer=parse_answer,
        choose_shots=choose_shots,
        records=records,
        max_new_tokens=MAX_NEW_TOKENS,
        group_field=RECORD.group_field,
        label_words=tuple((label, label) for label in LABELS),
    )


def plans(settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    return sentence_pair_plans(task(), settings, backend_kind, labels=LABELS)


def lm_eval(plan: RunPlan, settings: RunSettings) -> LmEvalScoring:
    return llm_jp_lm_eval(task(), plan, settings)
