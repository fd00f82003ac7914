"""llm-jp-eval's way of asking a generative model a Japanese NLI or STS question, shared by the
minimal-pair benchmarks (their papers evaluate LLMs "following Han et al." with llm-jp-eval's settings),
and a second protocol on the same prompt: each label word scored by log-likelihood (lm-eval's way).

The template is llm-jp-eval's Alpaca-style prompt (Han et al., 2024): a fixed preamble, `### 指示:` with the
task's instruction, few-shot examples as `### 入力:` / `### 応答:` blocks, then the item. Greedy decoding of a
few tokens; the answer is llm-jp-eval's extraction (NFKC, up to the first blank line, stripped), parsed by
the benchmark. Each benchmark's folder supplies its instruction, its input format and its answer parser.

The log-likelihood protocol (prompt style `llm-jp-eval-loglikelihood`, its own board) scores every label
word as the continuation of the same prompt and takes the arg-max, so every answer parses.

With a chat template (`--chat-template auto|on|off`; auto: where the model's tokenizer has one) the whole
prompt is one user message and the answer follows the template's assistant turn; the run records it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import InputError
from ..protocol.lm_eval import MEAN, LmEvalScoring
from ..protocol.plans import Rows, RunPlan, RunSettings, prompt_lengths
from ..protocol.requests import Answer, Request
from .classifier import PROMPT_STYLE as CLASSIFIER_STYLE
from .classifier import ClassifierTask, classifier_plans
from .runs import RequestRuns, TokenLengths

if TYPE_CHECKING:
    from ..protocol.model import LoadedModel

LLM_JP_PREAMBLE = "以下は、タスクを説明する指示と、文脈のある入力の組み合わせです。要求を適切に満たす応答を書きなさい。"
PROMPT_STYLE = "llm-jp-eval"
LOGLIKELIHOOD_STYLE = "llm-jp-eval-loglikelihood"


def llm_jp_prompt(instruction: str, item_input: str, shots: Sequence[tuple[str, str]] = ()) -> str:
    """llm-jp-eval's template: preamble, instruction, (input, answer) examples, then the item's input."""
    parts = [f"{LLM_JP_PREAMBLE}\n\n### 指示:\n{instruction}"]
    for shot_input, shot_answer in shots:
        parts.append(f"\n\n### 入力:\n{shot_input}\n\n### 応答:\n{shot_answer}")
    parts.append(f"\n\n### 入力:\n{item_input}\n\n### 応答:\n")
    return "".join(parts)


def extract_llm_jp_answer(text: str) -> str:
    """llm-jp-eval's extraction: NFKC, the text up to the first blank line, stripped."""
    normalised = unicodedata.normalize("NFKC", text)
    return normalised.split("\n\n", 1)[0].strip()


@dataclass(frozen=True)
class LlmJpTask:
    """What a minimal-pair benchmark gives the shared protocols."""

    name: str
    default_split: str
    instruction: str
    make_input: Callable[[dict[str, Any]], str]  # a release record -> the item's input text
    gold_answer: Callable[[dict[str, Any]], str]  # a release record -> its answer, as a shot shows it
    parse_answer: Callable[[str], Any]  # the model's text -> the prediction, or None when it does not parse
    choose_shots: Callable[[list[dict[str, Any]], int, int], list[dict[str, Any]]]  # train, shots, seed
    records: Callable[[str, Any, bool], list[dict[str, Any]]]  # split, data dir, unverified -> records
    max_new_tokens: int
    # the log-likelihood protocol's answers: (the word scored after the prompt, the prediction it stands for),
    # in the benchmark's label order (the arg-max takes the first on ties)
    label_words: tuple[tuple[str, Any], ...] = ()
    # the record field naming the source pair a record derives from: its negation minimal pairs are scored
    # together, so a partial run samples whole groups (RunPlan.item_group)
    group_field: str | None = None
    # how lm-eval reads a generated answer (llm_jp_lm_eval_utils.py): the gold label itself, or a one-digit score
    lm_eval_answer: Literal["label", "digit"] = "label"


UNTIL = ("\n\n",)  # llm-jp-eval's answer ends at the first blank line: generation may stop there
LM_EVAL_UTILS = Path(__file__).with_name("llm_jp_lm_eval_utils.py")
LM_EVAL_ANSWERS = {"label": "process_llm_jp_label", "digit": "process_llm_jp_digit"}


