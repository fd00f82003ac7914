"""The negation profile: every model against every benchmark and data release, one row per model."""

from __future__ import annotations

import math
from typing import Any

import jinja2

from ..evaluator.core.registry import benchmark_names, get_benchmark
from . import charts
from .board_order import STATUS_ORDER
from .boards import Board
from .collect import Leaderboard
from .facts import Row
from .page_rows import ROWS_IN_PAGE, STATUS_WORDS, TRUST_LABELS, fmt, size_text, unit_suffix
from .page_words import key_line
from .paper_results import computed_flags
from .verdicts import headline

# (task, dataset identity, fine-tuning): the sample never shares a column with the full test, nor a fine-tuned
# classifier's cell a zero-shot one
ProfileColumn = tuple[str, str, str]


def profile_column(key: Board) -> ProfileColumn:
    tuning = ("fine-tuned on " + key.fine_tuned_on) if key.fine_tuned_on else ("fine-tuned" if key.fine_tuned else "")
    return (key.task, key.dataset, tuning)


def profile_columns(board: Leaderboard) -> dict[ProfileColumn, dict[str, Any]]:
    """One column per benchmark and data release, each with its default board: the leader's where the leader is
    on this data, else the board with the most ranked rows, then the most NegHub rows, then the most rows."""
    tables = board.tables()
    columns: dict[ProfileColumn, dict[str, Any]] = {}
    for key, rows in tables.items():
        if not any(headline(r) is not None for r in rows):
            continue
        column_key = profile_column(key)
        label = key.dataset_label + (f" · {column_key[2]}" if column_key[2] else "")
        column = columns.setdefault(
            column_key,
            {"task": key.task, "label": label, "boards": [], "scored": False, "is_sample": key.is_sample},
        )
        column["boards"].append(key)
        column["scored"] = column["scored"] or any(r.kind == "verified" for r in rows)
    order = benchmark_names()
    ordered = dict(
        sorted(
            columns.items(), key=lambda item: (order.index(item[1]["task"]), not item[1]["scored"], item[1]["label"])
        )
    )
    for (task, _, _), column in ordered.items():
        leader = board.leaders.get(task)
        on_leader = [key for key in column["boards"] if leader is not None and key.slug == leader.board]
        if on_leader:
            column["default"] = on_leader[0]
            continue

        def weight(key: Board) -> tuple[int, int, int]:
            rows = tables[key]
            ranked = sum(1 for r in rows if r.status == "ranked")
            return (ranked, sum(1 for r in rows if r.kind == "verified"), len(rows))

        column["default"] = max(column["boards"], key=weight)
    return ordered


PROFILE_ROWS = "data/rows/profile.html"  # the profile's rows past the first ROWS_IN_PAGE, loaded when asked


