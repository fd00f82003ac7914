"""The record `neghub reproduce` writes: NegHub re-ran a seeded sample of a submission's items with the model
pin and settings its metadata records, and compared the answers with the submitted predictions.

Records live in `reproductions/<submission>.json`. A record is one of two kinds (`kind`):
- "same-setting": the re-run computed in the numeric setting the submission records (device type and dtype;
  in 16-bit dtypes also the attention implementation and the batches, see runners/setting.py): a
  reproduction, which agrees or not;
- "across-settings": another setting (asked for, or the recorded one not available here, or not recorded): a
  drift report, which says how far answers and log-likelihoods moved and is never a reproduction.
Records written before settings were recorded (schema_version 1) have no kind (None): not a reproduction
either. The leaderboard counts a record as a reproduction only when `kind == "same-setting"`, and only for what it
names (schema_version 3): the sha256 of each prediction file and `metadata_sha256`, the sha256 of the metadata
fields a row shows or the re-run used (the model entry, the runs, the numeric setting, each run's recorded
settings). A record that names no metadata hash is no reproduction of today's metadata.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

if TYPE_CHECKING:
    from .format import Metadata

_CLOSED = ConfigDict(extra="forbid", frozen=True)
RecordKind = Literal["same-setting", "across-settings"]


class NumericSetting(BaseModel):
    """What a run computed on and in, as metadata.yaml's provenance records it (flat keys of the same names).
    None: not recorded (submissions made before it was, or by another engine)."""

    model_config = _CLOSED
    device: str | None = Field(description="device type: cpu or cuda")
    dtype: str | None = Field(description="float32, bfloat16 or float16")
    attn_implementation: str | None = Field(default=None, description="transformers' attention: sdpa, eager, ...")
    batch_size: int | None = Field(default=None, ge=1, description="items per batch, at most")
    batch_tokens: int | None = Field(
        default=None, ge=1, description="padded tokens per batch, at most (None: batches by items alone)"
    )
    device_name: str | None = Field(default=None, description="the processor or GPU (shown, not compared)")
    torch_version: str | None = None
    transformers_version: str | None = None
    cuda_version: str | None = Field(default=None, description="the CUDA torch was built with (None: CPU build)")


class ReproducedRun(BaseModel):
    """One run of the submission, re-run on a sample of its items (whole batches, as the run computed them)."""

    model_config = _CLOSED
    file: str = Field(description="the run's prediction file, as metadata.yaml lists it")
    predictions_sha256: str = Field(description="the file that was compared (a changed file is not reproduced)")
    items_checked: int = Field(ge=0, description="items compared")
    items_agreeing: int = Field(ge=0, description="items whose lines agree (numbers within the tolerance)")
    disagreeing_ids: list[str] = Field(default_factory=list, description="the first few items that differ")
    unexpected_items: int = Field(
        default=0, ge=0, description="items in the file that its recorded settings would not run (reproduced: 0)"
    )
    comparison: str = Field(description="how answers were compared: exact, or log-likelihoods within a tolerance")
    answers_differing: int | None = Field(
        default=None, ge=0, description="items whose answers (labels, letters, text, tokens) differ, numbers aside"
    )
    max_abs_delta: float | None = Field(
        default=None, ge=0, description="largest |difference| of the numbers (log-likelihoods, logits) compared"
    )
    median_abs_delta: float | None = Field(default=None, ge=0, description="median |difference| of those numbers")


class Reproduction(BaseModel):
    """What `neghub reproduce` found for one submission."""

    model_config = _CLOSED
    # a record that names no version predates version 2 (neghub reproduce writes 3)
    schema_version: Literal[1, 2, 3] = 1
    kind: RecordKind | None = Field(
        default=None,
        description="same-setting: a reproduction; across-settings: a drift report (None: a schema 1 record)",
    )
    recorded_setting: NumericSetting | None = Field(
        default=None, description="the setting the submission records (None: a baseline's rule has none)"
    )
    run_setting: NumericSetting | None = Field(default=None, description="the setting of the re-run")
    setting_differences: list[str] = Field(
        default_factory=list, description="what differs between the two settings, one phrase each"
    )
    submission: str
    date: str = Field(description="when it was run (YYYY-MM-DD)")
    neghub_version: str
    sample_seed: int
    items_per_run: int
    device: str
    machine: str
    library_versions: dict[str, str | None]
    runs: list[ReproducedRun]
    metadata_sha256: str | None = Field(
        default=None, description="metadata_sha256 of the submission's metadata it re-ran (schema 3)"
    )
    weights_sha256: str | None = Field(
        default=None, description="the sha256 of the weights the re-run loaded (one file's, or a folder's files')"
    )

    @model_validator(mode="after")
    def _kind_from_schema_2_on(self) -> Reproduction:
        if self.schema_version >= 2 and self.kind is None:
            raise ValueError("a schema 2 record says its kind: same-setting or across-settings")
        if self.schema_version < 2 and self.kind is not None:
            raise ValueError("a record with a kind is schema_version 2 or later")
        if self.schema_version >= 3 and self.metadata_sha256 is None:
            raise ValueError("a schema 3 record names the metadata_sha256 of what it re-ran")
        return self

    def agrees(self) -> bool:
        """A reproduction (same setting) in which every sampled item of every run agrees."""
        return (
            self.kind == "same-setting"
            and bool(self.runs)
            and all(r.items_agreeing == r.items_checked > 0 and r.unexpected_items == 0 for r in self.runs)
        )


def metadata_sha256(metadata: Metadata) -> str:
    """The sha256 of what a row shows of a submission or its re-run used, in one canonical JSON form: the model
    entry (name, size, what pins it), the runs, the numeric setting and each run's recorded protocol settings (the
    prompt's sha256 among them). A description, a link or a date may change without it."""
    provenance = metadata.provenance or {}
    shown = {
        "model": metadata.model.model_dump(mode="json"),
        "runs": [run.model_dump(mode="json") for run in metadata.runs],
        "setting": {key: provenance.get(key) for key in NUMERIC_SETTING_COMPARED},
        "run_settings": [metadata.recorded_settings(run) for run in metadata.runs],
    }
    text = json.dumps(shown, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


NUMERIC_SETTING_COMPARED = ("device", "dtype", "attn_implementation", "batch_size", "batch_tokens")