def llm_jp_lm_eval(task: LlmJpTask, plan: RunPlan, settings: RunSettings) -> LmEvalScoring:
    """How lm-eval scores an exported run: accuracy over every instance (`neghub evaluate`'s instance_metrics.D.acc),
    the log-likelihood runs by lm-eval's own arg-max over the label words, the generations by llm-jp-eval's
    extraction (llm_jp_lm_eval_utils.py). Each document's `gold` is the record's answer as a shot shows it."""
    split = plan.split or task.default_split
    gold = {r["id"]: task.gold_answer(r) for r in task.records(split, settings.data_dir, settings.unverified)}
    accuracy = [{"metric": "acc", **MEAN}]
    if plan.protocol == "loglikelihood":
        return LmEvalScoring(lambda item, request: {"gold": request.continuations.index(gold[request.id])}, accuracy)
    process = LM_EVAL_ANSWERS[task.lm_eval_answer]
    return LmEvalScoring(lambda item, request: {"gold": gold[request.id]}, accuracy, process, (LM_EVAL_UTILS,))


def sentence_pair_plans(
    task: LlmJpTask,
    settings: RunSettings,
    backend_kind: str,
    *,
    labels: tuple[str, ...] = (),
    scale: tuple[int, int] | None = None,
) -> list[RunPlan]:
    """A minimal-pair benchmark's runs: a fine-tuned classifier's (prompt style `fine-tuned`: an NLI head naming
    `labels`, or a regression head on `scale`, over each record's two sentences), or a causal LM's
    (`llm_jp_plans`)."""
    if backend_kind == "classifier":
        if settings.prompt not in (None, CLASSIFIER_STYLE):
            raise InputError.single("--prompt", f"a fine-tuned classifier runs {task.name} as {CLASSIFIER_STYLE} only")
        classifier = ClassifierTask(task.name, task.default_split, sentence_pair, task.records, labels, scale)
        plans = classifier_plans(classifier, settings, backend_kind)
    elif settings.prompt == CLASSIFIER_STYLE:
        raise InputError.single("--prompt", f"{CLASSIFIER_STYLE} runs need a sequence-classification model")
    else:
        plans = llm_jp_plans(task, settings, backend_kind)
    if task.group_field is not None and settings.max_items is not None:  # only a partial sample needs the groups
        field = task.group_field
        split = settings.split or task.default_split
        group_of_id = {r["id"]: r[field] for r in task.records(split, settings.data_dir, settings.unverified)}
        for plan in plans:
            plan.item_group = lambda item: group_of_id[item[0]]  # every item is (id, ...)
    return plans


def sentence_pair(record: dict[str, Any]) -> tuple[str, str]:
    """A minimal-pair record's two sentences (JNLI-Neg's layout, which JSTS-Neg shares)."""
    return record["sentence1"]["sentence"], record["sentence2"]["sentence"]


