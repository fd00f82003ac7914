"""Downloads people load in one line, under one data contract (contract.py: its version, its schemas).

- `data/<board>.csv`: one board, one row per model, every figure as a column (schema of one line:
  `schemas/board.schema.json`): the file a reader opens in a spreadsheet, and the page's "Show every column". Code
  reads it with `pandas.read_csv`, or every row and figure typed from the Parquet. One file, not a CSV and a JSON
  of the same records: the two were a fifth of the site's bytes per submission, and the Parquet is the typed file.
- `data/results-long.parquet`: every row and figure of the site in tidy long format (one record per row and
  figure), with its board's settings, the source, the trust level, the status, the interval bounds and the unit:
  `pandas.read_parquet` in one call (schema: `schemas/results-long.schema.json`, its columns in file order).
  Built and written a piece at a time (a row group of about 100,000 records each, the text columns' dictionaries
  the same in every piece), so that the site build never holds the whole table: read back, it is one table.
- `data/benchmarks/<benchmark>.csv`: the same long records, one benchmark's (every board of it), for the figures
  its pages label (the Parquet has every figure a result holds, a few hundred for some rows; a row with no
  labelled figure keeps all of its own): the file a reader of one benchmark opens in a spreadsheet. (No CSV of
  the whole site: at a thousand submissions it is a million lines.)
The rows are the pages' rows: each board's own table (a paper's row a primary board shows for context is in its
own board's files), and the baselines computed on one row's own items (SCN), which a page shows as that row's
floor and the home page counts among the baselines (`baseline_for` names that row). Every figure is in the unit
its page shows it in: percent and points ×100, counts and correlations as computed; a figure no page shows is as
the scorer computed it (the long format's unit "as computed").
Every record carries the rules version its status and rank were given under (`rules_version`, verdicts.py;
the site's Ranking rules page dates each version), and the licence of the data it was scored on.
Text cells that a spreadsheet would run as a formula (starting with = + - @) are quoted with '.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import benchmark_names, get_benchmark
from .boards import Board
from .collect import Leaderboard
from .contract import LONG_COLUMNS, LONG_PARQUET, benchmark_csv
from .facts import Row
from .verdicts import RULES_VERSION, headline, rule_for

_FORMULA = re.compile(r"^[=+\-@\t\r]")


SIGNIFICANT_DIGITS = 6  # of every figure the downloads write
EXACT_POWER = 22  # 10.0**22 is the largest power of ten a double holds exactly


def significant(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Figures rounded to SIGNIFICANT_DIGITS significant digits (NaN stays NaN, 0 stays 0). Written in full, a
    figure took 17 digits (0.6206185567010309): rounded, the site at 250 submissions is 7 of its 113 KB a
    submission lighter. Six keep four more than any page shows (62.1347 where the page shows 62.13). Each is the nearest
    double to its decimal (scaled by an exact power of ten, rounded, scaled back), so that it is written with at
    most six digits. Scaled before it is rounded, a figure within a rounding error of a tie (99999.95, stored as
    99999.94999999999709) may round up where decimal rounding goes down: one in its sixth digit. The board files and
    the long table round with this one function, so they agree figure by figure."""
    out = np.array(values, dtype=np.float64)
    found = np.isfinite(out) & (out != 0)
    magnitude = np.abs(out[found])
    exponent = np.floor(np.log10(magnitude))
    # log10 may land one off next to a power of ten: the magnitude's exponent is what 10**exponent brackets
    exponent += magnitude >= 10.0 ** (exponent + 1)
    exponent -= magnitude < 10.0**exponent
    shift = (SIGNIFICANT_DIGITS - 1 - exponent).astype(np.int64)
    # only ever multiply and divide by exact powers of ten: 1e-1 is not one, nor is any beyond 1e22
    exact = np.abs(shift) <= EXACT_POWER
    up = np.maximum(shift, 0).astype(np.float64)
    down = np.maximum(-shift, 0).astype(np.float64)
    scaled = out[found]
    scaled = np.where(exact, np.round(scaled * 10.0**up / 10.0**down) * 10.0**down / 10.0**up, scaled)
    # a figure below 1e-17 or above 1e27 (rounding noise next to zero: 3.469446951953614e-18): Python's decimal
    # rounding, one at a time (a handful in a build)
    for index in np.flatnonzero(~exact):
        scaled[index] = float(f"{scaled[index]:.{SIGNIFICANT_DIGITS}g}")
    out[found] = scaled
    return out


