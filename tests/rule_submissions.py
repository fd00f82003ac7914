"""Submissions of trivial models for the tests, written on first use by `neghub baseline`'s rules.

NegHub commits no baseline submission (the leaderboard computes its rule rows itself), yet many tests need a valid
submission with known answers: these are the same files a user gets from `neghub baseline`, signed as a local
model, in folders named as the committed baselines once were (`baseline-<rule>/predictions/<task>/<split>-<mode>`).
NUBench and SCN need no release; JNLI-Neg's rules need its release (a test that asks for one without it skips).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

# rule -> its runs (task, split, mode), as `neghub baseline` writes each
RUNS: dict[str, tuple[tuple[str, str | None, str | None], ...]] = {
    "majority": (("jnli-neg", "valid", None),),
    "random": (("jnli-neg", "valid", None), ("nubench", "test", "completion"), ("nubench", "test", "option")),
    "first": (("nubench", "test", "completion"), ("nubench", "test", "option")),
    "repeat": (("scn", None, None),),
    "never": (("scn", None, None),),
}
_ROOT: Path | None = None


def _root() -> Path:
    global _ROOT
    if _ROOT is None:
        _ROOT = Path(tempfile.mkdtemp(prefix="neghub-rules-"))
        atexit.register(shutil.rmtree, _ROOT, True)
    return _ROOT


def run_file(task: str, split: str | None, mode: str | None) -> str:
    stem = "-".join(part for part in (split, mode) if part) or "predictions"
    return f"predictions/{task}/{stem}.jsonl"


def write(folder: Path, rule: str, runs: tuple[tuple[str, str | None, str | None], ...] | None = None) -> Path:
    """submissions/baseline-<rule>/ in `folder`: the rule's prediction files and a local model's metadata."""
    from neghub.evaluator.core.benchmark import EvalOptions
    from neghub.evaluator.core.errors import SourceUnavailable
    from neghub.evaluator.core.registry import get_benchmark

    target = folder / f"baseline-{rule}"
    entries: list[dict[str, Any]] = []
    for task, split, mode in RUNS[rule] if runs is None else runs:
        file = run_file(task, split, mode)
        try:
            lines = get_benchmark(task).baseline(rule, EvalOptions(split=split, mode=mode), 0)
        except SourceUnavailable as error:
            pytest.skip(f"the {task} release is not here for the {rule!r} rule's file ({error})")
        path = target / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
        seed = 0 if rule == "random" else None
        entries.append({"task": task, "split": split, "file": file, "shots": 0, "seed": seed, "mode": mode})
    metadata = {
        "model": {
            "kind": "local",
            "name": f"Rule: {rule}",
            "file": f"rule-{rule}",
            "sha256": hashlib.sha256(rule.encode()).hexdigest(),
            "parameters": 1,
            "open_weights": True,
            "license": "Apache-2.0",
        },
        "submitter": {"name": "NegHub tests", "contact": "https://example.org/tests", "github": "neghub-tests"},
        "date": "2025-06-01",
        "description": f"The rule {rule!r} of neghub baseline, for the tests.",
        "runs": entries,
    }
    (target / "metadata.yaml").write_text(yaml.safe_dump(metadata, sort_keys=False), encoding="utf-8")
    return target


def rule_submission(rule: str) -> Path:
    """The folder of `rule`'s submission (written once per test session); copy it before changing it."""
    target = _root() / f"baseline-{rule}"
    if not target.is_dir():
        write(_root(), rule)
    return target


def one_line_file(task: str, line: dict[str, Any]) -> Path:
    """A prediction file of one line: what a test of a command that stops before it reads the lines needs (the
    release unreachable, say), with no release at hand to write a rule's whole file."""
    path = _root() / "one-line" / f"{task}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return path
