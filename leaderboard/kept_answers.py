"""NegHub's figure of a submitted row: the answers NegHub's re-run kept (Contract R), scored like any prediction file.

A schema-5 reproduction record keeps NegHub's own answers to each run it re-ran at `reproductions/<id>/<run.file>`.
Where evidence.py accepts the record, the build scores those files under the submission's metadata (the runs
re-run alone), and the row's figures, answers and items become NegHub's: the figure it is ranked by. The
submitter's headline stays beside it (`RowFacts.submitted_headline`), and the two sets of answers are compared for
the agreement mark (verdicts' rerun-agreement), which never holds a row: an honest bf16 run from other hardware
ranks by NegHub's figure. The kept files are scored through the build's score cache (score_cache.py, keyed by their
sha256s, the releases and the scorer's version), so that a warm build scores none of them again.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..evaluator.core.registry import benchmark_names
from ..evaluator.submissions.format import Metadata
from ..evaluator.submissions.reproduction import Reproduction
from .decision import shared_difference
from .facts import RowFacts
from .score_cache import ScoreCache


def neghubs_figures(
    rows: list[RowFacts],
    sub_dir: Path,
    metadata: Metadata,
    records: dict[str, tuple[Path, Reproduction]],
    reproductions_dir: Path,
    data_dir: Path | None,
    cache: ScoreCache | None = None,
) -> list[RowFacts]:
    """A submission's rows with NegHub's figures where its accepted record kept NegHub's re-run answers (Contract R):
    the kept files are scored like any prediction file, and the row's figures, answers and items become NegHub's;
    the submitter's headline stays beside them (`submitted_headline`) and the two sets of answers are compared for
    the agreement mark. A kept file that is missing or not the one the record names leaves the row not run."""
    if not any(r.record is not None and r.record.rerun for r in rows):
        return rows
    found = records[sub_dir.name][1]
    scored, why_not = _score_kept_answers(sub_dir.name, metadata, found, reproductions_dir, data_dir, cache)
    out = []
    for row in rows:
        record = row.record
        if record is None or not record.rerun:
            out.append(row)
            continue
        neghubs = scored.get(row.id)
        if neghubs is None:
            words = f"not run by NegHub: {why_not or 'NegHub did not re-run every run of this row'}"
            out.append(dataclasses.replace(row, record=dataclasses.replace(record, accepted=False, words=words)))
            continue
        differ, shared = shared_difference(row, neghubs)
        out.append(
            dataclasses.replace(
                row,
                metrics=neghubs.metrics,
                sd=neghubs.sd,
                headline_items=neghubs.headline_items,
                answers=neghubs.answers,
                correct=neghubs.correct,
                verdict=neghubs.verdict,
                verdict_value=neghubs.verdict_value,
                ignored=neghubs.ignored,
                not_rankable=neghubs.not_rankable,
                submitted_headline=row.headline,
                submitted_headline_ci=row.headline_ci,
                record=dataclasses.replace(record, compared=shared, differing=differ),
            )
        )
    return out


def _score_kept_answers(
    sid: str,
    metadata: Metadata,
    record: Reproduction,
    reproductions_dir: Path,
    data_dir: Path | None,
    cache: ScoreCache | None,
) -> tuple[dict[str, RowFacts], str | None]:
    """NegHub's rows of submission `sid` scored from the answers its record kept (the runs it re-ran alone, under
    the submission's metadata), or why none: a kept file missing or not the one the record names. The folder they
    are scored from (the kept files, and the metadata of the runs re-run) is looked up in the score cache first."""
    import hashlib
    import shutil
    import tempfile

    import yaml

    kept = reproductions_dir / sid
    rerun = {run.file: run for run in record.runs}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / sid
        folder.mkdir()
        for run in record.runs:
            source = kept / (run.rerun_file or run.file)
            if not source.is_file() or source.is_symlink():
                return {}, f"the answers NegHub's record kept are not here ({run.rerun_file})"
            if hashlib.sha256(source.read_bytes()).hexdigest() != run.rerun_sha256:
                return {}, f"the kept answers {run.rerun_file} are not the file NegHub's record names"
            target = folder / run.file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        runs = [r for r in metadata.runs if r.file in rerun]
        shown = metadata.model_copy(update={"runs": runs}).model_dump(mode="json", exclude_unset=True)
        (folder / "metadata.yaml").write_text(yaml.safe_dump(shown, allow_unicode=True), encoding="utf-8")
        from .collect import Collected, collect_submission  # the one scoring path: kept answers are scored as files are

        key = "" if cache is None else cache.keys([folder], data_dir, kind="kept answers")[0]
        hit = None if cache is None else cache.get(key)
        if isinstance(hit, Collected):
            collected = hit
        else:
            collected = collect_submission(folder, data_dir, benchmark_names())
            # its views and board samples are the submission's to show, not these rows': not kept
            collected = dataclasses.replace(collected, views={}, samples={})
            if cache is not None and not any(note.unreadable for note in collected.notes):
                cache.put(key, collected)
    if collected.metadata is None:
        messages = [m for note in collected.notes for m in note.messages]
        return {}, f"NegHub's kept answers did not score ({messages[0] if messages else 'refused'})"
    return {r.id: r for r in collected.rows if r.kind == "verified"}, None
