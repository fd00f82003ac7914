"""Plotly figures as plain JSON specifications (rendered in the browser by the site's own plotly.js).

Every figure is readable without colour: traces differ by marker symbol, line dash or bar
pattern, and values are printed as labels. Text that came from a submitter or a paper is
HTML-escaped, because plotly renders a few tags (<b>, <a>) in its labels. Each chart has a table
with the same numbers on its page (built by `leaderboard.pages`).
"""

from __future__ import annotations

import html
from typing import Any

from neghub.leaderboard.collect import SCN_HIGH, SCN_LOW, Row

Figure = dict[str, Any]
SYMBOLS = ("circle", "square-open", "diamond", "triangle-up-open", "x", "star-open", "cross", "hexagon-open")
PATTERNS = ("", "/", "\\", "x", ".", "-", "|", "+")
DASHES = {"completion": "solid", "option": "dot"}
FONT = {"family": "system-ui, sans-serif", "size": 12}


def label(row: Row) -> str:
    """A row's name on a chart: the model, with "(reported)" for paper rows, escaped."""
    suffix = " (reported)" if row.kind == "reported" else ""
    return html.escape(row.model + suffix)


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    return {
        "title": {"text": html.escape(title)},
        "font": FONT,
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        **extra,
    }


def accchg_dot_plot(rows: list[Row], title: str) -> Figure:
    """AccChg on M_i and M_u per model, with the 95% bootstrap interval where NegHub computed it."""
    names = [label(r) for r in rows]
    traces = []
    for index, (pair_set, name) in enumerate((("M_i", "M_i (gold changes)"), ("M_u", "M_u (gold unchanged)"))):
        xs: list[float | None] = []
        plus: list[float] = []
        minus: list[float] = []
        for row in rows:
            value = row.metrics.get(f"pair_metrics.{pair_set}.acc_chg")
            lo = row.metrics.get(f"pair_metrics.{pair_set}.acc_chg_ci95.0")
            hi = row.metrics.get(f"pair_metrics.{pair_set}.acc_chg_ci95.1")
            xs.append(value)
            plus.append(hi - value if value is not None and hi is not None else 0.0)
            minus.append(value - lo if value is not None and lo is not None else 0.0)
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": name,
                "x": xs,
                "y": names,
                "marker": {"symbol": SYMBOLS[index], "size": 10},
                "error_x": {"type": "data", "symmetric": False, "array": plus, "arrayminus": minus, "visible": True},
            }
        )
    layout = _layout(
        title,
        xaxis={"title": {"text": "AccChg = Acc′ − Acc (negative: worse with the added negation)"}, "zeroline": True},
        yaxis={"automargin": True, "autorange": "reversed"},
        height=max(260, 60 + 28 * len(rows)),
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
    )
    return {"data": traces, "layout": layout}


def acc_vs_acc_prime(rows: list[Row], title: str) -> Figure:
    """Acc (control) against Acc′ (treatment) on M_i and M_u; below the diagonal the negation hurt."""
    traces: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "Acc′ = Acc",
            "x": [0, 1],
            "y": [0, 1],
            "line": {"dash": "dash", "color": "#888"},
            "hoverinfo": "skip",
        }
    ]
    for index, pair_set in enumerate(("M_i", "M_u")):
        points = [
            (r.metrics.get(f"pair_metrics.{pair_set}.acc"), r.metrics.get(f"pair_metrics.{pair_set}.acc_prime"), r)
            for r in rows
        ]
        points = [p for p in points if p[0] is not None and p[1] is not None]
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": pair_set,
                "x": [p[0] for p in points],
                "y": [p[1] for p in points],
                "text": [label(p[2]) for p in points],
                "hovertemplate": "%{text}<br>Acc %{x:.1%}<br>Acc′ %{y:.1%}<extra>" + pair_set + "</extra>",
                "marker": {"symbol": SYMBOLS[index], "size": 10},
            }
        )
    layout = _layout(
        title,
        xaxis={"title": {"text": "Acc (control)"}, "range": [0, 1], "tickformat": ".0%"},
        yaxis={"title": {"text": "Acc′ (with the added negation)"}, "range": [0, 1], "tickformat": ".0%"},
        height=460,
    )
    return {"data": traces, "layout": layout}


def nubench_by_shots(rows: list[Row], title: str) -> Figure:
    """Accuracy against the number of shots, one line per model, source and mode (dash = mode)."""
    series: dict[tuple[str, str, str], list[tuple[int, float, float | None]]] = {}
    for row in rows:
        acc = row.metrics.get("acc")
        if acc is None or row.key.shots is None or row.key.mode is None or row.key.fine_tuned:
            continue
        source = row.source or row.submission_id or ""
        series.setdefault((label(row), row.key.mode, source), []).append((row.key.shots, acc, row.sd.get("acc")))
    traces = []
    for index, ((name, mode, _source), points) in enumerate(sorted(series.items())):
        points.sort()
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": f"{name} · {mode}",
                "x": [p[0] for p in points],
                "y": [p[1] for p in points],
                "error_y": {"type": "data", "array": [p[2] or 0.0 for p in points], "visible": True},
                "line": {"dash": DASHES.get(mode, "dash")},
                "marker": {"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 8},
            }
        )
    layout = _layout(
        title,
        xaxis={"title": {"text": "shots"}, "tickvals": [0, 1, 5, 10]},
        yaxis={"title": {"text": "accuracy"}, "tickformat": ".0%", "range": [0, 1]},
        height=520,
    )
    return {"data": traces, "layout": layout}


