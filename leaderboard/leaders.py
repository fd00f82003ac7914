"""Each benchmark's leader, or what is true instead, and the best comparable published result beside it.

The leader is named only on the benchmark's primary board (its display block declares it), only a row NegHub ran
or reproduced, ranked first alone among those rows on a board of two ranked rows or more, with its margin over the
next ranked row and that margin's paired interval. A row not reproduced neither vetoes nor is the leader; the line
says how many such rows claim a higher value and names those the paired test cannot tell from the leader. A row
marked disputed (verdicts.py) is never reproduced or run by NegHub, so it cannot lead either. The line names each
row as its model cell does: with its pin where another row's name reads alike on another pin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..evaluator.core.registry import get_benchmark
from .board_file import BoardEntry, LeaderEntry, RowEntry
from .facts import RowFacts
from .published import context_line
from .row_figures import (
    beats,
    difference_ci,
    ignored_words,
    merit,
    primary_protocol,
    ranges_of,
    scale_of,
    shown,
    sign_of,
    verdict_groups,
)


def leader_of(
    task: str,
    boards: Sequence[BoardEntry],
    entries: Mapping[str, RowEntry],
    facts: Mapping[str, RowFacts],
) -> LeaderEntry:
    display = get_benchmark(task).display
    label = display.headline.label
    primary = next((b for b in boards if b.task == task and b.primary), None)
    protocol = primary_protocol(task)
    if protocol is None:
        return LeaderEntry(task=task, text="no leader: this benchmark declares no primary board", short="none")
    # the papers' best comparable result, whether or not a NegHub row stands on the primary board
    context = context_line(task, [f for f in facts.values() if f.kind == "reported"])
    if primary is None:
        return LeaderEntry(
            task=task,
            text=f"no row yet on the primary board ({protocol})",
            short="no row on the primary board yet",
            context=context,
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
    if len(ranked) < 2:
        words = "no ranked row" if not ranked else f"one ranked row ({named(ranked[0])})"
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
    leading, tied_rows = first_of(vouched)
    if leading is None:
        names = ", ".join(sorted(named(entries[r.id]) for r in tied_rows))
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
    sign = sign_of(task)
    close = sorted(
        named(e) for e in ranked if e.trust == "re-scored" and e is not top and not beats(leading, facts[e.row], sign)
    )
    if close:
        claim_words += (
            f"; {', '.join(close)} (not reproduced) {'is' if len(close) == 1 else 'are'} not significantly below it"
        )
    runner = max((e for e in ranked if e is not top), key=lambda e: sign * (e.headline or -math.inf))
    scale, words = scale_of(task)
    margin = (top.headline or 0.0) - (runner.headline or 0.0)
    ci = difference_ci(facts[top.row], facts[runner.row])
    interval = "" if ci is None else f", paired 95 % interval [{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
    trust = "run by NegHub" if top.trust == "neghub-run" else "reproduced by NegHub"
    # the leader's line carries what NegHub computed of the row itself (its negation mark), no other row's words
    marks = "".join(f"; {mark}" for mark in ignored_words(leading))
    text = (
        f"{named(top, trust)}: {label} {shown(top.headline, task)}, {scale * margin:+.2f} {words} over "
        f"{named(runner)}{interval} ({primary.title}){marks}{claim_words}"
    )
    return LeaderEntry(
        task=task,
        board=primary.board,
        row=top.row,
        runner_up=runner.row,
        margin=margin,
        margin_ci=ci,
        text=text,
        short=f"{named(top)}, {scale * margin:+.2f} {words} over {named(runner)}",
        context=context,
        unreproduced_above=above,
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
