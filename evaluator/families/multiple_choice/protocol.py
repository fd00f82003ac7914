"""How `neghub run` asks a model a multiple-choice benchmark (the paper's appendices M and O; lm-evaluation-harness):
completion runs score every option's log-likelihood after the prompt, option runs generate a letter after the
shuffled, lettered options. The benchmark words its prompts (`Prompts`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.errors import InputError
from ...protocol.plans import Rows, RunPlan, RunSettings, prompt_lengths
from ...protocol.requests import Answer, Request
from ..runs import RequestRuns
from .dataset import load
from .options import option_orders
from .spec import LETTERS, MODES, MultipleChoiceSpec

if TYPE_CHECKING:
    from ...protocol.model import LoadedModel


@dataclass(frozen=True)
class Prompts:
    """How a multiple-choice benchmark words its questions, per prompt style."""

    styles: tuple[str, ...]
    completion: Callable[[Any, str], str]  # record, style -> the context before an option
    option: Callable[[Any, Sequence[str], str], str]  # record, option texts in shown order, style -> prompt
    demonstration_split: str | None = None  # where few-shot demonstrations come from


OPTION_MAX_NEW_TOKENS = 4


def multiple_choice_plans(
    spec: MultipleChoiceSpec, prompts: Prompts, settings: RunSettings, backend_kind: str, default_split: str
) -> list[RunPlan]:
    """One run per mode and seed: completion (log-likelihood of every option after the prompt, with
    lm-eval's token boundaries) and option (greedy letters after the shuffled, lettered options)."""
    if backend_kind != "causal":
        raise InputError.single("--tasks", f"{spec.name} needs a causal LM; this model is {backend_kind}")
    style = settings.prompt or prompts.styles[0]
    if style not in prompts.styles:
        raise InputError.single("--prompt", f"{spec.name} prompt styles are {', '.join(prompts.styles)}")
    runs = _Runs(spec, prompts, style, RequestRuns(spec.name, settings.split or default_split, style, settings))
    test = load(spec, runs.runs.split, data_dir=settings.data_dir).records
    demos: tuple[Any, ...] = ()
    if settings.shots:
        if prompts.demonstration_split is None:
            raise InputError.single("--shots", f"{spec.name} has no demonstrations for few-shot prompts")
        demos = load(spec, prompts.demonstration_split, data_dir=settings.data_dir).records
    plans: list[RunPlan] = []
    for mode in settings.modes or MODES:
        if mode not in MODES:
            raise InputError.single("--mode", f"{spec.name} modes are {' and '.join(MODES)}, got {mode!r}")
        for seed in settings.seeds if settings.shots else [None]:
            shot_docs = random.Random(seed).sample(list(demos), settings.shots) if settings.shots else []
            if mode == "completion":
                plans.append(runs.completion(test, shot_docs, seed))
            else:
                plans.append(runs.option(test, demos, shot_docs, seed))
    return plans


@dataclass(frozen=True)
class _Runs:
    """What the runs of one `neghub run` of the benchmark share: its spec and prompts, the prompt style, and the
    task, split and settings of every run."""

    spec: MultipleChoiceSpec
    prompts: Prompts
    style: str
    runs: RequestRuns

    def completion(self, test: Sequence[Any], shot_docs: Sequence[Any], seed: int | None) -> RunPlan:
        """The log-likelihood of every offered option (after a space) as the continuation of the prompt."""
        spec, prompts, style = self.spec, self.prompts, self.style
        prefix = "".join(f"{prompts.completion(d, style)} {spec.option_text(d, spec.answer(d))}\n\n" for d in shot_docs)
        items = [(r, prefix + prompts.completion(r, style)) for r in test]
        # batch by length (prompt and options): the packed rows of a batch pad little
        items.sort(
            key=lambda item: len(item[1]) + sum(len(spec.option_text(item[0], k)) for k in spec.offered(item[0]))
        )

        def requests(item: Any) -> list[Request]:
            record, context = item
            options = tuple(" " + spec.option_text(record, k) for k in spec.offered(record))
            return [Request(id=spec.item_id(record), kind="loglikelihood", prompt=context, continuations=options)]

        def lines(item: Any, answers: list[Answer]) -> Rows:
            record = item[0]
            (scores,) = answers
            assert isinstance(scores, list)
            ll: dict[str, float | None] = dict.fromkeys(spec.option_keys)
            ll.update(zip(spec.offered(record), scores, strict=True))
            return [{"id": spec.item_id(record), "loglikelihoods": ll}]

        def token_lengths(backend: LoadedModel, items: Sequence[Any]) -> list[int]:
            """Each item's length as packed: its context and its options' prefix tree (`LoadedModel.packed_lengths`)."""
            packed = [(r.prompt, list(r.continuations or ())) for item in items for r in requests(item)]
            return backend.packed_lengths(packed)

        return self.runs.plan(
            seed,
            items,
            requests,
            lines,
            mode="completion",
            protocol="loglikelihood",
            settings={"scoring": "loglikelihood, lm-eval token boundaries, target delimiter ' '"},
            token_lengths=token_lengths,
        )

    def option(self, test: Sequence[Any], demos: Sequence[Any], shot_docs: Sequence[Any], seed: int | None) -> RunPlan:
        """Greedy generation after the lettered options, in each item's option-mode order; the output is the line."""
        spec, prompts, style = self.spec, self.prompts, self.style
        demo_orders = dict(zip((spec.item_id(d) for d in demos), option_orders(spec, demos), strict=True))
        prefix = ""
        for d in shot_docs:
            order = demo_orders[spec.item_id(d)]
            text = prompts.option(d, [spec.option_text(d, k) for k in order], style)
            prefix += f"{text} {LETTERS[order.index(spec.answer(d))]}\n\n"
        items = [
            (r, prefix + prompts.option(r, [spec.option_text(r, k) for k in order], style))
            for r, order in zip(test, option_orders(spec, test), strict=True)
        ]
        items.sort(key=lambda item: len(item[1]))

        def requests(item: Any) -> list[Request]:
            record, prompt = item
            # lm-eval's generate_until stops at the first newline
            return [
                Request(
                    id=spec.item_id(record),
                    kind="generate",
                    prompt=prompt,
                    max_new_tokens=OPTION_MAX_NEW_TOKENS,
                    until=("\n",),
                )
            ]

        def lines(item: Any, answers: list[Answer]) -> Rows:
            (text,) = answers
            return [{"id": spec.item_id(item[0]), "output": text}]

        return self.runs.plan(
            seed,
            items,
            requests,
            lines,
            mode="option",
            protocol="generation",
            settings={"max_new_tokens": OPTION_MAX_NEW_TOKENS, "decoding": "greedy", "until": "\\n"},
            token_lengths=prompt_lengths(special_tokens=False),
        )
