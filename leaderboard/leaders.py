"""Each benchmark's leader, or what is true instead, and the papers' best result beside it (the `leader` rule, declared
beside `leader_of`).

The leader is named only on the benchmark's primary board (its display block declares it), and only among rows
NegHub ran: only those are ranked (verdicts.py). It is the row ranked first alone on a board of two ranked rows or
more, with its margin over the next ranked row and that margin's paired interval. Where NegHub has checked no row
above the best baseline, the line says so in one sentence with the paper's best on comparable data beside it; a
board whose display says it cannot name a leader yet (NUBench's sample of the test set) says why. A submitted row
NegHub did not run is never the leader, never vetoes one and is not counted here. The line names each row as its
model cell does: with its pin where another row's name reads alike on another pin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..evaluator.core.registry import get_benchmark
from .board_file import BoardEntry, LeaderEntry, RowEntry
from .boards import Board, primary_board
from .facts import RowFacts
from .published import context_line
from .row_figures import (
    comparable_published,
    difference_ci,
    headline,
    ignored_words,
    primary_protocol,
    ranges_of,
    scale_of,
    shown,
    sign_of,
    verdict_groups,
)
from .rule import Rule

NONE_CHECKED = "NegHub has checked no model above the best baseline on this board yet"


def papers_best(board: Board, papers: Sequence[RowFacts]) -> RowFacts | None:
    """The paper's best on data comparable with `board`: the same data, split, shots and fine-tuning; on a sample
    board, its display's `published_table` on the full set it is drawn from, at the same shots."""
    found = comparable_published(board, papers)
    declared = get_benchmark(board.task).display.primary_board
    if not found and board.is_sample and declared is not None and declared.published_table is not None:
        sign = sign_of(board.task)
        found = sorted(
            (
                p
                for p in papers
                if p.task == board.task
                and p.source == declared.published_table
                and p.key.split == board.split
                and p.key.shots == board.shots
                and p.key.fine_tuned == board.fine_tuned
                and headline(p) is not None
            ),
            key=lambda p: -sign * (headline(p) or 0.0),
        )
    return found[0] if found else None


def papers_best_words(board: Board | None, papers: Sequence[RowFacts]) -> str:
    best = None if board is None else papers_best(board, papers)
    if best is None:
        return "The paper's best: none on comparable data"
    return f"The paper's best: {best.model} {shown(headline(best), best.task)} ({best.source})"


def leader_of(
    task: str,
    boards: Sequence[BoardEntry],
    entries: Mapping[str, RowEntry],
    facts: Mapping[str, RowFacts],
) -> LeaderEntry:
    protocol = primary_protocol(task)
    if protocol is None:
        return LeaderEntry(task=task, text="no leader: this benchmark declares no primary board", short="none")
    papers = [f for f in facts.values() if f.kind == "reported"]
    # the papers' best comparable result, whether or not a NegHub row stands on the primary board
    context = context_line(task, papers)
    best_words = papers_best_words(primary_board(task), papers)
    declared = get_benchmark(task).display.primary_board
    primary = next((b for b in boards if b.task == task and b.primary), None)
    board = None if primary is None else primary.board
    if declared is not None and declared.no_leader is not None:
        return LeaderEntry(
            task=task,
            board=board,
            text=f"No leader: {declared.no_leader} {best_words}.",
            short="none: this board names no leader yet (why: below)",
            context=context,
        )
    ranked = [] if primary is None else [entries[r] for r in primary.rows if entries[r].status == "ranked"]
    if len(ranked) < 2:
        words = (
            f"{best_words}; {NONE_CHECKED}"
            if not ranked
            else f"{best_words}; NegHub has checked one model above the best baseline on this board, "
            f"{named(ranked[0])}: a leader needs two to compare"
        )
        return LeaderEntry(
            task=task,
            board=board,
            text=f"{words}.",
            short="none yet: NegHub has checked no model above the best baseline" if not ranked else "none yet",
            context=context,
        )
    assert primary is not None
    leading, tied_rows = first_of([facts[e.row] for e in ranked])
    if leading is None:
        names = ", ".join(sorted(named(entries[r.id]) for r in tied_rows))
        return LeaderEntry(
            task=task,
            board=board,
            text=f"no leader: rank 1 is shared by {names} on the primary board ({primary.title}). {best_words}.",
            short=f"tied: {names}",
            context=context,
        )
    (top,) = [e for e in ranked if e.row == leading.id]
    sign = sign_of(task)
    runner = max((e for e in ranked if e is not top), key=lambda e: sign * (e.headline or 0.0))
    scale, words = scale_of(task)
    margin = (top.headline or 0.0) - (runner.headline or 0.0)
    ci = difference_ci(facts[top.row], facts[runner.row])
    interval = "" if ci is None else f", paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
    trust = "run by NegHub" if top.trust == "neghub-run" else "re-run by NegHub"
    # the leader's line carries what NegHub computed of the row itself (its negation mark), no other row's words
    marks = "".join(f"; {mark}" for mark in ignored_words(leading))
    label = get_benchmark(task).display.headline.label
    text = (
        f"{named(top, trust)}: {label} {shown(top.headline, task)}, {scale * margin:+.2f} {words} over "
        f"{named(runner)}{interval} ({primary.title}){marks}. {best_words}."
    )
    return LeaderEntry(
        task=task,
        board=board,
        row=top.row,
        runner_up=runner.row,
        margin=margin,
        margin_ci=ci,
        text=text,
        short=f"{named(top)}, {scale * margin:+.2f} {words} over {named(runner)}",
        context=context,
    )


LEADER_RULE: Rule[object] = Rule(
    kind="leader",
    reads=("the ranked rows of the primary board", "the papers' best result"),
    gives="leader",
    lifted_by=(),
    phrase="the leader: ranked first alone on the primary board",
    sentence="A benchmark's leader is a row NegHub ran, ranked first alone on the primary board among two ranked "
    "rows or more, named with its margin over the next and that margin's paired interval. Where NegHub has checked "
    "no row above the best baseline, the board says so, with the paper's best on comparable data beside it; a "
    "board whose data the display says cannot name one (a sample of the test set) names none and says why.",
    apply=lambda state: None,  # leader_of, above: decide calls it on the boards it returns, after the rules
)


def named(entry: RowEntry, *notes: str) -> str:
    """A row's model as the leader's line names it: with its pin where the row carries one (names that read alike
    on other pins, verdicts' names-alike), as its model cell shows it, so that the line never reads as one model
    beside itself; `notes` follow the pin in the same parentheses."""
    said = [entry.pin, *notes] if entry.pin else list(notes)
    return f"{entry.model} ({'; '.join(said)})" if said else entry.model


def first_of(rows: Sequence[RowFacts]) -> tuple[RowFacts | None, list[RowFacts]]:
    """The row ranked first alone among `rows` (by verdict, then the paired test, as a board ranks), or None and
    the rows that share rank 1."""
    groups = verdict_groups(list(rows))
    if not groups:
        return None, []
    group = groups[0]
    ranges = ranges_of(group)
    first = [row for i, row in enumerate(group) if ranges[i] == (1, 1)]
    if first:
        return first[0], []
    return None, [row for i, row in enumerate(group) if ranges[i][0] == 1]
