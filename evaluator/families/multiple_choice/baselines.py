"""The predictions of trivial multiple-choice models (`neghub baseline`): the first option shown, a random one, a
constant one; the same picks in both modes."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.errors import InputError
from .dataset import MultipleChoiceSplit
from .options import option_orders
from .spec import LETTERS, MultipleChoiceSpec

BASELINE_KINDS = ("first", "random", "constant:KEY")


def baseline_choices(spec: MultipleChoiceSpec, kind: str, dataset: MultipleChoiceSplit, seed: int) -> NDArray[np.int8]:
    """The option a trivial model picks for every item, the same in both modes.

    - `first`: the option shown first (letter A) in the option-mode shuffle;
    - `random`: a uniformly random offered option (numpy default_rng(seed));
    - `constant:KEY`: always that option; where an item does not offer it, the option shown first.
    A majority baseline does not apply where the answer is always the same option.
    """
    keys = spec.option_keys
    orders = option_orders(spec, dataset.records)
    first = np.array([keys.index(order[0]) for order in orders], dtype=np.int8)
    if kind == "first":
        return first
    if kind == "random":
        rng = np.random.default_rng(seed)
        return np.array([keys.index(order[int(rng.integers(len(order)))]) for order in orders], dtype=np.int8)
    if kind.startswith("constant:"):
        key = kind.removeprefix("constant:")
        if key not in keys:
            expected = " .. ".join(f"constant:{k}" for k in (keys[0], keys[-1]))
            raise InputError.single("--kind", f"unknown option {key!r} (expected {expected})")
        code = keys.index(key)
        offers = np.array([key in order for order in orders], dtype=np.bool_)
        return np.where(offers, np.int8(code), first).astype(np.int8)
    kinds = ", ".join((*BASELINE_KINDS[:-1], f"constant:{spec.option_keys[0].rstrip('0123456789')}N"))
    raise InputError.single("--kind", f"unknown baseline {kind!r} for {spec.name} (expected {kinds})")


# The picked option's log-likelihood is 0 and the others' -100, so it wins with and without
# length normalisation (-100/len < 0 for any length).
_PICKED_LL = 0.0
_OTHER_LL = -100.0


def baseline_rows(
    spec: MultipleChoiceSpec, kind: str, dataset: MultipleChoiceSplit, mode: str, seed: int
) -> list[dict[str, Any]]:
    """Prediction lines of a baseline in `mode`; both modes' lines pick the same options."""
    chosen = baseline_choices(spec, kind, dataset, seed)
    rows: list[dict[str, Any]] = []
    for record, order, code in zip(dataset.records, option_orders(spec, dataset.records), chosen, strict=True):
        picked = spec.option_keys[int(code)]
        if mode == "option":
            rows.append({"id": spec.item_id(record), "output": LETTERS[order.index(picked)]})
            continue
        lls: dict[str, float | None] = {
            key: (_PICKED_LL if key == picked else _OTHER_LL) if key in spec.offered(record) else None
            for key in spec.option_keys
        }
        rows.append({"id": spec.item_id(record), "loglikelihoods": lls})
    return rows
