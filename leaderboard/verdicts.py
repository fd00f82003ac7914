"""Every verdict the leaderboard prints, decided by one function from facts: `decide`.

`decide` takes every row's facts (collect.py: results NegHub re-scored, rule rows NegHub computed, identities,
landing positions and accounts GitHub recorded, accepted reproduction records, clearances) and returns the
leaderboard file (board_file.py): each row's status, holds, rank range, duplicates and trust as new values, the
boards in table order and each benchmark's leader. The site's pages, the downloads and the pull-request summary
read that file. A verdict is a claim: each is printed with its evidence, and each rests only on what NegHub
computed or GitHub recorded (the facts it trusts are listed in RULES and on the Ranking rules page).

The rules, per data release (a benchmark's release and split: every board scored on the same items):

- **Rule rows** (references): NegHub computes them on every board of its data from the data and the rule (each
  constant answer; random guessing as each unit's expected score), or on a row's own items where a model picks its
  items (a cloze test). They are never ranked; the best of them is the board's **floor**.
- **Paper rows** are never ranked: NegHub has no per-item scores for them.
- **One model, one row.** Rows of one pinned model (evaluator.submissions.identity) on one board with the same
  answer on every item are one row, shown once ("also submitted by @account"); no trust is added. With other
  answers in one numeric setting, a row NegHub ran or reproduced stands and the others are held; if none is, all
  are held until NegHub reproduces the model. In other numeric settings they are shown with their difference.
- **Copies** (copies.py): a row whose error consistency with an earlier row of another account, on the items both
  answered anywhere on the release, is COPY_KAPPA or more is held; rows of another account that landed in the same
  commit are both held when they copy each other. A row NegHub ran or reproduced is never held as a copy.
- **Held** besides (shown with the reason, never ranked, never the leader): a headline above the best comparable
  published result (the same data release, split, shots and fine-tuning); a result above every row NegHub ran or
  reproduced on its board (a new best needs a reproduction); a reproduction that disagrees; a custom prompt until a
  maintainer accepts it; a name that reads as another account's row of another model. NegHub's reproduction
  lifts every hold but the custom prompt's and the name's; a maintainer's clearance (clearances.yaml, landed by a
  pull request of a maintainer) lifts those it names.
- **Ranked**: not held, answers parsed at PARSED_SHARE_MIN or more, an informative interval, and a headline that
  beats the floor under the paired test; ranks are ranges (ranking.py). A ranked row that NegHub neither ran nor
  reproduced has a *claimed* rank.
- **Leader**: only on the benchmark's primary board (its display block declares it), only a row NegHub ran or
  reproduced, ranked 1 alone among two ranked rows or more, printed with its margin and that margin's interval.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import mcnemar_exact_p
from ..evaluator.runners.setting import differences_between, recorded_setting, setting_in_words
from .board_file import (
    BoardEntry,
    HistoryEntry,
    HoldEntry,
    HoldKind,
    LeaderboardFile,
    LeaderEntry,
    RowEntry,
    Status,
    Trust,
)
from .boards import Board, primary_board
from .copies import Agreement, Answered, agreement, error_consistency_matrix, flips, is_copy
from .facts import RowFacts
from .names import holds_neghubs_name, read_alike
from .ranking import Candidate, paired_difference_ci, rank_ranges, significantly_better

# --- the thresholds, each with why (the Ranking rules page states them from here) ---------------------------

PARSED_SHARE_MIN = 0.5
PARSED_SHARE_WHY = (
    "below half, most of the score is the parser's, not the model's: an unparsed answer is scored wrong, so a row "
    "that parses few answers measures its output format"
)
RULES_VERSION = "3"
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
        "margin and that margin's paired interval; the cloze test's verdict is the paper's (passes, partially "
        "passes, fails); proportions get Wilson intervals; boards separate fine-tuning data, the cloze test's tests "
        "and seed means.",
    ),
    (
        "3",
        "2026-11-27",
        "Every verdict rests on what NegHub computed or GitHub recorded: landing order is the position on main's "
        "first-parent history and the submitter the pull request's account; rule rows are computed by NegHub (each "
        "constant answer, random guessing's expected score), no submission is a baseline; copies are judged by "
        "error consistency across every board of a release; a new best on a board needs a reproduction or NegHub's "
        "own run, other ranks not reproduced are claimed; the leader only on the benchmark's primary board and "
        "only a row NegHub ran or reproduced; a reproduction counts only for the files and metadata it names and "
        "only as landed by the workflow; rows of one model with identical answers are one row (also submitted "
        "by), a Hub id compares in any letter case, names by their Unicode confusable skeletons; a best published "
        "result is compared only on the same data, split, shots and fine-tuning, and the primary board shows the "
        "comparable paper rows; a board orders its rows by the benchmark's verdict first where it has one (the "
        "cloze test: passes, partially passes, fails; inconclusive is not ranked); a row that answers both items of "
        "minimal pairs alike beyond chance is marked as ignoring negation; a paper's error analysis is a board of "
        "its own; a row of one pinned model claimed in another setting is a copy where its differing answers lean to "
        "the right ones beyond chance; a change of what a row shows lands it anew; a clearance lifts nothing once "
        "the submission landed again after it, a record counts only after the submission it reproduced landed; the "
        "rows NegHub ran, then those it reproduced, own their names, and no other row's name holds NegHub's; the "
        "leader is decided among the rows NegHub ran or reproduced alone.",
    ),
)

# what a reproduction clears: everything about the answers; not a prompt nobody reviewed, nor a name
CLEARED_BY_REPRODUCTION: frozenset[HoldKind] = frozenset(
    {"other-answers-same-model", "near-copy", "above-published-best", "unreproduced-best"}
)
SETTING_MARKS_SHOWN = 3  # a row names this many rows of its model in other settings, then a count
UNRECORDED_POSITION = 10**9  # a row with no landing on record comes after every one that has one
STATUS_ORDER = {"ranked": 0, "held": 1, "unranked": 1, "duplicate": 1, "reference": 2, "reported": 3}


@dataclass(frozen=True)
class Clearance:
    """A maintainer's reviewed lifting of a submission's holds (clearances.yaml), as it landed."""

    submission: str
    holds: tuple[HoldKind, ...]
    by: str  # the account that opened the pull request that landed it ("@login"), or the maintainers' push
    date: str
    why: str


@dataclass(frozen=True)
class Context:
    """What the rules read beside the rows."""

    history: HistoryEntry
    clearances: tuple[Clearance, ...] = ()
    accepted_prompts: frozenset[tuple[str, str]] = frozenset()


@dataclass
class _Draft:
    """One row's verdict while `decide` works it out (never leaves this module: `decide` returns RowEntry values)."""

    facts: RowFacts
    status: Status = "unranked"
    holds: list[HoldEntry] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    rank: tuple[int, int] | None = None
    why: str | None = None
    floor: str | None = None
    also: list[str] = field(default_factory=list)
    duplicate_of: str | None = None
    marks: list[str] = field(default_factory=list)

    def hold(self, kind: HoldKind, reason: str) -> None:
        if all(h.kind != kind for h in self.holds):
            self.holds.append(HoldEntry(kind=kind, reason=reason))


