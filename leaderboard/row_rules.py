"""The rules on a row by itself and the ranking (each declared as a `Rule` beside its function; verdicts.RULES orders
them): NegHub's name, names that read alike and weights NegHub's re-runs found equal, a row NegHub has not run
(listed, with its queue position), a result above the published best, a custom prompt, how NegHub's re-run agrees
with the submitted answers, the conditions a ranked row meets, the board's best baseline, and the rank ranges. Only
a row NegHub ran is ranked: every hold here is on such a row, or on a row's name."""

from __future__ import annotations

from collections.abc import Callable

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.thresholds import PARSED_SHARE_MIN
from .decision import Decision, pin_words, same_model
from .facts import RowFacts
from .names import holds_neghubs_name, name_keys
from .published import interval_words
from .queue import build_queue
from .row_figures import (
    beats,
    comparison,
    floor_of,
    headline,
    on_evaluation_split,
    ranges_of,
    shown,
    sign_of,
    verdict_groups,
    who,
)
from .rule import REVIEW, Rule

# the share of items a re-run in another numeric setting may answer otherwise and still read "within the drift its
# setting allows", from NegHub's measurement (README, "Reproducing a submission": SmolLM2-135M, bfloat16 against
# float32, 23 of 48 JNLI-Neg generations and 6 of 46 NUBench option answers moved); in the submitted setting the
# measured drift is none (the same bits), so NegHub's re-run allows none there. A mark either way, never a condition.
SETTING_DRIFT_SHARE = 0.5

# --- the thresholds, each with why (the Ranking rules page states them from here) ---------------------------

PARSED_SHARE_WHY = (
    "below half, most of the score is the parser's, not the model's: an unparsed answer is scored wrong, so a row "
    "that parses few answers measures its output format"
)


def row_kinds(state: Decision) -> None:
    for draft in state.drafts.values():
        if draft.facts.kind == "reported":
            draft.status = "reported"
        elif draft.facts.kind == "reference":
            draft.status = "reference"


PAPER_ROW_RULE: Rule[Decision] = Rule(
    kind="paper-row",
    reads=("where the row comes from",),
    gives="not ranked",
    lifted_by=(),
    phrase="a paper's result: shown for context, never ranked",
    sentence="Printed in a paper: NegHub has no per-item answers for it, so it is shown for context and never ranked.",
    apply=row_kinds,
)

BASELINE_ROW_RULE: Rule[Decision] = Rule(
    kind="baseline-row",
    reads=("the data", "the baseline's rule"),
    gives="not ranked",
    lifted_by=(),
    phrase="a baseline NegHub computed from the data",
    sentence="A baseline NegHub computes from the data on every board (each constant answer, and random guessing's "
    "expected score; where each model selects its items, on each row's own items): never ranked. The best "
    "baseline of a board is the score a ranked row must beat.",
    apply=lambda state: None,  # row_kinds, above, sets the baselines' status with the paper rows'
)


def neghubs_name(state: Decision) -> None:
    for row in state.verified:
        if not row.maintainers_run and holds_neghubs_name(row.model):
            state.hold(row, "name-of-another", name=repr(row.model))


NAME_OF_ANOTHER_RULE: Rule[Decision] = Rule(
    kind="name-of-another",
    reads=("the model's name",),
    gives="hold",
    lifted_by=REVIEW,
    phrase="its model name uses NegHub's own name",
    sentence="Its model name ({name}) reads as NegHub's own name, which the site keeps for the rows NegHub ran "
    "(compared in any letter case, through spaces, punctuation and look-alike letters); a submission's name is "
    "the model's.",
    apply=neghubs_name,
)


def names_alike(state: Decision) -> None:
    """Rows whose names read alike (either key of names.name_keys equal) on different pins each show their pin."""
    buckets: dict[tuple[int, str], list[RowFacts]] = {}
    for row in state.verified:
        for which, key in enumerate(name_keys(row.model)):
            buckets.setdefault((which, key), []).append(row)
    for members in buckets.values():
        for row in members:
            others = [o for o in members if o is not row and not same_model(o, row)]
            if not others:
                continue
            state.drafts[row.id].pin = pin_words(row)
            other = others[0]
            state.mark(row, "names-alike", other=who(other), pin=pin_words(row) or "no pin")


NAMES_ALIKE_RULE: Rule[Decision] = Rule(
    kind="names-alike",
    reads=("the model's name", "the pinned model"),
    gives="mark",
    lifted_by=(),
    phrase="its name reads like another model's: both show their pinned model",
    sentence="Its model name reads like the name of {other} of another model (UTS #39 confusable skeletons); both "
    "rows show their pinned model ({pin}), so that neither is taken for the other. No name is reserved but NegHub's.",
    apply=names_alike,
)


