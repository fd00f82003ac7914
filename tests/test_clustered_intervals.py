"""Intervals that respect shared sentences (issue 39 item 2): minimal pairs built from one source sentence pair are
not independent, and an interval that treats them so errs towards a claim.

Worked by hand (the clustered variance is the CR1 sandwich: G / (G − 1) · Σ_g (Σ_{i∈g} (y_i − ȳ))² / n², against
the independent Σ_i (y_i − ȳ)² / n²; their ratio is Kish's design effect):

Seven units in four clusters, y = A(1, 1) B(0, 0) C(1, 0) D(1): ȳ = 4/7, residuals 3/7 and −4/7.
- cluster sums of residuals: A 6/7, B −8/7, C −1/7, D 3/7; Σ S_g² = (36 + 64 + 1 + 9) / 49 = 110/49;
- Σ e_i² = 4 · 9/49 + 3 · 16/49 = 84/49;
- design effect = 4/3 · 110/84 = 440/252 = 1.746032 (the same units as seven clusters: 7/6 · 84/84 = 1.166667).

JNLI-Neg's valid split (the pinned release, ../shared): 787 M_i pairs from 159 source sentence pairs (up to 23
each). A constant answer is right on the M_i pairs whose treatment's gold is that label; the design effects
clustered by `jnli_sentence_pair_id` are the issue's 1.09 (always 'contradiction', 357 right), 1.92 (always
'entailment', 169) and 2.02 (always 'neutral', 261).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from neghub.evaluator.core.stats import (
    cluster_bootstrap_mean_ci,
    cluster_index,
    design_effect,
    two_way_design_effect,
    unpaired_difference_interval,
    wilson_interval,
)
from neghub.leaderboard.boards import primary_board
from neghub.leaderboard.facts import RowFacts
from neghub.leaderboard.row_figures import difference_ci, ranges_of

VALID = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl"

FOUR_CLUSTERS_Y = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0])
FOUR_CLUSTERS = np.array(["A", "A", "B", "B", "C", "C", "D"])


def test_the_design_effect_of_four_clusters_by_hand() -> None:
    assert design_effect(FOUR_CLUSTERS_Y, cluster_index(FOUR_CLUSTERS)) == pytest.approx(440 / 252)


def test_singleton_clusters_are_the_independent_variance_with_cr1s_correction() -> None:
    assert design_effect(FOUR_CLUSTERS_Y, cluster_index(np.arange(7))) == pytest.approx(7 / 6)


def test_no_cluster_key_is_no_design_effect() -> None:
    assert design_effect(FOUR_CLUSTERS_Y, None) == 1.0


def test_a_design_effect_below_one_is_floored_at_one() -> None:
    # y = (1, 0) (1, 0) (1, 0): every cluster sums its residuals to 0, the clustered variance is 0; an estimated
    # negative intra-cluster correlation would narrow the interval below the independent one: NegHub does not
    assert design_effect(np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0]), cluster_index(np.repeat([0, 1, 2], 2))) == 1.0


def test_a_constant_outcome_has_no_design_effect() -> None:
    assert design_effect(np.ones(6), cluster_index(np.repeat([0, 1, 2], 2))) == 1.0


def test_the_wilson_interval_at_the_effective_sample_size() -> None:
    # 4 of 7 at design effect 1.746032: Wilson at 2.290909 of 4.009091 (Korn and Graubard 1998)
    deff = 440 / 252
    assert wilson_interval(4 / deff, 7 / deff) == pytest.approx(wilson_interval(4, 7, design_effect=deff))
    narrow, wide = wilson_interval(4, 7), wilson_interval(4, 7, design_effect=deff)
    assert narrow is not None and wide is not None
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_two_way_clustering_by_hand() -> None:
    # four units on a 2 x 2 grid (rows r, columns c), y = (1, 1, 0, 0) by row: e = (1/2, 1/2, -1/2, -1/2)
    # by row: sums 1, -1: 2/1 * 2 / 1 = 4 (over Σe² = 1); by column: sums 0, 0: 0; by the intersection (each unit
    # alone): 4/3 * 1 / 1 = 4/3. Cameron, Gelbach and Miller: V_r + V_c - V_rc = 4 + 0 - 4/3 = 8/3
    y = np.array([1.0, 1.0, 0.0, 0.0])
    rows, columns = np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])
    assert two_way_design_effect(y, rows, columns) == pytest.approx(8 / 3)
    # y = (1, 0, 0, 1): every row and every column sums its residuals to 0, so V_r = V_c = 0 and CGM's sum is
    # -4/3, no variance at all: then the larger one-way variance (0 here), and never below the independent one
    assert two_way_design_effect(np.array([1.0, 0.0, 0.0, 1.0]), rows, columns) == 1.0


def test_the_cluster_bootstrap_resamples_clusters_not_units() -> None:
    # two clusters of ten identical units each: the cluster bootstrap draws whole clusters (its resampled mean is
    # 0, 1/2 or 1, each end with probability 1/4), the unit bootstrap's mean is Binomial(20, 1/2) / 20, within
    # about 0.5 ± 0.22
    y = np.repeat([1.0, 0.0], 10)
    clustered = cluster_bootstrap_mean_ci(y, cluster_index(np.repeat([0, 1], 10)), resamples=2000, seed=0)
    assert clustered == (0.0, 1.0)
    unit = cluster_bootstrap_mean_ci(y, None, resamples=2000, seed=0)
    assert unit[0] > 0.0 and unit[1] < 1.0


def _release_clusters() -> tuple[np.ndarray, np.ndarray]:
    from neghub.evaluator.benchmarks.jnli_neg.metadata import RECORD
    from neghub.evaluator.families.minimal_pairs.pairs import build_pairs

    records = [json.loads(line) for line in VALID.read_text(encoding="utf-8").splitlines() if line.strip()]
    instances = [RECORD.parse(record) for record in records]
    pairs = build_pairs(instances)
    gold = np.array([instance.gold for instance in instances])
    treatment = pairs.treatment[pairs.important]
    return gold[treatment], pairs.group[pairs.important]


@pytest.mark.skipif(not VALID.exists(), reason="the JNLI-Neg release is not here (../shared)")
def test_the_issues_design_effects_of_the_constant_answers_on_the_release() -> None:
    gold, groups = _release_clusters()
    assert gold.size == 787 and np.unique(groups).size == 159
    assert np.bincount(np.unique(groups, return_inverse=True)[1]).max() == 23
    clusters = cluster_index(groups)
    # label order: entailment 0, neutral 1, contradiction 2 (JNLI-Neg's LABELS)
    effects = {label: design_effect((gold == label).astype(np.float64), clusters) for label in range(3)}
    assert [int((gold == label).sum()) for label in range(3)] == [169, 261, 357]
    assert round(effects[2], 2) == 1.09
    assert round(effects[0], 2) == 1.92
    assert round(effects[1], 2) == 2.02
    # the clustered standard error is 1.05-1.42 times the naive one
    assert 1.04 < math.sqrt(min(effects.values())) < 1.05 and 1.41 < math.sqrt(max(effects.values())) < 1.43


def test_502_of_787_against_58_96_is_above_unclustered_and_at_the_level_clustered() -> None:
    # Newcombe's unpaired interval of 502/787 - 464/787 (= 58.96 %): [+0.04, +9.56] points unclustered, above 0;
    # at the smallest design effect of the issue's constant answers (1.09), both sides' counts divided by it, the
    # interval holds 0
    naive = unpaired_difference_interval(502, 787, 464, 787)
    assert naive is not None and naive[0] > 0
    clustered = unpaired_difference_interval(502, 787, 464, 787, design_effect=1.09)
    assert clustered is not None and clustered[0] < 0 < clustered[1]


def _row(values: np.ndarray, clusters: tuple[str, ...] | None, name: str) -> RowFacts:
    board = primary_board("jnli-neg")
    assert board is not None
    keys = tuple(str(i) for i in range(values.size))
    return RowFacts(
        id=name,
        kind="verified",
        task="jnli-neg",
        key=board,
        model=name,
        metrics={"pair_metrics.M_i.acc_prime": float(values.mean())},
        n_runs=1,
        headline_items=(keys, values),
        headline_clusters=clusters,
    )


def _two_rows_differing_in_two_sources(clustered: bool) -> tuple[RowFacts, RowFacts]:
    # 40 units from 4 sources of 10: row a is right on units 0-19 (sources 0 and 1), row b on 0-9, 20-24 and
    # 30-31; a - b is +1 on source 1's 10 units, -1 on 5 of source 2's and 2 of source 3's: mean 3/40 = 0.075. By
    # source the difference sums are (0, +10, -5, -2): a cluster bootstrap draws 4 sources, and a draw without
    # source 1 (probability (3/4)^4 = 0.32) has a mean <= 0. By unit (10 +1s, 7 -1s in 40 draws) the interval is
    # about 0.075 ± 1.96 sqrt((17/40 - 0.075^2) / 40) = 0.075 ± 0.20: the clustered one is wider.
    a = np.zeros(40)
    a[0:20] = 1.0
    b = np.zeros(40)
    b[0:10] = 1.0
    b[20:25] = 1.0
    b[30:32] = 1.0
    clusters = tuple(str(i // 10) for i in range(40)) if clustered else None
    return _row(a, clusters, "a"), _row(b, clusters, "b")


def test_the_difference_of_two_rows_resamples_whole_sources() -> None:
    unit = difference_ci(*_two_rows_differing_in_two_sources(clustered=False))
    clustered = difference_ci(*_two_rows_differing_in_two_sources(clustered=True))
    assert unit is not None and clustered is not None
    assert clustered[1] - clustered[0] > 1.3 * (unit[1] - unit[0])
    # a cluster draw's mean is a ratio of source sums: 4 draws of source 1 give +1, 4 of source 2 give -1/2
    assert clustered[0] <= -0.2 and clustered[1] >= 0.45


def test_ranks_resample_whole_sources() -> None:
    # 200 units from 4 sources of 50; row a is right on source 0 only, row b nowhere: a - b is +1 on 50 units. By
    # unit, a beats b in every resample (its mean 0.25 ± 0.06); by source, a draw without source 0 (prob
    # (3/4)^4 = 0.316) ties them, more than 2.5 % of the resamples: a does not beat b
    a = np.zeros(200)
    a[:50] = 1.0
    b = np.zeros(200)
    clusters = tuple(str(i // 50) for i in range(200))
    assert ranges_of([_row(a, None, "a"), _row(b, None, "b")]) == [(1, 1), (2, 2)]
    assert ranges_of([_row(a, clusters, "a"), _row(b, clusters, "b")]) == [(1, 2), (1, 2)]


@pytest.mark.skipif(not VALID.exists(), reason="the JNLI-Neg release is not here (../shared)")
def test_the_m_i_interval_of_always_contradiction_is_wilsons_at_its_design_effect() -> None:
    # the scorer's M_i Acc′ interval is Wilson's at 787 / 1.0936 effective pairs, and the result records each pair's
    # source for the build's paired comparisons
    from neghub.evaluator.benchmarks import jnli_neg
    from neghub.evaluator.core.stats import BootstrapConfig
    from neghub.evaluator.families.minimal_pairs import score_pairs
    from neghub.evaluator.families.minimal_pairs.scoring import outcomes

    dataset = jnli_neg.load("valid", data_dir=VALID.parents[1])
    predicted = np.full(dataset.gold.size, 2, dtype=np.int16)  # contradiction
    m_i = score_pairs(dataset, predicted, BootstrapConfig())["pair_metrics"]["M_i"]
    assert m_i["n"] == 787 and m_i["acc_prime"] == pytest.approx(357 / 787)
    assert m_i["design_effect"]["clusters"] == 159
    assert round(m_i["design_effect"]["acc_prime"], 2) == 1.09
    expected = wilson_interval(357, 787, design_effect=m_i["design_effect"]["acc_prime"])
    assert m_i["acc_prime_ci95"] == pytest.approx(list(expected))
    naive = wilson_interval(357, 787)
    assert naive is not None and m_i["acc_prime_ci95"][0] < naive[0]
    _, headline, _ = outcomes(dataset, predicted, lambda code: code, {})
    assert headline.clusters is not None and len(set(headline.clusters)) == 159 and len(headline.clusters) == 787


def test_a_statistic_of_categories_resamples_whole_clusters() -> None:
    # SCN's negation contrast is a statistic of the triplets' outcome counts; its interval draws whole
    # name/profession pairs. Two pairs of 20 triplets: every triplet of the first in category 0, of the second in
    # category 1; the share of category 0 in a draw of two pairs is 1, 1/2 or 0 (each end with probability 1/4):
    # the interval is [0, 1]. Drawing the 40 triplets alone, the share is Binomial(40, 1/2) / 40, within 0.5 ± 0.16.
    from neghub.evaluator.core.stats import BootstrapConfig, bootstrap_categories_ci, cluster_bootstrap_categories_ci

    by_cluster = np.array([[20, 0], [0, 20]])
    share = lambda drawn: drawn[:, 0] / drawn.sum(axis=1)  # noqa: E731
    assert cluster_bootstrap_categories_ci(by_cluster, share, BootstrapConfig()) == (0.0, 1.0)
    unit = bootstrap_categories_ci(by_cluster.sum(axis=0), share, BootstrapConfig())
    assert unit is not None and unit[0] > 0.3 and unit[1] < 0.7


def test_a_comparison_of_two_rows_says_how_its_interval_resampled() -> None:
    from neghub.leaderboard.row_figures import comparison

    clustered = comparison(*_two_rows_differing_in_two_sources(clustered=True))
    assert clustered.endswith("(whole sources resampled)")
    alone = comparison(*_two_rows_differing_in_two_sources(clustered=False))
    assert alone.endswith("(items resampled alone: their sources are not on record)")
