"""Numbers as NegHub's tables print them (the evaluator's text reports, the site's tables): a fixed number of
decimals, never `-0.00` (a value that rounds to zero is shown without a sign: -0.00004 is no loss), and `n/a` for
a value that does not exist, never followed by the unit (`n/a%`)."""

from __future__ import annotations

import math


def fixed(value: float | None, digits: int = 2, *, scale: float = 1.0, unit: str = "") -> str:
    """`value` times `scale` with `digits` decimals and `unit` after it; `n/a` (no unit) for None or NaN."""
    if value is None or math.isnan(value):
        return "n/a"
    text = f"{scale * value:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text + unit


def percent(value: float | None, *, unit: str = "") -> str:
    """A fraction in percent (or percentage points) with two decimals, as the papers print them."""
    return fixed(value, 2, scale=100, unit=unit)
