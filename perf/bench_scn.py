"""Scoring two million SCN predictions: the vectorised checks and scorer against a plain Python loop.

Both sides start from the same columns (the file already read): the timed "scoring" is
`check_predictions` + `score` (duplicates, CpTp == verb, at most 20 verbs per pair, completeness,
then repetition/drop and Wilson intervals per variant and pattern) against a loop that does the
same checks and counts one prediction at a time. Reading the file (JSON parsing and interning the
strings, necessarily per line) is timed separately and reported on its own line. Target: ratio >= 20.

    python perf/bench_scn.py [--rows 2000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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
            for verb_index in rng.choice(len(verbs), size=scn.MAX_VERBS_PER_PAIR, replace=False):
                if made == triplets_per_variant:
                    break
                made += 1
                verb = verbs[verb_index]
                for pattern in scn.PATTERNS:
                    top1 = verb if rng.random() < REPEAT_SHARE[pattern] else verbs[(verb_index + 1) % len(verbs)]
                    lines.append(json.dumps(scn.prediction_row(name, profession, verb, variant, pattern, top1)))
    return ("\n".join(lines) + "\n").encode()


def vectorised(predictions: scn.Predictions, bootstrap: BootstrapConfig) -> dict[str, Any]:
    problems = scn.check_predictions(predictions)
    assert not problems, problems[:3]
    return scn.score(predictions, bootstrap)


def python_loop(
    columns: dict[str, list[int]], n_pairs: int, bootstrap: BootstrapConfig
) -> dict[tuple[int, int], float]:
    """The same checks and counts, one prediction at a time; returns the drop of every (variant, pattern)."""
    first_line: dict[tuple[int, int], int] = {}
    problems = 0
    n = [[0] * len(scn.PATTERNS) for _ in scn.VARIANTS]
    hits = [[0] * len(scn.PATTERNS) for _ in scn.VARIANTS]
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
        if repeated:
            hits[variant][pattern] += 1
    patterns_per_triplet = Counter(triplet for triplet, _ in first_line)
    problems += sum(1 for count in patterns_per_triplet.values() if count != len(scn.PATTERNS))
    verbs_per_pair = Counter(columns["triplet_pair"])
    problems += sum(1 for pair in range(n_pairs) if verbs_per_pair[pair] > scn.MAX_VERBS_PER_PAIR)
    assert problems == 0
    drops: dict[tuple[int, int], float] = {}
    for v in range(len(scn.VARIANTS)):
        for p in range(len(scn.PATTERNS)):
            wilson_interval(hits[v][p], n[v][p])  # the drop's interval, as scn/scoring.py computes it
            drops[(v, p)] = (n[v][p] - hits[v][p]) / n[v][p]
    return drops


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
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--repeats", type=int, default=3)
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
    loop_seconds, loop_drops = best_of(
        args.repeats, lambda: python_loop(columns, len(predictions.pair_keys), bootstrap)
    )
    for (v, p), drop in loop_drops.items():  # both sides must agree before their times mean anything
        assert result["variants"][scn.VARIANTS[v]]["patterns"][scn.PATTERNS[p]]["drop"] == drop

    print(f"{machine_line()}; {machine()}")
    n_triplets = len(predictions.triplet_keys)
    print(f"SCN predictions: {predictions.size:,} lines, {len(data) / 1e6:.0f} MB, {n_triplets:,} triplets")
    print(f"reading (JSON parsing + interning, per line, not in the ratio): {read_seconds:.2f} s")
    print(f"scoring, vectorised numpy (checks + score, best of {args.repeats}): {vector_seconds * 1000:.1f} ms")
    print(f"scoring, plain Python loop (same checks + counts, best of {args.repeats}): {loop_seconds * 1000:.1f} ms")
    ratio = loop_seconds / vector_seconds
    print(f"ratio loop / vectorised: {ratio:.1f}x (target >= 20): {'met' if ratio >= 20 else 'NOT met'}")


if __name__ == "__main__":
    main()
