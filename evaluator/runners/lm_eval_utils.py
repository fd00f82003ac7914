"""The `utils.py` that `neghub export lm-eval` writes beside its task YAMLs (they name it with `!function`).

Each document holds NegHub's exact request (`query`, `choices`) and its right answer (`gold`); this file reads
a model's answers as NegHub does, so that lm-eval prints the accuracy `neghub evaluate` gives on the same
answers (`nox -s interop` checks that they are equal):

- log-likelihood tasks: lm-eval's own `acc` (and `acc_norm` for NUBench's completions), `gold` being the
  index of the right choice;
- generation tasks: `acc`, the share of answers that NegHub's answer extraction reads as the right one
  (llm-jp-eval's extraction for JNLI-Neg and JSTS-Neg, the letter parsing of NUBench's option mode);
- the cloze test (SCN): NegHub's triplet selection (the CpTp top-1 is the verb; at most 20 verbs per
  name/profession pair and variant, sampled with the run's seed), then the pronoun variant's drop per
  pattern, its negation contrast and its triplet count, computed over the whole task (an aggregation).

The minimal-pair metrics (Acc′ on M_i, AccChg, ...) and the other figures stay NegHub's: import the samples
(`neghub import lm-eval`) and score them with `neghub evaluate`.

This file imports nothing from NegHub: lm-eval users need not install it. It is a copy of NegHub's parsing,
and tests/test_interop.py checks every function here against NegHub's own on the same answers.
"""

import os
import random
import re
import string
import sys
import unicodedata
from typing import Any

Doc = dict[str, Any]


def load_documents(data_files: dict[str, str], **_: Any) -> Any:
    """A task's documents (lm-eval's `custom_dataset`): its JSON Lines file found beside this utils.py, wherever
    the exported folder was moved and whatever folder lm-eval runs in (the task YAML names the file alone)."""
    import datasets  # lm-eval's own dependency

    here = os.path.dirname(os.path.abspath(__file__))
    files = {split: os.path.join(here, name) for split, name in data_files.items()}
    return datasets.load_dataset("json", data_files=files)

# what a tokenizer decodes a partial UTF-8 sequence to; NegHub drops it from the end of a model's text
BROKEN_CHARACTER = "\ufffd"


def doc_to_text(doc: Doc) -> str:
    return str(doc["query"])


def doc_to_choice(doc: Doc) -> list[str]:
    return list(doc["choices"])


def doc_to_target(doc: Doc) -> Any:
    # the cloze test's documents have none: its figures are counted over the selected triplets
    return doc.get("gold", "")


def _generated(results: list[str]) -> str:
    """The model's text as NegHub reads it: no broken character at its end."""
    return results[0].rstrip(BROKEN_CHARACTER)


# --- JNLI-Neg and JSTS-Neg: llm-jp-eval's answer extraction -------------------------------------------


def extract_llm_jp_answer(text: str) -> str:
    """llm-jp-eval's extraction: NFKC, the text up to the first blank line, stripped."""
    normalised = unicodedata.normalize("NFKC", text)
    return normalised.split("\n\n", 1)[0].strip()


def process_label(doc: Doc, results: list[str]) -> dict[str, float]:
    """A label answer (JNLI-Neg): right when the extracted answer is the gold label itself."""
    return {"acc": float(extract_llm_jp_answer(_generated(results)) == doc["gold"])}


STS_SCORE = re.compile(r"^[0-5](?:\.0+)?$")


def process_score(doc: Doc, results: list[str]) -> dict[str, float]:
    """A score answer (JSTS-Neg): right when the extracted answer is the gold score ("4" or "4.0")."""
    answer = extract_llm_jp_answer(_generated(results))
    return {"acc": float(STS_SCORE.match(answer) is not None and int(answer[0]) == doc["gold"])}


# --- NUBench, option mode: the paper's letter parsing -------------------------------------------------

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)


def option_position(output: str, n_options: int) -> int | None:
    """The position (0 = A) an answer names: its first line, stripped, case and ASCII punctuation ignored;
    None when it names no offered letter."""
    answer = output.split("\n", 1)[0].strip().lower().translate(_DROP_PUNCTUATION)
    offered = [letter.lower() for letter in LETTERS[:n_options]]
    return offered.index(answer) if answer in offered else None


def process_letter(doc: Doc, results: list[str]) -> dict[str, float]:
    """An option letter (NUBench): right when it names the right option's position."""
    return {"acc": float(option_position(_generated(results), doc["n_options"]) == doc["gold"])}


# --- SCN: the triplet selection, then the drops --------------------------------------------------------

SCN_REFERENCE = "CpTp"
SCN_MAX_VERBS = 20
SCN_VARIANT = "pronoun"  # the variant NegHub's headline and its pass criterion read
SCN_METRICS = ("negation_contrast", "drop_CpTn", "drop_CnTp", "drop_CnTn", "drop_CpTv", "triplets")


def process_scn(doc: Doc, results: list[str]) -> dict[str, list[Any]]:
    """Every metric gets the document's answer (and the task's document count, to say what --limit left out);
    the aggregation makes the selection over all of them."""
    top1 = _generated(results).strip()
    answer = [*doc["triplet"], doc["verb_index"], doc["seed"], top1, doc.get("documents")]
    return {metric: [metric, *answer] for metric in SCN_METRICS}


def _selected(items: list[list[Any]]) -> dict[tuple[str, str, str, str], bool]:
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
    rows = _selected(items)
    triplets = sum(1 for (_, _, _, pattern) in rows if pattern == SCN_REFERENCE)
    if metric == "triplets":
        return triplets
    if not triplets:
        if metric == SCN_METRICS[0]:  # said once per task, not once per metric
            print(f"neghub: {_why_no_triplet(items)}", file=sys.stderr)
        return float("nan")
    drops: dict[str, float] = {}
    for pattern in ("CpTn", "CnTp", "CnTn", "CpTv"):
        repeated = sum(1 for (_, _, _, p), hit in rows.items() if p == pattern and hit)
        drops[pattern] = (triplets - repeated) / triplets
    if metric == "negation_contrast":
        return min(drops["CpTn"], drops["CnTp"]) - max(drops["CnTn"], drops["CpTv"])
    return drops[metric.removeprefix("drop_")]


def _why_no_triplet(items: list[list[Any]]) -> str:
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
