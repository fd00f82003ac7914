"""Benchmark: scoring one million synthetic minimal pairs.

Reports pairs per second for the metrics without the bootstrap, the time of the paired bootstrap
over 10,000 pairs (1,000 resamples), and the ratio against a plain per-pair Python loop computing
the same numbers, timed in the same run. Targets (issue 2): >= 1,000,000 pairs/s, ratio >= 30.

    python perf/bench_minimal_pairs.py [--pairs 1000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
from measured import machine_line, require

from neghub.evaluator.benchmarks import jnli_neg
from neghub.evaluator.core.stats import BootstrapConfig, bootstrap_rows_ci, paired_bootstrap_ci
from neghub.evaluator.families.minimal_pairs import (
    CUE_POSITIONS,
    PAIR_KINDS,
    TARGET_POS,
    UNPARSEABLE,
    MinimalPairDataset,
    MinimalPairs,
    score_pairs,
)
from neghub.evaluator.releases.loading import Release, ResolvedFile

N_INSTANCES = 400_000
N_PAIRS = 1_000_000


def synthetic(seed: int = 0, n_pairs: int = N_PAIRS) -> tuple[MinimalPairDataset, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 3, N_INSTANCES).astype(np.int16)
    control = rng.integers(0, N_INSTANCES, n_pairs)
    treatment = rng.integers(0, N_INSTANCES, n_pairs)
    pairs = MinimalPairs(
        control=control,
        treatment=treatment,
        kind=rng.integers(0, len(PAIR_KINDS), n_pairs).astype(np.int8),
        cue_position=rng.integers(0, len(CUE_POSITIONS), n_pairs).astype(np.int8),
        target_pos=rng.integers(0, len(TARGET_POS), n_pairs).astype(np.int8),
        important=gold[control] != gold[treatment],
        unmatched_both=0,
    )
    release = Release(jnli_neg.METADATA, Path("synthetic"), "mirror", True)
    dataset = MinimalPairDataset(
        task="jnli-neg",
        split="synthetic",
        release=release,
        file=ResolvedFile(Path("synthetic"), "0" * 64, verified=False),
        ids=np.arange(N_INSTANCES, dtype=np.int64),
        gold=gold,
        is_original=rng.random(N_INSTANCES) < 0.15,
        pairs=pairs,
        row_of_id={},
    )
    # a model right about 70% of the time, 3% of its answers unparseable (the flip rates count parsed pairs only)
    predicted = np.where(rng.random(N_INSTANCES) < 0.7, gold, (gold + 1) % 3).astype(np.int16)
    predicted[rng.random(N_INSTANCES) < 0.03] = UNPARSEABLE
    return dataset, predicted


def python_loop(dataset: MinimalPairDataset, predicted: np.ndarray) -> dict[Any, Any]:
    """The same figures as `score_pairs` without intervals, one pair and one instance at a time over Python lists:
    each pair set's and breakdown's counts and rates, the flip rates over pairs whose two answers parsed, McNemar's
    exact p of each set, and the instance accuracies."""
    gold = dataset.gold.tolist()
    pred = predicted.tolist()
    p = dataset.pairs
    sums: dict[Any, list[int]] = {}
    # per set: discordant pairs (control right only, treatment right only), pairs whose two answers parsed, changed
    flips: dict[str, list[int]] = {name: [0, 0, 0, 0] for name in ("M", "M_i", "M_u")}
    for c, t, kind, position, pos in zip(
        p.control.tolist(),
        p.treatment.tolist(),
        p.kind.tolist(),
        p.cue_position.tolist(),
        p.target_pos.tolist(),
        strict=True,
    ):
        c_right = pred[c] == gold[c]
        t_right = pred[t] == gold[t]
        changed = pred[c] != pred[t]
        parsed = pred[c] != UNPARSEABLE and pred[t] != UNPARSEABLE
        set_name = "M_i" if gold[c] != gold[t] else "M_u"
        for key in (
            ("set", "M"),
            ("set", set_name),
            ("kind", kind, set_name),
            ("position", position, set_name),
            ("pos", pos, set_name),
        ):
            cell = sums.setdefault(key, [0, 0, 0, 0])
            cell[0] += 1
            cell[1] += c_right
            cell[2] += t_right
            cell[3] += changed
        for name in ("M", set_name):
            flip = flips[name]
            flip[0] += c_right and not t_right
            flip[1] += t_right and not c_right
            flip[2] += parsed
            flip[3] += parsed and changed
    figures: dict[Any, Any] = {key: (n, cr / n, tr / n, (tr - cr) / n, ch / n) for key, (n, cr, tr, ch) in sums.items()}
    for name, (only_control, only_treatment, parsed, changed) in flips.items():
        figures[("mcnemar_p", name)] = _mcnemar_exact_p(only_control, only_treatment)
        figures[("flip", name)] = (parsed, changed)
    right = {"D_orig": [0, 0], "D_neg": [0, 0], "D": [0, 0]}
    for g, answer, original in zip(gold, pred, dataset.is_original.tolist(), strict=True):
        for name in ("D", "D_orig" if original else "D_neg"):
            right[name][0] += 1
            right[name][1] += answer == g
    for name, (n, hits) in right.items():
        figures[("instance", name)] = hits / n if n else None
    return figures


def _mcnemar_exact_p(only_control: int, only_treatment: int) -> float:
    """min(1, 2 P[X <= min(b, c)]), X ~ Binomial(b + c, 1/2), one term at a time in logs."""
    n = only_control + only_treatment
    if n == 0:
        return 1.0
    log_terms = [-n * math.log(2.0)]
    for k in range(1, min(only_control, only_treatment) + 1):
        log_terms.append(log_terms[-1] + math.log(n - k + 1) - math.log(k))
    top = max(log_terms)
    return min(1.0, 2.0 * math.exp(top) * sum(math.exp(term - top) for term in log_terms))


def best_of(repeats: int, fn: Any, *args: Any) -> tuple[float, Any]:
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=N_PAIRS, help="synthetic minimal pairs scored (fewer: a check)")
    parser.add_argument("--repeats", type=int, default=5, help="best of this many timings of the vectorised side")
    args = parser.parse_args()
    n_pairs = args.pairs
    dataset, predicted = synthetic(n_pairs=n_pairs)
    # the inputs accepted: the scorer counts every pair before anything is timed
    scored = score_pairs(dataset, predicted, None)["pair_metrics"]["M"]["n"]
    require(n_pairs > 0 and scored == n_pairs, f"the scorer counted {scored} of {n_pairs} synthetic pairs")
    vector_s, vector = best_of(args.repeats, score_pairs, dataset, predicted, None)
    loop_s, loop = best_of(1, python_loop, dataset, predicted)
    # the two must agree before their times mean anything
    for name in ("M", "M_i", "M_u"):
        figures = vector["pair_metrics"][name]
        n, acc, acc_prime, acc_chg, _ = loop[("set", name)]
        assert figures["n"] == n
        assert abs(figures["acc"] - acc) + abs(figures["acc_prime"] - acc_prime) < 1e-12
        assert abs(figures["acc_chg"] - acc_chg) < 1e-12
        # a running sum of up to 10^5 log terms, in another order: equal to its rounding
        assert math.isclose(figures["mcnemar_p"], loop[("mcnemar_p", name)], rel_tol=1e-6, abs_tol=1e-300)
        parsed, changed = loop[("flip", name)]
        assert figures["pairs_with_unparsed"] == figures["n"] - parsed
        assert figures["pairs_with_unparsed"] > 0  # the synthetic answers include unparseable ones
        if name == "M_u":
            assert abs(figures["distracted_rate"] - changed / parsed) < 1e-12
        if name == "M_i":
            assert abs(figures["ignored_rate"] - (parsed - changed) / parsed) < 1e-12
    for breakdown, key in (("pair_kind", "kind"), ("cue_position", "position"), ("target_pos", "pos")):
        names = {"kind": PAIR_KINDS, "position": CUE_POSITIONS, "pos": tuple(TARGET_POS.values())}[key]
        for code, value in enumerate(names):
            for name in ("M_i", "M_u"):
                cell = loop.get((key, code, name))
                scored = vector["breakdowns"][breakdown][value][name]
                assert scored["n"] == (cell[0] if cell else 0)
                if cell:
                    assert abs(scored["acc_chg"] - cell[3]) < 1e-12
    for name, figures in vector["instance_metrics"].items():
        assert figures["acc"] == loop[("instance", name)]

    rng = np.random.default_rng(1)
    c = rng.random(10_000) < 0.7
    t = rng.random(10_000) < 0.6
    config = BootstrapConfig(resamples=1000, seed=0)
    boot_s, _ = best_of(5, paired_bootstrap_ci, c, t, config)
    index_boot_s, _ = best_of(3, bootstrap_rows_ci, t.astype(float) - c.astype(float), config)

    print(f"{machine_line()}, numpy {np.__version__}")
    print(f"inputs: {n_pairs:,} synthetic minimal pairs over {N_INSTANCES:,} instances, every pair scored")
    print(
        f"metrics without bootstrap, {n_pairs:,} pairs: {vector_s:.3f} s = {n_pairs / vector_s:,.0f} pairs/s "
        f"(target >= 1,000,000): {'met' if n_pairs / vector_s >= 1_000_000 else 'NOT met'}"
    )
    print(f"plain per-pair Python loop, same metrics: {loop_s:.3f} s = {n_pairs / loop_s:,.0f} pairs/s")
    ratio = loop_s / vector_s
    print(f"ratio loop / vectorised: {ratio:.1f}x (target >= 30): {'met' if ratio >= 30 else 'NOT met'}")
    print(
        f"paired bootstrap of AccChg, 10,000 pairs x 1,000 resamples: {1000 * boot_s:.2f} ms "
        f"(multinomial cell counts); index resampling of the same: {1000 * index_boot_s:.1f} ms "
        f"({index_boot_s / boot_s:.0f}x slower)"
    )


if __name__ == "__main__":
    main()