# --- small helpers -----------------------------------------------------------------------------------------


def headline(row: RowFacts) -> float | None:
    """The figure the row's benchmark ranks by (its display block's headline)."""
    return row.headline


def _sign(task: str) -> float:
    return 1.0 if get_benchmark(task).display.headline.higher_is_better else -1.0


def _scale(task: str) -> tuple[float, str]:
    unit = get_benchmark(task).display.headline.unit
    return (100.0, "points") if unit in ("percent", "points") else (1.0, "")


def shown(value: float | None, task: str) -> str:
    """A headline as the pages print it (evaluator/core/numbers.py: one format per unit)."""
    from ..evaluator.core.numbers import figure

    return figure(value, get_benchmark(task).display.headline.unit)


def landing_order(row: RowFacts) -> tuple[int, str]:
    """The order rows landed in: main's first-parent position, then the submission id (never a date or a name)."""
    return (UNRECORDED_POSITION if row.landing is None else row.landing, row.submission_id or row.id)


def trust_of(row: RowFacts) -> Trust:
    if row.kind == "reported":
        return "reported"
    if row.kind == "reference":
        return "rule"
    if row.maintainers_run:
        return "neghub-run"
    return "reproduced" if row.record is not None and row.record.agrees else "re-scored"


def _who(row: RowFacts) -> str:
    account = row.account.words if row.account is not None else "an account not on record"
    return f"{row.submission_id} ({row.model}, {account})"


# --- the decision ------------------------------------------------------------------------------------------


def decide(rows: Sequence[RowFacts], context: Context) -> LeaderboardFile:
    """Every row's verdict, the boards in table order and each benchmark's leader (see the module docstring)."""
    drafts = {row.id: _Draft(row) for row in rows}
    for draft in drafts.values():
        if draft.facts.kind == "reported":
            draft.status = "reported"
        elif draft.facts.kind == "reference":
            draft.status = "reference"
    verified = sorted((r for r in rows if r.kind == "verified"), key=landing_order)
    _name_rule(verified, drafts)
    papers = [r for r in rows if r.kind == "reported"]
    releases: dict[tuple[str, str, str | None], list[RowFacts]] = {}
    for row in rows:
        if row.kind != "reported":
            releases.setdefault(row.key.release_key(), []).append(row)
    cleared_by: dict[str, list[Clearance]] = {}
    for entry in context.clearances:
        cleared_by.setdefault(entry.submission, []).append(entry)
    for members in releases.values():
        _decide_release(members, drafts, papers, context, cleared_by)
    entries = {row_id: _entry(draft) for row_id, draft in drafts.items()}
    boards = _boards(rows, entries)
    leaders = [_leader(task, boards, entries, {r.id: r for r in rows}, papers) for task in benchmark_names()]
    return LeaderboardFile(
        rules_version=RULES_VERSION,
        history=context.history,
        boards=boards,
        rows=[entries[row.id] for row in rows],
        leaders=leaders,
    )


def _entry(draft: _Draft) -> RowEntry:
    row = draft.facts
    trust = trust_of(row)
    ranked = draft.status == "ranked"
    return RowEntry(
        row=row.id,
        kind=row.kind,
        task=row.task,
        board=row.key.slug,
        model=row.model,
        submission=row.submission_id,
        account=None if row.account is None else row.account.words,
        landing=row.landing,
        trust=trust,
        status=draft.status,
        headline=headline(row),
        headline_ci=row.headline_ci,
        rank=draft.rank if ranked else None,
        claimed=ranked and trust == "re-scored",
        holds=list(draft.holds),
        cleared=list(draft.cleared),
        why=draft.why,
        floor=draft.floor if ranked else None,
        reproduction=_reproduction_words(row),
        also_submitted_by=list(draft.also),
        duplicate_of=draft.duplicate_of,
        marks=[*draft.marks, *_ignored_words(row)],
        tags=["ignores negation"] if _ignored_words(row) else [],
        verdict=row.verdict,
    )


