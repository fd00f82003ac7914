"""Downloads by benchmark (issue 39, item 6): one long CSV per benchmark, linked once from its page and from the
home page; the Parquet and the CSVs hold the rows the pages show, every baseline the home page counts among them,
in the unit the pages show; every record as the data contract's schemas describe it (contract.py).

One site build of the committed submissions and every paper table, shared by the module.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.leaderboard.collect import Leaderboard, collect
from neghub.leaderboard.contract import (
    BOARD_SCHEMA,
    LONG_COLUMNS,
    LONG_PARQUET,
    LONG_SCHEMA,
    benchmark_csv,
    site_schemas,
)
from neghub.leaderboard.home import row_counts
from neghub.leaderboard.page_rows import fmt
from neghub.leaderboard.site import build_pages

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site() -> tuple[Leaderboard, dict[str, str | bytes]]:
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    board = collect(ROOT / "submissions", data_dir=Path(data_dir) if data_dir else None)
    return board, build_pages(board)


def long_records(files: dict[str, str | bytes]) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    data = files[LONG_PARQUET]
    assert isinstance(data, bytes)
    table = pq.read_table(io.BytesIO(data))
    assert tuple(table.column_names) == LONG_COLUMNS
    records: list[dict[str, Any]] = table.to_pylist()
    return records


def page_rows(board: Leaderboard) -> set[str]:
    """The rows the benchmark pages show: each board's own table, and the baselines a page shows as a row's floor."""
    shown = {row.id for key, rows in board.tables().items() for row in rows if row.key == key}
    return shown | {row.id for row in board.rows if row.kind == "reference" and row.reference_for is not None}


def test_the_parquet_holds_every_row_the_pages_show_and_the_home_page_counts(
    site: tuple[Leaderboard, dict[str, str | bytes]],
) -> None:
    board, files = site
    records = long_records(files)
    in_parquet = {r["row"] for r in records}
    assert in_parquet == page_rows(board)
    counts = row_counts(board)
    assert len(in_parquet) == sum(n for _, n in counts["by_source"]) + counts["papers"] + counts["baselines"]
    # every baseline the home page counts (SCN's two baselines of a row's own triplets were missing on main)
    baselines = {r["row"] for r in records if r["trust"] == "rule"}
    assert len(baselines) == counts["baselines"]
    assert {r["baseline_for"] for r in records if r["baseline_for"]} <= in_parquet


def _csv_records(text: str | bytes) -> tuple[list[str], list[dict[str, str]]]:
    # exports.files gives a download as UTF-8 bytes, long_csv as a string
    reader = csv.DictReader(io.StringIO(text.decode("utf-8") if isinstance(text, bytes) else text))
    return list(reader.fieldnames or []), list(reader)


def _typed(cell: str, column: str, schema: dict[str, Any]) -> Any:
    """A board CSV's cell read as the type the schema names for its column: empty is null, text stays text,
    True/False a boolean, a number a number."""
    found = schema["properties"].get(column) or next(iter(schema["patternProperties"].values()))
    types = {found.get("type")} | {option.get("type") for option in found.get("anyOf", [])}
    if cell == "" and "null" in types:
        return None
    if "string" in types:
        return cell
    if "boolean" in types and cell in ("True", "False"):
        return cell == "True"
    for kind, name in ((int, "integer"), (float, "number")):
        if name in types:
            try:
                return kind(cell)
            except ValueError:
                pass
    return cell


def _same(csv_cell: str, value: Any) -> bool:
    if value is None:
        return csv_cell == ""
    if isinstance(value, bool):
        return csv_cell == str(value).lower()  # Arrow writes true/false
    if isinstance(value, float):
        return math.isclose(float(csv_cell), value, rel_tol=1e-12, abs_tol=1e-12)
    return csv_cell.lstrip("'") == str(value)


def test_each_benchmarks_csv_holds_the_parquets_records_of_that_benchmark_that_pages_label(
    site: tuple[Leaderboard, dict[str, str | bytes]],
) -> None:
    _, files = site
    records = long_records(files)
    for task in benchmark_names():
        header, rows = _csv_records(files[benchmark_csv(task)])
        assert tuple(header) == LONG_COLUMNS
        labelled = {r["row"] for r in records if r["unit"] != "as computed"}
        mine = [r for r in records if r["task"] == task and (r["unit"] != "as computed" or r["row"] not in labelled)]
        assert len(rows) == len(mine), task
        for written, record in zip(rows, mine, strict=True):
            differing = [c for c in LONG_COLUMNS if not _same(written[c], record[c])]
            assert differing == [], (task, record["row"], record["metric"], differing)


def test_every_board_of_a_benchmark_is_in_its_csv(site: tuple[Leaderboard, dict[str, str | bytes]]) -> None:
    board, files = site
    for task in benchmark_names():
        _, rows = _csv_records(files[benchmark_csv(task)])
        boards = {
            key.slug for key in board.tables() if key.task == task and any(r.key == key for r in board.tables()[key])
        }
        assert {r["board"] for r in rows} == boards


def test_figures_are_in_the_unit_the_pages_show(
    site: tuple[Leaderboard, dict[str, str | bytes]], shared_datasets: Path
) -> None:
    # it reads SmolLM2's JNLI-Neg figures (357/787): the build has them only where it can read the release
    """A figure's value printed with two decimals is what the page prints (percent and points ×100)."""
    board, files = site
    by_id = {row.id: row for row in board.rows}
    checked = 0
    for record in long_records(files):
        if record["unit"] not in ("percent", "points") or record["value"] is None:
            continue
        row = by_id[record["row"]]
        assert f"{record['value']:.2f}" == fmt(row.metrics[record["metric"]], record["unit"]).replace("−", "-")
        checked += 1
    assert checked > 100
    # a figure worked out by hand: NegHub's baseline always 'contradiction' on JNLI-Neg's valid split gets 357 of
    # the 787 M_i treatments right, 45.36 % (tests/test_verdicts.py's module docstring); the downloads write it to 6
    # significant digits: 100 × 357 / 787 = 45.36213…, written 45.3621
    headline = get_benchmark("jnli-neg").display.headline.path
    always = [
        r
        for r in long_records(files)
        if r["task"] == "jnli-neg"
        and r["row"].startswith("rule/rule-always-contradiction/")
        and r["metric"] == headline
    ]
    assert always and all(r["unit"] == "percent" and r["value"] == 45.3621 for r in always)


