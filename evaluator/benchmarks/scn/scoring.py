"""Scoring an SCN file: repetition and drop per variant and pattern with Wilson intervals, the negation contrast
with its bootstrap interval, the verdict (criterion.py: NegHub's reading of the paper's criterion) and every
triplet's outcome for the result."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.results import ItemOutcomes
from ...core.stats import (
    BootstrapConfig,
    bootstrap_categories_ci,
    cluster_bootstrap_categories_ci,
    cluster_index,
    two_way_design_effect,
    wilson_interval,
)
from .criterion import Triplets, judge
from .metadata import PATTERNS, VARIANTS
from .reader import Predictions


def score(
    predictions: Predictions, bootstrap: BootstrapConfig, outcome: NDArray[np.int64] | None = None
) -> dict[str, Any]:
    """Repetition and drop per variant and pattern with their intervals, the negation contrast, and the verdict.

    A checked file has exactly one row per (triplet, pattern), so the counts of one bincount over
    variant x pattern cells are all that is needed. Repetition and drop are proportions of triplets:
    Wilson intervals; the contrast's interval resamples triplets (a percentile bootstrap). The verdict's
    comparisons of two patterns pair their triplets: they read each variant's counts of the 32 triplet outcomes.
    """
    n_cells = len(VARIANTS) * len(PATTERNS)
    cell = predictions.variant.astype(np.int64) * len(PATTERNS) + predictions.pattern
    n = np.bincount(cell, minlength=n_cells).reshape(len(VARIANTS), len(PATTERNS))
    hits = np.bincount(cell[predictions.repeated], minlength=n_cells).reshape(len(VARIANTS), len(PATTERNS))
    # each triplet's outcome as bits (bit p: pattern p repeated the verb): the contrast's interval resamples
    # triplets, and a resample changes it only through how many triplets show each of the 32 outcomes
    if outcome is None:  # `triplet_outcomes(predictions)`, where the caller has not computed it already
        outcome = triplet_outcomes(predictions)
    triplet_variant = np.zeros(len(predictions.triplet_keys), dtype=np.int64)
    triplet_variant[predictions.triplet] = predictions.variant
    outcome_counts = {
        variant: np.bincount(outcome[triplet_variant == v], minlength=2 ** len(PATTERNS))
        for v, variant in enumerate(VARIANTS)
    }
    triplets = triplet_clusters(predictions, outcome, triplet_variant)
    variants: dict[str, Any] = {}
    for v, variant in enumerate(VARIANTS):
        patterns: dict[str, Any] = {}
        for p, pattern in enumerate(PATTERNS):
            count, hit = int(n[v, p]), int(hits[v, p])
            bits, pairs, verbs = triplets[variant]
            # the triplets of one name/profession pair, and of one verb, are not independent: Wilson's interval at
            # the effective sample size, clustered both ways (stats.py)
            effect = two_way_design_effect(((bits >> p) & 1).astype(np.float64), pairs, verbs) if bits.size else 1.0
            ci = wilson_interval(hit, count, design_effect=effect)
            patterns[pattern] = {
                "n": count,
                "repetition": hit / count if count else None,
                # (n - hits) / n rather than 1 - repetition: exact for the fractions tests write by hand
                "drop": (count - hit) / count if count else None,
                "repetition_ci95": None if ci is None else [ci[0], ci[1]],
                "drop_ci95": None if ci is None else [1.0 - ci[1], 1.0 - ci[0]],
                "design_effect": effect,
            }
        contrast = negation_contrast({p: patterns[p]["drop"] for p in PATTERNS})
        # the contrast's interval draws whole name/profession pairs (up to 20 verbs each share a pair): a cluster
        # bootstrap one way (the verbs of each pair are drawn at random, as the paper selects them). It is never
        # narrower than the triplets' own bootstrap (the union of the two; as a design effect is floored at 1): pairs
        # that happen to agree exactly would otherwise leave the verbs' sampling out, and a file of one pair has no
        # pairs to draw
        bits, pairs, _ = triplets[variant]
        contrast_ci = _union(
            bootstrap_categories_ci(outcome_counts[variant], _contrast_of_outcome_counts, bootstrap),
            cluster_bootstrap_categories_ci(_counts_by_pair(bits, pairs), _contrast_of_outcome_counts, bootstrap),
        )
        variants[variant] = {
            "n_triplets": int(n[v, 0]),
            "patterns": patterns,
            "negation_contrast": contrast,
            # a percentile bootstrap over triplets whose outcomes are all alike is [c, c]: no interval at all
            "negation_contrast_ci95": None
            if contrast_ci is None or contrast_ci[0] == contrast_ci[1]
            else [contrast_ci[0], contrast_ci[1]],
        }
    return {"n_predictions": predictions.size, "variants": variants, **judge(outcome_counts, triplets)}


def _counts_by_pair(bits: NDArray[np.int64], pairs: NDArray[Any]) -> NDArray[np.int64]:
    """(pairs x 32) counts of the triplets' outcomes, one row per name/profession pair."""
    outcomes_n = 2 ** len(PATTERNS)
    pair_index = cluster_index(pairs) if bits.size else np.zeros(0, dtype=np.intp)
    groups = int(pair_index.max()) + 1 if pair_index.size else 0
    counts: NDArray[np.int64] = np.bincount(pair_index * outcomes_n + bits, minlength=groups * outcomes_n).reshape(
        groups, outcomes_n
    )
    return counts


