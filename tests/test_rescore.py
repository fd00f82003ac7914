"""Scores are never trusted from a submission: re-scoring every submission twice gives identical bytes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.rule_submissions import rule_submission

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"
# a folder without metadata.yaml is refused by `neghub validate`; there is nothing to re-score in it
SUBMISSIONS = sorted(p for p in (ROOT / "submissions").iterdir() if (p / "metadata.yaml").is_file())

_spec = importlib.util.spec_from_file_location("rescore", ROOT / "scripts" / "rescore.py")
assert _spec is not None and _spec.loader is not None
rescore = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rescore)


@pytest.mark.parametrize("folder", SUBMISSIONS, ids=lambda p: p.name)
def test_rescoring_twice_is_byte_identical(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "task: jnli-neg" in (folder / "metadata.yaml").read_text(encoding="utf-8"):
        if not (SHARED_DATASETS / "jnli-neg").is_dir():
            pytest.skip(f"JNLI-Neg data not found at {SHARED_DATASETS}")
        monkeypatch.setenv("NEGHUB_DATA_DIR", str(SHARED_DATASETS))
    first = rescore.score_bytes(folder)
    second = rescore.score_bytes(folder)
    assert first, "a submission has at least one run"
    assert first == second


def test_result_bytes_carry_no_absolute_path() -> None:
    folder = rule_submission("repeat")
    for text in rescore.score_bytes(folder).values():
        assert str(ROOT).encode() not in text
