"""A board downloads as one file, its CSV (issue 37, item 6: the site's size).

A board was written twice, as CSV and as JSON (pandas' "split" orientation): at 250 submissions the two were 19 KB
of the site's 90 KB per submission. The CSV stays, for the reader who opens a board in a spreadsheet; code reads it
with `pandas.read_csv`, or every row and figure typed from `data/results-long.parquet`; the page's "Show every
column" reads the CSV.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from neghub.evaluator.core.registry import benchmark_names
from neghub.leaderboard.collect import collect
from neghub.leaderboard.contract import BOARD_SCHEMA, site_schemas
from neghub.leaderboard.site import build_pages

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def files() -> dict[str, str | bytes]:
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    return build_pages(collect(ROOT / "submissions", data_dir=Path(data_dir) if data_dir else None))


def test_a_board_has_its_csv_and_no_json(files: dict[str, str | bytes]) -> None:
    top = [name for name in files if name.startswith("data/") and name.count("/") == 1]
    assert [name for name in top if name.endswith(".json")] == ["data/leaderboard.json"]
    assert len([name for name in top if name.endswith(".csv")]) > 10


def test_the_benchmark_pages_link_each_boards_csv_and_show_every_column_from_it(
    files: dict[str, str | bytes],
) -> None:
    for task in benchmark_names():
        page = str(files[f"benchmarks/{task}.md"])
        sources = re.findall(r'class="neghub-all-columns" data-source="\.\./data/([^"]+)"', page)
        assert sources, task
        assert all(source.endswith(".csv") and f"data/{source}" in files for source in sources), task
        assert not re.search(r'href="\.\./data/[^"/]+\.json"', page), task


def test_the_board_schema_describes_a_line_of_the_csv() -> None:
    description = " ".join(site_schemas()[BOARD_SCHEMA]["description"].split())
    assert "data/<board>.csv" in description and "json" not in description.lower().replace("json schema", "")
