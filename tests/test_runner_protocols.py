"""The runner's protocols with tiny models built here: fine-tuned classifier heads (NLI labels through
id2label or --label-map, STS regression rounded and clipped), the minimal-pair benchmarks' log-likelihood
label protocol and chat templates, the cloze test with a byte-level BPE tokenizer, and decoded text that
never ends in a broken character.

Expected answers are computed here from the model directly (one plain forward pass per item, lm-eval's
token boundaries written out by hand), never read from the runner's output.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.models
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

from neghub.evaluator.cli import main  # noqa: E402
from neghub.evaluator.core.errors import InputError  # noqa: E402
from neghub.evaluator.families.classifier import ClassifierTask, resolve_label_map, round_to_scale  # noqa: E402
from neghub.evaluator.families.llm_jp import LLM_JP_PREAMBLE  # noqa: E402
from neghub.evaluator.fileio import safe_yaml  # noqa: E402
from neghub.evaluator.runners.loading import ModelSource, load_backend  # noqa: E402
from tests.test_runners import SHARED, _check_folder  # noqa: E402
from tests.tiny_models import bert_special_tokens, byte_level_bpe, tiny_encoder_config, tiny_llama  # noqa: E402

MIRROR = Path(__file__).parent / "fixtures" / "mirror"  # JSTS-Neg: 40 test and some train instances
JSTS = ["--tasks", "jsts-neg", "--data-dir", str(MIRROR), "--unverified", "--no-progress"]
CHAT_TEMPLATE = "{% for m in messages %}<|user|>{{ m['content'] }}<|end|>{% endfor %}" + (
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
CHAT_ITEMS = 6  # of the 40 JSTS-Neg fixture items
NLI_HEAD_CHECKED = 50  # of the 200 pairs the head is centred on
LABEL_WORD_ITEMS = 20  # the sample takes whole groups of a JSTS-Neg pair (6 to 11 items here)
NLI = ("entailment", "neutral", "contradiction")


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _jsts_records() -> list[dict[str, Any]]:
    return _records(MIRROR / "jsts-neg" / "jsts-neg-test.jsonl")


def _lines(path: Path) -> dict[Any, dict[str, Any]]:
    return {row["id"]: row for row in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def _metadata(out: Path) -> dict[str, Any]:
    value: dict[str, Any] = safe_yaml.load((out / "metadata.yaml").read_text()).value
    return value


# --- fine-tuned classifiers ------------------------------------------------------------------------------


def _pair_tokenizer(sentences: list[str]) -> Any:
    """A WordPiece tokenizer trained here on the sentences, with BERT's pair template."""
    tok = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = tokenizers.normalizers.BertNormalizer()
    tok.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    specials = ["[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"]
    tok.train_from_iterator(sentences, tokenizers.trainers.WordPieceTrainer(vocab_size=400, special_tokens=specials))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = tokenizers.processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return bert_special_tokens(tok)


def _classifier(folder: Path, records: list[dict[str, Any]], labels: tuple[str, ...] | None) -> Path:
    """A random 2-layer BERT with a sequence-classification head: NLI labels, or one regression output
    (labels None) whose values spread over about -2..7, so that rounding and clipping both happen."""
    sentences = [r[k]["sentence"] for r in records for k in ("sentence1", "sentence2")]
    tok = _pair_tokenizer(sentences)
    torch.manual_seed(0)
    head: dict[str, Any] = (
        {"num_labels": 1, "problem_type": "regression"}
        if labels is None
        else {"id2label": dict(enumerate(labels)), "label2id": {label: i for i, label in enumerate(labels)}}
    )
    config = tiny_encoder_config(transformers.BertConfig, tok, max_position_embeddings=256, **head)
    model = transformers.BertForSequenceClassification(config)
    model.eval()
    with torch.no_grad():
        # outputs that differ from pair to pair: with BERT's small init the [CLS] state barely does
        for layer in model.modules():
            if isinstance(layer, torch.nn.Linear):
                layer.weight.normal_(0.0, 0.5)
        # then centred on these pairs (every label wins some; a regression spreads around 2.5, about 3 either way)
        batch = tok(
            [r["sentence1"]["sentence"] for r in records],
            [r["sentence2"]["sentence"] for r in records],
            padding=True,
            return_tensors="pt",
        )
        logits = model(**batch).logits
        model.classifier.bias -= logits.mean(0)
        if labels is None:
            model.classifier.weight *= 3.0 / float(logits.std())
            model.classifier.bias *= 3.0 / float(logits.std())
            model.classifier.bias += 2.5
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def _head_outputs(folder: Path, records: list[dict[str, Any]]) -> list[list[float]]:
    """Each pair through the model alone: no batch, no padding."""
    tok = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(folder).eval()
    outputs = []
    with torch.no_grad():
        for r in records:
            batch = tok(r["sentence1"]["sentence"], r["sentence2"]["sentence"], return_tensors="pt")
            outputs.append(model(**batch).logits[0].tolist())
    return outputs


