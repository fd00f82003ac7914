"""Plotly figures as plain JSON specifications, one kind per `ChartSpec.kind` of a benchmark's display block.

The site's own plotly.js draws them. Rules that keep them legible at any number of rows:
- values in the tables' units (percent or points, never fractions);
- at most MAX_SERIES series or rows per figure (the best by the benchmark's headline; the rest are left to
  the tables), and small multiples (one figure per facet or mode) rather than one crowded figure;
- legends below the plot, never over it; titles in the page above the figure, never under plotly's toolbar;
- readable without colour: series differ by marker symbol, line dash or bar pattern;
- text from a submitter or a paper is HTML-escaped (plotly renders a few tags in its labels).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..evaluator.core.benchmark import ChartSpec
from .facts import Row
from .verdicts import headline

Figure = dict[str, Any]
MAX_SERIES = 10
# grey context lines of a by_setting chart past the MAX_SERIES it names: a figure's size must not grow with the
# number of submissions (at 1,000 it was 180 KB of one page's HTML); the tables have every row
MAX_CONTEXT_LINES = 40
SYMBOLS = ("circle", "square-open", "diamond", "triangle-up-open", "x", "star-open", "cross", "hexagon-open")
PATTERNS = ("", "/", "\\", "x", ".", "-", "|", "+", "/", "\\")
DASHES = ("solid", "dot", "dash", "longdash", "dashdot")
FONT = {"family": "system-ui, sans-serif", "size": 12}
GREY = "#9e9e9e"


@dataclass(frozen=True)
class Chart:
    """A figure with what the page shows around it: a title (above, in the page) and a caption."""

    title: str
    figure: Figure


def label(row: Row) -> str:
    """A row's name on a chart: the model, with "(paper)" for reported rows, escaped."""
    suffix = " (paper)" if row.kind == "reported" else ""
    return html.escape(row.model + suffix)


def distinct_labels(rows: Sequence[Row]) -> list[str]:
    """The rows' chart labels, each once: a row whose label another row of the figure shares is told apart by
    its source (a paper's table) or its submission. A category axis draws one label for equal names: two rows
    would sit on one line."""
    names = [label(r) for r in rows]
    return [
        f"{name} · {html.escape(r.source or r.submission_id or r.key.dataset_label)}" if names.count(name) > 1 else name
        for name, r in zip(names, rows, strict=True)
    ]


def scale(unit: str) -> float:
    return 100.0 if unit in ("percent", "points") else 1.0


def _value(row: Row, path: str, unit: str) -> float | None:
    value = row.metrics.get(path)
    return None if value is None else value * scale(unit)


def _layout(**extra: Any) -> dict[str, Any]:
    # no plotly title (the page has it above the figure); legend below the plot
    # the legend sits at the bottom of the figure's container, under the axis title, never over the plot
    return {
        "font": FONT,
        "margin": {"l": 60, "r": 20, "t": 30, "b": 110},
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        **extra,
    }


def top_rows(rows: Sequence[Row], limit: int = MAX_SERIES) -> list[Row]:
    """The best rows by their headline (rows without one last), at most `limit`."""

    def key(row: Row) -> tuple[bool, float]:
        value = headline(row)
        return (value is None, -(value or 0.0))

    return sorted(rows, key=key)[:limit]


def axis_title(text: str, unit: str) -> str:
    suffix = {"percent": " (%)", "points": " (points)"}.get(unit, "")
    return html.escape(text) + ("" if text.endswith(")") else suffix)


def dot_interval(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    shown = top_rows([r for r in rows if any(r.metrics.get(s.path) is not None for s in spec.series)], limit=20)
    if not shown:
        return []
    names = distinct_labels(shown)
    traces = []
    for index, series in enumerate(spec.series):
        xs: list[float | None] = []
        plus: list[float] = []
        minus: list[float] = []
        for row in shown:
            value = _value(row, series.path, spec.unit)
            lo = _value(row, f"{series.ci_path}.0", spec.unit) if series.ci_path else None
            hi = _value(row, f"{series.ci_path}.1", spec.unit) if series.ci_path else None
            xs.append(value)
            plus.append(hi - value if value is not None and hi is not None else 0.0)
            minus.append(value - lo if value is not None and lo is not None else 0.0)
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": html.escape(series.label),
                "x": xs,
                "y": names,
                "marker": {"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 10},
                "error_x": {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "visible": True},
            }
        )
    layout = _layout(
        xaxis={"title": {"text": axis_title(spec.x_title or spec.title, spec.unit)}, "zeroline": True},
        yaxis={"automargin": True, "autorange": "reversed"},
        height=max(260, 110 + 28 * len(shown)),
    )
    return [{"data": traces, "layout": layout}]


