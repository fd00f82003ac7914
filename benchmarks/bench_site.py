"""Site build time against the number of submissions: 0 (the baseline, timed in the same run), 200 and 800.

The submissions are synthetic NUBench completion-mode runs on the sample shipped in the package
(two seeds each), written to a temp folder; the build is the real `mkdocs build` from the
repository root with NEGHUB_SUBMISSIONS_DIR pointing at them. Growth must be no faster than
linear: the cost above the empty build, per submission, must not rise from 200 to 800. (At 10
submissions that cost, about 10 ms each, is smaller than the empty build's run-to-run noise, so a
ratio taken there says nothing.)
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUBENCH_TEST = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
SIZES = (200, 800)
REPEATS = 3
# the cost per submission at 800 may exceed the one at 200 by this factor (timing noise) and still be linear
TOLERANCE = 1.25


def write_submissions(folder: Path, count: int) -> None:
    items = [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line.strip()]
    for number in range(count):
        sub = folder / f"synthetic-{number:04d}"
        runs = []
        for seed in range(2):
            rel = f"predictions/nubench/seed-{seed}.jsonl"
            lines = []
            for position, item in enumerate(items):
                # a different, deterministic pattern of right and wrong answers per submission and seed
                best = ("choice1", "choice3", "choice4")[(position * (number + 1) + seed) % 3]
                scores = {"choice1": -3.0, "choice2": -3.0, "choice3": -3.0, "choice4": -3.0, best: -1.0}
                if item["choice2_type"] == "non-applicable":
                    scores["choice2"] = None
                lines.append(json.dumps({"id": item["index"], "loglikelihoods": scores}))
            (sub / rel).parent.mkdir(parents=True, exist_ok=True)
            (sub / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
            runs.append(
                f"  - task: nubench\n    split: test\n    file: {rel}\n    shots: 0\n    seed: {seed}\n"
                "    mode: completion\n"
            )
        (sub / "metadata.yaml").write_text(
            "model:\n  kind: baseline\n"
            f'  name: "Synthetic model {number}"\n'
            "  baseline: synthetic\n  parameters: 0\n  open_weights: true\n  license: Apache-2.0\n"
            "submitter:\n  name: Benchmark\n  contact: https://example.org/bench\n"
            'date: "2025-01-01"\ndescription: Synthetic submission for the site build benchmark.\n'
            "runs:\n" + "".join(runs),
            encoding="utf-8",
        )


def build_seconds(submissions: Path, out: Path) -> float:
    env = {**os.environ, "NEGHUB_SUBMISSIONS_DIR": str(submissions), "NO_MKDOCS_2_WARNING": "1"}
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        timings: dict[int, float] = {}
        for count in (0, *SIZES):
            folder = base / f"subs-{count}"
            folder.mkdir()
            write_submissions(folder, count)
            timings[count] = build_seconds(folder, base / f"out-{count}")
            print(f"{count:4d} submissions: {timings[count]:7.2f} s (best of {REPEATS})")
    small, large = SIZES
    per_small = (timings[small] - timings[0]) / small
    per_large = (timings[large] - timings[0]) / large
    print(
        f"ratio build({large}) / build({small}): {timings[large] / timings[small]:.2f} (submissions ×{large // small})"
    )
    print(
        f"per submission above the empty build: {per_small * 1000:.1f} ms at {small}, "
        f"{per_large * 1000:.1f} ms at {large}"
    )
    linear = per_large <= per_small * TOLERANCE
    print("growth no faster than linear: " + ("yes" if linear else "NO"))
    return 0 if linear else 1


if __name__ == "__main__":
    raise SystemExit(main())
