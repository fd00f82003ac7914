"""Every verdict the leaderboard prints, decided by one function from facts: `decide`.

`decide` takes every row's facts (collect.py: results NegHub re-scored, baselines NegHub computed, identities,
landing positions and accounts GitHub recorded, accepted reproduction records, clearances) and returns the
leaderboard file (board_file.py): each row's status, holds, marks, rank range, duplicates and trust as new values,
the boards in table order (board_order.py) and each benchmark's leader (leaders.py). The site's pages, the
downloads and the pull-request summary read that file. A verdict is a claim: each is printed with its evidence, and
each rests only on what NegHub computed or GitHub recorded.

Each rule is declared once, as a `Rule` in `RULES`: the facts it reads, what it gives (a hold, a mark, a reason not
to rank, a rank), what lifts it, a short phrase for tables and a full sentence for a row's details. `decide` applies
the rules by iterating `RULES` in its order; nothing else holds, marks or ranks a row. The list below, the Ranking
rules page, README's rules table and the leaderboard file's `rules` list are generated from `RULES`, and its hold
kinds are checked against it (`python -m neghub.leaderboard.rules_text --write`; tests/test_rules_declared.py
fails when one drifts).

Choices where issue 32 is silent, as a cited leaderboard would make them: a dispute is marked for rows of one
account too (a resubmission with other answers is as unproven as another account's); a dispute never holds, but a
row answering otherwise than NegHub's own run or reproduction of the same pin in the same setting is held (NegHub's
run says what the pinned weights answer); a maintainer's review can lift a hold NegHub's reproduction cannot (the
above-published-best hold), never the other way round. Rules, in the order `decide` applies them, per data release
(a benchmark's release and split: every board scored on the same items):

<!-- rules:begin -->
1. paper-row (gives: not ranked; lifted by: nothing): Printed in a paper: NegHub has no per-item answers for it, so
   it is shown for context and never ranked.
2. baseline-row (gives: not ranked; lifted by: nothing): A baseline NegHub computes from the data on every board
   (each constant answer, and random guessing's expected score; where each model selects its items, on each row's
   own items): never ranked. The best baseline of a board is the score a ranked row must beat.
3. name-of-another (gives: hold; lifted by: a maintainer's review): Its model name (the model's name) reads as
   NegHub's own name, which the site keeps for the rows NegHub ran or reproduced (compared in any letter case,
   through spaces, punctuation and look-alike letters); a submission's name is the model's.
4. names-alike (gives: mark; lifted by: nothing): Its model name reads like the name of the other row of another
   model (UTS #39 confusable skeletons); both rows show their pinned model (the pinned model), so that neither is
   taken for the other. No name is reserved but NegHub's.
5. same-answers (gives: shown once; lifted by: nothing): The same pinned model with the same answer on every item as
   the other row: shown once, there ('also submitted by'); this adds no trust.
6. other-setting (gives: mark; lifted by: nothing): The same pinned model as the other row in another numeric
   setting: its setting here, its setting there; answers may differ.
7. other-answers-same-model (gives: hold; lifted by: a reproduction, a maintainer's review): This pinned model (the
   pinned model) gave other answers here than in the other row, which NegHub ran or reproduced in the same numeric
   setting: how many shared items differ.
8. disputed (gives: mark; lifted by: a reproduction): Disputed: the other row pins the same model (the pinned model)
   in the same numeric setting and answers otherwise (its figure there; how many shared items differ). Neither row
   is held for it; each that could rank is queued for NegHub's reproduction, and neither can lead or be a new best
   until one is reproduced.
9. near-copy (gives: hold; lifted by: a maintainer's review): Its answers copy those of the other row, submitted
   earlier: the error consistency of the two rows. A copy keeps which items its source gets right; independent
   models do not (the cut-off and why: Ranking rules).
10. answers-alike (gives: hold; lifted by: a maintainer's review): Its answers and those of the other row agree
    beyond what independent models reach (the error consistency of the two rows), and the two were under review at
    the same time, or the later one was reproduced (which shows that its weights give these answers, not where they
    came from), so neither can be called the copy: both wait for a maintainer's review.
11. above-published-best (gives: hold; lifted by: a maintainer's review): Its headline figure is above the best
    comparable published result (that result) by its point estimate, and where its interval puts it (at, above or
    below the published level). A reproduction shows that the weights give these answers; it cannot show that the
    model never saw the evaluation split's gold labels, which public releases ship. A result above every published
    one waits for a maintainer's review.
12. custom-prompt (gives: hold; lifted by: a maintainer's review): Its prompt (the prompt) is not one of the
    benchmark's: held until a maintainer's review accepts it.
13. reproduction-disagrees (gives: hold; lifted by: a maintainer's review): NegHub's reproduction gave other
    answers: what the reproduction found.
14. evaluation-split (gives: not ranked; lifted by: nothing): The row's split is not the benchmark's evaluation
    split: a model may have trained on it.
15. distinct-runs (gives: not ranked; lifted by: nothing): Its runs repeat a seed or the same predictions: an
    average needs distinct runs.
16. headline (gives: not ranked; lifted by: nothing): It has no headline figure to rank by.
17. verdict (gives: not ranked; lifted by: nothing): Its benchmark's verdict (the verdict) leaves it open: a board
    orders its rows by their verdict, and only a decided one is ranked.
18. parsed-share (gives: not ranked; lifted by: nothing): Too few of its answers parsed (the row's share); a row is
    ranked from 50 %: below half, most of the score is the parser's, not the model's: an unparsed answer is scored
    wrong, so a row that parses few answers measures its output format.
19. enough-items (gives: not ranked; lifted by: nothing): It rests on too few items to rank (the row's item count;
    the benchmark's minimum or more are needed).
20. informative-interval (gives: not ranked; lifted by: nothing): Its headline's 95 % interval says too little to
    rank: how wide it is.
21. unreproduced-best (gives: hold; lifted by: a reproduction, a maintainer's review): A new best on this board
    needs a reproduction: its headline figure is not below the best of the rows NegHub ran or reproduced here (or
    NegHub has run or reproduced none), and the row is queued for NegHub's reproduction.
22. beats-baseline (gives: not ranked; lifted by: nothing): It does not beat the board's best baseline under the
    paired test (the baseline and the difference).
23. rank (gives: rank; lifted by: nothing): Ranked: ranks are ranges from paired tests over the same items; a row
    NegHub neither ran nor reproduced has a claimed rank.
<!-- rules:end -->
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluator.core.registry import benchmark_names
from ..evaluator.core.thresholds import PARSED_SHARE_MIN as PARSED_SHARE_MIN
from . import answer_rules, row_rules
from .answer_rules import answered_of as answered_of
from .board_file import LeaderboardFile, RowEntry, RuleEntry
from .board_order import board_entries
from .decision import Clearance as Clearance
from .decision import Context as Context
from .decision import Decision, Draft, Lift, Rule, trust_of
from .facts import RowFacts
from .leaders import leader_of

# the figures the pages, the exports, the charts and the summary read with the verdicts: importable from here too
from .row_figures import comparable_best as comparable_best
from .row_figures import comparison as comparison
from .row_figures import difference_ci as difference_ci
from .row_figures import floor_of as floor_of
from .row_figures import headline as headline
from .row_figures import ignored_words
from .row_figures import is_primary as is_primary
from .row_figures import landing_order as landing_order
from .row_figures import merit as merit
from .row_figures import primary_protocol as primary_protocol
from .row_figures import shown as shown
from .row_rules import PARSED_SHARE_WHY as PARSED_SHARE_WHY
from .rules_changelog import RULES_CHANGELOG as RULES_CHANGELOG
from .rules_changelog import RULES_VERSION as RULES_VERSION

_REVIEW: tuple[Lift, ...] = ("a maintainer's review",)
_BOTH: tuple[Lift, ...] = ("a reproduction", "a maintainer's review")

RULES: tuple[Rule, ...] = (
    Rule(
        "paper-row",
        ("where the row comes from",),
        "not ranked",
        (),
        "a paper's result: shown for context, never ranked",
        "Printed in a paper: NegHub has no per-item answers for it, so it is shown for context and never ranked.",
        row_rules.row_kinds,
    ),
    Rule(
        "baseline-row",
        ("the data", "the baseline's rule"),
        "not ranked",
        (),
        "a baseline NegHub computed from the data",
        "A baseline NegHub computes from the data on every board (each constant answer, and random guessing's "
        "expected score; where each model selects its items, on each row's own items): never ranked. The best "
        "baseline of a board is the score a ranked row must beat.",
        lambda state: None,  # the statuses are set with the paper rows', above
    ),
    Rule(
        "name-of-another",
        ("the model's name",),
        "hold",
        _REVIEW,
        "its model name uses NegHub's own name",
        "Its model name ({name}) reads as NegHub's own name, which the site keeps for the rows NegHub ran or "
        "reproduced (compared in any letter case, through spaces, punctuation and look-alike letters); a "
        "submission's name is the model's.",
        row_rules.neghubs_name,
    ),
    Rule(
        "names-alike",
        ("the model's name", "the pinned model"),
        "mark",
        (),
        "its name reads like another model's: both show their pinned model",
        "Its model name reads like the name of {other} of another model (UTS #39 confusable skeletons); both rows "
        "show their pinned model ({pin}), so that neither is taken for the other. No name is reserved but NegHub's.",
        row_rules.names_alike,
    ),
    Rule(
        "same-answers",
        ("the pinned model", "every answer"),
        "shown once",
        (),
        "the same model and answers as another row: shown once",
        "The same pinned model with the same answer on every item as {other}: shown once, there ('also submitted "
        "by'); this adds no trust.",
        answer_rules.fold_same_answers,
    ),
    Rule(
        "other-setting",
        ("the pinned model", "the numeric setting the runs record"),
        "mark",
        (),
        "the same model run in another numeric setting",
        "The same pinned model as {other} in another numeric setting: {setting_here}, {setting_there}; answers may "
        "differ.",
        answer_rules.mark_other_setting,
    ),
    Rule(
        "other-answers-same-model",
        ("the pinned model", "every answer", "the numeric setting", "NegHub's runs and reproductions"),
        "hold",
        _BOTH,
        "other answers than NegHub's own run of this model",
        "This pinned model ({pin}) gave other answers here than in {other}, which NegHub ran or reproduced in the "
        "same numeric setting{claimed}: {differ}{settings}.",
        answer_rules.hold_other_answers,
    ),
    Rule(
        "disputed",
        ("the pinned model", "every answer", "the numeric setting"),
        "mark",
        ("a reproduction",),
        "disputed: another submission of this model gave other answers",
        "Disputed: {other} pins the same model ({pin}) in the same numeric setting and answers otherwise ({figure}; "
        "{differ}). Neither row is held for it; each that could rank is queued for NegHub's reproduction, and "
        "neither can lead or be a new best until one is reproduced.",
        answer_rules.mark_disputed,
    ),
    Rule(
        "near-copy",
        ("every answer", "the order submissions were accepted", "the submitter"),
        "hold",
        _REVIEW,
        "its answers copy those of a row submitted earlier",
        "Its answers copy those of {other}, submitted earlier{claimed}: {found}{moved}. A copy keeps which items "
        "its source gets right; independent models do not (the cut-off and why: Ranking rules).",
        answer_rules.copies,
    ),
    Rule(
        "answers-alike",
        ("every answer", "when each submission was under review", "NegHub's reproductions", "the submitter"),
        "hold",
        _REVIEW,
        "answers alike with another submission: neither called the copy",
        "Its answers and those of {other} agree beyond what independent models reach ({found}), and the two were "
        "under review at the same time, or the later one was reproduced (which shows that its weights give these "
        "answers, not where they came from), so neither can be called the copy: both wait for a maintainer's "
        "review.",
        lambda state: None,  # decided with the copies, above: one comparison of each pair
    ),
    Rule(
        "above-published-best",
        ("the headline", "the papers' comparable results"),
        "hold",
        _REVIEW,
        "above the best published result: waits for a maintainer's review",
        "Its {result} is above the best comparable published result ({best}) by its point estimate, and {level}. "
        "A reproduction shows that the weights "
        "give these answers; it cannot show that the model never saw the evaluation split's gold labels, which "
        "public releases ship. A result above every published one waits for a maintainer's review.",
        row_rules.above_published,
    ),
    Rule(
        "custom-prompt",
        ("the prompt",),
        "hold",
        _REVIEW,
        "a prompt of its own, not yet reviewed",
        "Its prompt ({prompt}) is not one of the benchmark's: held until a maintainer's review accepts it.",
        row_rules.custom_prompt,
    ),
    Rule(
        "reproduction-disagrees",
        ("NegHub's reproduction",),
        "hold",
        _REVIEW,
        "NegHub's reproduction gave other answers",
        "NegHub's reproduction gave other answers: {record}.",
        row_rules.reproduction_disagrees,
    ),
    Rule(
        "evaluation-split",
        ("the split",),
        "not ranked",
        (),
        "not the benchmark's evaluation split",
        "{split} split is not the benchmark's evaluation split{evaluation}: a model may have trained on it.",
        row_rules.condition("evaluation-split", row_rules.evaluation_split),
    ),
    Rule(
        "distinct-runs",
        ("the runs' seeds and predictions",),
        "not ranked",
        (),
        "its runs repeat a seed or the same predictions",
        "Its runs repeat a seed or the same predictions: an average needs distinct runs.",
        row_rules.condition("distinct-runs", row_rules.distinct_runs),
    ),
    Rule(
        "headline",
        ("the headline",),
        "not ranked",
        (),
        "no headline figure",
        "It has no headline figure to rank by.",
        row_rules.condition("headline", row_rules.has_headline),
    ),
    Rule(
        "verdict",
        ("the benchmark's verdict",),
        "not ranked",
        (),
        "its verdict is open",
        "Its benchmark's verdict ({verdict}) leaves it open: a board orders its rows by their verdict, and only a "
        "decided one is ranked.",
        row_rules.condition("verdict", row_rules.decided_verdict),
    ),
    Rule(
        "parsed-share",
        ("the share of answers that parse",),
        "not ranked",
        (),
        f"fewer than {100 * PARSED_SHARE_MIN:.0f} % of its answers parsed",
        "Too few of its answers parsed ({parsed}); a row is ranked from " + f"{100 * PARSED_SHARE_MIN:.0f} %: "
        f"{PARSED_SHARE_WHY}.",
        row_rules.condition("parsed-share", row_rules.parsed_share),
    ),
    Rule(
        "enough-items",
        ("the items it rests on",),
        "not ranked",
        (),
        "too few items to rank",
        "It rests on too few items to rank ({items}; {min_items} or more are needed).",
        row_rules.condition("enough-items", row_rules.enough_items),
    ),
    Rule(
        "informative-interval",
        ("the headline's 95 % interval",),
        "not ranked",
        (),
        "its interval is too wide to rank",
        "Its headline's 95 % interval says too little to rank: {width}.",
        row_rules.condition("informative-interval", row_rules.informative_interval),
    ),
    Rule(
        "unreproduced-best",
        ("the headline", "NegHub's runs and reproductions on the board"),
        "hold",
        _BOTH,
        "a new best waits for NegHub's reproduction",
        "A new best on this board needs a reproduction: {headline} is not below the best of the rows NegHub ran or "
        "reproduced here {than}, and the row is queued for NegHub's reproduction.",
        row_rules.unreproduced_best,
    ),
    Rule(
        "beats-baseline",
        ("every item's score", "the board's baselines"),
        "not ranked",
        (),
        "does not beat the board's best baseline",
        "It does not beat the board's best baseline under the paired test ({baseline}).",
        row_rules.beats_baseline,
    ),
    Rule(
        "rank",
        ("every item's score", "the benchmark's verdict"),
        "rank",
        (),
        "ranked: a range from paired tests",
        "Ranked: ranks are ranges from paired tests over the same items; a row NegHub neither ran nor reproduced "
        "has a claimed rank.",
        row_rules.rank,
    ),
)
_BY_KIND = {rule.kind: rule for rule in RULES}


def rules_in_words(task: str, shared: bool = True) -> list[str]:
    """The ranking conditions of a benchmark's page (rules_text.py, which reads RULES: imported when called)."""
    from .rules_text import rules_in_words as in_words

    return in_words(task, shared)