def test_an_sts_regression_head_is_rounded_half_up_and_clipped(tmp_path: Path) -> None:
    records = _jsts_records()
    folder = _classifier(tmp_path / "sts", records, None)
    out = tmp_path / "sub"
    assert main(["run", str(folder), *JSTS, "-o", str(out)]) == 0
    meta = _metadata(out)
    assert [(r["prompt"], r["shots"], r["seed"]) for r in meta["runs"]] == [("fine-tuned", 0, None)]
    assert meta["provenance"]["jsts-neg.fine-tuned.default.protocol"] == "classify"
    assert meta["provenance"]["jsts-neg.fine-tuned.default.rounding"] == "half up, clipped to 0..5"
    lines = _lines(out / meta["runs"][0]["file"])
    values = [v for (v,) in _head_outputs(folder, records)]
    expected = {r["id"]: min(5, max(0, math.floor(v + 0.5))) for r, v in zip(records, values, strict=True)}
    assert {i: line["prediction"] for i, line in lines.items()} == expected
    assert min(values) < -0.5 and max(values) > 5.5  # both clips happened
    assert len(set(expected.values())) >= 4


@pytest.mark.skipif(not (SHARED / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_an_nli_head_is_read_through_its_id2label_and_validates(tmp_path: Path) -> None:
    from neghub.evaluator.benchmarks import jnli_neg

    records = jnli_neg.records("valid", SHARED, False)[:200]  # the tokenizer's corpus; the run takes all 1,363
    head = ("CONTRADICTION", "Entailment", "neutral")  # the model's order and spelling, not NegHub's
    folder = _classifier(tmp_path / "nli", records, head)
    out = tmp_path / "sub"
    assert (
        main(["run", str(folder), "--tasks", "jnli-neg", "--data-dir", str(SHARED), "-o", str(out), "--no-progress"])
        == 0
    )
    meta = _check_folder(out, "--data-dir", str(SHARED))
    (run,) = meta.runs
    assert (run.prompt, run.file) == ("fine-tuned", "predictions/jnli-neg/jnli-neg-valid-fine-tuned-0shot.jsonl")
    assert meta.provenance is not None
    assert meta.provenance["jnli-neg.fine-tuned.default.label_map"] == (
        "CONTRADICTION=contradiction,Entailment=entailment,neutral=neutral"
    )
    lines = _lines(out / run.file)
    assert len(lines) == 1363
    # each pair alone through the model is the slow part: a sample in which every label wins some suffices
    checked = records[:NLI_HEAD_CHECKED]
    outputs = _head_outputs(folder, checked)
    expected = {r["id"]: head[max(range(3), key=o.__getitem__)].lower() for r, o in zip(checked, outputs, strict=True)}
    assert {i: lines[i]["prediction"] for i in expected} == expected
    assert set(expected.values()) == set(NLI)


def test_label_names_the_model_does_not_share_need_a_complete_label_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shared_datasets: Path
) -> None:
    # neghub run reads the JNLI-Neg release before it loads the model: without it, it stops there (exit 3)
    records = _jsts_records()  # the sentences only: JSTS-Neg's test split as pairs for an NLI head
    folder = _classifier(tmp_path / "nli", records, ("LABEL_0", "LABEL_1", "LABEL_2"))
    argv = ["run", str(folder), "--tasks", "jnli-neg", "--no-progress"]
    cases = [
        ([], "the model's id2label (LABEL_0, LABEL_1, LABEL_2) names no jnli-neg label for 'LABEL_0'"),
        (["--label-map", "LABEL_0=entailment,LABEL_1=neutral"], "the model's label 'LABEL_2' is not mapped"),
        (
            ["--label-map", "LABEL_0=entailment,LABEL_1=entailment,LABEL_2=neutral"],
            "the label map is ambiguous: 2 outputs give 'entailment'",
        ),
        (["--label-map", "LABEL_0=entailment,LABEL_1=neutral,LABEL_2=yes"], "'yes' is not a jnli-neg label"),
        (
            ["--label-map", "LABEL_0=entailment,LABEL_1=neutral,LABEL_9=contradiction"],
            "the model has no label 'LABEL_9'",
        ),
        (["--label-map", "LABEL_0"], "expected HEAD=LABEL pairs separated by commas, got 'LABEL_0'"),
    ]
    # a regression head for a labelled task (the JNLI-Neg case of test_heads_that_do_not_fit_the_benchmark...)
    sts = _classifier(tmp_path / "sts", records, None)
    assert main(["run", str(sts), "--tasks", "jnli-neg", "-o", str(tmp_path / "o")]) == 2
    assert "jnli-neg needs a classification head with labels" in capsys.readouterr().err
    for extra, message in cases:
        out = tmp_path / "refused"
        assert main([*argv, *extra, "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("error: ") == 1 and message in err, (extra, err)
        assert not out.exists()  # refused before anything was written


def test_a_label_map_names_the_heads_outputs(tmp_path: Path) -> None:
    if not (SHARED / "jnli-neg").is_dir():
        pytest.skip("../shared/datasets/jnli-neg is absent")
    from neghub.evaluator.benchmarks import jnli_neg

    records = jnli_neg.records("valid", SHARED, False)[:100]
    folder = _classifier(tmp_path / "nli", records, ("LABEL_0", "LABEL_1", "LABEL_2"))
    out = tmp_path / "sub"
    mapping = "LABEL_0=neutral,LABEL_1=contradiction,LABEL_2=entailment"
    argv = ["run", str(folder), "--tasks", "jnli-neg", "--data-dir", str(SHARED), "--label-map", mapping]
    assert main([*argv, "-o", str(out), "--no-progress"]) == 0
    lines = _lines(out / "predictions/jnli-neg/jnli-neg-valid-fine-tuned-0shot.jsonl")
    named = ("neutral", "contradiction", "entailment")
    outputs = _head_outputs(folder, records)
    assert {r["id"]: lines[r["id"]]["prediction"] for r in records} == {
        r["id"]: named[max(range(3), key=o.__getitem__)] for r, o in zip(records, outputs, strict=True)
    }


def test_heads_that_do_not_fit_the_benchmark_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _jsts_records()
    nli = _classifier(tmp_path / "nli", records, NLI)
    cases = [
        ([str(nli), *JSTS], "jsts-neg needs a regression head (one output); this model has 3 labels"),
        ([str(nli), "--tasks", "nubench"], "nubench needs a causal LM; this model is classifier"),
        ([str(nli), *JSTS, "--shots", "4"], "a fine-tuned classifier takes no shots"),
        ([str(nli), *JSTS, "--prompt", "llm-jp-eval"], "a fine-tuned classifier runs jsts-neg as fine-tuned only"),
    ]
    for argv, message in cases:
        assert main(["run", *argv, "-o", str(tmp_path / "o")]) == 2
        assert message in capsys.readouterr().err, argv


def test_label_map_resolution() -> None:
    task = ClassifierTask(name="t", default_split="x", pair=lambda r: ("", ""), records=lambda *a: [], labels=NLI)
    assert resolve_label_map(task, ("Neutral", "ENTAILMENT", "contradiction"), ()) == [
        "neutral",
        "entailment",
        "contradiction",
    ]
    with pytest.raises(InputError, match="leaves the label 'contradiction' missing"):
        resolve_label_map(task, ("entailment", "neutral"), ())
    with pytest.raises(InputError, match="ambiguous: 2 outputs give 'neutral'"):
        resolve_label_map(task, ("entailment", "Neutral", "neutral", "contradiction"), ())
    given_map = (("a", "contradiction"), ("b", "entailment"), ("c", "neutral"))
    assert resolve_label_map(task, ("c", "a", "b"), given_map) == ["neutral", "contradiction", "entailment"]


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_a_regression_value_becomes_the_nearest_score_on_the_scale(value: float) -> None:
    score = round_to_scale(value, (0, 5))
    assert 0 <= score <= 5
    if 0 <= value <= 5:
        assert abs(score - value) <= 0.5
    else:
        assert score == (0 if value < 0 else 5)


def test_halves_round_up() -> None:
    assert [round_to_scale(k + 0.5, (0, 5)) for k in range(-1, 6)] == [0, 1, 2, 3, 4, 5, 5]
    assert round_to_scale(2.4999, (0, 5)) == 2


# --- the log-likelihood label protocol and chat templates -------------------------------------------------


def _bpe_causal(folder: Path, corpus: list[str], *, chat_template: str | None = None) -> Path:
    """A random 2-layer Llama with a byte-level BPE trained here (digits and Japanese get their own tokens).

    The tokens of JSTS-Neg's prompt template get zero embeddings: a random model attends to every token
    alike, and the template's hundred tokens would otherwise drown the pair's few and give every item the
    same answer."""
    from neghub.evaluator.benchmarks.jsts_neg import protocol
    from neghub.evaluator.families.llm_jp import llm_jp_prompt

    tok = byte_level_bpe(corpus, 1500)
    if chat_template is not None:
        tok.chat_template = chat_template
    torch.manual_seed(1)
    model = tiny_llama(tok, hidden_size=32)
    template = tok(llm_jp_prompt(protocol.INSTRUCTION, "文1：\n文2："), add_special_tokens=False)["input_ids"]
    with torch.no_grad():  # larger output weights: labels' log-likelihoods differ by more than rounding
        model.lm_head.weight.normal_(0.0, 1.0)
        model.model.embed_tokens.weight[sorted(set(template))] = 0.0
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def _jsts_prompts() -> dict[int, str]:
    """The zero-shot prompt of every JSTS-Neg fixture item, as the plan builds it."""
    from neghub.evaluator.benchmarks.jsts_neg import protocol
    from neghub.evaluator.families.llm_jp import llm_jp_prompt

    return {r["id"]: llm_jp_prompt(protocol.INSTRUCTION, protocol.item_input(r)) for r in _jsts_records()}


def _corpus() -> list[str]:
    scores = [str(score) for score in range(6)] * 5
    return [*_jsts_prompts().values(), *scores, "<|user|> <|end|> <|assistant|>"] * 2


def _reference_loglikelihood(model: Any, tok: Any, context: str, continuation: str) -> float:
    """lm-eval's rule, by hand: trailing whitespace of the context moves to the continuation, whose tokens are
    those of the whole text after the context's; one plain forward pass, summed log-probabilities."""
    stripped = context.rstrip()
    continuation = context[len(stripped) :] + continuation
    ctx = tok(stripped, add_special_tokens=False)["input_ids"]
    cont = tok(stripped + continuation, add_special_tokens=False)["input_ids"][len(ctx) :]
    with torch.no_grad():
        logprobs = torch.log_softmax(model(torch.tensor([ctx + cont])).logits[0].float(), -1)
    return sum(float(logprobs[len(ctx) - 1 + j, t]) for j, t in enumerate(cont))


def _expected_scores(folder: Path, texts: dict[int, str]) -> dict[int, int]:
    tok = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    out = {}
    for item, text in texts.items():
        scores = [_reference_loglikelihood(model, tok, text, str(s)) for s in range(6)]
        out[item] = max(range(6), key=lambda s: (scores[s], -s))
    return out


def test_label_words_are_scored_by_loglikelihood_after_the_llm_jp_prompt(tmp_path: Path) -> None:
    folder = _bpe_causal(tmp_path / "lm", _corpus())
    out = tmp_path / "sub"
    # a trial's sample: each item is scored alike, and a few of the five pairs' groups still give several answers
    trial = ["--max-items", str(LABEL_WORD_ITEMS)]
    assert main(["run", str(folder), *JSTS, "--prompt", "llm-jp-eval-loglikelihood", *trial, "-o", str(out)]) == 0
    meta = _metadata(out)
    (run,) = meta["runs"]
    assert run["prompt"] == "llm-jp-eval-loglikelihood"
    assert run["file"] == "predictions/jsts-neg/jsts-neg-test-llm-jp-eval-loglikelihood-0shot.jsonl"
    assert meta["provenance"]["jsts-neg.llm-jp-eval-loglikelihood.default.protocol"] == "loglikelihood"
    assert meta["provenance"]["chat_template"] == "off"  # auto, and this model has no template
    lines = _lines(out / run["file"])
    assert 0 < len(lines) <= LABEL_WORD_ITEMS
    prompts = {i: p for i, p in _jsts_prompts().items() if i in lines}
    assert all(p.endswith("### 応答:\n") for p in prompts.values())  # the newline moves to the label
    expected = _expected_scores(folder, prompts)
    assert {i: line["prediction"] for i, line in lines.items()} == expected
    assert len(set(expected.values())) >= 4  # the pairs' answers differ


def test_a_chat_template_is_applied_where_the_model_has_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _bpe_causal(tmp_path / "chat", _corpus(), chat_template=CHAT_TEMPLATE)
    # a trial's sample: the template is applied to each prompt alike, so a few items protect it as well as forty
    trial = ["--max-items", str(CHAT_ITEMS)]
    out = tmp_path / "sub"
    assert main(["run", str(folder), *JSTS, "--prompt", "llm-jp-eval-loglikelihood", *trial, "-o", str(out)]) == 0
    meta = _metadata(out)
    assert meta["provenance"]["chat_template"] == "on"
    assert meta["provenance"]["jsts-neg.llm-jp-eval-loglikelihood.default.chat_template"] is True
    # the run says so itself: the leaderboard puts it on the board of runs with a chat template
    assert meta["runs"][0]["chat_template"] is True
    lines = _lines(out / meta["runs"][0]["file"])
    assert len(lines) == CHAT_ITEMS
    # the template's text, written out: the whole prompt is one user message, the label follows the assistant tag
    prompts = {i: p for i, p in _jsts_prompts().items() if i in lines}
    expected = _expected_scores(folder, {i: f"<|user|>{p}<|end|><|assistant|>" for i, p in prompts.items()})
    without = _expected_scores(folder, prompts)
    assert expected != without  # the sample tells a run with the template from one without
    assert {i: line["prediction"] for i, line in lines.items()} == expected

    plain = tmp_path / "plain"
    argv = ["run", str(folder), *JSTS, "--prompt", "llm-jp-eval-loglikelihood", *trial, "--chat-template", "off"]
    assert main([*argv, "-o", str(plain)]) == 0
    assert _metadata(plain)["provenance"]["chat_template"] == "off"
    assert _metadata(plain)["runs"][0]["chat_template"] is False
    assert {i: line["prediction"] for i, line in _lines(plain / meta["runs"][0]["file"]).items()} == without

    # the same model with its template removed from the tokenizer's files (no second tokenizer to train)
    no_template = tmp_path / "plain-model"
    shutil.copytree(folder, no_template)
    (no_template / "chat_template.jinja").unlink(missing_ok=True)
    config_file = no_template / "tokenizer_config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config.pop("chat_template", None)
    config_file.write_text(json.dumps(config), encoding="utf-8")
    assert transformers.AutoTokenizer.from_pretrained(no_template).chat_template is None
    assert main(["run", str(no_template), *JSTS, "--chat-template", "on", "-o", str(tmp_path / "o")]) == 2
    assert "on, but the model's tokenizer has no chat template" in capsys.readouterr().err


def test_generation_sends_the_chat_text_to_the_model(tmp_path: Path) -> None:
    from neghub.evaluator.benchmarks.jsts_neg.protocol import parse_answer

    folder = _bpe_causal(tmp_path / "chat", _corpus(), chat_template=CHAT_TEMPLATE)
    out = tmp_path / "sub"
    assert main(["run", str(folder), *JSTS, "--prompt", "llm-jp-eval", "-o", str(out)]) == 0
    lines = _lines(out / "predictions/jsts-neg/jsts-neg-test-llm-jp-eval-0shot.jsonl")
    tok = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModelForCausalLM.from_pretrained(folder).eval()
    for item, prompt in list(_jsts_prompts().items())[:5]:
        ids = torch.tensor([tok(f"<|user|>{prompt}<|end|><|assistant|>", add_special_tokens=False)["input_ids"]])
        with torch.no_grad():
            greedy = model.generate(ids, max_new_tokens=4, do_sample=False, pad_token_id=tok.pad_token_id)
        text = tok.decode(greedy[0, ids.shape[1] :], skip_special_tokens=True).split("\n\n")[0].rstrip("\ufffd")
        assert lines[item]["prediction"] == parse_answer(text)
        assert lines[item].get("raw_output", text) == text


def test_the_prompt_starts_with_llm_jp_evals_preamble() -> None:
    assert all(p.startswith(LLM_JP_PREAMBLE) for p in _jsts_prompts().values())


# --- the cloze test with any tokenizer, and whole characters ---------------------------------------------


def _roberta_masked(folder: Path) -> Path:
    """A tiny RoBERTa with a byte-level BPE trained here on cloze sentences; the mask's top-1 is always the
    token of " run" (the verb after a space, "Ġrun"), as a real RoBERTa writes a verb inside a sentence."""
    from neghub.evaluator.benchmarks import scn

    lists = scn.load_word_lists()
    sentences = [
        text
        for name in lists.female_names[:5]
        for profession in list(lists.professions)[:5]
        for verb in ("run", "act", "dance", "swim", "walk")
        for text in scn.instantiate(name, profession, verb, "pronoun", mask_token=None, lists=lists).values()
    ]
    bpe = tokenizers.ByteLevelBPETokenizer()
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    bpe.train_from_iterator(sentences * 3, vocab_size=600, min_frequency=2, special_tokens=specials)
    bpe.post_processor = tokenizers.processors.RobertaProcessing(
        ("</s>", bpe.token_to_id("</s>")), ("<s>", bpe.token_to_id("<s>"))
    )
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=bpe._tokenizer,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        # RoBERTa's mask takes the space before it: "to <mask>." predicts the verb as written after a space
        mask_token=tokenizers.AddedToken("<mask>", lstrip=True, special=True),
    )
    torch.manual_seed(0)
    config = tiny_encoder_config(transformers.RobertaConfig, tok, max_position_embeddings=130)
    model = transformers.RobertaForMaskedLM(config)
    run_after_space = tok.convert_tokens_to_ids("Ġrun")
    assert run_after_space != tok.unk_token_id
    with torch.no_grad():
        model.lm_head.bias[run_after_space] = 1000.0
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def test_scn_finds_verbs_the_way_a_byte_level_bpe_writes_them(tmp_path: Path) -> None:
    folder = _roberta_masked(tmp_path / "roberta")
    out = tmp_path / "sub"
    assert main(["run", str(folder), "--tasks", "scn", "--max-pairs", "2", "-o", str(out), "--no-progress"]) == 0
    meta = _check_folder(out)
    rows = [json.loads(line) for line in (out / meta.runs[0].file).read_text().splitlines()]
    # the top-1 is " run" everywhere: one triplet (verb run) per pair and variant, five patterns each
    assert len(rows) == 2 * 4 * 5
    assert {r["verb"] for r in rows} == {"run"} and {r["top1"] for r in rows} == {"run"}


def _partial_byte_causal(folder: Path) -> Path:
    """A causal LM whose every logit is 0, so its greedy token is id 0, and a byte-level BPE whose id 0 is
    the byte 0xE3 alone: the first of the three bytes of "あ" and of most hiragana."""
    bpe = tokenizers.ByteLevelBPETokenizer()
    bpe.train_from_iterator(["あいうえお かきくけこ run walk"] * 20, vocab_size=300, special_tokens=["<|endoftext|>"])
    vocab = bpe.get_vocab()
    first_byte = "ã"  # 0xE3 in the byte-level alphabet
    swapped = {token: (0 if token == first_byte else vocab[first_byte] if i == 0 else i) for token, i in vocab.items()}
    model_json = json.loads(bpe._tokenizer.to_str())
    model_json["model"]["vocab"] = swapped
    model_json["added_tokens"][0]["id"] = swapped["<|endoftext|>"]
    tok = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizers.Tokenizer.from_str(json.dumps(model_json)),
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )
    assert tok.convert_ids_to_tokens(0) == first_byte and tok.decode([0]) == "\ufffd"
    model = tiny_llama(tok, hidden_size=16, layers=1)
    torch.nn.init.zeros_(model.model.norm.weight)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def test_decoded_text_never_ends_in_a_broken_character(tmp_path: Path) -> None:
    backend = load_backend(ModelSource("folder", str(_partial_byte_causal(tmp_path / "lm"))))
    (text,) = backend.generate(["あい"], 3, special_tokens=False)
    assert text == ""  # three first bytes of a character and nothing whole
    assert backend.top1(["あい"]) == [0] and backend.decode_complete([0]) == ""
    tok = backend.tokenizer
    whole = tok("かき", add_special_tokens=False)["input_ids"]
    assert backend.decode_complete([*whole, 0]) == "かき"  # the whole characters before the broken one stay
