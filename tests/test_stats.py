"""Statistics by hand, and the invariants of the minimal-pair metrics as hypothesis properties."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neghub.evaluator.benchmarks import jsts_neg
from neghub.evaluator.core.stats import (
    BootstrapConfig,
    average_ranks,
    bootstrap_rows_ci,
    mcnemar_exact_p,
    paired_bootstrap_ci,
    paired_difference_interval,
    pearson,
    spearman,
    unpaired_difference_interval,
)
from neghub.evaluator.families.minimal_pairs import score_pairs
from tests.conftest import FIXTURES

MIRROR = FIXTURES / "mirror"
DATASET = jsts_neg.load("test", data_dir=MIRROR, unverified=True)


def test_mcnemar_by_hand() -> None:
    # b=1, c=4: 2 * P[Bin(5, 1/2) <= 1] = 2 * (1 + 5) / 32 = 0.375
    assert mcnemar_exact_p(1, 4) == pytest.approx(0.375)
    assert mcnemar_exact_p(4, 1) == pytest.approx(0.375)
    # b=0, c=10: 2 / 1024
    assert mcnemar_exact_p(0, 10) == pytest.approx(2 / 1024)
    # b=c: the two tails overlap, p is capped at 1
    assert mcnemar_exact_p(3, 3) == 1.0
    assert mcnemar_exact_p(0, 0) == 1.0
    # a large n stays finite: b=4000, c=6000 is far in the tail
    assert 0.0 < mcnemar_exact_p(4000, 6000) < 1e-80


def test_unpaired_difference_interval_gives_newcombes_published_figures() -> None:
    # Newcombe (1998), Stat. Med. 17:873, Table II, method 10: 56/70 - 48/80 = 0.2000, 95 % interval
    # 0.0524 to 0.3339; 9/10 - 3/10 = 0.6000, 0.1705 to 0.8090
    assert unpaired_difference_interval(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=5e-5)
    assert unpaired_difference_interval(9, 10, 3, 10) == pytest.approx((0.1705, 0.8090), abs=5e-5)
    # swapping the samples mirrors the interval; an empty sample has none
    assert unpaired_difference_interval(48, 80, 56, 70) == pytest.approx((-0.3339, -0.0524), abs=5e-5)
    assert unpaired_difference_interval(3, 10, 0, 0) is None


def test_paired_difference_interval_by_hand() -> None:
    # Uncorrelated outcomes (both * neither = only_a * only_b = 100, so phi = 0): the unpaired interval of two
    # proportions 20/40. Wilson's 20/40: centre 0.5, half z / (1 + z^2/40) * sqrt(0.25/40 + z^2/6400) =
    # 1.959964 / 1.096036 * sqrt(0.00685023) = 0.1480047; so the difference 0 has half-width
    # sqrt(2) * 0.1480047 = 0.2093103.
    assert paired_difference_interval(10, 10, 10, 10) == pytest.approx((-0.2093103, 0.2093103), abs=1e-6)
    # Altman et al. (2000), Statistics with Confidence, Table 6.2's counts: both 14, only_a 5, only_b 0, neither 22
    # (n = 41): d = 5/41 = 0.121951. Wilson's 19/41 is [0.320562, 0.612535], 14/41 [0.215588, 0.494502];
    # both * neither - only_a * only_b = 308 > n/2, so C = 287.5 and phi = 287.5 / sqrt(19 * 22 * 14 * 27) =
    # 0.723276. L = d - sqrt(0.142852^2 - 2 phi 0.142852 * 0.153038 + 0.153038^2) = 0.121951 - 0.110468 =
    # 0.011483; U = d + sqrt(0.149121^2 - 2 phi 0.149121 * 0.125875 + 0.125875^2) = 0.121951 + 0.104541 = 0.226492
    assert paired_difference_interval(14, 5, 0, 22) == pytest.approx((0.011483, 0.226492), abs=2e-6)
    # pairing narrows it: the same margins as independent samples of 41 give a wider interval
    unpaired = unpaired_difference_interval(19, 41, 14, 41)
    assert unpaired is not None and unpaired[0] < 0.011483 and unpaired[1] > 0.226492
    assert paired_difference_interval(0, 0, 0, 0) is None


@settings(max_examples=200, deadline=None)
@given(cells=st.tuples(*(st.integers(0, 60) for _ in range(4))).filter(lambda c: sum(c) > 0))
def test_paired_difference_interval_holds_its_estimate_and_mirrors(cells: tuple[int, int, int, int]) -> None:
    both, only_a, only_b, neither = cells
    n = sum(cells)
    interval = paired_difference_interval(both, only_a, only_b, neither)
    mirrored = paired_difference_interval(both, only_b, only_a, neither)
    assert interval is not None and mirrored is not None
    assert -1.0 - 1e-9 <= interval[0] <= (only_a - only_b) / n <= interval[1] <= 1.0 + 1e-9
    assert mirrored == pytest.approx((-interval[1], -interval[0]))


def test_correlations_by_hand() -> None:
    # x = 1,2,3; y = 1,3,2: centred (-1,0,1) and (-1,1,0): 1 / sqrt(2 * 2) = 0.5
    assert pearson(np.array([1.0, 2, 3]), np.array([1.0, 3, 2])) == pytest.approx(0.5)
    # ties share the average rank: (1, 1, 2) -> (1.5, 1.5, 3)
    assert average_ranks(np.array([1.0, 1, 2])).tolist() == [1.5, 1.5, 3.0]
    # ranks (1.5,1.5,3) vs (1,2,3): centred (-.5,-.5,1) and (-1,0,1): 1.5 / sqrt(1.5 * 2)
    assert spearman(np.array([1.0, 1, 2]), np.array([1.0, 2, 3])) == pytest.approx(1.5 / np.sqrt(3.0))
    assert pearson(np.array([2.0, 2, 2]), np.array([1.0, 2, 3])) is None
    assert pearson(np.array([1.0]), np.array([1.0])) is None


def test_multinomial_bootstrap_agrees_with_index_resampling() -> None:
    # The paired bootstrap draws cell counts; index resampling of the per-pair differences must give
    # the same distribution: with 4,000 resamples the two 95% intervals agree to within 0.01.
    rng = np.random.default_rng(1)
    control = rng.random(3000) < 0.7
    treatment = rng.random(3000) < 0.6
    fast = paired_bootstrap_ci(control, treatment, BootstrapConfig(resamples=4000, seed=3))
    slow = bootstrap_rows_ci(treatment.astype(float) - control.astype(float), BootstrapConfig(resamples=4000, seed=4))
    assert fast is not None and slow is not None
    assert fast[0] == pytest.approx(slow[0], abs=0.01)
    assert fast[1] == pytest.approx(slow[1], abs=0.01)


predictions_strategy = st.lists(st.integers(0, 5), min_size=DATASET.ids.size, max_size=DATASET.ids.size)


def scored(predicted: list[int], dataset=DATASET) -> dict:  # type: ignore[no-untyped-def]
    return score_pairs(dataset, np.array(predicted, dtype=np.int16), BootstrapConfig(resamples=200))


def test_perfect_predictions() -> None:
    result = scored(DATASET.gold.tolist())
    for name in ("M", "M_i", "M_u"):
        m = result["pair_metrics"][name]
        assert (m["acc"], m["acc_prime"], m["acc_chg"]) == (1.0, 1.0, 0.0)


@settings(max_examples=60, deadline=None)
@given(predictions_strategy)
def test_swapping_control_and_treatment_negates_acc_chg(predicted: list[int]) -> None:
    pairs = DATASET.pairs
    swapped = dataclasses.replace(
        DATASET, pairs=dataclasses.replace(pairs, control=pairs.treatment, treatment=pairs.control)
    )
    a = scored(predicted)["pair_metrics"]
    b = scored(predicted, swapped)["pair_metrics"]
    for name in ("M", "M_i", "M_u"):
        assert b[name]["acc_chg"] == pytest.approx(-a[name]["acc_chg"])
        assert b[name]["acc"] == pytest.approx(a[name]["acc_prime"])
        assert b[name]["mcnemar_p"] == pytest.approx(a[name]["mcnemar_p"])
        if a[name]["acc_chg_ci95"] is None:  # no discordant pair either way: no interval either way
            assert b[name]["acc_chg_ci95"] is None
            assert a[name]["discordant"] == {"control_only": 0, "treatment_only": 0}
            continue
        low, high = a[name]["acc_chg_ci95"]
        assert b[name]["acc_chg_ci95"] == pytest.approx([-high, -low])


@settings(max_examples=25, deadline=None)
@given(predictions_strategy, st.randoms(use_true_random=False))
def test_shuffling_the_rows_changes_nothing(predicted: list[int], rnd: random.Random) -> None:
    import tempfile

    from neghub.evaluator.families.minimal_pairs import read_predictions
    from neghub.evaluator.fileio.jsonl import write_jsonl

    lines = (MIRROR / "jsts-neg" / "jsts-neg-test.jsonl").read_text(encoding="utf-8").splitlines()
    order = list(range(len(lines)))
    rnd.shuffle(order)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "jsts-neg"
        folder.mkdir()
        (folder / "jsts-neg-test.jsonl").write_text("".join(lines[i] + "\n" for i in order), encoding="utf-8")
        shuffled = jsts_neg.load("test", data_dir=Path(tmp), unverified=True)
        # the prediction file is shuffled too, independently
        rows = [{"id": int(i), "prediction": p} for i, p in zip(DATASET.ids, predicted, strict=True)]
        rnd.shuffle(rows)
        write_jsonl(Path(tmp) / "p.jsonl", rows)
        aligned = read_predictions(Path(tmp) / "p.jsonl", shuffled, jsts_neg.parse_prediction)
        a = jsts_neg.score(DATASET, np.array(predicted, dtype=np.int16), BootstrapConfig(resamples=200))
        b = jsts_neg.score(shuffled, aligned, BootstrapConfig(resamples=200))
    # identical but for the last bits of the correlations, whose float sums run in another order
    assert_same(a, b)


def assert_same(a: object, b: object) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_same(a[key], b[key])
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert_same(x, y)
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-15)
    else:
        assert a == b


@settings(max_examples=60, deadline=None)
@given(predictions_strategy)
def test_rates_are_fractions_and_sets_partition_m(predicted: list[int]) -> None:
    result = scored(predicted)
    m = result["pair_metrics"]
    assert m["M"]["n"] == m["M_i"]["n"] + m["M_u"]["n"]
    for name in ("M", "M_i", "M_u"):
        assert 0.0 <= m[name]["acc"] <= 1.0 and 0.0 <= m[name]["acc_prime"] <= 1.0
        assert -1.0 <= m[name]["acc_chg"] <= 1.0
        assert 0.0 <= m[name]["mcnemar_p"] <= 1.0
    # M's accuracy is the pair-weighted mean of M_i's and M_u's
    weighted = (m["M_i"]["acc"] * m["M_i"]["n"] + m["M_u"]["acc"] * m["M_u"]["n"]) / m["M"]["n"]
    assert m["M"]["acc"] == pytest.approx(weighted)
    assert 0.0 <= m["M_i"]["ignored_rate"] <= 1.0 and 0.0 <= m["M_u"]["distracted_rate"] <= 1.0


# --- the bootstrap's seed, through a real evaluation ------------------------------------------------------

NUBENCH_SAMPLE = (
    Path(__file__).parents[1] / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
)


def _intervals(metrics: object, prefix: str = "") -> dict[str, tuple[float, float]]:
    """Every 95% interval of a result's metrics, by its dot-path."""
    found: dict[str, tuple[float, float]] = {}
    if isinstance(metrics, dict):
        for key, value in metrics.items():
            path = f"{prefix}{key}"
            if key.endswith("_ci95") and value is not None:
                found[path] = (value[0], value[1])
            else:
                found.update(_intervals(value, path + "."))
    return found


