"""How lm-evaluation-harness scores the cloze test's exported runs (`Benchmark.lm_eval`): no right answer per
request; lm_eval_utils.py's aggregation, written into the export's utils.py, selects the triplets as NegHub does and
counts the pronoun variant's drops, negation contrast and triplets over the whole task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...protocol.lm_eval import LmEvalScoring
from ...protocol.plans import RunPlan, RunSettings
from ...protocol.requests import Request
from .lm_eval_utils import SCN_METRICS
from .words import load_word_lists

UTILS = Path(__file__).with_name("lm_eval_utils.py")
HIGHER_IS_BETTER = {"negation_contrast": True, "drop_CpTn": True, "drop_CnTp": True, "triplets": True}


def lm_eval_scoring(plan: RunPlan, settings: RunSettings) -> LmEvalScoring:
    verb_index = {verb: i for i, verb in enumerate(load_word_lists().verbs)}
    # the task's documents (every pair asks as many): what the aggregation compares with those --limit ran
    assert plan.requests is not None
    documents = len(plan.items) * len(plan.requests(plan.items[0])) if plan.items else 0

    def fields(item: Any, request: Request) -> dict[str, Any]:
        triplet = str(request.id).split("|")  # NAME|PROF|variant|verb|pattern (protocol.request_id)
        return {"triplet": triplet, "verb_index": verb_index[triplet[3]], "seed": plan.seed, "documents": documents}

    aggregate = "!function utils.scn_aggregate"
    metrics = [
        {"metric": m, "aggregation": aggregate, "higher_is_better": HIGHER_IS_BETTER.get(m, False)} for m in SCN_METRICS
    ]
    return LmEvalScoring(fields, metrics, "process_scn", (UTILS,))
