"""Every verdict the leaderboard prints, decided by one function from facts: `decide`.

`decide` takes every row's facts (collect.py: results NegHub re-scored, baselines NegHub computed, identities,
landing positions and accounts GitHub recorded, accepted reproduction records, clearances) and returns the
leaderboard file (board_file.py): each row's status, holds, marks, rank range, duplicates and trust as new values,
the boards in table order (board_order.py) and each benchmark's leader (leaders.py). The site's pages, the
downloads and the pull-request summary read that file. A verdict is a claim: each is printed with its evidence, and
each rests only on what NegHub computed or GitHub recorded.

Each rule is declared once, as a `Rule` (rule.py) beside the function that decides it (row_rules.py,
answer_rules.py, leaders.py, marks.py): the facts it reads, what it gives (a hold, a mark, a reason not to rank, a
rank), what lifts it, a short phrase for tables and a full sentence for a row's details. `RULES` lists them in the
order `decide` applies them; nothing else holds, marks or ranks a row. The list below, the Ranking rules page,
README's rules table and the leaderboard file's `rules` list are generated from `RULES`, and its hold kinds are
checked against it (`python -m neghub.leaderboard.rules_text --write`; tests/test_rules_declared.py fails when one
drifts).

NegHub ranks what it ran (issue 37): a row is ranked only by a figure NegHub computed from its own run's answers
(the maintainers' runs, and NegHub's re-run of a submitted open-weights model, whose answers its record keeps:
kept_answers.py). A submitted row NegHub has not run is listed, unnumbered, with its own figure and its place in the
queue (queue.py); it never has a rank, a leader or a best. A hold protects a ranked row, a leader or the queue; a
mark never holds an honest row. Rules, in the order `decide` applies them, per data release (a benchmark's release
and split: every board scored on the same items):

<!-- rules:begin -->
1. paper-row (gives: not ranked; lifted by: nothing): Printed in a paper: NegHub has no per-item answers for it, so
   it is shown for context and never ranked.
2. baseline-row (gives: not ranked; lifted by: nothing): A baseline NegHub computes from the data on every board
   (each constant answer, and random guessing's expected score; where each model selects its items, on each row's
   own items): never ranked. The best baseline of a board is the score a ranked row must beat.
3. name-of-another (gives: hold; lifted by: a maintainer's review): Its model name (the model's name) reads as
   NegHub's own name, which the site keeps for the rows NegHub ran (compared in any letter case, through spaces,
   punctuation and look-alike letters); a submission's name is the model's.
4. names-alike (gives: mark; lifted by: nothing): Its model name reads like the name of the other row of another
   model (UTS #39 confusable skeletons); both rows show their pinned model (the pinned model), so that neither is
   taken for the other. No name is reserved but NegHub's.
5. same-weights (gives: mark; lifted by: nothing): NegHub's re-runs of this row and of the other row loaded the same
   weights (one checksum): one model under two pins, this one and the pinned model; both are shown.
6. same-answers (gives: shown once; lifted by: nothing): The same pinned model with the same answer on every item as
   the other row: shown once, there, with everyone who submitted these answers credited, alphabetically; each
   submission keeps its own description.
7. not-run (gives: not ranked; lifted by: nothing): submitted, not run by NegHub yet: queue position N; or closed
   weights: NegHub cannot check this. Only a figure NegHub computed from its own run's answers is ranked; a
   submitted row is listed, unnumbered, with the submitter's figure until NegHub runs it.
8. near-copy (gives: hold; lifted by: a maintainer's review): Its answers, as NegHub's run gave them, copy those of
   the other row, ranked earlier with another pin (what the comparison found); of the answers that differ, how many
   of the answers that differ are right here and wrong there, and the other way round. Weights trained on a rival's
   answers answer like it, and a re-run cannot tell: a maintainer's review decides.
9. above-published-best (gives: hold; lifted by: a maintainer's review): Its headline figure is above the best
   published result on the same data and split, at any number of shots (that result), by its point estimate, and
   where its interval puts it (at, above or below the published level). NegHub's run shows that the weights give
   these answers; it cannot show that the model never saw the evaluation split's gold labels, which public releases
   ship. Only a held-out split closes that for a model tuned under the published best; above it, a maintainer's
   review decides.
10. custom-prompt (gives: hold; lifted by: a maintainer's review): Its prompt (the prompt) is not one of the
    benchmark's: held until a maintainer's review accepts it.
11. rerun-agreement (gives: mark; lifted by: nothing): what the comparison found; the submitter's figure: the
    submitter's figure. A mark, never a condition: the row ranks by NegHub's figure.
12. evaluation-split (gives: not ranked; lifted by: nothing): The row's split is not the benchmark's evaluation
    split: a model may have trained on it.
13. distinct-runs (gives: not ranked; lifted by: nothing): Its runs repeat a seed or the same predictions: an
    average needs distinct runs.
14. headline (gives: not ranked; lifted by: nothing): It has no headline figure to rank by.
15. verdict (gives: not ranked; lifted by: nothing): Its benchmark's verdict (the verdict) leaves it open: a board
    orders its rows by their verdict, and only a decided one is ranked.
16. parsed-share (gives: not ranked; lifted by: nothing): Too few of its answers parsed (the row's share); a row is
    ranked from 50 %: below half, most of the score is the parser's, not the model's: an unparsed answer is scored
    wrong, so a row that parses few answers measures its output format.
17. enough-items (gives: not ranked; lifted by: nothing): It rests on too few items to rank (the row's item count;
    the benchmark's minimum or more are needed).
18. informative-interval (gives: not ranked; lifted by: nothing): Its headline's 95 % interval says too little to
    rank: how wide it is.
19. beats-baseline (gives: not ranked; lifted by: nothing): It does not beat the board's best baseline under the
    paired test (the baseline and the difference).
20. rank (gives: rank; lifted by: nothing): Ranked: only rows NegHub ran, by NegHub's figure; ranks are ranges from
    paired tests over the same items.
21. leader (gives: leader; lifted by: nothing): A benchmark's leader is a row NegHub ran, ranked first alone on the
    primary board among two ranked rows or more, named with its margin over the next and that margin's paired
    interval. Where NegHub has checked no row above the best baseline, the board says so, with the paper's best on
    comparable data beside it; a board whose data the display says cannot name one (a sample of the test set) names
    none and says why.
22. ignores-negation (gives: mark; lifted by: nothing): It answers both items of M_i pairs (those whose gold
    changes) alike more often than its own answers would by chance (the lower end of the 95 % Wilson interval above
    that share): NegHub's statistic, not the paper's (marks.py); the table tags the row 'ignores negation'.
<!-- rules:end -->
"""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluator.core.registry import benchmark_names
from ..evaluator.core.thresholds import PARSED_SHARE_MIN as PARSED_SHARE_MIN
from . import answer_rules, leaders, marks, row_rules
from .answer_rules import answered_of as answered_of
from .board_file import LeaderboardFile, RowEntry, RuleEntry
from .board_order import board_entries
from .decision import Clearance as Clearance
from .decision import Context as Context
from .decision import Decision, Draft, trust_of
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
from .rule import Rule as Rule
from .rules_changelog import RULES_CHANGELOG as RULES_CHANGELOG
from .rules_changelog import RULES_VERSION as RULES_VERSION

