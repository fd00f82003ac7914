"""The rules on a row by itself and the ranking (verdicts.RULES places them): NegHub's name, names that read alike
and weights NegHub's re-runs found equal, a row NegHub has not run (listed, with its queue position), a result above
the published best, a custom prompt, how NegHub's re-run agrees with the submitted answers, the conditions a ranked
row meets, the board's best baseline, and the rank ranges. Only a row NegHub ran is ranked: every hold here is on
such a row, or on a row's name."""

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
    ranges_of,
    shown,
    sign_of,
    verdict_groups,
    who,
)

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


def neghubs_name(state: Decision) -> None:
    for row in state.verified:
        if not row.maintainers_run and holds_neghubs_name(row.model):
            state.hold(row, "name-of-another", name=repr(row.model))


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


def not_run(state: Decision) -> None:
    """A submitted row NegHub has not run is listed with its own figure, never ranked: queued for NegHub's re-run
    where it could rank (queue.py), or why not (closed weights, a board NegHub does not re-run)."""
    queue = build_queue([r for r in state.shown() if not r.trusted])
    state.queue = queue.entries
    for row_id, why in queue.why.items():
        draft = state.drafts[row_id]
        draft.listed = state.rules["not-run"].say(queue=why)
        draft.queue_position = queue.position.get(row_id)


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


def custom_prompt(state: Decision) -> None:
    for row in state.shown():
        accepted = (row.task, row.key.prompt) in state.context.accepted_prompts
        if row.trusted and row.key.is_custom_prompt and not accepted:
            state.hold(row, "custom-prompt", prompt=row.key.prompt.removeprefix("custom: "))


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


def evaluation_split(row: RowFacts) -> dict[str, object] | None:
    benchmark = get_benchmark(row.task)
    if row.key.split is not None and benchmark.default_split is not None and row.key.split != benchmark.default_split:
        return {"split": f"The {row.key.split}", "evaluation": f" ({benchmark.default_split})"}
    return None


def distinct_runs(row: RowFacts) -> dict[str, object] | None:
    return None if row.not_rankable is None else {}


def has_headline(row: RowFacts) -> dict[str, object] | None:
    return {} if headline(row) is None else None


def decided_verdict(row: RowFacts) -> dict[str, object] | None:
    display = get_benchmark(row.task).display
    if display.verdict_order and row.verdict_value not in display.verdict_order:
        return {"verdict": row.verdict or "none"}
    return None


def parsed_share(row: RowFacts) -> dict[str, object] | None:
    parsed = row.parsed_share
    if parsed is not None and parsed < PARSED_SHARE_MIN:
        return {"parsed": f"{100 * parsed:.0f} %"}
    return None


def enough_items(row: RowFacts) -> dict[str, object] | None:
    display = get_benchmark(row.task).display
    if display.items_path is None:
        return None
    count = row.metrics.get(display.items_path)
    if count is None or count < display.min_items:
        words = "no" if count is None else f"{count:.0f}"
        return {"items": f"{words} {display.items_noun}", "min_items": display.min_items}
    return None


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


def condition(kind: str, check: Callable[[RowFacts], dict[str, object] | None]) -> Callable[[Decision], None]:
    def apply(state: Decision) -> None:
        state.unrankable(kind, check)

    return apply


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
