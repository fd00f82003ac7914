"""The predictions of trivial multiple-choice models (`neghub baseline`): the first option shown, a random one, a
constant one; the same picks in both modes. And the rule rows the leaderboard computes (`reference_rules`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.benchmark import ReferenceRule
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
    return choice_lines(spec, dataset, baseline_choices(spec, kind, dataset, seed), mode)


def choice_lines(
    spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, chosen: NDArray[np.int8], mode: str
) -> list[dict[str, Any]]:
    """The prediction lines, in `mode`, of a model that picks option `chosen[i]` (a code of spec.option_keys) for
    item i."""
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


def reference_rules(spec: MultipleChoiceSpec, dataset: MultipleChoiceSplit, mode: str) -> list[ReferenceRule]:
    """The rule rows NegHub computes on a board of a multiple-choice benchmark: each position a model can always
    answer (the option shown first, second, ...; an item that shows fewer options gets the first), and random
    guessing as each item's expected score, 1 / the options it shows. The option keys are never a rule: a model
    does not see them (always picking the right kind would be an oracle)."""
    orders = option_orders(spec, dataset.records)
    rules = []
    for position in range(max(len(order) for order in orders)):
        chosen = np.array(
            [spec.option_keys.index(order[position] if position < len(order) else order[0]) for order in orders],
            dtype=np.int8,
        )
        letter = LETTERS[position]
        rules.append(
            ReferenceRule(
                name=f"Rule: always option {letter}",
                words=f"picks the option shown as {letter} (where an item shows fewer, the one shown as A)",
                lines=tuple(choice_lines(spec, dataset, chosen, mode)),
            )
        )
    rules.append(
        ReferenceRule(
            name="Rule: random guessing (expected score)",
            words="picks one of the options an item shows uniformly at random: each item's expected score is 1 / the "
            "number of options it shows",
            expected={str(spec.item_id(r)): 1.0 / len(o) for r, o in zip(dataset.records, orders, strict=True)},
        )
    )
    return rules
