"""Written into the utils.py of `neghub export lm-eval` for the cloze test's runs (lm_eval.py): NegHub's triplet
selection (the CpTp top-1 is the verb; at most 20 verbs per name/profession pair and variant, sampled with the
run's seed), then the pronoun variant's drop per pattern, its negation contrast and its triplet count, computed
over the whole task (an aggregation). It imports nothing from NegHub (lm-eval users need not install it), and
its names are its own in utils.py."""

import random
import sys
from typing import Any

SCN_REFERENCE = "CpTp"
SCN_MAX_VERBS = 20
SCN_VARIANT = "pronoun"  # the variant NegHub's headline and its pass criterion read
SCN_METRICS = ("negation_contrast", "drop_CpTn", "drop_CnTp", "drop_CnTn", "drop_CpTv", "triplets")


def process_scn(doc: dict[str, Any], results: list[str]) -> dict[str, list[Any]]:
    """Every metric gets the document's answer (and the task's document count, to say what --limit left out);
    the aggregation makes the selection over all of them."""
    top1 = results[0].rstrip("\ufffd").strip()
    answer = [*doc["triplet"], doc["verb_index"], doc["seed"], top1, doc.get("documents")]
    return {metric: [metric, *answer] for metric in SCN_METRICS}


def scn_selected(items: list[list[Any]]) -> dict[tuple[str, str, str, str], bool]:
    """(name, profession, verb, pattern) -> whether the top-1 repeats the verb, for the triplets NegHub keeps
    in the pronoun variant: per name/profession pair, the verbs whose CpTp top-1 is the verb, in the word
    list's order, at most SCN_MAX_VERBS of them sampled as NegHub samples them."""
    answers: dict[tuple[str, str, int], dict[tuple[int, str, str], str]] = {}
    for _, name, profession, variant, verb, pattern, verb_index, seed, top1, _documents in items:
        if variant == SCN_VARIANT:
            answers.setdefault((name, profession, seed), {})[(verb_index, verb, pattern)] = top1
    rows: dict[tuple[str, str, str, str], bool] = {}
    for (name, profession, seed), tops in answers.items():
        verbs = sorted({(i, verb) for i, verb, _ in tops})
        kept = [verb for i, verb in verbs if tops.get((i, verb, SCN_REFERENCE)) == verb]
        if len(kept) > SCN_MAX_VERBS:
            rng = random.Random(f"{seed}\x1f{SCN_VARIANT}\x1f{name}\x1f{profession}")
            kept = rng.sample(kept, SCN_MAX_VERBS)
        kept_verbs = set(kept)
        for (_, verb, pattern), top1 in tops.items():
            if verb in kept_verbs:
                rows[(name, profession, verb, pattern)] = top1 == verb
    return rows


def scn_aggregate(items: list[list[Any]]) -> float | int:
    """One of SCN_METRICS (named by the items) over the selected triplets; nan where no triplet was kept."""
    metric = items[0][0]
    rows = scn_selected(items)
    triplets = sum(1 for (_, _, _, pattern) in rows if pattern == SCN_REFERENCE)
    if metric == "triplets":
        return triplets
    if not triplets:
        if metric == SCN_METRICS[0]:  # said once per task, not once per metric
            print(f"neghub: {scn_why_no_triplet(items)}", file=sys.stderr)
        return float("nan")
    drops: dict[str, float] = {}
    for pattern in ("CpTn", "CnTp", "CnTn", "CpTv"):
        repeated = sum(1 for (_, _, _, p), hit in rows.items() if p == pattern and hit)
        drops[pattern] = (triplets - repeated) / triplets
    if metric == "negation_contrast":
        return min(drops["CpTn"], drops["CnTp"]) - max(drops["CnTn"], drops["CpTv"])
    return drops[metric.removeprefix("drop_")]


def scn_why_no_triplet(items: list[list[Any]]) -> str:
    """Why SCN's figures are NaN: no pronoun-variant triplet was kept, in the documents lm-eval ran."""
    documents = items[0][-1]
    pronoun = sum(1 for item in items if item[3] == SCN_VARIANT and item[5] == SCN_REFERENCE)
    if isinstance(documents, int) and len(items) < documents:
        return (
            f"SCN's figures are NaN: lm-eval ran {len(items):,} of the task's {documents:,} documents (--limit), "
            f"{pronoun:,} of them the pronoun variant's CpTp, and no CpTp top-1 among those was its verb (no triplet "
            "kept); run without --limit, or a trial from neghub export lm-eval --max-items"
        )
    return (
        f"SCN's figures are NaN: no pronoun-variant CpTp top-1 was its verb in {pronoun:,} CpTp documents (no "
        "triplet kept), so the model shows no cloze to negate"
    )
