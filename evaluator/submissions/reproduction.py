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

From schema_version 5 a record keeps NegHub's answers: each run it re-ran has its re-run's prediction lines in
`reproductions/<submission>/<file>` (`rerun_file`, its sha256 `rerun_sha256`), in the format the evaluator scores,
so that the build scores NegHub's own answers (a row's ranked figure) and the write job recomputes agreement from
the two files (`runners.reproduce.compare_run`) instead of trusting the counts. The items a run covers are the
items its prediction file holds (`items_not_in_file` counts those its recorded settings run that the file lacks),
never a metadata line a submitter can delete. A re-run of a run the benchmark declares a contamination probe for
also answers a sample of the training split (`probe`, evaluator/core/contamination.py).
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


class ContaminationProbe(BaseModel):
    """The re-run's figure on the ranked split against the same figure on a sample of the training split drawn to the
    ranked split's mix (evaluator/core/contamination.py): a model that saw the ranked split's public gold scores
    higher there. The difference is tested one-sided, its variance clustered by the benchmark's cluster key."""

    model_config = _CLOSED
    metric: str = Field(description="the figure compared, as the benchmark names it (e.g. M_i Acc′)")
    split: str = Field(description="the split the sample is drawn from")
    strata: str = Field(description="what the sample matches the ranked split on, in words")
    cluster_key: str = Field(description="the field whose items vary together (the variance is clustered by it)")
    sample_seed: int
    probe_items: int = Field(ge=0, description="items of the training split answered")
    ranked_units: int = Field(ge=0, description="units (pairs) the ranked figure averages")
    probe_units: int = Field(ge=0, description="units (pairs) the probe's figure averages")
    ranked_figure: float = Field(description="the figure on the ranked split (a fraction)")
    probe_figure: float = Field(description="the figure on the sample of the training split (a fraction)")
    difference: float = Field(description="ranked_figure - probe_figure")
    standard_error: float = Field(ge=0, description="of the difference, clustered")
    p_value: float = Field(ge=0, le=1, description="one-sided: the ranked split scoring higher than the sample")
    alpha: float = Field(gt=0, lt=1, description="the level a difference is marked at")
    marked: bool = Field(description="p_value < alpha: the reviewer sees a possible contamination mark")
    probe_file: str = Field(description="the probe's answers, relative to reproductions/<submission>/")
    probe_sha256: str


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
        default=None,
        description="schema 5: NegHub's answers, relative to reproductions/<submission>/ (equal to file)",
    )
    rerun_sha256: str | None = Field(default=None, description="schema 5: the sha256 of that kept file")
    items_not_in_file: int | None = Field(
        default=None,
        ge=0,
        description="schema 5: items the recorded settings run that the prediction file does not hold (not re-run: "
        "the file says what a run covers; reproduced: 0)",
    )
    probe: ContaminationProbe | None = Field(
        default=None, description="schema 5: the contamination probe, where the benchmark declares one for this run"
    )

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
    # a record that names no version predates version 2 (neghub reproduce writes 5)
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
        kept = ("rerun_file", "rerun_sha256", "items_not_in_file")
        if self.schema_version >= 5 and any(getattr(run, key) is None for run in self.runs for key in kept):
            raise ValueError("a schema 5 record keeps each run's answers: rerun_file, rerun_sha256, items_not_in_file")
        if self.schema_version >= 5 and any(run.rerun_file != run.file for run in self.runs):
            raise ValueError("a schema 5 record keeps a run's answers under the run's own file name (rerun_file)")
        if self.schema_version < 5 and any(
            getattr(run, key) is not None for run in self.runs for key in (*kept, "probe")
        ):
            raise ValueError("a record that keeps answers (rerun_file, probe) is schema_version 5 or later")
        return self

    def agrees(self) -> bool:
        """A reproduction (same setting) that compared every item of each run it re-ran, every one agreeing."""
        return (
            self.kind == "same-setting"
            and bool(self.runs)
            and all(r.compared_whole and r.items_agreeing == r.items_checked > 0 for r in self.runs)
            and all(r.unexpected_items == 0 and not r.items_not_in_file for r in self.runs)
        )

    def probe_marks(self) -> list[str]:
        """The runs whose contamination probe is marked (the reviewer sees them)."""
        return [run.file for run in self.runs if run.probe is not None and run.probe.marked]


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
