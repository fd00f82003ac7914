"""Each benchmark's protocol as a list of runs; a run is a deterministic list of items, and an item
turns into prediction lines with the model. The item order never depends on the model, so a run
can resume after the items it already wrote.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.fileio.files import read_bytes
from neghub.evaluator.fileio.jsonl import parse_jsonl
from neghub.evaluator.runners import prompts
from neghub.evaluator.runners.backend import Backend

NUBENCH_SEEDS = (42, 1234, 3000, 5000, 7000)
NUBENCH_SHOTS = (0, 1, 5, 10)
JSTS_SHOTS = (0, 4, 11)
JNLI_MAX_NEW_TOKENS = 8  # "contradiction" is 3 to 5 tokens in most English-centred vocabularies
JSTS_MAX_NEW_TOKENS = 4
OPTION_MAX_NEW_TOKENS = 4
SCN_MAX_VERBS = 20

Rows = list[dict[str, Any]]
Process = Callable[[Backend, Sequence[Any]], list[Rows]]


@dataclass
class RunPlan:
    """One prediction file: its submission run fields, its items and how a batch of items becomes lines."""

    task: str
    split: str | None
    shots: int
    seed: int | None
    prompt: str
    mode: str | None
    items: Sequence[Any]
    process: Process
    batch_size: int = 1
    settings: dict[str, Any] = field(default_factory=dict)
    # each item's length in the model's tokens; when given, items run shortest first by it (ties keep
    # the plan's order), so that a batch pads little. The order then depends on the tokenizer: a
    # partial file can only be resumed by the model that wrote it, which run.py checks.
    token_lengths: Callable[[Backend, Sequence[Any]], list[int]] | None = None

    def ordered_items(self, backend: Backend) -> Sequence[Any]:
        if self.token_lengths is None:
            return self.items
        lengths = self.token_lengths(backend, self.items)
        return [self.items[i] for i in sorted(range(len(self.items)), key=lengths.__getitem__)]

    @property
    def file(self) -> str:
        parts = [self.task, self.split or "all", self.mode or "", self.prompt, f"{self.shots}shot"]
        if self.seed is not None:
            parts.append(f"seed{self.seed}")
        return f"predictions/{self.task}/" + "-".join(p for p in parts if p) + ".jsonl"


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# --- JNLI-Neg and JSTS-Neg ------------------------------------------------------------------------


def _minimal_pair_records(task: str, split: str, data_dir: Path | None, unverified: bool) -> list[dict[str, Any]]:
    """The split's records as dicts, after the evaluator's own checks (pins, schema)."""
    from neghub.evaluator.core.registry import get_task
    from neghub.evaluator.releases.loading import find_release

    module = get_task(task)
    module_load = {
        "jnli-neg": "neghub.evaluator.benchmarks.jnli_neg",
        "jsts-neg": "neghub.evaluator.benchmarks.jsts_neg",
    }[task]
    import importlib

    dataset = importlib.import_module(module_load).load(split, data_dir=data_dir, unverified=unverified)
    release = find_release(module.metadata, data_dir=data_dir, unverified=unverified)
    path = release.file(module.metadata.files_for(split)[0]).path
    records = [obj for _, obj in parse_jsonl(read_bytes(path), str(path), blank_lines="skip").objects]
    assert len(records) == dataset.ids.size
    return records


def _jsts_shots(train: list[dict[str, Any]], shots: int, seed: int) -> list[dict[str, Any]]:
    """The JSTS-Neg paper's rule: 4-shot = 2 from D_orig + 2 from D_neg, 11-shot = 5 + 6, the shots from one
    set with pairwise different gold scores; fixed for every item of one seed."""
    if shots not in JSTS_SHOTS:
        raise InputError.single("--shots", f"JSTS-Neg uses 0, 4 or 11 shots (the paper's settings), got {shots}")
    rng = random.Random(seed)
    chosen: list[dict[str, Any]] = []
    for is_original, k in ((True, shots // 2 if shots == 4 else 5), (False, shots // 2 if shots == 4 else 6)):
        by_score: dict[int, list[dict[str, Any]]] = {}
        for rec in train:
            if (rec["type"] == "original") == is_original:
                by_score.setdefault(rec["gold_score"], []).append(rec)
        if len(by_score) < k:
            raise InputError.single("--shots", f"the train split has only {len(by_score)} distinct scores, {k} needed")
        for score in rng.sample(sorted(by_score), k):
            chosen.append(rng.choice(by_score[score]))
    rng.shuffle(chosen)
    return chosen


def minimal_pair_plans(
    task: str,
    split: str,
    shots: int,
    seeds: Sequence[int],
    data_dir: Path | None,
    batch_size: int,
    unverified: bool = False,
) -> list[RunPlan]:
    records = _minimal_pair_records(task, split, data_dir, unverified)
    jnli = task == "jnli-neg"
    instruction = prompts.JNLI_INSTRUCTION if jnli else prompts.JSTS_INSTRUCTION
    make_input = prompts.jnli_input if jnli else prompts.jsts_input
    max_new = JNLI_MAX_NEW_TOKENS if jnli else JSTS_MAX_NEW_TOKENS
    plans: list[RunPlan] = []
    for seed in seeds if shots else [None]:
        examples: list[dict[str, Any]] = []
        if shots:
            train = _minimal_pair_records(task, "train", data_dir, unverified)
            if jnli:
                examples = random.Random(seed).sample(train, shots)
            else:
                assert seed is not None
                examples = _jsts_shots(train, shots, seed)
        shot_pairs = [
            (
                make_input(r["sentence1"]["sentence"], r["sentence2"]["sentence"]),
                str(r["gold_label"] if jnli else r["gold_score"]),
            )
            for r in examples
        ]
        items = [
            (
                r["id"],
                prompts.llm_jp_prompt(
                    instruction, make_input(r["sentence1"]["sentence"], r["sentence2"]["sentence"]), shot_pairs
                ),
            )
            for r in records
        ]
        items.sort(key=lambda item: len(item[1]))  # batch by length: little padding (the order is still fixed)

        def process(backend: Backend, batch: Sequence[Any], max_new: int = max_new) -> list[Rows]:
            outputs = backend.generate([p for _, p in batch], max_new, special_tokens=True)
            rows: list[Rows] = []
            for (item_id, _), text in zip(batch, outputs, strict=True):
                if jnli:
                    value: Any = prompts.parse_jnli_answer(text, ("entailment", "neutral", "contradiction"))
                else:
                    value = prompts.parse_jsts_answer(text)
                line: dict[str, Any] = {"id": item_id, "prediction": value}
                if value is None:
                    line["raw_output"] = text
                rows.append([line])
            return rows

        plans.append(
            RunPlan(
                task=task,
                split=split,
                shots=shots,
                seed=seed,
                prompt="llm-jp-eval",
                mode=None,
                items=items,
                process=process,
                batch_size=batch_size,
                settings={"max_new_tokens": max_new, "decoding": "greedy", "chat_template": False},
                token_lengths=_prompt_lengths(special_tokens=True),
            )
        )
    return plans


# --- NUBench ------------------------------------------------------------------------------------------


def nubench_plans(
    mode: str, style: str, shots: int, seeds: Sequence[int], data_dir: Path | None, batch_size: int
) -> list[RunPlan]:
    from neghub.evaluator.benchmarks import nubench

    if style not in prompts.NUBENCH_INSTRUCTIONS:
        raise InputError.single("--prompt", f"NUBench prompt styles are {', '.join(prompts.NUBENCH_INSTRUCTIONS)}")
    test = nubench.load("test", data_dir=data_dir).records
    demos = nubench.load("demonstration", data_dir=data_dir).records
    plans: list[RunPlan] = []
    for seed in seeds if shots else [None]:
        shot_docs = random.Random(seed).sample(list(demos), shots) if shots else []
        if mode == "completion":
            prefix = "".join(
                f"{prompts.nubench_completion_prompt(d.sentence, style)} {d.choice1}\n\n" for d in shot_docs
            )
            items = [(r, prefix + prompts.nubench_completion_prompt(r.sentence, style)) for r in test]
            # batch by length (prompt and options): the packed rows of a batch pad little
            items.sort(key=lambda item: len(item[1]) + sum(len(getattr(item[0], k)) for k in item[0].option_keys()))

            def process(backend: Backend, batch: Sequence[Any]) -> list[Rows]:
                keys = [record.option_keys() for record, _ in batch]
                requests = [
                    (context, [" " + getattr(record, k) for k in record_keys])
                    for (record, context), record_keys in zip(batch, keys, strict=True)
                ]
                out: list[Rows] = []
                for (record, _), record_keys, scores in zip(
                    batch, keys, backend.loglikelihood_batch(requests), strict=True
                ):
                    ll: dict[str, float | None] = {k: None for k in ("choice1", "choice2", "choice3", "choice4")}
                    ll.update({k: s for k, (s, _) in zip(record_keys, scores, strict=True)})
                    out.append([{"id": record.index, "loglikelihoods": ll}])
                return out

            settings: dict[str, Any] = {"scoring": "loglikelihood, lm-eval token boundaries, target delimiter ' '"}
            token_lengths: Callable[[Backend, Sequence[Any]], list[int]] = _completion_lengths
        elif mode == "option":
            demo_orders = dict(zip((d.index for d in demos), nubench.option_orders(demos), strict=True))
            prefix = ""
            for d in shot_docs:
                order = demo_orders[d.index]
                text = prompts.nubench_option_prompt(d.sentence, [getattr(d, k) for k in order], style)
                prefix += f"{text} {prompts.NUBENCH_OPTION_LETTERS[order.index('choice1')]}\n\n"
            orders = nubench.option_orders(test)
            items = [
                (r, prefix + prompts.nubench_option_prompt(r.sentence, [getattr(r, k) for k in order], style))
                for r, order in zip(test, orders, strict=True)
            ]
            items.sort(key=lambda item: len(item[1]))

            def process(backend: Backend, batch: Sequence[Any]) -> list[Rows]:
                outputs = backend.generate([p for _, p in batch], OPTION_MAX_NEW_TOKENS, special_tokens=False)
                # lm-eval's generate_until stops at the first newline
                return [
                    [{"id": r.index, "output": o.split("\n", 1)[0]}] for (r, _), o in zip(batch, outputs, strict=True)
                ]

            settings = {"max_new_tokens": OPTION_MAX_NEW_TOKENS, "decoding": "greedy", "until": "\\n"}
            token_lengths = _prompt_lengths(special_tokens=False)
        else:
            raise InputError.single("--mode", f"NUBench modes are completion and option, got {mode!r}")
        plans.append(
            RunPlan(
                task="nubench",
                split="test",
                shots=shots,
                seed=seed,
                prompt=style,
                mode=mode,
                items=items,
                process=process,
                batch_size=batch_size,
                settings=settings,
                token_lengths=token_lengths,
            )
        )
    return plans


def _prompt_lengths(*, special_tokens: bool) -> Callable[[Backend, Sequence[Any]], list[int]]:
    """Token lengths of (key, prompt) items."""

    def lengths(backend: Backend, items: Sequence[Any]) -> list[int]:
        return backend.token_lengths([prompt for _, prompt in items], special_tokens=special_tokens)

    return lengths


def _completion_lengths(backend: Backend, items: Sequence[Any]) -> list[int]:
    """Token lengths of NUBench completion items as packed: the context and every option."""
    contexts = backend.token_lengths([context for _, context in items], special_tokens=False)
    options = backend.token_lengths(
        [" " + getattr(record, key) for record, _ in items for key in record.option_keys()], special_tokens=False
    )
    counts = iter(options)
    return [n + sum(next(counts) for _ in record.option_keys()) for n, (record, _) in zip(contexts, items, strict=True)]


# --- SCN ------------------------------------------------------------------------------------------------


def scn_plan(backend_kind: str, seed: int, max_pairs: int | None, batch_size: int) -> RunPlan:
    """Items are (NAME, PROF) pairs (all of them, or `max_pairs` sampled with `seed`); one item selects the
    triplets of every variant (CpTp top-1 == verb, at most 20 verbs, seeded) and predicts their patterns."""
    from neghub.evaluator.benchmarks import scn

    lists = scn.load_word_lists()
    pairs = [(n, p) for n in (*lists.female_names, *lists.male_names) for p in lists.professions]
    if max_pairs is not None and max_pairs < len(pairs):
        pairs = random.Random(seed).sample(pairs, max_pairs)

    def process(backend: Backend, batch: Sequence[Any]) -> list[Rows]:
        tok = backend.tokenizer
        mask = tok.mask_token if backend.kind == "masked" else None
        verb_ids: dict[str, int] = {}
        for verb in lists.verbs:
            ids = backend.encode(verb if mask else " " + verb)
            if len(ids) == 1 and ids[0] != tok.unk_token_id:
                verb_ids[verb] = ids[0]
        out: list[Rows] = []
        for name, profession in batch:
            rows: Rows = []
            for variant in scn.VARIANTS:
                texts = {
                    v: scn.instantiate(name, profession, v, variant, mask_token=mask, lists=lists, seed=seed)
                    for v in verb_ids
                }
                verbs = list(verb_ids)
                top = _top1_batched(backend, [texts[v]["CpTp"] for v in verbs], batch_size)
                kept = [v for v, t in zip(verbs, top, strict=True) if t == verb_ids[v]]
                rng = random.Random(f"{seed}\x1f{variant}\x1f{name}\x1f{profession}")
                if len(kept) > SCN_MAX_VERBS:
                    kept = sorted(rng.sample(kept, SCN_MAX_VERBS), key=verbs.index)
                others = [p for p in scn.PATTERNS if p != scn.REFERENCE]
                queries = [texts[v][p] for v in kept for p in others]
                answers = iter(_top1_batched(backend, queries, batch_size))
                for v in kept:
                    base = {"name": name, "profession": profession, "verb": v, "variant": variant}
                    rows.append({**base, "pattern": scn.REFERENCE, "top1": v})
                    for p in others:
                        rows.append({**base, "pattern": p, "top1": tok.decode([next(answers)]).strip()})
            out.append(rows)
        return out

    return RunPlan(
        task="scn",
        split=None,
        shots=0,
        seed=seed,
        prompt=backend_kind,
        mode=None,
        items=pairs,
        process=process,
        batch_size=1,
        settings={
            "scn_max_pairs": max_pairs,
            "scn_pairs": len(pairs),
            "scn_seed": seed,
            "scn_max_verbs": SCN_MAX_VERBS,
        },
    )


def _top1_batched(backend: Backend, texts: list[str], batch_size: int) -> list[int]:
    # sorted by length so a batch pads little; results restored to the input order
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    result = [0] * len(texts)
    for chunk in _batches(order, batch_size):
        for i, token in zip(chunk, backend.top1([texts[i] for i in chunk]), strict=True):
            result[i] = token
    return result
