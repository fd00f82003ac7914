"""How `neghub run` runs the SCN test on a model: triplet selection (CpTp's top-1 must be the verb), then the
top-1 of the other four patterns; masked LMs at the mask, causal LMs after the target (NegHub's extension).

The verbs asked are those the model's tokenizer writes as one token after a space ("Ġrun" for a byte-level
BPE, "▁run" for SentencePiece, "run" for WordPiece), the form a model predicts inside a sentence; a top-1 is
the decoded token, stripped, and a triplet is kept when it reads as the verb.

The selection is adaptive: `neghub run` asks the four other patterns only of the kept triplets. As
engine-neutral requests (`neghub prompts`) every verb of the list gets all five patterns' requests, since
no tokenizer is known there, and `neghub import` makes the same selection from the answers: per (NAME,
PROF) pair and variant, the verbs whose CpTp top-1 is the verb, at most 20 of them sampled with the run's
seed. The two agree where the engine's top-1 of an out-of-vocabulary verb never reads as that verb.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...protocol.plans import PARTIAL_ITEMS, SAMPLE_SEED, SPLIT_ITEMS, Rows, RunPlan, RunSettings, batches
from ...protocol.requests import MASK_PLACEHOLDER, Answer, Request
from .generator import instantiate
from .metadata import PATTERNS, REFERENCE, VARIANTS
from .words import load_word_lists

if TYPE_CHECKING:
    from ...protocol.model import LoadedModel

SCN_MAX_VERBS = 20
_SEPARATOR = "|"  # request ids: NAME|PROF|variant|verb|pattern (the word lists hold no "|")


def plans(settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    return [scn_plan(backend_kind, settings.sample_seed, settings.max_pairs, settings.batch_size, settings.max_items)]


def request_id(name: str, profession: str, variant: str, verb: str, pattern: str) -> str:
    return _SEPARATOR.join((name, profession, variant, verb, pattern))


def select_rows(
    name: str,
    profession: str,
    variant: str,
    verbs: Sequence[str],
    cptp_top1: Sequence[str],
    others_top1: Callable[[list[str]], dict[tuple[str, str], str]],
    seed: int,
) -> Rows:
    """The lines of one (NAME, PROF) pair in one variant: the verbs whose CpTp top-1 reads as the verb (at
    most 20, sampled with the seed), each with the top-1 of the other patterns (`others_top1` of the kept
    verbs: (verb, pattern) -> top-1)."""
    kept = [v for v, top in zip(verbs, cptp_top1, strict=True) if top == v]
    rng = random.Random(f"{seed}\x1f{variant}\x1f{name}\x1f{profession}")
    if len(kept) > SCN_MAX_VERBS:
        kept = sorted(rng.sample(kept, SCN_MAX_VERBS), key=list(verbs).index)
    others = [p for p in PATTERNS if p != REFERENCE]
    answers = others_top1(kept)
    rows: Rows = []
    for v in kept:
        base = {"name": name, "profession": profession, "verb": v, "variant": variant}
        rows.append({**base, "pattern": REFERENCE, "top1": v})
        rows += [{**base, "pattern": p, "top1": answers[(v, p)]} for p in others]
    return rows


def trial_sample(pairs: list[Any], verbs: Sequence[str], max_items: int, seed: int) -> tuple[list[Any], list[str]]:
    """A trial's pairs and candidate verbs (`--max-items N`): at most N pairs and, within each, at most N of the
    verbs, each a seeded sample kept in its list's order. The verbs are sampled from the whole list, before a
    model's tokenizer leaves out those it cannot write as one token, so that `neghub run` and an engine answering
    `neghub prompts` ask the same candidates."""
    if max_items < len(pairs):
        chosen = set(random.Random(f"{seed}\x1fpairs").sample(range(len(pairs)), max_items))
        pairs = [pair for i, pair in enumerate(pairs) if i in chosen]
    if max_items < len(verbs):
        kept = set(random.Random(f"{seed}\x1fverbs").sample(list(verbs), max_items))
        verbs = [verb for verb in verbs if verb in kept]
    return pairs, list(verbs)


def scn_plan(
    backend_kind: str, seed: int, max_pairs: int | None, batch_size: int, max_items: int | None = None
) -> RunPlan:
    """Items are (NAME, PROF) pairs (all of them, or `max_pairs` sampled with `seed`); one item selects the
    triplets of every variant (CpTp top-1 == verb, at most 20 verbs, seeded) and predicts their patterns.

    A trial (`max_items`, `neghub run --max-items`) bounds both the pairs and each pair's candidate verbs
    (`trial_sample`) and is recorded as partial, its items counted as candidate triplets (pair, verb): a pair asks
    every verb of the list in four variants, so bounding the pairs alone leaves a trial minutes per pair long."""
    lists = load_word_lists()
    pairs = [(n, p) for n in (*lists.female_names, *lists.male_names) for p in lists.professions]
    if max_pairs is not None and max_pairs < len(pairs):
        pairs = random.Random(seed).sample(pairs, max_pairs)
    complete = len(pairs) * len(lists.verbs)
    candidates = list(lists.verbs)
    if max_items is not None:
        pairs, candidates = trial_sample(pairs, lists.verbs, max_items, seed)
    trial: dict[str, Any] = {}
    if len(pairs) * len(candidates) < complete:
        trial = {
            "scn_candidate_verbs": len(candidates),
            PARTIAL_ITEMS: len(pairs) * len(candidates),
            SPLIT_ITEMS: complete,
            SAMPLE_SEED: seed,
        }
    masked = backend_kind == "masked"

    def texts(name: str, profession: str, variant: str, verb: str, mask: str | None) -> dict[str, str]:
        return instantiate(name, profession, verb, variant, mask_token=mask, lists=lists, seed=seed)

    def process(backend: LoadedModel, batch: Sequence[Any]) -> list[Rows]:
        tok = backend.tokenizer
        mask = tok.mask_token if masked else None
        verbs = [v for v in candidates if _one_token(backend, v)]
        out: list[Rows] = []
        for name, profession in batch:
            rows: Rows = []
            for variant in VARIANTS:
                by_verb = {v: texts(name, profession, variant, v, mask) for v in verbs}
                cptp = _top1_batched(backend, [by_verb[v][REFERENCE] for v in verbs], batch_size)

                def others_top1(kept: list[str], by_verb: dict[str, dict[str, str]] = by_verb) -> dict[Any, str]:
                    keys = [(v, p) for v in kept for p in PATTERNS if p != REFERENCE]
                    tops = _top1_batched(backend, [by_verb[v][p] for v, p in keys], batch_size)
                    return dict(zip(keys, tops, strict=True))

                rows += select_rows(name, profession, variant, verbs, cptp, others_top1, seed)
            out.append(rows)
        return out

    def requests(item: Any) -> list[Request]:
        name, profession = item
        mask = MASK_PLACEHOLDER if masked else None
        return [
            Request(id=request_id(name, profession, variant, verb, pattern), kind="top1", prompt=text, mask=mask)
            for variant in VARIANTS
            for verb in candidates
            for pattern, text in texts(name, profession, variant, verb, mask).items()
        ]

    def lines(item: Any, answers: list[Answer]) -> Rows:
        name, profession = item
        top = iter(answers)
        rows: Rows = []
        for variant in VARIANTS:
            table = {(verb, pattern): str(next(top)).strip() for verb in candidates for pattern in PATTERNS}
            cptp = [table[(v, REFERENCE)] for v in candidates]

            def answered(kept: list[str], table: dict[tuple[str, str], str] = table) -> dict[tuple[str, str], str]:
                return table  # every pattern of every verb was asked

            rows += select_rows(name, profession, variant, candidates, cptp, answered, seed)
        return rows

    return RunPlan(
        task="scn",
        split=None,
        shots=0,
        seed=seed,
        prompt=backend_kind,
        mode=None,
        items=pairs,
        # an item is a (NAME, PROF) pair: its lines are every triplet it selected, in every variant
        item_key=lambda pair: tuple(pair),
        line_item=lambda line: (line["name"], line["profession"]),
        process=process,
        batch_size=1,
        settings={
            "scn_max_pairs": max_pairs,
            "scn_pairs": len(pairs),
            "scn_seed": seed,
            "scn_max_verbs": SCN_MAX_VERBS,
            "verbs": "one token after a space; top-1 decoded and stripped",
            **trial,
        },
        protocol="top1",
        requests=requests,
        lines=lines,
        empty_reason="the model kept no triplet: no CpTp top-1 reads as its verb, for any name and profession",
        requests_note="every verb's five patterns are requested; import selects the triplets (CpTp top-1 == verb, "
        f"at most {SCN_MAX_VERBS} verbs per pair and variant, seeded), as the run does",
    )


def _one_token(backend: LoadedModel, verb: str) -> bool:
    ids = backend.word_after_space(verb)
    return len(ids) == 1 and ids[0] != backend.tokenizer.unk_token_id


def _top1_batched(backend: LoadedModel, texts: list[str], batch_size: int) -> list[str]:
    """The top-1 of each text as text (decoded, stripped); sorted by length so a batch pads little, results
    restored to the input order."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    result = [""] * len(texts)
    for chunk in batches(order, batch_size):
        for i, token in zip(chunk, backend.top1([texts[i] for i in chunk]), strict=True):
            result[i] = backend.decode_complete([token]).strip()
    return result
