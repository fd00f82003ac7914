"""What a reader should know of a row beyond its rank, computed from its per-item outcomes (Result.items, pairs).

**Negation ignored.** On a benchmark of minimal pairs, a pair of M_i has a cue that changes the gold label: a model
that reads the cue answers its two items differently. A row that answers both items of M_i pairs alike more often
than its own answers would by chance ignores the cue. The share expected by chance is that of two independent
answers drawn from the row's own answers to the pairs' first and second items (Σ_k f₁(k)·f₂(k), as Cohen's κ
takes it); the row is marked where the lower end of the 95 % Wilson interval of its share answered alike is above
that. A row that answers one label everywhere is alike on every pair by chance too (its expected share is 1): it is
not marked, and the floor unranks it. Pairs with an answer that did not parse are left out.

The mark is NegHub's statistic, and says so: the papers state no such test. What a paper says of models ignoring
negation is a hedge (JNLI-Neg, section 4.3, line 214: 可能性が示唆される, "may be"; JSTS-Neg, section 4.3, line
190, the same words) about the models it ran; the benchmark's display (`Display.ignored_negation`) quotes it whole,
as a hedge, after the mark's figures, and never as the paper's reading of this row.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..evaluator.core.results import Result
from ..evaluator.core.stats import wilson_interval
from .rule import Rule


@dataclass(frozen=True)
class IgnoredNegation:
    """M_i pairs answered alike, of the pairs whose two answers parsed, and the share expected by chance."""

    alike: int
    pairs: int
    expected: float

    @property
    def share(self) -> float:
        return self.alike / self.pairs if self.pairs else 0.0

    @property
    def shown(self) -> bool:
        """Whether the share answered alike is above chance by its 95 % interval."""
        interval = wilson_interval(self.alike, self.pairs)
        return interval is not None and interval[0] > self.expected

    def words(self, hedge: str) -> str:
        """The mark as a reader reads it: NegHub's figures first, then the paper's hedge (the display's words)."""
        return (
            f"ignores negation in {100 * self.share:.0f} % of pairs (NegHub's statistic, not the paper's): it answers "
            f"both items of {self.alike} of {self.pairs} M_i pairs (those whose gold changes) alike, where its own "
            f"answers would be alike on {100 * self.expected:.0f} % by chance; {hedge}"
        )


def ignored_negation(result: Result) -> IgnoredNegation | None:
    """The M_i pairs a result answered alike (None where the benchmark has no minimal pairs)."""
    pairs = result.pairs
    if pairs is None:
        return None
    answer = result.items.answer_of()
    first, second = [], []
    for control, treatment, important in zip(pairs.control, pairs.treatment, pairs.important, strict=True):
        a, b = answer.get(control), answer.get(treatment)
        if important and a is not None and b is not None:
            first.append(a)
            second.append(b)
    n = len(first)
    if n == 0:
        return IgnoredNegation(0, 0, 0.0)
    alike = sum(1 for a, b in zip(first, second, strict=True) if a == b)
    counts_a, counts_b = Counter(first), Counter(second)
    expected = sum(counts_a[k] * counts_b.get(k, 0) for k in counts_a) / (n * n)
    return IgnoredNegation(alike, n, expected)


IGNORES_NEGATION_RULE: Rule[object] = Rule(
    kind="ignores-negation",
    reads=("the answers to each M_i pair",),
    gives="mark",
    lifted_by=(),
    phrase="ignores negation: NegHub's statistic, not the paper's",
    sentence="It answers both items of M_i pairs (those whose gold changes) alike more often than its own answers "
    "would by chance (the lower end of the 95 % Wilson interval above that share): NegHub's statistic, not the "
    "paper's (marks.py); the table tags the row 'ignores negation'.",
    apply=lambda state: None,  # IgnoredNegation.shown, above, per row; verdicts._entry writes the mark
)