def same_weights(state: Decision) -> None:
    """Rows of other pins whose NegHub re-runs loaded the same weights (one `weights_sha256`) are one model: each
    shows its pin and names the other."""
    by_weights: dict[str, list[RowFacts]] = {}
    for row in state.verified:
        if row.trusted and row.record is not None and row.record.weights_sha256:
            by_weights.setdefault(row.record.weights_sha256, []).append(row)
    for members in by_weights.values():
        for row in members:
            others = [o for o in members if o is not row and o.identity != row.identity]
            if others:
                state.drafts[row.id].pin = pin_words(row)
                state.mark(row, "same-weights", other=who(others[0]), pin=pin_words(others[0]) or "no pin")


SAME_WEIGHTS_RULE: Rule[Decision] = Rule(
    kind="same-weights",
    reads=("the weights NegHub's re-runs loaded",),
    gives="mark",
    lifted_by=(),
    phrase="one model under two pins: NegHub's re-runs loaded the same weights",
    sentence="NegHub's re-runs of this row and of {other} loaded the same weights (one checksum): one model under "
    "two pins, this one and {pin}; both are shown.",
    apply=same_weights,
)


def not_run(state: Decision) -> None:
    """A submitted row NegHub has not run is listed with its own figure, never ranked: queued for NegHub's re-run
    where it could rank (queue.py), or why not (closed weights, a board NegHub does not re-run)."""
    queue = build_queue([r for r in state.shown() if not r.trusted], state.verified)
    state.queue = queue.entries
    for row_id, why in queue.why.items():
        draft = state.drafts[row_id]
        draft.listed = state.rules["not-run"].say(queue=why)
        draft.queue_position = queue.position.get(row_id)


NOT_RUN_RULE: Rule[Decision] = Rule(
    kind="not-run",
    reads=("who ran the row", "the queue", "open weights"),
    gives="not ranked",
    lifted_by=(),
    phrase="submitted, not run by NegHub: listed with its own figure, not ranked",
    sentence="{queue}. Only a figure NegHub computed from its own run's answers is ranked; a submitted row is "
    "listed, unnumbered, with the submitter's figure until NegHub runs it.",
    apply=not_run,
)


def published_ceiling(row: RowFacts, papers: list[RowFacts]) -> RowFacts | None:
    """The best published result on `row`'s data and split, at any number of shots, with the same fine-tuning and
    test; on a sample board (the display's `published_table`), that table's rows on the full set it is drawn from."""
    declared = get_benchmark(row.task).display.primary_board
    table = declared.published_table if declared is not None and row.key.is_sample else None
    found = [
        p
        for p in papers
        if p.task == row.task
        and headline(p) is not None
        and p.key.split == row.key.split
        and p.key.fine_tuned == row.key.fine_tuned
        and p.key.test == row.key.test
        and (p.source == table if table is not None else p.key.dataset == row.key.dataset)
    ]
    sign = sign_of(row.task)
    return max(found, key=lambda p: sign * (headline(p) or 0.0), default=None)


def above_published(state: Decision) -> None:
    """Every row NegHub ran, its maintainers' runs included: a result above the best published one on the same data
    and split, at any number of shots, needs a person (a model trained on the public gold answers as it is asked)."""
    for row in state.shown():
        if not row.trusted:
            continue
        best = published_ceiling(row, state.papers)
        value = headline(row)
        if best is None or value is None:
            continue
        best_value = headline(best)
        sign = sign_of(row.task)
        if best_value is not None and sign * value > sign * best_value:
            label = get_benchmark(row.task).display.headline.label
            state.hold(
                row,
                "above-published-best",
                result=f"{label} {shown(value, row.task)}",
                best=f"{shown(best_value, row.task)}, {best.model}, {best.source}, {best.key.protocol}"
                + (f", on the full set {best.key.dataset_label}" if row.key.is_sample else ""),
                level=interval_words(row, best),
            )


ABOVE_PUBLISHED_BEST_RULE: Rule[Decision] = Rule(
    kind="above-published-best",
    reads=("the headline", "the papers' results on the same data and split"),
    gives="hold",
    lifted_by=REVIEW,
    phrase="above the best published result: waits for a maintainer's review",
    sentence="Its {result} is above the best published result on the same data and split, at any number of shots "
    "({best}), by its point estimate, and {level}. NegHub's run shows that the weights give these answers; it "
    "cannot show that the model never saw the evaluation split's gold labels, which public releases ship. Only "
    "a held-out split closes that for a model tuned under the published best; above it, a maintainer's review "
    "decides.",
    apply=above_published,
)


