"""The result of scoring one prediction file: a typed, versioned record (published as schemas/result.schema.json).

A result carries what was scored and by which code (`Provenance`: task and task version, the benchmark's
distribution, evaluator version, split, mode, the dataset's identity, the predictions' sha256, the
bootstrap), the headline the benchmark ranks by, the scorer's figures (`metrics`, fractions, nested as the
scorer gives them), and the outcome of every item (`items`: its answer, whether it parsed, whether it was
right; inspect_ai's per-sample scores are the model), with the headline per unit (`headline_items`, what a
paired test between two results resamples) and, for minimal pairs, the pairs (`pairs`).
`neghub evaluate --json` prints it; the leaderboard reads nothing else.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from .. import __version__
from .stats import BootstrapConfig

if TYPE_CHECKING:
    from ..protocol.metadata import DatasetMetadata
    from .benchmark import Benchmark

RESULT_SCHEMA_VERSION = 2
_CLOSED = ConfigDict(extra="forbid", frozen=True)
Source = Literal["mirror", "hub", "upstream", "bundled"]
# an item's answer as the scorer read it: a label, an option key, a score, a top-1 pattern; null where it did not parse
ItemAnswer = str | int | float | None
# the raw output kept for an answer that did not parse, cut to this many characters (a line may hold 64 KiB)
RAW_OUTPUT_CHARS = 500


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


class BenchmarkSource(BaseModel):
    """Where the benchmark's code came from: NegHub itself or a plugin's distribution, with its version."""

    model_config = _CLOSED
    distribution: str
    version: str
    module: str = Field(description="the module defining the benchmark (a built-in folder or a plugin's entry point)")


class Provenance(BaseModel):
    """What was scored, against which data, by which code."""

    model_config = _CLOSED
    task: str
    task_version: str
    benchmark: BenchmarkSource
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


class ItemOutcomes(BaseModel):
    """The outcome of every item of the file, as columns in the release's order (one entry per item)."""

    model_config = _CLOSED
    unit: str = Field(description="what one item is: an instance, an item, a triplet")
    ids: list[str] = Field(description="the item's id as the prediction file names it (numbers written in decimal)")
    answers: list[ItemAnswer] = Field(description="the answer as the scorer read it; null where it did not parse")
    expected: list[ItemAnswer] | None = Field(description="the gold answer; null where the benchmark has none")
    parsed: list[bool]
    correct: list[bool] | None = Field(
        description="whether the answer was right (an unparsed answer is wrong); null where items have no right answer"
    )
    raw_outputs: dict[str, str] = Field(
        description=f"id -> the model's raw output, for the answers that did not parse (first {RAW_OUTPUT_CHARS} "
        "characters)"
    )
    answer_labels: dict[str, str] = Field(
        default_factory=dict, description="what an answer means where it is a key (an option's kind), by answer"
    )
    # what each item shows a reader (its sentences), from the release: kept in memory for the site's answers view,
    # never written with the result (it is the dataset's text, under the dataset's licence, not an outcome)
    texts: SkipJsonSchema[list[str] | None] = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _columns_align(self) -> ItemOutcomes:
        n = len(self.ids)
        for name in ("answers", "expected", "parsed", "correct", "texts"):
            column = getattr(self, name)
            if column is not None and len(column) != n:
                raise ValueError(f"{name} has {len(column)} entries for {n} ids")
        return self

    def answer_of(self) -> dict[str, ItemAnswer]:
        return dict(zip(self.ids, self.answers, strict=True))


