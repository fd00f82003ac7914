"""The predictions of trivial minimal-pair models (`neghub baseline`): the train split's majority, uniform random,
a constant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.errors import InputError
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
