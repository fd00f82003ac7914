"""The real JNLI-Neg v1.1 release: the pair construction reproduces the paper's Tables 3 and 4."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from neghub.evaluator.benchmarks import jnli_neg
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.families.minimal_pairs import CUE_POSITIONS

from .conftest import flat_result


def position_split(dataset: jnli_neg.MinimalPairDataset, important: bool) -> tuple[int, int]:
    pairs = dataset.pairs
    mask = pairs.important == important
    end = int(np.count_nonzero(pairs.cue_position[mask] == CUE_POSITIONS.index("end")))
    return end, int(mask.sum()) - end


# The paper's numbers, as copied into ../shared/datasets/jnli-neg/SOURCE.md (Tables 3 and 4).
PAPER = {
    "train": {
        "D_orig": 823,
        "D_neg": 4671,
        "M_i": 3475,
        "M_u": 3260,
        "M_i_end_mid": (2177, 1298),
        "M_u_end_mid": (1494, 1766),
    },
    "valid": {
        "D_orig": 186,
        "D_neg": 1177,
        "M_i": 787,
        "M_u": 935,
        "M_i_end_mid": (485, 302),
        "M_u_end_mid": (424, 511),
    },
}


@pytest.mark.parametrize("split", ["train", "valid"])
def test_counts_equal_the_paper(shared_datasets: Path, split: str) -> None:
    dataset = jnli_neg.load(split, data_dir=shared_datasets)
    assert dataset.verified
    expected = PAPER[split]
    assert int(dataset.is_original.sum()) == expected["D_orig"]
    assert int((~dataset.is_original).sum()) == expected["D_neg"]
    assert int(dataset.pairs.important.sum()) == expected["M_i"]
    assert int((~dataset.pairs.important).sum()) == expected["M_u"]
    assert position_split(dataset, True) == expected["M_i_end_mid"]
    assert position_split(dataset, False) == expected["M_u_end_mid"]


def test_majority_baseline_end_to_end(shared_datasets: Path, neghub, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "majority.jsonl"
    assert neghub("baseline", "jnli-neg", "--kind", "majority", "--data-dir", shared_datasets, "-o", out).code == 0
    result = neghub("evaluate", "jnli-neg", out, "--data-dir", shared_datasets, "--json")
    assert result.code == 0
    import json

    report = flat_result(json.loads(result.out))
    assert report["verified"] is True
    assert report["dataset_sha256"] == "da5c18369face5a6e338b67732c9beeef4aefd0937f314e9249119e2d988ea03"
    assert report["counts"]["M"] == 787 + 935
    # "neutral" is the train split's majority label; a constant prediction never changes within a pair
    assert report["pair_metrics"]["M_i"]["ignored_rate"] == 1.0
    assert report["pair_metrics"]["M_u"]["distracted_rate"] == 0.0
    assert report["pair_metrics"]["M_u"]["acc_chg"] == 0.0


def test_one_changed_byte_is_refused_unless_unverified(shared_datasets: Path, tmp_path: Path) -> None:
    copy = tmp_path / "jnli-neg"
    copy.mkdir()
    original = shared_datasets / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl"
    data = bytearray(original.read_bytes())
    # one byte: an annotator count 0 -> 1; the record stays valid, only the pin can tell
    position = data.index(b'"entailment": 0') + len(b'"entailment": ')
    data[position : position + 1] = b"1"
    (copy / original.name).write_bytes(bytes(data))
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid", data_dir=tmp_path)
    assert str(info.value).startswith(f"{copy / original.name}: sha256 mismatch: expected da5c18369face")
    dataset = jnli_neg.load("valid", data_dir=tmp_path, unverified=True)
    assert dataset.verified is False
    assert int(dataset.pairs.important.sum()) == 787


def test_environment_variable_names_the_mirror(shared_datasets: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(shared_datasets))
    assert jnli_neg.load("valid").release.source == "mirror"
    monkeypatch.delenv("NEGHUB_DATA_DIR")
    # no mirror and no Hub pin: the pinned upstream URL, which the tests point at a closed local port
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid")
    (problem,) = info.value.problems
    # the release is fetched whole (train, valid, LICENSE): its first file is the first that fails
    assert problem.file.endswith("/data/jnli-neg-v1.1/jnli-neg-train-v1.1.jsonl")
    assert problem.message.startswith("cannot download the pinned file: ")


def test_missing_file_in_mirror(tmp_path: Path) -> None:
    (tmp_path / "jnli-neg").mkdir()
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid", data_dir=tmp_path)
    assert str(info.value) == (
        f"{tmp_path / 'jnli-neg' / 'jnli-neg-valid-v1.1.jsonl'}: not found: the JNLI-Neg release file for split 'valid'"
    )
    shutil.rmtree(tmp_path / "jnli-neg")
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid", data_dir=tmp_path)
    assert "no jnli-neg folder in the data directory" in str(info.value)


def test_environment_mirror_without_the_task_falls_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # $NEGHUB_DATA_DIR is a default for all tasks: without a jnli-neg folder, the loader goes on to
    # the Hub pin (JNLI-Neg has none yet), then the pinned upstream URL (a closed local port in the tests);
    # an explicit --data-dir must hold the task.
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(tmp_path))
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid")
    assert "cannot download the pinned file" in str(info.value)
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid", data_dir=tmp_path)
    assert "no jnli-neg folder in the data directory" in str(info.value)
