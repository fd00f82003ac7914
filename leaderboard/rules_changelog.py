"""The rules' version and its dated changes: every download carries `rules_version`, and the Ranking rules page
lists the changes (each in full, in a wrapped cell)."""

from __future__ import annotations

RULES_VERSION = "5"
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
    (
        "4",
        "2026-11-29",
        "Each rule is declared once, with the facts it reads, what it gives, what lifts it, a short phrase and a "
        "full sentence, in one order the verdicts apply; the rules page, README's table and the leaderboard file's "
        "hold kinds are generated from it. A result above the best comparable published one is held for every row, "
        "NegHub's own runs included, and only a maintainer's review lifts it: a reproduction shows the weights give "
        "the answers, not that the model never saw the evaluation split's gold labels. Two rows of one pinned model "
        "with other answers are marked disputed, each naming the other and its figure, and queued for reproduction; "
        "neither is held for it, and neither can lead or be a new best until one is reproduced. Only NegHub's own "
        "name is reserved: rows whose names read alike on different pinned models show their pins. Rows of one "
        "model on different samples are compared on the items they share only. In the copy statistic an unanswered "
        "item counts as a wrong answer unless both rows left it unanswered (not where each model selects its own "
        "items), and two rows that answered nothing are no copies. Two rows under review at the same time that "
        "answer alike are both held, neither called the copy, until a reproduction or a maintainer settles it. "
        "The context line compares with the primary board's comparable published rows; a row above the published "
        "best says whether its interval puts it at or above the published level (Newcombe's unpaired interval "
        "where the paper's counts are known), never a new state of the art within an interval. A reproduction "
        "record counts only if it re-ran and compared every item of each of the row's runs, in their recorded "
        "order and batches: records that compared a sample (schemas 1 to 3) no longer count. A submission holds at "
        "most 40 runs. A landing is a pull request's merge commit, or else the maintainers' push, whatever its "
        "subject. A row is NegHub's run only while its prediction files and what it shows were last changed by "
        "the maintainers or the GPU workflow; maintainers are the accounts .github/MAINTAINERS lists. The cloze "
        "test: a non-coreference drop is small only when its 95 % interval lies under the strong-drop minimum and "
        "below the base test's drop of the same pattern (unpaired; the 20-point minimum was NegHub's, not the "
        "paper's: see version 5); being below the "
        "coref drop no longer suffices; the CpTv veto is a control of its own, so that a model that passes the "
        "base test but no control reads as the paper's introduction reads it; the paper's four models keep their "
        "verdicts.",
    ),
    (
        "5",
        "2026-12-02",
        "NegHub ranks what it ran: a row is ranked only by a figure NegHub computed from its own run's answers (the "
        "maintainers' runs, and NegHub's re-run of a submitted open-weights model, whose answers its record keeps: "
        "schema 5); the submitter's figure stands beside it, and how the two sets of answers agree is a mark, never "
        "a condition. A submitted row NegHub has not run is listed, unnumbered, with its own figure and its place "
        "in NegHub's queue (or 'closed weights: NegHub cannot check this'); no such row has a rank, a leader or a "
        "best anywhere, and 'claimed rank' is gone. Records of schemas 1 to 4 keep no answers and rank nothing. "
        "The queue is round robin over accounts, first in first out within one, one entry per pinned model and "
        "numeric setting, primary boards and their 1-, 3- and 5-shot settings only. Removed with their tests: "
        "other-setting, other-answers-same-model, disputed, answers-alike and unreproduced-best (a submitted row "
        "ranks nothing, so none of them protects a rank); reproduction-disagrees is now the agreement mark. A row "
        "NegHub ran is held as a copy only where its answers copy an earlier ranked row of another pin beyond "
        "chance and its differences lean to the gold (exact sign test, p below 0.01); rows whose re-runs loaded "
        "the same weights are one model, both pins shown. The above-published-best hold compares with the best "
        "published result on the same data and split at any number of shots (a sample board: the table on the "
        "full set it is drawn from). NUBench's sample board names no leader until the official test set is "
        "pinned. Rows of one model with the same answers credit every account, alphabetically. Where NegHub has "
        "checked no row above the best baseline, the leader line says so beside the paper's best. Intervals "
        "respect shared sentences: a minimal pair's interval clusters by its source sentence pair (Wilson's interval "
        "at the effective sample size; paired comparisons and rank ranges by a bootstrap of whole sources), and the "
        "cloze test's by verb and by name and profession. The cloze test's criterion is read word by word from "
        "section 4 (lines 246-331), its cut-offs NegHub's where the paper gives none: 'strong' and 'large' drops at "
        "least 1.4 times the controls', 'much smaller' and 'small' at most half the base drop, no fixed ceiling; "
        "bert-large's base test fails as line 246 and Table 6 read it, not as line 72 says. Every re-run of a "
        "minimal-pair run also probes the train split for contamination (a mark, never a hold).",
    ),
)
