"""What every registered benchmark gets, checked over the registry (never over a list of names).

A benchmark folder (or plugin) added to the registry must find itself, with no other edit, in: the
leaderboard's pages (a benchmark page and a dataset page), the committed cards (one per benchmark), the
committed schemas (its prediction-line schemas, beside the submission's and the result's), the runner (its
plans for the default settings, or a one-line reason), and its own results (every metric its display block
names resolves in a real result: a baseline scored by its own evaluate).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.core.benchmark import Benchmark, EvalOptions
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.core.registry import benchmark_names, benchmarks
from neghub.evaluator.core.results import dig
from neghub.evaluator.fileio.jsonl import write_jsonl
from neghub.evaluator.protocol.plans import RunSettings
from neghub.evaluator.releases.loading import DatasetUnavailable
from neghub.leaderboard.collect import collect, flatten_metrics
from neghub.leaderboard.site import build_pages
from tests.conftest import FIXTURES, ROOT

REGISTERED = benchmark_names()
MIRROR = FIXTURES / "mirror"  # NegHub-written stand-ins for releases NegHub cannot read (JSTS-Neg)


def test_the_registry_finds_the_builtin_folders() -> None:
    # every folder of evaluator/benchmarks/ (its name with hyphens) is a registered benchmark, and nothing else is
    folders = sorted(
        p.name.replace("_", "-") for p in (ROOT / "evaluator" / "benchmarks").iterdir() if (p / "__init__.py").is_file()
    )
    assert folders == REGISTERED


# --- the leaderboard ---------------------------------------------------------------------------------


def test_every_benchmark_has_a_benchmark_page_and_a_dataset_page(tmp_path: Path) -> None:
    board = collect(tmp_path / "no-submissions")  # no submission: the pages exist before any row does
    pages = build_pages(board, ROOT / "datasets_cards")
    assert sorted(p.removeprefix("benchmarks/").removesuffix(".md") for p in pages if p.startswith("benchmarks/")) == (
        REGISTERED
    )
    assert sorted(p.removeprefix("datasets/").removesuffix(".md") for p in pages if p.startswith("datasets/")) == (
        REGISTERED
    )
    for benchmark in benchmarks():
        page = pages[f"benchmarks/{benchmark.name}.md"]
        assert benchmark.display.name in page
        assert benchmark.display.headline.label in page


# --- the generated files -----------------------------------------------------------------------------


def test_datasets_cards_hold_exactly_one_card_per_benchmark() -> None:
    assert sorted(p.name for p in (ROOT / "datasets_cards").iterdir()) == [f"{name}.md" for name in REGISTERED]


def test_schemas_hold_exactly_what_the_benchmarks_publish() -> None:
    published = {f"prediction-{stem}.schema.json" for benchmark in benchmarks() for stem in benchmark.schema_kinds()}
    # each benchmark's lines: one schema, or one per mode, named after the benchmark
    for benchmark in benchmarks():
        stems = sorted(benchmark.schema_kinds())
        assert stems == (
            [f"{benchmark.name}-{m}" for m in sorted(benchmark.modes)] if benchmark.modes else [benchmark.name]
        )
    # and the two of NegHub's own files: a submission's metadata, a result; the site's files' (the data contract:
    # the leaderboard file, a board's download, the long format) with the contract's fingerprints are the leaderboard's
    site_files = {"leaderboard.schema.json", "board.schema.json", "results-long.schema.json", "data-contract.json"}
    expected = published | {"submission.schema.json", "result.schema.json"} | site_files
    assert sorted(p.name for p in (ROOT / "schemas").iterdir()) == sorted(expected)


# --- the runner ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What the runner made of one kind of model: its runs, or the one-line reasons it has none."""

    plans: list[Any]
    reasons: list[str]
    data_unavailable: bool = False


def _plans(benchmark: Benchmark, settings: RunSettings, backend_kind: str) -> Outcome:
    assert benchmark.plans is not None
    try:
        return Outcome(benchmark.plans(settings, backend_kind), [])
    except InputError as exc:
        reasons = [str(p) for p in exc.problems]
        assert reasons and all(line and "\n" not in line for line in reasons), reasons
        return Outcome([], reasons, isinstance(exc, DatasetUnavailable))


