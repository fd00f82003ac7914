"""Log-likelihoods of continuations, lm-evaluation-harness's `loglikelihood`, batched and packed.

lm-eval's token boundaries: trailing spaces of the context move to the continuation; the continuation's
tokens are those of `encode(context + continuation)` after `len(encode(context))`. But each context runs
once for all its options (one packed row per request, the options as a prefix tree: tokens that options
share at their start run once), the requests' common prefix runs once, and the output head runs once per
position whose next token is scored.

A packed row needs a model that honours a custom 4D attention mask and position ids; `packing_agrees` tests
that once per model, on three tokens, in a way rounding cannot blur; a model that fails gets one plain row per
continuation (lm-eval's own layout).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .kv_cache import cache_argument

if TYPE_CHECKING:
    from .backend import Backend

Group = tuple[list[int], list[list[int]]]  # a request's context tokens and its continuations' tokens
HEAD_CHUNK = 1024  # hidden states through the output head at a time: bounds the (states x vocabulary) logits
# `packing_agrees`: the largest log-probability difference between two twin positions that must compute the
# same thing. Measured on SmolLM2-135M-Instruct (CPU): 0 in bfloat16 (sdpa and eager attention), 1.9e-5 in
# float32 with eager attention, against 1.5 nats when the model ignores the mask and 1.8-2.1 when it ignores the
# position ids, in either dtype. Kernels that tile differently may round the twins apart a little in 16 bits.
TWIN_TOLERANCE = {"float32": 1e-3, "bfloat16": 0.5, "float16": 0.5}


@dataclass(frozen=True)
class OptionTree:
    """The continuations of one context as a prefix tree (a trie over their token ids).

    A node is a token some continuation feeds to the model (each continuation's tokens but its last,
    which predicts nothing) after the same earlier tokens; continuations that begin alike share nodes,
    so a shared token runs once. Nodes are listed parents first.
    """

    tokens: list[int]  # each node's token id
    depths: list[int]  # each node's distance below the context: 0 for a continuation's first token
    lines: list[list[int]]  # each node's ancestors from the top down, then the node itself
    predictors: list[int]  # per continuation token, in order: the node whose state predicts it (-1: the context's last)

    @classmethod
    def build(cls, continuations: list[list[int]]) -> OptionTree:
        tokens: list[int] = []
        depths: list[int] = []
        lines: list[list[int]] = []
        predictors: list[int] = []
        children: dict[tuple[int, int], int] = {}  # (parent node or -1, token) -> node
        for continuation in continuations:
            parent = -1
            for position, token in enumerate(continuation):
                predictors.append(parent)
                if position == len(continuation) - 1:
                    break  # the last token is only predicted
                node = children.get((parent, token))
                if node is None:
                    node = children[parent, token] = len(tokens)
                    tokens.append(token)
                    depths.append(position)
                    lines.append([*(lines[parent] if parent >= 0 else []), node])
                parent = node
        return cls(tokens, depths, lines, predictors)


def split_context(backend: Backend, context: str, continuations: list[str]) -> Group:
    """lm-eval's token boundaries for one request: trailing spaces of the context move to the continuation,
    and the continuation's tokens are those of encode(context + continuation) after len(encode(context)).
    Kept per request on the backend: ordering a run by length tokenises every request once already."""
    key = (context, tuple(continuations))
    known = backend.split_cache.get(key)
    if known is not None:
        return known
    n_spaces = len(context) - len(context.rstrip())
    if n_spaces:
        continuations = [context[-n_spaces:] + c for c in continuations]
        context = context[:-n_spaces]
    context_ids, *wholes = backend.encode_many([context, *(context + c for c in continuations)])
    conts = [whole[len(context_ids) :] for whole in wholes]
    if not context_ids:  # lm-eval scores an empty context after the end-of-text token
        context_ids = [backend.tokenizer.eos_token_id]
    backend.split_cache[key] = (context_ids, conts)
    return context_ids, conts


def packed_lengths(backend: Backend, requests: list[tuple[str, list[str]]]) -> list[int]:
    """How many positions each (context, continuations) request fills in its packed row: the context's
    tokens and its continuations' prefix-tree nodes; items ordered by it share batches with items of
    their own length, so the packed rows pad little."""
    lengths = []
    for context, continuations in requests:
        context_ids, conts = split_context(backend, context, continuations)
        lengths.append(len(context_ids) + len(OptionTree.build(conts).tokens))
    return lengths


def loglikelihood_batch(backend: Backend, requests: list[tuple[str, list[str]]]) -> list[list[tuple[float, bool]]]:
    """(sum of log-probabilities, is-greedy) of each continuation of each (context, continuations) request,
    in one forward pass: one packed row per request (`packed_states`), or one plain row per continuation
    (`plain_states`) for a model that does not honour packed rows (`packing_agrees`, once per model)."""
    import torch

    groups = [split_context(backend, context, continuations) for context, continuations in requests]
    if backend.packing_ok is None:
        backend.packing_ok = packing_agrees(backend)
    with torch.inference_mode():
        states, rows = packed_states(backend, groups) if backend.packing_ok else plain_states(backend, groups)
        targets = [t for _, conts in groups for cont in conts for t in cont]
        token_scores = score_tokens(backend, states, targets, rows)
    return summed(groups, token_scores)


def summed(groups: list[Group], token_scores: list[tuple[float, bool]]) -> list[list[tuple[float, bool]]]:
    """Each continuation's (sum of its tokens' log-probabilities, every token the arg-max), from the scores of every
    continuation token of every group in order."""
    results: list[list[tuple[float, bool]]] = []
    start = 0
    for _, conts in groups:
        scores = []
        for cont in conts:
            end = start + len(cont)
            scores.append((sum(s for s, _ in token_scores[start:end]), all(g for _, g in token_scores[start:end])))
            start = end
        results.append(scores)
    return results


def _tree_mask(own: int, tree: OptionTree, width: int) -> Any:
    """Which of a packed row's positions each position may see (after the common prefix, which all see): the
    context causally, each tree node the whole context, its ancestors and itself, padding itself only (a row
    with no key would give NaN). Built by slices, not one pair at a time."""
    import torch

    see = torch.zeros((width, width), dtype=torch.bool)
    see[:own, :own] = torch.ones((own, own), dtype=torch.bool).tril()
    nodes = len(tree.tokens)
    see[own : own + nodes, :own] = True
    if nodes:
        query = [own + node for node, line in enumerate(tree.lines) for _ in line]
        key = [own + ancestor for line in tree.lines for ancestor in line]
        see[query, key] = True
    padding = torch.arange(own + nodes, width)
    see[padding, padding] = True
    return see


def packed_states(backend: Backend, groups: list[Group]) -> tuple[Any, list[int]]:
    """The final hidden states that predict the continuations' tokens, from one packed row per request,
    and for each continuation token in order the index of the state that predicts it.

    A row is the request's context, then its continuations' tokens (all but each one's last, which
    predicts nothing) as a prefix tree (`OptionTree`): options that begin with the same tokens share
    those positions. A custom attention mask lets each tree node see the context, its ancestors and
    itself, and its position id is the context's length plus its depth, so every token computes what
    it would in its own sequence, with no copy of the context or of a shared option prefix and no
    padding between options. Each predicting state appears once, however many options it scores.
    The requests' longest common token prefix (the instruction, the few-shot demonstrations) runs
    once and its key-value cache is kept across calls. The mask goes to the device as booleans (a byte
    per pair) and becomes the model's additive mask there."""
    import torch

    prefix = backend.common_prefix([ctx for ctx, _ in groups])
    p = len(prefix)
    trees = [OptionTree.build(conts) for _, conts in groups]
    lengths = [len(ctx) - p + len(tree.tokens) for (ctx, _), tree in zip(groups, trees, strict=True)]
    width = max(lengths)
    pad = backend.pad_id()
    ids: list[list[int]] = []
    positions: list[list[int]] = []
    masks = []
    pick_row: list[int] = []
    pick_col: list[int] = []
    rows: list[int] = []
    for b, ((ctx, _), tree) in enumerate(zip(groups, trees, strict=True)):
        own = len(ctx) - p  # the context's tokens after the common prefix
        filler = width - lengths[b]
        ids.append(ctx[p:] + tree.tokens + [pad] * filler)
        positions.append([*range(p, len(ctx)), *(len(ctx) + d for d in tree.depths), *[0] * filler])
        masks.append(_tree_mask(own, tree, width))
        # the states kept: the context's last (it predicts every option's first token), then every node
        base = len(pick_row)
        pick_row += [b] * (1 + len(tree.tokens))
        pick_col += range(own - 1, own + len(tree.tokens))
        rows += [base + 1 + node for node in tree.predictors]
    device = backend.device
    see = torch.stack(masks)
    if device != "cpu":  # page-locked, so that the copy runs while the prefix and the inputs are prepared
        see = see.pin_memory()
    see = see.to(device, non_blocking=True)
    dtype = next(backend.model.parameters()).dtype
    mask = torch.zeros((len(groups), 1, width, p + width), dtype=dtype, device=device)
    mask[:, 0, :, p:].masked_fill_(~see, torch.finfo(dtype).min)  # every position sees the common prefix
    cache = backend.prefix_kv(prefix, len(groups)) if p else None
    hidden = backend.body(
        input_ids=torch.tensor(ids, device=device),
        attention_mask=mask,
        position_ids=torch.tensor(positions, device=device),
        **cache_argument(backend.model.base_model, cache),
        use_cache=cache is not None,
    ).last_hidden_state
    return hidden[torch.tensor(pick_row, device=device), torch.tensor(pick_col, device=device)], rows


