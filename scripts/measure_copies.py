"""Measure the copy rule's statistic (leaderboard/copies.py): error consistency of copies and of independent rows.

    python scripts/measure_copies.py --data-dir ../shared/datasets --pairs 400 \
        --set "JNLI-Neg validation" 1363 3 --set "NUBench sample" 46 4

For each item set named by `--set LABEL ITEMS ANSWERS` (JNLI-Neg's validation split: 1,363 instances of 3 labels;
NegHub's NUBench sample: 46 items of 4 options), it prints the error consistency κ (Cohen's κ over right and
wrong, Geirhos et al. 2020) of:

- copies of a source row with 1, 2, 5, 10 and 20 % of its answers changed, at random (another label) and towards
  gold (the gold label), for sources at the papers' accuracy levels and for NegHub's committed SmolLM2 rows;
- independent rows at those accuracy levels (errors drawn independently);
- rows of one "family" that share hard items: each item has a difficulty b_i ~ N(0, σ²) shared by every model,
  and model j answers it right with probability sigmoid(θ_j − b_i) (a Rasch model); θ_j is set so that the model's
  accuracy is the level asked. σ = 1.5 makes a strong family (independent models' κ around 0.2–0.4);
- NegHub's committed SmolLM2 rows against each other and against the rule rows (each constant answer).

It prints the minimum, median and maximum κ of each, and for a range of cut-offs the share of independent and
family pairs that would be held (false holds) and of copies that would not (misses). The README's "Copies" table
and the cut-off in leaderboard/copies.py come from its output.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from pathlib import Path

import numpy as np

from neghub.leaderboard.copies import COPY_KAPPA, Agreement, error_consistency

LEVELS = (0.35, 0.50, 0.60, 0.70, 0.80)  # the papers' zero-shot accuracies span about 35-80 %
SHARES = (0.01, 0.02, 0.05, 0.10, 0.20)
CUTOFFS = (0.35, 0.40, 0.45, 0.50, 0.55)


def copy_of(right: np.ndarray, n_labels: int, share: float, towards_gold: bool, rng: random.Random) -> np.ndarray:
    """Right/wrong of a copy of a row (`right`) with `share` of its answers changed."""
    out = right.copy()
    for item in rng.sample(range(right.size), round(share * right.size)):
        if towards_gold:
            out[item] = True
        else:
            # another label: from a right answer always wrong; from a wrong one right with chance 1/(n - 1)
            out[item] = False if right[item] else rng.random() < 1.0 / (n_labels - 1)
    return out


def independent(n: int, level: float, rng: np.random.Generator) -> np.ndarray:
    return rng.random(n) < level


def family(n: int, levels: tuple[float, ...], sigma: float, rng: np.random.Generator) -> list[np.ndarray]:
    """Rows of models sharing item difficulties (a Rasch model), one per accuracy level."""
    difficulty = rng.normal(0.0, sigma, n)
    rows = []
    for level in levels:
        low, high = -10.0, 10.0
        for _ in range(60):  # the ability whose expected accuracy is `level`
            theta = (low + high) / 2
            if float(np.mean(1 / (1 + np.exp(difficulty - theta)))) < level:
                low = theta
            else:
                high = theta
        rows.append(rng.random(n) < 1 / (1 + np.exp(difficulty - theta)))
    return rows


def summary(pairs: list[tuple[float, float]]) -> str:
    values = [v for v, _ in pairs if not math.isnan(v)]
    if not values:
        return "undefined"
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f} ({len(values)} pairs)"


def kappa(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """κ and the lower end of its 95 % interval, as the rule computes them (NaN where undefined)."""
    value = error_consistency(a, b)
    if value is None:
        return math.nan, math.nan
    p1, p2 = float(a.mean()), float(b.mean())
    found = Agreement(a.size, value, 0, "error consistency", float((a == b).mean()), p1 * p2 + (1 - p1) * (1 - p2))
    low = found.low
    return value, math.nan if low is None else low


def measure(n: int, n_labels: int, pairs: int, seed: int, label: str) -> None:
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    print(f"\n## {label}: {n} items, {n_labels} answers per item\n")
    copies: dict[tuple[float, bool], list[tuple[float, float]]] = {}
    for share in SHARES:
        for towards_gold in (False, True):
            values = []
            for level in LEVELS:
                for _ in range(max(1, pairs // len(LEVELS))):
                    source = independent(n, level, rng)
                    values.append(kappa(source, copy_of(source, n_labels, share, towards_gold, prng)))
            copies[(share, towards_gold)] = values
            direction = "towards gold" if towards_gold else "at random"
            print(f"copy, {100 * share:4.0f} % changed {direction:12}: κ min / median / max {summary(values)}")
    independents = []
    for _ in range(pairs):
        a, b = prng.sample(LEVELS, 2) if prng.random() < 0.5 else (prng.choice(LEVELS),) * 2
        independents.append(kappa(independent(n, a, rng), independent(n, b, rng)))
    print(f"independent rows                    : κ min / median / max {summary(independents)}")
    families: dict[float, list[tuple[float, float]]] = {}
    for sigma in (1.0, 1.5, 2.0):
        values = []
        for _ in range(max(1, pairs // 10)):
            rows = family(n, LEVELS, sigma, rng)
            values += [kappa(rows[i], rows[j]) for i in range(len(rows)) for j in range(i + 1, len(rows))]
        families[sigma] = values
        print(f"one family, shared difficulty σ={sigma}: κ min / median / max {summary(values)}")
    print(
        "\ncut-off on κ's 95 % lower end (the rule's is " + f"{COPY_KAPPA:.2f}" + ") | independent held | family "
        "σ=1 / 1.5 / 2 held | copies missed, by share changed (at random; towards gold)"
    )
    for cutoff in CUTOFFS:

        def held(pairs: list[tuple[float, float]], cutoff: float = cutoff) -> float:
            return sum(low >= cutoff for _, low in pairs if not math.isnan(low)) / len(pairs)

        fam = " / ".join(f"{held(families[s]):.3f}" for s in (1.0, 1.5, 2.0))
        missed = [
            f"{100 * share:.0f} %: {1 - held(copies[(share, False)]):.2f}; {1 - held(copies[(share, True)]):.2f}"
            for share in SHARES
        ]
        print(f"{cutoff:.2f} | {held(independents):.4f} | {fam} | " + " · ".join(missed))


def unanswered_rule(n: int, pairs: int, seed: int, label: str, shares: tuple[float, ...]) -> None:
    """The rule itself (copies.agreement and is_copy, an unanswered item counted as a wrong answer unless both rows
    left it) on independent and same-family rows of which a share of the wrong answers is unanswered (`null`): drawn
    independently per row, or on the items the family finds hardest (shared unparseable outputs), and on the
    copy-with-nulls attack (a copy of the source's right answers, 3 of them changed, null elsewhere)."""
    from neghub.leaderboard.copies import Answered, agreement, is_copy

    rng = np.random.default_rng(seed + 1)

    def answered(right: np.ndarray, null: np.ndarray) -> Answered:
        codes = np.where(null, -1, np.where(right, 0, 1)).astype(np.int32)
        return Answered(tuple(range(right.size)), codes, right & ~null)

    def nulls(right: np.ndarray, share: float, order: np.ndarray | None) -> np.ndarray:
        wrong = np.flatnonzero(~right)
        count = round(share * wrong.size)
        if order is None:
            chosen = rng.choice(wrong, count, replace=False) if count else np.zeros(0, dtype=np.int64)
        else:  # the hardest of its wrong items (the family's shared difficulty order)
            chosen = [i for i in order if not right[i]][:count]
        out = np.zeros(right.size, dtype=bool)
        out[np.asarray(chosen, dtype=np.int64)] = True
        return out

    print(f"\n## the rule with unanswered items, {label}: {n} items (held: lower end of κ's interval ≥ {COPY_KAPPA})\n")
    print("unanswered share of wrong answers | independent held | family σ = 1.5 / 2, nulls on the hardest, held")
    for share in shares:
        held_independent = 0
        for _ in range(pairs):
            a, b = (independent(n, prng_level, rng) for prng_level in rng.choice(LEVELS, 2))
            held_independent += is_copy(
                agreement(answered(a, nulls(a, share, None)), answered(b, nulls(b, share, None)))
            )
        family_held = []
        for sigma in (1.5, 2.0):
            held = total = 0
            for _ in range(max(1, pairs // 10)):
                difficulty_rows = family(n, LEVELS, sigma, rng)
                order = np.argsort([-float(np.mean([not r[i] for r in difficulty_rows])) for i in range(n)])
                for i in range(len(difficulty_rows)):
                    for j in range(i + 1, len(difficulty_rows)):
                        x, y = difficulty_rows[i], difficulty_rows[j]
                        held += is_copy(
                            agreement(answered(x, nulls(x, share, order)), answered(y, nulls(y, share, order)))
                        )
                        total += 1
            family_held.append(f"{held} of {total}")
        print(f"{100 * share:.0f} % | {held_independent} of {pairs} | {' / '.join(family_held)}")
    caught = 0
    for _ in range(pairs):
        source = independent(n, float(rng.choice(LEVELS)), rng)
        copy = source.copy()
        changed = rng.choice(np.flatnonzero(source), min(3, int(source.sum())), replace=False)
        copy[changed] = False
        null = ~source
        null[changed] = False
        caught += is_copy(agreement(answered(copy, null), answered(source, np.zeros(n, dtype=bool))))
    print(f"copy of the right answers, 3 changed, null elsewhere: held {caught} of {pairs}")


def committed_rows(data_dir: Path) -> None:
    """NegHub's committed SmolLM2 rows and the rule rows, against each other (real rows, not simulated); each pair of
    distinct answer sets once."""
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.copies import agreement
    from neghub.leaderboard.verdicts import answered_of

    board = collect(Path("submissions"), data_dir=data_dir, reported=False)
    rows = [r for r in board.facts if r.correct is not None and answered_of(r) is not None]
    print("\n## committed rows and rule rows (real answers)\n")
    seen = set()
    for i, first in enumerate(rows):
        for second in rows[i + 1 :]:
            key = (first.key.release_key(), first.model, first.key.mode, second.model, second.key.mode)
            if first.key.release_key() != second.key.release_key() or key in seen:
                continue
            seen.add(key)
            a, b = answered_of(first), answered_of(second)
            assert a is not None and b is not None
            found = agreement(a, b)
            mine, theirs = first.key.mode or first.key.prompt, second.key.mode or second.key.prompt
            what = f"{first.model} ({mine}) ~ {second.model} ({theirs})"
            print(f"{first.task}: {what}: {found.words}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--set", nargs=3, action="append", default=[], metavar=("LABEL", "ITEMS", "ANSWERS"), help="an item set"
    )
    parser.add_argument(
        "--unanswered",
        type=float,
        nargs="*",
        default=[0.0, 0.1, 0.3, 1.0],
        help="shares of each row's wrong answers left unanswered, for the rule's own false-hold rate",
    )
    args = parser.parse_args()
    for label, items, answers in args.set:
        measure(int(items), int(answers), args.pairs, args.seed, label)
        unanswered_rule(int(items), args.pairs, args.seed, label, tuple(args.unanswered))
    committed_rows(args.data_dir)


if __name__ == "__main__":
    main()
