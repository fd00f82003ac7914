"""The contamination probe: does a model score higher on the ranked split, whose gold labels are public, than on a
sample of the training split drawn to the ranked split's mix?

A benchmark whose ranked split has public gold declares a `ContaminationProbeSpec` in its own folder: the split to
sample (its training split), what a unit is (for the minimal-pair family an M_i pair, scored by its treatment's
answer), the strata the sample matches (gold label and pair type) and the key whose units vary together (the
source sentence pair). Every re-run of such a run (`neghub reproduce`) also answers the sampled training items;
the record holds both figures, their difference and a one-sided test of it (`probe_test`).

Why a stratified sample. Two splits differ in their mix of gold labels and unit kinds, and a constant model's figure
moves with the mix alone (issue 38 measured +3.20 points between a release's two splits, and a naive comparison
marking an honest constant model 26 % of the time at α = 0.05). The sample takes, from each stratum of the
training split, the stratum's share of the ranked split (largest remainders, so the shares are as close as whole
units allow): a model whose accuracy depends only on the strata scores the same on both, whatever it is.

Why clustered. Units of one cluster share sentences (a minimal pair's members, and pairs of one source pair), so
their answers are not independent; the variance of each mean is the cluster-robust (linearised ratio) variance over
clusters, and the two means are independent (the splits share no cluster). The test is one-sided: only a ranked
figure above the probe's is a mark. Stratification lowers the probe mean's true variance; the unstratified clustered
variance used here ignores that, and the finite training split, and so errs towards no mark.

What it cannot show: a model trained on the training split as well as on the ranked one scores high on both, and
a model tuned on the ranked split by less than the smallest gap the test sees at its power is not marked.
Statistics only: nothing here names a benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

# the level a difference is marked at: the false-mark rate is at most 1 %, shown by tests/test_contamination_probe.py
# on the constant and random baselines, simulated models that vary by stratum and cluster, and SmolLM2's answers (at
# a nominal 1 % the clustered variance, of 159 clusters on the ranked side, marked 1.4 % of a strongly
# clustered model's honest runs, and 0.7 % at 0.5 %: the clustered variance of few, unequal clusters runs small)
DEFAULT_ALPHA = 0.0025
# M_i pairs of the training split answered with each re-run: about the ranked split's own count (see the tests)
DEFAULT_SAMPLE_UNITS = 1000


@dataclass(frozen=True)
class ProbeUnits:
    """The units a figure averages (pairs), each scored by one item's answer: parallel arrays."""

    item: NDArray[np.int64]  # the item whose answer scores the unit (an id of the split)
    gold: NDArray[np.int64]  # that item's gold answer, as a code
    stratum: NDArray[np.int64]  # index into `strata`
    cluster: NDArray[np.int64]  # the cluster key's value
    strata: tuple[str, ...]  # each stratum in words

    @property
    def size(self) -> int:
        return int(self.item.size)

    def take(self, rows: NDArray[np.int64]) -> ProbeUnits:
        return ProbeUnits(self.item[rows], self.gold[rows], self.stratum[rows], self.cluster[rows], self.strata)

    def correct(self, answers: Mapping[int, int | None]) -> NDArray[np.bool_]:
        """Whether each unit's item was answered with its gold (an item without an answer is wrong)."""
        return np.array([answers.get(int(i)) == int(g) for i, g in zip(self.item, self.gold, strict=True)], dtype=bool)


@dataclass(frozen=True)
class ContaminationProbeSpec:
    """What a benchmark declares for its probe (in its own folder): see the module docstring."""

    metric: str  # the figure, as the benchmark names it ("M_i Acc′")
    split: str  # the split sampled
    ranked_split: str  # the split whose figure it is compared with
    strata_words: str  # what the sample matches, in words
    cluster_key: str  # the field whose units vary together
    units: Callable[[str, Path | None], ProbeUnits]  # a split's units (data_dir: where the releases are)
    answer_of_line: Callable[[dict[str, Any]], int | None]  # a prediction line's answer as a code (None: none)
    max_shots: int | None = None  # the runs it probes: at most this many shots (None: any)
    sample_units: int = DEFAULT_SAMPLE_UNITS
    alpha: float = DEFAULT_ALPHA

    def applies(self, split: str | None, shots: int) -> bool:
        return split == self.ranked_split and (self.max_shots is None or shots <= self.max_shots)


