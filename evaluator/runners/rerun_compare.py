"""Comparing a run's submitted lines with NegHub's re-run lines (`neghub reproduce`, and the write job that lands a
record, which recomputes agreement from the two kept files with `compare_run` instead of trusting the record's counts).

- labels, letters, generated text and cloze tokens must be equal;
- log-likelihoods must be within `tolerance` nats of each other;
- an item agrees only when its lines agree one for one (the cloze test: the triplets the model selects, too);
- across settings, the drift: whether each item's answers are the same, and the |differences| of its numbers.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

from ..submissions.reproduction import ReproducedRun

MAX_DISAGREEING_IDS = 10
Line = dict[str, Any]


def values_agree(mine: Any, theirs: Any, tolerance: float) -> bool:
    """Equal, except that two floats (log-likelihoods) may differ by `tolerance`."""
    if isinstance(mine, bool) or isinstance(theirs, bool):
        return mine is theirs
    if isinstance(mine, float) or isinstance(theirs, float):
        if not isinstance(mine, int | float) or not isinstance(theirs, int | float):
            return False
        return math.isfinite(mine) and math.isfinite(theirs) and abs(mine - theirs) <= tolerance
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return mine.keys() == theirs.keys() and all(values_agree(mine[k], theirs[k], tolerance) for k in mine)
    if isinstance(mine, list) and isinstance(theirs, list):
        pairs = zip(mine, theirs, strict=False)  # lengths compared first
        return len(mine) == len(theirs) and all(values_agree(a, b, tolerance) for a, b in pairs)
    return bool(mine == theirs) and type(mine) is type(theirs)


def _shape(value: Any) -> Any:
    # a line with its floats blanked: lines of one item are paired by everything but their log-likelihoods
    if isinstance(value, float):
        return 0
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value


def _order(lines: list[Line]) -> list[Line]:
    return sorted(lines, key=lambda line: json.dumps(_shape(line), sort_keys=True, ensure_ascii=False))


def lines_agree(mine: list[Line], theirs: list[Line], tolerance: float) -> bool:
    """One item's lines: as many, and pairwise in agreement (paired in a canonical order)."""
    if len(mine) != len(theirs):
        return False
    return all(values_agree(a, b, tolerance) for a, b in zip(_order(mine), _order(theirs), strict=True))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _answer(value: Any) -> Any:
    """What a line answers, its numbers aside: labels, letters, text and tokens as they are, and for a set of
    numbers (log-likelihoods by option, a head's logits) which one is largest (the first on ties)."""
    if isinstance(value, float):
        return 0
    if isinstance(value, dict):
        shape: dict[str, Any] = {k: _answer(v) for k, v in value.items()}
        numbers = {k: v for k, v in value.items() if _is_number(v)}
        if numbers and all(v is None or k in numbers for k, v in value.items()):
            shape["\x00largest"] = max(numbers, key=numbers.__getitem__)
        return shape
    if isinstance(value, list):
        inner = [_answer(v) for v in value]
        if len(value) > 1 and all(_is_number(v) for v in value):
            inner.append(["\x00largest", max(range(len(value)), key=value.__getitem__)])
        return inner
    return value


def _numbers(value: Any) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, list):
        return [x for v in value for x in _numbers(v)]
    return []


def line_drift(mine: list[Line], theirs: list[Line]) -> tuple[bool, list[float]]:
    """One item across settings: whether its answers are the same (`_answer`), and the |differences| of its
    numbers where its lines pair up (the same answers)."""
    if len(mine) != len(theirs):
        return False, []
    deltas: list[float] = []
    same = True
    for a, b in zip(_order(mine), _order(theirs), strict=True):
        if _answer(a) != _answer(b):
            same = False
            continue
        pairs = zip(_numbers(a), _numbers(b), strict=True)
        deltas += [abs(x - y) for x, y in pairs if math.isfinite(x) and math.isfinite(y)]
    return same, deltas