def _number(value: Any) -> Any:
    """A figure as the downloads write it: to SIGNIFICANT_DIGITS significant digits, and a whole number as an
    integer (`1177`, not `1177.0`). The rows hold means over runs, floats even for counts; written as floats, a
    column of counts loaded from a board's CSV as floats (pandas), 541 columns of the site's boards."""
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        return _as_written(float(significant(np.array([value]))[0]))
    return value


def _as_written(value: float) -> Any:
    return int(value) if value.is_integer() else value


def _csv_safe(value: Any) -> Any:
    # a spreadsheet would run a cell starting with = + - @ as a formula; text cells are quoted with '
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


AS_COMPUTED = "as computed"  # the unit of a figure no page shows


@functools.cache
def _shown(task: str) -> dict[str, tuple[str, str, float]]:
    """Path -> (label, unit, scale) of every figure the benchmark's pages show, its interval's bounds included."""
    display = get_benchmark(task).display
    shown: dict[str, tuple[str, str, float]] = {}
    for column in [*display.columns, display.headline]:
        scale = 100.0 if column.unit in ("percent", "points") else 1.0
        shown[column.path] = (column.label, column.unit, scale)
        if column.ci_path:
            for bound in (0, 1):
                shown[f"{column.ci_path}.{bound}"] = (column.label, column.unit, scale)
    return shown


def page_unit(task: str, path: str) -> tuple[str, float]:
    """(unit, scale) of a figure as the pages show it: the downloads multiply by `scale` (fractions shown in
    percent or points ×100); a figure no page shows keeps the scorer's value ("as computed")."""
    _, unit, scale = _shown(task).get(path, ("", AS_COMPUTED, 1.0))
    return unit, scale


def _in_page_unit(task: str, path: str, value: float | None) -> Any:
    if value is None:
        return None
    return _number(value * page_unit(task, path)[1])


@functools.cache
def _scales(task: str) -> dict[str, float]:
    """Path -> scale of every figure the benchmark's pages show (`page_unit`'s; every other figure's is 1)."""
    return {path: scale for path, (_, _, scale) in _shown(task).items()}


_COLUMN_NAMES: dict[tuple[str, str], str] = {}  # (prefix, path) -> "prefix.path": one string per column of the build


def _figures(prefix: str, task: str, figures: Mapping[str, float | None]) -> dict[str, Any]:
    """A row's figures as download columns `prefix.path`, sorted by path, each in its page's unit (_in_page_unit:
    a row of a thousand-row board has a few hundred figures, so the columns' names and scales are looked up once)."""
    scales = _scales(task)
    names = _COLUMN_NAMES
    paths = sorted(figures)
    # the row's figures rounded together (one numpy call a row, not one a figure); a whole number stays whole
    raw = [figures[path] for path in paths]
    in_unit = [np.nan if v is None else v * scales.get(p, 1.0) for p, v in zip(paths, raw, strict=True)]
    values = significant(np.array(in_unit, dtype=np.float64)).tolist()
    out: dict[str, Any] = {}
    for path, given, value in zip(paths, raw, values, strict=True):
        name = names.get((prefix, path))
        if name is None:
            name = names[prefix, path] = f"{prefix}.{path}"
        out[name] = None if given is None else _as_written(value)
    return out


def record(row: Row) -> dict[str, Any]:
    """One row of a board as a flat record (the per-board downloads; contract.BoardRecord)."""
    benchmark = get_benchmark(row.task)
    path = benchmark.display.headline.path
    return {
        "task": row.task,
        "board": row.key.slug,
        "row": row.id,
        "dataset": row.key.dataset_label,
        "model": row.model,
        "submission_id": row.submission_id,
        "source": row.source,
        "trust": row.trust,
        "reproduction": row.reproduction,
        **verdict_fields(row),
        "also_submitted_by": "; ".join(row.also_submitted_by) or None,
        "account": None if row.account is None else row.account.words,
        "landing": row.landing,
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
        "headline": _in_page_unit(row.task, path, headline(row)),
        "predictions_sha256": ";".join(str(p.get("predictions_sha256")) for p in row.provenance) or None,
        **_figures("metric", row.task, row.metrics),
        **_figures("sd", row.task, row.sd),
    }


