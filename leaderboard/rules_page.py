"""The Ranking rules page (rules.md): the rules in force, in words, with their thresholds and why each is where
it is, every benchmark's ranking rule and verdict rule (from its display block), and the dated changes."""

from __future__ import annotations

import jinja2

from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import BootstrapConfig
from .ranking import interval_method
from .verdicts import (
    NEAR_COPY_SHARE,
    NEAR_COPY_WHY,
    PARSED_SHARE_MIN,
    PARSED_SHARE_WHY,
    RULES_CHANGELOG,
    RULES_VERSION,
    rules_in_words,
)


def rules_page(env: jinja2.Environment) -> str:
    """The ranking and verdict rules in force, their thresholds with why, and their dated changes."""
    return env.get_template("rules.md.j2").render(
        title="Ranking rules",
        version=RULES_VERSION,
        changelog=list(reversed(RULES_CHANGELOG)),
        parsed_share=f"{100 * PARSED_SHARE_MIN:.0f} %",
        parsed_why=PARSED_SHARE_WHY,
        near_copy=f"{100 * NEAR_COPY_SHARE:.0f} %",
        near_copy_why=NEAR_COPY_WHY,
        interval_method=interval_method(BootstrapConfig()),
        benchmarks=[(get_benchmark(t).display.name, rules_in_words(t)) for t in benchmark_names()],
        verdict_rules=[
            (get_benchmark(t).display.name, get_benchmark(t).display.verdict_rule)
            for t in benchmark_names()
            if get_benchmark(t).display.verdict_rule
        ],
        base="",
    )
