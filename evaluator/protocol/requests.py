"""Engine-neutral requests: what a run asks of a model, apart from the model that answers.

Every run of `neghub run` is a list of items; each item becomes one or more `Request`s and its answers
become prediction lines (`RunPlan.requests` and `RunPlan.lines`). The same requests are

- executed by a loaded model (model.py's `LoadedModel`: the runners' backend) for `neghub run` (`execute`),
- written as JSONL by `neghub prompts` for any other engine (`request_json`),
- and the other engine's answers, read back by `neghub import` (interop/answers.py), go through the very
  post-processing `neghub run` applies.

Four kinds of request, with the answer each takes:

- generate: greedy text after `prompt` (at most `max_new_tokens` tokens, cut before the first `until`
  string); the answer is the text (`{"id": ..., "text": "..."}`);
- loglikelihood: the log-likelihood of each continuation after `prompt` (lm-evaluation-harness's
  `loglikelihood`); the answer is one number per continuation, in order (`{"id": ..., "loglikelihoods": [...]}`);
- top1: the arg-max token at the mask (`mask` names its placeholder in the prompt) or after the prompt;
  the answer is that token's text (`{"id": ..., "text": "..."}`);
- classify: a sequence-classification head on the pair (`prompt`, `text_pair`); the answer is the head's
  outputs in its label order (`{"id": ..., "logits": [...]}`, one value for a regression head).

With `chat` set, the prompt is sent as one user message through the model's chat template, ready for the
assistant's answer (JSONL: `messages` instead of `prompt`); `add_special_tokens` says whether the
tokenizer's own special tokens (a BOS token) go around a plain prompt.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .model import LoadedModel

RequestKind = Literal["generate", "loglikelihood", "top1", "classify"]
REQUEST_KINDS: tuple[RequestKind, ...] = ("generate", "loglikelihood", "top1", "classify")
# an answer: text (generate, top1) or numbers (loglikelihood: one per continuation; classify: one per head output)
Answer = str | list[float]
BROKEN_CHARACTER = "\ufffd"
MASK_PLACEHOLDER = "[MASK]"  # how `neghub prompts` writes a masked LM's mask; each engine puts its own token there


@dataclass(frozen=True)
class Request:
    """One question to a model. `id` is unique within a run (an item's id, or the item's id and a suffix)."""

    id: str | int
    kind: RequestKind
    prompt: str
    chat: bool = False
    add_special_tokens: bool = False
    continuations: tuple[str, ...] = ()
    max_new_tokens: int = 0
    until: tuple[str, ...] = ()
    mask: str | None = None
    text_pair: str | None = None


def request_json(request: Request) -> dict[str, Any]:
    """The JSONL line `neghub prompts` writes for a request: only the fields its kind uses."""
    line: dict[str, Any] = {"id": request.id, "kind": request.kind}
    if request.chat:
        line["messages"] = [{"role": "user", "content": request.prompt}]
    else:
        line["prompt"] = request.prompt
    if request.kind in ("generate", "loglikelihood", "top1") and not request.chat:
        line["add_special_tokens"] = request.add_special_tokens
    if request.kind == "loglikelihood":
        line["continuations"] = list(request.continuations)
    if request.kind == "generate":
        line["max_new_tokens"] = request.max_new_tokens
        line["until"] = list(request.until)
    if request.mask is not None:
        line["mask"] = request.mask
    if request.text_pair is not None:
        line["text_pair"] = request.text_pair
    return line


def request_from_json(line: dict[str, Any]) -> Request:
    """A request back from its JSONL line (what an engine reading `neghub prompts` output sees)."""
    messages = line.get("messages")
    prompt = messages[0]["content"] if messages is not None else line["prompt"]
    return Request(
        id=line["id"],
        kind=line["kind"],
        prompt=prompt,
        chat=messages is not None,
        add_special_tokens=bool(line.get("add_special_tokens", False)),
        continuations=tuple(line.get("continuations", ())),
        max_new_tokens=int(line.get("max_new_tokens", 0)),
        until=tuple(line.get("until", ())),
        mask=line.get("mask"),
        text_pair=line.get("text_pair"),
    )


def cut_at(text: str, until: Sequence[str]) -> str:
    """The text before the first occurrence of any stop string (lm-evaluation-harness's `generate_until`)."""
    for stop in until:
        if stop:
            text = text.split(stop, 1)[0]
    return text


def execute(backend: LoadedModel, requests: Sequence[Request]) -> list[Answer]:
    """Answer requests with NegHub's backend, in order; requests of one kind run together."""
    answers: list[Answer | None] = [None] * len(requests)

    def text_of(request: Request) -> str:
        if request.mask is not None:
            return request.prompt.replace(request.mask, str(backend.tokenizer.mask_token))
        return backend.chat_text(request.prompt) if request.chat else request.prompt

    by_kind: dict[tuple[Any, ...], list[int]] = {}
    for i, request in enumerate(requests):
        special = request.add_special_tokens and not request.chat  # a chat template writes its own
        key = (request.kind, request.max_new_tokens, special) if request.kind == "generate" else (request.kind,)
        by_kind.setdefault(key, []).append(i)
    for key, indices in by_kind.items():
        chosen = [requests[i] for i in indices]
        results: list[Answer]
        if key[0] == "generate":
            outputs = backend.generate([text_of(r) for r in chosen], key[1], special_tokens=key[2])
            # cut at the stop strings, then no broken character at the end (lm-eval's text, imported, reads so too)
            results = [cut_at(o, r.until).rstrip(BROKEN_CHARACTER) for r, o in zip(chosen, outputs, strict=True)]
        elif key[0] == "loglikelihood":
            scored = backend.loglikelihood_batch([(text_of(r), list(r.continuations)) for r in chosen])
            results = [[s for s, _ in scores] for scores in scored]
        elif key[0] == "top1":
            results = [backend.decode_complete([t]) for t in backend.top1([text_of(r) for r in chosen])]
        else:
            results = list(backend.classify([(r.prompt, r.text_pair or "") for r in chosen]))
        for i, result in zip(indices, results, strict=True):
            answers[i] = result
    return [a for a in answers if a is not None]


def requests_process(
    requests_of: Callable[[Any], list[Request]], lines_of: Callable[[Any, list[Answer]], list[dict[str, Any]]]
) -> Callable[[LoadedModel, Sequence[Any]], list[list[dict[str, Any]]]]:
    """A run's `process` from its requests and its post-processing: what `neghub run` does with a batch."""

    def process(backend: LoadedModel, batch: Sequence[Any]) -> list[list[dict[str, Any]]]:
        per_item = [requests_of(item) for item in batch]
        answers = iter(execute(backend, [r for requests in per_item for r in requests]))
        return [
            lines_of(item, [next(answers) for _ in requests]) for item, requests in zip(batch, per_item, strict=True)
        ]

    return process


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)
