"""The build's memory at a thousand submissions (issue 37, item 6): what every row of a board shares is held once.

Rows come back pickled, from the score cache or a scoring worker, each with its own copies of what every row of its
board shares: JNLI-Neg's 1,363 item ids and as many clusters (the source pair of each M_i unit) a row. Held per row
they were about 40 MB each at 1,000 submissions; `collect._shared` makes them one object again. A structural test,
not a memory figure: it fails when a shared field comes back as a row's own copy.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from neghub.leaderboard.collect import collect
from neghub.leaderboard.history import History

from .conftest import ROOT

NO_HISTORY = History(False, "a test's temp folder")


def _realistic() -> ModuleType:
    spec = importlib.util.spec_from_file_location("realistic_submissions", ROOT / "perf" / "realistic_submissions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rows_read_from_the_score_cache_share_their_boards_item_ids_and_clusters(
    split: tuple[list[int], list[str]], tmp_path: Path
) -> None:
    realistic = _realistic()
    folder = tmp_path / "submissions"
    folder.mkdir()
    items = [json.loads(line) for line in realistic.NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line]
    for number in (0, 1):  # number % 8 != 3: both run JNLI-Neg
        realistic.write_submission(folder, number, split, items, realistic.scn_triplets())
    collect(folder, reported=False, history=NO_HISTORY, score_cache=tmp_path / "cache")  # cold: writes the entries
    warm = collect(folder, reported=False, history=NO_HISTORY, score_cache=tmp_path / "cache")
    by_board: dict[str, list] = {}  # type: ignore[type-arg]
    for row in warm.facts:
        if row.kind == "verified" and row.headline_clusters is not None:
            by_board.setdefault(row.key.slug, []).append(row)
    assert by_board and all(len(rows) == 2 for rows in by_board.values())  # what is compared exists
    for rows in by_board.values():
        first, second = rows
        assert first.headline_items is not None and second.headline_items is not None
        assert first.headline_items[0] is second.headline_items[0]
        assert first.headline_clusters == second.headline_clusters
        assert first.headline_clusters is second.headline_clusters