def _ignored_words(row: RowFacts) -> list[str]:
    """The negation-ignored mark of a row (marks.py), where its benchmark's display names the reading."""
    source = get_benchmark(row.task).display.ignored_negation
    if source is None or row.ignored is None or not row.ignored.shown:
        return []
    return [row.ignored.words(source)]


def _reproduction_words(row: RowFacts) -> str | None:
    if row.kind != "verified":
        return None
    if row.maintainers_run:
        words = f"run by NegHub's maintainers ({row.landing_words})" if row.landing_words else "run by NegHub"
        if row.record is not None:
            words += f"; {row.record.words}"
        return words
    return "not reproduced" if row.record is None else row.record.words


# --- rules on names (across every board: a name is shown on every page) ------------------------------------


def _name_rule(verified: Sequence[RowFacts], drafts: Mapping[str, _Draft]) -> None:
    """A row whose model name reads as the name of an earlier row of another account and another model is held, and
    so is one whose name holds NegHub's own name (the site's word for the rows NegHub ran or reproduced). The rows
    NegHub ran own their names first (the maintainers name the model they ran), then the rows it reproduced (the
    weights behind the name were re-run), then the others, each in landing order; a row NegHub ran or reproduced is
    never held for its name."""
    owners: list[RowFacts] = []
    order = sorted(verified, key=lambda r: (not r.maintainers_run, not r.trusted))  # stable: landing order within
    for row in order:
        if not row.maintainers_run and holds_neghubs_name(row.model):
            drafts[row.id].hold(
                "name-of-another",
                f"its model name {row.model!r} holds NegHub's name, the site's word for the rows NegHub ran or "
                "reproduced: a submission's name is the model's",
            )
            continue
        owner = next(
            (
                o
                for o in owners
                if _account_key(o) != _account_key(row)
                and not _same_model(o, row)
                and o.landing != row.landing
                and read_alike(o.model, row.model)
            ),
            None,
        )
        if owner is not None and not row.trusted:
            drafts[row.id].hold(
                "name-of-another",
                f"its model name {row.model!r} reads as {owner.model!r}, the name of {_who(owner)}'s row of another "
                "model (the names' Unicode confusable skeletons are equal)",
            )
        elif all(not read_alike(o.model, row.model) for o in owners):
            owners.append(row)


def _account_key(row: RowFacts) -> str:
    return row.account.key if row.account is not None else f"unrecorded:{row.submission_id}"


def _same_model(first: RowFacts, second: RowFacts) -> bool:
    """One pinned model: the same identity, unless NegHub's reproductions recorded other weights for the two."""
    if first.identity is None or second.identity is None or first.identity != second.identity:
        return False
    weights = [r.record.weights_sha256 for r in (first, second) if r.record is not None and r.record.accepted]
    return not (len(weights) == 2 and weights[0] and weights[1] and weights[0] != weights[1])


# --- one data release --------------------------------------------------------------------------------------


def _decide_release(
    rows: Sequence[RowFacts],
    drafts: Mapping[str, _Draft],
    papers: Sequence[RowFacts],
    context: Context,
    cleared_by: Mapping[str, Sequence[Clearance]],
) -> None:
    verified = sorted((r for r in rows if r.kind == "verified"), key=landing_order)
    boards: dict[Board, list[RowFacts]] = {}
    for row in verified:
        boards.setdefault(row.key, []).append(row)
    for members in boards.values():
        _one_model_rule(members, drafts)
    shown_rows = [r for r in verified if drafts[r.id].status != "duplicate"]
    _copy_rule(shown_rows, drafts)
    for row in shown_rows:
        _other_holds(row, drafts[row.id], papers, context)
    references = [r for r in rows if r.kind == "reference"]
    for board, members in boards.items():
        kept = [r for r in members if drafts[r.id].status != "duplicate"]
        _clear(kept, drafts, cleared_by)
        _unreproduced_best(kept, drafts, cleared_by)
        board_refs = [r for r in references if r.key == board and r.reference_for is None]
        _rank_board(kept, board_refs, references, drafts)


def _one_model_rule(members: Sequence[RowFacts], drafts: Mapping[str, _Draft]) -> None:
    """Rows of one pinned model on one board (members in landing order)."""
    groups: list[list[RowFacts]] = []
    for row in members:
        group = next((g for g in groups if _same_model(g[0], row)), None)
        if group is None:
            groups.append([row])
        else:
            group.append(row)
    for group in groups:
        if len(group) < 2:
            continue
        classes: list[list[RowFacts]] = []
        for row in group:
            same = next((c for c in classes if _same_answers(c[0], row)), None)
            if same is None:
                classes.append([row])
            else:
                same.append(row)
        shown_rows = []
        for members_alike in classes:
            standing = next((r for r in members_alike if r.trusted), members_alike[0])
            shown_rows.append(standing)
            for other in members_alike:
                if other is standing:
                    continue
                draft = drafts[other.id]
                draft.status, draft.duplicate_of = "duplicate", standing.id
                draft.why = f"the same model and the same answers as {_who(standing)}: shown once, there"
                who = "the same account" if _account_key(other) == _account_key(standing) else _account_words(other)
                drafts[standing.id].also.append(f"{who} ({other.submission_id})")
        _other_answers(shown_rows, drafts)


