"""Every verdict the site prints, from one set of rules: which rows are ranked, held or references, their rank
ranges, and each benchmark's leader. The home page, the benchmark pages, the profile, the model pages, the
pull-request summary and the downloads all read what this module decides; nothing else decides it.

A verdict is a claim, so each is printed with its evidence (a reason, a margin and its interval, a board).
The rules, with their thresholds (RULES lists them in words for the site; RULES_CHANGELOG dates each change):

- **Reference rows.** Rule baselines read no prompt: they are shown on every board of their data release and split
  as reference rows, never ranked. The best of them on a board is its **floor**.
- **Paper rows** are never ranked: NegHub has no per-item scores for them, and they ran on other data or training.
- **Confirmation.** A row whose model has the same identity (evaluator.submissions.identity) as an earlier row of
  the board, with the same answer on every item, from another submitter, is that row's confirmation: one row,
  "confirmed by …", no added trust. From the same submitter it is a re-submission, merged the same way.
- **Held** (shown with the reason, never ranked, never "ranked first"): the same pinned model with other answers
  than an earlier row of the board; another model whose answers agree with an earlier row of another submitter on
  NEAR_COPY_SHARE of the items or more; a headline above the best result any paper reports on the same metric
  (a new state of the art needs a reproduction); a custom prompt until a maintainer accepts it; a model name that
  reads as another submitter's. A reproduction (from the gpu-reproduce workflow, in the run's own numeric
  setting) clears every hold but the custom prompt's; a maintainer's reviewed entry in clearances.yaml (under
  CODEOWNERS) clears those it names, with who, when and why.
- **Ranked**: a NegHub row that is not held, whose answers parse at PARSED_SHARE_MIN or more, whose headline
  interval is informative, and whose headline beats the floor under the paired test (ranking.py). Others are
  shown unranked with the reason.
- **Leader**: on the benchmark's board with the most ranked rows, the row whose rank range is 1–1 when the board
  has two ranked rows or more, with its margin over the runner-up and that difference's paired interval.
  Otherwise the page says what is true. A tie is never broken by a name or a board's order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from .answers import same_answers
from .ranking import Candidate, paired_difference_ci, rank_ranges, significantly_better

if TYPE_CHECKING:
    from .boards import Board
    from .collect import Row

# --- the thresholds, each with why (the site's "How to read" states them from here) -----------------------------

PARSED_SHARE_MIN = 0.5
PARSED_SHARE_WHY = (
    "below half, most of the score is the parser's, not the model's: an unparsed answer is scored wrong, so a row "
    "that parses few answers measures its output format"
)
NEAR_COPY_SHARE = 0.98
NEAR_COPY_WHY = (
    "a copy of another submission with a handful of answers changed (5 of 1,363 is 99.6 %) agrees above it; two "
    "independently made models that agree on 98 % of the items are rare enough that a maintainer should look, and a "
    "hold costs an honest submitter one reproduction or review, while a missed copy takes a rank"
)
RULES_VERSION = "2"
RULES_CHANGELOG: tuple[tuple[str, str, str], ...] = (
    (
        "1",
        "2026-11-22",
        "Ranks as ranges from paired bootstrap tests; rows unranked for few items, wide intervals, byte-identical "
        "copies, confusable names and a second row of one model; the leader the smallest rank range of any board.",
    ),
    (
        "2",
        "2026-11-25",
        "Rule baselines are reference rows on every board of their data and the floor a ranked row must beat "
        "(paired test); rows whose answers parse below 50 % are not ranked; paper rows never are; a model is its "
        "pinned identity (confirmations; the same model with other answers held); near-copies (98 % agreement), "
        "results above the best published one and custom prompts are held until reproduced or cleared; the leader "
        "is taken on the board with the most ranked rows and only when it alone ranks first, printed with its "
        "margin and that margin's paired interval; SCN's verdict is the paper's (passes, partially passes, "
        "fails); proportions get Wilson intervals; boards separate fine-tuning data, SCN's tests and seed means.",
    ),
)

HoldKind = Literal["other-answers-same-model", "near-copy", "above-published-best", "custom-prompt", "name-of-another"]
# what a reproduction clears: everything about the answers; not a prompt nobody has reviewed
CLEARED_BY_REPRODUCTION: frozenset[HoldKind] = frozenset(
    {"other-answers-same-model", "near-copy", "above-published-best", "name-of-another"}
)


@dataclass(frozen=True)
class Hold:
    kind: HoldKind
    reason: str


@dataclass(frozen=True)
class Clearance:
    """A maintainer's reviewed lifting of a submission's holds (clearances.yaml), or an accepted prompt."""

    submission: str
    holds: tuple[HoldKind, ...]
    by: str
    date: str
    why: str


@dataclass
class Leader:
    """What a benchmark's home card and page say about who leads, with the evidence."""

    task: str
    board: Board | None
    text: str
    leader: Row | None = None
    runner_up: Row | None = None
    margin: float | None = None
    margin_ci: tuple[float, float] | None = None
    context: str | None = None  # the best paper-reported row on the same metric, with its table
    short: str = ""  # the verdict in a few words, where a page has one line for it

    def __post_init__(self) -> None:
        if not self.short:
            self.short = self.text


