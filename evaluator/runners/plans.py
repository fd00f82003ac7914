"""Deprecated since NegHub 0.2.0, removed in 0.3.0.

`neghub.evaluator.runners.plans` moved to `neghub.evaluator.protocol.plans`
(commit e607791). A plugin imports from `neghub.evaluator.plugin` (CHANGELOG.md, "Plugin API"); this module
re-exports what it held, for plugins written before the move, and warns once per process."""

from __future__ import annotations

from ..protocol.deprecation import warn_moved
from ..protocol.plans import (
    DEFAULT_SEEDS,
    PARTIAL_ITEMS,
    SAMPLE_SEED,
    SPLIT_ITEMS,
    Process,
    Rows,
    RunPlan,
    RunSettings,
    batches,
    partial_sample,
    prompt_lengths,
    token_batches,
)

__all__ = [
    "DEFAULT_SEEDS",
    "PARTIAL_ITEMS",
    "SAMPLE_SEED",
    "SPLIT_ITEMS",
    "Process",
    "Rows",
    "RunPlan",
    "RunSettings",
    "batches",
    "partial_sample",
    "prompt_lengths",
    "token_batches",
]

warn_moved("neghub.evaluator.runners.plans", ("RunPlan", "RunSettings", "Rows"), since="0.2.0", removal="0.3.0")
