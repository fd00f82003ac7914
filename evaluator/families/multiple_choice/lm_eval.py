"""How lm-evaluation-harness scores a multiple-choice benchmark's exported runs (`Benchmark.lm_eval`).

Completion: lm-eval's own `acc` and `acc_norm` over the offered options, `gold` the right option's index.
Option: `acc`, the share of answers whose letter names the right option in the item's shown order
(lm_eval_utils.py, written into the export's utils.py, parses the letter as options.parse_answer does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...protocol.lm_eval import MEAN, LmEvalScoring
from ...protocol.plans import RunPlan, RunSettings
from ...protocol.requests import Request
from .dataset import load
from .options import option_orders
from .spec import MultipleChoiceSpec

UTILS = Path(__file__).with_name("lm_eval_utils.py")


def multiple_choice_lm_eval(
    spec: MultipleChoiceSpec, default_split: str, plan: RunPlan, settings: RunSettings
) -> LmEvalScoring:
    """The scoring of one exported run; its items are (record, prompt) pairs, as the family's plans make them."""
    if plan.mode == "completion":
        return LmEvalScoring(
            lambda item, request: {"gold": spec.offered(item[0]).index(spec.answer(item[0]))},
            [{"metric": "acc", **MEAN}, {"metric": "acc_norm", **MEAN}],
        )
    split = plan.split or default_split
    records = load(spec, split, data_dir=settings.data_dir, unverified=settings.unverified).records
    orders = {spec.item_id(r): order for r, order in zip(records, option_orders(spec, records), strict=True)}

    def fields(item: Any, request: Request) -> dict[str, Any]:
        order = orders[spec.item_id(item[0])]
        return {"gold": order.index(spec.answer(item[0])), "n_options": len(order)}

    return LmEvalScoring(fields, [{"metric": "acc", **MEAN}], "process_option_letter", (UTILS,))
