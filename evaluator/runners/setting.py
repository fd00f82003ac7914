"""A run's numeric setting: what `neghub run` computed on and in, recorded in the submission's provenance (flat
keys: device, device_name, dtype, attn_implementation, batch_size, batch_tokens, torch_version,
transformers_version, cuda_version), and what `neghub reproduce` compares.

The device type and the dtype define the setting. In a 16-bit dtype the attention implementation and the batches
must match too; in float32 they need not. Measured on SmolLM2-135M-Instruct on CPU, each against the same run in
batches of 8 with sdpa attention (`OMP_NUM_THREADS=1 python scripts/measure_drift.py --items 48`, figures in the
README): in bfloat16, batches of 1, 4 or 16 moved NUBench log-likelihoods by up to 0.68 nats and changed 3-5 of
46 option answers and 11-20 of 48 JNLI-Neg generations, eager attention 0.83 nats, 8 and 20; in float32 they
moved log-likelihoods by at most 5.7e-5 nats and no answer, far inside the tolerance (runners/reproduce.py). The
same setting re-run gave the same bits in both. The device name and the library versions are recorded and
shown, never compared.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..submissions.reproduction import NumericSetting

if TYPE_CHECKING:
    from .backend import Backend

SETTING_KEYS = tuple(NumericSetting.model_fields)  # the provenance keys, one per field
DEFINING = ("device", "dtype")
ALSO_IN_16_BITS = ("attn_implementation", "batch_size", "batch_tokens")
FLOAT32 = "float32"
DEFAULT_BATCH_SIZE = 8  # neghub run's --batch-size default, which older submissions ran with unless their command says


def run_setting(backend: Backend, batch_size: int, batch_tokens: int | None) -> NumericSetting:
    """The setting a loaded model runs in with these batches."""
    import torch
    import transformers

    from .loading import device_name

    return NumericSetting(
        device=backend.device,
        dtype=backend.dtype,
        attn_implementation=backend.attn_implementation,
        batch_size=batch_size,
        batch_tokens=batch_tokens,
        device_name=device_name(backend.device),
        torch_version=torch.__version__,
        transformers_version=transformers.__version__,
        cuda_version=torch.version.cuda,
    )


def setting_provenance(setting: NumericSetting) -> dict[str, Any]:
    """The setting as metadata.yaml's provenance records it: one flat key per field."""
    return setting.model_dump()


def _command_batch_size(command: Any) -> int | None:
    """`--batch-size N` of a recorded `neghub run ...` command line (DEFAULT_BATCH_SIZE when it names none)."""
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
    return DEFAULT_BATCH_SIZE


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
