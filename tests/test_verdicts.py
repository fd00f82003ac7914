"""Every verdict the site prints, earned: floors, holds, confirmations, ranks and the leader (leaderboard/verdicts.py).

The catalogue of gaming submissions is built here as a submitter would build each, on the real JNLI-Neg validation
split (../shared; the tests skip without it), beside the committed rule baselines (majority 33.16, random 33.67 M_i
Acc′). Each gaming row must be shown, flagged with its reason, never ranked and never the leader. The honest rows
are made so that their verdicts are known before the code runs:

- "Model A" (Alice, org/model-a @ 1…1) answers the gold label on the instances whose id is not 2 mod 5 (4 in 5),
  and the next label after the gold on the others: right on 80 % of the instances;
- "Model B" (Bob, org/model-b @ 2…2) answers the gold on the ids that are 0 or 1 mod 4 (1 in 2).
Both are pseudo-independent of the pair structure, so each's M_i Acc′ is near its rate (80 % would be above the
best published 69.35 %: A is built below it, see `honest`), and A beats B by far more than the paired test needs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.benchmarks import jnli_neg
from neghub.leaderboard.collect import Leaderboard, Row, collect
from neghub.leaderboard.site import build_pages
from neghub.leaderboard.verdicts import NEAR_COPY_SHARE, PARSED_SHARE_MIN

ROOT = Path(__file__).resolve().parent.parent
LABELS = jnli_neg.LABELS
PROMPT = "llm-jp-eval-loglikelihood"
Answers = dict[int, str | None]


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[int], list[str]]:
    """The ids and gold labels of JNLI-Neg's validation split, in the release's order."""
    import os

    for root in (ROOT.parent / "shared" / "datasets", Path(os.environ.get("NEGHUB_DATA_DIR") or "/nonexistent")):
        if (root / "jnli-neg").is_dir():
            dataset = jnli_neg.load("valid", data_dir=root)
            return [int(i) for i in dataset.ids], [LABELS[int(g)] for g in dataset.gold]
    pytest.skip("the real JNLI-Neg release is not here (no ../shared/datasets, no NEGHUB_DATA_DIR mirror)")


def honest(split: tuple[list[int], list[str]], right: Callable[[int], bool], wrong_shift: int = 1) -> Answers:
    """Gold where right(id), else the label `wrong_shift` after the gold (always wrong)."""
    ids, gold = split
    return {i: g if right(i) else LABELS[(LABELS.index(g) + wrong_shift) % 3] for i, g in zip(ids, gold, strict=True)}


def model_a(split: tuple[list[int], list[str]]) -> Answers:
    # right on 3 ids in 5 (ids 0, 1, 3 mod 5): about 60 % on every pair set, below the best published 69.35 %
    return honest(split, lambda i: i % 5 in (0, 1, 3))


def model_b(split: tuple[list[int], list[str]]) -> Answers:
    # right on 1 id in 2 (ids 0, 1 mod 4)
    return honest(split, lambda i: i % 4 in (0, 1))


def hub(name: str, repo: str, revision: str) -> str:
    return (
        f'model:\n  kind: hub\n  name: {json.dumps(name)}\n  repo_id: {repo}\n  revision: "{revision}"\n'
        "  parameters: 1000000\n  open_weights: true\n  license: apache-2.0\n"
    )


def write(
    root: Path,
    sid: str,
    model: str,
    answers: Answers,
    *,
    submitter: str = "Alice",
    prompt: str = PROMPT,
    provenance: dict[str, Any] | None = None,
) -> Path:
    """A submission of one JNLI-Neg validation run: `answers` by id (None: an answer that did not parse)."""
    folder = root / sid
    rel = "predictions/jnli-neg/run.jsonl"
    (folder / rel).parent.mkdir(parents=True)
    lines = [
        json.dumps({"id": i, "prediction": None, "raw_output": "?"} if a is None else {"id": i, "prediction": a})
        for i, a in answers.items()
    ]
    (folder / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    extra = ""
    if provenance:
        extra = "provenance:\n" + "".join(f"  {k}: {json.dumps(v)}\n" for k, v in provenance.items())
    (folder / "metadata.yaml").write_text(
        model
        + f"submitter:\n  name: {submitter}\n  contact: https://example.org/{submitter.lower()}\n"
        + 'date: "2025-05-01"\ndescription: Built by the verdict tests.\n'
        + f"runs:\n  - task: jnli-neg\n    split: valid\n    file: {rel}\n    shots: 0\n    prompt: {prompt}\n"
        + "    chat_template: false\n"
        + extra,
        encoding="utf-8",
    )
    return folder


def with_baselines(root: Path) -> Path:
    """The submissions folder with the committed JNLI-Neg rule baselines (majority, random)."""
    subs = root / "submissions"
    subs.mkdir(parents=True)
    for sid in ("baseline-majority", "baseline-random"):
        shutil.copytree(ROOT / "submissions" / sid, subs / sid)
    (subs / "baseline-random" / "predictions" / "nubench").exists() and shutil.rmtree(
        subs / "baseline-random" / "predictions" / "nubench"
    )
    metadata = subs / "baseline-random" / "metadata.yaml"
    text = metadata.read_text(encoding="utf-8")
    metadata.write_text(text[: text.index("- task: nubench")] if "- task: nubench" in text else text, encoding="utf-8")
    return subs


def board_rows(board: Leaderboard, prompt: str = PROMPT) -> dict[str, Row]:
    """The rows of the JNLI-Neg board of this prompt, by submission."""
    (rows,) = [rows for key, rows in board.tables().items() if key.task == "jnli-neg" and key.prompt == prompt]
    return {r.submission_id or r.model: r for r in rows}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


A = hub("Model A", "org/model-a", "1" * 40)
B = hub("Model B", "org/model-b", "2" * 40)


# --- the catalogue ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory, split: tuple[list[int], list[str]]) -> Leaderboard:
    """Two honest models and every gaming submission of the issue, on one board (landing order: by id)."""
    root = tmp_path_factory.mktemp("catalogue")
    subs = with_baselines(root)
    a, b = model_a(split), model_b(split)
    ids, gold = split
    write(subs, "a1-model-a", A, a)
    write(subs, "a2-model-b", B, b, submitter="Bob")
    # the public gold labels as predictions
    write(
        subs, "z1-gold", hub("Gold", "mallory/gold", "3" * 40), dict(zip(ids, gold, strict=True)), submitter="Mallory"
    )
    # the gold labels with 60 of 1,363 flipped
    flipped = {
        i: (LABELS[(LABELS.index(g) + 1) % 3] if n < 60 else g) for n, (i, g) in enumerate(zip(ids, gold, strict=True))
    }
    write(subs, "z2-gold95", hub("Almost Gold", "mallory/almost", "4" * 40), flipped, submitter="Mallory")
    # Model A's answers with 5 changed, under another name, model and submitter
    near = dict(a)
    for i in ids[:5]:
        near[i] = LABELS[(LABELS.index(near[i] or LABELS[0]) + 1) % 3]
    write(subs, "z3-near-copy", hub("Totally New Model", "mallory/new", "5" * 40), near, submitter="Mallory")
    # the same pinned model as A (same repo and revision) with 3 answers changed, under a new display name
    again = dict(a)
    for i in ids[10:13]:
        again[i] = LABELS[(LABELS.index(again[i] or LABELS[0]) + 1) % 3]
    write(subs, "z4-same-model", hub("Model A (improved)", "org/model-a", "1" * 40), again, submitter="Mallory")
    # an unknown prompt: a board of its own, named by the prompt
    write(
        subs,
        "z5-private-prompt",
        hub("Prompted", "mallory/p", "6" * 40),
        model_a(split),
        submitter="Mallory",
        prompt="my-secret",
    )
    # a name chosen to sort first, on a near-copy of Model B
    first = dict(b)
    first[ids[0]] = LABELS[(LABELS.index(first[ids[0]] or LABELS[0]) + 1) % 3]
    write(subs, "z6-sorts-first", hub("!!! 000 Best", "mallory/aaa", "7" * 40), first, submitter="Mallory")
    # 60 % of the answers do not parse; the rest are right
    low_parse: Answers = {i: (None if n % 5 < 3 else g) for n, (i, g) in enumerate(zip(ids, gold, strict=True))}
    write(subs, "z7-low-parse", hub("Terse", "org/terse", "8" * 40), low_parse, submitter="Dan")
    # at the floor: the majority baseline's answers (one label throughout, 33.16) as a model's
    majority = [
        json.loads(line)
        for line in (subs / "baseline-majority/predictions/jnli-neg/valid.jsonl").read_text().splitlines()
    ]
    write(
        subs,
        "z8-at-floor",
        hub("Guesser", "org/guess", "9" * 40),
        {r["id"]: r["prediction"] for r in majority},
        submitter="Eve",
    )
    # Model A again, the same pinned model and the same answers, from another submitter: a confirmation
    write(subs, "z9-confirms-a", hub("Model A", "org/model-a", "1" * 40), a, submitter="Carol")
    return collect(subs, reported=True, reproductions_dir=root / "reproductions")


def test_the_honest_rows_are_ranked_by_the_paired_test(catalogue: Leaderboard) -> None:
    rows = board_rows(catalogue)
    a, b = rows["a1-model-a"], rows["a2-model-b"]
    assert (a.status, a.rank_range) == ("ranked", (1, 1))
    assert (b.status, b.rank_range) == ("ranked", (2, 2))
    # each beats the floor, the random baseline's 33.67, and says by how much with the paired interval
    assert a.floor_comparison is not None and a.floor_comparison.startswith("difference +")
    assert "paired 95 % interval [+" in a.floor_comparison


def test_the_rule_baselines_are_reference_rows_and_the_best_is_the_floor(catalogue: Leaderboard) -> None:
    rows = board_rows(catalogue)
    for sid in ("baseline-majority", "baseline-random"):
        assert rows[sid].status == "reference" and rows[sid].rank_range is None
    assert rows["baseline-random"].metrics["pair_metrics.M_i.acc_prime"] == pytest.approx(265 / 787)
    # the floor of every board of this data: the baselines are shown on the custom prompt's board too
    private = board_rows(catalogue, "custom: my-secret (no sha256 recorded)")
    assert {"baseline-majority", "baseline-random"} <= set(private)


@pytest.mark.parametrize(
    ("sid", "kind", "words"),
    [
        ("z1-gold", "above-published-best", "is above the best published result (69.35, 東北大 BERTLARGE, Table 8)"),
        ("z2-gold95", "above-published-best", "a new state of the art needs a reproduction"),
        ("z3-near-copy", "near-copy", "agree with a1-model-a's (Model A, Alice) on 1358 of 1363 items (99.6 %"),
        (
            "z4-same-model",
            "other-answers-same-model",
            "gave other answers under this protocol than a1-model-a's row: 3 of 1363",
        ),
        ("z6-sorts-first", "near-copy", "agree with a2-model-b's (Model B, Bob) on 1362 of 1363 items"),
    ],
)
def test_each_gaming_row_is_shown_held_with_its_reason(catalogue: Leaderboard, sid: str, kind: str, words: str) -> None:
    row = board_rows(catalogue)[sid]
    assert row.status == "held" and row.rank_range is None
    assert [h.kind for h in row.holds] == [kind] or kind in [h.kind for h in row.holds]
    reasons = " ".join(h.reason for h in row.holds)
    assert words in reasons
    assert row.unranked is not None and row.unranked.startswith("held: ")


def test_a_custom_prompt_is_a_board_of_its_own_and_held(catalogue: Leaderboard) -> None:
    boards = [key for key in catalogue.tables() if key.task == "jnli-neg" and key.prompt.startswith("custom")]
    assert [key.prompt for key in boards] == ["custom: my-secret (no sha256 recorded)"]
    row = board_rows(catalogue, boards[0].prompt)["z5-private-prompt"]
    # alone on its board (but for the references), with an honest model's answers: still never ranked
    assert row.status == "held" and [h.kind for h in row.holds] == ["custom-prompt"]


def test_a_row_under_the_parse_share_is_not_ranked(catalogue: Leaderboard) -> None:
    row = board_rows(catalogue)["z7-low-parse"]
    # lines 0..1362, unparsed where the line number is 0, 1 or 2 mod 5: 272 * 3 + 3 = 819; parsed 544 (39.9 %)
    assert row.parsed_share == pytest.approx(544 / 1363)
    assert row.status == "unranked"
    assert row.unranked == f"only 40 % of its answers parsed (ranked from {100 * PARSED_SHARE_MIN:.0f} %)"


def test_a_row_that_does_not_beat_the_floor_is_not_ranked(catalogue: Leaderboard) -> None:
    row = board_rows(catalogue)["z8-at-floor"]
    assert row.status == "unranked"
    assert row.unranked is not None
    assert row.unranked.startswith("does not beat the floor under the paired test: Baseline: random at 33.67")
    assert "difference -0.51 points" in row.unranked  # 33.16 - 33.67 (261 and 265 of 787)


def test_the_same_model_and_answers_from_another_submitter_is_a_confirmation(catalogue: Leaderboard) -> None:
    rows = board_rows(catalogue)
    assert "z9-confirms-a" not in rows  # one row
    assert rows["a1-model-a"].confirmed_by == ["Carol (z9-confirms-a)"]
    (confirmation,) = [r for r in catalogue.rows if r.submission_id == "z9-confirms-a"]
    assert confirmation.status == "confirmation" and confirmation.confirms is rows["a1-model-a"]
    assert rows["a1-model-a"].trust == "re-scored"  # no added trust


def test_the_leader_is_the_one_row_ranked_first_with_its_margin(catalogue: Leaderboard) -> None:
    leader = catalogue.leaders["jnli-neg"]
    rows = board_rows(catalogue)
    assert leader.leader is rows["a1-model-a"] and leader.runner_up is rows["a2-model-b"]
    a = rows["a1-model-a"].metrics["pair_metrics.M_i.acc_prime"]
    b = rows["a2-model-b"].metrics["pair_metrics.M_i.acc_prime"]
    assert leader.margin == pytest.approx(a - b)
    assert leader.margin_ci is not None and 0 < leader.margin_ci[0] <= a - b <= leader.margin_ci[1]
    assert leader.text.startswith(f"Model A: M_i Acc′ {100 * a:.2f}, {100 * (a - b):+.2f} points over Model B")
    assert "best published: 東北大 BERTLARGE, M_i Acc′ 69.35 (Table 8" in (leader.context or "")


def test_no_gaming_row_is_the_leader_on_any_page(catalogue: Leaderboard) -> None:
    pages = build_pages(catalogue)
    home = pages["index.md"]
    assert isinstance(home, str)
    leader_line = next(line for line in home.splitlines() if line.startswith("<p>Leader:") and "M_i Acc" in line)
    assert "Model A:" in leader_line
    for name in ("Gold", "Almost Gold", "Totally New Model", "Model A (improved)", "Prompted", "!!! 000 Best", "Terse"):
        assert f"Leader: {name}" not in home
    page = pages["benchmarks/jnli-neg.md"]
    assert isinstance(page, str)
    for sid, words in (("z1-gold", "held: "), ("z3-near-copy", "near-copy"), ("z7-low-parse", "not ranked: only 40 %")):
        assert words in page, sid


def test_a_tie_is_said_and_never_broken_by_a_name(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    # C and D are right on the same instances; where C is wrong, D picks the other wrong label: the same score on
    # every pair, other answers on the ~40 % C gets wrong (no near-copy), and D's name sorts first
    subs = with_baselines(tmp_path)
    c = honest(split, lambda i: i % 5 in (0, 1, 3), wrong_shift=1)
    d = honest(split, lambda i: i % 5 in (0, 1, 3), wrong_shift=2)
    write(subs, "c-model", hub("Zeta", "org/zeta", "a" * 40), c, submitter="Carol")
    write(subs, "d-model", hub("!!! Aardvark", "org/aardvark", "b" * 40), d, submitter="Dan")
    board = collect(subs, reported=False, reproductions_dir=tmp_path / "none")
    rows = board_rows(board)
    assert (
        rows["c-model"].metrics["pair_metrics.M_i.acc_prime"] == rows["d-model"].metrics["pair_metrics.M_i.acc_prime"]
    )
    assert rows["c-model"].rank_range == rows["d-model"].rank_range == (1, 2)
    leader = board.leaders["jnli-neg"]
    assert leader.leader is None and leader.text.startswith("tied: !!! Aardvark, Zeta")


def test_one_ranked_row_alone_is_no_leader(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    subs = with_baselines(tmp_path)
    write(subs, "a1-model-a", A, model_a(split))
    board = collect(subs, reported=False, reproductions_dir=tmp_path / "none")
    assert board_rows(board)["a1-model-a"].rank_range == (1, 1)
    leader = board.leaders["jnli-neg"]
    assert leader.leader is None and leader.text.startswith("one ranked row (Model A)")
    assert "a leader needs two ranked rows" in leader.text


def test_a_clearance_lifts_a_hold_and_says_who_when_why(tmp_path: Path, split: tuple[list[int], list[str]]) -> None:
    subs = with_baselines(tmp_path)
    write(subs, "a1-model-a", A, model_a(split))
    better = honest(split, lambda i: i % 10 != 3)  # 90 %: above the best published result, so held
    write(subs, "b1-strong", hub("Strong", "org/strong", "c" * 40), better, submitter="Bob")
    held = board_rows(collect(subs, reported=True, reproductions_dir=tmp_path / "none"))["b1-strong"]
    assert held.status == "held" and [h.kind for h in held.holds] == ["above-published-best"]
    (tmp_path / "clearances.yaml").write_text(
        "clearances:\n  - submission: b1-strong\n    holds: [above-published-best]\n    by: A. Maintainer\n"
        '    date: "2026-11-25"\n    why: re-run on our machine, 200 of 200 items agree\naccepted_prompts: []\n',
        encoding="utf-8",
    )
    cleared = board_rows(collect(subs, reported=True, reproductions_dir=tmp_path / "none"))["b1-strong"]
    assert cleared.status == "ranked" and cleared.rank_range == (1, 1)
    (entry,) = cleared.cleared
    assert entry.endswith("cleared by A. Maintainer on 2026-11-25: re-run on our machine, 200 of 200 items agree")


def agreeing_record(sid: str, run: Path, **version_and_kind: object) -> dict[str, object]:
    """A reproduction record (as reproductions/<sid>.json holds it) in which all 50 sampled items of the one run
    agree; `version_and_kind` says which kind of record it is."""
    return {
        **version_and_kind,
        "submission": sid,
        "date": "2026-11-25",
        "neghub_version": "0.1.0",
        "sample_seed": 0,
        "items_per_run": 50,
        "device": "cpu (float32)",
        "machine": "x86_64",
        "library_versions": {},
        "runs": [
            {
                "file": "predictions/jnli-neg/run.jsonl",
                "predictions_sha256": sha(run),
                "items_checked": 50,
                "items_agreeing": 50,
                "comparison": "labels exactly",
            }
        ],
    }


def test_a_reproduction_clears_a_hold_but_not_a_custom_prompts(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    subs = with_baselines(tmp_path)
    ids, gold = split
    folder = write(
        subs, "z1-gold", hub("Gold", "org/gold", "d" * 40), dict(zip(ids, gold, strict=True)), submitter="Bob"
    )
    write(subs, "z5-private", hub("Prompted", "org/p", "e" * 40), model_a(split), submitter="Bob", prompt="my-secret")
    records = tmp_path / "reproductions"
    records.mkdir()
    for sid, path in (("z1-gold", folder), ("z5-private", subs / "z5-private")):
        run = path / "predictions/jnli-neg/run.jsonl"
        record = agreeing_record(sid, run, schema_version=2, kind="same-setting")
        (records / f"{sid}.json").write_text(json.dumps(record), encoding="utf-8")
    board = collect(subs, reported=True, reproductions_dir=records)
    gold_row = board_rows(board)["z1-gold"]
    assert gold_row.trust == "reproduced" and gold_row.status == "ranked"
    assert gold_row.cleared and "cleared: NegHub reproduced it" in gold_row.cleared[0]
    private = board_rows(board, "custom: my-secret (no sha256 recorded)")["z5-private"]
    assert private.trust == "reproduced" and private.status == "held"


@pytest.mark.parametrize(
    ("version_and_kind", "words"),
    [
        ({"schema_version": 1}, "before numeric settings were recorded"),
        ({"schema_version": 2, "kind": "across-settings"}, "another numeric setting"),
    ],
)
def test_only_a_same_setting_record_reproduces_a_row(
    tmp_path: Path, split: tuple[list[int], list[str]], version_and_kind: dict[str, object], words: str
) -> None:
    # a drift report (another device or dtype) or a record from before settings were recorded agrees on every
    # item here, and still proves nothing of the submitted run: the row stays "not reproduced" and held
    subs = with_baselines(tmp_path)
    ids, gold = split
    folder = write(
        subs, "z1-gold", hub("Gold", "org/gold", "d" * 40), dict(zip(ids, gold, strict=True)), submitter="Bob"
    )
    records = tmp_path / "reproductions"
    records.mkdir()
    record = agreeing_record("z1-gold", folder / "predictions/jnli-neg/run.jsonl", **version_and_kind)
    (records / "z1-gold.json").write_text(json.dumps(record), encoding="utf-8")
    row = board_rows(collect(subs, reported=True, reproductions_dir=records))["z1-gold"]
    assert row.trust != "reproduced" and row.status == "held"
    assert row.reproduction is not None and row.reproduction.startswith("not reproduced") and words in row.reproduction


def test_the_near_copy_threshold_is_what_the_rules_say() -> None:
    # 5 of 1,363 changed agrees on 99.6 %: caught; the threshold is stated on the site with why
    assert 1358 / 1363 >= NEAR_COPY_SHARE > 0.9


def test_the_pull_request_summary_gives_a_near_copy_the_verdict_it_gets_once_merged(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    # submission.yml checks the pull request out shallow: in HEAD every submission was added by one commit, so a
    # copy named to sort first ("aaa-...") came before the row it copies, was ranked 1 in the summary, and the
    # original held. Merged, it lands after every submission of BASE; the summary must say what the site will.
    import subprocess
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from submission_summary import summary

    def commit_all(repo: Path) -> None:
        for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "one commit, as a shallow checkout has"]):
            subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    base = with_baselines(tmp_path / "base")
    original = model_a(split)
    write(base, "z-original", hub("Model A", "org/a", "a" * 40), original)
    head = tmp_path / "head" / "submissions"
    shutil.copytree(base, head)
    copy = dict(original)
    for item in sorted(copy)[:5]:  # 5 of 1,363 answers changed: 99.6 % alike
        copy[item] = "neutral" if copy[item] != "neutral" else "entailment"
    write(head, "aaa-copy", hub("Brand New", "org/new", "b" * 40), copy, submitter="Mallory")
    commit_all(base.parent)
    commit_all(head.parent)
    (line,) = [row for row in summary(head, base).splitlines() if row.startswith("| aaa\\-copy")]
    assert "held" in line and "near\\-copy" in line and "ranked" not in line, line
