"""Numbers as NegHub prints them (the evaluator's text reports, the site's tables and verdicts): each unit in one
format, never `-0.00` (a value that rounds to zero is shown without a sign: -0.00004 is no loss), and one word,
`n/a`, for a value that does not exist, never followed by the unit (`n/a%`)."""

from __future__ import annotations

import math
from typing import Literal

MISSING = "n/a"
# the units of core/benchmark.py's displays: fractions shown x100 (percent), differences of fractions x100
# (points), integers (count), correlations as they are
Unit = Literal["percent", "points", "count", "correlation"]


def _missing(value: float | None) -> bool:
    return value is None or math.isnan(value)


def fixed(value: float | None, digits: int = 2, *, scale: float = 1.0, unit: str = "") -> str:
    """`value` times `scale` with `digits` decimals and `unit` after it; `n/a` (no unit) for None or NaN."""
    if value is None or math.isnan(value):
        return MISSING
    text = f"{scale * value:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text + unit


def percent(value: float | None, *, unit: str = "") -> str:
    """A fraction in percent (or percentage points) with two decimals, as the papers print them."""
    return fixed(value, 2, scale=100, unit=unit)


def count(value: float | None, digits: int = 0) -> str:
    """A count with thousands separators (`1,177`), whole unless `digits` asks for decimals (a mean count)."""
    if value is None or math.isnan(value):
        return MISSING
    text = f"{value:,.{digits}f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text


def correlation(value: float | None) -> str:
    """A correlation with three decimals."""
    return fixed(value, 3)


def figure(value: float | None, unit: Unit, *, sd: float | None = None) -> str:
    """A figure in its unit's format, followed by `± SD` (in the same format) where it is a mean over several
    seeds: percent and points with two decimals (x100), counts whole (a mean count with one decimal), correlations
    with three."""
    if _missing(value):
        return MISSING
    if unit == "count":
        return count(value) if sd is None else f"{count(value, 1)} ± {count(sd, 1)}"
    shown = correlation if unit == "correlation" else percent
    return shown(value) if sd is None else f"{shown(value)} ± {shown(sd)}"
