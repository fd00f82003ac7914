"""What every family's `Benchmark` shares: its evaluate scores one prediction file into a `Scored` (what the file
gave, read from the bytes that were hashed) and assembles the `Result` from it, naming the benchmark itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Required, TypeVar

from typing_extensions import TypedDict

from ..core.benchmark import BaselineRun, Benchmark, Display, EvalOptions
from ..core.results import HeadlineItems, ItemOutcomes, ItemPairs, Result, assemble_result
from ..core.stats import BootstrapConfig
from ..protocol.metadata import DatasetMetadata
from ..releases.loading import Release, ResolvedFile

if TYPE_CHECKING:
    from ..core.contamination import ContaminationProbeSpec
    from ..protocol.lm_eval import LmEvalScorer
    from ..protocol.plans import RunPlan, RunSettings


@dataclass(frozen=True)
class Scored:
    """One prediction file scored against one split, before its result is assembled."""

    predictions_sha256: str  # of the bytes that were parsed
    split: str
    mode: str | None
    release: Release
    file: ResolvedFile
    scores: dict[str, Any]
    items: ItemOutcomes
    headline_items: HeadlineItems | None
    pairs: ItemPairs | None = None

    def result(self, benchmark: Benchmark, bootstrap: BootstrapConfig) -> Result:
        return assemble_result(
            benchmark=benchmark,
            split=self.split,
            mode=self.mode,
            predictions_sha256=self.predictions_sha256,
            release=self.release,
            dataset_file=self.file,
            scores=self.scores,
            items=self.items,
            headline_items=self.headline_items,
            pairs=self.pairs,
            bootstrap=bootstrap,
        )


class FamilySpec(Protocol):
    """What a family's spec names: the benchmark and its release's metadata."""

    @property
    def name(self) -> str: ...

    @property
    def metadata(self) -> DatasetMetadata: ...


class BenchmarkFields(TypedDict, total=False):
    """What a benchmark of any family declares beside its spec, passed through to its `Benchmark`."""

    version: Required[str]  # the task version: bumped when scoring changes
    display: Required[Display]
    default_split: Required[str]  # the split scored when a run names none
    baseline_runs: Mapping[str, tuple[BaselineRun, ...]]  # the baseline submissions NegHub commits
    reported_dir: Path | None  # transcribed paper tables
    plans: Callable[[RunSettings, str], list[RunPlan]] | None  # how `neghub run` runs it
    lm_eval: LmEvalScorer | None  # how lm-eval scores its exported runs (a family declares its own)
    contamination_probe: ContaminationProbeSpec | None  # a re-run's probe of a ranked split with public gold


S = TypeVar("S", bound=FamilySpec)


def family_benchmark(
    spec: S,
    family: str,
    score_file: Callable[[S, Benchmark, Path, EvalOptions], Scored],
    baseline: Callable[[S, str, str, EvalOptions, int], list[dict[str, Any]]],
    fields: BenchmarkFields,
    **family_fields: Any,
) -> Benchmark:
    """The `Benchmark` of `spec` in `family`: its evaluate is `score_file`'s, assembled into a result that names the
    benchmark; its baselines are `baseline`'s on the default split unless a run names another; `fields` are what
    the benchmark declared, `family_fields` what the family adds (its report, modes, line models)."""

    def evaluate(path: Path, options: EvalOptions) -> Result:
        return score_file(spec, benchmark, path, options).result(benchmark, options.bootstrap)

    benchmark = Benchmark(
        name=spec.name,
        metadata=spec.metadata,
        family=family,
        evaluate=evaluate,
        baseline=partial(baseline, spec, fields["default_split"]),
        **fields,
        **family_fields,
    )
    return benchmark