def verdict_fields(row: Row) -> dict[str, Any]:
    """What verdicts.py decided of a row, as download columns, with the rules version it was decided under."""
    return {
        "status": row.status,
        "rank_low": None if row.rank_range is None else row.rank_range[0],
        "rank_high": None if row.rank_range is None else row.rank_range[1],
        "unranked": short_reason(row.unranked),
        "holds": "; ".join(row.holds) or None,
        "baseline_for": row.reference_for,
        "rules_version": RULES_VERSION,
    }


def _listed_explanation() -> str:
    """What the not-run rule's reason says after the row's own words (its place in the queue, or why it is not
    queued): the same two sentences on every listed row."""
    marker = "\x00"
    return rule_for("not-run").say(queue=marker).split(marker, 1)[1]


def short_reason(why: str | None) -> str | None:
    """Why a row is not ranked, as the downloads write it: a listed row's own words without the explanation every
    listed row shares (250 characters on each of a benchmark CSV's lines, a third of the file at a hundred
    submissions); the whole sentence is the row's `why` in data/leaderboard.json, and the schemas' `unranked`."""
    if why is None:
        return None
    return why.removesuffix(_listed_explanation())


def _seed(row: Row) -> int | None:
    """The seed of a single-run row (a paper's printed seed, or the run's): kept, though boards group by count."""
    seed = row.setting.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    seeds = [p.get("seed") for p in row.provenance]
    return seeds[0] if len(seeds) == 1 and isinstance(seeds[0], int) else None


def board_csv(rows: list[Row]) -> str:
    records = [record(r) for r in rows]
    columns: dict[str, None] = {}
    for rec in records:
        columns.update(dict.fromkeys(rec))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for rec in records:
        cells = map(rec.get, columns)
        writer.writerow(["" if value is None else _csv_safe(value) for value in cells])
    return out.getvalue()


ROW_COLUMNS = LONG_COLUMNS[: LONG_COLUMNS.index("metric")]  # what a long record repeats of its row
METRIC_COLUMNS = LONG_COLUMNS[LONG_COLUMNS.index("metric") :]
FIGURE_COLUMNS = ("value", "ci_low", "ci_high", "sd")
INTEGER_COLUMNS = ("shots", "seeds", "seed", "rank_low", "rank_high", "parameters", "n_runs")


PIECE_RECORDS = 100_000  # long records built at a time: one Parquet row group, and the build's memory for them


def long_table(tables: dict[Board, list[Row]]) -> Any:
    """Every row and metric, one record each (tidy long format), as an Arrow table of LONG_COLUMNS: `long_pieces`
    together (one chunk per piece)."""
    import pyarrow as pa

    return pa.concat_tables(list(long_pieces(tables)))


Segment = tuple[str, tuple[str, ...], list[tuple[int, Row]]]  # rows of one block: its task, its paths, the rows


