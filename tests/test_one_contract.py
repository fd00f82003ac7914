"""One contract from the evaluator to the leaderboard (issue 22): the leaderboard reads Results and nothing else.

- No module of the leaderboard calls a scorer or reads a prediction file: the validator (which scores each file once
  and hands back its Result) is the only way in, and every verdict, page and download is made from Results.
- A site build opens each prediction file once: the bytes it hashes are the bytes it parses.
"""

from __future__ import annotations

import ast
import io
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from neghub.leaderboard.collect import collect
from neghub.leaderboard.site import build_pages
from tests.rule_submissions import rule_submission

ROOT = Path(__file__).resolve().parent.parent
LEADERBOARD = ROOT / "leaderboard"
# what scores or reads a prediction file: a benchmark's evaluate, a family's reader or scorer
SCORER_NAMES = {"evaluate", "score", "score_pairs", "read_predictions", "load_predictions", "item_scores", "answers"}


def _calls_and_imports(path: Path) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
    }
    imported = {
        (node.module or "") + ":" + alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    return calls, imported


@pytest.mark.parametrize("path", sorted(LEADERBOARD.glob("*.py")), ids=lambda p: p.name)
def test_no_leaderboard_module_calls_a_scorer(path: Path) -> None:
    calls, imported = _calls_and_imports(path)
    assert not calls & SCORER_NAMES, f"{path.name} calls {sorted(calls & SCORER_NAMES)}"
    assert not [name for name in imported if "families" in name or ".benchmarks." in name.split(":")[0]], imported


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    """Submissions whose data is in the package (NUBench's sample, SCN's word lists): three rules' files and the
    committed SmolLM2 run."""
    folder = tmp_path / "submissions"
    for rule in ("first", "never", "repeat"):
        shutil.copytree(rule_submission(rule), folder / f"baseline-{rule}")
    shutil.copytree(ROOT / "submissions" / "smollm2-135m-instruct", folder / "smollm2-135m-instruct")
    # SmolLM2's JNLI-Neg runs need the real release: left out here, so that the test runs anywhere
    smollm2 = folder / "smollm2-135m-instruct"
    shutil.rmtree(smollm2 / "predictions" / "jnli-neg")
    text = (smollm2 / "metadata.yaml").read_text(encoding="utf-8")
    runs = text.split("runs:\n", 1)[1].split("provenance:\n", 1)
    kept = "".join("- " + run for run in runs[0].split("- ")[1:] if "jnli-neg" not in run.split("\n", 1)[0])
    (smollm2 / "metadata.yaml").write_text(
        text.split("runs:\n", 1)[0] + "runs:\n" + kept + "provenance:\n" + runs[1], encoding="utf-8"
    )
    return folder


def test_a_site_build_opens_each_prediction_file_once(submissions: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: Counter[str] = Counter()
    real_open = io.open

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        name = str(file)
        if name.endswith(".jsonl") and str(submissions) in name:
            opened[name] += 1
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting_open)
    board = collect(submissions, reported=False)
    build_pages(board)
    files = sorted(str(p) for p in submissions.rglob("*.jsonl"))
    assert board.notes == [] and len(files) == 7
    assert {name: opened[name] for name in files} == dict.fromkeys(files, 1)
