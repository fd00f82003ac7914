"""The Ranking rules page (rules.md): the rules in force, generated from `verdicts.RULES` in the order the verdicts
apply them (each with what it reads, gives and what lifts it, its phrase and its sentence), the thresholds and why
each is where it is, the fact each rule trusts, what differs per benchmark (said once, not once per benchmark),
every primary board and verdict rule (from the display blocks), and the dated changes."""

from __future__ import annotations

import jinja2

from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import BootstrapConfig
from .copies import COPY_KAPPA, MIN_ITEMS
from .names import confusables_version
from .ranking import interval_method
from .rules_text import rules_in_words
from .verdicts import PARSED_SHARE_MIN, PARSED_SHARE_WHY, RULES, RULES_CHANGELOG, RULES_VERSION


def rules_page(env: jinja2.Environment) -> str:
    """The ranking and verdict rules in force, their thresholds with why, and their dated changes."""
    primary = []
    for task in benchmark_names():
        board = get_benchmark(task).display.primary_board
        if board is not None:
            why = board.why + (f" {board.no_leader}" if board.no_leader else "")
            primary.append((get_benchmark(task).display.name, board.words, why))
    return env.get_template("rules.md.j2").render(
        title="Ranking rules",
        version=RULES_VERSION,
        changelog=list(reversed(RULES_CHANGELOG)),
        rules=list(enumerate(RULES, start=1)),
        parsed_share=f"{100 * PARSED_SHARE_MIN:.0f} %",
        parsed_why=PARSED_SHARE_WHY,
        copy_kappa=f"{COPY_KAPPA:.2f}",
        copy_items=MIN_ITEMS,
        confusables_version=confusables_version(),
        interval_method=interval_method(BootstrapConfig()),
        benchmarks=[(get_benchmark(t).display.name, rules_in_words(t, shared=False)) for t in benchmark_names()],
        primary=primary,
        verdict_rules=[
            (get_benchmark(t).display.name, get_benchmark(t).display.verdict_rule)
            for t in benchmark_names()
            if get_benchmark(t).display.verdict_rule
        ],
        base="",
    )