def _account_words(row: RowFacts) -> str:
    return row.account.words if row.account is not None else "an account not on record"


def _same_answers(first: RowFacts, second: RowFacts) -> bool:
    from .answers import same_answers

    return same_answers(dict(first.answers), dict(second.answers))


def _setting_of(row: RowFacts) -> object:
    return recorded_setting(dict(row.setting_fields))


def _other_setting(first: RowFacts, second: RowFacts) -> bool:
    """Whether two rows ran in numeric settings that change answers (runners/setting.py: the device type and dtype,
    in 16 bits the attention kernel and the batches too), both recorded."""
    mine, theirs = dict(first.setting_fields), dict(second.setting_fields)
    return bool(differences_between(mine, theirs) and recorded_setting(mine).dtype and recorded_setting(theirs).dtype)


def _other_answers(rows: Sequence[RowFacts], drafts: Mapping[str, _Draft]) -> None:
    """One pinned model on one board, other answers (rows with identical answers are one row already). In one
    numeric setting the rows NegHub ran or reproduced stand and the others are held; where NegHub reproduced none,
    all of them are held and the model is listed for the reproduction workflow: landing first proves nothing of a
    claim on a pinned model (the first may be the fabrication), a reproduction does. In settings that change answers
    (runners/setting.py: the device type and dtype, in 16 bits the attention kernel and the batches too) each row
    names its difference and none is held for it (another account's answers passed off as the model run in another
    setting are the copy rule's: it compares such rows). The hold names every difference NegHub knows of."""
    for row in rows:
        mine = dict(row.setting_fields)
        same_setting = []
        marks = []
        for other in rows:
            if other is row:
                continue
            theirs = dict(other.setting_fields)
            if not _other_setting(row, other):
                same_setting.append(other)
            elif other.trusted or _account_key(other) == _account_key(row):
                # a row is told of another setting by a row NegHub vouches for or by its own account's; a claim of
                # another account names the difference on its own row only (it writes nothing on others' rows)
                marks.append(
                    f"the same model as {other.submission_id} in another numeric setting: {setting_in_words(mine)} "
                    f"here, {setting_in_words(theirs)} there ({'; '.join(differences_between(mine, theirs))}); "
                    "answers may differ"
                )
        drafts[row.id].marks += marks[:SETTING_MARKS_SHOWN]
        if len(marks) > SETTING_MARKS_SHOWN:
            drafts[row.id].marks.append(
                f"and {len(marks) - SETTING_MARKS_SHOWN} more rows of this model in other numeric settings"
            )
        if not same_setting or row.trusted:
            continue
        standing = [o for o in same_setting if o.trusted]
        other = (standing or same_setting)[0]
        differ = _differing(row, other)
        settings = (
            f"; this row ran in {setting_in_words(mine)}, that one in {setting_in_words(dict(other.setting_fields))}"
            if setting_in_words(mine) != setting_in_words(dict(other.setting_fields))
            else ""
        )
        if standing:
            reason = (
                f"this pinned model ({row.identity_words}) gave other answers here than in {_who(standing[0])}, "
                f"which NegHub ran or reproduced in the same numeric setting: {differ}{settings}"
            )
        else:
            others = ", ".join(_who(o) for o in same_setting)
            reason = (
                f"this pinned model ({row.identity_words}) gave other answers in {others} in the same numeric setting "
                f"({differ}{settings}) and NegHub has reproduced none of them: every such row waits, and the model "
                "is listed for the reproduction workflow"
            )
        drafts[row.id].hold("other-answers-same-model", reason)


def _differing(row: RowFacts, other: RowFacts) -> str:
    first, second = answered_of(row), answered_of(other)
    if first is None or second is None:
        return "their answers differ"
    found = agreement(first, second)
    return f"{found.items - found.identical} of {found.items} items differ"


def answered_of(row: RowFacts) -> Answered | None:
    answers = next(iter(row.answers.values()), None)
    if answers is None:
        return None
    return Answered(answers.ids, _parsed_codes(answers), row.correct)


def _parsed_codes(answers: object) -> NDArray[np.int32]:
    """A run's answer codes with -1 where the answer did not parse."""
    from .answers import RunAnswers, unparsed_code

    assert isinstance(answers, RunAnswers)
    codes = answers.codes.astype(np.int32, copy=True)
    codes[codes == unparsed_code()] = -1
    return codes