def long_pieces(tables: dict[Board, list[Row]]) -> Iterator[Any]:
    """The long table in pieces of about PIECE_RECORDS records (a row's records in one piece), in its order, each
    an Arrow table of LONG_COLUMNS whose text columns share one dictionary across the pieces: the records of a
    piece are built, written and let go before the next one's (at 1,000 submissions the whole table was half a
    million records and 200 MB of the build's memory)."""
    records = _LongRecords(tables)
    segments: list[Segment] = []
    size = 0
    for (task, paths), members in records.blocks.items():
        step = max(1, PIECE_RECORDS // max(1, len(paths)))
        for start in range(0, len(members), step):
            chunk = members[start : start + step]
            if segments and size + len(chunk) * len(paths) > PIECE_RECORDS:
                yield records.piece(segments)
                segments, size = [], 0
            segments.append((task, paths, chunk))
            size += len(chunk) * len(paths)
    if segments or not records.blocks:  # no row: the columns alone
        yield records.piece(segments)


class _LongRecords:
    """What every piece of the long table shares: each row's fields (ROW_COLUMNS, one value per row, the text ones
    dictionary-coded), the metric paths' codes, labels and units, and the rows grouped in blocks.

    At 1,000 submissions that is about a million records, most of whose columns repeat their row's fields: a row's
    text fields are dictionary-encoded (one entry per row, an index per record: pandas reads them as categories),
    its numbers taken by index, and the metrics built as columns in one pass per block, so that nothing is repeated
    in memory or in the file."""

    def __init__(self, tables: dict[Board, list[Row]]) -> None:
        row_values: dict[str, list[Any]] = {name: [] for name in ROW_COLUMNS}
        # rows with the same metrics (every NegHub row of a task) are one block: a matrix of their values, so that
        # a million records are a few numpy arrays, not a million Python objects
        self.blocks: dict[tuple[str, tuple[str, ...]], list[tuple[int, Row]]] = {}
        for board, rows in tables.items():
            for row in rows:
                index = len(row_values["task"])
                for name, value in _row_fields(board, row).items():
                    row_values[name].append(value)
                self.blocks.setdefault((board.task, _long_paths(tuple(sorted(row.metrics)))), []).append((index, row))
        self.row_columns: dict[str, Any] = {}  # per row: an array, or (codes, dictionary) of a text column
        for name in ROW_COLUMNS:
            if name in INTEGER_COLUMNS:
                self.row_columns[name] = _optional_integers(row_values[name])
            elif name == "is_sample":
                self.row_columns[name] = _booleans(row_values[name])
            else:
                self.row_columns[name] = _text_codes(row_values[name])
        del row_values
        self.path_codes: dict[str, int] = {}
        labels: list[str] = []
        units: list[str] = []
        for task, paths in self.blocks:
            shown = _shown(task)
            for path in paths:
                if path not in self.path_codes:
                    label, unit, _ = shown.get(path, (path, AS_COMPUTED, 1.0))
                    self.path_codes[path] = len(self.path_codes)
                    labels.append(label)
                    units.append(unit)
        self.paths = _strings(list(self.path_codes))
        # a label's (a unit's) code is its place among the distinct labels in the order the records first show
        # them: the paths' codes are in that order (each block's first row gives every path of the block)
        self.labels, self.label_of_path = _first_seen(labels)
        self.units, self.unit_of_path = _first_seen(units)

    def piece(self, segments: list[Segment]) -> Any:
        """The records of `segments`' rows, in order, as an Arrow table of LONG_COLUMNS."""
        import pyarrow as pa

        owner_parts: list[NDArray[np.int32]] = [np.zeros(0, dtype=np.int32)]
        path_parts: list[NDArray[np.int32]] = [np.zeros(0, dtype=np.int32)]
        numbers: dict[str, list[NDArray[np.float64]]] = {name: [np.zeros(0)] for name in FIGURE_COLUMNS}
        for task, paths, members in segments:
            display = get_benchmark(task).display
            cis = {c.path: c.ci_path for c in [*display.columns, display.headline]}
            ci_paths = [cis.get(p) for p in paths]
            scales = np.tile(np.array([page_unit(task, p)[1] for p in paths], dtype=np.float64), len(members))
            owner_parts.append(np.repeat(np.array([i for i, _ in members], dtype=np.int32), len(paths)))
            codes = np.array([self.path_codes[path] for path in paths], dtype=np.int32)
            path_parts.append(np.tile(codes, len(members)))
            rows = [row for _, row in members]
            lows = [f"{c}.0" if c else "" for c in ci_paths]
            highs = [f"{c}.1" if c else "" for c in ci_paths]
            # in the unit the pages show (percent and points x100): the interval and the SD scale with the figure
            # to SIGNIFICANT_DIGITS, as the board files write them
            numbers["value"].append(
                significant(_matrix([list(map(row.metrics.__getitem__, paths)) for row in rows]) * scales)
            )
            numbers["ci_low"].append(significant(_matrix([list(map(row.metrics.get, lows)) for row in rows]) * scales))
            numbers["ci_high"].append(
                significant(_matrix([list(map(row.metrics.get, highs)) for row in rows]) * scales)
            )
            numbers["sd"].append(significant(_matrix([list(map(row.sd.get, paths)) for row in rows]) * scales))
        indices = _numbers(np.concatenate(owner_parts), pa.int32())
        arrays: dict[str, Any] = {}
        for name in ROW_COLUMNS:
            column = self.row_columns[name]
            if isinstance(column, tuple):
                row_codes, dictionary = column
                arrays[name] = pa.DictionaryArray.from_arrays(row_codes.take(indices), dictionary)
            else:
                arrays[name] = column.take(indices)
        path_codes = np.concatenate(path_parts)
        arrays["metric"] = pa.DictionaryArray.from_arrays(_numbers(path_codes, pa.int32()), self.paths)
        for name, of_path, dictionary in (
            ("label", self.label_of_path, self.labels),
            ("unit", self.unit_of_path, self.units),
        ):
            arrays[name] = pa.DictionaryArray.from_arrays(_numbers(of_path[path_codes], pa.int32()), dictionary)
        for name, parts in numbers.items():
            values = np.concatenate(parts)
            arrays[name] = _numbers(values, pa.float64(), valid=~np.isnan(values))  # NaN: missing
        table = pa.table([arrays[name] for name in LONG_COLUMNS], names=list(LONG_COLUMNS))
        return table.replace_schema_metadata(_pandas_metadata(table))


def _first_seen(values: list[str]) -> tuple[Any, NDArray[np.int32]]:
    """The distinct `values` in the order first seen (an Arrow string array) and each value's place among them."""
    distinct = {value: None for value in values}
    place = {value: i for i, value in enumerate(distinct)}
    return _strings(list(distinct)), np.array([place[value] for value in values], dtype=np.int32)


_LONG_PATHS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _long_paths(paths: tuple[str, ...]) -> tuple[str, ...]:
    """A row's sorted metric paths but its intervals' bounds (a long record carries them as ci_low and ci_high),
    worked out once per distinct list: every NegHub row of a board has the same."""
    found = _LONG_PATHS.get(paths)
    if found is None:
        found = _LONG_PATHS[paths] = tuple(
            path for path in paths if not (path.endswith((".0", ".1")) and path.rsplit(".", 1)[0].endswith("_ci95"))
        )
    return found


def _pandas_metadata(table: Any) -> dict[bytes, bytes]:
    """The pandas metadata `read_parquet` restores dtypes from: the integer columns are nullable Int64 (a missing
    rank stays missing, and 3 stays 3, not 3.0), the text columns categories. Written here in pandas' format (what
    `pa.Schema.from_pandas` gives for an empty frame of these types; a test holds the two equal) rather than by
    pandas: importing pandas for it cost a site build 47 MB of its memory."""
    import pyarrow as pa

    columns = []
    for field in table.schema:
        metadata: dict[str, Any] | None = None
        if field.name in INTEGER_COLUMNS:
            pandas_type, numpy_type = "int64", "Int64"
        elif pa.types.is_dictionary(field.type):
            pandas_type, numpy_type = "categorical", "int8"
            metadata = {"num_categories": 0, "ordered": False}
        elif pa.types.is_boolean(field.type):
            pandas_type = numpy_type = "bool"
        elif pa.types.is_float64(field.type):
            pandas_type = numpy_type = "float64"
        else:
            raise ValueError(f"no pandas type for the long table's column {field.name} ({field.type})")
        columns.append(
            {
                "name": field.name,
                "field_name": field.name,
                "pandas_type": pandas_type,
                "numpy_type": numpy_type,
                "metadata": metadata,
            }
        )
    record = {
        "index_columns": [],
        "column_indexes": [],
        "columns": columns,
        "attributes": {},
        "creator": {"library": "pyarrow", "version": pa.__version__},
        "pandas_version": "2.0.0",  # the site extra's floor: the oldest pandas the file is written for
    }
    return {b"pandas": json.dumps(record).encode()}


def _matrix(cells: list[list[float | None]]) -> NDArray[np.float64]:
    """Rows of values (None: missing) as one flat float array, row by row (NaN where missing)."""
    return np.array(cells, dtype=np.float64).reshape(-1)


def _row_fields(board: Board, row: Row) -> dict[str, Any]:
    """What a long record repeats of its row (ROW_COLUMNS)."""
    return {
        "task": board.task,
        "board": board.slug,
        "row": row.id,
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


# The long table's arrays are built from numpy buffers: pa.array imports pandas wherever pandas is installed (to
# ask whether its argument is a pandas object), which cost a site build 47 MB of its memory.


def _numbers(values: NDArray[Any], arrow_type: Any, valid: NDArray[np.bool_] | None = None) -> Any:
    """A fixed-width Arrow array over `values` (their dtype matching `arrow_type`), null where `valid` is False."""
    import pyarrow as pa

    values = np.ascontiguousarray(values)
    if valid is None or bool(valid.all()):
        return pa.Array.from_buffers(arrow_type, len(values), [None, pa.py_buffer(values)], null_count=0)
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = int(valid.size - np.count_nonzero(valid))
    return pa.Array.from_buffers(arrow_type, len(values), [bitmap, pa.py_buffer(values)], null_count=nulls)


def _optional_integers(values: list[int | None]) -> Any:
    valid = np.array([v is not None for v in values], dtype=bool)
    import pyarrow as pa

    return _numbers(np.array([0 if v is None else v for v in values], dtype=np.int64), pa.int64(), valid=valid)


def _booleans(values: list[bool]) -> Any:
    import pyarrow as pa

    bits = pa.py_buffer(np.packbits(np.array(values, dtype=bool), bitorder="little"))
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, bits], null_count=0)