def rule_for(kind: str) -> Rule:
    """The rule that gives a hold kind, a mark or a reason not to rank (KeyError: no such rule)."""
    return _BY_KIND[kind]


# --- the decision ------------------------------------------------------------------------------------------


def decide(rows: Sequence[RowFacts], context: Context) -> LeaderboardFile:
    """Every row's verdict, the boards in table order and each benchmark's leader: RULES, applied in their order."""
    state = Decision(rows, context, _BY_KIND)
    for rule in RULES:
        rule.apply(state)
    entries = {row.id: _entry(draft) for row, draft in ((r, state.drafts[r.id]) for r in rows)}
    boards = board_entries(rows, entries)
    facts = {r.id: r for r in rows}
    leaders = [leader_of(task, boards, entries, facts) for task in benchmark_names()]
    return LeaderboardFile(
        rules_version=RULES_VERSION,
        rules=[
            RuleEntry(kind=r.kind, gives=r.gives, lifted_by=list(r.lifted_by), phrase=r.phrase, sentence=r.general)
            for r in RULES
        ],
        history=context.history,
        boards=boards,
        rows=[entries[row.id] for row in rows],
        leaders=leaders,
    )


def _entry(draft: Draft) -> RowEntry:
    row = draft.facts
    trust = trust_of(row)
    ranked = draft.status == "ranked"
    ignored = ignored_words(row)
    return RowEntry(
        row=row.id,
        kind=row.kind,
        task=row.task,
        board=row.key.slug,
        model=row.model,
        pin=draft.pin,
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
        queued_for_reproduction=draft.queued and not row.trusted,
        also_submitted_by=list(draft.also),
        duplicate_of=draft.duplicate_of,
        marks=[*draft.marks, *ignored],
        mark_kinds=list(draft.mark_kinds),
        tags=[*(["disputed"] if "disputed" in draft.mark_kinds else []), *(["ignores negation"] if ignored else [])],
        verdict=row.verdict,
    )


def _reproduction_words(row: RowFacts) -> str | None:
    if row.kind != "verified":
        return None
    if row.maintainers_run:
        words = f"run by NegHub's maintainers ({row.landing_words})" if row.landing_words else "run by NegHub"
        if row.record is not None:
            words += f"; {row.record.words}"
        return words
    return "not reproduced" if row.record is None else row.record.words
