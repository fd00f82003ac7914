"""An SCN submission as the validator benchmarks make it (bench_validate.py, bench_hostile_submissions.py): one
prediction file of well-formed lines, each triplet of NegHub's lists in every variant and pattern (the verb at
CpTp, "sing" elsewhere), the first 20 verbs of every (name, profession), in list order."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from neghub.evaluator.benchmarks.scn import PATTERNS, VARIANTS, load_word_lists, prediction_row

METADATA = """model: {kind: local, name: Benchmark, file: benchmark, parameters: 1, open_weights: true, license: MIT}
submitter: {name: NegHub, contact: https://github.com/neghub/neghub, github: neghub}
date: "2025-06-01"
description: Benchmark submission.
runs:
  - {task: scn, split: null, file: predictions/scn/run.jsonl, shots: 0}
"""


def triplet_lines() -> Iterator[list[bytes]]:
    """The lines of each triplet in turn (JSON, no line end)."""
    lists = load_word_lists()
    for name in lists.female_names + lists.male_names:
        for profession in lists.professions:
            for verb in lists.verbs[:20]:
                yield [
                    json.dumps(
                        prediction_row(name, profession, verb, variant, pattern, verb if pattern == "CpTp" else "sing")
                    ).encode()
                    for variant in VARIANTS
                    for pattern in PATTERNS
                ]


def write_submission(folder: Path, data: bytes) -> Path:
    """A submission folder holding `data` as its one SCN run."""
    (folder / "predictions" / "scn").mkdir(parents=True)
    (folder / "metadata.yaml").write_text(METADATA, encoding="utf-8")
    (folder / "predictions" / "scn" / "run.jsonl").write_bytes(data)
    return folder