def read_lines(path: Path) -> list[Line]:
    """A validated prediction file's lines (the validator has read it already: no check is repeated)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _sha256(path: Path) -> str:
    """A file's sha256, read in full: what reproduce checks never comes from a cache."""
    from .hashing import read_sha256

    return read_sha256(path)


def json_line(line: Line) -> str:
    """A prediction line as `neghub run` writes it: the kept answers are the same bytes for the same answers."""
    return json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n"


def _grouped(lines: Sequence[Line], line_item: Callable[[Line], Hashable]) -> dict[Hashable, list[Line]]:
    by_item: dict[Hashable, list[Line]] = {}
    for line in lines:
        by_item.setdefault(line_item(line), []).append(line)
    return by_item


def compare_run(
    file: str,
    submitted: Sequence[Line],
    rerun: Sequence[Line],
    line_item: Callable[[Line], Hashable],
    *,
    tolerance: float,
    comparison: str,
    predictions_sha256: str,
    rerun_sha256: str,
    unexpected_items: int = 0,
    items_not_in_file: int = 0,
) -> ReproducedRun:
    """Compare a run's submitted lines with NegHub's re-run lines, item by item (`line_item` names the item a line
    belongs to): the one comparison `neghub reproduce` records and the write job recomputes from the two kept files.

    The items compared are every item either file holds (the submitted file's order, then any the re-run alone
    holds): an item agrees when its lines agree one for one within `tolerance` (`lines_agree`); the drift (answers
    differing, |differences| of the numbers) is counted either way. `unexpected_items` (items of the file that the
    recorded settings would not run) and `items_not_in_file` (items they run that the file lacks) come from the run's
    plan, which the files alone cannot show; they are recorded as given."""
    theirs_by_item = _grouped(submitted, line_item)
    mine_by_item = _grouped(rerun, line_item)
    keys = [*theirs_by_item, *(key for key in mine_by_item if key not in theirs_by_item)]
    disagreeing = []
    differing = 0
    deltas: list[float] = []
    for key in keys:
        mine, theirs = mine_by_item.get(key, []), theirs_by_item.get(key, [])
        if not lines_agree(mine, theirs, tolerance):
            disagreeing.append(key)
        same, item_deltas = line_drift(mine, theirs)
        differing += not same
        deltas += item_deltas
    return ReproducedRun(
        file=file,
        predictions_sha256=predictions_sha256,
        items_in_run=len(keys),
        items_checked=len(keys),
        items_agreeing=len(keys) - len(disagreeing),
        disagreeing_ids=[_id_text(key) for key in disagreeing[:MAX_DISAGREEING_IDS]],
        unexpected_items=unexpected_items,
        comparison=comparison,
        answers_differing=differing,
        max_abs_delta=max(deltas) if deltas else None,
        median_abs_delta=statistics.median(deltas) if deltas else None,
        rerun_file=file,
        rerun_sha256=rerun_sha256,
        items_not_in_file=items_not_in_file,
    )


def compare_run_files(
    file: str,
    submitted: Path,
    rerun: Path,
    line_item: Callable[[Line], Hashable],
    *,
    tolerance: float,
    comparison: str,
    unexpected_items: int = 0,
    items_not_in_file: int = 0,
) -> ReproducedRun:
    """`compare_run` on two prediction files (the submitted one, NegHub's kept re-run), each hashed as read."""
    return compare_run(
        file,
        read_lines(submitted),
        read_lines(rerun),
        line_item,
        tolerance=tolerance,
        comparison=comparison,
        predictions_sha256=_sha256(submitted),
        rerun_sha256=_sha256(rerun),
        unexpected_items=unexpected_items,
        items_not_in_file=items_not_in_file,
    )


def _id_text(key: Hashable) -> str:
    return " / ".join(map(str, key)) if isinstance(key, tuple) else str(key)
