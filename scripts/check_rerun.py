"""The GPU re-run's record checked before its pull request opens (gpu-reproduce.yml's `check` job): the agreement
recomputed from the files, never read from the counts the GPU job wrote.

The GPU job keeps its re-run's answers beside the record (Contract R: `reproductions/<id>/<run.file>`, sha256 in
`rerun_sha256`). This check, run by the default branch's code installed from a hashed lock in a job with no write
permission, reads each kept file and the submitted one, and compares them item by item with the reproduction's own
comparison (`compare_files` below: the one place it is called from; evaluator/runners/reproduce.py owns the
comparison). A record whose counts differ from the recomputed ones, whose kept file is missing or not the file its
sha256 names, is refused: one line each, exit code 2, and the workflow opens no pull request.

`python scripts/check_rerun.py SUBMISSION_FOLDER RECORD` (nox -s reproduction_check). A script, not a leaderboard
module: the leaderboard imports no runner (pyproject.toml's import contracts).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import yaml

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.runners import reproduce
from neghub.evaluator.submissions.format import Metadata
from neghub.evaluator.submissions.reproduction import Reproduction

Line = dict[str, Any]


def _lines(path: Path) -> list[Line]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def compare_files(submitted: Path, rerun: Path, tolerance: float) -> tuple[int, int, int]:
    """(items checked, items agreeing, items submitted that the re-run did not answer) of a kept re-run file against
    the submitted one. Delegates to the reproduction's own comparison of kept files where it has one
    (`reproduce.compare_kept`); else pairs items by their `id` with `reproduce.lines_agree`, and refuses a file
    whose lines carry none (the item key of such a run is its benchmark's, which only the reproduction knows)."""
    compare_kept = getattr(reproduce, "compare_kept", None)
    if compare_kept is not None:
        checked, agreeing, unexpected = compare_kept(submitted, rerun, tolerance)
        return int(checked), int(agreeing), int(unexpected)
    mine, theirs = _lines(rerun), _lines(submitted)
    if not all("id" in line for line in (*mine, *theirs)):
        raise InputError.single(str(rerun), "its lines carry no `id`: the agreement cannot be recomputed here")
    by_item: dict[Hashable, list[Line]] = {}
    for line in theirs:
        by_item.setdefault(json.dumps(line["id"]), []).append(line)
    rerun_items: dict[Hashable, list[Line]] = {}
    for line in mine:
        rerun_items.setdefault(json.dumps(line["id"]), []).append(line)
    agreeing = sum(reproduce.lines_agree(lines, by_item.get(key, []), tolerance) for key, lines in rerun_items.items())
    unexpected = sum(1 for key in by_item if key not in rerun_items)
    return len(rerun_items), agreeing, unexpected


def record_problems(folder: Path, record_path: Path) -> list[str]:
    """Why the record at `record_path` of the submission in `folder` may not be opened as a pull request."""
    record = Reproduction.model_validate_json(record_path.read_text(encoding="utf-8"))
    metadata = Metadata.model_validate(yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8")))
    listed = {run.file for run in metadata.runs}
    kept = record_path.parent / record_path.stem
    tolerance = float(getattr(record, "tolerance", None) or reproduce.DEFAULT_TOLERANCE)
    problems = []
    for run in record.runs:
        where = f"{record_path.name}: {run.file}"
        rerun_file = getattr(run, "rerun_file", None)
        if run.file not in listed:
            problems.append(f"{where}: not a run of submissions/{folder.name}")
            continue
        if rerun_file is None:
            problems.append(f"{where}: names no kept re-run file (rerun_file): nothing to recompute the agreement from")
            continue
        path = kept / rerun_file
        if not path.is_file():
            problems.append(f"{where}: the kept re-run file {path.as_posix()} is missing")
            continue
        if hashlib.sha256(path.read_bytes()).hexdigest() != getattr(run, "rerun_sha256", None):
            problems.append(f"{where}: {path.as_posix()} is not the file its rerun_sha256 names")
            continue
        checked, agreeing, unexpected = compare_files(folder / run.file, path, tolerance)
        recorded = (run.items_checked, run.items_agreeing, run.unexpected_items)
        if recorded != (checked, agreeing, unexpected):
            problems.append(
                f"{where}: the record says {recorded[1]}/{recorded[0]} items agree ({recorded[2]} unexpected); its "
                f"files say {agreeing}/{checked} ({unexpected} unexpected): the record's counts are not trusted"
            )
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python scripts/check_rerun.py SUBMISSION_FOLDER RECORD", file=sys.stderr)
        return 2
    try:
        problems = record_problems(Path(argv[0]), Path(argv[1]))
    except (InputError, OSError, ValueError) as error:
        problems = [str(error)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 2 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
