"""lm-evaluation-harness both ways, end to end (`nox -s interop`, which installs lm-eval 0.4.13).

`neghub export lm-eval` writes the tasks; lm-eval runs them on a tiny random model folder built here with
`--log_samples`; `neghub import lm-eval` turns the samples into a submission that `neghub validate` accepts,
and then:

- lm-eval's numbers are NegHub's: every figure lm-eval returns for a task (its results JSON) equals the one
  `neghub evaluate` gives on the prediction file imported from that task's samples, and lm-eval prints it
  (its table, four decimals);
- the import pins the model lm-eval loaded as `neghub run` pins it (the folder's sha256, its parameters);
- `neghub run` on the same folder gives the same answer (the same arg-max, the same parsed label, the same
  letter, the same cloze rows) on at least 99.5% of the items of every run. Two engines computing in
  float32 in different orders may differ on near ties: that is what the 0.5% allows, and each difference
  is printed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.cli import main
from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.submissions.format import settings_prefix
from tests.test_lm_eval_files import SIGNED, neghub_figures
from tests.tiny_models import END_OF_TEXT, byte_level_bpe, tiny_llama

pytestmark = pytest.mark.interop
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
pytest.importorskip("lm_eval")

FIXTURE_MIRROR = Path(__file__).resolve().parents[1] / "fixtures" / "mirror"  # JSTS-Neg's 40 test items
SCN_PAIRS = "2"
AGREEMENT = 0.995


def _tiny_model(folder: Path, exported: Path) -> Path:
    """A 2-layer Llama with random weights and a byte-level BPE trained here on the exported documents.

    A random model's figures are mostly zero; a few next tokens are set by hand so that some are not. The
    token that ends a context gets an embedding that dominates the residual stream (and that no other token
    shares a direction with), and the output row of the token to say points along the final hidden state
    after it. So after "... likes to" the model says " run" (the cloze test keeps a triplet only where the
    top-1 of CpTp is the verb, and an empty prediction file is refused); after NUBench's "Answer:" it says
    " A" then a newline (right where the shuffle put the right option first); after llm-jp-eval's
    "### 応答:" and its newline it says "3" and ends (right on JSTS-Neg's items of gold 3)."""
    docs = [json.loads(line) for file in sorted(exported.glob("*.jsonl")) for line in file.open(encoding="utf-8")]
    corpus = [d["query"] for d in docs] + [c for d in docs for c in d["choices"]]
    tok = byte_level_bpe(corpus, 4000)
    torch.manual_seed(0)
    model = tiny_llama(tok, hidden_size=32).eval()
    option_prompt = next(d["query"] for d in docs if d["query"].endswith("Answer:"))
    sts_prompt = next(d["query"] for d in docs if "類似度" in d["query"])
    # (a context, the token it ends with, the token said after it)
    said = [
        ("Mary is a nurse who likes to", "Ġto", "Ġrun"),
        (option_prompt, ":", "ĠA"),
        (option_prompt + " A", "ĠA", "Ċ"),
        (sts_prompt, "Ċ", "3"),
        (sts_prompt + "3", "3", END_OF_TEXT),
    ]
    assert len({token for _, _, token in said}) == len(said)  # one context per output row: none overwrites another
    assert all(tok(context)["input_ids"][-1] == tok.convert_tokens_to_ids(end) for context, end, _ in said)
    with torch.no_grad():
        embeddings = model.model.embed_tokens.weight
        for end in dict.fromkeys(end for _, end, _ in said):
            token = tok.convert_tokens_to_ids(end)
            direction = embeddings[token] / embeddings[token].norm()
            embeddings -= torch.outer(embeddings @ direction, direction)
            embeddings[token] = direction * 100.0
        for context, _, next_token in said:
            hidden = model.model(torch.tensor([tok(context)["input_ids"]])).last_hidden_state[0, -1]
            model.lm_head.weight[tok.convert_tokens_to_ids(next_token)] = 5.0 * hidden / hidden.dot(hidden)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def _neghub(*argv: str) -> None:
    assert main(list(argv)) == 0, argv


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _answer_of(file: str) -> Callable[[dict[str, Any]], Any]:
    """What must agree on one line: the arg-max of a completion's log-likelihoods, else the line's answer."""

    def completion(line: dict[str, Any]) -> Any:
        scores = {k: v for k, v in line["loglikelihoods"].items() if v is not None}
        return max(scores, key=lambda k: scores[k])

    if "-completion-" in file:
        return completion
    if "/scn/" in file:
        return lambda line: line["top1"]
    if "-option-" in file:
        return lambda line: line["output"]
    # a generated answer: its label or score, and the text when it did not parse (a random model's mostly)
    return lambda line: (line["prediction"], line.get("raw_output"))


def _key(file: str, line: dict[str, Any]) -> Any:
    if "/scn/" in file:
        return (line["name"], line["profession"], line["variant"], line["verb"], line["pattern"])
    return line["id"]


def _agreement(ours: Path, theirs: Path, file: str) -> tuple[float, int]:
    answer = _answer_of(file)
    a = {_key(file, line): answer(line) for line in _lines(ours)}
    b = {_key(file, line): answer(line) for line in _lines(theirs)}
    keys = set(a) | set(b)
    differ = sorted((k for k in keys if a.get(k) != b.get(k)), key=str)
    for key in differ[:10]:
        print(f"{file}: {key}: neghub run {a.get(key)!r}, lm-eval {b.get(key)!r}", file=sys.stderr)
    return 1 - len(differ) / len(keys), len(keys)


def _lm_eval(model: Path, tasks: Path, out: Path, cwd: Path) -> str:
    """Run lm_eval as a user does, from `cwd`; its standard output (the table it prints)."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    command = [
        sys.executable,
        "-m",
        "lm_eval",
        "--model",
        "hf",
        "--model_args",
        f"pretrained={model},dtype=float32",
        "--include_path",
        str(tasks),
        "--tasks",
        "neghub",
        "--batch_size",
        "32",
        "--device",
        "cpu",
        "--log_samples",
        "--output_path",
        str(out),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=cwd)
    print(done.stdout, done.stderr[-5000:], sep="\n", file=sys.stderr)
    assert done.returncode == 0
    return done.stdout


def _printed(table: str) -> dict[tuple[str, str], str]:
    """(task, metric) -> the value as lm-eval's markdown table prints it (a task's later rows leave it blank)."""
    printed: dict[tuple[str, str], str] = {}
    task = ""
    for row in table.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[4] not in ("Metric", "") and not set(cells[4]) <= {"-", ":"}:
            task = cells[0] or task
            printed[(task, cells[4])] = cells[6]
    return printed


def _is_printed(text: str, value: float) -> bool:
    """lm-eval writes a figure with 4 decimals (make_table's f"{v:.4f}"), and pytablewriter then drops the
    trailing zeros its whole column shares (0.0000, 0.3000 print as 0.0, 0.3): the same number, at most 4 places."""
    return len(text.partition(".")[2]) <= 4 and float(text) == float(f"{value:.4f}")


def _lm_eval_results(out: Path) -> dict[str, dict[str, Any]]:
    (results_file,) = out.rglob("results_*.json")
    return dict(json.loads(results_file.read_text(encoding="utf-8"))["results"])


def test_lm_eval_prints_neghubs_scores_and_agrees_with_neghub_run(tmp_path: Path) -> None:
    written = tmp_path / "written-here"
    _neghub("export", "lm-eval", str(written), "--tasks", "jnli-neg,nubench,scn", "--max-pairs", SCN_PAIRS)
    mirror = ["--data-dir", str(FIXTURE_MIRROR), "--unverified"]  # JSTS-Neg has no pinned release yet
    _neghub("export", "lm-eval", str(written), "--tasks", "jsts-neg", *mirror)
    # the folder moved, and lm-eval run from a third folder: each task finds its documents beside itself
    (tmp_path / "moved").mkdir()
    exported = Path(shutil.move(str(written), str(tmp_path / "moved" / "tasks")))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    model = _tiny_model(tmp_path / "tiny-model", exported)

    table = _lm_eval(model, exported, tmp_path / "lm-eval-results", elsewhere)

    imported = tmp_path / "imported"
    results = str(tmp_path / "lm-eval-results")
    _neghub("import", "lm-eval", results, "--tasks", "jnli-neg,nubench,scn", *SIGNED, "-o", str(imported))
    _neghub("validate", str(imported))  # what the leaderboard runs
    imported_jsts = tmp_path / "imported-jsts"
    _neghub("import", "lm-eval", results, "--tasks", "jsts-neg", *mirror, *SIGNED, "-o", str(imported_jsts))

    # lm-eval's figures are neghub evaluate's, on the same answers
    returned = _lm_eval_results(tmp_path / "lm-eval-results")
    printed = _printed(table)
    figures: dict[tuple[str, str], Any] = {}
    for folder in (imported, imported_jsts):
        meta = safe_yaml.load((folder / "metadata.yaml").read_text()).value
        for run in meta["runs"]:
            scored = tmp_path / "scored.json"
            options = ["--mode", run["mode"]] if run["mode"] else []
            options += mirror if run["task"] == "jsts-neg" else []
            _neghub("evaluate", run["task"], str(folder / run["file"]), *options, "-o", str(scored))
            metrics = json.loads(scored.read_text())["metrics"]
            name = meta["provenance"][settings_prefix(run["task"], run["prompt"], run["mode"]) + ".lm_eval_task"]
            for metric, value in neghub_figures(run["task"], run["mode"], metrics).items():
                assert returned[name][f"{metric},none"] == value, (name, metric)
                assert _is_printed(printed[(name, metric)], value), (name, metric)
                figures[(name, metric)] = value
    print("\n".join(f"{name} {metric}: {value}" for (name, metric), value in figures.items()), file=sys.stderr)
    assert len(figures) == 13  # acc of 6 runs, NUBench completion's acc_norm, SCN's 4 drops, contrast, triplets
    # the hand-set tokens make these more than zero: a comparison of zeros alone would prove little
    assert figures[("neghub_nubench_test_option_simple_0shot", "acc")] > 0
    assert figures[("neghub_jsts_neg_test_llm_jp_eval_0shot", "acc")] > 0
    assert figures[("neghub_scn_all_causal_0shot_seed0", "triplets")] > 0

    ran = tmp_path / "ran"
    _neghub(
        "run", str(model), "--tasks", "jnli-neg,nubench,scn", "--max-pairs", SCN_PAIRS, "-o", str(ran), "--no-progress"
    )
    ran_jsts = tmp_path / "ran-jsts"
    _neghub("run", str(model), "--tasks", "jsts-neg", *mirror, "-o", str(ran_jsts), "--no-progress")

    compared = []
    for ours, theirs in ((ran, imported), (ran_jsts, imported_jsts)):
        ran_meta = safe_yaml.load((ours / "metadata.yaml").read_text()).value
        imported_meta = safe_yaml.load((theirs / "metadata.yaml").read_text()).value
        # the import pins the model lm-eval loaded as neghub run pins it
        assert imported_meta["model"] == ran_meta["model"]
        assert imported_meta["model"]["kind"] == "local" and len(imported_meta["model"]["sha256"]) == 64
        assert sorted(r["file"] for r in imported_meta["runs"]) == sorted(r["file"] for r in ran_meta["runs"])
        for run in ran_meta["runs"]:
            share, n = _agreement(ours / run["file"], theirs / run["file"], run["file"])
            print(f"{run['file']}: {share:.2%} of {n} items agree", file=sys.stderr)
            compared.append((run["file"], share, n))
    assert len(compared) == 7  # two protocols x two minimal-pair benchmarks, two NUBench modes, the cloze test
    assert all(n > 0 for _, _, n in compared)
    assert [c for c in compared if c[1] < AGREEMENT] == []
    meta = safe_yaml.load((imported / "metadata.yaml").read_text()).value
    hashes = [k for k in meta["provenance"] if k.endswith(".lm_eval_task_hash")]
    assert len(hashes) == 5 and all(len(meta["provenance"][k]) == 64 for k in hashes)
    assert str(meta["provenance"]["jnli-neg.llm-jp-eval.default.engine"]).startswith("lm-evaluation-harness 0.4.")
    assert meta["submitter"] == {"name": "Tester", "contact": "tester@example.org", "github": "tester"}


PLUGIN = "korean-negation-mc"  # tests/fixtures/plugin, which `nox -s interop` installs


def test_lm_eval_prints_the_score_a_plugin_benchmark_declares(tmp_path: Path) -> None:
    # the worked plugin declares no lm-eval scoring of its own: its family's is what lm-eval prints, and it is
    # neghub evaluate's figure on the answers lm-eval gave
    exported = tmp_path / "tasks"
    _neghub("export", "lm-eval", str(exported), "--tasks", PLUGIN)
    docs = [json.loads(line) for file in sorted(exported.glob("*.jsonl")) for line in file.open(encoding="utf-8")]
    tok = byte_level_bpe([d["query"] for d in docs] + [c for d in docs for c in d["choices"]], 2000)
    torch.manual_seed(0)
    model = tmp_path / "tiny-model"
    tiny_llama(tok, hidden_size=32).eval().save_pretrained(model)
    tok.save_pretrained(model)

    table = _lm_eval(model, exported, tmp_path / "lm-eval-results", tmp_path)
    imported = tmp_path / "imported"
    _neghub("import", "lm-eval", str(tmp_path / "lm-eval-results"), "--tasks", PLUGIN, *SIGNED, "-o", str(imported))
    _neghub("validate", str(imported))

    returned = _lm_eval_results(tmp_path / "lm-eval-results")
    printed = _printed(table)
    meta = safe_yaml.load((imported / "metadata.yaml").read_text()).value
    compared = []
    for run in meta["runs"]:
        scored = tmp_path / "scored.json"
        _neghub("evaluate", PLUGIN, str(imported / run["file"]), "--mode", run["mode"], "-o", str(scored))
        metrics = json.loads(scored.read_text())["metrics"]
        name = meta["provenance"][settings_prefix(PLUGIN, run["prompt"], run["mode"]) + ".lm_eval_task"]
        for metric in ("acc", "acc_norm") if run["mode"] == "completion" else ("acc",):
            assert returned[name][f"{metric},none"] == metrics[metric], (name, metric)
            assert _is_printed(printed[(name, metric)], metrics[metric]), (name, metric)
            compared.append((name, metric))
    assert len(compared) == 3  # the completion run's acc and acc_norm, the option run's acc
