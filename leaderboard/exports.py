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
        "headline": headline(row),
        "predictions_sha256": ";".join(str(p.get("predictions_sha256")) for p in row.provenance) or None,
        **{f"metric.{path}": value for path, value in sorted(row.metrics.items())},
        **{f"sd.{path}": value for path, value in sorted(row.sd.items())},
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
    owner: list[int] = []
    metric: dict[str, list[Any]] = {name: [] for name in METRIC_COLUMNS}
    for board, rows in tables.items():
        display = get_benchmark(board.task).display
        shown = {c.path: c for c in display.columns} | {display.headline.path: display.headline}
        for row in rows:
            index = len(row_values["task"])
            fields = {
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
            for name, value in fields.items():
                row_values[name].append(value)
            for path, value in sorted(row.metrics.items()):
                if path.endswith((".0", ".1")) and path.rsplit(".", 1)[0].endswith("_ci95"):
                    continue  # interval bounds are columns of their metric
                column = shown.get(path)
                ci_path = column.ci_path if column is not None else None
                owner.append(index)
                metric["metric"].append(path)
                metric["label"].append(column.label if column is not None else path)
                metric["unit"].append(column.unit if column is not None else "")
                metric["value"].append(value)
                metric["ci_low"].append(row.metrics.get(f"{ci_path}.0") if ci_path else None)
                metric["ci_high"].append(row.metrics.get(f"{ci_path}.1") if ci_path else None)
                metric["sd"].append(row.sd.get(path))
    indices = pa.array(owner, type=pa.int32())
    arrays: dict[str, Any] = {}
    for name in ROW_COLUMNS:
        if name in INTEGER_COLUMNS:
            arrays[name] = pa.array(row_values[name], type=pa.int64()).take(indices)
        elif name == "is_sample":
            arrays[name] = pa.array(row_values[name], type=pa.bool_()).take(indices)
        else:
            arrays[name] = _repeated_text(row_values[name], indices)
    for name, values in metric.items():
        if name in ("value", "ci_low", "ci_high", "sd"):
            arrays[name] = pa.array(values, type=pa.float64())
        else:
            arrays[name] = pa.array(values, type=pa.string()).dictionary_encode()
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