def scatter(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    shown = top_rows(rows)
    factor = scale(spec.unit)
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "no change",
            "x": [0, factor],
            "y": [0, factor],
            "line": {"dash": "dash", "color": GREY},
            "hoverinfo": "skip",
        }
    ]
    for index, series in enumerate(spec.series):
        assert series.x_path is not None
        points = [(_value(r, series.x_path, spec.unit), _value(r, series.path, spec.unit), r) for r in shown]
        points = [p for p in points if p[0] is not None and p[1] is not None]
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": html.escape(series.label),
                "x": [p[0] for p in points],
                "y": [p[1] for p in points],
                "text": [label(p[2]) for p in points],
                "hovertemplate": "%{text}<br>%{x:.1f} → %{y:.1f}<extra>" + html.escape(series.label) + "</extra>",
                "marker": {"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 10},
            }
        )
    layout = _layout(
        xaxis={"title": {"text": axis_title(spec.x_title, spec.unit)}, "range": [0, factor]},
        yaxis={"title": {"text": axis_title(spec.y_title, spec.unit)}, "range": [0, factor]},
        height=460,
    )
    return [{"data": traces, "layout": layout}]


def by_setting(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    """The metric across the setting's values, one line per model (the best MAX_SERIES by their best value),
    the next MAX_CONTEXT_LINES models' lines in grey without a legend entry. The rows given differ in that
    setting alone."""
    assert spec.setting is not None
    series = spec.series[0]
    # The caller gives one protocol (the board but its plotted setting) per call.
    figures = []
    lines: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        x = getattr(row.key, spec.setting, None)
        y = _value(row, series.path, spec.unit)
        if x is None or y is None:
            continue
        lines.setdefault(label(row), []).append((float(x), y))
    ranked = sorted(lines, key=lambda name: -max(y for _, y in lines[name]))[: MAX_SERIES + MAX_CONTEXT_LINES]
    traces = []
    for index, name in enumerate(ranked):
        points = sorted(lines[name])
        highlighted = index < MAX_SERIES
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": name if highlighted else "others",
                "showlegend": highlighted,
                "x": [p[0] for p in points],
                "y": [p[1] for p in points],
                "line": {"dash": DASHES[index % len(DASHES)]} if highlighted else {"color": GREY, "width": 1},
                "marker": {"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 7} if highlighted else {"size": 4},
                "opacity": 1.0 if highlighted else 0.5,
            }
        )
    if traces:
        layout = _layout(
            xaxis={"title": {"text": html.escape(spec.x_title or spec.setting)}},
            yaxis={"title": {"text": axis_title(spec.y_title or series.label, spec.unit)}, "range": [0, 100]},
            height=420,
        )
        figures.append({"data": traces, "layout": layout})
    return figures


