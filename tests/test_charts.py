"""The charts' category labels: a category axis draws equal names as one label (two rows on one line), so the
rows of a figure are named apart. How they fit a phone's width is the browser test's (test_site_browser.py)."""

from __future__ import annotations

import dataclasses

import pytest

from neghub.evaluator.core.benchmark import ChartSpec
from neghub.evaluator.core.registry import get_benchmark
from neghub.leaderboard import charts
from neghub.leaderboard.facts import Row
from tests.test_leaderboard import BOARD


def _spec(task: str, kind: str) -> ChartSpec:
    return next(spec for spec in get_benchmark(task).display.charts if spec.kind == kind)


def _rows(task: str, paths: list[str]) -> list[Row]:
    """Two submissions of one model name, a paper's row of that name and another model, on one board."""
    key = dataclasses.replace(BOARD, task=task)
    metrics = {path: 0.5 for path in paths}

    def row(model: str, kind: str, sid: str | None, source: str | None, value: float) -> Row:
        return Row(
            id=f"{sid or source}/{model}",
            kind=kind,  # type: ignore[arg-type]
            task=task,
            key=key,
            model=model,
            metrics={**metrics, "acc": value},
            submission_id=sid,
            source=source,
        )

    return [
        row("Twin-7B", "verified", "twin-a", None, 0.9),
        row("Twin-7B", "verified", "twin-b", None, 0.8),
        row("Twin-7B", "reported", None, "Table 3", 0.7),
        row("Other & <b>x</b>", "verified", "other", None, 0.6),
    ]


@pytest.mark.parametrize(("task", "kind"), [("jnli-neg", "dot_interval"), ("nubench", "heatmap")])
def test_rows_of_one_name_get_distinct_labels(task: str, kind: str) -> None:
    spec = _spec(task, kind)
    rows = _rows(task, [s.path for s in spec.series] + [f"{s.ci_path}.0" for s in spec.series if s.ci_path])
    (figure,) = charts.figures(rows, spec)
    labels = figure["data"][0]["y"]
    # the two submissions by their ids; the paper's row is "(paper)" already; the other model escaped, as it was
    assert labels == [
        "Twin-7B · twin-a",
        "Twin-7B · twin-b",
        "Twin-7B (paper)",
        "Other &amp; &lt;b&gt;x&lt;/b&gt;",
    ]
