"""Written into the utils.py of `neghub export lm-eval` for the llm-jp-eval generation runs (families/llm_jp.py):
llm-jp-eval's answer extraction, and an answer read as the benchmark's parser reads it (a label, or a one-digit
score). It imports nothing from NegHub (lm-eval users need not install it), and its names are its own in utils.py
(interop/lm_eval.py refuses two files that define one name)."""

import re
import unicodedata
from typing import Any

LLM_JP_DIGIT = re.compile(r"^[0-9](?:\.0+)?$")


def llm_jp_text(results: list[str]) -> str:
    """The model's text as NegHub reads it: no broken character (U+FFFD) at its end."""
    return results[0].rstrip("\ufffd")


def extract_llm_jp_answer(text: str) -> str:
    """llm-jp-eval's extraction: NFKC, the text up to the first blank line, stripped."""
    normalised = unicodedata.normalize("NFKC", text)
    return normalised.split("\n\n", 1)[0].strip()


def process_llm_jp_label(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """A label answer: right when the extracted answer is the gold label itself."""
    return {"acc": float(extract_llm_jp_answer(llm_jp_text(results)) == doc["gold"])}


def process_llm_jp_digit(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """A score answer: right when the extracted answer is the gold score as one digit ("4" or "4.0")."""
    answer = extract_llm_jp_answer(llm_jp_text(results))
    return {"acc": float(LLM_JP_DIGIT.match(answer) is not None and int(answer[0]) == int(doc["gold"]))}
