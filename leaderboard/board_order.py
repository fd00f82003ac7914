"""The boards of a build in table order, each with its rows in table order and its floor (the best baseline).

A board's rows are ordered by status (ranked, then held and unranked, then baselines, then the papers' rows), then
by rank, then by headline in the benchmark's direction, then in the order they landed: no name decides an order.
The primary board also shows the papers' comparable rows (the same data, split, shots and fine-tuning).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..evaluator.core.registry import benchmark_names
from .board_file import BoardEntry, RowEntry
from .boards import Board, primary_board
from .facts import RowFacts
from .row_figures import comparable, floor_of, headline, is_primary, landing_order, sign_of

STATUS_ORDER = {"ranked": 0, "held": 1, "unranked": 1, "duplicate": 1, "listed": 2, "reference": 3, "reported": 4}


def board_entries(rows: Sequence[RowFacts], entries: Mapping[str, RowEntry]) -> list[BoardEntry]:
    """Every board of `rows` in table order (benchmarks in registry order, the primary board first)."""
    grouped: dict[Board, list[RowFacts]] = {}
    for row in rows:
        if row.kind == "reference" and row.reference_for is not None:
            continue  # a baseline of one row's own items: that row's floor, not a row of the board
        grouped.setdefault(row.key, []).append(row)
    papers = [r for r in rows if r.kind == "reported"]
    for task in benchmark_names():
        declared = primary_board(task)
        if declared is None:
            continue
        # the primary board answers the benchmark's question: beside NegHub's rows, the papers' comparable ones
        found = [p for p in papers if p.key != declared and comparable(p.key, declared)]
        if found or declared in grouped:
            grouped.setdefault(declared, []).extend(found)
    order = benchmark_names()

    def board_order(key: Board) -> tuple[object, ...]:
        scored = any(r.kind == "verified" for r in grouped[key])
        return (order.index(key.task), not is_primary(key), not scored, key.sort_key())

    boards = []
    for key in sorted(grouped, key=board_order):
        members = [r for r in grouped[key] if entries[r.id].status != "duplicate"]
        sign = sign_of(key.task)

        def table_key(row: RowFacts, sign: float = sign) -> tuple[int, float, float, tuple[int, str]]:
            entry = entries[row.id]
            value = headline(row)
            rank = 0 if entry.rank is None else entry.rank[0]
            # no name in the key: rows that tie keep the order they landed in
            value_key = -sign * value if value is not None else math.inf
            return (STATUS_ORDER[entry.status], float(rank), value_key, landing_order(row))

        members.sort(key=table_key)
        floor = floor_of([r for r in members if r.kind == "reference"])
        boards.append(
            BoardEntry(
                board=key.slug,
                task=key.task,
                title=key.title,
                primary=is_primary(key),
                rows=[r.id for r in members],
                floor=None if floor is None else floor.id,
            )
        )
    return boards
