"""A row against the papers: which published rows answer the same question as a board, the best of them, and
whether a row is at, above or below the published level, by intervals rather than by point estimates.

**Comparable.** A paper's row answers what a board asks when it ran the same data release and split, the same
shots and the same fine-tuning, in the same test (mode, prompt and chat template may differ: a paper rarely
states them as NegHub does).

**At the published level.** A board's headline is a share of items (M_i Acc′: the M_i pairs whose treatment is
answered right). Where the paper ran the very items NegHub scores (the release NegHub pins, the same split) and
its figure is one run, its count is known: JNLI-Neg's Table 2 prints 58.96 % of the 787 M_i pairs of the
validation split, 464 of 787. The row's own count is its items' outcomes (`RowFacts.headline_items`, one run).
The two are then compared by Newcombe's hybrid score interval of the difference of two independent proportions
(Newcombe 1998, method 10; `core.stats.unpaired_difference_interval`): an interval holding 0 reads "at the
published level", one above 0 "above the published level", one below 0 "below". Unpaired, because the paper's
answers per item are not published: the paired interval (narrower, since the samples are the same items) cannot
be computed. The items are not independent either: the M_i pairs of one source sentence pair share sentences
(787 pairs from 159 sources on JNLI-Neg's valid split). Each side's Wilson interval is therefore taken at the
effective sample size n / design effect, with the row's own design effect (its units' sources on record,
`RowFacts.headline_clusters`; stats.design_effect) applied to both sides, since the paper's is unknown and its
model answered the same items. Where the sources are not on record the pairs are counted as independent, and the
words say so. The interval is an approximation: it is wider than the independent one, but it does not promise
never to err; a claim above the paper still goes to a person (below).

Where the counts are unknown (a paper's mean over seeds, a NegHub row's mean over runs, a figure that is no share
of items such as SCN's negation contrast, a paper on other data), the row's own 95 % interval is compared with the
published figure, and the words say that the paper's spread is unknown.

Why words and not a rule: the hold on a result above the best published one (verdicts.py, "above-published-best")
still fires on the point estimate, as a serious leaderboard holds any claimed record until it is reproduced; these
words only say what the interval supports, so that a row one pair above the paper (59.09 [55.61, 62.47] against
58.96 on the same 787 pairs) is read as "at the published level", never as a new state of the art.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..evaluator.core.numbers import figure
from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.stats import design_effect, unpaired_difference_interval
from .boards import Board, primary_board
from .facts import RowFacts
from .row_figures import clusters_of
from .row_figures import comparable as comparable
from .row_figures import comparable_published as comparable_published

Level = Literal["above", "at", "below"]
LEVEL_WORDS: dict[Level, str] = {
    "above": "above the published level",
    "at": "at the published level",
    "below": "below the published level",
}
# a paper prints a share to two decimals of a percent: a count k of n reproduces it when k / n rounds to it
PRINTED_HALF_STEP = 0.00005


def best_published(board: Board, papers: Iterable[RowFacts]) -> RowFacts | None:
    """The best comparable published row of `board`, or None."""
    rows = comparable_published(board, papers)
    return rows[0] if rows else None


def context_line(task: str, papers: Sequence[RowFacts]) -> str:
    """The context a benchmark's leader line gives: the best published result comparable with the declared primary
    board, whether or not any NegHub row stands on it (issue 33: the line looked only from a NegHub row, and said
    "no comparable published result" above four comparable Table 2 rows)."""
    board = primary_board(task)
    rows = [] if board is None else comparable_published(board, papers)
    if not rows:
        return "no comparable published result (no paper row on this board's data, split, shots and fine-tuning)"
    best = rows[0]
    label = get_benchmark(task).display.headline.label
    others = f"; {len(rows)} comparable published rows" if len(rows) > 1 else ""
    return (
        f"best comparable published result: {best.model}, {label} {_shown(best.headline, task)} ({best.source}, "
        f"{best.key.protocol}, {best.key.dataset_label}; reported, not re-scored{others})"
    )


@dataclass(frozen=True)
class PublishedComparison:
    """A row's headline against one published row's. `method` says how: "unpaired" (both counts known: `interval`
    is Newcombe's interval of row − published) or "row interval" (`interval` is the row's own 95 % interval, the
    published figure a fixed value; `why_no_counts` says why)."""

    row: RowFacts
    published: RowFacts
    level: Level
    method: Literal["unpaired", "row interval"]
    interval: tuple[float, float] | None
    counts: tuple[int, int, int, int] | None = None  # the row's k, n, the published k, n
    why_no_counts: str | None = None
    design_effect: float = 1.0  # the row's, applied to both sides' counts (1: sources not on record)
    sources: int | None = None  # how many sources the row's units come from (None: not on record)

    @property
    def phrase(self) -> str:
        """ "at the published level", "above the published level" or "below the published level"."""
        return LEVEL_WORDS[self.level]

    def words(self) -> str:
        """The comparison in a sentence, with its figures and interval."""
        task = self.row.task
        display = get_benchmark(task).display
        label = display.headline.label
        value, published = self.row.headline, self.published.headline
        ci = self.row.headline_ci
        own = "" if ci is None else f" [{_shown(ci[0], task)}, {_shown(ci[1], task)}]"
        where = f"{self.published.model}, {self.published.source}"
        if self.method == "unpaired" and self.counts is not None and self.interval is not None:
            _, n, _, _ = self.counts
            low, high = self.interval
            difference = (value or 0.0) - (published or 0.0)
            return (
                f"{label} {_shown(value, task)}{own} is {self.phrase}: the paper's {_shown(published, task)} ({where}) "
                f"on the same {n} {display.items_noun}; difference {_points(difference)}, 95 % interval "
                f"[{_points(low)}, {_points(high)}] (Newcombe, unpaired: the paper's answers per item are not "
                f"published; {self._clustering_words(n)}), {_holds_zero(self.level)}"
            )
        if self.interval is None:
            return (
                f"{label} {_shown(value, task)} has no interval to compare with the paper's {_shown(published, task)} "
                f"({where}): {self.why_no_counts}"
            )
        relation = {"at": "holds", "above": "is above", "below": "is below"}[self.level]
        return (
            f"{label} {_shown(value, task)}{own} is {self.phrase} by its own interval, which {relation} the paper's "
            f"{_shown(published, task)} ({where}); the paper's spread is unknown ({self.why_no_counts})"
        )

    def _clustering_words(self, n: int) -> str:
        if self.sources is None:
            return f"its {n} items counted as independent, their sources not on record"
        return (
            f"both sides at this row's design effect {self.design_effect:.2f}, its {n} items coming from "
            f"{self.sources} sources, about {n / self.design_effect:.0f} independent items"
        )


def compare_with_published(row: RowFacts, published: RowFacts) -> PublishedComparison:
    """Where `row` stands against a comparable `published` row (see the module's docstring)."""
    value, figure_value = row.headline, published.headline
    if value is None or figure_value is None:
        raise ValueError(f"{row.id} or {published.id} has no headline to compare")
    counts, why = _counts(row, published)
    if counts is not None:
        k, n, k_published, n_published = counts
        clusters = clusters_of(row)
        effect = 1.0
        if clusters is not None and row.headline_items is not None:
            effect = design_effect(np.asarray(row.headline_items[1], dtype=np.float64), clusters)
        interval = unpaired_difference_interval(k, n, k_published, n_published, design_effect=effect)
        if interval is not None:
            sources = None if clusters is None else int(clusters.max()) + 1
            return PublishedComparison(
                row, published, _level(interval, 0.0), "unpaired", interval, counts, None, effect, sources
            )
    ci = row.headline_ci
    level: Level = "at" if ci is None else _level(ci, figure_value)
    return PublishedComparison(row, published, level, "row interval", ci, None, why)


def interval_words(row: RowFacts, best: RowFacts) -> str:
    """Where a row's interval puts it against the best comparable published row: the clause the hold on a headline
    above the published best says (verdicts.py, "above-published-best"). The hold fires on the point estimate (a
    record is held until a person looks); this says what the interval supports, never "a new state of the art"
    within an interval."""
    comparison = compare_with_published(row, best)
    return f"{comparison.phrase} by its interval ({comparison.words()})"


def _counts(row: RowFacts, published: RowFacts) -> tuple[tuple[int, int, int, int] | None, str]:
    """The row's and the paper's counts (k, n, k', n'), or None and why they are unknown."""
    display = get_benchmark(row.task).display
    if display.headline.unit != "percent":
        return None, f"its {display.headline.label} is no share of items"
    if published.key.seeds != 1 or published.n_runs != 1:
        stated = published.key.seeds is not None
        return None, "the paper's figure is a mean over seeds" if stated else "the paper does not say how many runs"
    if row.n_runs != 1:
        return None, f"this row is a mean over {row.n_runs} runs"
    if published.key.dataset != row.key.dataset or published.key.split != row.key.split:
        return None, "the paper ran other items"
    items = row.headline_items
    if items is None:
        return None, "this row's items are not on record"
    outcomes = np.asarray(items[1], dtype=np.float64)
    if outcomes.size == 0 or not np.all((outcomes == 0.0) | (outcomes == 1.0)):
        return None, "this row's items are not counts"
    n = int(outcomes.size)
    k = int(outcomes.sum())
    k_published = round((published.headline or 0.0) * n)
    if abs(k_published / n - (published.headline or 0.0)) > PRINTED_HALF_STEP + 1e-12:
        return None, f"the paper's figure is no count of the {n} {display.items_noun}"
    return (k, n, k_published, n), ""


def _level(interval: tuple[float, float], reference: float) -> Level:
    low, high = interval
    if low > reference:
        return "above"
    if high < reference:
        return "below"
    return "at"


def _holds_zero(level: Level) -> str:
    return {"at": "which holds 0", "above": "above 0", "below": "below 0"}[level]


def _shown(value: float | None, task: str) -> str:
    return figure(value, get_benchmark(task).display.headline.unit)


def _points(value: float) -> str:
    return f"{100 * value:+.2f}"