def _scored_with_seed(task: str, path: Path, seed: int) -> tuple[dict[str, tuple[float, float]], int]:
    from neghub.evaluator.core.benchmark import EvalOptions
    from neghub.evaluator.core.registry import get_benchmark

    # 50 resamples: few enough that the percentile interval moves from seed to seed
    bootstrap = BootstrapConfig(resamples=50, seed=seed)
    if task == "jsts-neg":
        options = EvalOptions(split="test", data_dir=MIRROR, unverified=True, bootstrap=bootstrap)
    else:
        options = EvalOptions(mode="completion", bootstrap=bootstrap)
    result = get_benchmark(task).evaluate(path, options)
    return _intervals(result.metrics), result.provenance.bootstrap.seed


def _prediction_file(task: str, folder: Path) -> Path:
    """Predictions right on about half the items (no randomness: the item's position decides)."""
    from neghub.evaluator.fileio.jsonl import write_jsonl

    rows: list[dict[str, object]]
    if task == "jsts-neg":
        rows = [{"id": int(i), "prediction": int(n % 6)} for n, i in enumerate(DATASET.ids)]
    else:
        import json

        rows = []
        for n, line in enumerate(NUBENCH_SAMPLE.read_text(encoding="utf-8").splitlines()):
            item = json.loads(line)
            scores: dict[str, float | None] = {"choice1": -2.0, "choice2": -3.0, "choice3": -2.5, "choice4": -4.0}
            if item["choice2_type"] == "non-applicable":
                scores["choice2"] = None
            scores["choice1" if n % 2 else "choice3"] = -1.0
            rows.append({"id": item["index"], "loglikelihoods": scores})
    path = folder / f"{task}.jsonl"
    write_jsonl(path, rows)
    return path


