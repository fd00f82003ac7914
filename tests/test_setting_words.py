"""runners/setting.py's words for a run's recorded numeric setting, and what tells two runs' settings apart: the
functions the leaderboard shows (torch-free: the import contracts keep them so)."""

from __future__ import annotations

from neghub.evaluator.runners.setting import differences_between, setting_in_words

GPU = {"device": "cuda", "dtype": "bfloat16", "attn_implementation": "sdpa", "batch_size": 64, "batch_tokens": 32768}


def test_the_setting_in_words_names_what_is_recorded() -> None:
    assert setting_in_words(GPU) == "bfloat16 on cuda, sdpa attention, batches of 64 items (32768 tokens at most)"
    assert setting_in_words({"device": "cpu", "dtype": "float32"}) == "float32 on cpu"
    assert setting_in_words({"dtype": "float32", "batch_size": 8}) == "float32, batches of 8 items"
    assert setting_in_words({}) == setting_in_words(None) == "setting not recorded"
    # a recorded command line that names no --batch-size ran with the default
    assert setting_in_words({"command": "neghub run MODEL -o out"}) == "batches of 8 items"


def test_two_bfloat16_runs_differing_in_attention_and_batches_are_told_apart() -> None:
    eager = {**GPU, "attn_implementation": "eager", "batch_size": 8}
    assert differences_between(GPU, eager) == ["attention: sdpa, eager", "batch size: 64, 8"]
    assert differences_between(GPU, {**GPU, "device_name": "another card", "torch_version": "0"}) == []


def test_in_float32_only_the_device_and_dtype_tell_settings_apart() -> None:
    cpu = {"device": "cpu", "dtype": "float32", "attn_implementation": "sdpa", "batch_size": 8}
    assert differences_between(cpu, {**cpu, "attn_implementation": "eager", "batch_size": 1}) == []
    assert differences_between(cpu, {**cpu, "device": "cuda"}) == ["device: cpu, cuda"]
    assert differences_between(cpu, {**cpu, "dtype": "bfloat16"}) == ["dtype: float32, bfloat16"]
    assert differences_between({"dtype": "bfloat16"}, {"dtype": "bfloat16", "attn_implementation": "eager"}) == [
        "attention: none, eager"  # recorded by one run only: a difference
    ]