def custom_prompt(state: Decision) -> None:
    for row in state.shown():
        accepted = (row.task, row.key.prompt) in state.context.accepted_prompts
        if row.trusted and row.key.is_custom_prompt and not accepted:
            state.hold(row, "custom-prompt", prompt=row.key.prompt.removeprefix("custom: "))


CUSTOM_PROMPT_RULE: Rule[Decision] = Rule(
    kind="custom-prompt",
    reads=("the prompt",),
    gives="hold",
    lifted_by=REVIEW,
    phrase="a prompt of its own, not yet reviewed",
    sentence="Its prompt ({prompt}) is not one of the benchmark's: held until a maintainer's review accepts it.",
    apply=custom_prompt,
)


def rerun_agreement(state: Decision) -> None:
    """A mark, never a condition: how NegHub's re-run answers agree with the submitted ones."""
    for row in state.shown():
        record = row.record
        if record is None or not row.trusted or not record.rerun or not record.compared:
            continue
        if not record.differing:
            found = f"NegHub's run agrees on {record.compared}/{record.compared} items"
        else:
            allowed = SETTING_DRIFT_SHARE if record.across_settings else 0.0
            within = record.differing <= allowed * record.compared
            found = (
                f"NegHub's run differs on {record.differing} of {record.compared} items, "
                f"{'within' if within else 'beyond'} the drift its setting allows"
            )
        state.mark(row, "rerun-agreement", found=found, submitted=shown(row.submitted_headline, row.task))


RERUN_AGREEMENT_RULE: Rule[Decision] = Rule(
    kind="rerun-agreement",
    reads=("NegHub's re-run answers", "the submitted answers"),
    gives="mark",
    lifted_by=(),
    phrase="how NegHub's run agrees with the submitted answers",
    sentence="{found}; the submitter's figure: {submitted}. A mark, never a condition: the row ranks by NegHub's "
    "figure.",
    apply=rerun_agreement,
)


def condition(kind: str, check: Callable[[RowFacts], dict[str, object] | None]) -> Callable[[Decision], None]:
    """A ranking condition's rule function: `check` gives the fields of the row's sentence where a row fails it."""

    def apply(state: Decision) -> None:
        state.unrankable(kind, check)

    return apply


def evaluation_split(row: RowFacts) -> dict[str, object] | None:
    if on_evaluation_split(row):
        return None
    return {"split": f"The {row.key.split}", "evaluation": f" ({get_benchmark(row.task).default_split})"}


EVALUATION_SPLIT_RULE: Rule[Decision] = Rule(
    kind="evaluation-split",
    reads=("the split",),
    gives="not ranked",
    lifted_by=(),
    phrase="not the benchmark's evaluation split",
    sentence="{split} split is not the benchmark's evaluation split{evaluation}: a model may have trained on it.",
    apply=condition("evaluation-split", evaluation_split),
)


def distinct_runs(row: RowFacts) -> dict[str, object] | None:
    return None if row.not_rankable is None else {}


DISTINCT_RUNS_RULE: Rule[Decision] = Rule(
    kind="distinct-runs",
    reads=("the runs' seeds and predictions",),
    gives="not ranked",
    lifted_by=(),
    phrase="its runs repeat a seed or the same predictions",
    sentence="Its runs repeat a seed or the same predictions: an average needs distinct runs.",
    apply=condition("distinct-runs", distinct_runs),
)


def has_headline(row: RowFacts) -> dict[str, object] | None:
    return {} if headline(row) is None else None


HEADLINE_RULE: Rule[Decision] = Rule(
    kind="headline",
    reads=("the headline",),
    gives="not ranked",
    lifted_by=(),
    phrase="no headline figure",
    sentence="It has no headline figure to rank by.",
    apply=condition("headline", has_headline),
)


def decided_verdict(row: RowFacts) -> dict[str, object] | None:
    display = get_benchmark(row.task).display
    if display.verdict_order and row.verdict_value not in display.verdict_order:
        return {"verdict": row.verdict or "none"}
    return None


VERDICT_RULE: Rule[Decision] = Rule(
    kind="verdict",
    reads=("the benchmark's verdict",),
    gives="not ranked",
    lifted_by=(),
    phrase="its verdict is open",
    sentence="Its benchmark's verdict ({verdict}) leaves it open: a board orders its rows by their verdict, and "
    "only a decided one is ranked.",
    apply=condition("verdict", decided_verdict),
)


def parsed_share(row: RowFacts) -> dict[str, object] | None:
    parsed = row.parsed_share
    if parsed is not None and parsed < PARSED_SHARE_MIN:
        return {"parsed": f"{100 * parsed:.0f} %"}
    return None


