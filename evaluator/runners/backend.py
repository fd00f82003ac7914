"""A loaded model and the computations the benchmarks need, with torch imported lazily.

- `loglikelihood_batch`: lm-evaluation-harness's `loglikelihood`, packed (loglikelihood.py);
- `generate`: greedy decoding of a few tokens, batched with left padding after the common prefix (generation.py);
- `generate_and_score`: both at once, where a log-likelihood request's context is a greedy prompt (fusion.py);
- `top1`: the arg-max token at the mask (masked LMs) or after the text (causal LMs, after the
  common prefix), the output head applied at that one position only;
- `classify`: a sequence-classification head's outputs for sentence pairs (fine-tuned NLI or STS models).

Loading is loading.py (`load_backend`). Text comes back through `decode_complete`: special tokens dropped,
and never a broken character at the end (the U+FFFD a byte-level tokenizer decodes a character's first bytes
to, when the budget cuts it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from . import fusion, generation, loglikelihood
from .kv_cache import returned_cache

ModelKind = Literal["causal", "masked", "classifier"]
BROKEN_CHARACTER = "\ufffd"  # what a tokenizer decodes a partial UTF-8 sequence to


@dataclass
class Backend:
    """A loaded model and its tokenizer, with the computations of the runners."""

    model: Any
    tokenizer: Any
    kind: ModelKind
    device: str
    dtype: str
    attn_implementation: str = "default"  # as the loaded model runs it (recorded in the setting)
    info: dict[str, Any] = field(default_factory=dict)
    prefix_cache: tuple[tuple[int, ...], Any] | None = field(default=None, repr=False)
    packing_ok: bool | None = field(default=None, repr=False)  # `loglikelihood.packing_agrees`, found once
    # each log-likelihood request's tokens (`loglikelihood.split_context`), kept for the run
    split_cache: dict[tuple[str, tuple[str, ...]], tuple[list[int], list[list[int]]]] = field(
        default_factory=dict, repr=False
    )

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

    # --- the model's parts, shared by the computations ----------------------------------------
    def head(self) -> Any:
        """The module that maps final hidden states to vocabulary logits."""
        for name in ("cls", "lm_head"):
            head = getattr(self.model, name, None)
            if head is not None:
                return head
        return self.model.get_output_embeddings()

    def body(self, **kwargs: Any) -> Any:
        return self.model.base_model(**kwargs)

    def pad_id(self) -> int:
        pad: int | None = self.tokenizer.pad_token_id
        return pad if pad is not None else 0

    def common_prefix(self, sequences: list[list[int]]) -> tuple[int, ...]:
        """The longest common token prefix, leaving each sequence at least one token of its own."""
        shortest = min(len(s) for s in sequences)
        length = 0
        while length < shortest - 1 and all(s[length] == sequences[0][length] for s in sequences):
            length += 1
        return tuple(sequences[0][:length])

    def prefix_kv(self, prefix: tuple[int, ...], n: int) -> Any:
        """A fresh copy of the prefix's key-value cache for n rows; the prefix itself runs once."""
        import copy

        import torch

        if self.prefix_cache is None or self.prefix_cache[0] != prefix:
            out = self.body(input_ids=torch.tensor([prefix], device=self.device), use_cache=True)
            self.prefix_cache = (prefix, returned_cache(out))
        cache = copy.deepcopy(self.prefix_cache[1])
        cache.batch_repeat_interleave(n)
        return cache

    # --- multiple choice ----------------------------------------------------------------------
    def loglikelihoods(self, context: str, continuations: list[str]) -> list[tuple[float, bool]]:
        """(sum of log-probabilities, is-greedy) of each continuation after the context, as lm-eval computes them."""
        return self.loglikelihood_batch([(context, continuations)])[0]

    def loglikelihood_batch(self, requests: list[tuple[str, list[str]]]) -> list[list[tuple[float, bool]]]:
        """`loglikelihoods` for several (context, continuations) requests in one forward pass (loglikelihood.py)."""
        return loglikelihood.loglikelihood_batch(self, requests)

    def packed_lengths(self, requests: list[tuple[str, list[str]]]) -> list[int]:
        """How many positions each request fills in its packed row (`loglikelihood.packed_lengths`)."""
        return loglikelihood.packed_lengths(self, requests)

    # --- generation ---------------------------------------------------------------------------
    def generate(self, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
        """Greedy continuations of a batch of prompts, decoded without special tokens (generation.py)."""
        return generation.generate(self, prompts, max_new_tokens, special_tokens=special_tokens)

    def generate_and_score(
        self,
        prompts: list[str],
        max_new_tokens: int,
        *,
        special_tokens: bool,
        requests: list[tuple[str, list[str]]],
    ) -> tuple[list[str], list[list[tuple[float, bool]]] | None]:
        """`generate`, and `loglikelihood_batch` of `requests` (one per prompt) on the same prompt pass, or None
        for the second where the batch's tokens do not allow it (fusion.py)."""
        return fusion.generate_and_score(
            self, prompts, max_new_tokens, special_tokens=special_tokens, requests=requests
        )

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
                hidden = self.body(**batch).last_hidden_state
                rows, cols = (batch["input_ids"] == tok.mask_token_id).nonzero(as_tuple=True)
                if rows.numel() != len(texts):
                    raise ValueError("every text must contain exactly one mask token")
                picked = hidden[rows, cols]
            else:
                picked = generation.causal_top1(self, texts)
            return [int(i) for i in self.head()(picked).argmax(-1).tolist()]

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
