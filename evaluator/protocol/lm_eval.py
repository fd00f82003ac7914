"""How a benchmark has lm-evaluation-harness score its runs, once `neghub export lm-eval` writes them as tasks.

The export (interop/lm_eval.py) writes one document per request, holding NegHub's exact prompt and
continuations; the benchmark's `Benchmark.lm_eval` says, per run, which fields each document adds (the right
answer, as the benchmark knows it), which metrics lm-eval computes over them, and the functions of utils.py that
read an answer or aggregate. The families declare it for every benchmark built from them (a plugin's too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .requests import Request

if TYPE_CHECKING:
    from .plans import RunPlan, RunSettings

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
    # the Python files that define the utils.py functions the task names (`process_results`, an aggregation),
    # written into the export's utils.py after its common part: each imports nothing from NegHub, and no two
    # files of one export may define one name (the export refuses them)
    utils: tuple[Path, ...] = ()


# a benchmark's lm-eval scoring of one of its runs (`Benchmark.lm_eval`), built when the run is exported
LmEvalScorer = Callable[["RunPlan", "RunSettings"], LmEvalScoring]
# what lm-eval prints for a run whose benchmark declares no scoring: no score (`neghub import lm-eval` still
# turns its samples into a submission that NegHub scores)
NO_SCORE = LmEvalScoring(lambda item, request: {}, [{"metric": "bypass"}])
