"""Re-score every submission twice and fail unless the two results are byte-identical (`nox -s rescore`).

Usage: rescore.py [FOLDER ...]   (submission folders, or folders of submissions; default: submissions/)

Scores are never trusted from a submission: whatever reads results re-scores the predictions with
the pinned dataset, so a re-score must be reproducible to the byte (seeded bootstraps, no clocks,
no absolute paths in results).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from neghub.evaluator.core.benchmark import EvalOptions
from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.submissions.format import Metadata

ROOT = Path(__file__).resolve().parents[1]


def score_bytes(folder: Path) -> dict[str, bytes]:
    """Run file -> the canonical bytes of its result (one submission, already validated)."""
    metadata = Metadata.model_validate(safe_yaml.load((folder / "metadata.yaml").read_text(encoding="utf-8")).value)
    out = {}
    for run in metadata.runs:
        options = EvalOptions(split=run.split, mode=run.mode, display_name=f"{folder.name}/{run.file}")
        result = get_benchmark(run.task).evaluate(folder / run.file, options)
        out[run.file] = json.dumps(
            result.model_dump(mode="json"), ensure_ascii=False, allow_nan=False, sort_keys=True
        ).encode()
    return out


def submission_folders(paths: list[Path]) -> list[Path]:
    """Each path that is a submission (it has a metadata.yaml), or the submissions inside it."""
    found: list[Path] = []
    for path in paths:
        if (path / "metadata.yaml").is_file():
            found.append(path)
        else:
            found += sorted(p for p in path.iterdir() if (p / "metadata.yaml").is_file())
    return found


def main(argv: list[str]) -> int:
    differing = []
    for folder in submission_folders([Path(a) for a in argv] or [ROOT / "submissions"]):
        first, second = score_bytes(folder), score_bytes(folder)
        differing += [f"{folder.name}/{file}" for file in first if first[file] != second.get(file)]
        print(f"{folder.name}: {len(first)} runs re-scored twice")
    for name in differing:
        print(f"error: {name}: two re-scores differ", file=sys.stderr)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
