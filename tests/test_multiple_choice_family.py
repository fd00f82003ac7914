"""What the multiple-choice family gives a benchmark beside the scorer: prediction-line models derived from its
option keys, and option orders that a benchmark may set item by item (checked to be orders of the item's
options)."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from neghub.evaluator.benchmarks import nubench
from neghub.evaluator.families.multiple_choice import option_orders, prediction_line_models


def test_derived_lines_allow_null_exactly_for_the_options_some_items_lack() -> None:
    completion = prediction_line_models(nubench.SPEC, "NUBench")["completion"]
    full = {"choice1": -1.0, "choice2": -2.0, "choice3": -3.0, "choice4": -4.0}
    completion.model_validate({"id": 0, "loglikelihoods": full})
    completion.model_validate({"id": 0, "loglikelihoods": {**full, "choice2": None}})  # a three-option item
    for key in ("choice1", "choice3", "choice4"):
        with pytest.raises(ValidationError):
            completion.model_validate({"id": 0, "loglikelihoods": {**full, key: None}})
    # a benchmark whose every item offers every option allows no null at all
    every = dataclasses.replace(nubench.SPEC, optional_options={})
    with pytest.raises(ValidationError):
        prediction_line_models(every, "NUBench")["completion"].model_validate(
            {"id": 0, "loglikelihoods": {**full, "choice2": None}}
        )


def test_the_option_line_caps_the_raw_output() -> None:
    option = prediction_line_models(nubench.SPEC, "NUBench")["option"]
    option.model_validate({"id": 3, "output": "B" * nubench.MAX_OUTPUT_CHARS})
    with pytest.raises(ValidationError):
        option.model_validate({"id": 3, "output": "B" * (nubench.MAX_OUTPUT_CHARS + 1)})


def test_an_option_order_hook_that_drops_an_option_is_refused() -> None:
    records = nubench.load("test").records[:3]
    dropping = dataclasses.replace(nubench.SPEC, option_order=lambda record, offered, seed: offered[1:])
    with pytest.raises(ValueError, match=r"nubench: the option order of item \d+ is .*not an order of the options"):
        option_orders(dropping, records)
    # reversing each item's options is an order of them, and is what the letters then show
    reversing = dataclasses.replace(nubench.SPEC, option_order=lambda record, offered, seed: offered[::-1])
    assert option_orders(reversing, records) == [tuple(reversed(r.option_keys())) for r in records]