def _strings(values: list[str]) -> Any:
    import pyarrow as pa

    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int32)
    np.cumsum(np.array([len(e) for e in encoded], dtype=np.int32), out=offsets[1:])
    data = pa.py_buffer(b"".join(encoded))
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets), data], null_count=0)


def _text_codes(values: list[str | None]) -> tuple[Any, Any]:
    """A text column of one value per row as (codes, dictionary): each distinct text once in the dictionary, in the
    order first seen, a missing one as a null code (which Parquet stores; a null inside the dictionary it does not).
    A long record of row i holds dictionary[codes[i]]."""
    import pyarrow as pa

    codes: dict[str, int] = {}
    per_row = [None if v is None else codes.setdefault(v, len(codes)) for v in values]
    valid = np.array([code is not None for code in per_row], dtype=bool)
    codes_array = _numbers(np.array([code or 0 for code in per_row], dtype=np.int32), pa.int32(), valid=valid)
    return codes_array, _strings(list(codes))


def long_parquet(pieces: Iterable[Any]) -> bytes:
    """The long table's pieces (long_pieces) as one Parquet file, a row group per piece (read back, one table)."""
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    writer = None
    for piece in pieces:
        if writer is None:
            writer = pq.ParquetWriter(buffer, piece.schema, compression="zstd")
        writer.write_table(piece)
    if writer is not None:
        writer.close()
    return buffer.getvalue()


