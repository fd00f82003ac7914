"""Scoring a multiple-choice file: accuracy (and acc_norm in completion mode) with Wilson intervals, the error
analysis of the paper's section 5.3 / appendix R, and every item's outcome for the result."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.results import HeadlineItems, ItemOutcomes, raw_output_shown
from ...core.stats import BootstrapConfig, wilson_interval
from .dataset import MultipleChoiceSplit
from .reader import Predictions
from .spec import FORMAT_WRONG, MultipleChoiceSpec


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def diagnostics(
    spec: MultipleChoiceSpec, chosen: NDArray[np.int8], dataset: MultipleChoiceSplit, bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """Accuracy and the error analysis of the paper's section 5.3 / appendix R for one vector of chosen options.

    Format-wrong answers count as errors in `acc` and `error_rate`, but "are not included in the
    incorrect choice distribution or confusion rate" (appendix R): the distribution's denominator is
    the wrong answers that named an option, and they are never counted as a confused pick.
    The confusion rate's denominator is every item of the type (section 5.3's example: 32 of 320).
    """
    correct = chosen == dataset.answer_code
    n = int(chosen.size)
    acc = _share(int(correct.sum()), n)
    # Wilson's score interval (never [0, 0] at 0 of n); `bootstrap=None` leaves intervals out
    ci = None if bootstrap is None else wilson_interval(int(correct.sum()), n)
    out: dict[str, Any] = {
        "acc": acc,
        "error_rate": None if acc is None else 1.0 - acc,
        "acc_ci95": None if ci is None else [ci[0], ci[1]],
    }
    if spec.wrong_choice_names:
        wrong = chosen[(chosen >= 0) & ~correct].astype(np.int64)
        wrong_counts = np.bincount(wrong, minlength=len(spec.option_keys))
        wrong_total = int(wrong_counts.sum())
        out["incorrect_choice_distribution"] = {
            name: _share(int(wrong_counts[spec.option_keys.index(key)]), wrong_total)
            for key, name in spec.wrong_choice_names.items()
        }
    if spec.item_types:
        if spec.confusion_key is not None:
            code = spec.option_keys.index(spec.confusion_key)
            out["confusion_rate"] = {
                type_name: _share(
                    int(np.count_nonzero((dataset.type_code == t) & (chosen == code))),
                    int(np.count_nonzero(dataset.type_code == t)),
                )
                for t, type_name in enumerate(spec.item_types)
                if type_name in spec.confusion_types
            }
        out["acc_by_type"] = {
            type_name: _share(
                int(np.count_nonzero(correct & (dataset.type_code == t))), int(np.count_nonzero(dataset.type_code == t))
            )
            for t, type_name in enumerate(spec.item_types)
        }
    return out


def score(
    spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, predictions: Predictions, bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """The metrics of one prediction file: accuracy and diagnostics, in both modes' keys."""
    result: dict[str, Any] = {"mode": predictions.mode, "n_items": int(dataset.ids.size)}
    main = diagnostics(spec, predictions.chosen, dataset, bootstrap)
    result["acc"] = main.pop("acc")
    if predictions.chosen_norm is not None:
        normalised = diagnostics(spec, predictions.chosen_norm, dataset, bootstrap)
        result["acc_norm"] = normalised["acc"]
        result["acc_norm_ci95"] = normalised["acc_ci95"]
    result.update(main)
    result["format_wrong"] = (
        int(np.count_nonzero(predictions.chosen == FORMAT_WRONG)) if predictions.mode == "option" else None
    )
    unparsed = result["format_wrong"] or 0  # a log-likelihood always "parses"; a letter may name no option
    result["answers"] = {"unparsed": unparsed, "parsed_share": _share(result["n_items"] - unparsed, result["n_items"])}
    if spec.item_types:
        result["n_items_by_type"] = {
            type_name: int(np.count_nonzero(dataset.type_code == t)) for t, type_name in enumerate(spec.item_types)
        }
    if predictions.mode == "option":
        result["option_seed"] = spec.option_seed
    result["diagnostics_from"] = "acc (un-normalised arg-max)" if predictions.mode == "completion" else "parsed letters"
    return result


def outcomes(
    spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, predictions: Predictions
) -> tuple[ItemOutcomes, HeadlineItems]:
    """Every item's outcome (the option key it chose, the right one) and the headline per item (accuracy is
    their mean), for the result."""
    ids = [str(spec.item_id(record)) for record in dataset.records]
    chosen = predictions.chosen.tolist()
    correct = predictions.chosen == dataset.answer_code
    wrong_format = [row for row, code in enumerate(chosen) if code == FORMAT_WRONG]
    right = {spec.answer(record) for record in dataset.records}
    items = ItemOutcomes(
        unit="item",
        ids=ids,
        answers=[None if code == FORMAT_WRONG else spec.option_keys[code] for code in chosen],
        expected=[spec.answer(record) for record in dataset.records],
        parsed=[code != FORMAT_WRONG for code in chosen],
        correct=correct.tolist(),
        raw_outputs={ids[row]: raw_output_shown(predictions.outputs[row]) for row in wrong_format},
        answer_labels={
            key: spec.wrong_choice_names.get(key, "the right option" if key in right else key)
            for key in spec.option_keys
        },
        texts=[str(getattr(record, "sentence", "")) for record in dataset.records],
    )
    headline_items = HeadlineItems(
        unit="item (1 when answered right)", keys=ids, values=correct.astype(np.float64).tolist()
    )
    return items, headline_items
