"""What `verdicts.decide` works with while it applies the rules (each a `rule.Rule`): the rows' drafts, the
clearances per submission, and what "one pinned model" means.

Nothing here decides a verdict on its own: each rule's function (answer_rules.py, row_rules.py), declared beside
its `Rule`, holds, marks or ranks a row through `Decision`, at the rule's place in `verdicts.RULES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .board_file import HistoryEntry, HoldEntry, HoldKind, QueueEntry, Status, Trust
from .boards import Board
from .copies import Answered
from .facts import RowFacts
from .row_figures import landing_order
from .rule import Rule

# The one hold a clearance lifts on every board of its submission without naming them: a model's name is the
# submission's, the same on each of its boards. Every other hold is about what one row shows (its answers, its
# figure, its prompt: a submission may run several prompts), so a review of one board says nothing of another.
SUBMISSION_WIDE_HOLDS: frozenset[HoldKind] = frozenset({"name-of-another"})


@dataclass(frozen=True)
class Clearance:
    """A maintainer's reviewed lifting of a submission's holds (clearances.yaml), as it landed."""

    submission: str
    holds: tuple[HoldKind, ...]
    by: str  # the account that opened the pull request that landed it ("@login"), or the maintainers' push
    date: str
    why: str
    boards: tuple[str, ...] = ()  # the slugs of the boards reviewed; () : none named

    def lifts(self, row: RowFacts, kind: HoldKind) -> bool:
        """Whether it lifts this hold of this row: its submission, a hold it names, on a board it names (a hold of
        SUBMISSION_WIDE_HOLDS on any board where it names none)."""
        if row.submission_id != self.submission or kind not in self.holds:
            return False
        if self.boards:
            return row.key.slug in self.boards
        return kind in SUBMISSION_WIDE_HOLDS


@dataclass(frozen=True)
class Context:
    """What the rules read beside the rows."""

    history: HistoryEntry
    clearances: tuple[Clearance, ...] = ()
    accepted_prompts: frozenset[tuple[str, str]] = frozenset()


@dataclass
class Draft:
    """One row's verdict while `decide` works it out (never leaves this module: `decide` returns RowEntry values)."""

    facts: RowFacts
    status: Status = "unranked"
    holds: list[HoldEntry] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    rank: tuple[int, int] | None = None
    why: str | None = None
    unrankable: str | None = None  # the first ranking condition it fails, in words
    failed: list[str] = field(default_factory=list)  # every ranking condition it fails (rule kinds)
    floor: str | None = None
    also: list[str] = field(default_factory=list)
    credited: list[str] = field(default_factory=list)  # every account that submitted these answers, alphabetically
    duplicate_of: str | None = None
    marks: list[str] = field(default_factory=list)
    mark_kinds: list[str] = field(default_factory=list)
    pin: str | None = None
    listed: str | None = None  # NegHub has not run it: why, with its queue position (status listed)
    queue_position: int | None = None


