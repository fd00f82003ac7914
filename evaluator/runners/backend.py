"""Loading a model and the three computations the benchmarks need, with torch/transformers imported lazily.

- `loglikelihoods`: lm-evaluation-harness's `loglikelihood` for one context and several continuations,
  with its token boundary handling (trailing spaces of the context move to the continuation; the
  continuation's tokens are those of `encode(context + continuation)` after `len(encode(context))`),
  but the shared context runs once and its key-value cache is reused by every option, and the output
  head is applied only at the positions whose next token is scored.
- `generate`: greedy decoding of a few tokens, batched with left padding.
- `top1`: the arg-max token at the mask (masked LMs) or after the text (causal LMs), the output head
  applied at that one position only.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from evaluator.errors import InputError
from evaluator.submission import REVISION_PATTERN

ModelKind = Literal["causal", "masked"]


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
        digest = hashlib.sha256()
        with open(self.location, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()


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

    # --- tokenisation -------------------------------------------------------------------------
    def encode(self, text: str, *, special_tokens: bool = False) -> list[int]:
        ids: list[int] = self.tokenizer(text, add_special_tokens=special_tokens)["input_ids"]
        return ids

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
        import torch

        n_spaces = len(context) - len(context.rstrip())
        pairs: list[tuple[list[int], list[int]]] = []
        for continuation in continuations:
            ctx, cont = context, continuation
            if n_spaces:
                cont = ctx[-n_spaces:] + cont
                ctx = ctx[:-n_spaces]
            context_ids = self.encode(ctx)
            whole = self.encode(ctx + cont)
            pairs.append((context_ids, whole[len(context_ids) :]))
        context_ids = pairs[0][0]
        if any(c != context_ids for c, _ in pairs):  # contexts differ only with a trailing space: no sharing
            return [self._loglikelihood_shared(c, [k])[0] for c, k in pairs]
        if not context_ids:  # lm-eval scores an empty context after the end-of-text token
            context_ids = [self.tokenizer.eos_token_id]
        with torch.inference_mode():
            return self._loglikelihood_shared(context_ids, [k for _, k in pairs])

    def _loglikelihood_shared(self, context_ids: list[int], conts: list[list[int]]) -> list[tuple[float, bool]]:
        import torch

        head = self._head()
        device = self.device
        with torch.inference_mode():
            ctx = torch.tensor([context_ids], device=device)
            out = self._body(input_ids=ctx, use_cache=True)
            first_logprobs = torch.log_softmax(head(out.last_hidden_state[:, -1]).float(), dim=-1)[0]
            n = len(conts)
            width = max(len(c) for c in conts)
            pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
            cont_ids = torch.full((n, width), pad, dtype=torch.long, device=device)
            for i, c in enumerate(conts):
                cont_ids[i, : len(c)] = torch.tensor(c, device=device)
            cache = out.past_key_values
            cache.batch_repeat_interleave(n)
            # Right padding after real tokens: a causal mask keeps every real token from seeing a pad.
            attention = torch.ones((n, len(context_ids) + width), dtype=torch.long, device=device)
            results: list[tuple[float, bool]] = []
            token_logprobs: list[float] = []
            token_greedy: list[bool] = []
            if width > 1:
                hidden = self._body(
                    input_ids=cont_ids[:, :-1], past_key_values=cache, attention_mask=attention[:, :-1], use_cache=True
                ).last_hidden_state
                # the head once, on the real (non-padding) positions of every option together
                rows = torch.cat([hidden[i, : len(c) - 1] for i, c in enumerate(conts)])
                logprobs = torch.log_softmax(head(rows).float(), dim=-1)
                targets = torch.tensor([t for c in conts for t in c[1:]], dtype=torch.long, device=device)
                token_logprobs = logprobs.gather(1, targets[:, None])[:, 0].tolist()
                token_greedy = (logprobs.argmax(-1) == targets).tolist()
            start = 0
            for c in conts:
                end = start + len(c) - 1
                total = float(first_logprobs[c[0]]) + sum(token_logprobs[start:end])
                greedy = int(first_logprobs.argmax()) == c[0] and all(token_greedy[start:end])
                results.append((total, greedy))
                start = end
            return results

    # --- generation ---------------------------------------------------------------------------
    def generate(self, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
        """Greedy continuations of a batch of prompts, decoded without special tokens.

        The prompts' longest common token prefix (llm-jp-eval's preamble and instruction: three quarters
        of a JNLI-Neg prompt) runs once and its key-value cache is reused, across batches too; each
        row is then prefix + left padding + its own tokens, with position ids that skip the padding,
        so every row computes what it would alone.
        """
        import copy

        import torch

        tok = self.tokenizer
        rows = [self.encode(p, special_tokens=special_tokens) for p in prompts]
        shortest = min(len(r) for r in rows)
        prefix_len = 0
        while prefix_len < shortest - 1 and all(r[prefix_len] == rows[0][prefix_len] for r in rows):
            prefix_len += 1
        prefix = tuple(rows[0][:prefix_len])
        n = len(rows)
        device = self.device
        with torch.inference_mode():
            cache = None
            if prefix_len:
                if self._prefix_cache is None or self._prefix_cache[0] != prefix:
                    out = self.model(input_ids=torch.tensor([prefix], device=device), use_cache=True, logits_to_keep=1)
                    self._prefix_cache = (prefix, out.past_key_values)
                cache = copy.deepcopy(self._prefix_cache[1])
                cache.batch_repeat_interleave(n)
            suffixes = [r[prefix_len:] for r in rows]
            width = max(len(x) for x in suffixes)
            pad = tok.pad_token_id if tok.pad_token_id is not None else 0
            ids = torch.full((n, width), pad, dtype=torch.long, device=device)
            mask = torch.zeros((n, prefix_len + width), dtype=torch.long, device=device)
            mask[:, :prefix_len] = 1
            positions = torch.ones((n, width), dtype=torch.long, device=device)
            for i, x in enumerate(suffixes):
                ids[i, width - len(x) :] = torch.tensor(x, device=device)
                mask[i, prefix_len + width - len(x) :] = 1
                positions[i, width - len(x) :] = torch.arange(prefix_len, prefix_len + len(x), device=device)
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
        return [str(tok.decode(g, skip_special_tokens=True)) for g in generated]

    # --- cloze --------------------------------------------------------------------------------
    def top1(self, texts: list[str]) -> list[int]:
        """Arg-max token id at the mask (masked LM) or after each text (causal LM), for a batch."""
        import torch

        tok = self.tokenizer
        special = self.kind == "masked"
        batch = tok(texts, add_special_tokens=special, padding=True, return_tensors="pt").to(self.device)
        with torch.inference_mode():
            hidden = self._body(**batch).last_hidden_state
            if self.kind == "masked":
                rows, cols = (batch["input_ids"] == tok.mask_token_id).nonzero(as_tuple=True)
                if rows.numel() != len(texts):
                    raise ValueError("every text must contain exactly one mask token")
                picked = hidden[rows, cols]
            else:  # left padding: the last position is every row's last real token
                picked = hidden[:, -1]
            return [int(i) for i in self._head()(picked).argmax(-1)]


def load_backend(source: ModelSource, *, device: str = "cpu", dtype: str = "float32") -> Backend:
    """Load a causal or masked LM (trust_remote_code off; safetensors only for Hub models)."""
    import torch
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    kwargs: dict[str, Any] = {"trust_remote_code": False}
    location = source.location
    if source.source == "hub":
        kwargs.update(revision=source.revision, use_safetensors=True)
    if source.source == "gguf":
        kwargs["gguf_file"] = Path(location).name
        location = str(Path(location).parent)
    config = AutoConfig.from_pretrained(location, **kwargs)
    masked = any(arch.endswith("ForMaskedLM") for arch in (config.architectures or []))
    loader = AutoModelForMaskedLM if masked else AutoModelForCausalLM
    torch_dtype = getattr(torch, dtype)
    model: Any = loader.from_pretrained(location, dtype=torch_dtype, **kwargs)
    model = model.to(device).eval()
    tokenizer = AutoTokenizer.from_pretrained(location, **kwargs)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token if tokenizer.eos_token is not None else tokenizer.unk_token
    tokenizer.padding_side = "left"
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
    }
    return Backend(
        model=model, tokenizer=tokenizer, kind="masked" if masked else "causal", device=device, dtype=dtype, info=info
    )
