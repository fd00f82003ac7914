"""The record `neghub reproduce` writes: NegHub re-ran a seeded sample of a submission's items with the model
pin and settings its metadata records, and compared the answers with the submitted predictions.

Records live in `reproductions/<submission>.json`; the leaderboard reads them to say what it
checked of a row: *reproduced* (every sampled item of every run agrees), or "disagrees on 7/50".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_CLOSED = ConfigDict(extra="forbid", frozen=True)


class ReproducedRun(BaseModel):
    """One run of the submission, re-run on a sample of its items."""

    model_config = _CLOSED
    file: str = Field(description="the run's prediction file, as metadata.yaml lists it")
    predictions_sha256: str = Field(description="the file that was compared (a changed file is not reproduced)")
    items_checked: int = Field(ge=0)
    items_agreeing: int = Field(ge=0)
    disagreeing_ids: list[str] = Field(default_factory=list, description="the first few items that differ")
    unexpected_items: int = Field(
        default=0, ge=0, description="items in the file that its recorded settings would not run (reproduced: 0)"
    )
    comparison: str = Field(description="how answers were compared: exact, or log-likelihoods within a tolerance")


class Reproduction(BaseModel):
    """What `neghub reproduce` found for one submission."""

    model_config = _CLOSED
    schema_version: Literal[1] = 1
    submission: str
    date: str = Field(description="when it was run (YYYY-MM-DD)")
    neghub_version: str
    sample_seed: int
    items_per_run: int
    device: str
    machine: str
    library_versions: dict[str, str | None]
    runs: list[ReproducedRun]

    def agrees(self) -> bool:
        return bool(self.runs) and all(
            r.items_agreeing == r.items_checked > 0 and r.unexpected_items == 0 for r in self.runs
        )