class HeadlineItems(BaseModel):
    """The headline per unit (its mean is the headline): what a paired test of two results on the same data
    resamples. Units are keyed, so that two results are compared unit by unit."""

    model_config = _CLOSED
    unit: str = Field(description="what one unit is, e.g. a pair of M_i (its treatment answered right)")
    keys: list[str]
    values: list[float]
    clusters: list[str] | None = Field(
        default=None,
        description="each unit's source (the source sentence pair its minimal pair derives from): units of one "
        "source share sentences, and intervals resample or correct by it; null where units are independent or "
        "their source is not on record",
    )

    @model_validator(mode="after")
    def _columns_align(self) -> HeadlineItems:
        if len(self.keys) != len(self.values):
            raise ValueError(f"{len(self.values)} values for {len(self.keys)} keys")
        if self.clusters is not None and len(self.clusters) != len(self.keys):
            raise ValueError(f"{len(self.clusters)} clusters for {len(self.keys)} keys")
        return self


class ItemPairs(BaseModel):
    """Minimal pairs (SPEC §1): each pair's control and treatment ids, and whether the gold changes (M_i)."""

    model_config = _CLOSED
    control: list[str]
    treatment: list[str]
    important: list[bool]

    @model_validator(mode="after")
    def _columns_align(self) -> ItemPairs:
        if not len(self.control) == len(self.treatment) == len(self.important):
            raise ValueError("control, treatment and important must have one entry per pair")
        return self


class Result(BaseModel):
    """One scored prediction file."""

    model_config = _CLOSED
    schema_version: Literal[2] = 2  # RESULT_SCHEMA_VERSION: bumped when a field changes meaning
    provenance: Provenance
    headline: HeadlineValue
    metrics: dict[str, Any] = Field(description="the scorer's figures (fractions), nested as it gives them")
    items: ItemOutcomes
    headline_items: HeadlineItems | None = Field(
        description="the headline per unit; null where it is no mean over units shared by every result (a cloze "
        "test keeps the triplets each model selects)"
    )
    pairs: ItemPairs | None = Field(default=None, description="the minimal pairs, for benchmarks built on them")


def release_digest(metadata: DatasetMetadata) -> str:
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


class ScoredRelease(Protocol):
    """What a result records of the release it was scored against (releases/loading.py's `Release`)."""

    @property
    def metadata(self) -> DatasetMetadata: ...

    @property
    def root(self) -> Path: ...

    @property
    def source(self) -> Source: ...

    @property
    def revision(self) -> str | None: ...


class ScoredFile(Protocol):
    """What a result records of the release file it was scored against (releases/loading.py's `ResolvedFile`)."""

    @property
    def path(self) -> Path: ...

    @property
    def sha256(self) -> str: ...

    @property
    def verified(self) -> bool: ...


def assemble_result(
    *,
    benchmark: Benchmark,
    split: str | None,
    mode: str | None,
    predictions_sha256: str,
    release: ScoredRelease | None,
    dataset_file: ScoredFile | None,
    scores: dict[str, Any],
    items: ItemOutcomes,
    headline_items: HeadlineItems | None,
    pairs: ItemPairs | None = None,
    bootstrap: BootstrapConfig,
    verified: bool | None = None,
) -> Result:
    """A whole result: provenance, headline (read from the scores by the benchmark's display block), scores and
    items. `predictions_sha256` is of the bytes the scorer parsed (the file is read once)."""
    from .registry import benchmark_source

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
            benchmark=benchmark_source(benchmark),
            evaluator_version=__version__,
            split=split,
            mode=mode,
            dataset=dataset,
            predictions_sha256=predictions_sha256,
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
        items=items,
        headline_items=headline_items,
        pairs=pairs,
    )


def read_predictions_file(path: Path, max_bytes: int) -> tuple[bytes, str]:
    """A prediction file's bytes and their sha256: what a scorer parses is what its result names."""
    from ..fileio.files import read_bytes

    data = read_bytes(path, max_bytes=max_bytes)
    return data, hashlib.sha256(data).hexdigest()


def raw_output_shown(text: str) -> str:
    """A raw output as a result keeps it: its first RAW_OUTPUT_CHARS characters."""
    return text if len(text) <= RAW_OUTPUT_CHARS else text[:RAW_OUTPUT_CHARS] + "…"