def _copy_rule(rows: Sequence[RowFacts], drafts: Mapping[str, _Draft]) -> None:
    """Each row against every earlier row of another account on the release (rows in landing order), the same
    pinned model's included where the two rows claim settings that change answers: such rows agree closely, and a
    copy claimed as the model run in another setting must not pass for one."""
    answered = [answered_of(r) for r in rows]
    matrix = _matrix(answered)
    for i, row in enumerate(rows):
        if row.trusted or answered[i] is None:
            continue
        for j in range(len(rows)):
            other = rows[j]
            if j == i or answered[j] is None or _account_key(other) == _account_key(row):
                continue
            # the same model claimed in another setting is a copy only where its answers moved towards gold
            towards = _same_model(row, other)
            if towards and not _other_setting(row, other):
                continue  # one model in one setting: the one-model rule's (identical answers, or other answers)
            earlier = landing_order(other) < landing_order(row)
            together = row.landing is not None and other.landing == row.landing
            if not (earlier or together):
                continue
            found = _agreement(matrix, answered, i, j)
            if not is_copy(found):
                continue
            when = "landed in the same commit as" if together else "landed after"
            if towards:
                moved = _moved_towards_gold(answered[i], answered[j])
                if moved is None:
                    continue  # the same model in another setting answers alike: no copy without a direction
                drafts[row.id].hold(
                    "near-copy",
                    f"its answers copy those of {_who(other)}, which it {when}, claimed as the same model in another "
                    f"numeric setting: {found.words}; of the answers that differ, {moved}: a setting's rounding has "
                    "no preference for the right answer (exact sign test, p below 0.001)",
                )
                break
            drafts[row.id].hold(
                "near-copy",
                f"its answers copy those of {_who(other)}, which it {when}: {found.words}; a copy keeps which items "
                "its source gets right, independent models do not (the rule's cut-off and why: Ranking rules)",
            )
            break


# a row of one pinned model claimed in another numeric setting is held as a copy only where, of the items the two
# rows answer differently, it gets right significantly more than it gets wrong: two settings' rounding moves answers
# with no preference for the gold label, so under that null the exact sign test holds an honest pair at most 0.1 %
# of the time, while a copy with 5 % of JNLI-Neg's 1,363 answers moved towards gold (68 of 68) has p near 1e-20
TOWARDS_GOLD_P = 0.001


def _moved_towards_gold(mine: Answered | None, source: Answered | None) -> str | None:
    """Words for a row's answers moved towards the right ones beyond chance against its source, or None."""
    if mine is None or source is None:
        return None
    found = flips(mine, source)
    if found is None:
        return None
    up, down = found
    if up <= down or mcnemar_exact_p(down, up) >= TOWARDS_GOLD_P:
        return None
    return f"{up} are right here and wrong there, {down} the other way round"


def _matrix(answered: Sequence[Answered | None]) -> tuple[NDArray[Any], ...] | None:
    """Every pair's κ at once where every row shares one tuple of ids and has right answers (the usual case)."""
    present = [a for a in answered if a is not None]
    if len(present) < 3 or len(present) != len(answered):
        return None
    first = present[0].ids
    if any(a.ids is not first and a.ids != first for a in present) or any(a.correct is None for a in present):
        return None
    return error_consistency_matrix(present)


def _agreement(
    matrix: tuple[NDArray[Any], ...] | None,
    answered: Sequence[Answered | None],
    i: int,
    j: int,
) -> Agreement:
    first, second = answered[i], answered[j]
    assert first is not None and second is not None
    if matrix is None:
        return agreement(first, second)
    kappa, items, observed, expected = matrix
    both = (first.codes >= 0) & (second.codes >= 0)
    identical = int(((first.codes == second.codes) & both).sum())
    value = float(kappa[i, j])
    return Agreement(
        int(items[i, j]),
        None if math.isnan(value) else value,
        identical,
        "error consistency",
        float(observed[i, j]),
        float(expected[i, j]),
    )


def _other_holds(row: RowFacts, draft: _Draft, papers: Sequence[RowFacts], context: Context) -> None:
    best = comparable_best(row, papers)
    value = headline(row)
    if best is not None and value is not None:
        best_value = headline(best)
        sign = _sign(row.task)
        if best_value is not None and sign * value > sign * best_value:
            label = get_benchmark(row.task).display.headline.label
            draft.hold(
                "above-published-best",
                f"{label} {shown(value, row.task)} is above the best comparable published result "
                f"({shown(best_value, row.task)}, {best.model}, {best.source}, {best.key.protocol}): a new state of "
                "the art needs a reproduction",
            )
    if row.key.is_custom_prompt and (row.task, row.key.prompt) not in context.accepted_prompts:
        draft.hold(
            "custom-prompt",
            f"its prompt ({row.key.prompt.removeprefix('custom: ')}) is not one of the benchmark's; held until a "
            "maintainer accepts it",
        )
    record = row.record
    if record is not None and record.accepted and not record.agrees:
        draft.hold(
            "reproduction-disagrees",
            f"NegHub's reproduction disagrees: {record.words}",
        )


def comparable_best(row: RowFacts, papers: Iterable[RowFacts]) -> RowFacts | None:
    """The paper row with the best headline on the same data release and split, with the same shots and the same
    fine-tuning as `row` (mode and prompt may differ), or None."""
    comparable = [p for p in papers if _comparable(p.key, row.key) and headline(p) is not None]
    if not comparable:
        return None
    sign = _sign(row.task)
    return max(comparable, key=lambda p: sign * (headline(p) or 0.0))


def _clear(
    rows: Sequence[RowFacts], drafts: Mapping[str, _Draft], cleared_by: Mapping[str, Sequence[Clearance]]
) -> None:
    for row in rows:
        draft = drafts[row.id]
        remaining = []
        for hold in draft.holds:
            entry = next((e for e in cleared_by.get(row.submission_id or "", ()) if hold.kind in e.holds), None)
            if row.trusted and hold.kind in CLEARED_BY_REPRODUCTION:
                evidence = row.record.words if row.record is not None and row.record.agrees else "NegHub ran it"
                draft.cleared.append(f"{hold.reason} — cleared: {evidence}")
            elif entry is not None:
                draft.cleared.append(f"{hold.reason} — cleared by {entry.by} on {entry.date}: {entry.why}")
            else:
                remaining.append(hold)
        draft.holds = remaining


