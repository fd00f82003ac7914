"""How `neghub run` asks a model NUBench: the prompts of appendices M and O (lm-evaluation-harness task files),
log-likelihood completion and lettered options, the multiple-choice family's runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...families.multiple_choice import Prompts, multiple_choice_plans
from ...protocol.plans import RunPlan, RunSettings

# Appendix O: the instruction of each prompt style. The completion prompt is
# "{instruction}\nSentence: {sentence}\nNegation:", the option prompt the lm-eval task of appendix M.
INSTRUCTIONS = {
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
OPTION_LETTERS = ("A", "B", "C", "D")


def completion_prompt(sentence: str, style: str = "simple") -> str:
    return f"{INSTRUCTIONS[style]}\nSentence: {sentence}\nNegation:"


def option_prompt(sentence: str, options: Sequence[str], style: str = "simple") -> str:
    """appendix M's `process_docs_option` prompt for options already in their shuffled order."""
    initial_prompt = f"{INSTRUCTIONS[style]}\nSentence: {sentence}\n"
    letters = OPTION_LETTERS[: len(options)]
    lines = [
        "Given the following instruction and candidate answers, choose the single best answer.",
        f"Instruction: {initial_prompt}",
    ]
    lines += [f"{letter}. {option}" for letter, option in zip(letters, options, strict=True)]
    lines += ["", f"Your response should be one of {', '.join(letters)}.", "Only output the letter.", "Answer:"]
    return "\n".join(lines)


PROMPTS = Prompts(
    styles=tuple(INSTRUCTIONS),
    completion=lambda record, style: completion_prompt(record.sentence, style),
    option=lambda record, options, style: option_prompt(record.sentence, options, style),
    demonstration_split="demonstration",
)


def plans(settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    from . import SPEC

    return multiple_choice_plans(SPEC, PROMPTS, settings, backend_kind, default_split="test")


__all__ = ["PROMPTS", "Any", "Sequence", "plans"]