def plain_states(backend: Backend, groups: list[Group]) -> tuple[Any, list[int]]:
    """`packed_states` the plain way: one right-padded row per (context, continuation), one state per
    continuation token."""
    import torch

    pairs = [(ctx, cont) for ctx, conts in groups for cont in conts]
    width = max(len(ctx) + len(cont) - 1 for ctx, cont in pairs)
    pad = backend.pad_id()
    ids: list[list[int]] = []
    attention: list[list[int]] = []
    pick_row: list[int] = []
    pick_col: list[int] = []
    for b, (ctx, cont) in enumerate(pairs):
        tokens = ctx + cont[:-1]
        ids.append(tokens + [pad] * (width - len(tokens)))
        attention.append([1] * len(tokens) + [0] * (width - len(tokens)))
        pick_row += [b] * len(cont)
        pick_col += range(len(ctx) - 1, len(ctx) - 1 + len(cont))
    device = backend.device
    hidden = backend.body(
        input_ids=torch.tensor(ids, device=device), attention_mask=torch.tensor(attention, device=device)
    ).last_hidden_state
    states = hidden[torch.tensor(pick_row, device=device), torch.tensor(pick_col, device=device)]
    return states, list(range(len(pick_row)))


def score_tokens(backend: Backend, states: Any, targets: list[int], rows: list[int]) -> list[tuple[float, bool]]:
    """(log-probability, is-arg-max) of each target token from the hidden state that predicts it:
    `states[rows[i]]` for target i. The output head runs once per state, however many targets it predicts."""
    import torch

    head = backend.head()
    device = backend.device
    log_totals = []
    greedy_ids = []
    wanted = torch.empty(len(targets), dtype=torch.float32, device=device)
    target = torch.tensor(targets, dtype=torch.long, device=device)
    row = torch.tensor(rows, dtype=torch.long, device=device)
    for chunk in range(0, len(states), HEAD_CHUNK):
        logits = head(states[chunk : chunk + HEAD_CHUNK]).float()
        here = ((row >= chunk) & (row < chunk + len(logits))).nonzero()[:, 0]
        wanted[here] = logits[row[here] - chunk, target[here]]
        best, greedy = logits.max(-1)  # the first arg-max on ties, as argmax (and lm-eval) picks
        # log-sum-exp in place on the fresh logits: two passes over them instead of log_softmax's copy
        log_totals.append(logits.sub_(best[:, None]).exp_().sum(-1).log_() + best)
        greedy_ids.append(greedy)
    log_total = torch.cat(log_totals)[row]
    is_greedy = torch.cat(greedy_ids)[row] == target
    return list(zip((wanted - log_total).tolist(), is_greedy.tolist(), strict=True))


