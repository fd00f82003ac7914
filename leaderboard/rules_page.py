"""The Ranking rules page (rules.md): the rules in force, generated from `verdicts.RULES` in the order the verdicts
apply them (each with what it reads, gives and what lifts it, its phrase and its sentence), the thresholds and why
each is where it is, the fact each rule trusts, what differs per benchmark (said once, not once per benchmark),
every primary board and verdict rule (from the display blocks), and the dated changes."""

from __future__ import annotations

import jinja2

from ..evaluator.core.contamination import DEFAULT_ALPHA, DEFAULT_SAMPLE_UNITS
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import BootstrapConfig
from .copies import COPY_KAPPA, MIN_ITEMS
from .names import confusables_version
from .ranking import SPEC_SUPERSEDED, interval_method
from .rules_text import rules_in_words
from .verdicts import PARSED_SHARE_MIN, PARSED_SHARE_WHY, RULES, RULES_CHANGELOG, RULES_VERSION


# what a re-run's contamination probe does and what it cannot see (evaluator/core/contamination.py; the false-mark
# rates and the gaps are those its tests measured on simulated honest models: tests/test_contamination_probe.py)
def probe_words(names: list[str]) -> str:
    """The probe in words, for the benchmarks that declare one (Benchmark.contamination_probe)."""
    if not names:
        return "No benchmark declares a contamination probe."
    return (
        f"Every re-run of a {' or '.join(names)} run on its evaluation split also answers "
        f"{DEFAULT_SAMPLE_UNITS:,} M_i pairs of the train split, drawn to the evaluation split's mix of gold label "
        "and pair kind. The record shows both M_i Acc′ and their difference; a difference beyond a one-sided test "
        f"at α = {100 * DEFAULT_ALPHA:g} %, its variance clustered by source sentence pair, is a mark the "
        "maintainers see (never a hold). Honest simulated models were marked at most 0.4 % of the time, and the "
        "constant answers never. At 80 % power it sees a gap of about 9–10 points of M_i Acc′ (11.5 where a "
        "model's answers are correlated within a source pair). It adds about 1,000 train items to each such re-run. "
        "It cannot see a model trained on the train split as well as the evaluation split, nor a smaller gap."
    )


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
        spec_superseded=SPEC_SUPERSEDED,
        probe=probe_words(
            [get_benchmark(t).display.name for t in benchmark_names() if get_benchmark(t).contamination_probe]
        ),
        benchmarks=[(get_benchmark(t).display.name, rules_in_words(t, shared=False)) for t in benchmark_names()],
        primary=primary,
        verdict_rules=[
            (get_benchmark(t).display.name, get_benchmark(t).display.verdict_rule)
            for t in benchmark_names()
            if get_benchmark(t).display.verdict_rule
        ],
        base="",
    )