def test_an_accuracy_interval_is_wilsons_and_no_seed_moves_it(tmp_path: Path) -> None:
    # NUBench's only interval is its accuracy's: Wilson's score interval, computed, not resampled
    path = _prediction_file("nubench", tmp_path)
    intervals = {seed: _scored_with_seed("nubench", path, seed)[0] for seed in (0, 3, 7)}
    assert intervals[0] == intervals[3] == intervals[7]
    hits = sum(1 for n, _ in enumerate(NUBENCH_SAMPLE.read_text(encoding="utf-8").splitlines()) if n % 2)
    n = len(NUBENCH_SAMPLE.read_text(encoding="utf-8").splitlines())
    z = 1.959963984540054
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    assert intervals[0]["acc_ci95"] == pytest.approx((centre - half, centre + half))


@pytest.mark.parametrize("task", ["jsts-neg"])
def test_bootstrap_seed_changes_the_intervals_and_the_same_seed_reproduces_them(task: str, tmp_path: Path) -> None:
    path = _prediction_file(task, tmp_path)
    by_seed = {}
    for seed in range(8):
        intervals, recorded = _scored_with_seed(task, path, seed)
        assert recorded == seed  # the result says which seed drew its intervals
        assert intervals, "the result has intervals"
        by_seed[seed] = intervals
    # the same seed again: the very same intervals, to the last bit
    assert _scored_with_seed(task, path, 3)[0] == by_seed[3]
    # another seed draws other resamples: eight seeds cannot all give one set of intervals
    distinct = {tuple(sorted(intervals.items())) for intervals in by_seed.values()}
    assert len(distinct) > 1, "every seed gave the same intervals: the seed is ignored"
    # and the headline's own interval moves with the seed too
    headline = "pair_metrics.M.acc_chg_ci95"
    assert len({intervals[headline] for intervals in by_seed.values()}) > 1
