"""The downloads write every figure to 6 significant digits (issue 37, item 6: the site's size).

A figure written as the scorer computed it took 17 digits (0.6206185567010309) in a board's CSV and a benchmark's
CSV. The pages show two decimals; 6 significant digits keep four more than any page shows, and a whole number (a
count) is written whole. At 250 submissions this took 7 of the site's 113 KB per submission.
Expected values are worked out by hand.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest

from neghub.leaderboard.collect import collect
from neghub.leaderboard.contract import BOARD_SCHEMA, LONG_PARQUET, LONG_SCHEMA, site_schemas
from neghub.leaderboard.site import build_pages

ROOT = Path(__file__).resolve().parents[1]


SIGNIFICANT_DIGITS = 6


def test_six_significant_digits_worked_by_hand() -> None:
    from neghub.leaderboard.exports import SIGNIFICANT_DIGITS as written
    from neghub.leaderboard.exports import significant

    assert written == SIGNIFICANT_DIGITS
    values = np.array(
        [0.6206185567010309, 62.13468869123253, -0.017601760176017667, 1.2345649e-12, 999999.7, 0.0, 1177.0, np.nan]
    )
    rounded = significant(values)
    assert list(rounded[:7]) == [0.620619, 62.1347, -0.0176018, 1.23456e-12, 1000000.0, 0.0, 1177.0]
    assert math.isnan(rounded[7])
    # a value at a power of ten keeps its digits (the magnitude is not taken one too low)
    assert list(significant(np.array([1000.0, 0.001, 123456.7]))) == [1000.0, 0.001, 123457.0]
    # far from one, past the powers of ten a double holds exactly (rounding noise next to zero)
    assert list(significant(np.array([3.469446951953614e-18, 1.2345678e30]))) == [3.46945e-18, 1.23457e30]


def _digits(cell: str) -> int:
    """Significant digits of a number written as text (leading zeros and a fraction's trailing zeros not counted)."""
    mantissa = re.split(r"[eE]", cell.lstrip("+-"))[0]
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction.rstrip("0")).lstrip("0")
    return len(digits)


NUMBER = re.compile(r"^-?\d+\.\d+(?:[eE][-+]?\d+)?$|^-?\d+(?:\.\d+)?[eE][-+]?\d+$")  # a written float, not an integer


@pytest.fixture(scope="module")
def files() -> dict[str, str | bytes]:
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    return build_pages(collect(ROOT / "submissions", data_dir=Path(data_dir) if data_dir else None))


def _cells(data: str | bytes) -> list[str]:
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return [cell for line in csv.reader(io.StringIO(text)) for cell in line]


def test_every_float_of_every_download_has_at_most_six_significant_digits(files: dict[str, str | bytes]) -> None:
    import pyarrow.parquet as pq

    downloads = [p for p in files if p.startswith("data/") and p.endswith(".csv")]
    assert any(p.startswith("data/benchmarks/") for p in downloads) and any(p.count("/") == 1 for p in downloads)
    floats = 0
    for path in downloads:
        written = [cell for cell in _cells(files[path]) if NUMBER.match(cell)]
        floats += len(written)
        long = [cell for cell in written if _digits(cell) > SIGNIFICANT_DIGITS]
        assert long == [], (path, long[:5])
    assert floats > 1000  # the committed submission's rows have figures to check
    data = files[LONG_PARQUET]
    assert isinstance(data, bytes)
    table = pq.read_table(io.BytesIO(data))
    for column in ("value", "ci_low", "ci_high", "sd"):
        values = [v for v in table.column(column).to_pylist() if v is not None and not float(v).is_integer()]
        assert values, column
        assert [v for v in values if _digits(repr(v)) > SIGNIFICANT_DIGITS] == [], column


def test_the_schemas_say_the_figures_are_rounded() -> None:
    schemas = site_schemas()
    for name in (BOARD_SCHEMA, LONG_SCHEMA):
        assert "6 significant digits" in " ".join(json.dumps(schemas[name]).split()), name