def heatmap(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    # rows with none of the series (a paper that printed the headline only) have nothing to show: a board of
    # such rows has no heatmap at all, rather than an empty one
    shown = top_rows([r for r in rows if any(r.metrics.get(s.path) is not None for s in spec.series)], limit=20)
    if not shown:
        return []
    z = [[_value(r, s.path, spec.unit) for s in spec.series] for r in shown]
    # one board per heatmap (its heading names it): the rows are named by their model alone; the board's long
    # title on every row once squeezed the plot to a sliver
    names = distinct_labels(shown)
    trace = {
        "type": "heatmap",
        "x": [html.escape(s.label) for s in spec.series],
        "y": names,
        "z": z,
        "zmin": 0,
        "zmax": scale(spec.unit),
        "colorscale": "Greys",
        "texttemplate": "%{z:.1f}",
        "hovertemplate": "%{y}<br>%{x}: %{z:.1f}<extra></extra>",
        "colorbar": {"title": {"text": "%" if spec.unit == "percent" else ""}, "thickness": 12},
    }
    # the column labels below the plot: above it, turned upright on a narrow screen, they ran under plotly's
    # toolbar
    layout = _layout(
        xaxis={"automargin": True},
        yaxis={"automargin": True, "autorange": "reversed"},
        height=max(300, 140 + 26 * len(shown)),
    )
    return [{"data": [trace], "layout": layout}]


def bars(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    """One small multiple per facet: the series as categories, one patterned bar per model (the best ones)."""
    figures = []
    for facet in spec.facets or ("",):
        traces = []
        index = 0
        for row in top_rows(rows):
            ys = [_value(row, s.path.replace("{facet}", facet), spec.unit) for s in spec.series]
            if all(y is None for y in ys):
                continue
            traces.append(
                {
                    "type": "bar",
                    "name": label(row),
                    "x": [html.escape(s.label) for s in spec.series],
                    "y": ys,
                    "marker": {"pattern": {"shape": PATTERNS[index % len(PATTERNS)]}, "line": {"width": 1}},
                }
            )
            index += 1
        if traces:
            layout = _layout(
                barmode="group",
                yaxis={"title": {"text": axis_title(spec.y_title, spec.unit)}, "range": [0, scale(spec.unit) * 1.05]},
                height=420,
            )
            figures.append({"data": traces, "layout": layout, "facet": facet})
    return figures


KINDS = {"dot_interval": dot_interval, "scatter": scatter, "by_setting": by_setting, "heatmap": heatmap, "bars": bars}


def figures(rows: Sequence[Row], spec: ChartSpec) -> list[Figure]:
    """The figures of one chart spec for these rows (several for small multiples)."""
    return KINDS[spec.kind](rows, spec)


def profile_bars(entries: list[tuple[str, float, str]], title: str) -> Figure:
    """A model's headline figures across benchmarks (label, value in its unit, unit), as labelled bars."""
    trace = {
        "type": "bar",
        "orientation": "h",
        "x": [v * scale(u) for _, v, u in entries],
        "y": [html.escape(k) for k, _, _ in entries],
        "text": [f"{v * scale(u):.1f}" for _, v, u in entries],
        "textposition": "outside",
        "marker": {"pattern": {"shape": "/"}, "line": {"width": 1}},
        "name": "headline",
    }
    layout = _layout(yaxis={"automargin": True, "autorange": "reversed"}, height=max(220, 80 + 36 * len(entries)))
    return {"data": [trace], "layout": layout}


def size_against_score(columns: Sequence[tuple[str, str, Sequence[tuple[Row, str]]]]) -> list[dict[str, Any]]:
    """Per profile column (benchmark and data release), each cell of the profile's table against the model's size
    in parameters (log scale): exactly the cells the table shows, paper rows marked apart. Models of unknown or
    zero size are left out (the table has them)."""
    from ..evaluator.core.registry import get_benchmark

    out = []
    for index_column, (task, dataset_label, cells) in enumerate(columns):
        headline_display = get_benchmark(task).display.headline
        points_of = [(row, name) for row, name in cells if row.parameters and headline(row) is not None]
        if not points_of:
            continue
        traces = []
        for index, kind in enumerate(("verified", "reported")):
            points = [row for row, _ in points_of if (row.kind == "reported") == (kind == "reported")]
            if not points:
                continue
            traces.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "name": "scored by NegHub" if kind == "verified" else "reported in a paper",
                    "x": [r.parameters for r in points],
                    "y": [_value(r, headline_display.path, headline_display.unit) for r in points],
                    "text": [label(r) for r in points],
                    "hovertemplate": "%{text}<br>%{x:.3s} parameters: %{y:.1f}<extra></extra>",
                    "marker": {"symbol": SYMBOLS[index], "size": 9},
                }
            )
        layout = _layout(
            # a tick at each power of ten alone: plotly's default log ticks repeat "2" and "5" in every decade
            xaxis={"title": {"text": "parameters (log scale)"}, "type": "log", "dtick": 1},
            yaxis={"title": {"text": axis_title(headline_display.label, headline_display.unit)}},
            height=380,
        )
        out.append(
            {
                "id": f"chart-profile-{task}-{index_column}",
                "title": f"{get_benchmark(task).display.name} — {dataset_label}",
                "figure": {"data": traces, "layout": layout},
            }
        )
    return out
