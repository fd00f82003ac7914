"""Downloads people load in one line.

- `data/<board>.csv` and `data/<board>.json`: one board, one row per model, every figure as a column
  (fractions). The JSON is a list of flat records: `pandas.read_json(path)` loads it as it is.
- `data/results-long.csv` and `data/results-long.parquet`: every row and metric of the site in tidy long
  format (one line per board, model and metric), with the trust level, the dataset's identity, the
  interval bounds and the unit: `pandas.read_csv` / `pandas.read_parquet` in one call.
Text cells that a spreadsheet would run as a formula (starting with = + - @) are quoted with '.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from ..evaluator.core.registry import get_benchmark
from .boards import Board
from .collect import Leaderboard, Row, headline

LONG_COLUMNS = (
    "task",
    "board",
    "board_title",
    "dataset",
    "is_sample",
    "split",
    "mode",
    "shots",
    "prompt",
    "chat_template",
    "model",
    "submission_id",
    "source",
    "trust",
    "rank_low",
    "rank_high",
    "unranked",
    "parameters",
    "n_runs",
    "metric",
    "label",
    "unit",
    "value",
    "ci_low",
    "ci_high",
    "sd",
)
_FORMULA = re.compile(r"^[=+\-@\t\r]")


def _number(value: Any) -> Any:
    """A figure as the downloads write it: a whole number as an integer (`1177`, not `1177.0`). The rows hold
    means over runs, floats even for counts; written as floats, a column of counts loaded from a board's CSV as
    floats and from its JSON as integers (pandas), 541 columns of the site's boards typed two ways."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _csv_safe(value: Any) -> Any:
    # a spreadsheet would run a cell starting with = + - @ as a formula; text cells are quoted with '
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


def record(row: Row) -> dict[str, Any]:
    """One row of a board as a flat record (the per-board downloads)."""
    benchmark = get_benchmark(row.task)
    return {
        "task": row.task,
        "board": row.key.slug,
        "dataset": row.key.dataset_label,
        "model": row.model,
        "submission_id": row.submission_id,
        "source": row.source,
        "trust": row.trust,
        "reproduction": row.reproduction,
        "rank_low": None if row.rank_range is None else row.rank_range[0],
        "rank_high": None if row.rank_range is None else row.rank_range[1],
        "unranked": row.unranked,
        "parameters": row.parameters,
        "open_weights": row.open_weights,
        "n_runs": row.n_runs,
        "headline_metric": benchmark.display.headline.path,
        "headline": _number(headline(row)),
        "predictions_sha256": ";".join(str(p.get("predictions_sha256")) for p in row.provenance) or None,
        **{f"metric.{path}": _number(value) for path, value in sorted(row.metrics.items())},
        **{f"sd.{path}": _number(value) for path, value in sorted(row.sd.items())},
    }


def board_csv(rows: list[Row]) -> str:
    records = [record(r) for r in rows]
    columns = list(dict.fromkeys(key for rec in records for key in rec))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for rec in records:
        writer.writerow([_csv_safe(rec.get(c)) if rec.get(c) is not None else "" for c in columns])
    return out.getvalue()


def board_json(rows: list[Row]) -> str:
    return json.dumps([record(r) for r in rows], ensure_ascii=False, indent=1) + "\n"


def long_records(tables: dict[Board, list[Row]]) -> list[dict[str, Any]]:
    """Every row and metric, one record each (tidy long format)."""
    out: list[dict[str, Any]] = []
    for board, rows in tables.items():
        display = get_benchmark(board.task).display
        shown = {c.path: c for c in display.columns} | {display.headline.path: display.headline}
        for row in rows:
            for path, value in sorted(row.metrics.items()):
                if path.endswith((".0", ".1")) and path.rsplit(".", 1)[0].endswith("_ci95"):
                    continue  # interval bounds are columns of their metric
                column = shown.get(path)
                ci_path = column.ci_path if column is not None else None
                out.append(
                    {
                        "task": board.task,
                        "board": board.slug,
                        "board_title": board.title,
                        "dataset": board.dataset_label,
                        "is_sample": board.is_sample,
                        "split": board.split,
                        "mode": board.mode,
                        "shots": board.shots,
                        "prompt": board.prompt,
                        "chat_template": board.chat_template,
                        "model": row.model,
                        "submission_id": row.submission_id,
                        "source": row.source,
                        "trust": row.trust,
                        "rank_low": None if row.rank_range is None else row.rank_range[0],
                        "rank_high": None if row.rank_range is None else row.rank_range[1],
                        "unranked": row.unranked,
                        "parameters": row.parameters,
                        "n_runs": row.n_runs,
                        "metric": path,
                        "label": column.label if column is not None else path,
                        "unit": column.unit if column is not None else "",
                        "value": _number(value),
                        "ci_low": _number(row.metrics.get(f"{ci_path}.0")) if ci_path else None,
                        "ci_high": _number(row.metrics.get(f"{ci_path}.1")) if ci_path else None,
                        "sd": _number(row.sd.get(path)),
                    }
                )
    return out


def long_csv(records: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LONG_COLUMNS)
    for rec in records:
        writer.writerow([_csv_safe(rec[c]) if rec[c] is not None else "" for c in LONG_COLUMNS])
    return out.getvalue()


def long_parquet(records: list[dict[str, Any]]) -> bytes:
    import pandas as pd

    frame = pd.DataFrame.from_records(records, columns=list(LONG_COLUMNS))
    for column in ("shots", "rank_low", "rank_high", "parameters", "n_runs"):
        frame[column] = frame[column].astype("Int64")  # integers with gaps, not floats
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def files(board: Leaderboard, tables: dict[Board, list[Row]]) -> dict[str, str | bytes]:
    out: dict[str, str | bytes] = {}
    for key, rows in tables.items():
        out[f"data/{key.slug}.csv"] = board_csv(rows)
        out[f"data/{key.slug}.json"] = board_json(rows)
    records = long_records(tables)
    out["data/results-long.csv"] = long_csv(records)
    out["data/results-long.parquet"] = long_parquet(records)
    return out
