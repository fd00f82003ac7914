"""The rules that compare rows' answers (each declared as a `Rule` beside its function; verdicts.RULES orders them):
one pinned model's rows with the same answers (shown once, every account credited), and a row NegHub ran whose
answers copy an earlier ranked row of another pin, its differences leaning to the gold labels (copies.py computes
the statistic).

Only rows NegHub ran are compared for copies: a submitted row's answers are a claim that ranks nothing, and NegHub's
re-run of a pin gives the weights' own answers, so a copied prediction file buys no rank. What a re-run cannot
settle is weights trained on a rival's answers: those answer like the rival by nature, and lean towards the gold
where they differ (the copy was tuned and its source's mistakes corrected). That one is held for a person.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.stats import mcnemar_exact_p
from .copies import Answered, agreement, flips, is_copy
from .decision import Decision, same_answers, same_model
from .facts import RowFacts
from .row_figures import account_key, account_words, who
from .rule import REVIEW, Rule

# a row NegHub ran whose answers agree with an earlier ranked row's beyond chance (copies.is_copy) is held as a copy
# only where, of the items the two answer differently, it gets right significantly more than it gets wrong (exact
# sign test): independent models differ with no preference for the gold label, so under that null an honest pair
# that already agrees beyond chance is held at most 1 % of the time; 30 answers moved to gold and 10 away give
# p = 0.002 (which rules version 4's 0.001 missed), weights tuned on a rival's answers with its mistakes corrected
# (68 of 68 moved to gold) p near 1e-20
TOWARDS_GOLD_P = 0.01


def fold_same_answers(state: Decision) -> None:
    """One pinned model with the same answer on every item: shown once, the row NegHub ran where there is one, else
    the first landed; every account that submitted the answers is credited, alphabetically, each with its own
    submission (its description and link stay its own, on its own page): landing first buys nothing."""
    for group in state.models():
        classes: list[list[RowFacts]] = []
        for row in group:
            same = next((c for c in classes if same_answers(c[0], row)), None)
            if same is None:
                classes.append([row])
            else:
                same.append(row)
        for alike in classes:
            if len(alike) < 2:
                continue
            standing = next((r for r in alike if r.trusted), alike[0])
            state.drafts[standing.id].credited = sorted({account_words(r) for r in alike}, key=str.lower)
            others = sorted((r for r in alike if r is not standing), key=lambda r: account_words(r).lower())
            for other in others:
                draft = state.drafts[other.id]
                draft.status, draft.duplicate_of = "duplicate", standing.id
                draft.why = state.rules["same-answers"].say(other=who(standing))
                same_account = account_key(other) == account_key(standing)
                words = "the same account" if same_account else account_words(other)
                state.drafts[standing.id].also.append(f"{words} ({other.submission_id})")


SAME_ANSWERS_RULE: Rule[Decision] = Rule(
    kind="same-answers",
    reads=("the pinned model", "every answer", "the submitter"),
    gives="shown once",
    lifted_by=(),
    phrase="the same model and answers as another row: shown once",
    sentence="The same pinned model with the same answer on every item as {other}: shown once, there, with "
    "everyone who submitted these answers credited, alphabetically; each submission keeps its own description.",
    apply=fold_same_answers,
)


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


def copies(state: Decision) -> None:
    """Each row NegHub ran against every earlier row NegHub ran on its release (landing order), of another pin and
    another account: held where the answers agree beyond chance and the differences lean to the gold. NegHub's
    maintainers' runs are never the copy (NegHub chose those weights)."""
    for rows in state.releases():
        ran = [r for r in rows if r.trusted]
        answered = [answered_of(r) for r in ran]
        for i, row in enumerate(ran):
            mine = answered[i]
            if mine is None or row.maintainers_run:
                continue
            for j in range(i):
                other, theirs = ran[j], answered[j]
                if theirs is None or same_model(row, other) or account_key(other) == account_key(row):
                    continue
                found = agreement(mine, theirs)
                if not is_copy(found):
                    continue
                direction = _moved_towards_gold(mine, theirs)
                if direction is None:
                    continue
                state.hold(row, "near-copy", other=who(other), found=found.words, moved=direction)
                break


NEAR_COPY_RULE: Rule[Decision] = Rule(
    kind="near-copy",
    reads=("every answer of the rows NegHub ran", "the gold labels", "the order rows landed in", "the submitter"),
    gives="hold",
    lifted_by=REVIEW,
    phrase="its answers copy a ranked row's, differences leaning to gold",
    sentence="Its answers, as NegHub's run gave them, copy those of {other}, ranked earlier with another pin "
    "({found}); "
    "of the answers that differ, {moved}. Weights trained on a rival's answers answer like it, and a re-run "
    "cannot tell: a maintainer's review decides.",
    apply=copies,
)


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