def llm_jp_plans(task: LlmJpTask, settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    """The runs of a causal LM: llm-jp-eval's generation protocol, the log-likelihood label protocol, or both
    (`--prompt llm-jp-eval | llm-jp-eval-loglikelihood`; both by default)."""
    if backend_kind != "causal":
        raise InputError.single(
            "--tasks", f"{task.name} needs a causal LM or a fine-tuned classifier; this model is {backend_kind}"
        )
    styles = (PROMPT_STYLE, LOGLIKELIHOOD_STYLE)
    if settings.prompt is not None and settings.prompt not in styles:
        raise InputError.single("--prompt", f"{task.name} prompt styles are {', '.join(styles)} (and fine-tuned)")
    chosen = styles if settings.prompt is None else (settings.prompt,)
    plans: list[RunPlan] = []
    if PROMPT_STYLE in chosen:
        plans += generation_plans(task, settings, backend_kind)
    if LOGLIKELIHOOD_STYLE in chosen:
        plans += loglikelihood_plans(task, settings)
    return plans


def _items_per_seed(task: LlmJpTask, settings: RunSettings) -> list[tuple[int | None, list[tuple[Any, str]]]]:
    """(seed, items) per run: each item is (id, llm-jp-eval prompt), shortest prompt first."""
    split = settings.split or task.default_split
    records = task.records(split, settings.data_dir, settings.unverified)
    out: list[tuple[int | None, list[tuple[Any, str]]]] = []
    for seed in settings.seeds if settings.shots else [None]:
        examples: list[dict[str, Any]] = []
        if settings.shots:
            assert seed is not None
            train = task.records("train", settings.data_dir, settings.unverified)
            examples = task.choose_shots(train, settings.shots, seed)
        shot_pairs = [(task.make_input(r), task.gold_answer(r)) for r in examples]
        items = [(r["id"], llm_jp_prompt(task.instruction, task.make_input(r), shot_pairs)) for r in records]
        items.sort(key=lambda item: len(item[1]))  # batch by length: little padding (the order is still fixed)
        out.append((seed, items))
    return out


def generation_plans(task: LlmJpTask, settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    """One run per seed (one run at zero shots): the llm-jp-eval prompt of every item, greedy decoding."""
    if backend_kind != "causal":
        raise InputError.single("--tasks", f"{task.name} needs a causal LM (generation); this model is {backend_kind}")
    chat = settings.chat

    def requests(item: Any) -> list[Request]:
        item_id, prompt = item
        return [
            Request(
                id=item_id,
                kind="generate",
                prompt=prompt,
                chat=chat,
                add_special_tokens=True,  # llm-jp-eval tokenizes through a transformers pipeline, specials on
                max_new_tokens=task.max_new_tokens,
                until=UNTIL,
            )
        ]

    def lines(item: Any, answers: list[Answer]) -> Rows:
        (text,) = answers
        assert isinstance(text, str)
        value = task.parse_answer(text)
        line: dict[str, Any] = {"id": item[0], "prediction": value}
        if value is None:
            line["raw_output"] = text
        return [line]

    run_settings = {
        "max_new_tokens": task.max_new_tokens,
        "decoding": "greedy",
        "until": "\\n\\n",
        "chat_template": chat,
    }
    lengths = prompt_lengths(special_tokens=True)
    return _per_seed(task, settings, PROMPT_STYLE, requests, lines, "generation", run_settings, lengths)


def loglikelihood_plans(task: LlmJpTask, settings: RunSettings) -> list[RunPlan]:
    """lm-evaluation-harness's way with the same prompt: each label word is scored as the continuation of
    the llm-jp-eval prompt (no delimiter: the prompt ends in a newline, which lm-eval's token boundaries
    move to the continuation), and the prediction is the arg-max of the summed log-likelihoods (lm-eval's
    `acc`; the first label on ties). Every item gets a prediction: nothing is left unparsed."""
    chat = settings.chat
    words = tuple(word for word, _ in task.label_words)
    if not words:
        raise InputError.single("--prompt", f"{task.name} has no label words to score")

    def requests(item: Any) -> list[Request]:
        item_id, prompt = item
        return [Request(id=item_id, kind="loglikelihood", prompt=prompt, chat=chat, continuations=words)]

    def lines(item: Any, answers: list[Answer]) -> Rows:
        (scores,) = answers
        assert isinstance(scores, list)
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))  # the first of equal maxima
        return [{"id": item[0], "prediction": task.label_words[best][1]}]

    def lengths(backend: LoadedModel, items: Sequence[Any]) -> list[int]:
        return [n + len(words) for n in backend.token_lengths([p for _, p in items])]

    run_settings = {
        "scoring": "loglikelihood of each label word after the prompt, lm-eval token boundaries, "
        "no target delimiter; arg-max, first on ties",
        "labels": "|".join(words),
        "chat_template": chat,
    }
    return _per_seed(task, settings, LOGLIKELIHOOD_STYLE, requests, lines, "loglikelihood", run_settings, lengths)


def _per_seed(
    task: LlmJpTask,
    settings: RunSettings,
    style: str,
    requests: Callable[[Any], list[Request]],
    lines: Callable[[Any, list[Answer]], Rows],
    protocol: str,
    run_settings: dict[str, Any],
    lengths: TokenLengths,
) -> list[RunPlan]:
    """One run of the prompt style per seed (one run at zero shots), the items of `_items_per_seed`."""
    runs = RequestRuns(task.name, settings.split or task.default_split, style, settings)
    return [
        runs.plan(seed, items, requests, lines, protocol=protocol, settings=run_settings, token_lengths=lengths)
        for seed, items in _items_per_seed(task, settings)
    ]