def download_rows(board: Leaderboard, tables: dict[Board, list[Row]]) -> dict[Board, list[Row]]:
    """The rows of each board's downloads, as its page shows them: the board's own table (a paper's row a primary
    board shows for context is in its own board's files), then the baselines computed on one row's own items,
    which the page shows as that row's floor (they are in no table: board_order.py)."""
    rows = {key: [r for r in table if r.key == key] for key, table in tables.items()}
    for row in board.rows:
        if row.kind == "reference" and row.reference_for is not None:
            rows.setdefault(row.key, []).append(row)
    return {key: own for key, own in rows.items() if own}


def long_csv(table: Any) -> str:
    """Long records (an Arrow table of LONG_COLUMNS) as CSV: the columns in contract order, missing as empty,
    booleans `true`/`false` (long_csv_lines under LONG_CSV_HEADER)."""
    return (LONG_CSV_HEADER + long_csv_lines(table)).decode("utf-8")


LONG_CSV_HEADER = (",".join(LONG_COLUMNS) + "\n").encode()


def long_csv_lines(table: Any) -> bytes:
    """Long records as CSV lines without a header, UTF-8. Written by Arrow's CSV writer (a benchmark's file at a
    thousand submissions is a few hundred thousand lines: no Python object per cell); a text cell a spreadsheet
    would run as a formula is quoted with ', in each column's dictionary (its distinct texts) before it is
    decoded."""
    import pyarrow as pa
    import pyarrow.csv as arrow_csv

    columns = []
    for name in LONG_COLUMNS:
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            chunks = [
                pa.DictionaryArray.from_arrays(
                    chunk.indices, _strings([_csv_safe(v) for v in chunk.dictionary.to_pylist()])
                ).cast(pa.string())
                for chunk in column.chunks
            ]
            column = pa.chunked_array(chunks, type=pa.string())
        columns.append(column)
    out = io.BytesIO()
    options = arrow_csv.WriteOptions(include_header=False, quoting_style="needed")
    arrow_csv.write_csv(pa.table(columns, names=list(LONG_COLUMNS)), out, options)
    return out.getvalue()