RULES: tuple[Rule[Decision], ...] = (
    row_rules.PAPER_ROW_RULE,
    row_rules.BASELINE_ROW_RULE,
    row_rules.NAME_OF_ANOTHER_RULE,
    row_rules.NAMES_ALIKE_RULE,
    row_rules.SAME_WEIGHTS_RULE,
    answer_rules.SAME_ANSWERS_RULE,
    row_rules.NOT_RUN_RULE,
    answer_rules.NEAR_COPY_RULE,
    row_rules.ABOVE_PUBLISHED_BEST_RULE,
    row_rules.CUSTOM_PROMPT_RULE,
    row_rules.RERUN_AGREEMENT_RULE,
    row_rules.EVALUATION_SPLIT_RULE,
    row_rules.DISTINCT_RUNS_RULE,
    row_rules.HEADLINE_RULE,
    row_rules.VERDICT_RULE,
    row_rules.PARSED_SHARE_RULE,
    row_rules.ENOUGH_ITEMS_RULE,
    row_rules.INFORMATIVE_INTERVAL_RULE,
    row_rules.BEATS_BASELINE_RULE,
    row_rules.RANK_RULE,
    leaders.LEADER_RULE,
    marks.IGNORES_NEGATION_RULE,
)
_BY_KIND = {rule.kind: rule for rule in RULES}


def rule_for(kind: str) -> Rule[Decision]:
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
        queue=state.queue,
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
        submitted_headline=row.submitted_headline,
        holds=list(draft.holds),
        cleared=list(draft.cleared),
        why=draft.why,
        fails=list(draft.failed),
        floor=draft.floor if ranked else None,
        reproduction=_reproduction_words(row),
        queue_position=draft.queue_position,
        also_submitted_by=list(draft.also),
        credited=list(draft.credited),
        duplicate_of=draft.duplicate_of,
        marks=[*draft.marks, *ignored],
        mark_kinds=[*draft.mark_kinds, *(["ignores-negation"] if ignored else [])],
        tags=["ignores negation"] if ignored else [],
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
    return "not run by NegHub" if row.record is None else row.record.words
