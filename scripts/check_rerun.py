"""The GPU re-run's record checked before its pull request opens (gpu-reproduce.yml's `check` job): the agreement
recomputed from the files, never read from the counts the GPU job wrote.

The GPU job keeps its re-run's answers beside the record (Contract R: `reproductions/<id>/<run.file>`, sha256 in
`rerun_sha256`). This check, run by the default branch's code installed from a hashed lock in a job with no write
permission, reads each kept file and the submitted one, and compares them item by item with the reproduction's own
comparison (`reproduce.recheck_record`, which recomputes every figure of each run with `compare_run`: the one
place the comparison lives). A record whose counts differ from the recomputed ones, whose kept file is missing or
not the file its sha256 names, is refused: one line each, exit code 2, and the workflow opens no pull request.

`python scripts/check_rerun.py SUBMISSION_FOLDER RECORD` (nox -s reproduction_check). A script, not a leaderboard
module: the leaderboard imports no runner (pyproject.toml's import contracts).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import yaml

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.runners import reproduce
from neghub.evaluator.submissions.format import Metadata
from neghub.evaluator.submissions.reproduction import Reproduction


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
    if not problems:
        # every run's agreement recomputed from the two files with the reproduction's own comparison
        problems += [
            f"{record_path.name}: {line}"
            for line in reproduce.recheck_record(folder, kept, record, tolerance=tolerance)
        ]
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
