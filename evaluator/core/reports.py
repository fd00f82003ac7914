"""The pieces every benchmark's text report (`neghub evaluate` without --json) is written with.

Reports print fractions as percentages with two decimals, as the papers print them, never `-0.00`; `n/a` where a
figure has no value (no items of a kind, no interval), never followed by its unit (core/numbers.py). The JSON
result keeps the fractions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .numbers import percent
from .results import Result


def pct(value: float | None, width: int = 0, *, unit: str = "") -> str:
    """A fraction as a percentage with two decimals and `unit` after it, right-aligned in `width` characters."""
    return percent(value, unit=unit).rjust(width)


def interval(ci: Sequence[float] | None) -> str:
    """A 95% interval of fractions as `[low, high]` in percent, or `n/a`."""
    return "n/a" if ci is None else f"[{pct(ci[0])}, {pct(ci[1])}]"


def percentages(values: Mapping[str, float | None]) -> str:
    """`key 12.50%, key 3.00%`: a breakdown of fractions in one line."""
    return ", ".join(f"{key} {pct(value, unit='%')}" for key, value in values.items())


def heading(result: Result, setting: str = "", *details: str) -> str:
    """The report's first line: the task (and `setting`, in parentheses: its split and mode), the evaluator's and
    the task's versions, then `details`."""
    prov = result.provenance
    task = f"{prov.task} ({setting})" if setting else prov.task
    return ", ".join((task, f"evaluator {prov.evaluator_version}", f"task version {prov.task_version}", *details))
