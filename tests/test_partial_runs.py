"""`neghub run --max-items N`: each run on a seeded sample of its items, recorded as partial, refused by
`neghub validate` and by `neghub evaluate` with the command that runs the whole split; and `neghub run` finding
every release it needs before it loads the model.

The sampler is checked on plans built here (no model: a plan's items need none) and on the real JNLI-Neg
split where ../shared/datasets holds it; the command end to end with test_runners' tiny Llama on NUBench's
bundled sample (46 test items, the line count of its test.jsonl) and SCN's word lists, which need no mirror.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from neghub.evaluator.cli import main
from neghub.evaluator.protocol.plans import (
    PARTIAL_ITEMS,
    SAMPLE_SEED,
    SPLIT_ITEMS,
    RunPlan,
    RunSettings,
    partial_sample,
)
from neghub.evaluator.runners.run import build_plans

from .conftest import ROOT, SHARED_DATASETS

LICENSE_LINE = (
    "warning: {folder}/metadata.yaml: model.license: 'unknown': the leaderboard shows the licence as unknown; write "
    "the licence the model card names (e.g. apache-2.0), or pass --license to neghub run"
)

NUBENCH_TEST = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"


def _plan(items: list[tuple[str, str]], *, grouped: bool = True) -> RunPlan:
    """A plan of (key, group) items, its process never called."""
    return RunPlan(
        task="t",
        split="s",
        shots=0,
        seed=None,
        prompt="p",
        mode=None,
        items=items,
        process=lambda backend, batch: [],
        item_key=lambda item: item[0],
        item_group=(lambda item: item[1]) if grouped else None,
        settings={"protocol_setting": 1},
    )


# --- the sampler -----------------------------------------------------------------------------------


def test_groups_of_two_are_taken_whole_until_the_next_would_pass_the_limit() -> None:
    # 5 groups of 2 items: at most 5 items is 2 groups (4 items; a third would make 6); at most 1 is still one
    # whole group (2 items), never half of a pair
    items = [(f"{group}{member}", group) for group in "abcde" for member in (1, 2)]
    for limit, expected in ((5, 4), (4, 4), (3, 2), (1, 2), (9, 8)):
        sampled = partial_sample(_plan(items), limit, seed=0)
        assert len(sampled.items) == expected, limit
        groups = {group for _, group in sampled.items}
        assert sorted(sampled.items) == sorted(item for item in items if item[1] in groups)
        assert sampled.settings == {"protocol_setting": 1, PARTIAL_ITEMS: expected, SPLIT_ITEMS: 10, SAMPLE_SEED: 0}


def test_a_run_with_no_more_items_than_the_limit_is_whole_and_not_partial() -> None:
    plan = _plan([("a", "a"), ("b", "b")])
    assert partial_sample(plan, 2, seed=0) is plan
    assert PARTIAL_ITEMS not in plan.settings


@given(
    st.lists(st.integers(0, 7), min_size=1, max_size=30),
    st.integers(1, 30),
    st.integers(0, 2**32),
)
def test_a_sample_is_whole_groups_in_the_plan_s_order_the_same_for_any_item_order(
    groups: list[int], limit: int, seed: int
) -> None:
    items = [(f"item{i}", f"group{g}") for i, g in enumerate(groups)]
    sampled = partial_sample(_plan(items), limit, seed)
    if len(items) <= limit:
        assert sampled.items == items
        return
    kept = {group for _, group in sampled.items}
    assert list(sampled.items) == [item for item in items if item[1] in kept]  # whole groups, the plan's order
    assert len(sampled.items) <= limit or len(kept) == 1  # one group larger than the limit is taken alone
    assert sampled.settings[PARTIAL_ITEMS] == len(sampled.items) and sampled.settings[SPLIT_ITEMS] == len(items)
    # the sample depends on the keys and the seed, not on the plan's order (a run sorted by prompt length)
    reordered = partial_sample(_plan(items[::-1]), limit, seed)
    assert sorted(reordered.items) == sorted(sampled.items)


def test_the_seed_chooses_the_sample() -> None:
    items = [(f"item{i}", f"item{i}") for i in range(20)]
    samples = {tuple(partial_sample(_plan(items, grouped=False), 3, seed).items) for seed in range(5)}
    assert len(samples) > 1
    assert all(len(sample) == 3 for sample in samples)


# --- the benchmarks' plans -------------------------------------------------------------------------


def _plans(tasks: str, settings: RunSettings, kind: str = "causal") -> list[RunPlan]:
    return build_plans(argparse.Namespace(tasks=tasks.split(",")), kind, settings)


@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_samples_whole_source_pairs_and_the_same_items_in_both_protocols() -> None:
    from neghub.evaluator.benchmarks.jnli_neg import records
    from neghub.evaluator.families.minimal_pairs.pairs import build_pairs

    valid = records("valid", SHARED_DATASETS, False)
    settings = RunSettings(data_dir=SHARED_DATASETS, max_items=50, sample_seed=3)
    plans = _plans("jnli-neg", settings)
    assert [p.prompt for p in plans] == ["llm-jp-eval", "llm-jp-eval-loglikelihood"]
    ids = [sorted(item[0] for item in plan.items) for plan in plans]
    assert ids[0] == ids[1]  # both protocols score the same items
    chosen = set(ids[0])
    groups = {r["jnli_sentence_pair_id"] for r in valid if r["id"] in chosen}
    # every item of a chosen source pair is in the sample: its minimal pairs are whole
    assert chosen == {r["id"] for r in valid if r["jnli_sentence_pair_id"] in groups}
    assert 0 < len(chosen) <= 50
    for plan in plans:
        assert (plan.settings[PARTIAL_ITEMS], plan.settings[SPLIT_ITEMS]) == (len(chosen), len(valid))
    # and the minimal pairs of the sample are those of the split whose two members it holds
    from neghub.evaluator.benchmarks.jnli_neg import parse_record

    instances = [parse_record(r) for r in valid]
    pairs = build_pairs(instances)
    row_ids = [inst.id for inst in instances]
    inside = [
        (row_ids[c], row_ids[t])
        for c, t in zip(pairs.control, pairs.treatment, strict=True)
        if row_ids[c] in chosen or row_ids[t] in chosen
    ]
    assert inside and all(c in chosen and t in chosen for c, t in inside)


# SCN's word lists: 432 verbs (evaluator/benchmarks/scn/release/word_lists/README.md)
SCN_VERBS = 432


def test_scn_max_pairs_is_its_protocol_and_max_items_bounds_the_pairs_and_their_verbs_as_partial() -> None:
    """A trial's SCN part is counted in candidate triplets (pair, verb): 3 pairs x 3 verbs of 4 pairs x 432."""
    (whole,) = _plans("scn", RunSettings(max_pairs=4))
    assert len(whole.items) == 4 and PARTIAL_ITEMS not in whole.settings and whole.settings["scn_max_pairs"] == 4
    assert whole.requests is not None and len(whole.requests(whole.items[0])) == 4 * SCN_VERBS * 5
    (partial,) = _plans("scn", RunSettings(max_pairs=4, max_items=3))
    assert set(partial.items) < set(whole.items) and len(partial.items) == 3
    assert (partial.settings[PARTIAL_ITEMS], partial.settings[SPLIT_ITEMS]) == (3 * 3, 4 * SCN_VERBS)
    assert partial.settings["scn_candidate_verbs"] == 3
    # each pair asks its 3 candidate verbs in 4 variants and 5 patterns; every pair the same verbs
    assert partial.requests is not None
    asked = [{r.id.split("|")[3] for r in partial.requests(pair)} for pair in partial.items]
    assert all(len(verbs) == 3 for verbs in asked) and asked[0] == asked[1] == asked[2]
    assert all(len(partial.requests(pair)) == 4 * 3 * 5 for pair in partial.items)


