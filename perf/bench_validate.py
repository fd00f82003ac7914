"""How many prediction lines per second `neghub validate` checks, against jsonschema line by line.

The submission is one SCN prediction file (SCN needs no dataset, so the file can be made as large
as wanted): 4 variants x 5 patterns for as many (name, profession, verb) triplets as it takes.
The validator does everything it does for a real pull request: folder walk, metadata, strict
JSONL parsing, SCN's checks and scoring, NegHub's word lists. The baseline parses each line with
json.loads and validates it with the published schema (Draft202012Validator.is_valid), which checks
far less (no completeness, duplicates or word lists). Target: at least 10 times faster.

A usual file (every line a flat object of the six string fields in one key order, without escapes,
as `neghub run`, `neghub baseline` and json.dumps write it) is read a column at a time; any other file
line by line with the exact messages. The benchmark times both: the same lines, then the same lines
with the first line's keys reversed, which sends the whole file the line-by-line way. The three
timings take turns in each round; medians are reported (--repeats, default 5).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import jsonschema
from measured import machine_line, require
from scn_submission import triplet_lines, write_submission

from neghub.evaluator.submissions.schemas import DEFAULT_DIR
from neghub.evaluator.submissions.validation import validate_submission

TRIPLETS_PER_VARIANT = 10_000  # 4 variants x 5 patterns -> 200,000 lines
JSONSCHEMA_SAMPLE = 20_000  # jsonschema is timed on a sample and reported per line


def make_lines(triplets: int) -> list[bytes]:
    return [line for block in islice(triplet_lines(), triplets) for line in block]


def _seconds(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds; each times all three, medians reported")
    parser.add_argument(
        "--triplets",
        type=int,
        default=TRIPLETS_PER_VARIANT,
        help="triplets per variant, 20 lines each (fewer: a check of the script, not a measurement)",
    )
    args = parser.parse_args()
    lines = make_lines(args.triplets)
    require(bool(lines), f"no prediction line made from --triplets {args.triplets}")
    schema = json.loads((DEFAULT_DIR / "prediction-scn.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    sample = lines[:JSONSCHEMA_SAMPLE]
    assert all(validator.is_valid(json.loads(line)) for line in sample)
    with tempfile.TemporaryDirectory() as tmp:
        usual = write_submission(Path(tmp) / "usual", b"\n".join(lines) + b"\n")
        # the same lines but the first with its keys reversed: the file is no longer in one key order,
        # so every line goes through the line-by-line reader (what an unusual file costs)
        first = json.loads(lines[0])
        odd_lines = [json.dumps(dict(reversed(first.items()))).encode(), *lines[1:]]
        odd = write_submission(Path(tmp) / "odd", b"\n".join(odd_lines) + b"\n")
        for folder in (usual, odd):
            problems = validate_submission(folder)  # also the warm-up: word lists, imports
            if problems:
                print("\n".join(str(p) for p in problems[:5]), file=sys.stderr)
                return 1
        runs: list[Callable[[], object]] = [
            lambda: validate_submission(usual),
            lambda: all(validator.is_valid(json.loads(line)) for line in sample),
            lambda: validate_submission(odd),
        ]
        # the three take turns within each round, so a change in machine load hits them alike
        rounds = [[_seconds(run) for run in runs] for _ in range(args.repeats)]
        validator_s, jsonschema_s, odd_s = (statistics.median(column) for column in zip(*rounds, strict=True))
    validator_rate = len(lines) / validator_s
    jsonschema_rate = len(sample) / jsonschema_s
    odd_rate = len(lines) / odd_s
    print(f"{machine_line()}; medians of {args.repeats} rounds")
    print(f"inputs: {len(lines):,} SCN prediction lines, accepted by neghub validate before timing")
    print(f"neghub validate: {len(lines):,} lines in {validator_s:.3f} s = {validator_rate:,.0f} lines/s")
    print(f"jsonschema per line: {len(sample):,} lines in {jsonschema_s:.3f} s = {jsonschema_rate:,.0f} lines/s")
    ratio = validator_rate / jsonschema_rate
    print(f"ratio: {ratio:.1f}x (target >= 10x): {'met' if ratio >= 10 else 'NOT met'}")
    print(
        f"the same file with one line in another key order (line-by-line reader): {odd_s:.3f} s = "
        f"{odd_rate:,.0f} lines/s, {odd_rate / jsonschema_rate:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
