"""Greedy generation and the causal top-1, after the prompts' common prefix has run once.

The prompts' longest common token prefix (llm-jp-eval's preamble and instruction: three quarters of an NLI
prompt; SCN's "NAME is a PROF who likes to") runs once and its key-value cache is reused, across batches too;
each row is then prefix + left padding + its own tokens, with position ids that skip the padding, so every row
computes what it would alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def generate(backend: Backend, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
    """Greedy continuations of a batch of prompts, decoded without special tokens (`Backend.decode_complete`)."""
    import torch

    eos = backend.tokenizer.eos_token_id
    rows = backend.encode_many(prompts, special_tokens=special_tokens)
    n = len(rows)
    device = backend.device
    with torch.inference_mode():
        ids, mask, positions, cache = after_common_prefix(backend, rows)
        steps = []
        finished = torch.zeros(n, dtype=torch.bool, device=device)
        next_pos = positions[:, -1:] + 1
        for _ in range(max_new_tokens):
            out = backend.model(
                input_ids=ids,
                attention_mask=mask,
                position_ids=positions,
                past_key_values=cache,
                use_cache=True,
                logits_to_keep=1,
            )
            cache = out.past_key_values
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
        table = torch.stack(steps, dim=1).tolist() if steps else [[] for _ in range(n)]
    return [backend.decode_complete([t for t in row if t >= 0]) for row in table]


def causal_top1(backend: Backend, texts: list[str]) -> Any:
    """The final hidden state after each text, for a batch of causal-LM texts sharing a prefix (the cloze
    test's texts of one name and profession share "NAME is a PROF who likes to": it runs once)."""
    ids, mask, positions, cache = after_common_prefix(backend, backend.encode_many(texts))
    hidden = backend.body(
        input_ids=ids, attention_mask=mask, position_ids=positions, past_key_values=cache, use_cache=True
    ).last_hidden_state
    return hidden[:, -1]  # left padding: the last position is every row's last real token
