"""Realistic synthetic submissions for the site benchmark: every task, full-size files, one pinned model each.

Each submission is what `neghub run` writes for a causal LM (the committed SmolLM2 submission's shape): JNLI-Neg's
validation split twice (llm-jp-eval generation, some answers unparsed; the log-likelihood label protocol), NUBench's
shipped sample in both modes, and an SCN run of 320 triplets (1,600 lines). Answers are drawn per submission with
its own accuracy, so that no two submissions are near-copies and boards rank some rows: the leaderboard's rules run
as they do on real submissions. JNLI-Neg needs its release (NEGHUB_DATA_DIR or ../shared/datasets).

`python perf/realistic_submissions.py FOLDER COUNT` writes COUNT submissions into FOLDER.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUBENCH_TEST = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
LABELS = ("entailment", "neutral", "contradiction")
SCN_TRIPLETS = 320
PATTERNS = ("CpTp", "CpTn", "CnTp", "CnTn", "CpTv")
LABS = 97  # accounts: most submit several models
RUNS = {
    "predictions/jnli-neg/generation.jsonl": "  - {task: jnli-neg, split: valid, file: "
    "predictions/jnli-neg/generation.jsonl, shots: 0, prompt: llm-jp-eval, chat_template: false}\n",
    "predictions/jnli-neg/loglikelihood.jsonl": "  - {task: jnli-neg, split: valid, file: "
    "predictions/jnli-neg/loglikelihood.jsonl, shots: 0, prompt: llm-jp-eval-loglikelihood, chat_template: false}\n",
    "predictions/nubench/completion.jsonl": "  - {task: nubench, split: test, file: "
    "predictions/nubench/completion.jsonl, shots: 0, prompt: simple, mode: completion, chat_template: false}\n",
    "predictions/nubench/option.jsonl": "  - {task: nubench, split: test, file: predictions/nubench/option.jsonl, "
    "shots: 0, prompt: simple, mode: option, chat_template: false}\n",
    "predictions/scn/causal.jsonl": "  - {task: scn, split: null, file: predictions/scn/causal.jsonl, shots: 0, "
    "seed: 0, prompt: causal, chat_template: false}\n",
}


def account(number: int) -> str:
    """The GitHub account that submits model `number` (the validator requires `submitter.github`)."""
    return f"lab-{number % LABS}"


def jnli_split(data_dir: Path | None) -> tuple[list[int], list[str]]:
    from neghub.evaluator.benchmarks import jnli_neg

    dataset = jnli_neg.load("valid", data_dir=data_dir)
    return [int(i) for i in dataset.ids], [jnli_neg.LABELS[int(g)] for g in dataset.gold]


def scn_triplets() -> list[tuple[str, str, str]]:
    from neghub.evaluator.benchmarks import scn

    lists = scn.load_word_lists()
    names = [*lists.names("female")[:4], *lists.names("male")[:4]]
    professions = lists.professions[:4]
    verbs = list(lists.verbs[:10])
    return [(n, p, v) for n in names for p in professions for v in verbs][:SCN_TRIPLETS]


def _jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def write_submission(
    folder: Path,
    number: int,
    jnli: tuple[list[int], list[str]],
    items: list[dict],
    triplets: list[tuple[str, str, str]],
) -> None:
    rng = random.Random(number)
    accuracy = rng.uniform(0.35, 0.65)
    unparsed = rng.uniform(0.0, 0.4)
    ids, gold = jnli

    def label(right: str) -> str:
        return right if rng.random() < accuracy else rng.choice([x for x in LABELS if x != right])

    generation = [
        {"id": i, "prediction": None, "raw_output": "I cannot tell."}
        if rng.random() < unparsed
        else {"id": i, "prediction": label(g)}
        for i, g in zip(ids, gold, strict=True)
    ]
    loglikelihood = [{"id": i, "prediction": label(g)} for i, g in zip(ids, gold, strict=True)]
    completion, option = [], []
    for item in items:
        keys = ["choice1", "choice2", "choice3", "choice4"]
        scores: dict[str, float | None] = {k: round(-rng.uniform(5, 40), 4) for k in keys}
        if item["choice2_type"] == "non-applicable":
            scores["choice2"] = None
        if rng.random() < accuracy:
            scores["choice1"] = 0.0
        completion.append({"id": item["index"], "loglikelihoods": scores})
        option.append({"id": item["index"], "output": rng.choice("ABCD") + ")"})
    scn_rows = []
    for name, profession, verb in triplets:
        for pattern in PATTERNS:
            repeats = pattern == "CpTp" or rng.random() < (0.3 if pattern in ("CpTn", "CnTp") else 0.8)
            scn_rows.append(
                {
                    "name": name,
                    "profession": profession,
                    "verb": verb,
                    "variant": "pronoun",
                    "pattern": pattern,
                    "top1": verb if repeats else "go",
                }
            )
    sub = folder / f"model-{number:05d}"
    files = {
        "predictions/jnli-neg/generation.jsonl": generation,
        "predictions/jnli-neg/loglikelihood.jsonl": loglikelihood,
        "predictions/nubench/completion.jsonl": completion,
        "predictions/nubench/option.jsonl": option,
        "predictions/scn/causal.jsonl": scn_rows,
    }
    # not every lab runs every benchmark: three submissions in eight leave one benchmark out
    left_out = {1: "predictions/scn/", 2: "predictions/nubench/", 3: "predictions/jnli-neg/"}.get(number % 8)
    files = {rel: rows for rel, rows in files.items() if left_out is None or not rel.startswith(left_out)}
    lab = number % LABS
    for rel, rows in files.items():
        _jsonl(sub / rel, rows)
    revision = hashlib.sha1(str(number).encode()).hexdigest()
    (sub / "metadata.yaml").write_text(
        f"model:\n  kind: hub\n  name: Synthetic model {number}\n  repo_id: lab-{number % LABS}/model-{number}\n"
        f'  revision: "{revision}"\n  parameters: {rng.randint(10**8, 10**10)}\n  open_weights: true\n'
        "  license: apache-2.0\n"
        f"submitter:\n  name: Lab {lab}\n  contact: https://example.org/lab-{lab}\n  github: {account(number)}\n"
        'date: "2025-01-01"\ndescription: A synthetic submission of the site benchmark.\nruns:\n'
        + "".join(RUNS[rel] for rel in files),
        encoding="utf-8",
    )


def write_submissions(folder: Path, count: int, data_dir: Path | None = None, start: int = 0) -> None:
    jnli = jnli_split(data_dir)
    items = [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line.strip()]
    triplets = scn_triplets()
    for number in range(start, start + count):
        write_submission(folder, number, jnli, items, triplets)


if __name__ == "__main__":
    write_submissions(Path(sys.argv[1]), int(sys.argv[2]))
