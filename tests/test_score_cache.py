"""The build's score cache (leaderboard/score_cache.py): a warm build re-scores nothing and publishes what the cold
build did, byte for byte; a changed prediction file, release or scorer misses; a corrupt entry is recomputed; the
folder stays bounded.

The submissions are the site benchmark's realistic ones (perf/realistic_submissions.py), of the numbers whose runs
are NUBench's shipped sample and SCN only: no release outside the package is needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neghub.leaderboard import collect as collect_module
from neghub.leaderboard import score_cache
from neghub.leaderboard.collect import Collected, Leaderboard, collect
from neghub.leaderboard.history import History
from neghub.leaderboard.site import build_pages

from .conftest import realistic_submissions

NO_HISTORY = History(False, "a test's temp folder")
NUMBERS = (3, 11)  # number % 8 == 3: JNLI-Neg left out


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    realistic = realistic_submissions()
    folder = tmp_path / "submissions"
    folder.mkdir()
    items = [json.loads(line) for line in realistic.NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line]
    for number in NUMBERS:
        realistic.write_submission(folder, number, ([], []), items, realistic.scn_triplets())
    return folder


def _build(submissions: Path, cache: Path) -> Leaderboard:
    return collect(submissions, reported=False, history=NO_HISTORY, score_cache=cache)


def _scored(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The submissions this test's builds score (not read from the cache), in order."""
    scored: list[str] = []
    real = collect_module.collect_submission

    def counting(sub_dir: Path, *args: Any) -> Collected:
        scored.append(sub_dir.name)
        return real(sub_dir, *args)

    monkeypatch.setattr(collect_module, "collect_submission", counting)
    return scored