PROBE_CONTEXT = "Negate the sentence .\nSentence : She is happy\nNegation:"
PROBE_TOKEN = " She"


def packing_agrees(backend: Backend) -> bool:
    """Whether the model honours a packed row's attention mask and position ids. One row after a short
    context: the context's last token, then the same token twice, side by side, both at the context's length
    as position, the second seeing the context and itself only. The two must compute the same next-token
    log-probabilities: a model that ignores the mask lets the second see the first, one that ignores the position
    ids moves it one place on, and either moves them by nats (`TWIN_TOLERANCE`), far beyond rounding, in every
    dtype (comparing packed with plain rows does not tell: in bfloat16 rounding alone moves SmolLM2's tokens by up
    to 0.35 nats between the two layouts). A model whose mask code cannot take a 4D mask (Bloom, Falcon) fails
    too. Three tokens after a cached context: a negligible part of any run."""
    import torch

    context = backend.encode(PROBE_CONTEXT)
    twin = backend.encode(PROBE_TOKEN)[:1] or context[-1:]
    prefix = tuple(context[:-1])
    p = len(prefix)
    device = backend.device
    dtype = next(backend.model.parameters()).dtype
    see = torch.tensor([[1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=torch.bool, device=device)
    mask = torch.zeros((1, 1, 3, p + 3), dtype=dtype, device=device)
    mask[0, 0, :, p:].masked_fill_(~see, torch.finfo(dtype).min)
    try:
        with torch.inference_mode():
            cache = backend.prefix_kv(prefix, 1) if p else None
            hidden = backend.body(
                input_ids=torch.tensor([[context[-1], twin[0], twin[0]]], device=device),
                attention_mask=mask,
                position_ids=torch.tensor([[p, p + 1, p + 1]], device=device),
                **cache_argument(backend.model.base_model, cache),
                use_cache=cache is not None,
            ).last_hidden_state[0]
            logprobs = backend.head()(hidden[1:]).float().log_softmax(-1)
    except Exception:  # a model whose own mask code cannot take a 4D mask (Bloom, Falcon)
        return False
    finally:
        backend.prefix_cache = None
    return float((logprobs[0] - logprobs[1]).abs().max()) <= TWIN_TOLERANCE.get(backend.dtype, 0.5)
