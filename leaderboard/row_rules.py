"""The rules on a row by itself and the ranking (verdicts.RULES places them): NegHub's name, names that read alike,
a result above the published best, a custom prompt, a reproduction that disagrees, the conditions a ranked row
meets, a new best that waits for a reproduction, the board's best baseline, and the rank ranges."""

from __future__ import annotations

from collections.abc import Callable

from ..evaluator.core.registry import get_benchmark
from ..evaluator.core.thresholds import PARSED_SHARE_MIN
from .decision import Decision, pin_words, same_model
from .facts import RowFacts
from .names import holds_neghubs_name, name_keys
from .published import interval_words
from .row_figures import (
    beats,
    comparable_best,
    comparison,
    floor_of,
    headline,
    merit,
    ranges_of,
    shown,
    sign_of,
    verdict_groups,
    who,
)

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


def above_published(state: Decision) -> None:
    """Every row, NegHub's own runs included: a result above every comparable published one needs a person."""
    for row in state.shown():
        best = comparable_best(row, state.papers)
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
                best=f"{shown(best_value, row.task)}, {best.model}, {best.source}, {best.key.protocol}",
                level=interval_words(row, best),
            )


def custom_prompt(state: Decision) -> None:
    for row in state.shown():
        if row.key.is_custom_prompt and (row.task, row.key.prompt) not in state.context.accepted_prompts:
            state.hold(row, "custom-prompt", prompt=row.key.prompt.removeprefix("custom: "))


def reproduction_disagrees(state: Decision) -> None:
    for row in state.shown():
        record = row.record
        if record is not None and record.accepted and not record.agrees:
            state.hold(row, "reproduction-disagrees", record=record.words)


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


def unreproduced_best(state: Decision) -> None:
    """No row that NegHub neither ran nor reproduced is first: each that could rank is held unless a row NegHub ran
    or reproduced (and that is not held) has a higher headline. Held rows count for no other row here; a row that
    could not rank anyway (too few answers parsed, too wide an interval) is no new best: holding it "until a
    reproduction" would promise what a reproduction cannot give it, and hide why it is not ranked."""
    for rows in state.boards():
        trusted = [r for r in rows if r.trusted and not state.drafts[r.id].holds and headline(r) is not None]
        best_row = max(trusted, key=merit, default=None)
        for row in rows:
            draft = state.drafts[row.id]
            if row.trusted or draft.holds or headline(row) is None or draft.unrankable is not None:
                continue
            if best_row is not None and merit(row) < merit(best_row):
                continue
            than = "(NegHub has run or reproduced no row of this board yet)"
            if best_row is not None:
                verdict = f", {best_row.verdict_value}" if best_row.verdict_value else ""
                than = f"({shown(headline(best_row), row.task)}{verdict})"
            state.hold(row, "unreproduced-best", headline=shown(headline(row), row.task), than=than)
            draft.queued = draft.queued or any(h.kind == "unreproduced-best" for h in draft.holds)


def beats_baseline(state: Decision) -> None:
    for rows in state.boards():
        board = rows[0].key
        board_refs = [r for r in state.references if r.key == board and r.reference_for is None]
        sign = sign_of(board.task)
        for row in rows:
            draft = state.drafts[row.id]
            if draft.holds or draft.unrankable is not None:
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
            if draft.holds:
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
