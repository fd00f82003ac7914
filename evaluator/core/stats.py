"""Statistics shared by the scorers: paired bootstrap intervals, the exact McNemar test, correlations, and the
design effect and cluster bootstrap that make intervals respect units sharing a source.

Units that share a source (the minimal pairs of one source sentence pair; the triplets of one name/profession pair
or one verb) are not independent: an interval that treats them so is too narrow, and errs towards a claim. NegHub
corrects a proportion's interval (and a difference of two) by Kish's design effect, the clustered variance of the
mean over the independent one, estimated by the CR1 sandwich (Liang and Zeger 1986, with the G / (G - 1)
small-sample factor; Cameron, Gelbach and Miller 2011 for two ways), and computes Wilson's or Newcombe's interval at
the effective sample size n / design effect (Korn and Graubard 1998): such an interval is never [0, 0] at 0 of n,
needs no resampling, and is the same on every machine. A design effect below 1 is taken as 1: with 159 clusters a
negative intra-cluster correlation is as likely noise as fact, and a narrower interval than the independent one
would err towards a claim. Two rows compared unit by unit (a paired difference, a rank) are resampled by cluster
(`cluster_bootstrap_mean_ci`, and ranking.py): the percentile bootstrap of whole clusters (Davison and Hinkley 1997,
section 3.8), since a difference of two rows' means is no single proportion.

All of it is vectorised numpy; none of it loops over pairs in Python.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class BootstrapConfig:
    """How intervals are resampled: a fixed seed makes every re-score byte-identical."""

    resamples: int = 1000
    seed: int = 0
    level: float = 0.95


def paired_bootstrap_ci(
    control_correct: BoolArray, treatment_correct: BoolArray, config: BootstrapConfig
) -> tuple[float, float] | None:
    """Percentile interval of mean(treatment) - mean(control), resampling pairs with replacement.

    A resample of n pairs changes the statistic only through how many drawn pairs are discordant
    (right as control only, or as treatment only), and those counts follow a multinomial law
    exactly. We draw them directly: the number of discordant pairs D ~ Binomial(n, (b + c) / n),
    then the smaller discordant cell X ~ Binomial(D, min(b, c) / (b + c)). That is the same
    bootstrap distribution as drawing n indices, at O(resamples) cost instead of O(resamples * n).
    Drawing the smaller cell makes the interval exactly antisymmetric under swapping control and
    treatment; when b = c the law is symmetric about 0 and the samples are symmetrised.
    """
    n = int(control_correct.size)
    if n == 0:
        return None
    control_only = int(np.count_nonzero(control_correct & ~treatment_correct))
    treatment_only = int(np.count_nonzero(treatment_correct & ~control_correct))
    return paired_bootstrap_counts_ci(n, control_only, treatment_only, config)


def paired_bootstrap_counts_ci(
    n: int, control_only: int, treatment_only: int, config: BootstrapConfig
) -> tuple[float, float]:
    """`paired_bootstrap_ci` from the pair counts alone: n pairs, b right only as control, c only as treatment."""
    discordant = treatment_only + control_only
    rng = np.random.default_rng(config.seed)
    drawn_discordant = rng.binomial(n, discordant / n, size=config.resamples)
    smaller = rng.binomial(drawn_discordant, min(treatment_only, control_only) / discordant if discordant else 0.0)
    larger = drawn_discordant - smaller
    if treatment_only < control_only:
        diffs = (smaller - larger) / n
    elif treatment_only > control_only:
        diffs = (larger - smaller) / n
    else:
        diffs = (smaller - larger) / n
        diffs = np.concatenate((diffs, -diffs))
    return _percentile_interval(diffs.astype(np.float64), config.level)


def wilson_interval(
    hits: float, n: float, level: float = 0.95, design_effect: float = 1.0
) -> tuple[float, float] | None:
    """Wilson's score interval of a proportion hits / n (Wilson 1927; Brown, Cai and DasGupta 2001), at the
    effective sample size n / design_effect where units share a source (`design_effect`; Korn and Graubard 1998).

    Unlike a percentile bootstrap it is never [0, 0] at 0 of n, nor [1, 1] at n of n: 0/787 gives
    [0, z^2 / (787 + z^2)] = [0, 0.0049], the upper bound a rate that rare still allows. It needs no
    resampling, so it is exact and the same on every machine.
        centre = (p + z^2 / 2n) / (1 + z^2 / n),  half = z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2)
    """
    if n == 0:
        return None
    p = hits / n
    n = n / max(1.0, design_effect)
    z = NormalDist().inv_cdf(1.0 - (1.0 - level) / 2.0)
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z * z / (4 * n * n))
    # clipped: at p = 0 or 1 rounding may put the bound a hair outside [0, 1]
    return (max(0.0, centre - half), min(1.0, centre + half))


def unpaired_difference_interval(
    hits_a: float,
    n_a: float,
    hits_b: float,
    n_b: float,
    level: float = 0.95,
    design_effect: float | tuple[float, float] = 1.0,
    scale_b: float = 1.0,
) -> tuple[float, float] | None:
    """Interval of hits_a / n_a - scale_b * hits_b / n_b for two independent samples: Newcombe's hybrid score
    interval (Newcombe 1998, Stat. Med. 17:873, method 10), built from the two proportions' Wilson intervals
    [l_a, u_a], [l_b, u_b]:
        L = d - sqrt((p_a - l_a)^2 + (u_b - p_b)^2),  U = d + sqrt((u_a - p_a)^2 + (p_b - l_b)^2)
    It needs no resampling, and like Wilson's it is never [d, d] at proportions of 0 or 1. `design_effect` (one
    for both sides, or each side's) widens each Wilson interval to its effective sample size; `scale_b` gives the
    interval of p_a - c p_b by the same construction (Zou and Donner 2008's MOVER: the second side's distances
    times c)."""
    effects = design_effect if isinstance(design_effect, tuple) else (design_effect, design_effect)
    first = wilson_interval(hits_a, n_a, level, effects[0])
    second = wilson_interval(hits_b, n_b, level, effects[1])
    if first is None or second is None:
        return None
    p_a, p_b = hits_a / n_a, hits_b / n_b
    difference = p_a - scale_b * p_b
    low = difference - math.hypot(p_a - first[0], scale_b * (second[1] - p_b))
    high = difference + math.hypot(first[1] - p_a, scale_b * (p_b - second[0]))
    return (low, high)


def paired_difference_interval(
    both: float,
    only_a: float,
    only_b: float,
    neither: float,
    level: float = 0.95,
    design_effect: float = 1.0,
    scale_b: float = 1.0,
) -> tuple[float, float] | None:
    """Interval of p_a - p_b = (only_a - only_b) / n for two outcomes of the same n units (both: units where
    both hold, only_a / only_b: one of them, neither): Newcombe's paired hybrid score interval (Newcombe 1998,
    Stat. Med. 17:2635, method 10), the unpaired one corrected by the outcomes' correlation phi:
        L = d - sqrt((p_a - l_a)^2 - 2 phi (p_a - l_a)(u_b - p_b) + (u_b - p_b)^2), U symmetrically,
    with phi = C / sqrt((both + only_a)(only_b + neither)(both + only_b)(only_a + neither)), C = both * neither -
    only_a * only_b reduced by n / 2 when above it and 0 when between 0 and n / 2 (Newcombe's correction, as in
    Altman et al. 2000, Statistics with Confidence, ch. 6), and phi = 0 where a margin is empty.
    `design_effect` divides the four counts (the effective sample size of the units' clusters); `scale_b` gives the
    interval of p_a - c p_b (MOVER with the correlation, Zou and Donner 2008: p_b's distances times c)."""
    effect = max(1.0, design_effect)
    both, only_a, only_b, neither = (count / effect for count in (both, only_a, only_b, neither))
    n = both + only_a + only_b + neither
    first, second = wilson_interval(both + only_a, n, level), wilson_interval(both + only_b, n, level)
    if first is None or second is None:
        return None
    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    cross = both * neither - only_a * only_b
    correction = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = correction / math.sqrt(margins) if margins else 0.0
    below_a, above_a = p_a - first[0], first[1] - p_a
    below_b, above_b = scale_b * (p_b - second[0]), scale_b * (second[1] - p_b)
    difference = p_a - scale_b * p_b
    # max(0, ...): the radicand is a sum of squares less a correlated part, >= 0 but for rounding
    low = difference - math.sqrt(max(0.0, below_a**2 - 2 * phi * below_a * above_b + above_b**2))
    high = difference + math.sqrt(max(0.0, above_a**2 - 2 * phi * above_a * below_b + below_b**2))
    return (low, high)


def cluster_index(keys: NDArray[Any] | list[Any] | tuple[Any, ...]) -> NDArray[np.intp]:
    """Each unit's cluster as 0 .. G - 1 (the order of the sorted keys), from any keys (source pair ids, names)."""
    _, inverse = np.unique(np.asarray(keys), return_inverse=True)
    return np.asarray(inverse, dtype=np.intp).reshape(-1)


def _clustered_sum_of_squares(residuals: FloatArray, clusters: NDArray[np.intp]) -> float | None:
    """G / (G - 1) * sum over clusters of (the cluster's residual sum)^2: n^2 times CR1's variance of the mean; None
    with fewer than 2 clusters (no variance between clusters can be estimated)."""
    sums = np.bincount(clusters, weights=residuals)
    groups = int(np.count_nonzero(np.bincount(clusters)))
    if groups < 2:
        return None
    return groups / (groups - 1) * float(np.dot(sums, sums))


def design_effect(values: FloatArray, clusters: NDArray[np.intp] | None) -> float:
    """Kish's design effect of mean(values) with units in `clusters`: the CR1 clustered variance of the mean over
    the independent one, sum e_i^2 / n^2 (e the residuals), floored at 1 (see the module's docstring). 1 where no
    cluster key is on record (`clusters` None), the values are constant (no variance to correct), or all units
    share one cluster (no variance between clusters can be estimated: the units are counted as independent)."""
    if clusters is None or values.size == 0:
        return 1.0
    residuals = values - values.mean()
    independent = float(np.dot(residuals, residuals))
    if independent <= 1e-12 * values.size:
        return 1.0
    clustered = _clustered_sum_of_squares(residuals, clusters)
    return 1.0 if clustered is None else max(1.0, clustered / independent)


def two_way_design_effect(values: FloatArray, first: NDArray[np.intp], second: NDArray[np.intp]) -> float:
    """The design effect with units clustered two ways at once (SCN's triplets: by name/profession pair and by
    verb): Cameron, Gelbach and Miller's V_first + V_second - V_both (V_both clustered by the pair of keys), each a
    CR1 variance; where that sum is not positive (it can be, in small samples), the larger one-way variance
    (their section 2.3's fallback); a way with a single cluster is left out (nothing between its clusters to
    estimate); floored at 1."""
    if values.size == 0:
        return 1.0
    residuals = values - values.mean()
    independent = float(np.dot(residuals, residuals))
    if independent <= 1e-12 * values.size:
        return 1.0
    v_first = _clustered_sum_of_squares(residuals, first)
    v_second = _clustered_sum_of_squares(residuals, second)
    if v_first is None or v_second is None:
        one_way = v_second if v_first is None else v_first
        return 1.0 if one_way is None else max(1.0, one_way / independent)
    both = cluster_index(first.astype(np.int64) * (int(second.max()) + 1) + second)
    v_both = _clustered_sum_of_squares(residuals, both) or 0.0
    combined = v_first + v_second - v_both
    if not combined > 0:
        combined = max(v_first, v_second)
    return max(1.0, combined / independent)


def cluster_bootstrap_mean_ci(
    values: FloatArray, clusters: NDArray[np.intp] | None, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
    """Percentile interval of mean(values), resampling whole clusters with replacement (units alone where
    `clusters` is None). A resample's mean is sum(w_g S_g) / sum(w_g n_g) with w ~ Multinomial(G, 1/G), S_g and n_g
    a cluster's sum and size: one (resamples x G) matrix product, never a loop over resamples."""
    clusters = np.arange(values.size, dtype=np.intp) if clusters is None else clusters
    sums = np.bincount(clusters, weights=values)
    sizes = np.bincount(clusters).astype(np.float64)
    present = sizes > 0
    sums, sizes = sums[present], sizes[present]
    groups = sums.size
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(groups, np.full(groups, 1.0 / groups), size=resamples).astype(np.float64)
    means = (weights @ sums) / (weights @ sizes)
    return _percentile_interval(means, level)


def bootstrap_rows_ci(values: FloatArray, config: BootstrapConfig) -> tuple[float, float] | None:
    """Percentile interval of the mean of `values` by ordinary index resampling (any distribution)."""
    n = int(values.size)
    if n == 0:
        return None
    rng = np.random.default_rng(config.seed)
    means = np.empty(config.resamples)
    chunk = max(1, 4_000_000 // n)  # bound the index matrix to ~32 MB
    for start in range(0, config.resamples, chunk):
        stop = min(config.resamples, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[idx].mean(axis=1)
    return _percentile_interval(means, config.level)


def bootstrap_categories_ci(
    counts: NDArray[np.int64], statistic: Callable[[FloatArray], FloatArray], config: BootstrapConfig
) -> tuple[float, float] | None:
    """Percentile interval of a statistic of items that fall into a few categories, resampling items.

    A resample of n items changes any statistic of them only through how many land in each category, and
    those counts follow Multinomial(n, counts / n) exactly: drawing them directly is the ordinary bootstrap
    at O(resamples x categories) however many items there are. `statistic` maps a (resamples x categories)
    matrix of counts to one value per resample.
    """
    n = int(counts.sum())
    if n == 0:
        return None
    rng = np.random.default_rng(config.seed)
    drawn = rng.multinomial(n, counts / n, size=config.resamples).astype(np.float64)
    return _percentile_interval(statistic(drawn), config.level)


def cluster_bootstrap_categories_ci(
    counts_by_cluster: NDArray[np.int64], statistic: Callable[[FloatArray], FloatArray], config: BootstrapConfig
) -> tuple[float, float] | None:
    """`bootstrap_categories_ci` drawing whole clusters: `counts_by_cluster` is (clusters x categories); a resample
    draws G clusters with replacement (weights ~ Multinomial(G, 1/G)) and its counts are weights @ counts, one
    (resamples x G) by (G x categories) product."""
    groups = int(counts_by_cluster.shape[0])
    if groups == 0 or int(counts_by_cluster.sum()) == 0:
        return None
    rng = np.random.default_rng(config.seed)
    weights = rng.multinomial(groups, np.full(groups, 1.0 / groups), size=config.resamples).astype(np.float64)
    drawn = weights @ counts_by_cluster.astype(np.float64)
    return _percentile_interval(statistic(drawn), config.level)


def _percentile_interval(samples: FloatArray, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(samples, [tail, 1.0 - tail])
    return (float(low), float(high))


def mcnemar_exact_p(only_control: int, only_treatment: int) -> float:
    """Two-sided exact McNemar p-value: binomial(b + c, 1/2) on the discordant pairs.

    p = min(1, 2 * P[X <= min(b, c)]) with X ~ Binomial(b + c, 1/2), the usual exact form.
    """
    n = only_control + only_treatment
    if n == 0:
        return 1.0
    k_max = min(only_control, only_treatment)
    k = np.arange(1, k_max + 1, dtype=np.float64)
    # log C(n, k) by the running product C(n, k) = C(n, k-1) * (n - k + 1) / k
    log_binom = np.concatenate(([0.0], np.cumsum(np.log(n - k + 1) - np.log(k))))
    log_terms = log_binom - n * np.log(2.0)
    top = log_terms.max()
    tail = float(np.exp(top) * np.exp(log_terms - top).sum())
    return min(1.0, 2.0 * tail)


def pearson(x: FloatArray, y: FloatArray) -> float | None:
    """Pearson correlation; None where it is undefined (fewer than 2 items or a constant side)."""
    if x.size < 2:
        return None
    xc = x - x.mean()
    yc = y - y.mean()
    denom = float(np.sqrt((xc * xc).sum() * (yc * yc).sum()))
    if denom == 0.0:
        return None
    return float((xc * yc).sum() / denom)


def average_ranks(values: FloatArray) -> FloatArray:
    """Ranks from 1, ties sharing their average rank (as scipy.stats.rankdata's default)."""
    order = np.argsort(values, kind="stable")
    sorted_values = values[order]
    boundaries = np.concatenate(([True], sorted_values[1:] != sorted_values[:-1], [True]))
    starts = np.flatnonzero(boundaries)
    # each run of equal values [starts[i], starts[i+1]) gets the mean of ranks starts[i]+1 .. starts[i+1]
    run_ranks = (starts[:-1] + starts[1:] + 1) / 2.0
    run_lengths = np.diff(starts)
    ranks = np.empty(values.size, dtype=np.float64)
    ranks[order] = np.repeat(run_ranks, run_lengths)
    return ranks


def spearman(x: FloatArray, y: FloatArray) -> float | None:
    """Spearman correlation: Pearson on average ranks."""
    if x.size < 2:
        return None
    return pearson(average_ranks(x), average_ranks(y))
