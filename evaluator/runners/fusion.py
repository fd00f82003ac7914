"""A greedy batch and a log-likelihood batch of the same prompts in one computation: the labels scored on the
greedy run's prompt pass.

A generation run and a log-likelihood run of one prompt (JNLI-Neg's llm-jp-eval prompt, asked both ways) feed
the model the same tokens: lm-eval's token boundaries move the prompt's trailing newline to each label's
continuation, so the greedy prompt is the log-likelihood context and then the start every continuation shares
(here one newline token; none at all where the prompt ends in no space). Scored on their own, the labels run the
whole prompt again (about 480 tokens an item, 111 of them not in the shared prefix); scored here, only the label
tokens after that shared start run (about 6 an item): the prompt pass's last hidden states predict the shared start
and the labels' first tokens, and the label tokens beyond run as a prefix tree (`OptionTree`) against the prompt's
key-value cache, once the greedy tokens are decoded (their columns hidden). Each row's padding stays hidden, as in
the prompt pass (`after_common_prefix`'s mask), and each tree node sees the prompt, its ancestors and itself.

The greedy tokens come from the very call a greedy batch makes alone (a forward hook only reads its states), so
the greedy answers are the same bytes; the log-likelihoods are the same sums in another batch shape (float32's
rounding apart). Where a batch's tokens do not line up so (a tokenizer that merges the newline into a label, a
BOS token the greedy prompt has and the context not, a row whose shared start falls into the batch's common
prefix), `generate_and_score` says so and the log-likelihood batch runs on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import generation, loglikelihood
from .kv_cache import cache_argument
from .loglikelihood import OptionTree

if TYPE_CHECKING:
    from .backend import Backend


def shared_starts(backend: Backend, rows: list[list[int]], groups: list[loglikelihood.Group]) -> list[int] | None:
    """For each row, how many tokens the greedy prompt has after its log-likelihood context, all of them the
    start of every continuation; None where a row is not its context plus such a start, or where a row's context's
    last token falls into the batch's common prefix (its state is not computed in the prompt pass)."""
    if len(rows) != len(groups) or not rows:
        return None
    prefix = len(backend.common_prefix(rows))
    starts = []
    for row, (context, continuations) in zip(rows, groups, strict=True):
        start = len(row) - len(context)
        if start < 0 or row[: len(context)] != context or len(row) - prefix < start + 1:
            return None
        shared = row[len(context) :]
        if any(continuation[:start] != shared for continuation in continuations):
            return None
        starts.append(start)
    return starts


def generate_and_score(
    backend: Backend,
    prompts: list[str],
    max_new_tokens: int,
    *,
    special_tokens: bool,
    requests: list[tuple[str, list[str]]],
) -> tuple[list[str], list[list[tuple[float, bool]]] | None]:
    """Greedy continuations of `prompts` (as `Backend.generate` gives them) and, fused with them, the (log-likelihood,
    is-greedy) of each continuation of the (context, continuations) `requests`, one per prompt; None for the second
    where the batch cannot be fused (the module docstring says when), and then only the greedy batch ran."""
    import torch

    rows = backend.encode_many(prompts, special_tokens=special_tokens)
    groups = [loglikelihood.split_context(backend, context, conts) for context, conts in requests]
    if backend.packing_ok is None:
        backend.packing_ok = loglikelihood.packing_agrees(backend)
    starts = shared_starts(backend, rows, groups) if backend.packing_ok and max_new_tokens >= 1 else None
    with torch.inference_mode():
        kept = 1 + max(starts) if starts is not None else 0
        tokens, prompt_pass = generation.greedy(backend, rows, max_new_tokens, kept=kept)
        texts = [backend.decode_complete(row) for row in tokens]
        if starts is None:
            return texts, None
        states, predictors = _label_states(backend, groups, starts, prompt_pass)
        targets = [t for _, conts in groups for cont in conts for t in cont]
        token_scores = loglikelihood.score_tokens(backend, states, targets, predictors)
    return texts, loglikelihood.summed(groups, token_scores)


