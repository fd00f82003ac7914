"""What the rules, the board order and the leader read of a row's figures: its headline in the benchmark's
direction, how a page prints it, the order rows landed in, a paired comparison of two rows, the best comparable
published result and the baseline a ranked row must beat. No verdict is decided here (verdicts.py decides)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.stats import cluster_index
from .boards import Board
from .facts import RowFacts
from .ranking import Candidate, paired_difference_ci, rank_ranges, significantly_better

UNRECORDED_POSITION = 10**9  # a row with no landing on record comes after every one that has one


def headline(row: RowFacts) -> float | None:
    """The figure the row's benchmark ranks by (its display block's headline)."""
    return row.headline


def on_evaluation_split(row: RowFacts) -> bool:
    """Whether a row's runs are on its benchmark's evaluation split (or of a benchmark or run without splits): the
    runs a ranked row rests on, and those `neghub reproduce` re-runs (runners/reproduce.runs_to_rerun chooses the
    same; tests/test_queue_counts_what_the_rerun_runs.py holds the two equal)."""
    evaluation = get_benchmark(row.task).default_split
    return row.key.split is None or evaluation is None or row.key.split == evaluation


def sign_of(task: str) -> float:
    return 1.0 if get_benchmark(task).display.headline.higher_is_better else -1.0


def scale_of(task: str) -> tuple[float, str]:
    unit = get_benchmark(task).display.headline.unit
    return (100.0, "points") if unit in ("percent", "points") else (1.0, "")


def shown(value: float | None, task: str) -> str:
    """A headline as the pages print it (evaluator/core/numbers.py: one format per unit)."""
    from ..evaluator.core.numbers import figure

    return figure(value, get_benchmark(task).display.headline.unit)


def landing_order(row: RowFacts) -> tuple[int, str]:
    """The order rows landed in: main's first-parent position, then the submission id (never a date or a name)."""
    return (UNRECORDED_POSITION if row.landing is None else row.landing, row.submission_id or row.id)


def account_key(row: RowFacts) -> str:
    return row.account.key if row.account is not None else f"unrecorded:{row.submission_id}"


def account_words(row: RowFacts) -> str:
    return row.account.words if row.account is not None else "an account not on record"


def who(row: RowFacts) -> str:
    """A row named for a reader: its submission, its model and who submitted it."""
    return f"{row.submission_id} ({row.model}, {account_words(row)})"


def ignored_words(row: RowFacts) -> list[str]:
    """The negation-ignored mark of a row (marks.py), where its benchmark's display names the reading."""
    source = get_benchmark(row.task).display.ignored_negation
    if source is None or row.ignored is None or not row.ignored.shown:
        return []
    return [row.ignored.words(source)]


def verdict_groups(rows: Sequence[RowFacts]) -> list[list[RowFacts]]:
    """Rows in the order of their benchmark's verdicts, best first (one group where the display orders none): a
    row of a better verdict ranks above every row of a worse one, whatever its statistic."""
    if not rows:
        return []
    order = get_benchmark(rows[0].task).display.verdict_order
    if not order:
        return [list(rows)]
    return [
        [r for r in rows if r.verdict_value == verdict]
        for verdict in order
        if any(r.verdict_value == verdict for r in rows)
    ]


def merit(row: RowFacts) -> tuple[int, float]:
    """How good a row is, for "a new best": its verdict's place (where the display orders by verdict), then its
    headline in the benchmark's direction."""
    order = get_benchmark(row.task).display.verdict_order
    place = -order.index(row.verdict_value) if order and row.verdict_value in order else (-len(order) if order else 0)
    value = headline(row)
    return (place, -math.inf if value is None else sign_of(row.task) * value)


def comparison(row: RowFacts, other: RowFacts) -> str:
    """The difference of two rows' headlines in words, with its paired 95 % interval where they share items."""
    a, b = headline(row), headline(other)
    if a is None or b is None:
        return "no headline to compare"
    scale, words = scale_of(row.task)
    diff = f"{scale * (a - b):+.2f} {words}".strip()
    ci = difference_ci(row, other)
    if ci is None:
        return f"difference {diff}; not paired (other items)"
    if ci == (0.0, 0.0):
        return f"difference {diff}; no item answered differently"
    how = (
        "items resampled alone: their sources are not on record"
        if clusters_of(row, other) is None
        else "whole sources resampled"
    )
    return f"difference {diff}, paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}] ({how})"


def difference_ci(row: RowFacts, other: RowFacts) -> tuple[float, float] | None:
    """The paired bootstrap interval of mean(row − other) over their shared units, drawing whole sources where the
    units' sources are on record (a paired cluster bootstrap: ranking.py), or None."""
    if row.headline_items is None or other.headline_items is None:
        return None
    if row.headline_items[0] != other.headline_items[0]:
        return None
    return paired_difference_ci(row.headline_items[1], other.headline_items[1], clusters_of(row, other))


