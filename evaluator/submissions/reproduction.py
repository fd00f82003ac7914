"""The record `neghub reproduce` writes: NegHub re-ran every item of a submission's runs (schema 4; a seeded sample
of items before it) with the model pin and settings its metadata records, and compared the answers with the
submitted predictions.

Records live in `reproductions/<submission>.json`. A record is one of two kinds (`kind`):
- "same-setting": the re-run computed in the numeric setting the submission records (device type and dtype;
  in 16-bit dtypes also the attention implementation and the batches, see runners/setting.py): a
  reproduction, which agrees or not;
- "across-settings": another setting (asked for, or the recorded one not available here, or not recorded): a
  drift report, which says how far answers and log-likelihoods moved and is never a reproduction.
Records written before settings were recorded (schema_version 1) have no kind (None): not a reproduction
either. The leaderboard counts a record as a reproduction only when `kind == "same-setting"`, and only for what it
names (schema_version 3 on): the sha256 of each prediction file and `metadata_sha256`, the sha256 of the metadata
fields a row shows or the re-run used (the model entry, the runs, the numeric setting, each run's recorded
settings). A record that names no metadata hash is no reproduction of today's metadata.

From schema_version 4 a record re-runs whole runs: each run it re-ran says how many items its recorded settings run
(`items_in_run`) and compares every one of them, and each run it did not re-run is listed with the reason
(`not_rerun`). Records of schema 1 to 3 compared a sample of items (`items_per_run`, drawn with `sample_seed`):
the leaderboard no longer counts them (a submitter chooses the batches a sample is drawn in, and can doctor the
batches a sample is unlikely to draw: issue 32).
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
    """One run of the submission, re-run in its recorded order and batches (schema 4: every item; schema 1 to 3: a
    sample of whole batches)."""

    model_config = _CLOSED
    file: str = Field(description="the run's prediction file, as metadata.yaml lists it")
    predictions_sha256: str = Field(description="the file that was compared (a changed file is not reproduced)")
    items_in_run: int | None = Field(
        default=None,
        ge=0,
        description="items the run's recorded settings run, every one of them re-run (schema 4; None: a record of "
        "schema 1 to 3, which re-ran a sample)",
    )
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
    rerun_file: str | None = Field(
        default=None, description="schema 5: the re-run's answers, kept at reproductions/<submission>/<rerun_file>"
    )
    rerun_sha256: str | None = Field(default=None, description="schema 5: the sha256 of that kept file")

    @property
    def compared_whole(self) -> bool:
        """Whether it compared every item of the run (schema 4), not a sample."""
        return self.items_in_run is not None and self.items_checked == self.items_in_run


class NotRerun(BaseModel):
    """A run of the submission that NegHub did not re-run, and why."""

    model_config = _CLOSED
    file: str = Field(description="the run's prediction file, as metadata.yaml lists it")
    why: str = Field(description="why it was not re-run, in words a row can show")


class Reproduction(BaseModel):
    """What `neghub reproduce` found for one submission."""

    model_config = _CLOSED
    # a record that names no version predates version 2 (neghub reproduce writes 4)
    schema_version: Literal[1, 2, 3, 4, 5] = 1
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
    sample_seed: int | None = Field(default=None, description="schema 1 to 3: the seed of the sampled items")
    items_per_run: int | None = Field(default=None, description="schema 1 to 3: the items sampled per run, at least")
    device: str
    machine: str
    library_versions: dict[str, str | None]
    runs: list[ReproducedRun]
    not_rerun: list[NotRerun] = Field(
        default_factory=list, description="the runs of the submission it did not re-run, each with the reason"
    )
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
        if self.schema_version >= 4 and any(run.items_in_run is None for run in self.runs):
            raise ValueError("a schema 4 record says how many items each run it re-ran holds (items_in_run)")
        if self.schema_version < 4 and (self.not_rerun or any(run.items_in_run is not None for run in self.runs)):
            raise ValueError("a record that says items_in_run or not_rerun is schema_version 4 or later")
        return self

    def agrees(self) -> bool:
        """A reproduction (same setting) that compared every item of each run it re-ran, every one agreeing."""
        return (
            self.kind == "same-setting"
            and bool(self.runs)
            and all(r.compared_whole and r.items_agreeing == r.items_checked > 0 for r in self.runs)
            and all(r.unexpected_items == 0 for r in self.runs)
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