def _label_states(
    backend: Backend, groups: list[loglikelihood.Group], starts: list[int], prompt_pass: generation.PromptPass
) -> tuple[Any, list[int]]:
    """The hidden states that predict the continuations' tokens, and for each continuation token in order the index
    of its state: the prompt pass's kept states for the context's last token and the shared start, the label tree's
    nodes beyond it from one pass against the prompt's cache."""
    import torch

    n = len(groups)
    kept = prompt_pass.states.shape[1]
    trees = [OptionTree.build(conts) for _, conts in groups]
    # the nodes beyond each row's shared start (the shared start's nodes are the prompt's last tokens)
    pairs = zip(trees, starts, strict=True)
    beyond = [[i for i, depth in enumerate(tree.depths) if depth >= start] for tree, start in pairs]
    width = max(len(nodes) for nodes in beyond)
    predictors: list[int] = []  # each continuation token's state: an index into the prompt's kept states, then
    for b, (tree, start, nodes) in enumerate(zip(trees, starts, beyond, strict=True)):  # into the tree pass's
        column = {node: j for j, node in enumerate(nodes)}
        for node in tree.predictors:
            if node in column:
                predictors.append(n * kept + b * width + column[node])
            else:  # the context's last token (-1: depth -1) or a node of the shared start: a prompt position
                depth = -1 if node < 0 else tree.depths[node]
                predictors.append(b * kept + kept - start + depth)
    every = prompt_pass.states.reshape(n * kept, -1)
    if width:
        hidden = _tree_pass(backend, groups, trees, beyond, width, prompt_pass)
        every = torch.cat([every, hidden.reshape(n * width, -1)])
    used = sorted(set(predictors))
    where = {state: i for i, state in enumerate(used)}
    return every[torch.tensor(used, device=backend.device)], [where[p] for p in predictors]


def _tree_pass(
    backend: Backend,
    groups: list[loglikelihood.Group],
    trees: list[OptionTree],
    beyond: list[list[int]],
    width: int,
    prompt_pass: generation.PromptPass,
) -> Any:
    """The final hidden states of the label tree's nodes beyond the shared start, `width` columns a row, run against
    the prompt's key-value cache: each node at its position in its own sequence (the context's length plus its
    depth), seeing the prompt's prefix and own tokens (never its padding, nor the greedy tokens decoded after it),
    its ancestors beyond the shared start and itself; a padding column sees itself only (a row with no key would
    give NaN)."""
    import torch

    n = len(groups)
    past = prompt_pass.cache.get_seq_length()
    see = torch.zeros((n, width, past + width), dtype=torch.bool)
    see[:, :, : prompt_pass.mask.shape[1]] = prompt_pass.mask.bool().cpu()[:, None, :]
    pad = backend.pad_id()
    ids: list[list[int]] = []
    positions: list[list[int]] = []
    for b, ((context, _), tree, nodes) in enumerate(zip(groups, trees, beyond, strict=True)):
        column = {node: j for j, node in enumerate(nodes)}
        for j, node in enumerate(nodes):
            see[b, j, [past + column[a] for a in tree.lines[node] if a in column]] = True
        filler = torch.arange(len(nodes), width)
        see[b, filler, past + filler] = True
        ids.append([tree.tokens[node] for node in nodes] + [pad] * (width - len(nodes)))
        positions.append([len(context) + tree.depths[node] for node in nodes] + [0] * (width - len(nodes)))
    dtype = next(backend.model.parameters()).dtype
    device = backend.device
    mask = torch.zeros((n, 1, width, past + width), dtype=dtype, device=device)
    mask[:, 0].masked_fill_(~see.to(device), torch.finfo(dtype).min)
    return backend.body(
        input_ids=torch.tensor(ids, device=device),
        attention_mask=mask,
        position_ids=torch.tensor(positions, device=device),
        **cache_argument(backend.model.base_model, prompt_pass.cache),
        use_cache=True,
    ).last_hidden_state