def _unreproduced_best(
    rows: Sequence[RowFacts], drafts: Mapping[str, _Draft], cleared_by: Mapping[str, Sequence[Clearance]]
) -> None:
    """No row that NegHub neither ran nor reproduced is first: each that could rank is held unless a row NegHub ran
    or reproduced (and that is not held) has a higher headline. Held rows count for no other row here."""
    if not rows:
        return
    sign = _sign(rows[0].task)
    trusted = [r for r in rows if r.trusted and not drafts[r.id].holds and headline(r) is not None]
    best_row = max(trusted, key=merit, default=None)
    best = None if best_row is None else sign * (headline(best_row) or 0.0)
    for row in rows:
        draft = drafts[row.id]
        value = headline(row)
        # a row that could not rank anyway (too few answers parsed, too wide an interval) is no new best: holding it
        # "until a reproduction" would promise what a reproduction cannot give it, and hide why it is not ranked
        if row.trusted or draft.holds or value is None or _eligibility(row) is not None:
            continue
        if best_row is not None and merit(row) < merit(best_row):
            continue
        if best is None:
            reason = (
                "a new best on this board needs a reproduction: NegHub has neither run nor reproduced any row of "
                "this board yet, so every row waits for the reproduction workflow"
            )
        else:
            verdict = f" ({best_row.verdict_value})" if best_row is not None and best_row.verdict_value else ""
            reason = (
                f"a new best on this board needs a reproduction: {shown(value, row.task)} is not below "
                f"{shown(sign * (best or 0.0), row.task)}{verdict}, the best of the rows NegHub ran or reproduced "
                "here"
            )
        entry = next((e for e in cleared_by.get(row.submission_id or "", ()) if "unreproduced-best" in e.holds), None)
        if entry is not None:
            draft.cleared.append(f"{reason} — cleared by {entry.by} on {entry.date}: {entry.why}")
        else:
            draft.hold("unreproduced-best", reason)


def _eligibility(row: RowFacts) -> str | None:
    """Why a row that is not held cannot be ranked, or None."""
    benchmark = get_benchmark(row.task)
    display = benchmark.display
    if row.not_rankable is not None:
        return row.not_rankable
    if row.key.split is not None and benchmark.default_split is not None and row.key.split != benchmark.default_split:
        return (
            f"the {row.key.split} split is not the benchmark's evaluation split ({benchmark.default_split}): a model "
            "may have trained on it"
        )
    if headline(row) is None:
        return "no headline figure"
    if display.verdict_order:
        if row.verdict_value in display.verdict_unranked:
            return f"its verdict is {row.verdict}: a board orders its rows by their verdict, and this one is open"
        if row.verdict_value not in display.verdict_order:
            return f"no verdict to order it by ({row.verdict or 'none'})"
    parsed = row.parsed_share
    if parsed is not None and parsed < PARSED_SHARE_MIN:
        return f"only {100 * parsed:.0f} % of its answers parsed (ranked from {100 * PARSED_SHARE_MIN:.0f} %)"
    if display.items_path is not None:
        count = row.metrics.get(display.items_path)
        if count is None or count < display.min_items:
            words = "no" if count is None else f"{count:.0f}"
            return f"scored on {words} {display.items_noun} (ranked from {display.min_items})"
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


def _candidate(index: int, row: RowFacts, sign: float) -> Candidate:
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
    )


def floor_of(references: Sequence[RowFacts]) -> RowFacts | None:
    """The best rule row (by its headline)."""
    scored = [r for r in references if headline(r) is not None]
    if not scored:
        return None
    sign = _sign(scored[0].task)
    return max(scored, key=lambda r: sign * (headline(r) or 0.0))


def _beats(row: RowFacts, floor: RowFacts, sign: float) -> bool:
    """Whether a row beats a rule row: by a better verdict where the benchmark orders by verdict (a rule row that
    fails is beaten by a row that passes, whatever the statistic), else under the paired test."""
    order = get_benchmark(row.task).display.verdict_order
    if order and row.verdict_value in order and floor.verdict_value in order:
        mine, theirs = order.index(row.verdict_value), order.index(floor.verdict_value)
        if mine != theirs:
            return mine < theirs
    better = significantly_better([_candidate(0, row, sign), _candidate(1, floor, sign)])
    return bool(better[0, 1])


def _rank_board(
    rows: Sequence[RowFacts],
    board_refs: Sequence[RowFacts],
    references: Sequence[RowFacts],
    drafts: Mapping[str, _Draft],
) -> None:
    if not rows:
        return
    task = rows[0].task
    sign = _sign(task)
    eligible = []
    for row in rows:
        draft = drafts[row.id]
        if draft.holds:
            draft.status = "held"
            draft.why = "held: " + "; ".join(h.reason for h in draft.holds)
            continue
        why = _eligibility(row)
        if why is not None:
            draft.status, draft.why = "unranked", why
            continue
        own = [r for r in references if r.reference_for == row.id]
        floor = floor_of(own or list(board_refs))
        if floor is None:
            draft.floor = "no rule row on this data: no floor to beat"
        elif _beats(row, floor, sign):
            draft.floor = f"{floor.model}: {comparison(row, floor)}"
        else:
            draft.status = "unranked"
            draft.why = (
                f"does not beat the floor under the paired test: {floor.model} at {shown(headline(floor), task)} "
                f"({comparison(row, floor)})"
            )
            continue
        eligible.append(row)
    offset = 0
    for group in _verdict_groups(eligible):
        ranges = rank_ranges([_candidate(i, r, sign) for i, r in enumerate(group)])
        for index, row in enumerate(group):
            low, high = ranges[index]
            draft = drafts[row.id]
            draft.status, draft.rank, draft.why = "ranked", (low + offset, high + offset), None
        offset += len(group)


