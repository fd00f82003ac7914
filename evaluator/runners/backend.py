"""Loading a model and the three computations the benchmarks need, with torch/transformers imported lazily.

- `loglikelihood_batch`: lm-evaluation-harness's `loglikelihood` for several (context, continuations)
  requests, with its token boundary handling (trailing spaces of the context move to the continuation;
  the continuation's tokens are those of `encode(context + continuation)` after `len(encode(context))`),
  but each context runs once for all its options (one packed row per request), the requests' common
  prefix runs once, and the output head is applied only at the positions whose next token is scored.
- `generate`: greedy decoding of a few tokens, batched with left padding after the common prefix.
- `top1`: the arg-max token at the mask (masked LMs) or after the text (causal LMs, after the
  common prefix), the output head applied at that one position only.
- `classify`: a sequence-classification head's outputs for sentence pairs (fine-tuned NLI or STS models).

Text comes back through `decode_complete`: special tokens dropped, and never a broken character at the
end (the U+FFFD a byte-level tokenizer decodes a character's first bytes to, when the budget cuts it).

On CPU in float32, `load_backend` also runs the linear layers through oneDNN (`pack_linear_layers`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.submissions.format import REVISION_PATTERN

ModelKind = Literal["causal", "masked", "classifier"]
BROKEN_CHARACTER = "\ufffd"  # what a tokenizer decodes a partial UTF-8 sequence to


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
        return ModelSource("folder", str(path.resolve()))
    if re.fullmatch(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*", model):
        if revision is None or not re.fullmatch(REVISION_PATTERN, revision):
            raise InputError.single(
                "--revision", f"a Hub model needs --revision with a 40-hex commit, got {revision!r}"
            )
        return ModelSource("hub", model, revision)
    raise InputError.single("MODEL", f"{model!r} is neither a local folder, a .gguf file nor a Hub repo id")


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

        Each request becomes one packed row (`_packed_states`): its context, then every continuation
        but its last token, side by side, so the context runs once for all its options. The output
        head runs only on the positions whose next token is scored. A model that does not honour the
        packed rows' attention mask and position ids (found once, by `_packing_agrees`) gets one
        plain row per continuation instead (`_plain_states`), lm-eval's own layout.
        """
        import torch

        # (context ids, continuation ids) per request: the context's tokens never depend on the continuation
        groups = [self._split_context(context, continuations) for context, continuations in requests]
        if self._packing_ok is None:
            self._packing_ok = self._packing_agrees()
        with torch.inference_mode():
            states = self._packed_states(groups) if self._packing_ok else self._plain_states(groups)
            token_scores = self._score_tokens(states, [t for _, conts in groups for cont in conts for t in cont])
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

    def _packed_states(self, groups: list[tuple[list[int], list[list[int]]]]) -> Any:
        """The final hidden states that predict each continuation token, in order, from packed rows.

        A custom attention mask lets each continuation see the context and itself only, and position
        ids restart after the context for each, so every token computes what it would in its own
        sequence, with no padding between options and no copy of the context per option. The
        requests' longest common token prefix (the instruction, the few-shot demonstrations) runs once
        and its key-value cache is kept across calls."""
        import torch

        prefix = self._common_prefix([ctx for ctx, _ in groups])
        p = len(prefix)
        rows = []
        for ctx, conts in groups:
            ids = ctx[p:]
            segment = [0] * len(ids)
            position = list(range(p, len(ctx)))
            for i, cont in enumerate(conts, start=1):
                ids += cont[:-1]
                segment += [i] * (len(cont) - 1)
                position += range(len(ctx), len(ctx) + len(cont) - 1)
            rows.append((ids, segment, position))
        width = max(len(ids) for ids, _, _ in rows)
        n = len(rows)
        device = self.device
        input_ids = torch.full((n, width), self._pad_id(), dtype=torch.long)
        segments = torch.full((n, width), -1, dtype=torch.long)  # -1: padding
        positions = torch.zeros((n, width), dtype=torch.long)
        for b, (ids, segment, position) in enumerate(rows):
            input_ids[b, : len(ids)] = torch.tensor(ids)
            segments[b, : len(ids)] = torch.tensor(segment)
            positions[b, : len(ids)] = torch.tensor(position)
        # query q sees key k (k <= q) when k is context or in q's own continuation; padding sees itself
        causal = torch.ones((width, width), dtype=torch.bool).tril()
        seg_q, seg_k = segments[:, :, None], segments[:, None, :]
        allowed = causal & ((seg_k == 0) | (seg_k == seg_q)) & (seg_k >= 0)
        allowed |= torch.eye(width, dtype=torch.bool) & (seg_q < 0)
        dtype = next(self.model.parameters()).dtype
        mask = torch.zeros((n, 1, width, p + width), dtype=dtype)
        mask[:, 0, :, p:].masked_fill_(~allowed, torch.finfo(dtype).min)
        # which hidden states predict which tokens: the context's last for every continuation's first
        # token, then each continuation token for the next
        pick_row: list[int] = []
        pick_col: list[int] = []
        for b, (ctx, conts) in enumerate(groups):
            last_context = start = len(ctx) - p - 1
            for cont in conts:
                if not cont:  # nothing to score (an empty continuation has log-likelihood 0)
                    continue
                pick_row += [b] * len(cont)
                pick_col += [last_context, *range(start + 1, start + len(cont))]
                start += len(cont) - 1
        cache = self._prefix_kv(prefix, n) if p else None
        hidden = self._body(
            input_ids=input_ids.to(device),
            attention_mask=mask.to(device),
            position_ids=positions.to(device),
            past_key_values=cache,
            use_cache=cache is not None,
        ).last_hidden_state
        return hidden[torch.tensor(pick_row, device=device), torch.tensor(pick_col, device=device)]

    def _plain_states(self, groups: list[tuple[list[int], list[list[int]]]]) -> Any:
        """`_packed_states` the plain way: one right-padded row per (context, continuation)."""
        import torch

        rows = [(ctx, cont) for ctx, conts in groups for cont in conts]
        width = max(len(ctx) + len(cont) - 1 for ctx, cont in rows)
        input_ids = torch.full((len(rows), width), self._pad_id(), dtype=torch.long)
        attention = torch.zeros((len(rows), width), dtype=torch.long)
        pick_row: list[int] = []
        pick_col: list[int] = []
        for b, (ctx, cont) in enumerate(rows):
            ids = ctx + cont[:-1]
            input_ids[b, : len(ids)] = torch.tensor(ids)
            attention[b, : len(ids)] = 1
            pick_row += [b] * len(cont)
            pick_col += range(len(ctx) - 1, len(ctx) - 1 + len(cont))
        hidden = self._body(
            input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)
        ).last_hidden_state
        return hidden[torch.tensor(pick_row, device=self.device), torch.tensor(pick_col, device=self.device)]

    def _score_tokens(self, states: Any, targets: list[int]) -> list[tuple[float, bool]]:
        """(log-probability, is-arg-max) of each target token from the hidden state that predicts it."""
        import torch

        target = torch.tensor(targets, device=self.device)
        head = self._head()
        scores: list[tuple[float, bool]] = []
        for chunk in range(0, len(targets), 1024):  # bounds the (rows x vocabulary) logits in memory
            logits = head(states[chunk : chunk + 1024]).float()
            wanted = target[chunk : chunk + 1024]
            wanted_logit = logits.gather(1, wanted[:, None])[:, 0]
            best, greedy = logits.max(-1)  # the first arg-max on ties, as argmax (and lm-eval) picks
            # log-sum-exp in place on the fresh logits: two passes over them instead of log_softmax's copy
            log_total = logits.sub_(best[:, None]).exp_().sum(-1).log_() + best
            scores += zip((wanted_logit - log_total).tolist(), (greedy == wanted).tolist(), strict=True)
        return scores

    def _packing_agrees(self) -> bool:
        """Whether packed rows give this model's plain answers: architectures that build their own
        attention bias from positions (ALiBi) or ignore a custom mask would not. Checked once, on a
        tiny request, before the first real one."""
        import torch

        groups = [
            self._split_context(
                "Negate the sentence .\nSentence : She is happy\nNegation:", [" She is not happy", " He is", " run"]
            )
        ]
        targets = [t for cont in groups[0][1] for t in cont]
        with torch.inference_mode():
            plain = self._score_tokens(self._plain_states(groups), targets)
            try:
                packed = self._score_tokens(self._packed_states(groups), targets)
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
    source: ModelSource, *, device: str = "cpu", dtype: str = "float32", pack_linears: bool = True
) -> Backend:
    """Load a causal or masked LM or a sequence classifier (trust_remote_code off; safetensors only for Hub
    models); on CPU in float32 its linear layers run through oneDNN (`pack_linear_layers`) unless `pack_linears`
    is off."""
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
    config = AutoConfig.from_pretrained(location, **kwargs)
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

    torch's default CPU matmul (MKL's sgemm) runs two to three times slower than oneDNN on some
    processors (AMD's among them) for the shapes of small language models; oneDNN computes the same
    float32 products (in another order: results differ by rounding only). The packed weight is a
    second copy, so memory for the linear weights doubles. Nothing is packed (returns 0) where the
    oneDNN operators are missing or disagree with the plain layer on a probe; else returns how many.
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
