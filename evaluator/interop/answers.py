"""Another engine's answers to NegHub's requests, read back for `neghub import` (protocol/requests.py says what
each kind of request takes as its answer)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ..fileio.jsonl import JsonlReader, json_type_name
from ..protocol.requests import BROKEN_CHARACTER, Answer, Request

MAX_ANSWER_CHARS = 100_000


def answer_key(value: Any) -> str:
    """Request ids compare as text: an engine may write the item id 12 as "12"."""
    return str(value)


def _numbers(value: Any, count: int | None, *, nonpositive: bool) -> list[float] | str:
    """The numbers of an answer, or what is wrong with them."""
    if not isinstance(value, list) or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in value):
        return f"expected a list of numbers, got {json_type_name(value)}"
    if count is not None and len(value) != count:
        return f"expected {count} numbers (one per continuation, in order), got {len(value)}"
    numbers = [float(x) for x in value]
    if not all(math.isfinite(x) for x in numbers):
        return "expected finite numbers"
    if nonpositive and any(x > 0 for x in numbers):
        return "expected log-likelihoods (numbers <= 0)"
    return numbers


def parse_answer(request: Request, line: dict[str, Any]) -> tuple[str, Answer | None, str | None]:
    """(field, answer, None) for a request from an engine's line, or (field, None, what is wrong); the field
    is the one the request's kind takes."""
    if request.kind in ("generate", "top1"):
        if "text" not in line:
            return "text", None, "missing field"
        text = line["text"]
        if not isinstance(text, str):
            return "text", None, f"expected a string (the engine's output), got {json_type_name(text)}"
        if len(text) > MAX_ANSWER_CHARS:
            return "text", None, f"expected at most {MAX_ANSWER_CHARS:,} characters, got {len(text):,}"
        # an engine that decodes a character cut by its token budget ends the text in U+FFFD: dropped, as
        # NegHub's own decoding drops it
        return "text", text.rstrip(BROKEN_CHARACTER), None
    field = "loglikelihoods" if request.kind == "loglikelihood" else "logits"
    if field not in line:
        return field, None, "missing field"
    count = len(request.continuations) if request.kind == "loglikelihood" else None
    numbers = _numbers(line[field], count, nonpositive=request.kind == "loglikelihood")
    if isinstance(numbers, str):
        return field, None, numbers
    return field, numbers, None


def read_answers(path_name: str, data: bytes, requests: Sequence[Request]) -> list[Answer]:
    """Every request's answer from an engine's JSONL file (its bytes), in request order; all problems (lines
    that are not JSON objects, unknown, repeated or missing ids, wrong fields) are raised together, one line
    each."""
    problems = FileProblems()
    lines = JsonlReader(data, path_name, problems)
    index = {answer_key(r.id): i for i, r in enumerate(requests)}
    answers: list[Answer | None] = [None] * len(requests)
    seen: dict[int, int] = {}
    try:
        for number, obj in lines:
            if "id" not in obj:
                problems.append(Problem(path_name, number, "id", "missing field (the request's id)"))
                continue
            i = index.get(answer_key(obj["id"]))
            if i is None:
                problems.append(Problem(path_name, number, "id", f"no request has the id {obj['id']!r}"))
                continue
            if i in seen:
                problems.append(
                    Problem(path_name, number, "id", f"{obj['id']!r} was answered on line {seen[i]} already")
                )
                continue
            seen[i] = number
            field, answer, wrong = parse_answer(requests[i], obj)
            if wrong is not None:
                problems.append(Problem(path_name, number, field, wrong))
                continue
            answers[i] = answer
        missing = [requests[i].id for i in range(len(requests)) if i not in seen]
        if missing:
            shown = ", ".join(repr(m) for m in missing[:5])
            more = f" and {len(missing) - 5:,} more" if len(missing) > 5 else ""
            problems.append(Problem(path_name, None, "id", f"no answer for {len(missing):,} requests: {shown}{more}"))
    except TooManyProblems:
        raise stopped(path_name, problems) from None
    if problems:
        raise InputError(problems)
    return [a for a in answers if a is not None]