def test_a_warm_build_scores_nothing_and_publishes_the_cold_build_s_files_byte_for_byte(
    submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scored = _scored(monkeypatch)
    cold = _build(submissions, tmp_path / "cache")
    assert scored == ["model-00003", "model-00011"]
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 4  # each submission's entry and its samples'
    warm = _build(submissions, tmp_path / "cache")
    assert scored == ["model-00003", "model-00011"]  # nothing more
    assert {r.submission_id for r in warm.rows if r.kind == "verified"} == {"model-00003", "model-00011"}
    assert warm.file.model_dump_json(indent=1) == cold.file.model_dump_json(indent=1)
    assert build_pages(warm) == build_pages(cold)


def test_a_changed_prediction_file_misses_its_submission_only(
    submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(submissions, tmp_path / "cache")
    scored = _scored(monkeypatch)
    changed = submissions / "model-00011" / "predictions" / "nubench" / "completion.jsonl"
    lines = changed.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["loglikelihoods"]["choice3"] = 0.5  # now the model's choice
    changed.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    board = _build(submissions, tmp_path / "cache")
    assert scored == ["model-00011"]
    fresh = collect(submissions, reported=False, history=NO_HISTORY)  # no cache at all
    assert board.file.model_dump_json() == fresh.file.model_dump_json()


@pytest.mark.parametrize("changed", ["release_digests", "scorer_version"])
def test_another_release_or_scorer_misses_every_entry(
    changed: str, submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(submissions, tmp_path / "cache")
    scored = _scored(monkeypatch)
    real = getattr(score_cache, changed)
    if changed == "release_digests":
        monkeypatch.setattr(score_cache, changed, lambda: {**real(), "nubench": "0" * 64 + " task version 9"})
    else:
        monkeypatch.setattr(score_cache, changed, lambda: real() + " (edited)")
    _build(submissions, tmp_path / "cache")
    assert scored == ["model-00003", "model-00011"]


def test_the_scorer_version_changes_with_any_source_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "evaluator" / "benchmarks" / "scorer.py"
    source.parent.mkdir(parents=True)
    source.write_text("ACCURACY = 1\n", encoding="utf-8")
    monkeypatch.setattr(score_cache, "_SOURCES", (tmp_path / "evaluator",))
    before = score_cache.scorer_version()
    source.write_text("ACCURACY = 2\n", encoding="utf-8")
    assert score_cache.scorer_version() != before


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "empty", "another format"])
def test_a_corrupt_entry_is_recomputed(
    damage: str, submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = _build(submissions, tmp_path / "cache")
    for entry in (tmp_path / "cache").glob("*.pickle"):
        data = entry.read_bytes()
        entry.write_bytes(
            {
                "flipped byte": data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:],
                "truncated": data[: len(data) // 2],
                "empty": b"",
                "another format": b"neghub-scores 0\n" + data[16:],
            }[damage]
        )
    scored = _scored(monkeypatch)
    warm = _build(submissions, tmp_path / "cache")
    assert scored == ["model-00003", "model-00011"]
    assert warm.file.model_dump_json() == cold.file.model_dump_json()
    scored.clear()
    _build(submissions, tmp_path / "cache")  # rewritten whole: read again
    assert scored == []


def test_the_cache_keeps_what_the_build_used_and_a_bounded_spare(
    submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    for number in range(10):  # entries no build of these submissions uses (a removed submission's)
        (cache / f"{number:064x}.pickle").write_bytes(b"stale")
    monkeypatch.setattr(score_cache, "SPARE", 1)
    _build(submissions, cache)
    # the four used (two submissions, each with its samples' entry), and of the stale ones the newest up to as many
    assert len(list(cache.glob("*.pickle"))) == 8


def test_a_warm_build_reads_the_board_samples_of_the_first_submission_alone_and_rescores_it_without_them(
    submissions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board's rule rows are computed on its first submission's sample: the other submissions' samples (most of
    an entry's bytes) are not read; where the first's are gone, that submission alone is scored again."""
    cold = _build(submissions, tmp_path / "cache")
    cache = score_cache.ScoreCache(tmp_path / "cache")
    keys = cache.keys(sorted(submissions.iterdir()), None)
    parts = [tmp_path / "cache" / f"{cache.part_key(key, collect_module.SAMPLES)}.pickle" for key in keys]
    assert all(part.is_file() for part in parts)
    read: list[str] = []
    real_get = score_cache.ScoreCache.get

    def reading(self: score_cache.ScoreCache, key: str) -> Any:
        read.append(key)
        return real_get(self, key)

    monkeypatch.setattr(score_cache.ScoreCache, "get", reading)
    scored = _scored(monkeypatch)
    warm = _build(submissions, tmp_path / "cache")
    assert parts[0].stem in read and parts[1].stem not in read  # model-00003 is first on each of its boards
    assert scored == []
    parts[0].unlink()
    again = _build(submissions, tmp_path / "cache")
    assert scored == ["model-00003"]
    assert warm.file.model_dump_json() == cold.file.model_dump_json() == again.file.model_dump_json()


def test_neghub_cache_off_keeps_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(score_cache.CACHE_ENV, "off")
    assert score_cache.cache_folder(tmp_path) is None
    monkeypatch.setenv(score_cache.CACHE_ENV, str(tmp_path / "elsewhere"))
    assert score_cache.cache_folder(tmp_path) == tmp_path / "elsewhere"
    monkeypatch.delenv(score_cache.CACHE_ENV)
    assert score_cache.cache_folder(tmp_path) == tmp_path / ".cache" / "neghub-scores"


def test_a_second_build_scores_no_kept_answers_of_neghubs_re_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answers NegHub's re-run kept (kept_answers.py) go through the score cache too: a second build reads them
    from it, with the same figures."""
    from .histories import Main
    from .reproduction_records import landed_rerun

    realistic = realistic_submissions()
    main = Main.create(tmp_path / "repo")
    written = tmp_path / "written"
    items = [json.loads(line) for line in realistic.NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line]
    realistic.write_submission(written, 3, ([], []), items, realistic.scn_triplets())
    files = {
        f"submissions/{path.relative_to(written).as_posix()}": path.read_bytes()
        for path in sorted(written.rglob("*"))
        if path.is_file()
    }
    main.merge(1, realistic.account(3), dict(files))
    main.push("NegHub's re-run of model-00003", dict(landed_rerun(main.root, "model-00003")))
    scored = _scored(monkeypatch)
    cache = tmp_path / "cache"
    cold = collect(main.root / "submissions", reported=False, score_cache=cache)
    rerun = [r for r in cold.rows if r.kind == "verified" and r.record is not None and r.record.rerun]
    # every row's figures are NegHub's, scored from the kept answers (the submitter's headline kept beside them)
    assert rerun and all(r.record is not None and r.record.accepted for r in rerun)
    assert any(r.submitted_headline is not None for r in rerun)
    assert scored == ["model-00003", "model-00003"]  # the submission, then NegHub's kept answers
    warm = collect(main.root / "submissions", reported=False, score_cache=cache)
    assert scored == ["model-00003", "model-00003"]  # nothing more
    assert warm.file.model_dump_json(indent=1) == cold.file.model_dump_json(indent=1)


def test_a_half_written_entry_is_removed_once_stale_never_while_another_build_may_be_writing_it(
    submissions: Path, tmp_path: Path
) -> None:
    """Two builds may share a cache (`mkdocs serve` beside a build): pruning removed the other's entry while it was
    being written, and its rename then failed. A half-written entry is removed only once it is an hour old."""
    import os
    import time

    cache = tmp_path / "cache"
    cache.mkdir()
    writing, killed = cache / f".{'a' * 64}.pickle.4242", cache / f".{'b' * 64}.pickle.4343"
    writing.write_bytes(b"half")
    killed.write_bytes(b"half")
    two_hours_ago = time.time() - 7200
    os.utime(killed, (two_hours_ago, two_hours_ago))
    _build(submissions, cache)
    assert writing.is_file() and not killed.exists()
