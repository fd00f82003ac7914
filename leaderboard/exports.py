"""Downloads people load in one line.

- `data/<board>.csv` and `data/<board>.json`: one board, one row per model, every figure as a column
  (fractions). The JSON is a list of flat records: `pandas.read_json(path)` loads it as it is.
- `data/results-long.parquet`: every row and metric of the site in tidy long format (one record per board,
  model and metric), with the trust level, the status, the dataset's identity, the interval bounds and the
  unit: `pandas.read_parquet` in one call. (No CSV of it: at a thousand submissions it is a million lines, and a
  board's own CSV is the spreadsheet's file.)
Every record carries the rules version its status and rank were given under (`rules_version`, verdicts.py;
the site's Ranking rules page dates each version), and the licence of the data it was scored on.
Text cells that a spreadsheet would run as a formula (starting with = + - @) are quoted with '.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from .boards import Board
from .collect import Leaderboard, Row, headline
from .verdicts import RULES_VERSION

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
    "fine_tuned_on",
    "test",
    "seeds",
    "seed",
    "model",
    "submission_id",
    "source",
    "trust",
    "status",
    "rank_low",
    "rank_high",
    "unranked",
    "holds",
    "rules_version",
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
        **verdict_fields(row),
        "confirmed_by": "; ".join(row.confirmed_by) or None,
        "floor_comparison": row.floor_comparison,
        "identity": row.identity,
        "fine_tuned_on": row.key.fine_tuned_on,
        "test": row.key.test,
        "seeds": row.key.seeds,
        "seed": _seed(row),
        "dataset_licence": str(benchmark.metadata.license),
        "dataset_licence_terms": getattr(benchmark.metadata, "license_terms", None),
        "parameters": row.parameters,
        "open_weights": row.open_weights,
        "n_runs": row.n_runs,
        "headline_metric": benchmark.display.headline.path,
        "headline": _number(headline(row)),
        "predictions_sha256": ";".join(str(p.get("predictions_sha256")) for p in row.provenance) or None,
        **{f"metric.{path}": _number(value) for path, value in sorted(row.metrics.items())},
        **{f"sd.{path}": _number(value) for path, value in sorted(row.sd.items())},
    }


def verdict_fields(row: Row) -> dict[str, Any]:
    """What verdicts.py decided of a row, as download columns, with the rules version it was decided under."""
    return {
        "status": row.status,
        "rank_low": None if row.rank_range is None else row.rank_range[0],
        "rank_high": None if row.rank_range is None else row.rank_range[1],
        "unranked": row.unranked,
        "holds": "; ".join(h.reason for h in row.holds) or None,
        "rules_version": RULES_VERSION,
    }


def _seed(row: Row) -> int | None:
    """The seed of a single-run row (a paper's printed seed, or the run's): kept, though boards group by count."""
    seed = row.setting.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    seeds = [p.get("seed") for p in row.provenance]
    return seeds[0] if len(seeds) == 1 and isinstance(seeds[0], int) else None


def board_csv(rows: list[Row], records: list[dict[str, Any]] | None = None) -> str:
    records = [record(r) for r in rows] if records is None else records
    columns = list(dict.fromkeys(key for rec in records for key in rec))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for rec in records:
        writer.writerow([_csv_safe(rec.get(c)) if rec.get(c) is not None else "" for c in columns])
    return out.getvalue()


def board_json(rows: list[Row], records: list[dict[str, Any]] | None = None) -> str:
    """The board as a JSON list of flat records, one per line (compact: a board of 1,000 rows is read, not browsed)."""
    records = [record(r) for r in rows] if records is None else records
    return "[\n" + ",\n".join(json.dumps(rec, ensure_ascii=False) for rec in records) + "\n]\n"


ROW_COLUMNS = LONG_COLUMNS[: LONG_COLUMNS.index("metric")]  # what a long record repeats of its row
METRIC_COLUMNS = LONG_COLUMNS[LONG_COLUMNS.index("metric") :]
INTEGER_COLUMNS = ("shots", "seeds", "seed", "rank_low", "rank_high", "parameters", "n_runs")


def long_table(tables: dict[Board, list[Row]]) -> Any:
    """Every row and metric, one record each (tidy long format), as an Arrow table of LONG_COLUMNS.

    At 1,000 submissions that is about a million records, most of whose columns repeat their row's fields: a row's
    text fields are dictionary-encoded (one entry per row, an index per record: pandas reads them as categories),
    its numbers taken by index, and the metrics built as columns in one pass, so that nothing is repeated in
    memory or in the file."""
    import pyarrow as pa

    row_values: dict[str, list[Any]] = {name: [] for name in ROW_COLUMNS}
    # rows with the same metrics (every NegHub row of a task) are one block: a matrix of their values, so that a
    # million records are a few numpy arrays, not a million Python objects
    blocks: dict[tuple[str, tuple[str, ...]], list[tuple[int, Row]]] = {}
    for board, rows in tables.items():
        for row in rows:
            index = len(row_values["task"])
            for name, value in _row_fields(board, row).items():
                row_values[name].append(value)
            paths = tuple(
                path
                for path in sorted(row.metrics)
                if not (path.endswith((".0", ".1")) and path.rsplit(".", 1)[0].endswith("_ci95"))
            )
            blocks.setdefault((board.task, paths), []).append((index, row))
    owner_parts: list[NDArray[np.int64]] = []
    path_parts: list[NDArray[np.int64]] = []
    numbers: dict[str, list[NDArray[np.float64]]] = {name: [] for name in ("value", "ci_low", "ci_high", "sd")}
    path_names: dict[str, int] = {}
    labels: list[str] = []
    units: list[str] = []
    for (task, paths), members in blocks.items():
        display = get_benchmark(task).display
        shown = {c.path: c for c in display.columns} | {display.headline.path: display.headline}
        codes = []
        for path in paths:
            if path not in path_names:
                column = shown.get(path)
                path_names[path] = len(path_names)
                labels.append(column.label if column is not None else path)
                units.append(column.unit if column is not None else "")
            codes.append(path_names[path])
        ci_paths = [shown[p].ci_path if p in shown else None for p in paths]
        owner_parts.append(np.repeat(np.array([i for i, _ in members], dtype=np.int64), len(paths)))
        path_parts.append(np.tile(np.array(codes, dtype=np.int64), len(members)))
        rows = [row for _, row in members]
        numbers["value"].append(_matrix([[row.metrics[p] for p in paths] for row in rows]))
        lows = [f"{c}.0" if c else "" for c in ci_paths]
        highs = [f"{c}.1" if c else "" for c in ci_paths]
        numbers["ci_low"].append(_matrix([[row.metrics.get(p) for p in lows] for row in rows]))
        numbers["ci_high"].append(_matrix([[row.metrics.get(p) for p in highs] for row in rows]))
        numbers["sd"].append(_matrix([[row.sd.get(p) for p in paths] for row in rows]))
    owner = np.concatenate(owner_parts) if owner_parts else np.zeros(0, dtype=np.int64)
    path_codes = np.concatenate(path_parts) if path_parts else np.zeros(0, dtype=np.int64)
    indices = pa.array(owner.astype(np.int32))
    arrays: dict[str, Any] = {}
    for name in ROW_COLUMNS:
        if name in INTEGER_COLUMNS:
            arrays[name] = pa.array(row_values[name], type=pa.int64()).take(indices)
        elif name == "is_sample":
            arrays[name] = pa.array(row_values[name], type=pa.bool_()).take(indices)
        else:
            arrays[name] = _repeated_text(row_values[name], indices)
    path_indices = pa.array(path_codes.astype(np.int32))
    arrays["metric"] = pa.DictionaryArray.from_arrays(path_indices, pa.array(list(path_names), type=pa.string()))
    arrays["label"] = pa.array(labels, type=pa.string()).take(path_indices).dictionary_encode()
    arrays["unit"] = pa.array(units, type=pa.string()).take(path_indices).dictionary_encode()
    for name, parts in numbers.items():
        values = np.concatenate(parts) if parts else np.zeros(0)
        arrays[name] = pa.array(values, type=pa.float64(), from_pandas=True)  # NaN: missing
    table = pa.table([arrays[name] for name in LONG_COLUMNS], names=list(LONG_COLUMNS))
    return table.replace_schema_metadata(_pandas_metadata(table))


def _pandas_metadata(table: Any) -> dict[bytes, bytes]:
    """The pandas metadata `read_parquet` restores dtypes from: the integer columns are nullable Int64 (a missing
    rank stays missing, and 3 stays 3, not 3.0), the text columns categories."""
    import pandas as pd
    import pyarrow as pa

    empty = pd.DataFrame(
        {
            field.name: pd.Series(
                dtype="Int64"
                if field.name in INTEGER_COLUMNS
                else ("category" if pa.types.is_dictionary(field.type) else field.type.to_pandas_dtype())
            )
            for field in table.schema
        }
    )
    metadata: dict[bytes, bytes] = pa.Schema.from_pandas(empty, preserve_index=False).metadata
    return metadata


def _matrix(cells: list[list[float | None]]) -> NDArray[np.float64]:
    """Rows of values (None: missing) as one flat float array, row by row (NaN where missing)."""
    return np.array(cells, dtype=np.float64).reshape(-1)


def _row_fields(board: Board, row: Row) -> dict[str, Any]:
    """What a long record repeats of its row (ROW_COLUMNS)."""
    return {
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
        "fine_tuned_on": board.fine_tuned_on,
        "test": board.test,
        "seeds": board.seeds,
        "seed": _seed(row),
        "model": row.model,
        "submission_id": row.submission_id,
        "source": row.source,
        "trust": row.trust,
        **verdict_fields(row),
        "parameters": row.parameters,
        "n_runs": row.n_runs,
    }


def _repeated_text(values: list[str | None], indices: Any) -> Any:
    """A text column whose record i holds values[indices[i]], dictionary-encoded: each distinct text once (a missing
    one as a null index, which Parquet stores; a null inside the dictionary it does not)."""
    import pyarrow as pa

    codes: dict[str, int] = {}
    per_row = [None if v is None else codes.setdefault(v, len(codes)) for v in values]
    dictionary = pa.array(list(codes), type=pa.string())
    return pa.DictionaryArray.from_arrays(pa.array(per_row, type=pa.int32()).take(indices), dictionary)


def long_frame(tables: dict[Board, list[Row]]) -> Any:
    """`long_table` as a pandas DataFrame (text columns as categories)."""
    return long_table(tables).to_pandas()


def long_records(tables: dict[Board, list[Row]]) -> list[dict[str, Any]]:
    """`long_table` as a list of records (None where a value is missing)."""
    return list(long_table(tables).to_pylist())


def long_parquet(table: Any) -> bytes:
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd")
    return buffer.getvalue()


def files(board: Leaderboard, tables: dict[Board, list[Row]]) -> dict[str, str | bytes]:
    out: dict[str, str | bytes] = {}
    for key, rows in tables.items():
        records = [record(r) for r in rows]
        out[f"data/{key.slug}.csv"] = board_csv(rows, records)
        out[f"data/{key.slug}.json"] = board_json(rows, records)
    out["data/results-long.parquet"] = long_parquet(long_table(tables))
    return out
