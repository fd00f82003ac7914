"""Tiny random models and tokenizers that the runner tests build (transformers and tokenizers are imported
when one is built: a module that uses them skips first where they are not installed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

END_OF_TEXT = "<|endoftext|>"


def byte_level_bpe(corpus: Iterable[str], vocab_size: int) -> Any:
    """A GPT-2-style byte-level BPE trained on `corpus`, its end-of-text token also the padding."""
    import tokenizers
    import transformers

    bpe = tokenizers.ByteLevelBPETokenizer()
    bpe.train_from_iterator(corpus, vocab_size=vocab_size, min_frequency=2, special_tokens=[END_OF_TEXT])
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer, eos_token=END_OF_TEXT, pad_token=END_OF_TEXT
    )


def tiny_llama(tok: Any, *, hidden_size: int, layers: int = 2, max_position_embeddings: int = 2048) -> Any:
    """A random Llama over `tok`'s vocabulary (two heads, untied output weights, no BOS token); the caller
    seeds torch first, so that its weights are the same every run."""
    import transformers

    config = transformers.LlamaConfig(
        vocab_size=len(tok),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=layers,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=False,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
        bos_token_id=None,
    )
    return transformers.LlamaForCausalLM(config)
