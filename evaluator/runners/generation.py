"""Greedy generation and the causal top-1, after the prompts' common prefix has run once.

The prompts' longest common token prefix (llm-jp-eval's preamble and instruction: three quarters of an NLI
prompt; SCN's "NAME is a PROF who likes to") runs once and its key-value cache is reused, across batches too;
each row is then prefix + left padding + its own tokens, with position ids that skip the padding, so every row
computes what it would alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .kv_cache import cache_argument, returned_cache

if TYPE_CHECKING:
    from .backend import Backend


def after_common_prefix(backend: Backend, rows: list[list[int]]) -> tuple[Any, Any, Any, Any]:
    """Inputs for a batch of causal-LM rows whose common token prefix has already run: (input ids,
    attention mask, position ids, key-value cache). Each row is the prefix's cache, left padding,
    then its own tokens, with position ids that skip the padding, so every row computes what it
    would alone; the prefix's cache is kept across batches. Built as lists, sent to the device once."""
    import torch

    prefix = backend.common_prefix(rows)
    prefix_len = len(prefix)
    n = len(rows)
    cache = backend.prefix_kv(prefix, n) if prefix_len else None
    suffixes = [r[prefix_len:] for r in rows]
    width = max(len(x) for x in suffixes)
    pad = backend.pad_id()
    ids = [[pad] * (width - len(x)) + x for x in suffixes]
    mask = [[1] * prefix_len + [0] * (width - len(x)) + [1] * len(x) for x in suffixes]
    positions = [[1] * (width - len(x)) + list(range(prefix_len, prefix_len + len(x))) for x in suffixes]
    device = backend.device
    return (
        torch.tensor(ids, dtype=torch.long, device=device),
        torch.tensor(mask, dtype=torch.long, device=device),
        torch.tensor(positions, dtype=torch.long, device=device),
        cache,
    )


@dataclass
class PromptPass:
    """What a greedy batch's prompt pass leaves for a computation on the same prompts (fusion.py): the key-value
    cache (after the decoded tokens too), the attention mask of the prompt's columns (prefix, padding, own tokens),
    and the final hidden states of each row's last `kept` prompt positions (None where none were asked for)."""

    cache: Any
    mask: Any
    states: Any


def generate(backend: Backend, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
    """Greedy continuations of a batch of prompts, decoded without special tokens (`Backend.decode_complete`)."""
    import torch

    rows = backend.encode_many(prompts, special_tokens=special_tokens)
    with torch.inference_mode():
        table, _ = greedy(backend, rows, max_new_tokens)
    return [backend.decode_complete(row) for row in table]


def greedy(backend: Backend, rows: list[list[int]], max_new_tokens: int, *, kept: int = 0) -> tuple[Any, PromptPass]:
    """Greedy tokens after each row of prompt tokens (each row's own, up to its end of text), and its `PromptPass`.
    With `kept`, a forward hook on the base model reads the prompt pass's last `kept` hidden states: the call that
    computes the first token is the same either way. Call under `torch.inference_mode()`."""
    import torch

    eos = backend.tokenizer.eos_token_id
    n = len(rows)
    device = backend.device
    ids, mask, positions, cache = after_common_prefix(backend, rows)
    prompt_mask = mask
    captured: list[Any] = []
    hook = None
    if kept:

        def keep_states(module: Any, args: Any, output: Any) -> None:
            if not captured:  # the prompt pass only, not the decoding steps
                captured.append(output[0][:, -kept:].clone())

        hook = backend.model.base_model.register_forward_hook(keep_states)
    try:
        steps = []
        finished = torch.zeros(n, dtype=torch.bool, device=device)
        next_pos = positions[:, -1:] + 1
        for _ in range(max_new_tokens):
            out = backend.model(
                input_ids=ids,
                attention_mask=mask,
                position_ids=positions,
                **cache_argument(backend.model, cache),
                use_cache=True,
                logits_to_keep=1,
            )
            cache = returned_cache(out)
            token = out.logits[:, -1].argmax(-1)
            steps.append(torch.where(finished, -1, token))  # -1: the row had finished before this step
            if eos is not None:
                finished |= token == eos
                if bool(finished.all()):  # the one synchronisation per step
                    break
            ids = token[:, None]
            positions = next_pos
            next_pos = next_pos + 1
            mask = torch.cat([mask, torch.ones((n, 1), dtype=torch.long, device=device)], dim=1)
    finally:
        if hook is not None:
            hook.remove()
    table = torch.stack(steps, dim=1).tolist() if steps else [[] for _ in range(n)]
    tokens = [[t for t in row if t >= 0] for row in table]
    return tokens, PromptPass(cache, prompt_mask, captured[0] if captured else None)


def causal_top1(backend: Backend, texts: list[str]) -> Any:
    """The final hidden state after each text, for a batch of causal-LM texts sharing a prefix (the cloze
    test's texts of one name and profession share "NAME is a PROF who likes to": it runs once)."""
    ids, mask, positions, cache = after_common_prefix(backend, backend.encode_many(texts))
    hidden = backend.body(
        input_ids=ids,
        attention_mask=mask,
        position_ids=positions,
        **cache_argument(backend.model.base_model, cache),
        use_cache=True,
    ).last_hidden_state
    return hidden[:, -1]  # left padding: the last position is every row's last real token