def quotas(ranked_strata: NDArray[np.int64], available: NDArray[np.int64], size: int) -> NDArray[np.int64]:
    """Units to draw from each stratum: its share of the ranked units times `size`, rounded by largest remainders
    (the total is `size`), at most what the pool holds there (a shortfall is not made up elsewhere, which would change
    the mix)."""
    n_strata = available.size
    counts = np.bincount(ranked_strata, minlength=n_strata).astype(float)
    if counts.sum() == 0:
        return np.zeros(n_strata, dtype=np.int64)
    exact = counts / counts.sum() * size
    whole = np.floor(exact).astype(np.int64)
    short = size - int(whole.sum())
    order = sorted(range(n_strata), key=lambda s: (-(exact[s] - whole[s]), s))
    for s in order[:short]:
        whole[s] += 1
    capped: NDArray[np.int64] = np.minimum(whole, available)
    return capped


def stratified_sample(ranked: ProbeUnits, pool: ProbeUnits, size: int, seed: int) -> NDArray[np.int64]:
    """Rows of `pool` drawn without replacement to `ranked`'s mix of strata (`quotas`), in pool order."""
    rng = np.random.default_rng(seed)
    available = np.bincount(pool.stratum, minlength=len(pool.strata)).astype(np.int64)
    wanted = quotas(ranked.stratum, available, size)
    rows: list[NDArray[np.int64]] = []
    for stratum, n in enumerate(wanted):
        members = np.flatnonzero(pool.stratum == stratum)
        if n:
            rows.append(rng.choice(members, size=int(n), replace=False))
    return np.sort(np.concatenate(rows)) if rows else np.zeros(0, dtype=np.int64)


def clustered_mean(correct: NDArray[Any], cluster: NDArray[np.int64]) -> tuple[float, float]:
    """The mean over units and its cluster-robust variance (the linearised ratio estimator's, with the small-sample
    factor C / (C - 1)); nan for no unit, infinite variance for one cluster."""
    n = correct.size
    if n == 0:
        return math.nan, math.nan
    values = correct.astype(float)
    mean = float(values.mean())
    _, which = np.unique(cluster, return_inverse=True)
    clusters = int(which.max()) + 1
    if clusters < 2:
        return mean, math.inf
    residual = np.bincount(which, weights=values - mean, minlength=clusters)
    return mean, float(clusters / (clusters - 1) * np.sum(residual**2) / n**2)


@dataclass(frozen=True)
class ProbeTest:
    ranked_figure: float
    probe_figure: float
    difference: float
    standard_error: float
    p_value: float
    marked: bool


def probe_test(
    ranked_correct: NDArray[Any],
    ranked_cluster: NDArray[np.int64],
    probe_correct: NDArray[Any],
    probe_cluster: NDArray[np.int64],
    alpha: float = DEFAULT_ALPHA,
) -> ProbeTest:
    """The one-sided test that the ranked figure exceeds the probe's: z = difference / its clustered standard error,
    p = 1 - Φ(z); marked when p < alpha. A difference of 0 with no variance is p = 1 (nothing to see)."""
    ranked, ranked_var = clustered_mean(ranked_correct, ranked_cluster)
    probe, probe_var = clustered_mean(probe_correct, probe_cluster)
    difference = ranked - probe
    se = math.sqrt(ranked_var + probe_var)
    if math.isnan(difference) or math.isnan(se):
        p = 1.0
    elif se == 0:
        p = 0.0 if difference > 0 else 1.0
    else:
        p = 0.5 * math.erfc(difference / se / math.sqrt(2))
    return ProbeTest(ranked, probe, difference, se, p, p < alpha)


def smallest_gap(standard_error: float, alpha: float = DEFAULT_ALPHA, power: float = 0.8) -> float:
    """The smallest true difference the one-sided test marks with probability `power`: (z_(1-α) + z_power) · se."""
    from statistics import NormalDist

    normal = NormalDist()
    return (normal.inv_cdf(1 - alpha) + normal.inv_cdf(power)) * standard_error


def answers_by_item(
    lines: Sequence[dict[str, Any]],
    item_of_line: Callable[[dict[str, Any]], Hashable],
    answer_of_line: Callable[[dict[str, Any]], int | None],
) -> dict[int, int | None]:
    """Each item's answer code from its prediction line (ids as integers)."""
    out: dict[int, int | None] = {}
    for line in lines:
        key = item_of_line(line)
        if isinstance(key, int) and not isinstance(key, bool):
            out[key] = answer_of_line(line)
    return out
