"""How a benchmark has lm-evaluation-harness score its runs, once `neghub export lm-eval` writes them as tasks.

The export (interop/lm_eval.py) writes one document per request, holding NegHub's exact prompt and
continuations; the benchmark's `Benchmark.lm_eval` says, per run, which fields each document adds (the right
answer, as the benchmark knows it) and which metrics lm-eval computes over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .requests import Request

# the fields one document adds for a request of an item (the item as the run's plan holds it)
AnswerFields = Callable[[Any, Request], dict[str, Any]]
# lm-eval's metric entry for a figure it averages over the documents, higher being better
MEAN: dict[str, Any] = {"aggregation": "mean", "higher_is_better": True}


@dataclass(frozen=True)
class LmEvalScoring:
    """How lm-eval scores one exported run: the answer fields of each document (what utils.py reads),
    the task's metrics, and for a generation run the utils.py function that reads an answer."""

    fields: AnswerFields
    metric_list: list[dict[str, Any]]
    process_results: str | None = None