PARSED_SHARE_RULE: Rule[Decision] = Rule(
    kind="parsed-share",
    reads=("the share of answers that parse",),
    gives="not ranked",
    lifted_by=(),
    phrase=f"fewer than {100 * PARSED_SHARE_MIN:.0f} % of its answers parsed",
    sentence="Too few of its answers parsed ({parsed}); a row is ranked from " + f"{100 * PARSED_SHARE_MIN:.0f} %: "
    f"{PARSED_SHARE_WHY}.",
    apply=condition("parsed-share", parsed_share),
)


def enough_items(row: RowFacts) -> dict[str, object] | None:
    display = get_benchmark(row.task).display
    if display.items_path is None:
        return None
    count = row.metrics.get(display.items_path)
    if count is None or count < display.min_items:
        words = "no" if count is None else f"{count:.0f}"
        return {"items": f"{words} {display.items_noun}", "min_items": display.min_items}
    return None


ENOUGH_ITEMS_RULE: Rule[Decision] = Rule(
    kind="enough-items",
    reads=("the items it rests on",),
    gives="not ranked",
    lifted_by=(),
    phrase="too few items to rank",
    sentence="It rests on too few items to rank ({items}; {min_items} or more are needed).",
    apply=condition("enough-items", enough_items),
)


def informative_interval(row: RowFacts) -> dict[str, object] | None:
    ci = row.headline_ci
    if ci is None:
        return {"width": "it has none"}
    if ci[1] - ci[0] <= 0:
        return {"width": "it has zero width, which says nothing about the uncertainty"}
    half_width = get_benchmark(row.task).display.max_ci_half_width
    if (ci[1] - ci[0]) / 2 > half_width:
        return {"width": f"±{100 * (ci[1] - ci[0]) / 2:.1f} points (ranked at ±{100 * half_width:.0f} or less)"}
    return None


INFORMATIVE_INTERVAL_RULE: Rule[Decision] = Rule(
    kind="informative-interval",
    reads=("the headline's 95 % interval",),
    gives="not ranked",
    lifted_by=(),
    phrase="its interval is too wide to rank",
    sentence="Its headline's 95 % interval says too little to rank: {width}.",
    apply=condition("informative-interval", informative_interval),
)


def beats_baseline(state: Decision) -> None:
    for rows in state.boards():
        board = rows[0].key
        board_refs = [r for r in state.references if r.key == board and r.reference_for is None]
        sign = sign_of(board.task)
        for row in rows:
            draft = state.drafts[row.id]
            if draft.holds or draft.unrankable is not None or draft.listed is not None:
                continue
            own = [r for r in state.references if r.reference_for == row.id]
            floor = floor_of(own or board_refs)
            if floor is None:
                draft.floor = "no baseline on this data to beat"
            elif beats(row, floor, sign):
                draft.floor = f"{floor.model}: {comparison(row, floor)}"
            else:
                draft.unrankable = state.rules["beats-baseline"].say(
                    baseline=f"{floor.model} at {shown(headline(floor), board.task)}: {comparison(row, floor)}"
                )


BEATS_BASELINE_RULE: Rule[Decision] = Rule(
    kind="beats-baseline",
    reads=("every item's score", "the board's baselines"),
    gives="not ranked",
    lifted_by=(),
    phrase="does not beat the board's best baseline",
    sentence="It does not beat the board's best baseline under the paired test ({baseline}).",
    apply=beats_baseline,
)


def rank(state: Decision) -> None:
    for rows in state.boards():
        eligible = []
        for row in rows:
            draft = state.drafts[row.id]
            if draft.listed is not None:
                draft.status, draft.why = "listed", draft.listed
            elif draft.holds:
                draft.status, draft.why = "held", "held: " + "; ".join(h.reason for h in draft.holds)
            elif draft.unrankable is not None:
                draft.status, draft.why = "unranked", draft.unrankable
            else:
                eligible.append(row)
        offset = 0
        for group in verdict_groups(eligible):
            ranges = ranges_of(group)
            for index, row in enumerate(group):
                low, high = ranges[index]
                draft = state.drafts[row.id]
                draft.status, draft.rank, draft.why = "ranked", (low + offset, high + offset), None
            offset += len(group)


RANK_RULE: Rule[Decision] = Rule(
    kind="rank",
    reads=("every item's score", "the benchmark's verdict", "who ran the row"),
    gives="rank",
    lifted_by=(),
    phrase="ranked: a range from paired tests",
    sentence="Ranked: only rows NegHub ran, by NegHub's figure; ranks are ranges from paired tests over the same "
    "items.",
    apply=rank,
)