class Decision:
    """The rows, their drafts and what every rule reads beside them; the clearances per submission."""

    def __init__(self, rows: Sequence[RowFacts], context: Context, rules: Mapping[str, Rule[Decision]]) -> None:
        self.rows = rows
        self.rules = rules
        self.context = context
        self.drafts = {row.id: Draft(row) for row in rows}
        self.papers = [r for r in rows if r.kind == "reported"]
        self.verified = sorted((r for r in rows if r.kind == "verified"), key=landing_order)
        self.references = [r for r in rows if r.kind == "reference"]
        self.queue: list[QueueEntry] = []
        self.cleared_by: dict[str, list[Clearance]] = {}
        for entry in context.clearances:
            self.cleared_by.setdefault(entry.submission, []).append(entry)

    def shown(self) -> list[RowFacts]:
        """The verified rows not folded into another (landing order)."""
        return [r for r in self.verified if self.drafts[r.id].status != "duplicate"]

    def releases(self) -> list[list[RowFacts]]:
        """The shown verified rows per data release (landing order within)."""
        found: dict[tuple[str, str, str | None], list[RowFacts]] = {}
        for row in self.shown():
            found.setdefault(row.key.release_key(), []).append(row)
        return list(found.values())

    def boards(self) -> list[list[RowFacts]]:
        """The shown verified rows per board (landing order within)."""
        found: dict[Board, list[RowFacts]] = {}
        for row in self.shown():
            found.setdefault(row.key, []).append(row)
        return list(found.values())

    def models(self) -> list[list[RowFacts]]:
        """The verified rows per board and pinned model, of two rows or more (landing order within)."""
        groups: list[list[RowFacts]] = []
        boards: dict[Board, list[list[RowFacts]]] = {}
        # a group can be one model with a row only where the two share a pin or a weights checksum (same_model):
        # each row is compared with the groups of its board that share one of its keys, in the order they began,
        # never with every group of its board (a board of a thousand pins made this quadratic)
        by_key: dict[tuple[Board, str, str], list[int]] = {}
        for row in self.verified:
            on_board = boards.setdefault(row.key, [])
            keys = _model_keys(row)
            candidates = sorted({n for k in keys for n in by_key.get((row.key, *k), [])})
            found = next((n for n in candidates if same_model(on_board[n][0], row)), None)
            if found is None:
                on_board.append([row])
                found = len(on_board) - 1
                for k in keys:
                    by_key.setdefault((row.key, *k), []).append(found)
            else:
                on_board[found].append(row)
        for on_board in boards.values():
            groups += [g for g in on_board if len(g) > 1]
        return groups

    def hold(self, row: RowFacts, kind: HoldKind, **fields: object) -> None:
        """Hold a row by a rule, unless a maintainer's clearance names this hold of this row (Clearance.lifts)."""
        draft = self.drafts[row.id]
        if any(h.kind == kind for h in draft.holds):
            return
        rule = self.rules[kind]
        reason = rule.say(**fields)
        entry = next((c for c in self.cleared_by.get(row.submission_id or "", []) if c.lifts(row, kind)), None)
        if entry is not None and "a maintainer's review" in rule.lifted_by:
            draft.cleared.append(f"{reason} — lifted by a maintainer's review ({entry.by}, {entry.date}): {entry.why}")
        else:
            draft.holds.append(HoldEntry(kind=kind, reason=reason))

    def mark(self, row: RowFacts, kind: str, **fields: object) -> None:
        draft = self.drafts[row.id]
        text = self.rules[kind].say(**fields)
        if text not in draft.marks:
            draft.marks.append(text)
        if kind not in draft.mark_kinds:
            draft.mark_kinds.append(kind)

    def unrankable(self, kind: str, check: Callable[[RowFacts], dict[str, object] | None]) -> None:
        """A ranking condition: the first one a shown row fails is why it is not ranked; every one it fails is
        recorded (`RowEntry.fails`: a page flags a row under the parsed share from it, computing nothing)."""
        for row in self.shown():
            draft = self.drafts[row.id]
            fields = check(row)
            if fields is None:
                continue
            draft.failed.append(kind)
            if draft.unrankable is None:
                draft.unrankable = self.rules[kind].say(**fields)


# --- trust and identity ------------------------------------------------------------------------------------


def trust_of(row: RowFacts) -> Trust:
    if row.kind == "reported":
        return "reported"
    if row.kind == "reference":
        return "rule"
    if row.maintainers_run:
        return "neghub-run"
    return "reproduced" if row.trusted else "re-scored"


def _model_keys(row: RowFacts) -> list[tuple[str, str]]:
    """What two rows of one model share (same_model): their pin, or the weights their accepted re-runs loaded."""
    keys = [] if row.identity is None else [("pin", row.identity)]
    if row.record is not None and row.record.accepted and row.record.weights_sha256:
        keys.append(("weights", row.record.weights_sha256))
    return keys


def same_model(first: RowFacts, second: RowFacts) -> bool:
    """One model: the same pin, unless NegHub's re-runs recorded other weights for the two; or other pins whose
    re-runs loaded the same weights (one `weights_sha256`)."""
    weights = [r.record.weights_sha256 for r in (first, second) if r.record is not None and r.record.accepted]
    known = len(weights) == 2 and bool(weights[0]) and bool(weights[1])
    if known and weights[0] == weights[1]:
        return True
    if first.identity is None or second.identity is None or first.identity != second.identity:
        return False
    return not (known and weights[0] != weights[1])


def pin_words(row: RowFacts) -> str | None:
    """The pinned model as a model cell shows it: a Hub repo's `namespace/name`, else the identity in words."""
    if row.identity_words is None:
        return None
    return row.identity_words.split(" at revision ")[0]


def same_answers(first: RowFacts, second: RowFacts) -> bool:
    from .answers import same_answers

    return same_answers(dict(first.answers), dict(second.answers))


def shared_difference(row: RowFacts, other: RowFacts) -> tuple[int, int]:
    """(items answered otherwise, items shared) of two rows, over every seed both ran: rows on different samples
    (a cloze test's `--max-pairs`) are compared on the items they share alone."""
    differ = shared = 0
    for seed, mine in row.answers.items():
        theirs = other.answers.get(seed)
        if theirs is None:
            continue
        a, b = aligned_ids(mine.ids, theirs.ids)
        shared += len(a)
        differ += int((mine.codes[a] != theirs.codes[b]).sum())
    return differ, shared


def aligned_ids(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    from .copies import aligned

    empty = np.zeros(0, dtype=np.int32)
    return aligned(Answered(first, empty, None), Answered(second, empty, None))
