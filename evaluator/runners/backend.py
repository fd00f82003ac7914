"""Loading a model and the three computations the benchmarks need, with torch/transformers imported lazily.

- `loglikelihood_batch`: lm-evaluation-harness's `loglikelihood` for several (context, continuations)
  requests, with its token boundary handling (trailing spaces of the context move to the continuation;
  the continuation's tokens are those of `encode(context + continuation)` after `len(encode(context))`),
  but each context runs once for all its options (one packed row per request, the options as a prefix
  tree: tokens that options share at their start run once), the requests' common prefix runs once, and
  the output head runs once per position whose next token is scored.
- `generate`: greedy decoding of a few tokens, batched with left padding after the common prefix.
- `top1`: the arg-max token at the mask (masked LMs) or after the text (causal LMs, after the
  common prefix), the output head applied at that one position only.
- `classify`: a sequence-classification head's outputs for sentence pairs (fine-tuned NLI or STS models).

Text comes back through `decode_complete`: special tokens dropped, and never a broken character at the
end (the U+FFFD a byte-level tokenizer decodes a character's first bytes to, when the budget cuts it).

On CPU in float32, `load_backend(pack_linears=True)` runs the linear layers through oneDNN with
pre-packed weights (`pack_linear_layers`); off by default (`DEFAULT_PACK_LINEARS`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..core.errors import InputError
from ..submissions.format import REVISION_PATTERN

ModelKind = Literal["causal", "masked", "classifier"]
BROKEN_CHARACTER = "\ufffd"  # what a tokenizer decodes a partial UTF-8 sequence to

# whether `load_backend` runs the linear layers through oneDNN with pre-packed weights (CPU, float32) unless told
# otherwise (`neghub run --pack-linears`): off, because on the machine NegHub's figures come from (2-core AMD EPYC,
# Zen 3) it does not pay: no faster end to end (benchmarks/bench_runner_vs_lmeval.py), and it keeps a second copy
# of every linear weight (SmolLM2-135M: about 500 MiB more). It may pay on other processors: measure there.
DEFAULT_PACK_LINEARS = False


@dataclass(frozen=True)
class ModelSource:
    """Where the weights come from: a pinned Hub commit, a local folder, or a local GGUF file."""

    source: Literal["hub", "folder", "gguf"]
    location: str  # repo id, folder path, or the GGUF file's path
    revision: str | None = None

    @property
    def gguf_sha256(self) -> str | None:
        if self.source != "gguf":
            return None
        return file_sha256(Path(self.location))

    @property
    def local_sha256(self) -> str | None:
        """What pins local weights: the GGUF file's sha256, or the folder's (`folder_sha256`)."""
        if self.source == "gguf":
            return self.gguf_sha256
        if self.source == "folder":
            return folder_sha256(Path(self.location))
        return None


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def folder_sha256(folder: Path) -> str:
    """A model folder's pin: the sha256 of its `<sha256>  <path>` lines, as `sha256sum` prints them, for every
    file but hidden ones, sorted by path (relative, with /). By hand, in the folder:
    `find . -type f ! -path '*/.*' -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum`."""
    files = sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    listing = "".join(f"{file_sha256(folder / name)}  {name}\n" for name in files)
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def resolve_source(model: str, revision: str | None) -> ModelSource:
    """Decide what MODEL names; a Hub id needs a pinned 40-hex revision (a branch name can move)."""
    path = Path(model)
    if path.is_file():
        if path.suffix != ".gguf":
            raise InputError.single("MODEL", f"{model}: a file must be a .gguf file")
        return ModelSource("gguf", str(path.resolve()))
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise InputError.single(
                "MODEL", f"{model}: a model folder holds a config.json (transformers' save_pretrained)"
            )
        return ModelSource("folder", str(path.resolve()))
    if re.fullmatch(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*", model):
        if revision is None or not re.fullmatch(REVISION_PATTERN, revision):
            raise InputError.single(
                "--revision", f"a Hub model needs --revision with a 40-hex commit, got {revision!r}"
            )
        return ModelSource("hub", model, revision)
    raise InputError.single("MODEL", f"{model!r} is neither a local folder, a .gguf file nor a Hub repo id")


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


@dataclass
class Backend:
    """A loaded model and its tokenizer, with the computations of the runners."""

    model: Any
    tokenizer: Any
    kind: ModelKind
    device: str
    dtype: str
    info: dict[str, Any] = field(default_factory=dict)
    _prefix_cache: tuple[tuple[int, ...], Any] | None = field(default=None, repr=False)
    _packing_ok: bool | None = field(default=None, repr=False)  # see `_packing_agrees`

    # --- tokenisation -------------------------------------------------------------------------
    def encode(self, text: str, *, special_tokens: bool = False) -> list[int]:
        ids: list[int] = self.tokenizer(text, add_special_tokens=special_tokens)["input_ids"]
        return ids

    def encode_many(self, texts: list[str], *, special_tokens: bool = False) -> list[list[int]]:
        """`encode` for several texts in one call to the tokenizer (a fast tokenizer batches in Rust)."""
        if not texts:
            return []
        ids: list[list[int]] = self.tokenizer(texts, add_special_tokens=special_tokens)["input_ids"]
        return ids

    def token_lengths(self, texts: list[str], *, special_tokens: bool = False) -> list[int]:
        """How many tokens each text encodes to."""
        return [len(ids) for ids in self.encode_many(texts, special_tokens=special_tokens)]

    def decode_complete(self, ids: list[int]) -> str:
        """The text of `ids` without special tokens, and without a broken character at the end: a byte-level
        tokenizer decodes the first bytes of a character cut off by the token budget to U+FFFD, which is
        dropped (the whole characters before it, in the same token too, are kept; lm-eval's text with its
        U+FFFD stripped reads the same)."""
        return str(self.tokenizer.decode(ids, skip_special_tokens=True)).rstrip(BROKEN_CHARACTER)

    def word_after_space(self, word: str) -> list[int]:
        """The tokens of `word` as the tokenizer writes it after a space, inside a sentence: "Ġrun" for a
        byte-level BPE, "▁run" for SentencePiece, "run" for WordPiece (the form a model predicts after "to")."""
        anchor = self.encode("a")
        whole = self.encode("a " + word)
        if whole[: len(anchor)] == anchor:
            return whole[len(anchor) :]
        return self.encode(" " + word)  # a tokenizer that merges across the space: the word with its space

    @property
    def has_chat_template(self) -> bool:
        return bool(getattr(self.tokenizer, "chat_template", None))

    def chat_text(self, content: str) -> str:
        """`content` as one user message through the model's chat template, ready for the assistant's answer."""
        messages = [{"role": "user", "content": content}]
        return str(self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))

    def head_labels(self) -> tuple[str, ...]:
        """A sequence-classification head's labels in output order (its config's id2label); one output is a
        regression head (the empty tuple)."""
        config = self.model.config
        if config.problem_type == "regression" or config.num_labels == 1:
            return ()
        return tuple(str(config.id2label[i]) for i in range(config.num_labels))

    def _head(self) -> Any:
        """The module that maps final hidden states to vocabulary logits."""
        for name in ("cls", "lm_head"):
            head = getattr(self.model, name, None)
            if head is not None:
                return head
        return self.model.get_output_embeddings()

    def _body(self, **kwargs: Any) -> Any:
        return self.model.base_model(**kwargs)

    # --- multiple choice ----------------------------------------------------------------------
    def loglikelihoods(self, context: str, continuations: list[str]) -> list[tuple[float, bool]]:
        """(sum of log-probabilities, is-greedy) of each continuation after the context, as lm-eval computes them."""
        return self.loglikelihood_batch([(context, continuations)])[0]

    def packed_lengths(self, requests: list[tuple[str, list[str]]]) -> list[int]:
        """How many positions each (context, continuations) request fills in its packed row: the context's
        tokens and its continuations' prefix-tree nodes; items ordered by it share batches with items of
        their own length, so the packed rows pad little."""
        lengths = []
        for context, continuations in requests:
            context_ids, conts = self._split_context(context, continuations)
            lengths.append(len(context_ids) + len(OptionTree.build(conts).tokens))
        return lengths

    def _split_context(self, context: str, continuations: list[str]) -> tuple[list[int], list[list[int]]]:
        # lm-eval's token boundaries: trailing spaces of the context move to the continuation, and the
        # continuation's tokens are those of encode(context + continuation) after len(encode(context))
        n_spaces = len(context) - len(context.rstrip())
        if n_spaces:
            continuations = [context[-n_spaces:] + c for c in continuations]
            context = context[:-n_spaces]
        context_ids, *wholes = self.encode_many([context, *(context + c for c in continuations)])
        conts = [whole[len(context_ids) :] for whole in wholes]
        if not context_ids:  # lm-eval scores an empty context after the end-of-text token
            return [self.tokenizer.eos_token_id], conts
        return context_ids, conts

    def loglikelihood_batch(self, requests: list[tuple[str, list[str]]]) -> list[list[tuple[float, bool]]]:
        """`loglikelihoods` for several (context, continuations) requests in one forward pass.

        Each request becomes one packed row (`_packed_states`): its context, then its continuations
        as a prefix tree, so the context runs once for all its options and a token that several
        options share after the same tokens runs once too. The output head runs once per hidden state
        that predicts a scored token. A model that does not honour the packed rows' attention mask and
        position ids (found once, by `_packing_agrees`) gets one plain row per continuation instead
        (`_plain_states`), lm-eval's own layout.
        """
        import torch

        # (context ids, continuation ids) per request: the context's tokens never depend on the continuation
        groups = [self._split_context(context, continuations) for context, continuations in requests]
        if self._packing_ok is None:
            self._packing_ok = self._packing_agrees()
        with torch.inference_mode():
            states, rows = self._packed_states(groups) if self._packing_ok else self._plain_states(groups)
            targets = [t for _, conts in groups for cont in conts for t in cont]
            token_scores = self._score_tokens(states, targets, rows)
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

    def _packed_states(self, groups: list[tuple[list[int], list[list[int]]]]) -> tuple[Any, list[int]]:
        """The final hidden states that predict the continuations' tokens, from one packed row per request,
        and for each continuation token in order the index of the state that predicts it.

        A row is the request's context, then its continuations' tokens (all but each one's last, which
        predicts nothing) as a prefix tree (`OptionTree`): options that begin with the same tokens share
        those positions. A custom attention mask lets each tree node see the context, its ancestors and
        itself, and its position id is the context's length plus its depth, so every token computes what
        it would in its own sequence, with no copy of the context or of a shared option prefix and no
        padding between options. Each predicting state appears once, however many options it scores.
        The requests' longest common token prefix (the instruction, the few-shot demonstrations) runs
        once and its key-value cache is kept across calls."""
        import torch

        prefix = self._common_prefix([ctx for ctx, _ in groups])
        p = len(prefix)
        trees = [OptionTree.build(conts) for _, conts in groups]
        lengths = [len(ctx) - p + len(tree.tokens) for (ctx, _), tree in zip(groups, trees, strict=True)]
        width = max(lengths)
        n = len(groups)
        input_ids = torch.full((n, width), self._pad_id(), dtype=torch.long)
        positions = torch.zeros((n, width), dtype=torch.long)
        # which key each query may see: (row, query, key) triples, gathered in lists and set at once
        see_row: list[int] = []
        see_query: list[int] = []
        see_key: list[int] = []
        pick_row: list[int] = []
        pick_col: list[int] = []
        rows: list[int] = []
        for b, ((ctx, _), tree) in enumerate(zip(groups, trees, strict=True)):
            own = len(ctx) - p  # the context's tokens after the common prefix
            input_ids[b, : lengths[b]] = torch.tensor(ctx[p:] + tree.tokens)
            positions[b, : lengths[b]] = torch.tensor([*range(p, len(ctx)), *(len(ctx) + d for d in tree.depths)])
            for q in range(own):  # the context: causal
                see_row += [b] * (q + 1)
                see_query += [q] * (q + 1)
                see_key += range(q + 1)
            for node, line in enumerate(tree.lines):  # a node: the whole context, its ancestors and itself
                keys = [*range(own), *(own + a for a in line)]
                see_row += [b] * len(keys)
                see_query += [own + node] * len(keys)
                see_key += keys
            for q in range(lengths[b], width):  # padding sees itself only (a row with no key gives NaN)
                see_row.append(b)
                see_query.append(q)
                see_key.append(q)
            # the states kept: the context's last (it predicts every option's first token), then every node
            base = len(pick_row)
            pick_row += [b] * (1 + len(tree.tokens))
            pick_col += range(own - 1, own + len(tree.tokens))
            rows += [base + 1 + node for node in tree.predictors]
        dtype = next(self.model.parameters()).dtype
        mask = torch.full((n, 1, width, p + width), torch.finfo(dtype).min, dtype=dtype)
        mask[:, :, :, :p] = 0  # every position sees the common prefix
        mask[see_row, 0, see_query, [p + k for k in see_key]] = 0
        cache = self._prefix_kv(prefix, n) if p else None
        device = self.device
        hidden = self._body(
            input_ids=input_ids.to(device),
            attention_mask=mask.to(device),
            position_ids=positions.to(device),
            past_key_values=cache,
            use_cache=cache is not None,
        ).last_hidden_state
        return hidden[torch.tensor(pick_row, device=device), torch.tensor(pick_col, device=device)], rows

    def _plain_states(self, groups: list[tuple[list[int], list[list[int]]]]) -> tuple[Any, list[int]]:
        """`_packed_states` the plain way: one right-padded row per (context, continuation), one state per
        continuation token."""
        import torch

        pairs = [(ctx, cont) for ctx, conts in groups for cont in conts]
        width = max(len(ctx) + len(cont) - 1 for ctx, cont in pairs)
        input_ids = torch.full((len(pairs), width), self._pad_id(), dtype=torch.long)
        attention = torch.zeros((len(pairs), width), dtype=torch.long)
        pick_row: list[int] = []
        pick_col: list[int] = []
        for b, (ctx, cont) in enumerate(pairs):
            ids = ctx + cont[:-1]
            input_ids[b, : len(ids)] = torch.tensor(ids)
            attention[b, : len(ids)] = 1
            pick_row += [b] * len(cont)
            pick_col += range(len(ctx) - 1, len(ctx) - 1 + len(cont))
        hidden = self._body(
            input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)
        ).last_hidden_state
        states = hidden[torch.tensor(pick_row, device=self.device), torch.tensor(pick_col, device=self.device)]
        return states, list(range(len(pick_row)))

    def _score_tokens(self, states: Any, targets: list[int], rows: list[int] | None = None) -> list[tuple[float, bool]]:
        """(log-probability, is-arg-max) of each target token from the hidden state that predicts it:
        `states[rows[i]]` for target i (`states[i]` without `rows`). The output head runs once per state,
        however many targets it predicts."""
        import torch

        if rows is None:
            rows = list(range(len(targets)))
        head = self._head()
        device = self.device
        log_totals = []
        greedy_ids = []
        wanted = torch.empty(len(targets), dtype=torch.float32, device=device)
        target = torch.tensor(targets, dtype=torch.long, device=device)
        row = torch.tensor(rows, dtype=torch.long, device=device)
        for chunk in range(0, len(states), 1024):  # bounds the (states x vocabulary) logits in memory
            logits = head(states[chunk : chunk + 1024]).float()
            here = ((row >= chunk) & (row < chunk + len(logits))).nonzero()[:, 0]
            wanted[here] = logits[row[here] - chunk, target[here]]
            best, greedy = logits.max(-1)  # the first arg-max on ties, as argmax (and lm-eval) picks
            # log-sum-exp in place on the fresh logits: two passes over them instead of log_softmax's copy
            log_totals.append(logits.sub_(best[:, None]).exp_().sum(-1).log_() + best)
            greedy_ids.append(greedy)
        log_total = torch.cat(log_totals)[row]
        is_greedy = torch.cat(greedy_ids)[row] == target
        return list(zip((wanted - log_total).tolist(), is_greedy.tolist(), strict=True))

    def _packing_agrees(self) -> bool:
        """Whether packed rows give this model's plain answers: architectures that build their own
        attention bias from positions (ALiBi) or ignore a custom mask would not. Checked once, on a
        tiny request, before the first real one; two of its options share their first tokens, as tree
        nodes."""
        import torch

        options = [" She is not happy", " She is happy", " He is", " run"]
        groups = [self._split_context("Negate the sentence .\nSentence : She is happy\nNegation:", options)]
        targets = [t for cont in groups[0][1] for t in cont]
        with torch.inference_mode():
            plain_states, _ = self._plain_states(groups)
            plain = self._score_tokens(plain_states, targets)
            try:
                packed_states, rows = self._packed_states(groups)
                packed = self._score_tokens(packed_states, targets, rows)
            except Exception:  # a model whose own mask code cannot take a 4D mask (Bloom, Falcon)
                return False
            finally:
                self._prefix_cache = None
        # float rounding differs between the two layouts: a tolerance, wider for 16-bit weights
        absolute, relative = (1e-3, 1e-4) if self.dtype == "float32" else (5e-2, 1e-2)
        return all(abs(a - b) <= absolute + relative * abs(b) for (a, _), (b, _) in zip(packed, plain, strict=True))

    def _pad_id(self) -> int:
        pad: int | None = self.tokenizer.pad_token_id
        return pad if pad is not None else 0

    def _common_prefix(self, sequences: list[list[int]]) -> tuple[int, ...]:
        """The longest common token prefix, leaving each sequence at least one token of its own."""
        shortest = min(len(s) for s in sequences)
        length = 0
        while length < shortest - 1 and all(s[length] == sequences[0][length] for s in sequences):
            length += 1
        return tuple(sequences[0][:length])

    def _prefix_kv(self, prefix: tuple[int, ...], n: int) -> Any:
        """A fresh copy of the prefix's key-value cache for n rows; the prefix itself runs once."""
        import copy

        import torch

        if self._prefix_cache is None or self._prefix_cache[0] != prefix:
            out = self._body(input_ids=torch.tensor([prefix], device=self.device), use_cache=True)
            self._prefix_cache = (prefix, out.past_key_values)
        cache = copy.deepcopy(self._prefix_cache[1])
        cache.batch_repeat_interleave(n)
        return cache

    # --- generation ---------------------------------------------------------------------------
    def generate(self, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
        """Greedy continuations of a batch of prompts, decoded without special tokens.

        The prompts' longest common token prefix (llm-jp-eval's preamble and instruction: three quarters
        of an NLI prompt) runs once and its key-value cache is reused, across batches too; each
        row is then prefix + left padding + its own tokens, with position ids that skip the padding,
        so every row computes what it would alone.
        """
        import torch

        tok = self.tokenizer
        rows = self.encode_many(prompts, special_tokens=special_tokens)
        n = len(rows)
        device = self.device
        with torch.inference_mode():
            ids, mask, positions, cache = self._after_common_prefix(rows)
            generated: list[list[int]] = [[] for _ in range(n)]
            finished = torch.zeros(n, dtype=torch.bool, device=device)
            next_pos = positions[:, -1:] + 1
            for _ in range(max_new_tokens):
                out = self.model(
                    input_ids=ids,
                    attention_mask=mask,
                    position_ids=positions,
                    past_key_values=cache,
                    use_cache=True,
                    logits_to_keep=1,
                )
                cache = out.past_key_values
                token = out.logits[:, -1].argmax(-1)
                for i in range(n):
                    if not finished[i]:
                        generated[i].append(int(token[i]))
                if tok.eos_token_id is not None:
                    finished |= token == tok.eos_token_id
                if bool(finished.all()):
                    break
                ids = token[:, None]
                positions = next_pos
                next_pos = next_pos + 1
                mask = torch.cat([mask, torch.ones((n, 1), dtype=torch.long, device=device)], dim=1)
        return [self.decode_complete(g) for g in generated]

    def _after_common_prefix(self, rows: list[list[int]]) -> tuple[Any, Any, Any, Any]:
        """Inputs for a batch of causal-LM rows whose common token prefix has already run: (input ids,
        attention mask, position ids, key-value cache). Each row is the prefix's cache, left padding,
        then its own tokens, with position ids that skip the padding, so every row computes what it
        would alone; the prefix's cache is kept across batches."""
        import torch

        prefix = self._common_prefix(rows)
        prefix_len = len(prefix)
        n = len(rows)
        device = self.device
        cache = self._prefix_kv(prefix, n) if prefix_len else None
        suffixes = [r[prefix_len:] for r in rows]
        width = max(len(x) for x in suffixes)
        ids = torch.full((n, width), self._pad_id(), dtype=torch.long, device=device)
        mask = torch.zeros((n, prefix_len + width), dtype=torch.long, device=device)
        mask[:, :prefix_len] = 1
        positions = torch.ones((n, width), dtype=torch.long, device=device)
        for i, x in enumerate(suffixes):
            ids[i, width - len(x) :] = torch.tensor(x, device=device)
            mask[i, prefix_len + width - len(x) :] = 1
            positions[i, width - len(x) :] = torch.arange(prefix_len, prefix_len + len(x), device=device)
        return ids, mask, positions, cache

    # --- cloze --------------------------------------------------------------------------------
    def top1(self, texts: list[str]) -> list[int]:
        """Arg-max token id at the mask (masked LM) or after each text (causal LM), for a batch."""
        import torch

        tok = self.tokenizer
        with torch.inference_mode():
            if self.kind == "masked":
                # right padding: BERT-style models number positions from the first token, padding included
                batch = tok(texts, add_special_tokens=True, padding=True, padding_side="right", return_tensors="pt").to(
                    self.device
                )
                hidden = self._body(**batch).last_hidden_state
                rows, cols = (batch["input_ids"] == tok.mask_token_id).nonzero(as_tuple=True)
                if rows.numel() != len(texts):
                    raise ValueError("every text must contain exactly one mask token")
                picked = hidden[rows, cols]
            else:
                # the cloze test's texts of one (name, profession) share "NAME is a PROF who likes to": it runs once
                ids, mask, positions, cache = self._after_common_prefix(self.encode_many(texts))
                hidden = self._body(
                    input_ids=ids, attention_mask=mask, position_ids=positions, past_key_values=cache, use_cache=True
                ).last_hidden_state
                picked = hidden[:, -1]  # left padding: the last position is every row's last real token
            return [int(i) for i in self._head()(picked).argmax(-1)]

    # --- fine-tuned classifiers ---------------------------------------------------------------
    def classify(self, pairs: list[tuple[str, str]]) -> list[list[float]]:
        """The head's outputs (logits, or the regression value) for each sentence pair, as the model was
        fine-tuned on them: the tokenizer's pair encoding, right padding, truncated to the model's length."""
        import torch

        first, second = [a for a, _ in pairs], [b for _, b in pairs]
        with torch.inference_mode():
            batch = self.tokenizer(
                first, second, padding=True, padding_side="right", truncation=True, return_tensors="pt"
            ).to(self.device)
            logits = self.model(**batch).logits.float()
        return [[float(x) for x in row] for row in logits.tolist()]


def load_backend(
    source: ModelSource, *, device: str = "cpu", dtype: str = "float32", pack_linears: bool = DEFAULT_PACK_LINEARS
) -> Backend:
    """Load a causal or masked LM or a sequence classifier (trust_remote_code off; safetensors only for Hub
    models); with `pack_linears`, on CPU in float32, its linear layers run through oneDNN with pre-packed weights
    (`pack_linear_layers`)."""
    import torch
    import transformers
    from transformers import (
        AutoConfig,
        AutoModelForCausalLM,
        AutoModelForMaskedLM,
        AutoModelForSequenceClassification,
        AutoTokenizer,
    )

    kwargs: dict[str, Any] = {"trust_remote_code": False}
    location = source.location
    if source.source == "hub":
        kwargs.update(revision=source.revision, use_safetensors=True)
    if source.source == "gguf":
        kwargs["gguf_file"] = Path(location).name
        location = str(Path(location).parent)
    try:
        config = AutoConfig.from_pretrained(location, **kwargs)
    except (ValueError, OSError) as error:  # not a model transformers knows: one line, not its traceback
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InputError.single("MODEL", f"transformers cannot read the model's configuration: {first}") from None
    architectures = config.architectures or []
    masked = any(arch.endswith("ForMaskedLM") for arch in architectures)
    classifier = any(arch.endswith("ForSequenceClassification") for arch in architectures)
    kind: ModelKind = "classifier" if classifier else "masked" if masked else "causal"
    loader = {
        "causal": AutoModelForCausalLM,
        "masked": AutoModelForMaskedLM,
        "classifier": AutoModelForSequenceClassification,
    }[kind]
    torch_dtype = getattr(torch, dtype)
    model: Any = loader.from_pretrained(location, dtype=torch_dtype, **kwargs)
    model = model.to(device).eval()
    tokenizer = AutoTokenizer.from_pretrained(location, **kwargs)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token if tokenizer.eos_token is not None else tokenizer.unk_token
    tokenizer.padding_side = "left"
    packed = pack_linear_layers(model) if pack_linears and device == "cpu" and dtype == "float32" else 0
    info = {
        "model_source": source.source,
        "model_location": source.location if source.source == "hub" else Path(source.location).name,
        "model_revision": source.revision,
        "model_class": type(model).__name__,
        "dtype": dtype,
        "device": device,
        "torch_version": torch.__version__,
        "transformers_version": transformers.__version__,
        "trust_remote_code": False,
        "cpu_matmul": f"oneDNN, {packed} linear layers pre-packed" if packed else "torch default",
    }
    return Backend(model=model, tokenizer=tokenizer, kind=kind, device=device, dtype=dtype, info=info)


def pack_linear_layers(model: Any) -> int:
    """On CPU in float32, run every linear layer through oneDNN with its weight packed once, in place.

    oneDNN computes the same float32 products as torch's default CPU matmul (MKL's sgemm; in another
    order: results differ by rounding only), faster for some shapes on some processors, no faster end to
    end on others (2-core AMD EPYC, Zen 3: see `DEFAULT_PACK_LINEARS`). The packed weight is a second
    copy, so memory for the linear weights doubles (4 bytes per parameter more in float32). Nothing is
    packed (returns 0) where the oneDNN operators are missing or disagree with the plain layer on a
    probe; else returns how many.
    """
    import torch

    mkldnn_ops = getattr(torch.ops, "mkldnn", None)
    onednn_available = getattr(torch.backends.mkldnn, "is_available", lambda: False)
    if mkldnn_ops is None or not onednn_available():
        return 0
    try:
        reorder, linear_op = mkldnn_ops._reorder_linear_weight, mkldnn_ops._linear_pointwise
    except (AttributeError, RuntimeError):
        return 0
    layers = [m for m in model.modules() if type(m) is torch.nn.Linear and m.weight.dtype == torch.float32]
    if not layers:
        return 0
    with torch.inference_mode():
        probe_layer = layers[0]
        probe = torch.randn(3, probe_layer.in_features, generator=torch.Generator().manual_seed(0))
        try:
            packed = reorder(probe_layer.weight, 1024)
            got = linear_op(probe, packed, probe_layer.bias, "none", [], "")
        except RuntimeError:
            return 0
        if not torch.allclose(got, probe_layer(probe), rtol=1e-4, atol=1e-5):
            return 0
        for layer in layers:
            weight = reorder(layer.weight.detach(), 1024)  # 1024: a typical number of rows per batch

            def forward(x: Any, layer: Any = layer, weight: Any = weight) -> Any:
                return linear_op(x, weight, layer.bias, "none", [], "")

            vars(layer)["forward"] = forward  # on this instance only: nn.Module.__call__ finds it first
    return len(layers)
