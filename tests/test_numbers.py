"""core/numbers.py: one format per unit, worked out by hand, and one word for a missing value."""

from __future__ import annotations

import pytest

from neghub.evaluator.core.numbers import MISSING, correlation, count, figure, fixed, percent


def test_a_missing_value_is_one_word_in_every_format() -> None:
    assert MISSING == "n/a"
    for missing in (None, float("nan")):
        assert fixed(missing, unit="%") == percent(missing) == count(missing) == correlation(missing) == "n/a"
        assert figure(missing, "count", sd=1.0) == figure(missing, "percent") == "n/a"


def test_counts_carry_thousands_separators_and_no_decimals() -> None:
    assert count(1177) == "1,177"
    assert count(1177.0) == "1,177"
    assert count(1234567) == "1,234,567"
    assert count(-0.4) == "0"  # rounds to zero: no sign
    assert count(12.25, 1) == "12.2"  # Python's round half to even on 12.25, exact in binary


def test_correlations_have_three_decimals_and_no_negative_zero() -> None:
    assert correlation(0.81234) == "0.812"
    assert correlation(-0.5) == "-0.500"
    assert correlation(-0.0004) == "0.000"


@pytest.mark.parametrize(
    ("value", "unit", "sd", "shown"),
    [
        (0.5, "percent", None, "50.00"),
        (-0.00004, "points", None, "0.00"),
        (0.5, "percent", 0.0125, "50.00 ± 1.25"),
        (1177, "count", None, "1,177"),
        (1177.5, "count", 1.5, "1,177.5 ± 1.5"),
        (0.8, "correlation", None, "0.800"),
        (0.8, "correlation", 0.05, "0.800 ± 0.050"),
    ],
)
def test_a_figure_takes_its_units_format(value: float, unit: str, sd: float | None, shown: str) -> None:
    assert figure(value, unit, sd=sd) == shown  # type: ignore[arg-type]
