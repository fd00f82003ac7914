"""Regenerate the baseline submissions in submissions/ (run by `nox -s baselines`).

Each baseline kind is one submission, `submissions/baseline-<kind>/`, whose runs are the
predictions `neghub baseline` writes for every task that has data in CI and supports that kind:
JNLI-Neg (valid split of ../shared/datasets), NUBench (the bundled sample, both modes) and SCN.
JSTS-Neg has no pinned release, so it has no baseline submission. Everything is seeded and dated
with a fixed date, so running this twice gives the same bytes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SUBMISSIONS = ROOT / "submissions"
DATE = "2025-06-01"  # fixed: a regenerated baseline must be byte-identical
SEED = 0

# kind -> runs as (task, split, mode, file name)
BASELINES: dict[str, list[tuple[str, str | None, str | None]]] = {
    "majority": [("jnli-neg", "valid", None)],
    "random": [("jnli-neg", "valid", None), ("nubench", "test", "completion"), ("nubench", "test", "option")],
    "first": [("nubench", "test", "completion"), ("nubench", "test", "option")],
    "repeat": [("scn", None, None)],
    "never": [("scn", None, None)],
}
DESCRIPTIONS = {
    "majority": "Always answers the most frequent gold label of the train split.",
    "random": "Answers uniformly at random (numpy default_rng, seed 0).",
    "first": "NUBench: always picks the option shown first (letter A) in the option-mode shuffle.",
    "repeat": "SCN: always answers the verb, so every drop is 0.",
    "never": "SCN: answers the verb only for the reference pattern CpTp, so every other drop is 1.",
}


def run_file(task: str, split: str | None, mode: str | None) -> str:
    stem = "-".join(part for part in (split, mode) if part) or "predictions"
    return f"predictions/{task}/{stem}.jsonl"


def make(kind: str) -> Path:
    folder = SUBMISSIONS / f"baseline-{kind}"
    if folder.exists():
        shutil.rmtree(folder)
    runs: list[dict[str, Any]] = []
    for task, split, mode in BASELINES[kind]:
        file = run_file(task, split, mode)
        command = ["neghub", "baseline", task, "--kind", kind, "--seed", str(SEED), "-o", str(folder / file)]
        command += ["--split", split] if split and task != "nubench" else []
        command += ["--mode", mode] if mode else []
        subprocess.run(command, check=True)
        seed = SEED if kind == "random" else None  # the other kinds are deterministic
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
    folders = [make(kind) for kind in BASELINES]
    return subprocess.run(["neghub", "validate", *map(str, folders)], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
