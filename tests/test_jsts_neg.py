"""JSTS-Neg on the NegHub-written fixture (tests/fixtures/mirror/jsts-neg, counts from its README)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.benchmarks import jsts_neg
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.releases.loading import DATA_DIR_OPTION, command_reads
from tests.conftest import FIXTURES

from .conftest import flat_result

MIRROR = FIXTURES / "mirror"


def test_unpinned_release_needs_unverified() -> None:
    with pytest.raises(InputError) as info:
        jsts_neg.load("test", data_dir=MIRROR)
    assert "jsts-neg has no pinned sha256 for this file" in str(info.value)
    assert "pass --unverified" in str(info.value)


def test_without_a_local_copy_the_advice_is_true_to_neghub_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No source of JSTS-Neg is pinned, so only a local copy can be read; the error says how, and does not tell
    the user to set NEGHUB_DATA_DIR when it is set already (to a mirror without a jsts-neg folder)."""
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    with pytest.raises(InputError) as unset, command_reads(DATA_DIR_OPTION):  # as a command with --data-dir
        jsts_neg.load("test")
    assert str(unset.value).endswith(
        "only a local copy can be read: pass --data-dir DIR, or set NEGHUB_DATA_DIR to a mirror holding a "
        "jsts-neg/ folder"
    )
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(tmp_path))
    with pytest.raises(InputError) as named, command_reads(DATA_DIR_OPTION):
        jsts_neg.load("test")
    assert str(named.value).endswith(
        f"only a local copy can be read: NEGHUB_DATA_DIR is set to {tmp_path}, which holds no jsts-neg/ folder: "
        "add the release there, or pass --data-dir DIR"
    )


def test_fixture_counts_match_the_hand_count() -> None:
    # hand counts in tests/fixtures/mirror/jsts-neg/README.md
    dataset = jsts_neg.load("test", data_dir=MIRROR, unverified=True)
    pairs = dataset.pairs
    assert int(dataset.is_original.sum()) == 5
    assert int((~dataset.is_original).sum()) == 35
    assert pairs.size == 50
    assert int(pairs.important.sum()) == 30
    kinds = [int((pairs.kind == k).sum()) for k in range(4)]
    assert kinds == [9, 9, 15, 17]  # single s1, single s2, both-from-s1, both-from-s2
    end_i = int(((pairs.cue_position == 0) & pairs.important).sum())
    end_u = int(((pairs.cue_position == 0) & ~pairs.important).sum())
    assert (end_i, 30 - end_i) == (16, 14)
    assert (end_u, 20 - end_u) == (11, 9)
    # group 518 lacks one both instance (nothing to pair), group 1290 lacks one p_neg: its two both
    # instances have no both-from-s1 control
    assert pairs.unmatched_both == 2


def test_constant_score_baseline_and_correlations(neghub: Any, tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    assert (
        neghub("baseline", "jsts-neg", "--kind", "constant:3", "--data-dir", MIRROR, "--unverified", "-o", out).code
        == 0
    )
    result = neghub("evaluate", "jsts-neg", out, "--data-dir", MIRROR, "--unverified", "--json")
    assert result.code == 0
    report = flat_result(json.loads(result.out))
    assert report["split"] == "test" and report["verified"] is False
    # a constant prediction has no correlation with anything: undefined, reported as null
    assert report["correlations"] == {"pearson": None, "spearman": None}
    # README: the test file's gold distribution is 0:6, 1:3, 2:11, 3:14, 4:6 -> 14 of 40 have gold 3
    assert report["instance_metrics"]["D"]["acc"] == pytest.approx(14 / 40)


def test_gold_predictions_give_perfect_correlation(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in (MIRROR / "jsts-neg" / "jsts-neg-test.jsonl").read_text().splitlines()]
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps({"id": r["id"], "prediction": r["gold_score"]}) + "\n" for r in rows))
    dataset = jsts_neg.load("test", data_dir=MIRROR, unverified=True)
    from neghub.evaluator.families.minimal_pairs import read_predictions

    predicted = read_predictions(path, dataset, jsts_neg.parse_prediction)
    result = jsts_neg.score(dataset, predicted, None)
    assert result["correlations"]["pearson"] == pytest.approx(1.0)
    assert result["correlations"]["spearman"] == pytest.approx(1.0)
    assert result["pair_metrics"]["M"]["acc"] == result["pair_metrics"]["M"]["acc_prime"] == 1.0


def test_a_split_is_loaded_once_per_process_until_its_file_changes(tmp_path: Path) -> None:
    import shutil

    mirror = tmp_path / "mirror"
    shutil.copytree(MIRROR / "jsts-neg", mirror / "jsts-neg")
    first = jsts_neg.load("test", data_dir=mirror, unverified=True)
    assert jsts_neg.load("test", data_dir=mirror, unverified=True) is first
    # shared between callers, so nobody may write into it
    with pytest.raises(ValueError, match="read-only"):
        first.gold[0] = 0
    # a cached unverified load never lets a verified load skip the pin check
    with pytest.raises(InputError, match="no pinned sha256"):
        jsts_neg.load("test", data_dir=mirror)
    # the file changes on disk: it is read again (without the fixture's first group, 112: the original,
    # two p_neg, two h_neg and four p_neg_h_neg, 9 instances; README.md's table)
    path = mirror / "jsts-neg" / "jsts-neg-test.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first_group = json.loads(lines[0])["jsts_sentence_pair_id"]
    kept = [line for line in lines if json.loads(line)["jsts_sentence_pair_id"] != first_group]
    path.write_text("".join(kept), encoding="utf-8")
    again = jsts_neg.load("test", data_dir=mirror, unverified=True)
    assert again is not first
    assert again.ids.size == len(kept) == 40 - 9