def _verdict_groups(rows: Sequence[RowFacts]) -> list[list[RowFacts]]:
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
    return (place, -math.inf if value is None else _sign(row.task) * value)


def comparison(row: RowFacts, other: RowFacts) -> str:
    """The difference of two rows' headlines in words, with its paired 95 % interval where they share items."""
    a, b = headline(row), headline(other)
    if a is None or b is None:
        return "no headline to compare"
    scale, words = _scale(row.task)
    diff = f"{scale * (a - b):+.2f} {words}".strip()
    ci = difference_ci(row, other)
    if ci is None:
        return f"difference {diff}; not paired (other items)"
    if ci == (0.0, 0.0):
        return f"difference {diff}; no item answered differently"
    return f"difference {diff}, paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"


def difference_ci(row: RowFacts, other: RowFacts) -> tuple[float, float] | None:
    """The paired bootstrap interval of mean(row − other) over their shared units, or None."""
    if row.headline_items is None or other.headline_items is None:
        return None
    if row.headline_items[0] != other.headline_items[0]:
        return None
    return paired_difference_ci(row.headline_items[1], other.headline_items[1])


# --- boards and leaders --------------------------------------------------------------------------------------


def _boards(rows: Sequence[RowFacts], entries: Mapping[str, RowEntry]) -> list[BoardEntry]:
    grouped: dict[Board, list[RowFacts]] = {}
    for row in rows:
        if row.kind == "reference" and row.reference_for is not None:
            continue  # a rule row of one row's own items: that row's floor, not a row of the board
        grouped.setdefault(row.key, []).append(row)
    papers = [r for r in rows if r.kind == "reported"]
    for task in benchmark_names():
        declared = primary_board(task)
        if declared is None:
            continue
        # the primary board answers the benchmark's question: beside NegHub's rows, the papers' comparable ones
        comparable = [p for p in papers if p.key != declared and _comparable(p.key, declared)]
        if comparable or declared in grouped:
            grouped.setdefault(declared, []).extend(comparable)
    order = benchmark_names()

    def board_order(key: Board) -> tuple[object, ...]:
        scored = any(r.kind == "verified" for r in grouped[key])
        return (order.index(key.task), not is_primary(key), not scored, key.sort_key())

    boards = []
    for key in sorted(grouped, key=board_order):
        members = [r for r in grouped[key] if entries[r.id].status != "duplicate"]
        sign = _sign(key.task)

        def table_key(row: RowFacts, sign: float = sign) -> tuple[int, float, float, tuple[int, str]]:
            entry = entries[row.id]
            value = headline(row)
            rank = 0 if entry.rank is None else entry.rank[0]
            # no name in the key: rows that tie keep the order they landed in
            value_key = -sign * value if value is not None else math.inf
            return (STATUS_ORDER[entry.status], float(rank), value_key, landing_order(row))

        members.sort(key=table_key)
        floor = floor_of([r for r in members if r.kind == "reference"])
        boards.append(
            BoardEntry(
                board=key.slug,
                task=key.task,
                title=key.title,
                primary=is_primary(key),
                rows=[r.id for r in members],
                floor=None if floor is None else floor.id,
            )
        )
    return boards


def _comparable(paper: Board, board: Board) -> bool:
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