CHOICE2_TYPES = ("relative_part", "pp_part", "adverb_part", "compound_part")


def nubench_confusion_heatmap(rows: list[Row], title: str) -> Figure:
    """Local-negation confusion rate per choice2_type, one line per row; the values are printed in the cells."""
    z = [[r.metrics.get(f"confusion_rate.{t}") for t in CHOICE2_TYPES] for r in rows]
    names = [f"{label(r)} · {r.key.mode or ''} · {r.key.shots}-shot" for r in rows]
    trace = {
        "type": "heatmap",
        "x": list(CHOICE2_TYPES),
        "y": names,
        "z": z,
        "zmin": 0,
        "zmax": 1,
        "colorscale": "Greys",
        "reversescale": False,
        "texttemplate": "%{z:.1%}",
        "hovertemplate": "%{y}<br>%{x}: %{z:.1%}<extra></extra>",
        "colorbar": {"tickformat": ".0%", "title": {"text": "rate"}},
    }
    layout = _layout(
        title,
        xaxis={"title": {"text": "choice2_type (kind of local negation)"}, "side": "top"},
        yaxis={"automargin": True, "autorange": "reversed"},
        height=max(300, 120 + 26 * len(rows)),
    )
    return {"data": [trace], "layout": layout}


SCN_PATTERNS = (*SCN_HIGH, *SCN_LOW)


def scn_drops(rows: list[Row], variants: tuple[str, ...], title: str) -> Figure:
    """Drops per pattern, one bar group per model and variant (bars patterned and labelled); the pass
    criterion is drawn as two shaded regions: CpTn/CnTp should drop a lot, CnTn/CpTv little."""
    traces = []
    index = 0
    for row in rows:
        for variant in variants:
            ys = [row.metrics.get(f"variants.{variant}.patterns.{p}.drop") for p in SCN_PATTERNS]
            if all(y is None for y in ys):
                continue
            traces.append(
                {
                    "type": "bar",
                    "name": f"{label(row)} · {variant}",
                    "x": list(SCN_PATTERNS),
                    "y": ys,
                    "text": [None if y is None else f"{y:.1%}" for y in ys],
                    "textposition": "outside",
                    "marker": {"pattern": {"shape": PATTERNS[index % len(PATTERNS)]}, "line": {"width": 1}},
                }
            )
            index += 1
    shapes = [
        {
            "type": "rect",
            "xref": "x",
            "yref": "paper",
            "x0": -0.5,
            "x1": 1.5,
            "y0": 0,
            "y1": 1,
            "fillcolor": "rgba(0,0,0,0.06)",
            "line": {"width": 0},
            "layer": "below",
        },
        {
            "type": "rect",
            "xref": "x",
            "yref": "paper",
            "x0": 1.5,
            "x1": 3.5,
            "y0": 0,
            "y1": 1,
            "fillcolor": "rgba(0,0,0,0)",
            "line": {"width": 1, "dash": "dot"},
            "layer": "below",
        },
    ]
    annotations = [
        {
            "x": 0.5,
            "y": 1.04,
            "xref": "x",
            "yref": "paper",
            "showarrow": False,
            "text": "to pass: drop a lot (negation understood)",
        },
        {
            "x": 2.5,
            "y": 1.04,
            "xref": "x",
            "yref": "paper",
            "showarrow": False,
            "text": "to pass: drop little (controls)",
        },
    ]
    layout = _layout(
        title,
        barmode="group",
        shapes=shapes,
        annotations=annotations,
        xaxis={"title": {"text": "pattern"}},
        yaxis={"title": {"text": "drop of %-ACT-repetition"}, "tickformat": ".0%", "range": [0, 1.15]},
        height=520,
    )
    layout["margin"]["t"] = 80
    return {"data": traces, "layout": layout}


def profile_bars(entries: list[tuple[str, float]], title: str) -> Figure:
    """A model's headline figures across benchmarks, as labelled horizontal bars."""
    trace = {
        "type": "bar",
        "orientation": "h",
        "x": [v for _, v in entries],
        "y": [html.escape(k) for k, _ in entries],
        "text": [f"{v:.1%}" for _, v in entries],
        "textposition": "outside",
        "marker": {"pattern": {"shape": "/"}, "line": {"width": 1}},
        "name": "headline",
    }
    layout = _layout(
        title,
        xaxis={"tickformat": ".0%", "range": [min(0.0, *(v for _, v in entries)) - 0.05, 1.1]},
        yaxis={"automargin": True, "autorange": "reversed"},
        height=max(220, 80 + 36 * len(entries)),
    )
    return {"data": [trace], "layout": layout}
