"""The result of scoring one prediction file: a typed, versioned record (published as schemas/result.schema.json).

A result carries what was scored and by which code (`Provenance`: task and task version, evaluator
version, split, mode, the dataset's identity, the predictions' sha256, the bootstrap), the headline the
benchmark ranks by, and the scorer's figures (`metrics`, fractions, nested as the scorer gives them).
`neghub evaluate --json` prints it; the leaderboard reads nothing else.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .. import __version__
from .stats import BootstrapConfig

if TYPE_CHECKING:
    from ..releases.loading import Release, ResolvedFile
    from .benchmark import Benchmark

RESULT_SCHEMA_VERSION = 1
_CLOSED = ConfigDict(extra="forbid", frozen=True)
Source = Literal["mirror", "hub", "upstream", "bundled"]


class DatasetIdentity(BaseModel):
    """Which data a file was scored against: the release (name, version, where it was read, the digest of all
    its pins) and the file of the split (its path and sha256)."""

    model_config = _CLOSED
    name: str
    version: str
    is_sample: bool = Field(description="a sample NegHub wrote, standing in for an unavailable release")
    source: Source
    revision: str | None = Field(description="the Hub revision, when read from the Hub")
    release_digest: str = Field(description="sha256 of the release's pinned files (path and sha256 per line)")
    file: str | None = Field(description="the release file of the split scored, as the release names it")
    sha256: str | None = Field(description="that file's sha256 as read")


class Bootstrap(BaseModel):
    model_config = _CLOSED
    resamples: int
    seed: int


class Provenance(BaseModel):
    """What was scored, against which data, by which code."""

    model_config = _CLOSED
    task: str
    task_version: str
    evaluator_version: str
    split: str | None
    mode: str | None
    dataset: DatasetIdentity | None
    predictions_sha256: str
    verified: bool = Field(description="every data file matched its pin")
    bootstrap: Bootstrap


class HeadlineValue(BaseModel):
    """The figure the benchmark ranks by, with its interval where the scorer computes one."""

    model_config = _CLOSED
    path: str
    label: str
    unit: str
    higher_is_better: bool
    value: float | None
    ci95: tuple[float, float] | None


class Result(BaseModel):
    """One scored prediction file."""

    model_config = _CLOSED
    schema_version: Literal[1] = 1  # RESULT_SCHEMA_VERSION: bumped when a field changes meaning
    provenance: Provenance
    headline: HeadlineValue
    metrics: dict[str, Any] = Field(description="the scorer's figures (fractions), nested as it gives them")


def release_digest(metadata: Any) -> str:
    """One sha256 for a whole release: of its files' paths and pinned sha256s, one per line, sorted."""
    lines = sorted(f"{f.path}\t{f.sha256}" for f in metadata.files)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def dig(metrics: dict[str, Any], path: str) -> Any:
    """The value at a dot-path of nested metrics (list items by index), or None."""
    value: Any = metrics
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list | tuple) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def assemble_result(
    *,
    benchmark: Benchmark,
    split: str | None,
    mode: str | None,
    predictions: Path,
    release: Release | None,
    dataset_file: ResolvedFile | None,
    scores: dict[str, Any],
    bootstrap: BootstrapConfig,
    verified: bool | None = None,
) -> Result:
    """A whole result: provenance, headline (read from the scores by the benchmark's display block), scores."""
    dataset = None
    if release is not None:
        scored = None
        if dataset_file is not None:
            scored = next(
                (f.path for f in release.metadata.files if (release.root / f.path) == dataset_file.path), None
            )
        dataset = DatasetIdentity(
            name=release.metadata.name,
            version=release.metadata.version,
            is_sample=release.metadata.is_sample,
            source=release.source,
            revision=release.revision,
            release_digest=release_digest(release.metadata),
            file=scored,
            sha256=None if dataset_file is None else dataset_file.sha256,
        )
    if verified is None:
        verified = True if dataset_file is None else dataset_file.verified
    headline = benchmark.display.headline
    value = dig(scores, headline.path)
    ci = dig(scores, headline.ci_path) if headline.ci_path else None
    return Result(
        provenance=Provenance(
            task=benchmark.name,
            task_version=benchmark.version,
            evaluator_version=__version__,
            split=split,
            mode=mode,
            dataset=dataset,
            predictions_sha256=hashlib.sha256(predictions.read_bytes()).hexdigest(),
            verified=verified,
            bootstrap=Bootstrap(resamples=bootstrap.resamples, seed=bootstrap.seed),
        ),
        headline=HeadlineValue(
            path=headline.path,
            label=headline.label,
            unit=headline.unit,
            higher_is_better=headline.higher_is_better,
            value=None if value is None else float(value),
            ci95=None if ci is None else (float(ci[0]), float(ci[1])),
        ),
        metrics=scores,
    )