def profile_page(env: jinja2.Environment, board: Leaderboard, files: dict[str, str | bytes]) -> str:
    """Models by benchmark and data release: each cell the model's headline on the column's default board (or, where
    the model has no row there, on its best other board of that data, named in the cell), with its interval and
    trust level; paper rows marked. The charts plot exactly these cells.

    One model the papers spell two ways ("GPT-4.1-mini", "gpt-4.1-mini") is one row: a paper row is the model's
    whatever its case; NegHub's rows stay one per submission (each pins its own weights). A column with no figure in
    any row is left out, and the models with the most columns come first, so that the rows on the page fill the
    columns they show."""
    all_columns = profile_columns(board)
    tables = board.tables()
    by_model: dict[tuple[str, str], dict[ProfileColumn, list[Row]]] = {}
    names: dict[tuple[str, str], str] = {}
    for key, rows in tables.items():
        if profile_column(key) not in all_columns:
            continue
        for row in rows:
            if row.kind == "reference":
                continue  # the profile is of models: a board's baselines are on its benchmark's page
            owner = (row.model.casefold(), "paper") if row.kind == "reported" else (row.model, row.submission_id or "")
            names.setdefault(owner, row.model)
            by_model.setdefault(owner, {}).setdefault(profile_column(key), []).append(row)
    filled = {
        c for found in by_model.values() for c, rows in found.items() if any(headline(r) is not None for r in rows)
    }
    columns = {key: column for key, column in all_columns.items() if key in filled}
    table = []
    cells_for_charts: dict[ProfileColumn, list[tuple[Row, str]]] = {c: [] for c in columns}
    for owner, found in by_model.items():
        model, sid = names[owner], owner[1]
        reported = sid == "paper"
        papers = sorted({get_benchmark(r.task).display.name for rows in found.values() for r in rows})
        entry: dict[str, Any] = {
            "model": model,
            "href": None if reported else f"models/{sid}.html",
            "reported": reported,
            "source": f"the {', '.join(papers)} {'paper' if len(papers) == 1 else 'papers'}" if reported else None,
            "cells": [],
        }
        parameters = None
        for column_key, column in columns.items():
            candidates = [r for r in found.get(column_key, []) if headline(r) is not None]
            if not candidates:
                entry["cells"].append(None)
                continue
            on_default = [r for r in candidates if r.key == column["default"]]
            row = min(on_default or candidates, key=_preference)
            parameters = parameters or row.parameters
            display = get_benchmark(row.task).display
            unit = display.headline.unit
            ci = row.headline_ci
            value = headline(row)
            cells_for_charts[column_key].append((row, model))
            entry["cells"].append(
                {
                    "value": fmt(value, unit),
                    "sort": "" if value is None else repr(value),
                    "ci": None if ci is None else f"[{fmt(ci[0], unit)}, {fmt(ci[1], unit)}]",
                    "trust": TRUST_LABELS[row.trust],
                    "status": STATUS_WORDS[row.status],
                    "tags": row.tags,
                    "board": row.key.protocol,
                    "other_board": row.key != column["default"],
                    "flags": computed_flags(row, display.headline.path),  # as its benchmark's page says
                }
            )
        entry["size"] = size_text(parameters)
        entry["size_sort"] = "" if parameters is None else f"{parameters:015d}"
        table.append(entry)
    table = _rows_filling_every_column(table)
    scatter = charts.size_against_score(
        [(column["task"], column["label"], cells_for_charts[key]) for key, column in columns.items()]
    )
    if len(table) > ROWS_IN_PAGE:
        files[PROFILE_ROWS] = env.get_template("rows.html.j2").render(
            title="Negation profile", rows=table[ROWS_IN_PAGE:], row_macro="profile_row"
        )
    heads = [
        f"{get_benchmark(column['task']).display.name}: {get_benchmark(column['task']).display.headline.label}"
        for column in columns.values()
    ]
    return env.get_template("profile.md.j2").render(
        title="Negation profile",
        columns=[
            {
                "display": get_benchmark(column["task"]).display,
                "label": column["label"],
                "default": column["default"].protocol,
                "unit": unit_suffix(get_benchmark(column["task"]).display.headline.unit),
            }
            for column in columns.values()
        ],
        table=table[:ROWS_IN_PAGE],
        total=len(table),
        more_url=PROFILE_ROWS if len(table) > ROWS_IN_PAGE else None,
        scatter=scatter,
        key=key_line(*heads),
        base="",
    )


def _rows_filling_every_column(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The profile's rows in page order: the models with the most columns first (NegHub's before the papers' at a
    tie), and among the ROWS_IN_PAGE the page carries, one row at least of every column, so that no column it
    shows is "n/a" all the way down."""

    def order(entry: dict[str, Any]) -> tuple[int, bool, str]:
        return (-sum(1 for c in entry["cells"] if c is not None), entry["reported"], entry["model"].lower())

    ordered = sorted(table, key=order)
    shown: list[dict[str, Any]] = []
    for index in range(len(ordered[0]["cells"]) if ordered else 0):
        if not any(e["cells"][index] is not None for e in shown):
            shown += [e for e in ordered if e["cells"][index] is not None][:1]
    shown += [e for e in ordered if e not in shown][: max(0, ROWS_IN_PAGE - len(shown))]
    shown.sort(key=order)
    return shown + [e for e in ordered if e not in shown]


def _preference(row: Row) -> tuple[int, int, float]:
    """Which of a model's rows of one data release the profile shows: ranked first, then NegHub's other rows,
    then the paper's; the better rank, then the better headline (never the board's title or a name)."""
    group = STATUS_ORDER[row.status]
    value = headline(row)
    sign = 1.0 if get_benchmark(row.task).display.headline.higher_is_better else -1.0
    return (group, row.rank or 0, -sign * value if value is not None else math.inf)