def test_every_record_is_what_the_contracts_schemas_say(site: tuple[Leaderboard, dict[str, str | bytes]]) -> None:
    _, files = site
    schemas = site_schemas()
    long_validator = jsonschema.Draft202012Validator(schemas[LONG_SCHEMA])
    for record in long_records(files):
        errors = [e.message for e in long_validator.iter_errors(record)]
        assert errors == [], (record["row"], record["metric"], errors[:3])
    board_validator = jsonschema.Draft202012Validator(schemas[BOARD_SCHEMA])
    boards = [name for name in files if name.startswith("data/") and name.count("/") == 1 and name.endswith(".csv")]
    assert boards
    for name in boards:
        header, lines = _csv_records(files[name])
        assert lines, name
        for line in lines:
            # a CSV's cells are text: read as the schema names their types (empty: null)
            record = {column: _typed(line[column], column, schemas[BOARD_SCHEMA]) for column in header}
            errors = [e.message for e in board_validator.iter_errors(record)]
            assert errors == [], (name, record["row"], errors[:3])
    leaderboard = jsonschema.Draft202012Validator(schemas["leaderboard.schema.json"])
    assert [e.message for e in leaderboard.iter_errors(json.loads(str(files["data/leaderboard.json"])))] == []


def test_each_benchmark_page_and_the_home_page_link_its_csv_once(
    site: tuple[Leaderboard, dict[str, str | bytes]],
) -> None:
    _, files = site
    home = str(files["index.md"])
    for task in benchmark_names():
        page = str(files[f"benchmarks/{task}.md"])
        assert page.count(f'href="../{benchmark_csv(task)}"') == 1, task
        assert home.count(f'href="{benchmark_csv(task)}"') == 1, task


def test_a_benchmark_csv_quotes_a_formula_like_name_and_writes_percent() -> None:
    """A model named `=HYPERLINK("x")` is text in a spreadsheet (quoted with '), and its accuracy of 0.5 is 50, the
    figure its page prints (50.00 %)."""
    from neghub.leaderboard.exports import long_csv, long_table
    from tests.test_leaderboard import _row

    row = _row("verified", '=HYPERLINK("x")', 0.5)
    _, rows = _csv_records(long_csv(long_table({row.key: [row]})))
    (acc,) = [r for r in rows if r["metric"] == "acc"]
    assert acc["model"] == '\'=HYPERLINK("x")'
    assert acc["unit"] == "percent" and float(acc["value"]) == 50


def test_downloads_written_a_piece_at_a_time_are_the_downloads_written_whole(
    site: tuple[Leaderboard, dict[str, str | bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The long table is built and written in pieces (a Parquet row group each, each benchmark's CSV cut from each
    piece) to bound the build's memory: in pieces of 40 records the Parquet reads back as the same table, and every
    benchmark's CSV is the same bytes, as in one piece."""
    pq = pytest.importorskip("pyarrow.parquet")
    from neghub.leaderboard import exports

    board, _ = site
    monkeypatch.setattr(exports, "PIECE_RECORDS", 10**9)
    whole = build_pages(board)
    monkeypatch.setattr(exports, "PIECE_RECORDS", 40)
    pieces = build_pages(board)
    in_pieces, in_one = (pq.ParquetFile(io.BytesIO(files[LONG_PARQUET])) for files in (pieces, whole))
    assert in_one.num_row_groups == 1 and in_pieces.num_row_groups > 3
    assert in_pieces.read().equals(in_one.read())
    assert in_pieces.read().to_pandas().equals(in_one.read().to_pandas())
    for task in benchmark_names():
        assert pieces[benchmark_csv(task)] == whole[benchmark_csv(task)], task