def test_a_trial_with_more_items_than_scn_has_is_the_whole_run() -> None:
    (trial,) = _plans("scn", RunSettings(max_pairs=2, max_items=SCN_VERBS))
    assert len(trial.items) == 2 and PARTIAL_ITEMS not in trial.settings


def test_nubench_samples_items_in_every_mode() -> None:
    plans = _plans("nubench", RunSettings(max_items=5, sample_seed=1))
    assert [p.mode for p in plans] == ["completion", "option"]
    completion, option = plans
    assert {completion.key_of(i) for i in completion.items} == {option.key_of(i) for i in option.items}
    total = len(NUBENCH_TEST.read_text(encoding="utf-8").splitlines())
    assert total == 46
    for plan in plans:
        assert (plan.settings[PARTIAL_ITEMS], plan.settings[SPLIT_ITEMS], plan.settings[SAMPLE_SEED]) == (5, 46, 1)


# --- the command -----------------------------------------------------------------------------------


def _tiny_model(folder: Path) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    return _causal(folder)


@pytest.mark.models
def test_a_partial_run_is_written_then_refused_by_validate_and_evaluate_with_the_whole_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = _tiny_model(tmp_path / "model")
    out = tmp_path / "try-it"
    argv = ["run", str(model), "--tasks", "nubench,scn", "--max-items", "3", "--max-pairs", "2"]
    assert main([*argv, "-o", str(out), "--no-progress"]) == 0
    meta: dict[str, Any] = yaml.safe_load((out / "metadata.yaml").read_text())
    prov = meta["provenance"]
    for mode in ("completion", "option"):
        assert prov[f"nubench.simple.{mode}.{PARTIAL_ITEMS}"] == 3
        assert prov[f"nubench.simple.{mode}.{SPLIT_ITEMS}"] == 46
        assert prov[f"nubench.simple.{mode}.{SAMPLE_SEED}"] == 0
    # SCN's trial asks 3 candidate verbs, none of which this tiny tokenizer writes as one token: no SCN run
    assert "predictions/scn/scn-all-causal-0shot-seed0.jsonl: the model kept no triplet" in capsys.readouterr().err
    assert [run["task"] for run in meta["runs"]] == ["nubench", "nubench"]
    assert prov["max_pairs"] == 2
    files = {run["mode"]: run["file"] for run in meta["runs"] if run["task"] == "nubench"}
    for file in files.values():
        assert len((out / file).read_text().splitlines()) == 3
    capsys.readouterr()

    assert main(["validate", str(out)]) == 2
    # as metadata.yaml records it: the model by its folder's name (a placeholder here: validate was given no
    # --model), the output folder as the one a pull request adds; printed once, after the runs refused
    whole = f"neghub run {model.name} --tasks nubench,scn --max-pairs 2 -o {out.name} --no-progress"
    placeholder = shlex.quote(f"<MODEL: the path of the model folder or file {model.name}>")
    # the model's name, "model (sha256 66aa14cd49d8…)", as a folder's: lower case, other characters one hyphen
    folder = f"submissions/{model.name}-sha256-{meta['model']['sha256'][:12]}"
    assert capsys.readouterr().err.splitlines() == [
        *(
            f"error: try-it/{files[mode]}: a partial run: 3 of 46 items, sampled with seed 0 (neghub run "
            "--max-items, for trying a model); a submission runs every item: run the same command without "
            "--max-items (neghub validate prints it once, after `rerun:`)"
            for mode in ("completion", "option")
        ),
        f"rerun: neghub run {placeholder} --tasks nubench,scn --max-pairs 2 -o {folder} --no-progress",
        LICENSE_LINE.format(folder="try-it"),
    ]

    assert main(["evaluate", "nubench", str(out / files["option"]), "--mode", "option"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"error: {out / files['option']}: a partial run: 3 of 46 items, sampled with seed 0 (neghub run "
        f"--max-items, for trying a model); neghub evaluate scores whole splits only: run the same command without "
        f"--max-items: {whole}"
    )


@pytest.mark.models
def test_run_finds_every_release_before_it_loads_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Weights that cannot be loaded, and a JNLI-Neg release that cannot be reached (no mirror, an empty cache,
    the upstream at a closed port, the Hub offline): the run stops at the release, exit 3, before the model."""
    model = _tiny_model(tmp_path / "model")
    (weights,) = model.glob("*.safetensors")
    weights.write_bytes(b"not weights")
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "out"
    code = main(["run", str(model), "--tasks", "nubench,jnli-neg", "-o", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "JNLI-Neg/" in err and "offline mode is on" in err
    assert not out.exists()  # nothing written, not even the folder
    # the control: with NUBench alone (its release ships in the package) the same run reaches the model, and
    # the weights fail it there; so the failure above came from the release, before the model was loaded
    code = main(["run", str(model), "--tasks", "nubench", "-o", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot read the model's weights" in err, err


def test_the_whole_command_drops_max_items_in_either_spelling(tmp_path: Path) -> None:
    import shutil

    from neghub.evaluator.submissions.validation import validate_submission

    folder = shutil.copytree(ROOT / "tests" / "catalogue" / "partial-run", tmp_path / "partial-run")
    meta = folder / "metadata.yaml"
    meta.write_text(meta.read_text().replace("--max-items 1", "--max-items=1"))
    (problem,) = validate_submission(folder)
    assert problem.message.endswith("without --max-items (neghub validate prints it once, after `rerun:`)")
    from neghub.evaluator.submissions.format import Metadata
    from neghub.evaluator.submissions.rerun import rerun_command

    metadata = Metadata.model_validate(yaml.safe_load(meta.read_text()))
    assert rerun_command(metadata) == (
        "neghub run example-org/example-7b --revision 0123456789abcdef0123456789abcdef01234567 --tasks scn "
        f"--max-pairs 40 -o submissions/{metadata.model.name.lower().replace(' ', '-')}"
    )
