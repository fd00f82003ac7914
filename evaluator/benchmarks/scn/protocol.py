"""How `neghub run` runs the SCN test on a model: triplet selection (CpTp's top-1 must be the verb), then the
top-1 of the other four patterns; masked LMs at the mask, causal LMs after the target (NegHub's extension)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from neghub.evaluator.runners.plans import Rows, RunPlan, RunSettings, batches

if TYPE_CHECKING:
    from neghub.evaluator.runners.backend import Backend

SCN_MAX_VERBS = 20


def plans(settings: RunSettings, backend_kind: str) -> list[RunPlan]:
    return [scn_plan(backend_kind, settings.sample_seed, settings.max_items, settings.batch_size)]


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
        },
        protocol="top1",
    )


def _top1_batched(backend: Backend, texts: list[str], batch_size: int) -> list[int]:
    # sorted by length so a batch pads little; results restored to the input order
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    result = [0] * len(texts)
    for chunk in batches(order, batch_size):
        for i, token in zip(chunk, backend.top1([texts[i] for i in chunk]), strict=True):
            result[i] = token
    return result
