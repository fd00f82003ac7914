"""The rule rows' results: each rule a benchmark declares (`Benchmark.references`), scored as NegHub scores a file.

The leaderboard's floors are trivial models NegHub computes itself, on the items of a scored result (a board's
split, or, where each model keeps its own items, one row's): each constant answer, scored like any prediction file
of the benchmark, and random guessing as each headline unit's expected score. The leaderboard reads the `Result`s
this returns and nothing else; it scores nothing.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..core.benchmark import EvalOptions, ReferenceRule
from ..core.registry import get_benchmark
from ..core.results import Result


@dataclass(frozen=True)
class RuleResult:
    """A rule and what NegHub computed of it: a whole result (a rule that answers), or its expected headline per
    unit (random guessing: `expected`, keyed as the result's headline units)."""

    rule: ReferenceRule
    result: Result | None
    expected: tuple[tuple[str, ...], tuple[float, ...]] | None = None


def rule_results(result: Result, data_dir: Path | None) -> list[RuleResult]:
    """The rule rows of `result`'s benchmark on `result`'s items."""
    benchmark = get_benchmark(result.provenance.task)
    if benchmark.references is None:
        return []
    options = EvalOptions(split=result.provenance.split, mode=result.provenance.mode, data_dir=data_dir)
    out = []
    for rule in benchmark.references(result, options):
        if rule.lines is not None:
            with tempfile.TemporaryDirectory(prefix="neghub-rule-") as folder:
                path = Path(folder) / "rule.jsonl"
                path.write_text("".join(json.dumps(line) + "\n" for line in rule.lines), encoding="utf-8")
                out.append(RuleResult(rule, benchmark.evaluate(path, options)))
        elif rule.expected is not None and result.headline_items is not None:
            keys = tuple(result.headline_items.keys)
            out.append(RuleResult(rule, None, (keys, tuple(rule.expected[key] for key in keys))))
    return out
