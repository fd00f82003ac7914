"""The predictions of trivial minimal-pair models (`neghub baseline`): the train split's majority, uniform random,
a constant; and the rule rows the leaderboard computes from them (`reference_rules`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.benchmark import EvalOptions, ReferenceRule
from ...core.errors import InputError
from ...core.results import Result
from .dataset import MinimalPairDataset


def baseline_codes(
    kind: str,
    dataset: MinimalPairDataset,
    seed: int,
    *,
    n_values: int,
    parse: Callable[[Any], int],
    train: Callable[[], MinimalPairDataset],
) -> NDArray[np.int64]:
    """Predictions of a trivial model: the train split's majority gold, uniform random (seeded), or a constant."""
    n = dataset.ids.size
    if kind == "majority":
        # the train split's majority, as a model that learned only the label prior would answer
        value = int(np.bincount(train().gold.astype(np.int64), minlength=n_values).argmax())
        return np.full(n, value, dtype=np.int64)
    if kind == "random":
        return np.random.default_rng(seed).integers(0, n_values, size=n)
    if kind.startswith("constant:"):
        raw = kind.removeprefix("constant:")
        try:
            value = parse(int(raw) if raw.isdigit() else raw)
        except ValueError as exc:
            raise InputError.single("--kind", str(exc)) from None
        return np.full(n, value, dtype=np.int64)
    raise InputError.single("--kind", f"unknown baseline {kind!r} (expected majority, random or constant:VALUE)")


def reference_rules(
    n_values: int, prediction_value: Callable[[int], Any], result: Result, _options: EvalOptions
) -> list[ReferenceRule]:
    """The rule rows NegHub computes on a board of a minimal-pair benchmark: each constant answer, on the items of
    `result` (the board's split), and random guessing as each unit's expected score. The headline's unit is one
    answer right or wrong (a pair of M_i is right when its treatment is), so a uniformly drawn answer is right
    there with probability 1/n_values, exactly."""
    ids = [int(item) for item in result.items.ids]
    rules = [
        ReferenceRule(
            name=f"Rule: always {prediction_value(value)!r}",
            words=f"answers {prediction_value(value)!r} to every item",
            lines=tuple({"id": item, "prediction": prediction_value(value)} for item in ids),
        )
        for value in range(n_values)
    ]
    if result.headline_items is not None:
        share = 1.0 / n_values
        rules.append(
            ReferenceRule(
                name="Rule: random guessing (expected score)",
                words=f"draws each answer uniformly from the {n_values} answers: each unit's expected score is "
                f"1/{n_values}",
                expected=dict.fromkeys(result.headline_items.keys, share),
            )
        )
    return rules
