"""The rules that compare rows' answers (verdicts.RULES places them): one pinned model's rows with the same
answers, in other numeric settings, with other answers (a hold where NegHub ran the model, a dispute otherwise),
and copies of another account's answers (copies.py computes the statistic)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.stats import mcnemar_exact_p
from ..evaluator.runners.setting import differences_between, setting_in_words
from . import row_rules
from .copies import Agreement, Answered, agreement, error_consistency_matrix, flips, is_copy
from .decision import Decision, differ_words, other_setting, same_answers, same_model, shared_difference
from .facts import RowFacts
from .row_figures import account_key, account_words, beats, floor_of, headline, merit, shown, sign_of, who

SETTING_MARKS_SHOWN = 3  # a row names this many rows of its model in other settings, then a count
# a row of one pinned model claimed in another numeric setting is held as a copy only where, of the items the two
# rows answer differently, it gets right significantly more than it gets wrong: two settings' rounding moves answers
# with no preference for the gold label, so under that null the exact sign test holds an honest pair at most 0.1 %
# of the time, while a copy with 5 % of 1,363 answers moved towards gold (68 of 68) has p near 1e-20
TOWARDS_GOLD_P = 0.001


def fold_same_answers(state: Decision) -> None:
    for group in state.models():
        classes: list[list[RowFacts]] = []
        for row in group:
            same = next((c for c in classes if same_answers(c[0], row)), None)
            if same is None:
                classes.append([row])
            else:
                same.append(row)
        for alike in classes:
            standing = next((r for r in alike if r.trusted), alike[0])
            for other in alike:
                if other is standing:
                    continue
                draft = state.drafts[other.id]
                draft.status, draft.duplicate_of = "duplicate", standing.id
                draft.why = state.rules["same-answers"].say(other=who(standing))
                same_account = account_key(other) == account_key(standing)
                words = "the same account" if same_account else account_words(other)
                state.drafts[standing.id].also.append(f"{words} ({other.submission_id})")


def _shown_of_model(state: Decision) -> list[list[RowFacts]]:
    return [[r for r in g if state.drafts[r.id].status != "duplicate"] for g in state.models()]


def mark_other_setting(state: Decision) -> None:
    """A row is told of another numeric setting by a row NegHub vouches for or by its own account's; a claim of
    another account names the difference on its own row only (it writes nothing on others' rows)."""
    for rows in _shown_of_model(state):
        for row in rows:
            mine = dict(row.setting_fields)
            told = [
                o
                for o in rows
                if o is not row and other_setting(row, o) and (o.trusted or account_key(o) == account_key(row))
            ]
            for other in told[:SETTING_MARKS_SHOWN]:
                theirs = dict(other.setting_fields)
                state.mark(
                    row,
                    "other-setting",
                    other=other.submission_id,
                    setting_here=f"{setting_in_words(mine)} here",
                    setting_there=f"{setting_in_words(theirs)} there ({'; '.join(differences_between(mine, theirs))})",
                )
            if len(told) > SETTING_MARKS_SHOWN:
                more = len(told) - SETTING_MARKS_SHOWN
                state.drafts[row.id].marks.append(f"and {more} more rows of this model in other numeric settings")


def _differing_in_one_setting(rows: Sequence[RowFacts], row: RowFacts) -> list[tuple[RowFacts, int, int]]:
    found = []
    for other in rows:
        if other is row or other_setting(row, other):
            continue
        differ, shared = shared_difference(row, other)
        if differ:
            found.append((other, differ, shared))
    return found


def hold_other_answers(state: Decision) -> None:
    """A row NegHub neither ran nor reproduced, whose model NegHub ran or reproduced in the same numeric setting
    with other answers on shared items, is held: NegHub's run says what the pinned weights answer.

    In another numeric setting, such a row is held where it scores above NegHub's run or reproduction: a setting's
    rounding moves a few answers with no preference for the right one, so it never lifts the weights above what
    NegHub measured them at, while the copy rule's sign test misses a doctored row that moves 30 answers to gold and
    10 away (p = 0.002). Bounding the share of answers a setting may move would need a measured bound per benchmark
    and model size; this rule needs none, costs an honest row only a wait for NegHub's reproduction (which lifts
    it), and leaves rows below NegHub's run, which claim nothing above it, alone."""
    for rows in _shown_of_model(state):
        for row in rows:
            if row.trusted:
                continue
            vouched = [(o, d, n) for o, d, n in _differing_in_one_setting(rows, row) if o.trusted]
            claimed = ""
            if not vouched:
                vouched = [(o, *shared_difference(row, o)) for o in _above_in_another_setting(rows, row)]
                claimed = (
                    ", or which NegHub ran or reproduced in another numeric setting and scored lower: a setting's "
                    "rounding moves answers with no preference for the right one, so a figure above NegHub's own "
                    "measure of the weights waits for a reproduction"
                )
            if vouched:
                other, differ, shared = vouched[0]
                here, there = setting_in_words(dict(row.setting_fields)), setting_in_words(dict(other.setting_fields))
                state.hold(
                    row,
                    "other-answers-same-model",
                    pin=row.identity_words,
                    other=who(other),
                    differ=differ_words(differ, shared),
                    settings="" if here == there else f"; this row ran in {here}, that one in {there}",
                    claimed=claimed,
                )


def _above_in_another_setting(rows: Sequence[RowFacts], row: RowFacts) -> list[RowFacts]:
    """The rows NegHub ran or reproduced of `row`'s pinned model, in another numeric setting, that `row` scores
    above."""
    return [o for o in rows if o.trusted and other_setting(row, o) and merit(row) > merit(o)]


def mark_disputed(state: Decision) -> None:
    """Rows of one pinned model in one setting with other answers on shared items, none of them run or reproduced by
    NegHub: landing first proves nothing of a claim on a pinned model (the first may be the fabrication), so no row
    is held for another's claim; each is marked and names the other and its figure. Neither can lead (a leader is a
    row NegHub ran or reproduced) or be a new best (unreproduced-best holds it). A disputed row is queued for
    reproduction only where it could rank (`_could_rank`): a whole-run reproduction of a row that fails a ranking
    condition changes no verdict, and queuing one for every squatted pin would let anyone fill the GPU queue."""
    for rows in _shown_of_model(state):
        for row in rows:
            if row.trusted:
                continue
            found = _differing_in_one_setting(rows, row)
            if not found or any(o.trusted for o, _, _ in found):
                continue
            for other, differ, shared in found:
                state.mark(
                    row,
                    "disputed",
                    other=who(other),
                    pin=row.identity_words,
                    figure=shown(headline(other), other.task),
                    differ=differ_words(differ, shared),
                )
            state.drafts[row.id].queued = state.drafts[row.id].queued or _could_rank(state, row)


def _could_rank(state: Decision, row: RowFacts) -> bool:
    """Whether a row meets every ranking condition but being reproduced: the conditions rules 14–20 apply (their
    checks, read here before those rules run) and the board's best baseline beaten (rule 22's floor)."""
    checks = (
        row_rules.evaluation_split,
        row_rules.distinct_runs,
        row_rules.has_headline,
        row_rules.decided_verdict,
        row_rules.parsed_share,
        row_rules.enough_items,
        row_rules.informative_interval,
    )
    if any(check(row) is not None for check in checks):
        return False
    own = [r for r in state.references if r.reference_for == row.id]
    floor = floor_of(own or [r for r in state.references if r.key == row.key and r.reference_for is None])
    return floor is None or beats(row, floor, sign_of(row.task))


def answered_of(row: RowFacts) -> Answered | None:
    """A row's first run as the copy statistic reads it (copies.py): an unanswered item is a wrong answer where
    every model answers the same items; where each model selects its own (the display counts them: items_path),
    an item one row left out is not compared."""
    answers = next(iter(row.answers.values()), None)
    if answers is None:
        return None
    selects = get_benchmark(row.task).display.items_path is not None
    return Answered(answers.ids, _parsed_codes(answers), row.correct, nulls_wrong=not selects)


def _parsed_codes(answers: object) -> NDArray[np.int32]:
    """A run's answer codes with -1 where the answer did not parse."""
    from .answers import RunAnswers, unparsed_code

    assert isinstance(answers, RunAnswers)
    codes = answers.codes.astype(np.int32, copy=True)
    codes[codes == unparsed_code()] = -1
    return codes


def _open_together(later: RowFacts, earlier: RowFacts, opened: Sequence[tuple[int, int]]) -> bool:
    """Whether two rows were under review at the same time, as git shows it: they landed in one commit, or the later
    row's pull request branched from main before the earlier row landed and nothing shows it was opened after.

    A fork point is the submitter's choice (a branch made today from an old commit of main), so it is read as
    "opened before" only where no pull request that forked at or after the earlier row's landing (`opened`: each
    row's fork point and pull-request number) has a smaller number than the later row's: that pull request was
    opened after the earlier landed, and GitHub numbers pull requests in the order they are opened, so the later
    one was too. What remains: in a quiet repository, with no such pull request between the two, an old fork point
    still reads as open at once (both rows held alike, the copy never made the original); and a witness whose branch
    was updated from main reads as opened later than it was. GitHub's `created_at` would settle it, but the build
    reads git alone (the pull-request summary could pass it in later)."""
    if later.landing is not None and later.landing == earlier.landing:
        return True
    if later.forked_at is None or earlier.landing is None or later.forked_at >= earlier.landing:
        return False
    number = later.pull_request
    return number is None or not any(fork >= earlier.landing and n < number for fork, n in opened)


def copies(state: Decision) -> None:
    """Each row against every earlier row of another account on its release (rows in landing order), the same
    pinned model's included where the two claim settings that change answers (a copy claimed as the model run in
    another setting must not pass for one).

    Only NegHub's own run is exempt: a reproduction shows that the weights give the answers, not where the answers
    came from (weights fine-tuned on a rival's answers pass it, as the above-published-best hold reasons of the
    split's gold labels), so it lifts neither hold; a maintainer's review does. Against NegHub's run, the other row
    is the copy, whenever it was opened. Between two rows of other accounts, the later is the copy, unless the two
    were under review at once or the later was reproduced: then both are held alike, neither called the copy. The
    reproduced case is the one rule that defeats both a mirror landed first (its doctored answers of the real
    weights would make the reproduced honest row "the copy") and a reproduced distillation of an earlier row (which
    a reproduction must not turn into the original): a reproduction of the later row shows its weights give those
    answers, which makes landing first no evidence of originality, but tells neither which came first."""
    # pull request numbers are the repository's, whatever board or release a row is on
    opened = sorted(
        {(r.forked_at, r.pull_request) for r in state.verified if r.forked_at is not None and r.pull_request}
    )
    for rows in state.releases():
        answered = [answered_of(r) for r in rows]
        matrix = _matrix(answered)
        for i, row in enumerate(rows):
            if answered[i] is None:
                continue
            for j in range(i):
                other = rows[j]
                if answered[j] is None or account_key(other) == account_key(row):
                    continue
                towards = same_model(row, other)
                if towards and not other_setting(row, other):
                    continue  # one model in one setting: the same-answers and disputed rules'
                if row.maintainers_run or (towards and row.trusted):
                    # NegHub ran the pinned weights: its answers are theirs, copied from no one; one model's rows
                    # in two settings answer alike by nature, and the reproduced one's answers are the weights'
                    continue
                found = _agreement(matrix, answered, i, j)
                if not is_copy(found):
                    continue
                # asked of copies only: it scans every pull request's fork point
                if not other.maintainers_run and (row.trusted or _open_together(row, other, opened)):
                    state.hold(row, "answers-alike", other=who(other), found=found.words)
                    state.hold(other, "answers-alike", other=who(row), found=found.words)
                    state.drafts[row.id].queued = state.drafts[other.id].queued = True
                    continue
                moved = ""
                claimed = ""
                if towards:
                    direction = _moved_towards_gold(answered[i], answered[j])
                    if direction is None:
                        continue  # the same model in another setting answers alike: no copy without a direction
                    claimed = ", claimed as the same model in another numeric setting"
                    moved = (
                        f"; of the answers that differ, {direction}: a setting's rounding has no preference for "
                        "the right answer (exact sign test, p below 0.001)"
                    )
                state.hold(row, "near-copy", other=who(other), found=found.words, claimed=claimed, moved=moved)
                break


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
    first = present[0]
    if any(a.ids is not first.ids and a.ids != first.ids for a in present) or any(a.correct is None for a in present):
        return None
    if any(a.nulls_wrong != first.nulls_wrong for a in present):
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