def _union(first: tuple[float, float] | None, second: tuple[float, float] | None) -> tuple[float, float] | None:
    if first is None or second is None:
        return first or second
    return (min(first[0], second[0]), max(first[1], second[1]))


def triplet_clusters(
    predictions: Predictions, outcome: NDArray[np.int64], triplet_variant: NDArray[np.int64]
) -> dict[str, Triplets]:
    """Each variant's triplets: their outcome bits, their name/profession pair and their verb as cluster indices
    (a pair holds up to 20 verbs; a verb serves many pairs: the two ways the triplets share a source)."""
    keys = predictions.triplet_keys
    pair = cluster_index([f"{name}\x1f{profession}" for name, profession, _, _ in keys]) if keys else np.zeros(0)
    verb = cluster_index([verb for _, _, verb, _ in keys]) if keys else np.zeros(0)
    out: dict[str, Triplets] = {}
    for v, variant in enumerate(VARIANTS):
        mask = np.flatnonzero(triplet_variant == v)
        # in the order of (pair, verb), not of the file's lines: the design effect's sums are then the same
        # floating-point sums however the file is ordered
        order = mask[np.lexsort((verb[mask], pair[mask]))]
        out[variant] = (outcome[order], pair[order], verb[order])
    return out


def triplet_outcomes(predictions: Predictions) -> NDArray[np.int64]:
    """Each triplet's outcome as bits, in the order triplets first appear: bit p set when pattern p repeated."""
    bits = predictions.repeated.astype(np.int64) << predictions.pattern.astype(np.int64)
    n_all = len(predictions.triplet_keys)
    return np.bincount(predictions.triplet, weights=bits, minlength=n_all).astype(np.int64)


def outcomes(predictions: Predictions, outcome: NDArray[np.int64] | None = None) -> ItemOutcomes:
    """Every triplet's outcome for the result: its answer is one character per pattern (PATTERNS' order), 1 where
    the top-1 repeated the verb. A triplet has no right answer: the test reads the drops, not the items."""
    bits = (triplet_outcomes(predictions) if outcome is None else outcome).tolist()
    answers = ["".join("1" if b >> p & 1 else "0" for p in range(len(PATTERNS))) for b in bits]
    return ItemOutcomes(
        unit=f"triplet (answer: per pattern {', '.join(PATTERNS)}, 1 when the top-1 repeats the verb)",
        ids=[f"{variant}|{name}|{profession}|{verb}" for name, profession, verb, variant in predictions.triplet_keys],
        answers=list(answers),
        expected=None,
        parsed=[True] * len(answers),
        correct=None,
        raw_outputs={},
    )


# OUTCOME_REPEATS[k, p]: whether outcome k (a triplet's bits) has pattern p repeating the verb
OUTCOME_REPEATS = ((np.arange(2 ** len(PATTERNS))[:, None] >> np.arange(len(PATTERNS))[None, :]) & 1).astype(np.float64)


def _contrast_of_outcome_counts(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    """negation_contrast of each resample, from its (resamples x 32) counts of triplet outcomes."""
    drops = 1.0 - (counts @ OUTCOME_REPEATS) / counts.sum(axis=1, keepdims=True)
    column = {p: drops[:, i] for i, p in enumerate(PATTERNS)}
    contrast: NDArray[np.float64] = np.minimum(column["CpTn"], column["CnTp"]) - np.maximum(
        column["CnTn"], column["CpTv"]
    )
    return contrast


def negation_contrast(drops: dict[str, float | None]) -> float | None:
    """min(drop CpTn, drop CnTp) - max(drop CnTn, drop CpTv): how far the forbidden-repetition patterns
    drop beyond the controls (a statistic of NegHub's; the verdict is criterion.py's)."""
    values = [drops[p] for p in ("CpTn", "CnTp", "CnTn", "CpTv")]
    if any(value is None for value in values):
        return None
    cptn, cntp, cntn, cptv = (float(value) for value in values if value is not None)
    return min(cptn, cntp) - max(cntn, cptv)


def derive_metrics(metrics: dict[str, float]) -> dict[str, float]:
    """A paper row gives drops only: the negation contrast of each variant, from them."""
    out: dict[str, float] = {}
    for variant in VARIANTS:
        base = f"variants.{variant}.patterns"
        contrast = negation_contrast({p: metrics.get(f"{base}.{p}.drop") for p in ("CpTn", "CnTp", "CnTn", "CpTv")})
        if contrast is not None:
            out[f"variants.{variant}.negation_contrast"] = contrast
    return out
