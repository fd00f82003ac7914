"""Which rows of a board are ranked, and their ranks as ranges that respect uncertainty.

A valid prediction file is not enough to be ranked. A row is ranked only when:
- its trust level allows it (a benchmark whose items depend on the model ranks only reproduced rows);
- it rests on enough items, where rows may rest on different numbers of them (the benchmark's minimum);
- its headline's 95% interval is informative (half as wide as the benchmark's bound or less);
- its predictions are not byte-identical to an earlier submission's;
- the runs it averages have distinct seeds and distinct predictions;
- its model name is not another submitter's under NFKC, case folding and Unicode's confusables (TR39);
- it is the model's first row on the board (one model, one row per board).
Unranked rows stay on the page with the reason.

Ranks: rows on a board share their items, so every two ranked rows are compared with a paired bootstrap
over items (seeded, vectorised): row a beats row b when the 95% interval of mean(a_i - b_i) lies above 0.
A row's rank is the range from 1 + (rows that beat it) to (rows) - (rows it beats), as arena-style
leaderboards show it. Where rows do not share items (the benchmark gives no per-item scores), two rows are
told apart only when their own 95% intervals do not overlap.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.benchmark import Benchmark

RESAMPLES = 2000
SEED = 0
LEVEL = 0.95
INTERVAL_METHOD = (
    "Intervals are 95% percentile bootstrap intervals over the items (2,000 resamples, seed 0); ranks are ranges: "
    "a row is placed above another only when the paired bootstrap of their difference over the same items "
    "excludes zero."
)


def ranking_rules(benchmark: Benchmark) -> list[str]:
    """The rules above with this benchmark's numbers, as its page states them."""
    display = benchmark.display
    rules = []
    if benchmark.item_scores is None:
        rules.append("NegHub has reproduced it: its items depend on the model, so re-scoring alone proves little")
    if display.items_path is not None and display.min_items:
        rules.append(f"it rests on {display.min_items} {display.items_noun} or more")
    unit = "points" if display.headline.unit in ("percent", "points") else display.headline.unit
    scale = 100 if display.headline.unit in ("percent", "points") else 1
    rules += [
        f"its headline's 95% interval is ±{scale * display.max_ci_half_width:g} {unit} wide or less",
        "its predictions are not byte-identical to an earlier submission's",
        "the runs it averages have distinct seeds and distinct predictions",
        "its model name does not read as another submitter's (NFKC, case folding, Unicode confusables)",
        "it is the model's first row on the board (one row per model and board)",
    ]
    return rules


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
    items: NDArray[np.float64] | None  # per-item scores (signed), in the board's item order


def significantly_better(candidates: Sequence[Candidate]) -> NDArray[np.bool_]:
    """better[a, b]: row a beats row b (paired bootstrap over shared items, else non-overlapping intervals)."""
    n = len(candidates)
    better = np.zeros((n, n), dtype=np.bool_)
    paired = [c for c in candidates if c.items is not None]
    sizes = {c.items.size for c in paired if c.items is not None}
    if len(paired) == n and n > 1 and len(sizes) == 1:
        items = np.stack([c.items for c in candidates if c.items is not None])  # rows x items
        size = items.shape[1]
        rng = np.random.default_rng(SEED)
        # each resample draws every item a multinomial number of times: means as one matrix product
        counts = rng.multinomial(size, np.full(size, 1.0 / size), size=RESAMPLES).astype(np.float64)  # B x items
        means = items @ counts.T / size  # rows x B
        # a beats b when fewer than 2.5% of the resampled differences are <= 0 (the interval's lower end above
        # zero); counted a row at a time so that memory stays rows x B however many rows a board has
        tail = (1.0 - LEVEL) / 2.0
        for a in range(n):
            better[a] = (means[a][None, :] <= means).mean(axis=1) < tail
        np.fill_diagonal(better, False)
        return better
    for a, first in enumerate(candidates):
        for b, second in enumerate(candidates):
            if a != b and first.ci is not None and second.ci is not None:
                better[a, b] = first.ci[0] > second.ci[1]
    return better


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
