"""`neghub run --tasks all`: every task whose release can be read here, the cloze test on the Submit page's number
of name/profession pairs unless --max-pairs says otherwise, and the tasks left out named with why, in one line,
before the model is loaded (gpu-eval's default is `tasks: all`: a task without a release must not stop the rest).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.fileio import safe_yaml

REVISION = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No mirror, no network, an empty cache: only the releases shipped in the package can be read."""
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    monkeypatch.setenv("NEGHUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "empty-cache"))
    return tmp_path


def _all_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("--tasks all:")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.models  # `neghub run` without the models extra stops at that, before it chooses tasks
def test_all_names_the_tasks_it_leaves_out_in_one_line_before_the_model_is_loaded(offline: Path, neghub: Any) -> None:
    # a Hub model that is nowhere: the run fails at the model, after the line
    result = neghub("run", "example/not-downloaded", "--revision", REVISION, "--tasks", "all", "-o", offline / "out")
    assert result.code != 0, result.err  # the model cannot be downloaded here
    line = _all_line(result.err)
    # JNLI-Neg's upstream is unreachable offline and JSTS-Neg has no pinned source: both left out, each with why;
    # NUBench's and SCN's releases ship in the package
    assert line.startswith("--tasks all: running nubench, scn (scn on 20 name/profession pairs")
    assert "left out: jnli-neg (" in line and "jsts-neg (no source of the jsts-neg release is pinned yet" in line
    assert result.err.index("--tasks all:") < result.err.index("error: MODEL: transformers cannot read")
    assert not (offline / "out").exists()


@pytest.mark.models
def test_all_runs_every_readable_task_with_the_cloze_test_on_twenty_pairs(tmp_path: Path, neghub: Any) -> None:
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    model = _causal(tmp_path / "model", constant=True)  # answers "run" everywhere: the cloze test keeps a triplet
    empty_mirror = tmp_path / "mirror"  # a --data-dir without jnli-neg/: only the releases the package ships
    empty_mirror.mkdir()
    out = tmp_path / "out"
    common = ["run", model, "--tasks", "all", "--data-dir", empty_mirror, "--mode", "option", "--no-progress"]
    result = neghub(*common, "-o", out)
    assert result.code == 0, result.err
    line = _all_line(result.err)
    assert line.startswith("--tasks all: running nubench, scn (scn on 20 name/profession pairs")
    assert line.count("left out:") == 1 and "jnli-neg (" in line and "jsts-neg (" in line
    meta = safe_yaml.load((out / "metadata.yaml").read_text(encoding="utf-8")).value
    assert [run["task"] for run in meta["runs"]] == ["nubench", "scn"]
    assert meta["provenance"]["max_pairs"] == 20
    scn_lines = (out / meta["runs"][1]["file"]).read_text(encoding="utf-8").splitlines()
    assert len({(row["name"], row["profession"]) for row in map(json.loads, scn_lines)}) == 20
    # --max-pairs given: kept, and the line says so
    again = neghub(*common, "--max-pairs", "3", "-o", tmp_path / "three")
    assert again.code == 0, again.err
    assert "scn on 3 name/profession pairs (--max-pairs)" in _all_line(again.err)
    meta = safe_yaml.load((tmp_path / "three" / "metadata.yaml").read_text(encoding="utf-8")).value
    assert meta["provenance"]["max_pairs"] == 3
