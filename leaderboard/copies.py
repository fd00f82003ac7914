"""Whether one row's answers copy another's: agreement beyond what the two rows' accuracies predict.

Raw agreement cannot tell a copy from a coincidence: two rows that answer one label everywhere agree on every
item, and a copy of such a row with 3 % of its answers changed agrees on 97 % (Cohen's κ over the answers is 0 for
both). What a copy keeps is *which* items it gets right: the **error consistency** of Geirhos et al. (2020),
Cohen's κ over right and wrong on the items both rows answered,

    κ = (c_obs − c_exp) / (1 − c_exp),  c_exp = p₁p₂ + (1 − p₁)(1 − p₂),

c_obs the share of those items both rows got right or both got wrong and p₁, p₂ their accuracies there. Two rows
whose errors are independent have κ near 0 whatever their accuracies; a copy keeps its source's right/wrong
pattern but for the items it changed. Where the items have no right answer (a cloze test's triplets), κ is taken
over the answers themselves (c_exp = Σ_k p₁(k)p₂(k)).

An item one row left unanswered (its answer did not parse: `null`) counts as a wrong answer, as it is scored:
otherwise a row that keeps its source's right answers and writes `null` everywhere else is right on every item
both answered, its error consistency undefined or 0, and it passes. An item both rows left unanswered is not
compared (two rows that answered nothing are not copies of each other: nothing is compared). Where each model
selects its own items (a cloze test keeps the triplets the model selects; the benchmark's display declares it
with `items_path`), an item one row left out is not compared: leaving it out is no answer there.

κ is undefined where c_exp is 1 (both rows right on every compared item, or both wrong on every one, or one
answer each everywhere): nothing tells a copy from two perfect rows there, and the rule (verdicts.py) holds the
later row when the answers are identical on every compared item, and compares nothing otherwise.

**Which row is the copy.** Only rows NegHub ran are compared (answer_rules.copies), each against the rows NegHub
ran that landed before it on main: a submitted prediction file ranks nothing, so copying one buys nothing, and
NegHub's run gives the weights' own answers whenever the pull request was opened. The later row is the copy only
where its differences from the earlier lean to the gold labels beyond chance (weights tuned on the rival's answers,
its mistakes corrected); a maintainer's review settles it. What a re-run cannot show: weights trained on a rival's
answers that lean to gold on no item answer like the rival and rank beside it, no higher.

A row is a copy when κ is *significantly* above what independent models of one family reach: the lower end of
κ's 95 % interval (Cohen's 1960 standard error, √(c_obs(1 − c_obs)/n)/(1 − c_exp)) is at `COPY_KAPPA` or more.
Models of one family share hard items, so their errors agree beyond chance too; the cut-off sits above the most
that simulated families with strongly shared item difficulty reached, and the interval keeps a small item set
(NegHub's 46-item NUBench sample) from holding one by chance. Both come from a measurement
(scripts/measure_copies.py; README, "Copies").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

# the cut-off and why: scripts/measure_copies.py, README "Copies"
COPY_KAPPA = 0.45
MIN_ITEMS = 30
Z95 = 1.959964


@dataclass(frozen=True)
class Agreement:
    """Two rows compared on the items both answered."""

    items: int  # items both answered
    kappa: float | None  # error consistency (or κ over the answers); None where undefined
    identical: int  # items answered identically
    statistic: str  # "error consistency" or "κ over the answers"
    observed: float = 0.0  # c_obs
    expected: float = 0.0  # c_exp

    @property
    def low(self) -> float | None:
        """The lower end of κ's 95 % interval (Cohen's 1960 standard error)."""
        if self.kappa is None or self.items == 0:
            return None
        se = math.sqrt(self.observed * (1.0 - self.observed) / self.items) / (1.0 - self.expected)
        return self.kappa - Z95 * se

    @property
    def words(self) -> str:
        if self.kappa is None:
            return (
                f"{self.identical} of the {self.items} items both answered answered alike ({self.statistic} undefined)"
            )
        low = self.low
        return (
            f"{self.statistic} κ = {self.kappa:.2f} (95 % interval from {low:.2f}) on the {self.items} items both "
            f"answered, {self.identical} of them answered alike"
        )


@dataclass(frozen=True)
class Answered:
    """A row's answers as the copy rule reads them: item ids, each answer's code (-1: did not answer) and, where
    the items have a right answer, whether it was right."""

    ids: tuple[str, ...]
    codes: NDArray[np.int32]
    correct: NDArray[np.bool_] | None
    nulls_wrong: bool = True  # an unanswered item is a wrong answer (False: each model selects its own items)


def aligned(first: Answered, second: Answered) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Positions in `first` and in `second` of the items both hold, in `first`'s order."""
    if first.ids is second.ids or first.ids == second.ids:
        index = np.arange(len(first.ids), dtype=np.int64)
        return index, index
    position = {item: i for i, item in enumerate(second.ids)}
    mine = [(i, position[item]) for i, item in enumerate(first.ids) if item in position]
    if not mine:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    pairs = np.array(mine, dtype=np.int64)
    return pairs[:, 0], pairs[:, 1]


