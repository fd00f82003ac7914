"""The prompts of the papers, as Python strings (so they are versioned and tested with the code).

JNLI-Neg / JSTS-Neg follow llm-jp-eval's Alpaca-style template (Han et al., 2024): a fixed preamble,
`### 指示:` with the task's instruction, few-shot examples as `### 入力:` / `### 応答:` blocks, then the
item. JSTS-Neg uses the JSTS annotation guideline of Figure 7 of the JSTS-Neg paper as its instruction.
NUBench follows appendices M and O of its paper (lm-evaluation-harness task files).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

LLM_JP_PREAMBLE = "以下は、タスクを説明する指示と、文脈のある入力の組み合わせです。要求を適切に満たす応答を書きなさい。"

# llm-jp-eval's JNLI instruction (its jnli dataset processor), unchanged: the JNLI-Neg paper evaluates
# LLMs "following Han et al." with llm-jp-eval's generation settings.
JNLI_INSTRUCTION = (
    "前提と仮説の関係をentailment、contradiction、neutralの中から回答してください。"
    "それ以外には何も含めないことを厳守してください。\n\n"
    "制約：\n"
    "- 前提から仮説が、論理的知識や常識的知識を用いて導出可能である場合はentailmentと出力\n"
    "- 前提と仮説が両立しえない場合はcontradictionと出力\n"
    "- そのいずれでもない場合はneutralと出力"
)

# Figure 7 of the JSTS-Neg paper (the JSTS guideline of Kurihara et al., 2022), line by line.
JSTS_INSTRUCTION = (
    "2つの文の類似度を0~5のいずれかで教えてください。数字が大きいほど2つの文は似ています。\n"
    "以下の指標を参考に回答してください。\n"
    "【類似度：5】 2つの文は意味が完全に一致している。\n"
    "【類似度：4】 2つの文はほぼ意味が同じだが、重要でない部分で意味が異なる。\n"
    "【類似度：3】 2つの文はある程度同じ意味だが、重要な部分で意味が異なる。\n"
    "【類似度：2】 2つの文は異なる意味であるが、細かい要素が共通している。\n"
    "【類似度：1】 2つの文は異なる意味であるが、話題に共通点がある。\n"
    "【類似度：0】 2つの文は全く異なる意味であり、話題も単語も共通していない。"
)


def jnli_input(sentence1: str, sentence2: str) -> str:
    return f"前提：{sentence1}\n仮説：{sentence2}"


def jsts_input(sentence1: str, sentence2: str) -> str:
    return f"文1：{sentence1}\n文2：{sentence2}"


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


def parse_jnli_answer(text: str, labels: Sequence[str]) -> str | None:
    """The label the model answered (exact match after extraction), or None when it is not a label."""
    answer = extract_llm_jp_answer(text)
    return answer if answer in labels else None


_NUMBER = re.compile(r"^[0-5](?:\.0+)?$")


def parse_jsts_answer(text: str) -> int | None:
    """The integer score 0..5 the model answered ("4" or "4.0"), or None for anything else."""
    answer = extract_llm_jp_answer(text)
    return int(answer[0]) if _NUMBER.match(answer) else None


# NUBench, appendix O: the instruction of each prompt style. The completion prompt is
# "{instruction}\nSentence: {sentence}\nNegation:", the option prompt the lm-eval task of appendix M.
NUBENCH_INSTRUCTIONS = {
    "simple": "Negate the sentence.",
    "definition": "Negate the main predicate of the main clause so that the proposition is logically reversed.",
    "detail": (
        "Reverse the truth value of the main predicate (verbal phrase) in the main clause, while preserving all "
        "other elements of the main clause unchanged.\n"
        "1) Identify the main clause and its main verb (main predicate). Ignore subordinate clauses.\n"
        "2) Preserve all other main-clause content.\n"
        '3) Insert a negative particle such as "not" into the main verb, or replace it with a complementary '
        "antonym only if it forms an absolute binary (e.g., alive/dead, true/false, possible/impossible).\n"
        "4) If the sentence contains multiple propositions connected by logical operators (e.g., and, or, "
        "conditional constructions), negate it in a way that reverses the entire proposition (e.g., A and B => "
        "not A or not B; If A then B => A and not B)."
    ),
}
NUBENCH_OPTION_LETTERS = ("A", "B", "C", "D")


def nubench_completion_prompt(sentence: str, style: str = "simple") -> str:
    return f"{NUBENCH_INSTRUCTIONS[style]}\nSentence: {sentence}\nNegation:"


def nubench_option_prompt(sentence: str, options: Sequence[str], style: str = "simple") -> str:
    """appendix M's `process_docs_option` prompt for options already in their shuffled order."""
    initial_prompt = f"{NUBENCH_INSTRUCTIONS[style]}\nSentence: {sentence}\n"
    letters = NUBENCH_OPTION_LETTERS[: len(options)]
    lines = [
        "Given the following instruction and candidate answers, choose the single best answer.",
        f"Instruction: {initial_prompt}",
    ]
    lines += [f"{letter}. {option}" for letter, option in zip(letters, options, strict=True)]
    lines += ["", f"Your response should be one of {', '.join(letters)}.", "Only output the letter.", "Answer:"]
    return "\n".join(lines)