def clusters_of(*rows: RowFacts) -> NDArray[np.intp] | None:
    """The units' sources as 0 .. G − 1, from the first of `rows` that records them (rows over the same units share
    their sources), or None: units resampled alone, as where the benchmark's records carry no source."""
    found = next((r.headline_clusters for r in rows if r.headline_clusters is not None), None)
    return None if found is None else _cluster_index(found)


_CLUSTER_INDEX: dict[int, tuple[tuple[str, ...], NDArray[np.intp]]] = {}


def _cluster_index(clusters: tuple[str, ...]) -> NDArray[np.intp]:
    """stats.cluster_index, once per interned tuple of a build (every row of a board shares one)."""
    cached = _CLUSTER_INDEX.get(id(clusters))
    if cached is None or cached[0] is not clusters:
        if len(_CLUSTER_INDEX) >= 64:
            _CLUSTER_INDEX.pop(next(iter(_CLUSTER_INDEX)))
        cached = _CLUSTER_INDEX[id(clusters)] = (clusters, cluster_index(clusters))
    return cached[1]


def comparable(paper: Board, board: Board) -> bool:
    """Whether a paper's row answers what `board` asks: the same data release and split, the same shots and the same
    fine-tuning (mode, prompt and chat template may differ)."""
    return (
        paper.task == board.task
        and paper.dataset == board.dataset
        and paper.split == board.split
        and paper.shots == board.shots
        and paper.fine_tuned == board.fine_tuned
        and paper.fine_tuned_on == board.fine_tuned_on
        and paper.test == board.test
    )


def comparable_published(board: Board, papers: Iterable[RowFacts]) -> list[RowFacts]:
    """The papers' rows comparable with `board` that print its headline, best first."""
    rows = [p for p in papers if p.kind == "reported" and comparable(p.key, board) and headline(p) is not None]
    sign = sign_of(board.task)
    return sorted(rows, key=lambda p: -sign * (headline(p) or 0.0))


def comparable_best(row: RowFacts, papers: Iterable[RowFacts]) -> RowFacts | None:
    """The paper row with the best headline on the same data release and split, with the same shots and the same
    fine-tuning as `row` (mode and prompt may differ), or None."""
    found = comparable_published(row.key, papers)
    return found[0] if found else None


def is_primary(board: Board) -> bool:
    """Whether `board` is the primary board its benchmark's display block declares."""
    benchmark = get_benchmark(board.task)
    primary = benchmark.display.primary_board
    if primary is None:
        return False
    metadata = benchmark.metadata
    return (
        board.dataset.startswith(f"{metadata.name} {metadata.version} ")
        and board.split == primary.split
        and board.mode == primary.mode
        and board.shots == primary.shots
        and board.prompt == primary.prompt
        and board.chat_template == primary.chat_template
        and board.fine_tuned == (primary.fine_tuned_on is not None)
        and board.fine_tuned_on == primary.fine_tuned_on
        and board.test == primary.test
        and board.seeds == primary.seeds
    )


def primary_protocol(task: str) -> str | None:
    """The primary board's protocol in words (None: the benchmark declares none)."""
    primary = get_benchmark(task).display.primary_board
    return None if primary is None else primary.words


def candidate(index: int, row: RowFacts, sign: float) -> Candidate:
    value = headline(row)
    ci = row.headline_ci
    if ci is None and row.kind == "reference" and value is not None:
        ci = (value, value)  # a rule's figure is exact: it has no sampling interval
    items = None if row.headline_items is None else sign * row.headline_items[1]
    return Candidate(
        key=index,
        value=None if value is None else sign * value,
        ci=None if ci is None else ((sign * ci[0], sign * ci[1]) if sign > 0 else (-ci[1], -ci[0])),
        items=items,
        item_keys=None if row.headline_items is None else row.headline_items[0],
        clusters=None if row.headline_items is None else clusters_of(row),
    )


def floor_of(references: Sequence[RowFacts]) -> RowFacts | None:
    """The best baseline NegHub computed (by its headline): the board's floor."""
    scored = [r for r in references if headline(r) is not None]
    if not scored:
        return None
    sign = sign_of(scored[0].task)
    return max(scored, key=lambda r: sign * (headline(r) or 0.0))


def beats(row: RowFacts, floor: RowFacts, sign: float) -> bool:
    """Whether a row beats another: by a better verdict where the benchmark orders by verdict (a baseline that
    fails is beaten by a row that passes, whatever the statistic), else under the paired test."""
    order = get_benchmark(row.task).display.verdict_order
    if order and row.verdict_value in order and floor.verdict_value in order:
        mine, theirs = order.index(row.verdict_value), order.index(floor.verdict_value)
        if mine != theirs:
            return mine < theirs
    better = significantly_better([candidate(0, row, sign), candidate(1, floor, sign)])
    return bool(better[0, 1])


def ranges_of(rows: Sequence[RowFacts]) -> list[tuple[int, int]]:
    """The rank ranges of rows of one verdict (ranking.py)."""
    if not rows:
        return []
    sign = sign_of(rows[0].task)
    found = rank_ranges([candidate(i, r, sign) for i, r in enumerate(rows)])
    return [found[i] for i in range(len(rows))]
