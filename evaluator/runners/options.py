"""The run options of `neghub run`, `prompts`, `import` and `export`, checked against the tasks chosen before a
dataset or a model is read: an option that applies to none of the tasks is refused, naming it and the tasks that
take it; a value that a task it applies to does not take is refused, with "did you mean" where one is close.

Which tasks an option applies to is read from each benchmark as the registry holds it: its family (the
minimal-pair and multiple-choice families take prompt styles, shots and, for the minimal pairs, a chat template
and a classifier's labels; the cloze test its name/profession pairs), its modes, its splits and its prompt
styles. A benchmark of a family NegHub does not know (a plugin building its own) is not checked: it reads its
options itself.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.benchmark import Benchmark
from ..core.errors import InputError, Problem
from ..core.registry import get_benchmark

PROMPTED = ("minimal-pairs", "multiple-choice")
KNOWN_FAMILIES = (*PROMPTED, "cloze")
# which kinds of model answer each family's runs (`--model-kind` of prompts and import)
MODEL_KINDS = {"minimal-pairs": ("causal", "classifier"), "multiple-choice": ("causal",), "cloze": ("causal", "masked")}


@dataclass(frozen=True)
class RunOption:
    """One option: where it is in the parsed arguments and its default (a value that differs is one given), the
    benchmarks it applies to, the values each takes (None: any), and what it is, in a few words."""

    dest: str
    default: Any
    applies: Callable[[Benchmark], bool]
    values: Callable[[Benchmark], Sequence[str]] | None
    what: str


RUN_OPTIONS = {
    "--split": RunOption("split", None, lambda b: b.default_split is not None, lambda b: b.scored_splits, "split"),
    "--mode": RunOption("mode", None, lambda b: bool(b.modes), lambda b: b.modes, "mode"),
    "--prompt": RunOption(
        "prompt", None, lambda b: b.family in PROMPTED, lambda b: b.display.prompt_styles, "prompt style"
    ),
    "--shots": RunOption("shots", 0, lambda b: b.family in PROMPTED, None, "few-shot count"),
    "--seeds": RunOption("seeds", None, lambda b: b.family in PROMPTED, None, "few-shot seeds"),
    "--chat-template": RunOption("chat_template", "auto", lambda b: b.family == "minimal-pairs", None, "chat template"),
    "--label-map": RunOption("label_map", None, lambda b: b.family == "minimal-pairs", None, "classifier's labels"),
    "--head-labels": RunOption("head_labels", None, lambda b: b.family == "minimal-pairs", None, "classifier's labels"),
    "--max-pairs": RunOption("max_pairs", None, lambda b: b.family == "cloze", None, "name/profession pairs"),
    "--model-kind": RunOption(
        "model_kind", "causal", lambda b: True, lambda b: MODEL_KINDS.get(b.family, ("causal",)), "model kind"
    ),
}


def check_run_options(tasks: Sequence[str], args: Any) -> None:
    """Refuse, all at once, every option given (a value other than its default) that applies to none of `tasks`,
    and every value a task it applies to does not take. Nothing is read but the registry."""
    benchmarks = [get_benchmark(task) for task in tasks]
    checked = [b for b in benchmarks if b.family in KNOWN_FAMILIES]
    if len(checked) < len(benchmarks):
        return  # a task of a family NegHub does not know reads its own options
    problems: list[Problem] = []
    for option, rule in RUN_OPTIONS.items():
        given = getattr(args, rule.dest, rule.default)
        if given == rule.default or given is None:
            continue
        taking = [b for b in benchmarks if rule.applies(b)]
        if not taking:
            problems.append(Problem(option, None, None, _applies_to_none(option, rule, tasks)))
            continue
        if rule.values is None:
            continue
        for value in given if isinstance(given, list) else [given]:
            for benchmark in taking:
                allowed = tuple(rule.values(benchmark))
                if value not in allowed:
                    problems.append(Problem(option, None, None, _not_taken(str(value), benchmark.name, rule, allowed)))
    if problems:
        raise InputError(problems)


def _applies_to_none(option: str, rule: RunOption, tasks: Sequence[str]) -> str:
    from ..core.registry import benchmark_names

    takers = [name for name in benchmark_names() if rule.applies(get_benchmark(name))]
    who = f"only {', '.join(takers)} {'takes' if len(takers) == 1 else 'take'} it" if takers else "no task takes it"
    return f"applies to none of the tasks chosen ({', '.join(tasks)}): it sets the {rule.what} ({who}); leave it out"


def _not_taken(value: str, task: str, rule: RunOption, allowed: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(value, allowed, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{task} has no {rule.what} {value!r} (expected {', '.join(allowed)}){hint}"
