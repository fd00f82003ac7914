"""How `neghub run` asks a model JSTS-Neg: llm-jp-eval's template with the JSTS guideline (Figure 7 of the
JSTS-Neg paper) as the instruction, greedy decoding, an integer 0..5 as the answer, the paper's shot rule; or
the scores "0".."5" ranked by log-likelihood after the same prompt; or a fine-tuned STS regression head
(its value rounded half up and clipped to 0..5)."""

from __future__ import annotations

import random
import re
from typing import Any

from ...core.errors import InputError
from ...families.llm_jp import LlmJpTask, extract_llm_jp_answer, llm_jp_lm_eval, sentence_pair_plans
from ...protocol.lm_eval import LmEvalScoring
from ...protocol.plans import RunPlan, RunSettings
from .metadata import RECORD

SHOTS = (0, 4, 11)  # the paper's settings
MAX_NEW_TOKENS = 4

# Figure 7 of the JSTS-Neg paper (the JSTS guideline of Kurihara et al., 2022), line by line.
INSTRUCTION = (
    "2つの文の類似度を0~5のいずれかで教えてください。数字が大きいほど2つの文は似ています。\n"
    "以下の指標を参考に回答してください。\n"
    "【類似度：5】 2つの文は意味が完全に一致している。\n"
    "【類似度：4】 2つの文はほぼ意味が同じだが、重要でない部分で意味が異なる。\n"
    "【類似度：3】 2つの文はある程度同じ意味だが、重要な部分で意味が異なる。\n"
    "【類似度：2】 2つの文は異なる意味であるが、細かい要素が共通している。\n"
    "【類似度：1】 2つの文は異なる意味であるが、話題に共通点がある。\n"
    "【類似度：0】 2つの文は全く異なる意味であり、話題も単語も共通していない。"
)
_NUMBER = re.compile(r"^[0-5](?:\.0+)?$")


def item_input(record: dict[str, Any]) -> str:
    return f"文1：{record['sentence1']['sentence']}\n文2：{record['sentence2']['sentence']}"


def parse_answer(text: str) -> int | None:
    """The integer score 0..5 the model answered ("4" or "4.0"), or None for anything else."""
    answer = extract_llm_jp_answer(text)
    return int(answer[0]) if _NUMBER.match(answer) else None


def choose_shots(train: list[dict[str, Any]], shots: int, seed: int) -> list[dict[str, Any]]:
    """The JSTS-Neg paper's rule: 4-shot = 2 from D_orig + 2 from D_neg, 11-shot = 5 + 6, the shots from one
    set with pairwise different gold scores; fixed for every item of one seed."""
    if shots not in SHOTS:
        raise InputError.single("--shots", f"JSTS-Neg uses 0, 4 or 11 shots (the paper's settings), got {shots}")
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    for is_original, k in ((True, shots // 2 if shots == 4 else 5), (False, shots // 2 if shots == 4 else 6)):
        by_score: dict[int, list[dict[str, Any]]] = {}
        for rec in train:
            if (rec["type"] == "original") == is_original:
                by_score.setdefault(rec["gold_score"], []).append(rec)
        if len(by_score) < k:
            raise InputError.single("--shots", f"the train split has only {len(by_score)} distinct scores, {k} needed")
        for score in rng.sample(sorted(by_score), k):
            chosen.append(rng.choice(by_score[score]))
    rng.shuffle(chosen)
    return chosen


def task() -> LlmJpTask:
    """What the llm-jp-eval runs of this benchmark ask and how they read the answers."""
    from . import NAME, records

    return LlmJpTask(
        name=NAME,
        default_split="test",
        instruction=INSTRUCTION,
        make_input=item_input,
        gold_answer=lambda r: str(r["gold_score"]),
        parse_answer=parse_answer,
        choose_shots=choose_shots,
        records=records,
        max_new_tokens=MAX_NEW_TOKENS,
        group_field=RECORD.group_field,
        label_words=tuple((str(score), score) for score in range(6)),
        lm_eval_answer="digit",
    )


def plans(settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    return sentence_pair_plans(task(), settings, backend_kind, scale=(0, 5))


def lm_eval(plan: RunPlan, settings: RunSettings) -> LmEvalScoring:
    return llm_jp_lm_eval(task(), plan, settings)