@pytest.mark.parametrize("name", [b.name for b in benchmarks() if b.plans is not None])
def test_runner_builds_plans_for_the_default_settings_or_says_why(name: str) -> None:
    benchmark = next(b for b in benchmarks() if b.name == name)
    built: dict[str, int] = {}
    unavailable = False
    for backend_kind in ("causal", "masked"):
        outcome = _plans(benchmark, RunSettings(), backend_kind)
        if outcome.data_unavailable and (MIRROR / name).is_dir():
            # the release cannot be read here (said in one line): the runs are built from NegHub's stand-in
            outcome = _plans(benchmark, RunSettings(data_dir=MIRROR, unverified=True), backend_kind)
        unavailable |= outcome.data_unavailable
        if outcome.reasons:
            continue  # this kind of model does not apply, or the data is not here: it said why
        assert outcome.plans, f"{name}: no runs for a {backend_kind} model and no reason"
        for plan in outcome.plans:
            assert plan.task == name
            assert plan.items, f"{name}: a run with no items"
            assert plan.mode in (benchmark.modes or (None,))
        built[backend_kind] = len(outcome.plans)
    if not built and unavailable:
        pytest.skip(f"{name}: its release is not on this machine")
    assert built, f"{name} runs on no kind of model"


# --- the display block against a real result -------------------------------------------------------------


def _display_paths(benchmark: Benchmark) -> tuple[set[str], set[str]]:
    """The metric paths the display block names (figures, and 95% intervals), facets expanded."""
    display = benchmark.display
    figures = {display.headline.path, *(c.path for c in display.columns), *display.key_columns}
    intervals = {c.ci_path for c in (display.headline, *display.columns) if c.ci_path}
    for chart in display.charts:
        for series in chart.series:
            for facet in chart.facets or ("",):
                figures.add(series.path.replace("{facet}", facet))
                if series.x_path:
                    figures.add(series.x_path.replace("{facet}", facet))
                if series.ci_path:
                    intervals.add(series.ci_path.replace("{facet}", facet))
    return figures, intervals


def _baseline_results(benchmark: Benchmark, folder: Path) -> list[dict[str, Any]]:
    """The metrics of a baseline in every mode, scored by the benchmark's own evaluate; the release is read as
    `neghub evaluate` reads it, or from the fixture mirror NegHub wrote where the real one is not available."""
    results = []
    for mode in benchmark.modes or (None,):
        runs = [run for runs in benchmark.baseline_runs.values() for run in runs if run.mode == mode]
        # the random baseline where there is one: a constant one has no discordant pair, hence no AccChg interval
        kinds = [run.kind for run in runs]
        kind = "random" if "random" in kinds else (kinds[0] if kinds else "random")
        options = EvalOptions(split=runs[0].split if runs else None, mode=mode)
        if (MIRROR / benchmark.name).is_dir():
            options = EvalOptions(split=options.split, mode=mode, data_dir=MIRROR, unverified=True)
        try:
            rows = benchmark.baseline(kind, options, 0)
        except DatasetUnavailable as exc:
            pytest.skip(f"{benchmark.name}'s release cannot be read here: {exc.problems[0]}")
        if benchmark.family == "cloze":
            rows = _varied_cloze(rows)
        path = folder / f"{benchmark.name}-{mode}.jsonl"
        write_jsonl(path, rows)
        results.append(benchmark.evaluate(path, options).metrics)
    return results


def _varied_cloze(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A cloze baseline whose triplets all behave alike has degenerate intervals (none are given): every other
    triplet stops repeating the verb under the negated patterns, so that the figures vary over triplets."""
    triplets = sorted({(r["variant"], r["name"], r["profession"], r["verb"]) for r in rows})
    varied = set(triplets[::2])  # every other triplet of each variant
    out = []
    for row in rows:
        key = (row["variant"], row["name"], row["profession"], row["verb"])
        if key in varied and row["pattern"] in ("CpTn", "CnTp"):
            row = {**row, "top1": "x"}
        out.append(row)
    return out


def _is_interval(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, float) for v in value)
        and value[0] <= value[1]
    )


@pytest.mark.parametrize("name", REGISTERED)
def test_every_displayed_metric_resolves_in_a_real_result(name: str, tmp_path: Path) -> None:
    benchmark = next(b for b in benchmarks() if b.name == name)
    results = _baseline_results(benchmark, tmp_path)
    figures, intervals = _display_paths(benchmark)
    flat = [flatten_metrics(metrics) for metrics in results]
    # a figure is a number in the result of some mode (acc_norm is a completion-mode figure, say)
    missing = sorted(path for path in figures if not any(path in f for f in flat))
    assert missing == [], f"{name}'s display names metrics its results do not have"
    for path in figures:
        assert any(isinstance(dig(metrics, path), int | float) for metrics in results), path
    missing_ci = sorted(path for path in intervals if not any(_is_interval(dig(m, path)) for m in results))
    assert missing_ci == [], f"{name}'s display names intervals its results do not have"
