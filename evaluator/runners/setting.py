"""A run's numeric setting: what `neghub run` computed on and in, recorded in the submission's provenance (flat
keys: device, device_name, dtype, attn_implementation, batch_size, batch_tokens, torch_version,
transformers_version, cuda_version), and what `neghub reproduce` compares.

The device type and the dtype define the setting. In a 16-bit dtype the attention implementation and the batches
must match too: there they move log-likelihoods by far more than the tolerance of runners/reproduce.py and change
answers; in float32 they move them far less, and need not (README's "Reproducing a submission" gives the figures
scripts/measure_drift.py measured). The device name and the library versions are recorded and shown, never
compared.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ..submissions.reproduction import NumericSetting

SETTING_KEYS = tuple(NumericSetting.model_fields)  # the provenance keys, one per field
DEFINING = ("device", "dtype")
ALSO_IN_16_BITS = ("attn_implementation", "batch_size", "batch_tokens")
FLOAT32 = "float32"
# neghub run's --batch-size default, chosen by measurement on 2 CPU cores (SmolLM2-135M, float32): SCN's
# top-1 texts cost 26.2 ms of CPU each in batches of 8, 16.7 in 32, 15.8 in 64, 17.1 in 128 (the same answers in
# each); JNLI-Neg's greedy steps 0.19 s an item in batches of 8, 0.11 in 64 (slices, load 5-11; run.py's
# DEFAULT_BATCH_TOKENS bounds the rows of long prompts)
DEFAULT_BATCH_SIZE = 64
# what a recorded command that names no --batch-size ran with, before the batch size was recorded (the default
# then); never the default of today
LEGACY_BATCH_SIZE = 8


def setting_provenance(setting: NumericSetting) -> dict[str, Any]:
    """The setting as metadata.yaml's provenance records it: one flat key per field."""
    return setting.model_dump()


def _command_batch_size(command: Any) -> int | None:
    """`--batch-size N` of a recorded `neghub run ...` command line (LEGACY_BATCH_SIZE when it names none: a
    provenance without `batch_size` was written before the batch size was recorded, when 8 was the default)."""
    if not isinstance(command, str) or not command.startswith("neghub run "):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for i, word in enumerate(words):
        value = words[i + 1] if word == "--batch-size" and i + 1 < len(words) else None
        if word.startswith("--batch-size="):
            value = word.partition("=")[2]
        if value is not None:
            return int(value) if value.isdigit() and int(value) > 0 else None
    return LEGACY_BATCH_SIZE


def recorded_setting(provenance: Mapping[str, Any] | None) -> NumericSetting:
    """The setting a submission's provenance records; what it does not record is None. Submissions made before
    the batch size was recorded ran with the `--batch-size` of their recorded command (or its default)."""
    provenance = provenance or {}
    values = {key: provenance.get(key) for key in SETTING_KEYS}
    if values["batch_size"] is None:
        values["batch_size"] = _command_batch_size(provenance.get("command"))
    typed: dict[str, Any] = {}
    for key, value in values.items():
        if key in ("batch_size", "batch_tokens"):
            typed[key] = value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None
        else:
            typed[key] = value if isinstance(value, str) else None
    return NumericSetting(**typed)


def compared_fields(dtype: str | None) -> tuple[str, ...]:
    """The fields two settings must share to be one: the device type and dtype, and in 16 bits the attention
    implementation and the batches too."""
    return DEFINING if dtype == FLOAT32 else DEFINING + ALSO_IN_16_BITS


def setting_differences(recorded: NumericSetting, run: NumericSetting) -> list[str]:
    """What keeps a re-run from being in the recorded setting, one phrase each (empty: the same setting). A
    field the submission does not record cannot be shown equal: the device type and dtype must be recorded;
    an attention implementation that was not recorded is not compared (submissions made before it was)."""
    differences = []
    for key in compared_fields(run.dtype):
        mine, theirs = getattr(run, key), getattr(recorded, key)
        if key in DEFINING and theirs is None:
            differences.append(f"{key}: not recorded, {mine} here")
        elif key == "attn_implementation" and theirs is None:
            continue
        elif mine != theirs:
            differences.append(f"{key}: {_shown(theirs)} recorded, {_shown(mine)} here")
    return differences


def _shown(value: Any) -> str:
    return "none" if value is None else str(value)


def describe(setting: NumericSetting) -> str:
    """The setting in a few words: `cpu bfloat16 (sdpa attention; batches of 8 items, 8192 tokens at most)`."""
    batches = "batch size not recorded" if setting.batch_size is None else f"batches of {setting.batch_size} items"
    if setting.batch_tokens is not None:
        batches += f", {setting.batch_tokens} tokens at most"
    attention = f"{setting.attn_implementation} attention; " if setting.attn_implementation else ""
    return f"{_shown(setting.device)} {_shown(setting.dtype)} ({attention}{batches})"


# the fields as a reader names them, in the order a description gives them
IN_WORDS = {
    "dtype": "dtype",
    "device": "device",
    "attn_implementation": "attention",
    "batch_size": "batch size",
    "batch_tokens": "tokens per batch",
}


def setting_in_words(provenance: Mapping[str, Any] | None) -> str:
    """A run's numeric setting as its provenance records it (`Metadata.recorded_settings`, or the submission's
    provenance), in words, with what is recorded only: `bfloat16 on cuda, sdpa attention, batches of 64 items
    (32768 tokens at most)`; `setting not recorded` where none of it is."""
    setting = recorded_setting(provenance)
    parts = []
    if setting.dtype is not None or setting.device is not None:
        on = f" on {setting.device}" if setting.device is not None else ""
        parts.append(f"{setting.dtype or 'dtype not recorded'}{on}")
    if setting.attn_implementation is not None:
        parts.append(f"{setting.attn_implementation} attention")
    if setting.batch_size is not None:
        tokens = f" ({setting.batch_tokens} tokens at most)" if setting.batch_tokens is not None else ""
        parts.append(f"batches of {setting.batch_size} items{tokens}")
    return ", ".join(parts) or "setting not recorded"


def differences_between(first: Mapping[str, Any] | None, second: Mapping[str, Any] | None) -> list[str]:
    """What tells two runs' recorded settings apart, one phrase each (`attention: sdpa, eager`; empty: one setting
    as far as both record it): the fields `setting_differences` compares, in 16 bits the attention and the batches
    too. A field neither run records is no difference; one that only one records is."""
    a, b = recorded_setting(first), recorded_setting(second)
    fields = compared_fields(a.dtype if a.dtype == b.dtype else None)
    return [
        f"{IN_WORDS[key]}: {_shown(getattr(a, key))}, {_shown(getattr(b, key))}"
        for key in fields
        if getattr(a, key) != getattr(b, key)
    ]
