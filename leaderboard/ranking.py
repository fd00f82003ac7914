"""Rank ranges that respect uncertainty, and the paired tests that give them (verdicts.py says which rows rank).

Rows on a board share their items, so every two rows are compared with a paired bootstrap over the units of
their headline (Result.headline_items, aligned by key; seeded, vectorised): row a beats row b when the 95%
interval of mean(a_i - b_i) lies above 0. Where the units record their source (HeadlineItems.clusters: the minimal
pairs of one source sentence pair share sentences), the bootstrap draws whole sources, not units (a paired cluster
bootstrap): the rows' per-source sums are one rows x sources matrix, and every resample's means one product with
the resamples' source counts, RESAMPLES of them (cost rows x sources x RESAMPLES: 1,000 rows x 159 sources x 2,000).
A row's rank is the range from 1 + (rows that beat it) to
(rows) - (rows it beats), as arena-style leaderboards show it. Where rows do not share units (a cloze test
keeps the triplets each model selects), two rows are told apart only when their own 95% intervals do not
overlap.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.stats import BootstrapConfig, cluster_bootstrap_mean_ci

RESAMPLES = 2000
SEED = 0
LEVEL = 0.95


# What the rules page says where NegHub's specification (SPEC §1, "Beyond the papers") and the intervals differ: the
# specification's AccChg bootstrap "resampling pairs" treated the minimal pairs of one source as independent.
SPEC_SUPERSEDED = (
    "NegHub's specification asks for AccChg's bootstrap interval \"resampling pairs\"; NegHub resamples whole source "
    "sentence pairs instead, since the minimal pairs built from one source share their sentences (the 787 M_i pairs "
    "of JNLI-Neg's validation split come from 159 of them, up to 23 each), and an interval that counts them as "
    "independent is too narrow. Every other interval of a minimal pair clusters by its source the same way."
)


def interval_method(bootstrap: BootstrapConfig | None = None) -> str:
    """How the site's intervals and ranks are computed, from the settings in force."""
    config = bootstrap or BootstrapConfig()
    return (
        f"Intervals are {100 * config.level:.0f}% intervals: Wilson score intervals for a proportion, and "
        f"percentile bootstrap intervals ({config.resamples:,} resamples, seed {config.seed}) "
        "for a figure that is no single proportion, such as a difference of two (none where no item was answered "
        "differently). Items that share a source are not counted as independent: a minimal pair's interval "
        "clusters by its source sentence pair (Wilson's interval at the effective sample size, the number of "
        "pairs divided by their design effect; a bootstrap draws whole source pairs), and the SCN test's by name "
        "and profession and by verb. Ranks "
        f"are ranges: a row is placed above another only when a paired bootstrap of their difference over the "
        f"same items, drawing whole sources where they are on record ({RESAMPLES:,} resamples, seed {SEED}), "
        "excludes zero. A paper's ± is the standard deviation over its seeds, not an interval."
    )


