"""Regenerate the baseline submissions in submissions/ (run by `nox -s baselines`).

Each baseline kind is one submission, `submissions/baseline-<kind>/`, whose runs are the predictions
`neghub baseline` writes for every benchmark that declares a run of that kind (`Benchmark.baseline_runs`,
each benchmark's choice of the splits and modes it has data for here). Everything is seeded and dated with a
fixed date, so running this twice gives the same bytes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from neghub.evaluator.core.registry import benchmarks

ROOT = Path(__file__).resolve().parents[1]
SUBMISSIONS = ROOT / "submissions"
DATE = "2025-06-01"  # fixed: a regenerated baseline must be byte-identical
SEED = 0
RANDOM_KINDS = ("random",)  # the kinds that draw with SEED; the others are deterministic
DESCRIPTIONS = {
    "majority": "Always answers the most frequent gold label of the train split.",
    "random": "Answers uniformly at random (numpy default_rng, seed 0).",
    "first": "Always picks the option shown first (letter A) in the option-mode shuffle.",
    "repeat": "Cloze test: always answers the verb, so every drop is 0.",
    "never": "Cloze test: answers the verb only for the reference pattern, so every other drop is 1.",
}


def baselines() -> dict[str, list[tuple[str, str | None, str | None]]]:
    """kind -> its runs (task, split, mode), from the registry."""
    out: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for benchmark in benchmarks():
        for kind, runs in benchmark.baseline_runs.items():
            out.setdefault(kind, []).extend((benchmark.name, run.split, run.mode) for run in runs)
    return out


def run_file(task: str, split: str | None, mode: str | None) -> str:
    stem = "-".join(part for part in (split, mode) if part) or "predictions"
    return f"predictions/{task}/{stem}.jsonl"


def make(kind: str) -> Path:
    folder = SUBMISSIONS / f"baseline-{kind}"
    if folder.exists():
        shutil.rmtree(folder)
    runs: list[dict[str, Any]] = []
    for task, split, mode in baselines()[kind]:
        file = run_file(task, split, mode)
        command = ["neghub", "baseline", task, "--kind", kind, "--seed", str(SEED), "-o", str(folder / file)]
        command += ["--split", split] if split else []
        command += ["--mode", mode] if mode else []
        subprocess.run(command, check=True)
        seed = SEED if kind in RANDOM_KINDS else None
        runs.append({"task": task, "split": split, "file": file, "shots": 0, "seed": seed, "mode": mode})
    metadata = {
        "model": {
            "kind": "baseline",
            "name": f"Baseline: {kind}",
            "baseline": kind,
            "parameters": 0,
            "open_weights": True,
            "license": "Apache-2.0",
        },
        "submitter": {"name": "NegHub", "contact": "https://github.com/neghub/neghub"},
        "date": DATE,
        "description": DESCRIPTIONS[kind] + " Made by neghub baseline; a floor row, not a language model.",
        "runs": runs,
    }
    text = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True, default_flow_style=False)
    (folder / "metadata.yaml").write_text(text, encoding="utf-8")
    return folder


def main() -> int:
    folders = [make(kind) for kind in baselines()]
    return subprocess.run(["neghub", "validate", *map(str, folders)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