def _codes(column: Any) -> Any:
    """A dictionary-encoded column of one chunk (long_table's) as its codes."""
    (chunk,) = column.chunks
    return chunk.indices


def _where(column: Any, test: Any) -> Any:
    """Whether `test` holds of each record's text in a dictionary-encoded column: asked once per distinct text."""
    import pyarrow as pa
    import pyarrow.compute as arrow_compute

    # one Array, not a ChunkedArray: pyarrow 14 (pyproject.toml's floor) filters an Array only by an Array
    return pa.chunked_array(
        [
            arrow_compute.take(
                pa.array([bool(test(v)) for v in chunk.dictionary.to_pylist()], pa.bool_()), chunk.indices
            )
            for chunk in column.chunks
        ],
        type=pa.bool_(),
    ).combine_chunks()


def files(
    board: Leaderboard, tables: dict[Board, list[Row]], folder: Path | None = None
) -> dict[str, str | bytes | Path]:
    """Every download, its text as UTF-8 bytes (a text with one character beyond Latin-1, a Japanese dataset's label
    or an arrow, takes two or four bytes a character as a Python string); with `folder`, each written there as it is
    made and given as its path: the site build holds none of them (at 1,000 submissions 62 MB, held from here until
    MkDocs wrote every page, and each benchmark's CSV twice while its pieces were joined)."""
    import pyarrow as pa

    out: dict[str, str | bytes | Path] = {}

    def put(uri: str, content: bytes) -> None:
        out[uri] = content if folder is None else _written(folder, uri, content)

    own_rows = download_rows(board, tables)
    for key, own in own_rows.items():
        put(f"data/{key.slug}.csv", board_csv(own).encode("utf-8"))
    csvs = {task: [LONG_CSV_HEADER] for task in benchmark_names()}  # every benchmark's, its header alone if no row
    if folder is not None:  # each benchmark's CSV is written as its pieces come, not held
        for task, parts in csvs.items():
            _written(folder, benchmark_csv(task), parts.pop())

    def written(pieces: Iterable[Any]) -> Iterator[Any]:
        """Each piece, after its benchmarks' CSV lines are cut from it."""
        for piece in pieces:
            shown = _shown_records(piece)
            for task, parts in csvs.items():
                own = shown.filter(_where(shown.column("task"), task.__eq__))
                if not own.num_rows:
                    continue
                if folder is None:
                    parts.append(long_csv_lines(own))
                else:
                    with (folder / benchmark_csv(task)).open("ab") as csv_file:
                        csv_file.write(long_csv_lines(own))
            yield piece
            # Arrow's allocator keeps the pages a piece and its CSV lines were built in: given back after each
            # piece, they are not held beside the next one's (80 MB at 1,000 submissions)
            pa.default_memory_pool().release_unused()

    put(LONG_PARQUET, long_parquet(written(long_pieces(own_rows))))
    for task, parts in csvs.items():
        out[benchmark_csv(task)] = b"".join(parts) if folder is None else folder / benchmark_csv(task)
        parts.clear()
    # Arrow's allocator keeps the pages the pieces were built in for its next allocation, which this build does not
    # make: 50 MB at 1,000 submissions
    pa.default_memory_pool().release_unused()
    return out


def _written(folder: Path, uri: str, content: bytes) -> Path:
    path = folder / uri
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def _shown_records(piece: Any) -> Any:
    """The records of a piece of the long table that a benchmark's CSV holds: the figures its pages label (a
    NegHub row's result holds up to a few hundred more, which would make the file ten times larger: they are in
    the Parquet); a row with no labelled figure (a paper's table of another test) keeps all of its own, so that
    every row and board is in the file. A row's records are all in one piece. Worked out on the dictionary columns'
    codes: their texts, one per record, were the build's largest allocation at 1,000 submissions."""
    import pyarrow.compute as arrow_compute

    labelled = _where(piece.column("unit"), lambda unit: unit != AS_COMPUTED)
    row_codes = _codes(piece.column("row"))
    with_labels = arrow_compute.unique(row_codes.filter(labelled))
    keep = arrow_compute.or_(labelled, arrow_compute.invert(arrow_compute.is_in(row_codes, value_set=with_labels)))
    return piece.filter(keep)
