"""Scoring SCN predictions: the vectorised checks and scorer against a plain Python loop doing the same.

Both sides start from the same columns (the file already read): the timed "scoring" is
`check_predictions` + `score` (duplicates, CpTp == verb, at most 20 verbs per pair, completeness, then
repetition/drop per variant and pattern with its design effect clustered by name/profession pair and by verb and
Wilson's interval at the effective sample size, the negation contrast and its two percentile bootstraps, of the
triplets and of whole pairs, and the verdict) against a loop that does all of it but the verdict, one prediction,
one triplet and one resample at a time: the ratio errs low. The two must agree on every drop, design effect and
contrast before a time is printed. Most of the ratio is the bootstraps: the loop draws every triplet of every
resample, the scorer 32 outcome counts, so it grows with --rows (200,000 rows take the loop about half a minute).
Reading the file (JSON parsing and interning the strings, necessarily per line) is timed separately and reported
on its own line. Target: ratio >= 20.

    python perf/bench_scn.py [--rows 200000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from measured import machine_line, require

from neghub.evaluator.benchmarks import scn
from neghub.evaluator.core.stats import BootstrapConfig, wilson_interval

# how often each pattern's top-1 repeats the verb in the synthetic predictions (CpTp always does)
REPEAT_SHARE = {"CpTp": 1.0, "CpTn": 0.4, "CnTp": 0.2, "CnTn": 0.8, "CpTv": 0.7}
PAIR_SPREAD = 0.15  # a name/profession pair's own shift of those shares (but CpTp's), uniform in +-0.15


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), None)
        cpu = model or cpu
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def synthetic_file(n_rows: int, seed: int = 0) -> bytes:
    """n_rows prediction lines (a multiple of 20: 4 variants x 5 patterns per triplet) from NegHub's lists."""
    lists = scn.load_word_lists()
    rng = np.random.default_rng(seed)
    names = lists.female_names[:25] + lists.male_names[:25]
    verbs = lists.verbs[:100]
    triplets_per_variant = n_rows // (len(scn.VARIANTS) * len(scn.PATTERNS))
    n_pairs = -(-triplets_per_variant // scn.MAX_VERBS_PER_PAIR)
    pairs = [(name, profession) for profession in lists.professions for name in names][:n_pairs]
    if len(pairs) < n_pairs:
        raise SystemExit(f"--rows {n_rows} needs more (name, profession) pairs than the lists give")
    lines: list[str] = []
    for variant in scn.VARIANTS:
        made = 0
        for name, profession in pairs:
            # each pair repeats more or less often than the pattern's share: the pair's triplets are alike, as a
            # real model's are, so the design effects clustered by pair are above 1 and the two sides must agree
            shift = rng.uniform(-PAIR_SPREAD, PAIR_SPREAD)
            for verb_index in rng.choice(len(verbs), size=scn.MAX_VERBS_PER_PAIR, replace=False):
                if made == triplets_per_variant:
                    break
                made += 1
                verb = verbs[verb_index]
                for pattern in scn.PATTERNS:
                    share = REPEAT_SHARE[pattern] if pattern == "CpTp" else REPEAT_SHARE[pattern] + shift
                    top1 = verb if rng.random() < share else verbs[(verb_index + 1) % len(verbs)]
                    lines.append(json.dumps(scn.prediction_row(name, profession, verb, variant, pattern, top1)))
    return ("\n".join(lines) + "\n").encode()


def vectorised(predictions: scn.Predictions, bootstrap: BootstrapConfig) -> dict[str, Any]:
    problems = scn.check_predictions(predictions)
    assert not problems, problems[:3]
    return scn.score(predictions, bootstrap)


def python_loop(
    columns: dict[str, list[int]], keys: list[tuple[str, str, str, str]], n_pairs: int, bootstrap: BootstrapConfig
) -> dict[tuple[int, Any], Any]:
    """The same checks and figures as `vectorised` but the verdict (criterion.judge), one prediction, one triplet
    and one resample at a time: the checks, the counts, each pattern's design effect clustered by name/profession
    pair and by verb (CR1, two ways, as stats.two_way_design_effect: written again here on purpose, as the
    baseline) and Wilson's interval at the effective sample size, the negation contrast and its two percentile
    bootstraps (the triplets, then whole pairs). Returns each (variant, pattern)'s drop and design effect and each
    variant's contrast, which both sides must agree on (the bootstraps draw other random numbers)."""
    first_line: dict[tuple[int, int], int] = {}
    problems = 0
    n = [[0] * len(scn.PATTERNS) for _ in scn.VARIANTS]
    hits = [[0] * len(scn.PATTERNS) for _ in scn.VARIANTS]
    bits: dict[int, int] = {}  # each triplet's outcome: bit p set where pattern p repeated the verb
    variant_of: dict[int, int] = {}
    for line, variant, pattern, repeated, triplet in zip(
        columns["line"], columns["variant"], columns["pattern"], columns["repeated"], columns["triplet"], strict=True
    ):
        key = (triplet, pattern)
        if key in first_line:
            problems += 1
        else:
            first_line[key] = line
        if pattern == 0 and not repeated:
            problems += 1
        n[variant][pattern] += 1
        bits[triplet] = bits.get(triplet, 0) | (int(repeated) << pattern)
        variant_of[triplet] = variant
        if repeated:
            hits[variant][pattern] += 1
    patterns_per_triplet = Counter(triplet for triplet, _ in first_line)
    problems += sum(1 for count in patterns_per_triplet.values() if count != len(scn.PATTERNS))
    verbs_per_pair = Counter(columns["triplet_pair"])
    problems += sum(1 for pair in range(n_pairs) if verbs_per_pair[pair] > scn.MAX_VERBS_PER_PAIR)
    assert problems == 0
    figures: dict[tuple[int, Any], Any] = {}
    rng = random.Random(bootstrap.seed)
    for v in range(len(scn.VARIANTS)):
        triplets = [t for t, of in variant_of.items() if of == v]
        pairs = [(keys[t][0], keys[t][1]) for t in triplets]
        verbs = [keys[t][2] for t in triplets]
        drops = []
        for p in range(len(scn.PATTERNS)):
            values = [float(bits[t] >> p & 1) for t in triplets]
            effect = _two_way_design_effect(values, pairs, verbs)
            wilson_interval(hits[v][p], n[v][p], design_effect=effect)
            drops.append((n[v][p] - hits[v][p]) / n[v][p])
            figures[(v, p)] = (drops[-1], effect)
        figures[(v, "contrast")] = _contrast(drops)
        outcomes = [bits[t] for t in triplets]
        by_pair: dict[tuple[str, str], list[int]] = {}
        for pair, outcome in zip(pairs, outcomes, strict=True):
            by_pair.setdefault(pair, []).append(outcome)
        groups = list(by_pair.values())
        triplet_draws = [_contrast_of(rng.choices(outcomes, k=len(outcomes))) for _ in range(bootstrap.resamples)]
        pair_draws = [
            _contrast_of([o for group in rng.choices(groups, k=len(groups)) for o in group])
            for _ in range(bootstrap.resamples)
        ]
        tail = (1.0 - bootstrap.level) / 2
        for draws in (triplet_draws, pair_draws):
            interval = (_percentile(draws, tail), _percentile(draws, 1.0 - tail))
            assert interval[0] <= interval[1]
    return figures


def _contrast(drops: list[float]) -> float:
    _, cptn, cntp, cntn, cptv = drops  # CpTp: the verb is always repeated there
    return min(cptn, cntp) - max(cntn, cptv)


def _contrast_of(outcomes: list[int]) -> float:
    repeated = [0] * len(scn.PATTERNS)
    for outcome in outcomes:
        for p in range(len(scn.PATTERNS)):
            repeated[p] += outcome >> p & 1
    return _contrast([1.0 - r / len(outcomes) for r in repeated])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    below = int(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


def _clustered_sum_of_squares(residuals: list[float], clusters: list[Any]) -> float | None:
    sums: dict[Any, float] = {}
    for residual, cluster in zip(residuals, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + residual
    if len(sums) < 2:
        return None
    return len(sums) / (len(sums) - 1) * sum(s * s for s in sums.values())


def _two_way_design_effect(values: list[float], first: list[Any], second: list[Any]) -> float:
    mean = sum(values) / len(values)
    residuals = [x - mean for x in values]
    independent = sum(r * r for r in residuals)
    if independent <= 1e-12 * len(values):
        return 1.0
    v_first = _clustered_sum_of_squares(residuals, first)
    v_second = _clustered_sum_of_squares(residuals, second)
    if v_first is None or v_second is None:
        one_way = v_second if v_first is None else v_first
        return 1.0 if one_way is None else max(1.0, one_way / independent)
    v_both = _clustered_sum_of_squares(residuals, list(zip(first, second, strict=True))) or 0.0
    combined = v_first + v_second - v_both
    if not combined > 0:
        combined = max(v_first, v_second)
    return max(1.0, combined / independent)


def best_of(repeats: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best = float("inf")
    result: Any = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000, help="prediction lines (a multiple of 20)")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many timings of each side")
    args = parser.parse_args()
    bootstrap = BootstrapConfig()

    data = synthetic_file(args.rows)
    start = time.perf_counter()
    predictions, problems = scn.parse_predictions(data, "synthetic.jsonl")
    read_seconds = time.perf_counter() - start
    require(not problems, f"the synthetic file was refused: {problems[:3]}")
    require(args.rows > 0 and predictions.size == args.rows, f"{predictions.size} of {args.rows} lines read")
    columns = {
        "line": predictions.line.tolist(),
        "variant": predictions.variant.tolist(),
        "pattern": predictions.pattern.tolist(),
        "repeated": predictions.repeated.tolist(),
        "triplet": predictions.triplet.tolist(),
        "triplet_pair": predictions.triplet_pair.tolist(),
    }

    vector_seconds, result = best_of(args.repeats, lambda: vectorised(predictions, bootstrap))
    keys = list(predictions.triplet_keys)
    loop_seconds, loop_figures = best_of(
        args.repeats, lambda: python_loop(columns, keys, len(predictions.pair_keys), bootstrap)
    )
    for (v, p), figure in loop_figures.items():  # both sides must agree before their times mean anything
        if p == "contrast":
            assert math.isclose(result["variants"][scn.VARIANTS[v]]["negation_contrast"], figure, abs_tol=1e-12)
            continue
        drop, effect = figure
        scored = result["variants"][scn.VARIANTS[v]]["patterns"][scn.PATTERNS[p]]
        assert scored["drop"] == drop, (scored["drop"], drop)
        # the same sums in another order: equal to rounding
        assert math.isclose(scored["design_effect"], effect, rel_tol=1e-9), (scored["design_effect"], effect)

    print(f"{machine_line()}; {machine()}")
    n_triplets = len(predictions.triplet_keys)
    print(f"SCN predictions: {predictions.size:,} lines, {len(data) / 1e6:.0f} MB, {n_triplets:,} triplets")
    print(f"reading (JSON parsing + interning, per line, not in the ratio): {read_seconds:.2f} s")
    done = (
        f"checks, counts, design effects, Wilson intervals, the contrast's two bootstraps of "
        f"{bootstrap.resamples:,} resamples, the verdict; best of {args.repeats}"
    )
    print(f"scoring, vectorised numpy (check_predictions + score: {done}): {vector_seconds * 1000:.1f} ms")
    loop_done = "the same but the verdict, one item and one resample at a time"
    print(f"scoring, plain Python loop ({loop_done}): {loop_seconds * 1000:.1f} ms")
    ratio = loop_seconds / vector_seconds
    print(f"ratio loop / vectorised: {ratio:.1f}x (target >= 20): {'met' if ratio >= 20 else 'NOT met'}")


if __name__ == "__main__":
    main()
