"""What a benchmark is, as the rest of NegHub sees it: one object per benchmark folder.

A benchmark folder (`evaluator/benchmarks/<name>/`, or an installed plugin named by the entry-point group
`neghub.benchmarks`) builds one `Benchmark` from a family (minimal pairs, multiple choice, cloze) and its
own metadata. Everything task-specific comes from here: the CLI, the validator, the schemas, the cards, the
runners and the bridges to other engines (lm-eval's scoring included: `lm_eval`) read the registry and never name
a benchmark (tests/test_layers.py checks every module of evaluator/ outside the benchmark folders, and scripts/).

The display block (`Display`) says how the leaderboard shows the benchmark: its name and one-line
summary, the headline metric with `higher_is_better`, the columns of its tables with their labels and
units, and the charts it wants (HELM's display schema, mteb's task metadata).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..protocol.metadata import DatasetMetadata
from .numbers import Unit
from .stats import BootstrapConfig

if TYPE_CHECKING:
    from ..protocol.lm_eval import LmEvalScorer
    from ..protocol.plans import RunPlan, RunSettings
    from .contamination import ContaminationProbeSpec
    from .results import Result

_CLOSED = ConfigDict(extra="forbid", frozen=True)

ChartKind = Literal["dot_interval", "scatter", "by_setting", "heatmap", "bars"]


class MetricDisplay(BaseModel):
    """One figure of a result as tables show it: its dot-path in the metrics, label and unit; `ci_path` names
    its 95% interval [low, high] where the scorer computes one."""

    model_config = _CLOSED
    path: str
    label: str
    unit: Unit = "percent"
    ci_path: str | None = None
    description: str = ""


class Headline(MetricDisplay):
    """The figure a benchmark ranks by."""

    higher_is_better: bool = True


class ChartSeries(BaseModel):
    """One series of a chart: a metric (and its interval, or the metric on the x axis for a scatter)."""

    model_config = _CLOSED
    label: str
    path: str
    ci_path: str | None = None
    x_path: str | None = None


class ChartSpec(BaseModel):
    """A chart the benchmark wants, drawn by the leaderboard's chart of that kind from these metrics.

    - dot_interval: each series' value and interval per model (one row per model);
    - scatter: x_path against path per model, a diagonal for "no change";
    - by_setting: the first series across the values of `setting` (shots, mode or split), one line per model;
    - heatmap: models by the series' metrics;
    - bars: the series per model, one panel per facet; a path holding "{facet}" takes each facet in turn.
    """

    model_config = _CLOSED
    kind: ChartKind
    title: str
    series: tuple[ChartSeries, ...]
    unit: Unit = "percent"
    # a protocol setting a board fixes (by_setting draws the rows that differ in it alone)
    setting: Literal["shots", "mode", "split"] | None = None
    facets: tuple[str, ...] = ()
    x_title: str = ""
    y_title: str = ""


class PrimaryBoard(BaseModel):
    """The board a benchmark names its leader on: the protocol that answers the benchmark's question, on the
    benchmark's own release. Every setting a board has but the data is declared, so that no other board (a few-shot
    board, a mean of seeds, another split) can be made the one a leader is named on by submitting to it."""

    model_config = _CLOSED
    split: str | None
    mode: str | None = None
    shots: int | None = 0
    prompt: str = "default"
    chat_template: Literal["yes", "no", "not stated"] = "not stated"
    fine_tuned_on: str | None = None  # None: not fine-tuned
    test: str = "base"
    seeds: int = 1
    why: str = Field(description="why this protocol answers the benchmark's question")
    published_table: str | None = Field(
        default=None,
        description="where the board's data is a sample: the papers' table on the full set it is drawn from, which "
        "its rows are compared with (the above-published-best hold)",
    )
    no_leader: str | None = Field(
        default=None, description="why the board names no leader yet, in a sentence its page shows (None: it may)"
    )

    @property
    def words(self) -> str:
        parts = [f"{self.split} split" if self.split else "", f"{self.mode} mode" if self.mode else ""]
        parts += ["" if self.shots is None else f"{self.shots}-shot", f"prompt {self.prompt}"]
        if self.chat_template != "not stated":
            parts.append(f"chat template: {self.chat_template}")
        if self.fine_tuned_on:
            parts.append(f"fine-tuned on {self.fine_tuned_on}")
        if self.test != "base":
            parts.append(self.test)
        if self.seeds != 1:
            parts.append(f"mean of {self.seeds} seeds")
        return " · ".join(p for p in parts if p)


class BoardNote(BaseModel):
    """A sentence a page shows with every board of one test or prompt style (and with each row of one, where a
    row is shown alone): what the paper says of those figures that their table does not (SCN's limitation where
    a causal model is judged; NUBench's one fixed seed of its error analyses)."""

    model_config = _CLOSED
    test: str | None = Field(default=None, description="the boards of this test (None: any)")
    prompt: str | None = Field(default=None, description="the boards of this prompt style (None: any)")
    words: str = Field(min_length=1, description="the sentence, quoting the paper whole where it quotes it")

    def applies(self, test: str | None, prompt: str | None) -> bool:
        return (self.test is None or self.test == test) and (self.prompt is None or self.prompt == prompt)


class HeadlineBoard(BaseModel):
    """The paper's headline configuration: the one board the home page shows of a benchmark (its mini board), as
    the paper's table and the settings that pick it out of that table. Declared here, beside the benchmark, so that
    no leaderboard code names a benchmark or a table."""

    model_config = _CLOSED
    table: str = Field(description="the paper's table whose rows make the mini board, as its transcription names it")
    shots: int | None = Field(default=0, description="the table's shots the mini board shows (None: any)")
    mode: str | None = Field(default=None, description="the table's mode the mini board shows (None: any)")
    finding: str | None = Field(
        default=None,
        description="key of evaluator.papers.quotes: the paper's finding about negation, quoted whole beside it",
    )
    figures: tuple[str, ...] = Field(
        default=(),
        description="the figures the table prints (metric paths of its rows), one column each, shown in place of "
        "the headline where the headline is a figure of NegHub's, not the table's (the mini board credits every "
        "cell to the table)",
    )
    order: tuple[str, ...] = Field(
        default=(),
        description="the table's models, best first, in the order the paper's own words give (none: by the "
        "headline); the mini board shows every one of them",
    )
    order_quotes: tuple[str, ...] = Field(
        default=(), description="keys of evaluator.papers.quotes: the sentences that give `order`"
    )


class Display(BaseModel):
    """How the leaderboard shows a benchmark (its pages, tables, charts and downloads)."""

    model_config = _CLOSED
    name: str = Field(description="display name, as the paper writes it")
    summary: str = Field(description="one sentence: what the benchmark asks")
    headline: Headline
    columns: tuple[MetricDisplay, ...] = Field(description="the figures of its tables, in order")
    key_columns: tuple[str, ...] = Field(
        default=(), description="paths of the one or two diagnostics the compact ranking shows beside the headline"
    )
    charts: tuple[ChartSpec, ...] = ()
    # rows are ranked only when the headline's 95% interval is informative: half as wide as this or less
    max_ci_half_width: float = 0.10
    # where rows may rest on different numbers of items (a cloze test keeps the triplets the model selects):
    # the metric counting them, and the fewest a ranked row needs (fewer, and a bootstrap interval over a
    # handful of 0/1 outcomes says nothing, however narrow it comes out)
    items_path: str | None = None
    items_noun: str = "items"
    min_items: int = 0
    prompt_styles: tuple[str, ...] = Field(
        default=("default",), description="the prompt styles a run may name; anything else is shown as custom"
    )
    # where the benchmark's own verdict of a result stands in its metrics (a cloze test: passes, partially
    # passes, fails) and the words that give its reason
    verdict_path: str | None = None
    verdict_reason_path: str | None = None
    verdict_rule: str | None = Field(default=None, description="how the verdict is reached, thresholds and why")
    ignored_negation: str | None = Field(
        default=None,
        description="where the benchmark's minimal pairs let the leaderboard mark a row that answers both items of a "
        "pair whose gold changes alike (negation ignored): whose reading that is, as the mark cites it",
    )
    primary_board: PrimaryBoard | None = Field(
        default=None, description="the board the leader is named on (None: the benchmark names no leader)"
    )
    headline_board: HeadlineBoard | None = Field(
        default=None, description="the paper's headline configuration, shown as the home page's mini board"
    )
    verdict_order: tuple[str, ...] = Field(
        default=(),
        description="the verdicts a ranked row may have, best first: a board orders its rows by verdict before "
        "the headline (a cloze test's: passes, partially passes, fails)",
    )
    verdict_unranked: tuple[str, ...] = Field(
        default=(),
        description="verdicts that leave a row unranked, as an interval too wide to rank does (inconclusive)",
    )
    verdict_quotes: tuple[str, ...] = Field(
        default=(),
        description="the papers' passages the verdict rule quotes, by key of evaluator.papers.quotes (the rule "
        "holds each whole; a page cites each with its section and line)",
    )
    board_notes: tuple[BoardNote, ...] = Field(
        default=(), description="sentences shown with the boards of one test or prompt style (BoardNote)"
    )

    def notes_for(self, test: str | None, prompt: str | None) -> tuple[str, ...]:
        """The board notes a board of this test and prompt style shows, in order."""
        return tuple(note.words for note in self.board_notes if note.applies(test, prompt))

    @model_validator(mode="after")
    def _verdicts_named_once(self) -> Display:
        if (self.verdict_order or self.verdict_unranked) and self.verdict_path is None:
            raise ValueError("verdict_order and verdict_unranked order a verdict: give verdict_path too")
        both = set(self.verdict_order) & set(self.verdict_unranked)
        if both:
            raise ValueError(f"a verdict is either ordered or unranked, not both: {', '.join(sorted(both))}")
        if self.verdict_quotes and self.verdict_rule is None:
            raise ValueError("verdict_quotes are the passages verdict_rule quotes: give verdict_rule too")
        return self


@dataclass(frozen=True)
class EvalOptions:
    """What a command line or the leaderboard passes to a benchmark's evaluation."""

    split: str | None = None
    mode: str | None = None
    data_dir: Path | None = None
    unverified: bool = False
    bootstrap: BootstrapConfig = field(default_factory=BootstrapConfig)
    display_name: str | None = None  # how the predictions file is named in messages
    for_leaderboard: bool = False  # the leaderboard's own rules apply too (the cloze test: words from NegHub's lists)


@dataclass(frozen=True)
class ReferenceRule:
    """A rule row NegHub computes for the leaderboard on a scored result's items: a trivial model a ranked row must
    beat. Either prediction lines, scored like any file of the benchmark, or each headline unit's expected score
    (random guessing: no file draws it, its expectation is exact)."""

    name: str  # how the row is named on a board: "Rule: always 'contradiction'"
    words: str  # what the rule does, in a sentence
    lines: tuple[dict[str, Any], ...] | None = None
    expected: Mapping[str, float] | None = None  # headline unit key -> the rule's expected score there


@dataclass(frozen=True)
class BaselineRun:
    """One run of a baseline submission NegHub commits (`nox -s baselines`)."""

    kind: str
    split: str | None = None
    mode: str | None = None


@dataclass(frozen=True)
class Benchmark:
    """A benchmark as the command line, the validator, the runner and the leaderboard see it."""

    name: str
    version: str  # the task version: bumped when scoring changes
    metadata: DatasetMetadata
    display: Display
    family: str
    evaluate: Callable[[Path, EvalOptions], Result]
    report: Callable[[Result], str]
    baseline: Callable[[str, EvalOptions, int], list[dict[str, Any]]]
    default_split: str | None
    # the pydantic model of one prediction line, per mode (None for a benchmark with a single mode): what the
    # validator runs on each line and what schemas/ publishes
    prediction_lines: Mapping[str | None, type[BaseModel]]
    modes: tuple[str, ...] = ()
    splits: tuple[str, ...] = ()  # the splits predictions may be scored on (default: every split of the release)
    baseline_kinds: tuple[str, ...] = ("majority", "random", "constant:VALUE")
    baseline_runs: Mapping[str, tuple[BaselineRun, ...]] = field(default_factory=dict)
    bundled_release: Path | None = None  # a release folder shipped inside the package
    reported_dir: Path | None = None  # transcribed paper tables (YAML), if any
    # the runs of `neghub run` for these settings and this kind of model ("causal", "masked"); None: not runnable
    plans: Callable[[RunSettings, str], list[RunPlan]] | None = None
    # how lm-evaluation-harness scores each run `neghub export lm-eval` writes (None: lm-eval prints no score)
    lm_eval: LmEvalScorer | None = None
    # figures a paper row lacks but the display needs, derived from those it has (the cloze contrast from drops)
    derive_metrics: Callable[[dict[str, float]], dict[str, float]] | None = None
    # a split of a given release folder as the family builds it (the minimal pairs the cards count)
    read_split: Callable[[Any, str], Any] | None = None
    # the rule rows NegHub computes on a scored result's items (each constant answer a model can give, random
    # guessing's expected score): the leaderboard's floors. None: the benchmark has no rule rows
    references: Callable[[Result, EvalOptions], list[ReferenceRule]] | None = None
    # the contamination probe of a ranked split whose gold is public (core/contamination.py; None: none declared)
    contamination_probe: ContaminationProbeSpec | None = None

    @property
    def scored_splits(self) -> tuple[str, ...]:
        return self.splits or self.metadata.splits

    def prediction_line(self, mode: str | None) -> type[BaseModel]:
        return self.prediction_lines[mode if self.modes else None]

    def schema_kinds(self) -> dict[str, type[BaseModel]]:
        """File stem -> line model of the prediction schemas this benchmark publishes."""
        if not self.modes:
            return {self.name: self.prediction_lines[None]}
        return {f"{self.name}-{mode}": self.prediction_lines[mode] for mode in self.modes}
