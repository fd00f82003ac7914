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


def bert_special_tokens(tok: Any, **more: str) -> Any:
    """`tok` (a `tokenizers.Tokenizer`) as transformers' fast tokenizer with BERT's special tokens ([UNK], [PAD],
    [CLS], [SEP], [MASK]) and `more`."""
    import transformers

    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        **more,
    )


def tiny_encoder_config(config_class: Any, tok: Any, *, max_position_embeddings: int, **head: Any) -> Any:
    """A BERT-like encoder's configuration (BertConfig, RobertaConfig) with two layers of width 16 over `tok`'s
    vocabulary; `head` adds a classifier's labels or a regression head."""
    return config_class(
        vocab_size=len(tok),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        max_position_embeddings=max_position_embeddings,
        pad_token_id=tok.pad_token_id,
        **head,
    )


def tiny_llama_gguf(path: Any, *, hidden_size: int = 32, layers: int = 2) -> Any:
    """A random Llama and its byte-level BPE written as a GGUF file (float32 tensors, gguf's tensor names; the
    query and key weights are stored as they are, not in llama.cpp's rotary order: the loaded model is another
    random Llama, which is all a test of loading needs). Returns the tokenizer."""
    import json

    import gguf
    import torch

    corpus = ["Negate the sentence . She is happy . He is not happy . run runs running ran"] * 20
    tok = byte_level_bpe(corpus, vocab_size=300)
    torch.manual_seed(0)
    model = tiny_llama(tok, hidden_size=hidden_size, layers=layers)
    config = model.config
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("tiny")
    writer.add_context_length(config.max_position_embeddings)
    writer.add_embedding_length(config.hidden_size)
    writer.add_block_count(config.num_hidden_layers)
    writer.add_feed_forward_length(config.intermediate_size)
    writer.add_head_count(config.num_attention_heads)
    writer.add_head_count_kv(config.num_key_value_heads)
    writer.add_layer_norm_rms_eps(config.rms_norm_eps)
    writer.add_vocab_size(config.vocab_size)
    spec = json.loads(tok.backend_tokenizer.to_str())
    tokens = [token for token, _ in sorted(spec["model"]["vocab"].items(), key=lambda item: item[1])]
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types([3 if token == END_OF_TEXT else 1 for token in tokens])  # 3: a control token
    writer.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in spec["model"]["merges"]])
    writer.add_eos_token_id(tok.eos_token_id)
    writer.add_bos_token_id(tok.eos_token_id)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, config.num_hidden_layers)
    for name, tensor in model.state_dict().items():
        module, _, kind = name.rpartition(".")
        writer.add_tensor(f"{names.get_name(module)}.{kind}", tensor.float().numpy())
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return tok
