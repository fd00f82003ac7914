"""How many prediction lines per second `neghub validate` checks, against jsonschema line by line.

The submission is one SCN prediction file (SCN needs no dataset, so the file can be made as large
as wanted): 4 variants x 5 patterns for as many (name, profession, verb) triplets as it takes.
The validator does everything it does for a real pull request: folder walk, metadata, strict
JSONL parsing, SCN's checks and scoring, NegHub's word lists. The baseline parses each line with
json.loads and validates it with the published schema (Draft202012Validator.is_valid), which checks
far less (no completeness, duplicates or word lists). Target: at least 10 times faster.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import jsonschema

from evaluator.schemas import DEFAULT_DIR
from evaluator.scn import PATTERNS, VARIANTS, load_word_lists
from evaluator.validate import validate_submission

TRIPLETS_PER_VARIANT = 10_000  # 4 variants x 5 patterns -> 200,000 lines
JSONSCHEMA_SAMPLE = 20_000  # jsonschema is timed on a sample and reported per line

METADATA = """model: {kind: baseline, name: Benchmark, baseline: repeat, parameters: 0, open_weights: true,
  license: MIT}
submitter: {name: NegHub, contact: https://github.com/neghub/neghub}
date: "2025-06-01"
description: Benchmark submission.
runs:
  - {task: scn, split: null, file: predictions/scn/run.jsonl, shots: 0}
"""


def make_lines() -> list[bytes]:
    lists = load_word_lists()
    names = lists.female_names + lists.male_names
    lines: list[bytes] = []
    count = 0
    for name in names:
        for profession in lists.professions:
            for verb in lists.verbs[:20]:
                if count == TRIPLETS_PER_VARIANT:
                    return lines
                count += 1
                for variant in VARIANTS:
                    for pattern in PATTERNS:
                        row = {
                            "name": name,
                            "profession": profession,
                            "verb": verb,
                            "variant": variant,
                            "pattern": pattern,
                            "top1": verb if pattern == "CpTp" else "sing",
                        }
                        lines.append(json.dumps(row).encode())
    return lines


def main() -> int:
    lines = make_lines()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench-submission"
        (folder / "predictions" / "scn").mkdir(parents=True)
        (folder / "metadata.yaml").write_text(METADATA, encoding="utf-8")
        (folder / "predictions" / "scn" / "run.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        validate_submission(folder)  # warm-up: word lists, imports
        started = time.perf_counter()
        problems = validate_submission(folder)
        validator_s = time.perf_counter() - started
    if problems:
        print("\n".join(str(p) for p in problems[:5]), file=sys.stderr)
        return 1
    schema = json.loads((DEFAULT_DIR / "prediction-scn.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    sample = lines[:JSONSCHEMA_SAMPLE]
    started = time.perf_counter()
    ok = all(validator.is_valid(json.loads(line)) for line in sample)
    jsonschema_s = time.perf_counter() - started
    assert ok
    validator_rate = len(lines) / validator_s
    jsonschema_rate = len(sample) / jsonschema_s
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    print(f"neghub validate: {len(lines):,} lines in {validator_s:.3f} s = {validator_rate:,.0f} lines/s")
    print(f"jsonschema per line: {len(sample):,} lines in {jsonschema_s:.3f} s = {jsonschema_rate:,.0f} lines/s")
    print(f"ratio: {validator_rate / jsonschema_rate:.1f}x (target >= 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
