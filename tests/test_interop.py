"""Prompts for any engine (`neghub prompts`, `neghub import`), answered by NegHub's own backend.

- `neghub prompts` writes a run's requests; answered by NegHub's own backend (as any engine would answer
  the JSONL) and read back by `neghub import`, they give the prediction file `neghub run` writes.
- `neghub import` refuses bad answers, one line per problem, before writing anything.
- the import pins the weights that answered as `neghub run` pins them (tests/test_lm_eval_files.py: lm-eval).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from neghub.evaluator.cli import main  # noqa: E402
from neghub.evaluator.fileio import safe_yaml  # noqa: E402
from neghub.evaluator.protocol.requests import execute, request_from_json  # noqa: E402
from neghub.evaluator.runners.loading import ModelSource, load_backend  # noqa: E402
from tests.test_lm_eval_files import SIGNED  # noqa: E402
from tests.test_runner_protocols import MIRROR, _classifier, _jsts_records, _roberta_masked  # noqa: E402
from tests.test_runners import SHARED, _causal  # noqa: E402

UNVERIFIED_JSTS = ["--data-dir", str(MIRROR), "--unverified"]
# a model pinned by hand: a Hub repo at a commit (nothing of it is downloaded)
NEW_MODEL = [
    "--repo-id",
    "example/tiny",
    "--revision",
    "0" * 40,
    "--parameters",
    "1000",
    "--license",
    "apache-2.0",
    *SIGNED,
]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("models")
    return {
        "causal": _causal(root / "causal"),
        "constant": _causal(root / "constant", constant=True),
        "roberta": _roberta_masked(root / "roberta"),
        "sts": _classifier(root / "sts", _jsts_records(), None),
    }


def _answer_line(request_id: Any, kind: str, answer: Any) -> dict[str, Any]:
    field = {"generate": "text", "top1": "text", "loglikelihood": "loglikelihoods", "classify": "logits"}[kind]
    return {"id": request_id, field: answer}


def _rows(path: Path) -> list[dict[str, Any]]:
    return sorted((json.loads(line) for line in path.read_text().splitlines()), key=lambda r: json.dumps(r))


def _same_rows(ran: list[dict[str, Any]], imported: list[dict[str, Any]]) -> None:
    """Equal lines; log-likelihoods equal up to float rounding (other batches, another packing)."""
    assert len(ran) == len(imported)
    for a, b in zip(ran, imported, strict=True):
        if "loglikelihoods" in a:
            assert a["id"] == b["id"]
            for key, value in a["loglikelihoods"].items():
                other = b["loglikelihoods"][key]
                assert (value is None and other is None) or math.isclose(value, other, rel_tol=1e-4, abs_tol=1e-4)
        else:
            assert a == b


SCN_TRIAL = ["--max-items", "25", "--seed", "1"]
CASES = [
    ("causal", "jsts-neg", ["--prompt", "llm-jp-eval", *UNVERIFIED_JSTS]),
    ("causal", "jsts-neg", ["--prompt", "llm-jp-eval-loglikelihood", *UNVERIFIED_JSTS]),
    ("causal", "nubench", ["--mode", "completion"]),
    ("causal", "nubench", ["--mode", "option", "--shots", "1", "--seed", "42"]),
    # the cloze test as a trial: one pair and 25 of its 432 candidate verbs (500 top-1s, not 8,640), seed 1's
    # sample holding "run", the verb both tiny models answer (a pair whose verbs none is answered writes no line)
    ("constant", "scn", ["--max-pairs", "1", *SCN_TRIAL]),
    ("roberta", "scn", ["--max-pairs", "1", *SCN_TRIAL, "--model-kind", "masked"]),
    ("sts", "jsts-neg", ["--model-kind", "classifier", "--head-labels", "", *UNVERIFIED_JSTS]),
]


@pytest.mark.parametrize(("model", "task", "options"), CASES)
def test_prompts_answered_by_the_backend_import_to_what_neghub_run_writes(
    models: dict[str, Path], tmp_path: Path, model: str, task: str, options: list[str]
) -> None:
    folder = models[model]
    # neghub run takes --seeds and --max-pairs; --model-kind and --head-labels come from the model itself
    run_options = [o for o in options if o not in ("--model-kind", "masked", "classifier", "--head-labels", "")]
    # prompts' one --seed: neghub run's few-shot --seeds, and the cloze test's --sample-seed (its only seed)
    run_seed = "--sample-seed" if task == "scn" else "--seeds"
    run_options = [run_seed if o == "--seed" else o for o in run_options]
    ran = tmp_path / "ran"
    assert main(["run", str(folder), "--tasks", task, *run_options, "-o", str(ran), "--no-progress"]) == 0
    ran_meta = safe_yaml.load((ran / "metadata.yaml").read_text()).value
    (run,) = ran_meta["runs"]

    prompts = tmp_path / "prompts.jsonl"
    # no chat template, as the tiny models have none (an option only the minimal-pair benchmarks take)
    no_chat = ["--chat-template", "off"] if task in ("jnli-neg", "jsts-neg") else []
    assert main(["prompts", task, *options, *no_chat, "-o", str(prompts)]) == 0
    requests = [request_from_json(json.loads(line)) for line in prompts.read_text().splitlines()]
    backend = load_backend(ModelSource("folder", str(folder)))
    # in chunks, as an engine batches (the cloze test asks 8,640 top-1s of each pair)
    answers = [a for start in range(0, len(requests), 512) for a in execute(backend, requests[start : start + 512])]
    answer_file = tmp_path / "answers.jsonl"
    answer_file.write_text(
        "".join(json.dumps(_answer_line(r.id, r.kind, a)) + "\n" for r, a in zip(requests, answers, strict=True))
    )

    imported = tmp_path / "imported"
    # the folder that answered, pinned as neghub run pins it (its parameter count given: no model is loaded)
    model_options = ["--weights", str(folder), "--parameters", str(ran_meta["model"]["parameters"]), *SIGNED]
    argv = ["import", task, str(answer_file), *options, *no_chat, *model_options, "-o", str(imported)]
    assert main(argv) == 0
    meta = safe_yaml.load((imported / "metadata.yaml").read_text()).value
    assert meta["model"] == ran_meta["model"] and meta["model"]["sha256"]
    (imported_run,) = meta["runs"]
    assert imported_run == run
    prefix = f"{task}.{run['prompt']}.{run['mode'] or 'default'}"
    assert meta["provenance"][f"{prefix}.protocol"] in ("generation", "loglikelihood", "top1", "classify")
    _same_rows(_rows(ran / run["file"]), _rows(imported / run["file"]))
    assert _rows(ran / run["file"])  # something was compared


@pytest.mark.skipif(not (SHARED / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_prompts_list_every_item_once_in_the_protocols_order() -> None:
    import io
    from contextlib import redirect_stdout

    for prompt, kind in (("llm-jp-eval", "generate"), ("llm-jp-eval-loglikelihood", "loglikelihood")):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["prompts", "jnli-neg", "--prompt", prompt, "--chat-template", "off"]) == 0
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        assert len(lines) == len({line["id"] for line in lines}) == 1363
        assert {line["kind"] for line in lines} == {kind}
        if kind == "loglikelihood":
            assert {tuple(line["continuations"]) for line in lines} == {("entailment", "neutral", "contradiction")}
        else:
            assert {(line["max_new_tokens"], tuple(line["until"])) for line in lines} == {(8, ("\n\n",))}


def test_chat_prompts_are_one_user_message(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    argv = ["prompts", "jsts-neg", "--prompt", "llm-jp-eval", *UNVERIFIED_JSTS, "--chat-template", "on", "-o", str(out)]
    assert main(argv) == 0
    first = json.loads(out.read_text().splitlines()[0])
    assert "prompt" not in first
    assert [m["role"] for m in first["messages"]] == ["user"] and first["messages"][0]["content"].endswith(
        "### 応答:\n"
    )


def test_several_runs_must_be_told_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompts", "nubench"]) == 2
    err = capsys.readouterr().err
    assert "nubench has 2 runs for these options: choose one (--prompt simple --mode completion; " in err


def test_bad_answers_are_refused_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "answers.jsonl"
    good = [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0]
    answers.write_text(
        "\n".join(
            [
                json.dumps({"id": 0, "loglikelihoods": [-1.0, -2.0, -3.0]}),
                json.dumps({"id": 1, "loglikelihoods": [-1.0, -2.0, -3.0, -4.0, -5.0, 0.5]}),
                json.dumps({"id": 99999, "loglikelihoods": good}),
                json.dumps({"id": "1", "loglikelihoods": good}),
                json.dumps({"loglikelihoods": good}),
                "not json",
                json.dumps({"id": 2, "text": "3"}),
            ]
        )
        + "\n"
    )
    name = str(answers)
    prompts = tmp_path / "p.jsonl"
    assert (
        main(["prompts", "jsts-neg", "--prompt", "llm-jp-eval-loglikelihood", *UNVERIFIED_JSTS, "-o", str(prompts)])
        == 0
    )
    order = [json.loads(line)["id"] for line in prompts.read_text().splitlines()]
    first_missing = ", ".join(str(i) for i in [i for i in order if i not in (0, 1, 2)][:5])  # in the prompts' order
    capsys.readouterr()
    out = tmp_path / "sub"
    argv = ["import", "jsts-neg", str(answers), "--prompt", "llm-jp-eval-loglikelihood", *UNVERIFIED_JSTS]
    assert main([*argv, *NEW_MODEL, "-o", str(out)]) == 2
    expected = [
        f"error: {name}:1: loglikelihoods: expected 6 numbers (one per continuation, in order), got 3",
        f"error: {name}:2: loglikelihoods: expected log-likelihoods (numbers <= 0)",
        f"error: {name}:3: id: no request has the id 99999",
        f"error: {name}:4: id: '1' was answered on line 2 already",
        f"error: {name}:5: id: missing field (the request's id)",
        f"error: {name}:6: invalid JSON: Expecting value (column 1)",  # the JSONL reader's words
        f"error: {name}:7: loglikelihoods: missing field",
        f"error: {name}: id: no answer for 37 requests: {first_missing} and 32 more",
    ]
    assert sorted(capsys.readouterr().err.splitlines()) == sorted(expected)
    assert not out.exists()


def test_generated_text_must_be_a_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _jsts_records()
    answers = tmp_path / "answers.jsonl"
    lines = [{"id": r["id"], "text": "3"} for r in records]
    lines[5] = {"id": records[5]["id"], "text": 3}
    answers.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = ["import", "jsts-neg", str(answers), "--prompt", "llm-jp-eval", *UNVERIFIED_JSTS, *NEW_MODEL]
    assert main([*argv, "-o", str(tmp_path / "sub")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {answers}:6: text: expected a string (the engine's output), got an integer\n"


def test_an_import_without_metadata_needs_the_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _jsts_records()
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": r["id"], "text": "4"}) + "\n" for r in records))
    argv = ["import", "jsts-neg", str(answers), "--prompt", "llm-jp-eval", *UNVERIFIED_JSTS]
    assert main([*argv, "-o", str(tmp_path / "sub")]) == 2
    assert capsys.readouterr().err == (
        f"error: -o: {tmp_path / 'sub'} has no metadata.yaml: name the weights that answered, pinned: --repo-id "
        "ORG/NAME --revision COMMIT (a Hub model) or --weights PATH (its folder or GGUF file), with --parameters N\n"
    )
    assert not (tmp_path / "sub").exists()
    assert main([*argv, *NEW_MODEL, "-o", str(tmp_path / "sub")]) == 0
    lines = _rows(tmp_path / "sub" / "predictions/jsts-neg/jsts-neg-test-llm-jp-eval-0shot.jsonl")
    assert {line["prediction"] for line in lines} == {4} and len(lines) == 40
    # a second import adds its run to the same folder's metadata
    assert main([*argv, "--engine", "another engine 1.0", "-o", str(tmp_path / "sub")]) == 0
    meta = safe_yaml.load((tmp_path / "sub" / "metadata.yaml").read_text()).value
    assert len(meta["runs"]) == 1 and meta["provenance"]["jsts-neg.llm-jp-eval.default.engine"] == "another engine 1.0"


# --- an lm-eval user's row and a `neghub run` row of one model: one board, one row --------------------------

RUN_BY = ["--submitter-name", "Alice", "--submitter-contact", "alice@example.org", "--submitter-github", "alice"]
IMPORTED_BY = ["--submitter-name", "Bob", "--submitter-contact", "bob@example.org", "--submitter-github", "bob"]


def _lm_eval_log(
    tasks: Path,
    scores_of: Callable[[dict[str, Any]], list[float]],
    folder: Path,
    out: Path,
    *,
    parameters: int = 1000,
    chat_template: str | None = None,
    limit: int | None = None,
) -> None:
    """lm-eval 0.4.13's output for the exported tasks in `tasks`, each document's choices answered with
    `scores_of(document)`: results_<time>.json (each task's config, with the NegHub run it names; the model lm-eval
    loaded, `pretrained=folder`; the chat template it applied, if any) and samples_<task>_<time>.jsonl, a sample per
    document (the first `limit` only, as lm-eval's --limit), a response per choice as lm-eval writes it
    ([[log-likelihood, is-greedy]], strings)."""
    import yaml

    from tests.test_lm_eval_files import FunctionLoader, write_lm_eval_results

    configs: dict[str, dict[str, Any]] = {}
    samples: dict[str, list[dict[str, Any]]] = {}
    for task_file in sorted(tasks.glob("*.yaml")):
        config = yaml.load(task_file.read_text(encoding="utf-8"), Loader=FunctionLoader)
        name = config["task"]
        configs[name] = {"task": name, "metadata": config["metadata"]}
        docs = [json.loads(line) for line in task_file.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
        samples[name] = []
        for number, doc in enumerate(docs[:limit]):
            scores = scores_of(doc)
            assert len(scores) == len(doc["choices"])
            resps = [[[str(score), "False"]] for score in scores]
            sample = {"doc_id": number, "doc": doc, "resps": resps, "filtered_resps": [r[0] for r in resps]}
            samples[name].append(sample)
    write_lm_eval_results(out, configs, samples, {"pretrained": str(folder), "dtype": "float32"})
    (results_file,) = out.rglob("results_*.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))
    results["config"]["model_num_parameters"] = parameters
    results["chat_template"] = chat_template
    results_file.write_text(json.dumps(results), encoding="utf-8")


def _first_best(doc: dict[str, Any]) -> list[float]:
    """Log-likelihoods that pick each document's first choice."""
    return [-1.0 - i for i in range(len(doc["choices"]))]


def test_an_lm_eval_import_and_a_neghub_run_of_one_model_are_one_row_on_one_board(
    models: dict[str, Path], tmp_path: Path
) -> None:
    from neghub.leaderboard.collect import collect

    folder = models["causal"]
    submissions = tmp_path / "submissions"
    ran = submissions / "tiny-run"
    argv = ["run", str(folder), "--tasks", "nubench", "--mode", "completion", *RUN_BY, "--license", "apache-2.0"]
    assert main([*argv, "-o", str(ran), "--no-progress"]) == 0
    ran_meta = safe_yaml.load((ran / "metadata.yaml").read_text()).value
    (run,) = ran_meta["runs"]

    tasks = tmp_path / "tasks"
    assert main(["export", "lm-eval", str(tasks), "--tasks", "nubench", "--mode", "completion"]) == 0
    results = tmp_path / "lm-eval-output"
    by_id = {line["id"]: line for line in _rows(ran / run["file"])}

    def run_answers(doc: dict[str, Any]) -> list[float]:
        # the run's line holds each offered option's log-likelihood, in the order the options are offered (the
        # document's choices); an option not offered is null
        return [value for value in by_id[doc["neghub_id"]]["loglikelihoods"].values() if value is not None]

    _lm_eval_log(tasks, run_answers, folder, results, parameters=ran_meta["model"]["parameters"])
    imported = submissions / "tiny-lm-eval"
    assert main(["import", "lm-eval", str(results), *IMPORTED_BY, "--license", "apache-2.0", "-o", str(imported)]) == 0
    meta = safe_yaml.load((imported / "metadata.yaml").read_text()).value

    # the same setting fields: the run as metadata lists it, and the settings provenance records for it (a
    # completion run's log-likelihoods go through no chat template: neither records one)
    (imported_run,) = meta["runs"]
    assert imported_run == run
    prefix = f"nubench.{run['prompt']}.{run['mode']}."
    settings = {k.removeprefix(prefix): v for k, v in meta["provenance"].items() if k.startswith(prefix)}
    ran_settings = {k.removeprefix(prefix): v for k, v in ran_meta["provenance"].items() if k.startswith(prefix)}
    assert "chat_template" not in settings and "chat_template" not in ran_settings
    assert {k: settings[k] for k in ("protocol", "scoring")} == {k: ran_settings[k] for k in ("protocol", "scoring")}
    assert meta["model"]["sha256"] == ran_meta["model"]["sha256"]  # the folder lm-eval loaded, pinned as run pins it
    assert _rows(imported / run["file"]) == _rows(ran / run["file"])

    # the leaderboard: one board, and on it one row of the model, the other account's submission its confirmation
    board_file = collect(submissions, reported=False, reproductions_dir=None).file
    rows = [entry for entry in board_file.rows if entry.kind == "verified"]
    assert {entry.submission for entry in rows} == {"tiny-run", "tiny-lm-eval"}
    assert len({entry.board for entry in rows}) == 1
    (shown,) = [entry for entry in rows if entry.status != "duplicate"]
    (duplicate,) = [entry for entry in rows if entry.status == "duplicate"]
    assert duplicate.duplicate_of == shown.row
    # "also submitted by" the other submission (its account where the build has main's history, as CI's has)
    (other,) = {"tiny-run", "tiny-lm-eval"} - {shown.submission}
    assert len(shown.also_submitted_by) == 1 and shown.also_submitted_by[0].endswith(f"({other})")


def test_a_limit_import_is_refused_naming_the_export_that_tries_a_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_lm_eval_files import SIGNED, model_folder

    folder = model_folder(tmp_path / "tiny")
    prompt = ["--prompt", "llm-jp-eval-loglikelihood"]
    tasks, results = tmp_path / "tasks", tmp_path / "limited"
    assert main(["export", "lm-eval", str(tasks), "--tasks", "jsts-neg", *prompt, *UNVERIFIED_JSTS]) == 0
    _lm_eval_log(tasks, _first_best, folder, results, limit=10)  # lm_eval --limit 10: 10 of the 40 items
    (samples,) = results.rglob("samples_*.jsonl")
    capsys.readouterr()
    argv = ["import", "lm-eval", str(results), *UNVERIFIED_JSTS, *SIGNED]
    assert main([*argv, "-o", str(tmp_path / "sub")]) == 2
    assert capsys.readouterr().err == (
        f"error: {samples}: no sample for 30 of 40 requests (was --limit used? an import needs every request "
        "answered; to try a model on a few items, export them: neghub export lm-eval DIR --tasks jsts-neg "
        "--max-items N, and run lm-eval on that task without --limit)\n"
    )
    assert not (tmp_path / "sub").exists()

    # the way it names: a sample exported, every request of it answered, imported
    tasks, results = tmp_path / "trial-tasks", tmp_path / "trial"
    trial = ["--tasks", "jsts-neg", *prompt, "--max-items", "10", *UNVERIFIED_JSTS]
    assert main(["export", "lm-eval", str(tasks), *trial]) == 0
    _lm_eval_log(tasks, _first_best, folder, results)
    assert main(["import", "lm-eval", str(results), *UNVERIFIED_JSTS, *SIGNED, "-o", str(tmp_path / "sub")]) == 0
    (run,) = safe_yaml.load((tmp_path / "sub" / "metadata.yaml").read_text()).value["runs"]
    (docs,) = tasks.glob("*.jsonl")
    sample = {json.loads(line)["neghub_id"] for line in docs.read_text().splitlines()}
    assert 0 < len(sample) < 40  # a sample (whole pairs of it), every item of it imported
    assert {row["id"] for row in _rows(tmp_path / "sub" / run["file"])} == sample


@pytest.mark.parametrize(
    ("task", "options", "recorded"),
    [
        # a JSTS-Neg run's prompts go through a chat template where the model has one: `neghub run` records its use
        ("jsts-neg", ["--prompt", "llm-jp-eval-loglikelihood", *UNVERIFIED_JSTS], {None: False, "{{ x }}": True}),
        # NUBench's log-likelihoods never do (`neghub run` records none); lm-eval's --apply_chat_template is said
        ("nubench", ["--mode", "completion"], {None: "absent", "{{ x }}": True}),
    ],
)
def test_an_import_records_the_chat_template_as_neghub_run_records_it(
    tmp_path: Path, task: str, options: list[str], recorded: dict[str | None, object]
) -> None:
    from tests.test_lm_eval_files import SIGNED, model_folder

    folder = model_folder(tmp_path / "tiny")
    tasks = tmp_path / "tasks"
    assert main(["export", "lm-eval", str(tasks), "--tasks", task, *options]) == 0
    for template, expected in recorded.items():
        results, out = tmp_path / f"results-{expected}", tmp_path / f"sub-{expected}"
        _lm_eval_log(tasks, _first_best, folder, results, chat_template=template)
        data = [o for o in options if o in UNVERIFIED_JSTS]
        assert main(["import", "lm-eval", str(results), *data, *SIGNED, "-o", str(out)]) == 0
        meta = safe_yaml.load((out / "metadata.yaml").read_text()).value
        (run,) = meta["runs"]
        key = f"{task}.{run['prompt']}.{run['mode'] or 'default'}.chat_template"
        assert meta["provenance"].get(key, "absent") == expected, template
