"""What every performance script prints and checks around its timings (imported by the scripts, which run with
perf/ on their path): the machine and its load, and a refusal, exit 1, where its inputs were not accepted, so
that a script never times, and never calls "met", a run that measured nothing."""

from __future__ import annotations

import os
import platform
import sys
from typing import NoReturn


def load() -> str:
    """The 1, 5 and 15 minute load averages (/proc/loadavg), or "unknown" where the system does not say."""
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


def machine_line() -> str:
    """`machine: ..., N cores, Python X, load A B C (1/5/15 min)`: what a figure was measured on."""
    processor = platform.processor() or platform.machine()
    python = platform.python_version()
    return f"machine: {processor}, {os.cpu_count()} cores, Python {python}, load {load()} (1/5/15 min)"


def refuse(what: str) -> NoReturn:
    """Stop before timing anything: the inputs were not accepted, so a timing would measure nothing."""
    print(f"error: {what}: nothing measured", file=sys.stderr)
    sys.exit(1)


def require(condition: bool, what: str) -> None:
    """`refuse(what)` unless `condition` (a check of the inputs, not an assert: it holds under python -O)."""
    if not condition:
        refuse(what)