def agreement(first: Answered, second: Answered) -> Agreement:
    """The two rows compared on the items both answered."""
    a, b = aligned(first, second)
    codes_a, codes_b = first.codes[a], second.codes[b]
    right_known = first.correct is not None and second.correct is not None
    if right_known and first.nulls_wrong and second.nulls_wrong:
        both = (codes_a >= 0) | (codes_b >= 0)  # an unanswered item is a wrong answer, unless both left it
    else:
        both = (codes_a >= 0) & (codes_b >= 0)
    n = int(both.sum())
    identical = int(((codes_a == codes_b) & both).sum())
    if first.correct is not None and second.correct is not None:
        right_a = first.correct[a][both] & (codes_a[both] >= 0)
        right_b = second.correct[b][both] & (codes_b[both] >= 0)
        observed, expected = _error_shares(right_a, right_b)
        statistic = "error consistency"
    else:
        observed, expected = _answer_shares(codes_a[both], codes_b[both])
        statistic = "κ over the answers"
    return Agreement(n, _kappa(observed, expected, n), identical, statistic, observed, expected)


def _kappa(observed: float, expected: float, n: int) -> float | None:
    return None if n == 0 or expected >= 1.0 else (observed - expected) / (1.0 - expected)


def _error_shares(right_a: NDArray[np.bool_], right_b: NDArray[np.bool_]) -> tuple[float, float]:
    if right_a.size == 0:
        return 0.0, 0.0
    p1, p2 = float(right_a.mean()), float(right_b.mean())
    return float((right_a == right_b).mean()), p1 * p2 + (1.0 - p1) * (1.0 - p2)


def _answer_shares(codes_a: NDArray[np.int32], codes_b: NDArray[np.int32]) -> tuple[float, float]:
    n = codes_a.size
    if n == 0:
        return 0.0, 0.0
    values, inverse = np.unique(np.concatenate([codes_a, codes_b]), return_inverse=True)
    counts_a = np.bincount(inverse[:n], minlength=values.size) / n
    counts_b = np.bincount(inverse[n:], minlength=values.size) / n
    return float((codes_a == codes_b).mean()), float(counts_a @ counts_b)


def error_consistency(right_a: NDArray[np.bool_], right_b: NDArray[np.bool_]) -> float | None:
    """Cohen's κ over right and wrong (Geirhos et al. 2020); None where it is undefined (c_exp = 1) or no item."""
    observed, expected = _error_shares(right_a, right_b)
    return _kappa(observed, expected, right_a.size)


def is_copy(found: Agreement) -> bool:
    """The rule: on MIN_ITEMS items or more, the lower end of κ's 95 % interval at COPY_KAPPA or more; where κ is
    undefined, the same answer on every compared item."""
    if found.items < MIN_ITEMS:
        return False
    if found.kappa is None:
        return found.identical == found.items
    low = found.low
    return low is not None and low >= COPY_KAPPA


def flips(first: Answered, second: Answered) -> tuple[int, int] | None:
    """On the items both rows answered: how many `first` gets right where `second` is wrong, and how many the
    other way round (None where the items have no right answer)."""
    if first.correct is None or second.correct is None:
        return None
    a, b = aligned(first, second)
    both = (first.codes[a] >= 0) & (second.codes[b] >= 0)
    if first.nulls_wrong and second.nulls_wrong:
        both = (first.codes[a] >= 0) | (second.codes[b] >= 0)
    right_a = first.correct[a][both] & (first.codes[a][both] >= 0)
    right_b = second.correct[b][both] & (second.codes[b][both] >= 0)
    return int((right_a & ~right_b).sum()), int((~right_a & right_b).sum())
