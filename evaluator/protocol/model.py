"""What a plan needs from a loaded model: the computations a benchmark's runs call, as a `typing.Protocol`.

The runners' backend (runners/backend.py, torch imported when a model loads) is the one implementation;
families and benchmarks type their runs against `LoadedModel`, so they never import the runners.
"""

from __future__ import annotations

from typing import Any, Protocol


class LoadedModel(Protocol):
    """A model and its tokenizer, loaded, with the computations of the runs."""

    @property
    def tokenizer(self) -> Any:
        """The model's tokenizer (its special tokens: `mask_token`, `unk_token_id`)."""
        ...

    def token_lengths(self, texts: list[str], *, special_tokens: bool = False) -> list[int]:
        """How many tokens each text encodes to."""
        ...

    def packed_lengths(self, requests: list[tuple[str, list[str]]]) -> list[int]:
        """Each log-likelihood request's length as packed: its context and its continuations' prefix tree."""
        ...

    def word_after_space(self, word: str) -> list[int]:
        """The tokens of `word` as the tokenizer writes it after a space, inside a sentence."""
        ...

    def decode_complete(self, ids: list[int]) -> str:
        """The text of `ids` without special tokens and without a broken character at the end."""
        ...

    def chat_text(self, content: str) -> str:
        """`content` as one user message through the model's chat template, ready for the assistant's answer."""
        ...

    def generate(self, prompts: list[str], max_new_tokens: int, *, special_tokens: bool) -> list[str]:
        """Greedy text after each prompt, at most `max_new_tokens` tokens."""
        ...

    def loglikelihood_batch(self, requests: list[tuple[str, list[str]]]) -> list[list[tuple[float, bool]]]:
        """(log-likelihood, greedy) of each continuation after its context (lm-evaluation-harness's)."""
        ...

    def top1(self, texts: list[str]) -> list[int]:
        """The arg-max token at the mask (masked LMs) or after the text (causal LMs)."""
        ...

    def classify(self, pairs: list[tuple[str, str]]) -> list[list[float]]:
        """A sequence-classification head's outputs for each sentence pair, in its label order."""
        ...
