"""Scoring an SCN file: repetition and drop per variant and pattern with Wilson intervals, the negation contrast
with its bootstrap interval, the paper's three-way verdict, and every triplet's outcome for the result."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ...core.results import ItemOutcomes
from ...core.stats import BootstrapConfig, bootstrap_categories_ci, wilson_interval
from .metadata import PATTERNS, VARIANTS
from .reader import Predictions

# The verdict in the paper's terms (section 3.3, l.246): "passing our test implies having strong drops for the
# CpTn and CnTp patterns, and that these drops be greater than in the control pattern CpTv, and to a lesser extent
# in the CnTn pattern"; a large CpTv drop "would prevent any positive interpretation" (l.228). The paper gives no
# numbers; these are the round values under which its Table 6 reads as its text does (the table's values where
# the text differs, as for roberta-base, whose text says 20.7 / 46.7 / 21.3):
# - a negated pattern's drop is STRONG at 50 points or more (most of the repetitions suppressed): every drop the
#   paper counts as showing the effect (roberta-large 64.7 and 82.8, roberta-base CnTp 66.9) is above it, every one
#   it does not (bert-base 3.6 / 1.2, bert-large 44.7 / 16.5, roberta-base CpTn 27.7) below;
# - it must exceed the CpTv control's drop by CONTROL_MARGIN, 10 points ("since the drop for the CpTv control is
#   21.3, only the 46.7 drop is significant"), and the CnTn control's drop at all ("to a lesser extent");
# - a CpTv drop of CPTV_VETO, 35 points, or more fails the model whatever else: the round value about midway
#   between the highest CpTv drop the paper accepts (roberta-large, 26.0) and the lowest it calls "still too
#   high" (bert-large, 42.9).
# Both negated patterns showing the effect: passes; one: partially passes; none: fails.
STRONG_DROP = 0.50
CONTROL_MARGIN = 0.10
CPTV_VETO = 0.35
NEGATED_PATTERNS = ("CpTn", "CnTp")
Verdict = Literal["passes", "partially passes", "fails"]


def score(
    predictions: Predictions, bootstrap: BootstrapConfig, outcome: NDArray[np.int64] | None = None
) -> dict[str, Any]:
    """Repetition and drop per variant and pattern with their intervals, the negation contrast, and the verdict.

    A checked file has exactly one row per (triplet, pattern), so the counts of one bincount over
    variant x pattern cells are all that is needed. Repetition and drop are proportions of triplets:
    Wilson intervals; the contrast's interval resamples triplets (a percentile bootstrap).
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
    variants: dict[str, Any] = {}
    for v, variant in enumerate(VARIANTS):
        patterns: dict[str, Any] = {}
        for p, pattern in enumerate(PATTERNS):
            count, hit = int(n[v, p]), int(hits[v, p])
            ci = wilson_interval(hit, count)
            patterns[pattern] = {
                "n": count,
                "repetition": hit / count if count else None,
                # (n - hits) / n rather than 1 - repetition: exact for the fractions tests write by hand
                "drop": (count - hit) / count if count else None,
                "repetition_ci95": None if ci is None else [ci[0], ci[1]],
                "drop_ci95": None if ci is None else [1.0 - ci[1], 1.0 - ci[0]],
            }
        drops = {p: patterns[p]["drop"] for p in PATTERNS}
        contrast = negation_contrast(drops)
        outcomes = np.bincount(outcome[triplet_variant == v], minlength=2 ** len(PATTERNS))
        contrast_ci = bootstrap_categories_ci(outcomes, _contrast_of_outcome_counts, bootstrap)
        verdict, reason = scn_verdict(drops)
        variants[variant] = {
            "n_triplets": int(n[v, 0]),
            "patterns": patterns,
            "negation_contrast": contrast,
            # a percentile bootstrap over triplets whose outcomes are all alike is [c, c]: no interval at all
            "negation_contrast_ci95": None
            if contrast_ci is None or contrast_ci[0] == contrast_ci[1]
            else [contrast_ci[0], contrast_ci[1]],
            "verdict": verdict,
            "verdict_reason": reason,
        }
    return {
        "n_predictions": predictions.size,
        "variants": variants,
        "verdict_thresholds": {"strong_drop": STRONG_DROP, "control_margin": CONTROL_MARGIN, "cptv_veto": CPTV_VETO},
        "verdict": variants["pronoun"]["verdict"],
    }


def scn_verdict(drops: dict[str, float | None]) -> tuple[Verdict | None, str | None]:
    """The paper's three-way verdict from the four drops (fractions), with its reason in words (see STRONG_DROP)."""
    values = {p: drops.get(p) for p in ("CpTn", "CnTp", "CnTn", "CpTv")}
    if any(value is None for value in values.values()):
        return None, None
    drop = {p: float(value) for p, value in values.items() if value is not None}

    def points(value: float) -> str:
        return f"{100 * value:.1f}"

    if drop["CpTv"] >= CPTV_VETO:
        return "fails", (
            f"the CpTv control drops {points(drop['CpTv'])} points (>= {points(CPTV_VETO)}): any change to the "
            "target disturbs the model, which prevents any positive interpretation"
        )
    showing = [
        p
        for p in NEGATED_PATTERNS
        if drop[p] >= STRONG_DROP and drop[p] - drop["CpTv"] >= CONTROL_MARGIN and drop[p] > drop["CnTn"]
    ]
    criterion = (
        f"a strong drop (>= {points(STRONG_DROP)} points), {points(CONTROL_MARGIN)} points above CpTv's "
        f"({points(drop['CpTv'])}) and above CnTn's ({points(drop['CnTn'])})"
    )
    if len(showing) == len(NEGATED_PATTERNS):
        return "passes", f"CpTn ({points(drop['CpTn'])}) and CnTp ({points(drop['CnTp'])}) both show {criterion}"
    if showing:
        other = next(p for p in NEGATED_PATTERNS if p not in showing)
        return "partially passes", (
            f"only {showing[0]} ({points(drop[showing[0]])}) shows {criterion}; {other} drops {points(drop[other])}"
        )
    return "fails", f"neither CpTn ({points(drop['CpTn'])}) nor CnTp ({points(drop['CnTp'])}) shows {criterion}"


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
    drop beyond the controls (a statistic of NegHub's; the verdict is `scn_verdict`'s)."""
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