def name_key(name: str) -> str:
    """A model name as a reader sees it: NFKC, case folded, each confusable character by its Latin skeleton
    (Unicode TR39 confusables, through the `confusables` package)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    try:
        from confusables import normalize
    except ImportError:  # the site extra installs it; without it, NFKC and case folding alone
        return folded
    forms = normalize(folded, prioritize_alpha=True)
    return str(forms[0]) if forms else folded


@dataclass
class Candidate:
    """What ranking needs of one row."""

    key: int  # the row's index
    value: float | None  # the headline, in its direction (higher is better after the sign)
    ci: tuple[float, float] | None  # the headline's interval, same direction
    items: NDArray[np.float64] | None  # the headline per unit (signed), in the order of item_keys
    item_keys: tuple[str, ...] | None = None  # the units' keys: rows are paired only over the same units
    clusters: NDArray[np.intp] | None = None  # each unit's source as 0 .. G - 1 (stats.cluster_index), or None


def significantly_better(candidates: Sequence[Candidate]) -> NDArray[np.bool_]:
    """better[a, b]: row a beats row b (paired bootstrap over shared items, else non-overlapping intervals)."""
    n = len(candidates)
    better = np.zeros((n, n), dtype=np.bool_)
    paired = [c for c in candidates if c.items is not None]
    keys = {c.item_keys for c in paired}
    if len(paired) == n and n > 1 and len(keys) == 1:
        items = np.stack([c.items for c in candidates if c.items is not None])  # rows x items
        clusters = next((c.clusters for c in candidates if c.clusters is not None), None)
        means = resampled_means(items, clusters)
        better = beats_in_resamples(means, (1.0 - LEVEL) / 2.0)
        np.fill_diagonal(better, False)
        return better
    for a, first in enumerate(candidates):
        for b, second in enumerate(candidates):
            if a != b and first.ci is not None and second.ci is not None:
                better[a, b] = first.ci[0] > second.ci[1]
    return better


def resampled_means(items: NDArray[np.float64], clusters: NDArray[np.intp] | None) -> NDArray[np.float64]:
    """Each row's mean in each of RESAMPLES paired resamples (rows x RESAMPLES): all rows draw the same units, or the
    same whole sources where `clusters` gives them. A resample draws each unit (source) a multinomial number of
    times, so the means are one matrix product."""
    rng = np.random.default_rng(SEED)
    if clusters is None:
        size = items.shape[1]
        counts = rng.multinomial(size, np.full(size, 1.0 / size), size=RESAMPLES).astype(np.float64)  # B x items
        means: NDArray[np.float64] = items @ counts.T / size
        return means
    order = np.argsort(clusters, kind="stable")
    starts = np.flatnonzero(np.concatenate(([True], np.diff(clusters[order]) != 0)))
    sums = np.add.reduceat(items[:, order], starts, axis=1)  # rows x sources
    sizes = np.diff(np.concatenate((starts, [clusters.size]))).astype(np.float64)
    groups = sizes.size
    weights = rng.multinomial(groups, np.full(groups, 1.0 / groups), size=RESAMPLES).astype(np.float64)  # B x G
    clustered: NDArray[np.float64] = (sums @ weights.T) / (weights @ sizes)[None, :]
    return clustered


def beats_in_resamples(means: NDArray[np.float64], tail: float) -> NDArray[np.bool_]:
    """beats[a, b]: in fewer than `tail` of the resamples (columns of `means`, rows x B) is row a's mean <= row b's
    (the paired difference's interval lies above zero). Counted a row at a time, so that memory stays rows x B
    however many rows a board has; and only where the two rows' ranges over the resamples overlap: a row whose
    every resampled mean is above all of b's beats b in every resample, one entirely below in none (exact; at
    1,000 rows of realistic spread this counts a third of the pairs)."""
    n, resamples = means.shape
    limit = tail * resamples
    low, high = means.min(axis=1), means.max(axis=1)
    beats = np.zeros((n, n), dtype=np.bool_)
    for a in range(n):
        row = low[a] > high  # above b in every resample
        overlapping = np.flatnonzero(~row & (high[a] >= low))
        if overlapping.size:
            row[overlapping] = np.count_nonzero(means[a] <= means[overlapping], axis=1) < limit
        beats[a] = row
    return beats


def rank_ranges(candidates: Sequence[Candidate]) -> dict[int, tuple[int, int]]:
    """Row key -> (best rank, worst rank) consistent with the pairwise comparisons."""
    if not candidates:
        return {}
    better = significantly_better(candidates)
    n = len(candidates)
    out = {}
    for index, candidate in enumerate(candidates):
        beaten_by = int(better[:, index].sum())
        beats = int(better[index, :].sum())
        out[candidate.key] = (1 + beaten_by, n - beats)
    return out


def paired_difference_ci(
    first: NDArray[np.float64], second: NDArray[np.float64], clusters: NDArray[np.intp] | None = None
) -> tuple[float, float]:
    """Percentile interval of mean(first - second) over units resampled together (RESAMPLES draws with SEED), whole
    sources at a time where `clusters` gives each unit's (a paired cluster bootstrap); (0, 0) when no unit differs.

    A resample changes the mean only through how many units of each distinct difference it draws, and those
    counts follow Multinomial(n, counts / n) exactly: drawn directly, this is the ordinary paired bootstrap at
    O(resamples x distinct differences) (three for 0/1 scores: -1, 0, 1), not O(resamples x units).
    """
    diffs = first - second
    size = diffs.size
    if size == 0 or not np.any(diffs):
        return (0.0, 0.0)
    if clusters is not None:
        return cluster_bootstrap_mean_ci(diffs, clusters, RESAMPLES, SEED, LEVEL)
    values, counts = np.unique(diffs, return_counts=True)
    rng = np.random.default_rng(SEED)
    drawn = rng.multinomial(size, counts / size, size=RESAMPLES).astype(np.float64)
    means = drawn @ values / size
    tail = (1.0 - LEVEL) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return (float(low), float(high))