# --- the rules ---------------------------------------------------------------------------------------------------


def headline(row: Row) -> float | None:
    """The figure the row's benchmark ranks by (its display block's headline)."""
    return row.metrics.get(get_benchmark(row.task).display.headline.path)


def published_best(rows: Iterable[Row]) -> dict[str, Row]:
    """Per task, the paper row with the best headline (on any board: the metric is the same)."""
    best: dict[str, Row] = {}
    for row in rows:
        value = headline(row)
        if row.kind != "reported" or value is None:
            continue
        sign = 1.0 if get_benchmark(row.task).display.headline.higher_is_better else -1.0
        current = best.get(row.task)
        if current is None or sign * value > sign * (headline(current) or 0.0):
            best[row.task] = row
    return best


class AnswerCodes:
    """The answers of a board's rows as integer codes over the board's items (-1: the row has no such item), one
    row at a time in landing order, so that a row is compared with every earlier row in one numpy operation.
    A row's answers are those of its first run (its lowest seed)."""

    def __init__(self) -> None:
        self.columns: dict[str, int] = {}
        self.placed: dict[int, NDArray[np.int64]] = {}  # a tuple of ids (by identity) -> its columns
        self.matrix = np.full((8, 0), -1, dtype=np.int32)
        self.rows: list[Row] = []

    def encode(self, row: Row) -> NDArray[np.int32]:
        answers = next(iter(row.answers.values()), None)
        if answers is None:
            return np.full(len(self.columns), -1, dtype=np.int32)
        index = self.placed.get(id(answers.ids))
        if index is None:
            for key in answers.ids:
                self.columns.setdefault(key, len(self.columns))
            index = np.fromiter((self.columns[k] for k in answers.ids), dtype=np.int64, count=len(answers.ids))
            self.placed[id(answers.ids)] = index  # the ids tuple is shared and lives as long as the rows do
        codes = np.full(len(self.columns), -1, dtype=np.int32)
        codes[index] = answers.codes
        return codes

    def agreement(self, codes: NDArray[np.int32]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(items answered alike, items both answered) against every row added so far, in order."""
        earlier = self.matrix[: len(self.rows), : codes.size]
        both = (earlier >= 0) & (codes >= 0)
        same = ((earlier == codes) & both).sum(axis=1)
        return same, both.sum(axis=1)

    def add(self, row: Row, codes: NDArray[np.int32]) -> None:
        rows, cols = self.matrix.shape
        if len(self.rows) == rows or codes.size > cols:
            grown = np.full((max(rows, 2 * len(self.rows) + 1), max(cols, codes.size)), -1, dtype=np.int32)
            grown[:rows, :cols] = self.matrix
            self.matrix = grown
        self.matrix[len(self.rows), : codes.size] = codes
        self.rows.append(row)


def apply_rules(
    tables: dict[Board, list[Row]],
    *,
    published: dict[str, Row],
    clearances: Sequence[Clearance],
    accepted_prompts: set[tuple[str, str]],
    landed: dict[str, str],
) -> dict[Board, list[Row]]:
    """Decide every row's status on every board; returns the tables without the rows merged as confirmations."""
    cleared_by_entry: dict[str, list[Clearance]] = {}
    for entry in clearances:
        cleared_by_entry.setdefault(entry.submission, []).append(entry)
    out: dict[Board, list[Row]] = {}
    for board, rows in tables.items():
        models = sorted(
            (r for r in rows if r.kind == "verified"),
            key=lambda r: (landed.get(r.submission_id or "", "9999"), r.submission_id or ""),
        )
        kept = AnswerCodes()
        for row in models:
            codes = kept.encode(row)
            _identity_rules(row, kept, codes)
            if row.status != "confirmation":
                kept.add(row, codes)
        kept_rows = kept.rows
        for row in kept_rows:
            _hold_rules(row, board, published, accepted_prompts)
            _clear(row, cleared_by_entry.get(row.submission_id or "", []))
        _rank_board(board, kept_rows, [r for r in rows if r.kind == "reference"])
        out[board] = [r for r in rows if r.status != "confirmation"]
    return out


def _identity_rules(row: Row, earlier: AnswerCodes, codes: NDArray[np.int32]) -> None:
    """Confirmation, the same model with other answers, near-copies: against the board's earlier rows."""
    if not earlier.rows:
        return
    same_items, both = earlier.agreement(codes)
    for index, first in enumerate(earlier.rows):
        if row.identity is None or row.identity != first.identity:
            continue
        if same_answers(row.answers, first.answers):  # every run, seed by seed, item by item
            row.status = "confirmation"
            row.confirms = first
            who = "re-submitted by the same submitter" if row.submitter == first.submitter else row.submitter
            first.confirmed_by.append(f"{who} ({row.submission_id})")
            return
        same, total = int(same_items[index]), int(both[index])
        differ = f"{total - same} of {total} items differ{_setting_difference(row, first)}"
        why = f"this pinned model ({row.identity_words}) gave other answers under this protocol than "
        row.holds.append(Hold("other-answers-same-model", f"{why}{first.submission_id}'s row: {differ}"))
        return
    share = np.divide(same_items, both, out=np.zeros(both.size), where=both > 0)
    for index in np.flatnonzero(share >= NEAR_COPY_SHARE).tolist():
        first = earlier.rows[index]
        if first.submitter == row.submitter:
            continue
        same, total = int(same_items[index]), int(both[index])
        row.holds.append(
            Hold(
                "near-copy",
                f"its answers agree with {first.submission_id}'s ({first.model}, {first.submitter}) on "
                f"{same} of {total} items ({100 * same / total:.1f} %; a near-copy from "
                f"{100 * NEAR_COPY_SHARE:.0f} %) while its model is another",
            )
        )
        return


def _setting_difference(row: Row, first: Row) -> str:
    """The numeric settings the two rows' runs record, where they differ (dtype, device)."""
    mine, theirs = row.numeric_setting, first.numeric_setting
    if mine and theirs and mine != theirs:
        return f" (this row ran in {mine}, that one in {theirs})"
    return ""


def _hold_rules(row: Row, board: Board, published: dict[str, Row], accepted_prompts: set[tuple[str, str]]) -> None:
    benchmark = get_benchmark(row.task)
    best = published.get(row.task)
    value, best_value = headline(row), None if best is None else headline(best)
    if value is not None and best is not None and best_value is not None:
        sign = 1.0 if benchmark.display.headline.higher_is_better else -1.0
        if sign * value > sign * best_value:
            unit = benchmark.display.headline.unit
            scale = 100.0 if unit in ("percent", "points") else 1.0
            row.holds.append(
                Hold(
                    "above-published-best",
                    f"{benchmark.display.headline.label} {scale * value:.2f} is above the best published result "
                    f"({scale * best_value:.2f}, {best.model}, {best.source}): a new state of the art needs a "
                    "reproduction",
                )
            )
    if board.is_custom_prompt and (row.task, board.prompt) not in accepted_prompts:
        row.holds.append(
            Hold(
                "custom-prompt",
                f"its prompt ({board.prompt.removeprefix('custom: ')}) is not one of the benchmark's; held until a "
                "maintainer accepts it",
            )
        )
    if row.name_owner is not None:
        row.holds.append(Hold("name-of-another", f"its model name reads as {row.name_owner}"))


def _clear(row: Row, entries: list[Clearance]) -> None:
    remaining = []
    for hold in row.holds:
        entry = next((e for e in entries if hold.kind in e.holds), None)
        if row.trust == "reproduced" and hold.kind in CLEARED_BY_REPRODUCTION:
            row.cleared.append(f"{hold.reason} — cleared: NegHub reproduced it ({row.reproduction})")
        elif entry is not None:
            row.cleared.append(f"{hold.reason} — cleared by {entry.by} on {entry.date}: {entry.why}")
        else:
            remaining.append(hold)
    row.holds = remaining


def _eligibility(row: Row) -> str | None:
    """Why a row that is not held cannot be ranked, or None."""
    benchmark = get_benchmark(row.task)
    display = benchmark.display
    if row.unranked is not None:
        return row.unranked  # decided while the row was built (repeated seeds)
    if headline(row) is None:
        return "no headline figure"
    parsed = row.parsed_share
    if parsed is not None and parsed < PARSED_SHARE_MIN:
        return f"only {100 * parsed:.0f} % of its answers parsed (ranked from {100 * PARSED_SHARE_MIN:.0f} %)"
    if row.headline_items is None and row.trust != "reproduced":
        return "ranked only once NegHub has reproduced it (its items depend on the model)"
    if display.items_path is not None:
        count = row.metrics.get(display.items_path)
        if count is None or count < display.min_items:
            shown = "no" if count is None else f"{count:.0f}"
            return f"scored on {shown} {display.items_noun} (ranked from {display.min_items})"
    ci = row.headline_ci
    if ci is None:
        return "no interval for its headline"
    if ci[1] - ci[0] <= 0:
        return "its headline's interval has zero width: it says nothing about the uncertainty"
    if (ci[1] - ci[0]) / 2 > display.max_ci_half_width:
        half = 100 * (ci[1] - ci[0]) / 2
        return (
            f"interval too wide to rank: ±{half:.1f} points (ranked at ±{100 * display.max_ci_half_width:.0f} or less)"
        )
    return None


def _candidate(index: int, row: Row, sign: float) -> Candidate:
    value = headline(row)
    ci = row.headline_ci
    items = None if row.headline_items is None else sign * row.headline_items[1]
    return Candidate(
        key=index,
        value=None if value is None else sign * value,
        ci=None if ci is None else ((sign * ci[0], sign * ci[1]) if sign > 0 else (-ci[1], -ci[0])),
        items=items,
        item_keys=None if row.headline_items is None else row.headline_items[0],
    )


def floor_of(references: Sequence[Row]) -> Row | None:
    """The best rule baseline of a board (by its headline)."""
    scored = [r for r in references if headline(r) is not None]
    if not scored:
        return None
    sign = 1.0 if get_benchmark(scored[0].task).display.headline.higher_is_better else -1.0
    return max(scored, key=lambda r: sign * (headline(r) or 0.0))


def _rank_board(board: Board, rows: list[Row], references: list[Row]) -> None:
    benchmark = get_benchmark(board.task)
    sign = 1.0 if benchmark.display.headline.higher_is_better else -1.0
    for reference in references:
        reference.status = "reference"
    floor = floor_of(references)
    eligible = []
    for row in rows:
        if row.holds:
            row.status = "held"
            row.unranked = "held: " + "; ".join(h.reason for h in row.holds)
            continue
        why = _eligibility(row)
        if why is not None:
            row.status, row.unranked = "unranked", why
            continue
        eligible.append(row)
    if floor is not None and eligible:
        candidates = [_candidate(i, r, sign) for i, r in enumerate([*eligible, floor])]
        better = significantly_better(candidates)
        floor_index = len(eligible)
        value_of_floor = headline(floor)
        kept = []
        for index, row in enumerate(eligible):
            if better[index, floor_index]:
                row.floor_comparison = _comparison(row, floor, sign)
                kept.append(row)
            else:
                row.status = "unranked"
                row.unranked = (
                    f"does not beat the floor under the paired test: {floor.model} at "
                    f"{_shown(value_of_floor, benchmark.display.headline.unit)} ({_comparison(row, floor, sign)})"
                )
        eligible = kept
    elif eligible:
        for row in eligible:
            row.floor_comparison = "no rule baseline on this data: no floor to beat"
    ranges = rank_ranges([_candidate(i, r, sign) for i, r in enumerate(eligible)])
    for index, row in enumerate(eligible):
        row.status = "ranked"
        row.unranked = None
        row.rank_range = ranges[index]
        row.rank = ranges[index][0]
    for row in rows:
        if row.status != "ranked":
            row.rank, row.rank_range = None, None


def _shown(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    return f"{100 * value:.2f}" if unit in ("percent", "points") else f"{value:.3f}"


def _comparison(row: Row, other: Row, sign: float) -> str:
    """The difference of two rows' headlines in words, with its paired 95 % interval where they share items."""
    unit = get_benchmark(row.task).display.headline.unit
    a, b = headline(row), headline(other)
    if a is None or b is None:
        return "no headline to compare"
    scale = 100.0 if unit in ("percent", "points") else 1.0
    words = "points" if unit in ("percent", "points") else ""
    diff = f"{scale * (a - b):+.2f} {words}".strip()
    ci = difference_ci(row, other)
    if ci is None:
        return f"difference {diff}; no shared items for a paired interval"
    if ci == (0.0, 0.0):
        return f"difference {diff}; no item answered differently"
    return f"difference {diff}, paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"


def difference_ci(row: Row, other: Row) -> tuple[float, float] | None:
    """The paired bootstrap interval of mean(row − other) over their shared units, or None."""
    if row.headline_items is None or other.headline_items is None:
        return None
    if row.headline_items[0] != other.headline_items[0]:
        return None
    return paired_difference_ci(row.headline_items[1], other.headline_items[1])


# --- the leader --------------------------------------------------------------------------------------------------


def leader(task: str, tables: dict[Board, list[Row]], published: dict[str, Row]) -> Leader:
    """The benchmark's leader, or what is true instead (see the module docstring)."""
    display = get_benchmark(task).display
    boards = {b: rows for b, rows in tables.items() if b.task == task}
    ranked = {b: [r for r in rows if r.status == "ranked"] for b, rows in boards.items()}
    best = published.get(task)
    context = None
    if best is not None:
        context = (
            f"best published: {best.model}, {display.headline.label} {_shown(headline(best), display.headline.unit)} "
            f"({best.source}, {best.key.dataset_label}; reported, not re-scored)"
        )
    most = max((len(rows) for rows in ranked.values()), default=0)
    if most == 0:
        waiting = [r for rows in boards.values() for r in rows if r.kind == "verified" and r.status != "ranked"]
        awaiting = sum(1 for r in waiting if (r.unranked or "").startswith("ranked only once NegHub has reproduced"))
        held = sum(1 for r in waiting if r.status == "held")
        parts = ["no ranked row yet"]
        if awaiting:
            parts.append(
                f"{awaiting} row{'s' if awaiting != 1 else ''} await{'s' if awaiting == 1 else ''} reproduction"
            )
        if held:
            parts.append(f"{held} row{'s' if held != 1 else ''} held")
        return Leader(task, None, "; ".join(parts), context=context)
    top_boards = [b for b, rows in ranked.items() if len(rows) == most]
    if len(top_boards) > 1:
        names = "; ".join(b.title for b in top_boards)
        return Leader(
            task,
            None,
            f"no leader: {len(top_boards)} boards tie with {most} ranked row{'s' if most != 1 else ''} each ({names})",
            context=context,
            short=f"no leader: {len(top_boards)} boards tie",
        )
    board = top_boards[0]
    rows = ranked[board]
    if len(rows) < 2:
        return Leader(
            task,
            board,
            f"one ranked row ({rows[0].model}) on {board.title}: a leader needs two ranked rows to be compared",
            context=context,
            short=f"none yet: one ranked row ({rows[0].model})",
        )
    first = [r for r in rows if r.rank_range == (1, 1)]
    if not first:
        tied = sorted((r for r in rows if r.rank_range is not None and r.rank_range[0] == 1), key=lambda r: r.model)
        names = ", ".join(r.model for r in tied)
        return Leader(
            task, board, f"tied: {names} (rank 1 shared on {board.title})", context=context, short=f"tied: {names}"
        )
    top = first[0]
    sign = 1.0 if display.headline.higher_is_better else -1.0
    others = sorted((r for r in rows if r is not top), key=lambda r: -sign * (headline(r) or -math.inf))
    runner_up = others[0]
    margin = (headline(top) or 0.0) - (headline(runner_up) or 0.0)
    ci = difference_ci(top, runner_up)
    unit = display.headline.unit
    scale = 100.0 if unit in ("percent", "points") else 1.0
    interval = "" if ci is None else f", paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
    text = (
        f"{top.model}: {display.headline.label} {_shown(headline(top), unit)}, {scale * margin:+.2f} points over "
        f"{runner_up.model}{interval} ({board.title})"
    )
    short = f"{top.model}, {scale * margin:+.2f} points over {runner_up.model}"
    return Leader(task, board, text, top, runner_up, margin, ci, context=context, short=short)


def rules_in_words(task: str) -> list[str]:
    """The ranking rules as a benchmark's page states them, with this benchmark's numbers."""
    display = get_benchmark(task).display
    unit = "points" if display.headline.unit in ("percent", "points") else display.headline.unit
    scale = 100 if display.headline.unit in ("percent", "points") else 1
    rules = [
        "it is a NegHub row (re-scored or reproduced): paper rows are never ranked",
        f"at least {100 * PARSED_SHARE_MIN:.0f} % of its answers parse ({PARSED_SHARE_WHY})",
        f"its headline's 95 % interval is ±{scale * display.max_ci_half_width:g} {unit} wide or less, and not of "
        "zero width",
        "its headline beats the board's floor (the best rule baseline on the same data) under the paired test",
        "it is not held: the same pinned model with other answers, a near-copy of another submitter's row "
        f"({100 * NEAR_COPY_SHARE:.0f} % of the items answered alike: {NEAR_COPY_WHY}), a result above the best "
        "published one, a custom prompt, or a name that reads as another submitter's, until a reproduction or a "
        "maintainer's reviewed clearance lifts the hold",
    ]
    if display.items_path is not None and display.min_items:
        rules.append(f"it rests on {display.min_items} {display.items_noun} or more")
    return rules
