"""Written into the utils.py of `neghub export lm-eval` for the multiple-choice family's option runs: the letter an
answer names, parsed as options.parse_answer parses it (the paper's appendix M). It imports nothing from NegHub
(lm-eval users need not install it), and its names are its own in utils.py."""

import string
from typing import Any

OPTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_OPTION_PUNCTUATION = str.maketrans("", "", string.punctuation)


def option_position(output: str, n_options: int) -> int | None:
    """The position (0 = A) an answer names: its first line, stripped, case and ASCII punctuation ignored;
    None when it names no offered letter."""
    answer = output.split("\n", 1)[0].strip().lower().translate(_OPTION_PUNCTUATION)
    offered = [letter.lower() for letter in OPTION_LETTERS[:n_options]]
    return offered.index(answer) if answer in offered else None


def process_option_letter(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """An option letter: right when it names the right option's position (the text's U+FFFD end dropped, as
    NegHub drops it)."""
    return {"acc": float(option_position(results[0].rstrip("\ufffd"), doc["n_options"]) == doc["gold"])}
