"""lm-evaluation-harness both ways, end to end (`nox -s interop`, which installs lm-eval 0.4.x).

`neghub export lm-eval` writes the tasks; lm-eval runs them on a tiny random model folder built here with
`--log_samples`; `neghub import lm-eval` turns the samples into a submission that `neghub validate` accepts,
its model pinned as `neghub run` pins it;
and `neghub run` on the same folder gives the same answer (the same arg-max, the same parsed label, the
same letter, the same cloze rows) on at least 99.5% of the items of every run. Two engines computing in
float32 in different orders may differ on near ties: that is what the 0.5% allows, and each difference
is printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.cli import main
from neghub.evaluator.fileio import safe_yaml
from tests.test_lm_eval_files import SIGNED
from tests.tiny_models import byte_level_bpe, tiny_llama

pytestmark = pytest.mark.interop
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
pytest.importorskip("lm_eval")

FIXTURE_MIRROR = Path(__file__).resolve().parents[1] / "fixtures" / "mirror"  # JSTS-Neg's 40 test items
SCN_PAIRS = "2"
AGREEMENT = 0.995


def _tiny_model(folder: Path, corpus: list[str]) -> Path:
    """A 2-layer Llama with random weights and a byte-level BPE trained here on the exported prompts.

    One thing is set by hand: the cloze test keeps a triplet only where the model's top-1 after "... likes
    to" is the verb, which a random model never is, and an empty prediction file is refused. So " to" gets
    an embedding that dominates the residual stream (and that no other token shares a direction with), and
    the output row of " run" points along its final hidden state: after " to" the model says " run"."""
    tok = byte_level_bpe(corpus, 4000)
    torch.manual_seed(0)
    model = tiny_llama(tok, hidden_size=32).eval()
    to, run = tok.convert_tokens_to_ids(["Ġto", "Ġrun"])
    with torch.no_grad():
        embeddings = model.model.embed_tokens.weight
        direction = embeddings[to] / embeddings[to].norm()
        embeddings -= torch.outer(embeddings @ direction, direction)
        embeddings[to] = direction * 100.0
        ids = torch.tensor([tok("Mary is a nurse who likes to")["input_ids"]])
        hidden = model.model(ids).last_hidden_state[0, -1]
        model.lm_head.weight[run] = 5.0 * hidden / hidden.dot(hidden)
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


def _lm_eval(model: Path, tasks: Path, out: Path) -> None:
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
    subprocess.run(command, check=True, env=env)


def test_lm_eval_runs_the_exported_tasks_and_agrees_with_neghub_run(tmp_path: Path) -> None:
    exported = tmp_path / "tasks"
    _neghub("export", "lm-eval", str(exported), "--tasks", "jnli-neg,nubench,scn", "--max-pairs", SCN_PAIRS)
    mirror = ["--data-dir", str(FIXTURE_MIRROR), "--unverified"]  # JSTS-Neg has no pinned release yet
    _neghub("export", "lm-eval", str(exported), "--tasks", "jsts-neg", *mirror)
    corpus = [json.loads(line)["query"] for docs in sorted(exported.glob("*.jsonl")) for line in docs.open()]
    corpus += [
        c for docs in sorted(exported.glob("*.jsonl")) for line in docs.open() for c in json.loads(line)["choices"]
    ]
    model = _tiny_model(tmp_path / "tiny-model", corpus)

    _lm_eval(model, exported, tmp_path / "lm-eval-results")

    imported = tmp_path / "imported"
    _neghub(
        "import",
        "lm-eval",
        str(tmp_path / "lm-eval-results"),
        "--tasks",
        "jnli-neg,nubench,scn",
        *SIGNED,
        "-o",
        str(imported),
    )
    _neghub("validate", str(imported))  # what the leaderboard runs
    imported_jsts = tmp_path / "imported-jsts"
    _neghub(
        "import",
        "lm-eval",
        str(tmp_path / "lm-eval-results"),
        "--tasks",
        "jsts-neg",
        *mirror,
        *SIGNED,
        "-o",
        str(imported_jsts),
    )

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
        assert imported_meta["model"] == ran_meta["model"] and len(imported_meta["model"]["sha256"]) == 64
        ran_runs, imported_runs = ran_meta["runs"], imported_meta["runs"]
        assert sorted(r["file"] for r in imported_runs) == sorted(r["file"] for r in ran_runs)
        for run in ran_runs:
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