def _leader(
    task: str,
    boards: Sequence[BoardEntry],
    entries: Mapping[str, RowEntry],
    facts: Mapping[str, RowFacts],
    papers: Sequence[RowFacts],
) -> LeaderEntry:
    display = get_benchmark(task).display
    label = display.headline.label
    primary = next((b for b in boards if b.task == task and b.primary), None)
    protocol = primary_protocol(task)
    if protocol is None:
        return LeaderEntry(task=task, text="no leader: this benchmark declares no primary board", short="none")
    if primary is None:
        return LeaderEntry(
            task=task,
            text=f"no row yet on the primary board ({protocol})",
            short="no row on the primary board yet",
        )
    rows = [entries[r] for r in primary.rows if entries[r].kind == "verified"]
    ranked = [e for e in rows if e.status == "ranked"]
    trusted = [facts[e.row] for e in rows if e.trust in ("reproduced", "neghub-run") and e.status != "held"]
    best = max(trusted, key=merit, default=None)
    above = sum(
        1
        for e in rows
        if e.trust == "re-scored" and e.headline is not None and (best is None or merit(facts[e.row]) > merit(best))
    )
    claims = f"; {above} row{'s' if above != 1 else ''} not reproduced claim{'s' if above == 1 else ''} a higher value"
    claim_words = claims if above else ""
    context = _context(task, facts, primary, papers)
    if len(ranked) < 2:
        words = "no ranked row" if not ranked else f"one ranked row ({ranked[0].model})"
        return LeaderEntry(
            task=task,
            board=primary.board,
            text=f"{words} on the primary board ({primary.title}): a leader needs two ranked rows to be "
            f"compared{claim_words}",
            short=f"none yet: {words}",
            context=context,
            unreproduced_above=above,
        )
    # the leader is decided among the rows NegHub ran or reproduced alone: a claim neither vetoes it nor is it
    # (a claim above them is held as a new best; one that the paired test cannot tell from the leader is said)
    vouched = [facts[e.row] for e in ranked if e.trust in ("reproduced", "neghub-run")]
    leading, tied_rows = _first_of(vouched)
    if leading is None:
        names = ", ".join(sorted(r.model for r in tied_rows))
        text = (
            f"no leader: rank 1 among the rows NegHub ran or reproduced is shared by {names} on the primary board "
            f"({primary.title}){claim_words}"
            if tied_rows
            else f"no leader: no ranked row on the primary board ({primary.title}) was run or reproduced by NegHub"
            f"{claim_words}"
        )
        return LeaderEntry(
            task=task,
            board=primary.board,
            text=text,
            short=f"tied: {names}" if tied_rows else "none yet: no ranked row NegHub ran or reproduced",
            context=context,
            unreproduced_above=above,
        )
    (top,) = [e for e in ranked if e.row == leading.id]
    sign = _sign(task)
    close = sorted(
        e.model for e in ranked if e.trust == "re-scored" and e is not top and not _beats(leading, facts[e.row], sign)
    )
    if close:
        claim_words += (
            f"; {', '.join(close)} (not reproduced) {'is' if len(close) == 1 else 'are'} not significantly below it"
        )
    runner = max((e for e in ranked if e is not top), key=lambda e: sign * (e.headline or -math.inf))
    scale, words = _scale(task)
    margin = (top.headline or 0.0) - (runner.headline or 0.0)
    ci = difference_ci(facts[top.row], facts[runner.row])
    interval = "" if ci is None else f", paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
    trust = "run by NegHub" if top.trust == "neghub-run" else "reproduced by NegHub"
    # the leader's line carries what NegHub computed of the row itself (its negation mark), no other row's words
    marks = "".join(f"; {mark}" for mark in _ignored_words(leading))
    text = (
        f"{top.model} ({trust}): {label} {shown(top.headline, task)}, {scale * margin:+.2f} {words} over "
        f"{runner.model}{interval} ({primary.title}){marks}{claim_words}"
    )
    return LeaderEntry(
        task=task,
        board=primary.board,
        row=top.row,
        runner_up=runner.row,
        margin=margin,
        margin_ci=ci,
        text=text,
        short=f"{top.model}, {scale * margin:+.2f} {words} over {runner.model}",
        context=context,
        unreproduced_above=above,
    )


def _first_of(rows: Sequence[RowFacts]) -> tuple[RowFacts | None, list[RowFacts]]:
    """The row ranked first alone among `rows` (by verdict, then the paired test, as a board ranks), or None and
    the rows that share rank 1."""
    groups = _verdict_groups(list(rows))
    if not groups:
        return None, []
    group = groups[0]
    sign = _sign(group[0].task)
    ranges = rank_ranges([_candidate(i, r, sign) for i, r in enumerate(group)])
    first = [row for i, row in enumerate(group) if ranges[i] == (1, 1)]
    if first:
        return first[0], []
    return None, [row for i, row in enumerate(group) if ranges[i][0] == 1]


def _context(task: str, facts: Mapping[str, RowFacts], primary: BoardEntry, papers: Sequence[RowFacts]) -> str:
    """The best comparable published result, with its protocol and data, or that there is none."""
    sample = next((facts[r] for r in primary.rows if facts[r].kind != "reported"), None)
    best = None if sample is None else comparable_best(sample, papers)
    if best is None:
        return "no comparable published result (no paper ran this data, split, shots and fine-tuning)"
    label = get_benchmark(task).display.headline.label
    return (
        f"best comparable published result: {best.model}, {label} {shown(headline(best), task)} ({best.source}, "
        f"{best.key.protocol}, {best.key.dataset_label}; reported, not re-scored)"
    )


def rules_in_words(task: str) -> list[str]:
    """The ranking rules as a benchmark's page states them, with this benchmark's numbers."""
    from .copies import COPY_KAPPA

    display = get_benchmark(task).display
    scale, unit = _scale(task)
    unit = unit or display.headline.unit
    rules = [
        "it is a NegHub row: paper rows and rule rows are never ranked",
        f"at least {100 * PARSED_SHARE_MIN:.0f} % of its answers parse ({PARSED_SHARE_WHY})",
        f"its headline's 95 % interval is ±{scale * display.max_ci_half_width:g} {unit} wide or less, and not of "
        "zero width",
        "its headline beats the board's floor (the best rule row NegHub computed on the same items) under the "
        "paired test",
        "it is not held: one pinned model with other answers in one numeric setting (unless NegHub ran or "
        "reproduced it), a copy of an earlier row of another account (the same pinned model's too where the two "
        "claim other settings) (its error consistency's 95 % interval from "
        f"{COPY_KAPPA:.2f} or more), a result above the best comparable published one, a new best on its board "
        "that NegHub has neither run nor reproduced, a reproduction that disagrees, a custom prompt, or a name that "
        "reads as another account's model",
    ]
    if display.items_path is not None and display.min_items:
        rules.append(f"it rests on {display.min_items} {display.items_noun} or more")
    if display.verdict_order:
        unranked = " or ".join(display.verdict_unranked)
        rules.append(
            f"its verdict is one of {', '.join(display.verdict_order)} ({unranked} is not ranked); rows are ordered "
            f"by their verdict first, best first, then, within one verdict, by {display.headline.label}"
        )
    return rules
