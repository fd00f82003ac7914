"""The ranking rules a valid file cannot satisfy on its own (issue 15), each tried as a gamer would.

Every submission here is a valid file: the validator accepts it. What is checked is that the leaderboard
does not rank it, and that the reason is on the benchmark page. NUBench runs are on the sample shipped in
the package (46 items, every answer `choice1` by construction, see test_leaderboard.py), so no ../shared.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest

from neghub.evaluator.core.registry import benchmark_names
from neghub.leaderboard.boards import CUSTOM_PROMPT, Board
from neghub.leaderboard.collect import Row, apply_rules, collect, collect_submission
from neghub.leaderboard.ranking import INTERVAL_METHOD, name_key
from neghub.leaderboard.site import build_pages, chart_views
from tests.test_leaderboard import _items

ROOT = Path(__file__).resolve().parent.parent

Pick = Callable[[int, dict[str, object]], str]


def _run_file(path: Path, pick: Pick) -> None:
    """A NUBench completion-mode file whose arg-max on item number i is pick(i, item)."""
    lines = []
    for number, item in enumerate(_items()):
        scores: dict[str, float | None] = {"choice1": -5.0, "choice2": -5.0, "choice3": -5.0, "choice4": -5.0}
        if item["choice2_type"] == "non-applicable":
            scores["choice2"] = None
        scores[pick(number, item)] = -1.0
        lines.append(json.dumps({"id": item["index"], "loglikelihoods": scores}))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def always(choice: str) -> Pick:
    return lambda number, item: choice


def wrong_on(wrong: int) -> Pick:
    """Right (choice1) on every item but item number `wrong` (the contradiction, choice3)."""
    return lambda number, item: "choice3" if number == wrong else "choice1"


def submission(
    root: Path,
    sid: str,
    name: str,
    picks: list[Pick],
    *,
    submitter: str = "Tester",
    seeds: list[int] | None = None,
    prompts: list[str] | None = None,
) -> Path:
    """A submission of NUBench completion runs, one per pick (seeds 0, 1, ... unless given)."""
    folder = root / sid
    runs = []
    for index, pick in enumerate(picks):
        rel = f"predictions/nubench/run-{index}.jsonl"
        _run_file(folder / rel, pick)
        seed = index if seeds is None else seeds[index]
        prompt = f"    prompt: {json.dumps(prompts[index])}\n" if prompts else ""
        runs.append(
            f"  - task: nubench\n    split: test\n    file: {rel}\n    shots: 0\n    seed: {seed}\n"
            f"    mode: completion\n{prompt}"
        )
    (folder / "metadata.yaml").write_text(
        "model:\n  kind: baseline\n"
        f"  name: {json.dumps(name)}\n"
        "  baseline: synthetic\n  parameters: 0\n  open_weights: true\n  license: Apache-2.0\n"
        f"submitter:\n  name: {json.dumps(submitter)}\n  contact: https://example.org/tester\n"
        'date: "2025-05-01"\n'
        "description: Synthetic predictions for the ranking tests.\n"
        "runs:\n" + "".join(runs),
        encoding="utf-8",
    )
    return folder


def by_submission(rows: list[Row]) -> dict[str, Row]:
    out = {}
    for row in rows:
        assert row.submission_id is not None
        assert row.submission_id not in out, "one row per submission expected here"
        out[row.submission_id] = row
    return out


def page(tmp: Path, task: str) -> str:
    return build_pages(collect(tmp, reported=False, reproductions_dir=None))[f"benchmarks/{task}.md"]


# --- the 5-line SCN file ----------------------------------------------------------------------

IDEAL_TRIPLET = [
    # one triplet, the answers of a model that understood negation perfectly: the verb is repeated where it
    # should be (CpTp, CnTn, CpTv) and not where negation forbids it (CpTn, CnTp)
    ("CpTp", "act"),
    ("CpTn", "amble"),
    ("CnTp", "amble"),
    ("CnTn", "act"),
    ("CpTv", "act"),
]


def _five_line_scn(root: Path) -> Path:
    folder = root / "five-lines"
    rel = "predictions/scn/predictions.jsonl"
    (folder / rel).parent.mkdir(parents=True)
    lines = [
        json.dumps(
            {"name": "Mary", "profession": "teacher", "verb": "act", "variant": "pronoun", "pattern": p, "top1": t}
        )
        for p, t in IDEAL_TRIPLET
    ]
    (folder / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "metadata.yaml").write_text(
        "model:\n  kind: baseline\n  name: Perfect Cloze\n  baseline: synthetic\n  parameters: 0\n"
        "  open_weights: true\n  license: Apache-2.0\n"
        "submitter:\n  name: Tester\n  contact: https://example.org/tester\n"
        'date: "2025-05-01"\ndescription: Five lines.\n'
        f"runs:\n  - task: scn\n    split: null\n    file: {rel}\n    shots: 0\n    seed: null\n    mode: null\n",
        encoding="utf-8",
    )
    return folder


def test_a_five_line_scn_file_is_valid_but_not_ranked(tmp_path: Path) -> None:
    _five_line_scn(tmp_path)
    board = collect(tmp_path, reported=False, reproductions_dir=None)
    assert board.notes == []  # the validator accepts it: the file alone is fine
    (row,) = board.rows
    # contrast = min(1, 1) - max(0, 0) = 1: a perfect score, as the issue found it ranked #1
    assert row.metrics["variants.pronoun.negation_contrast"] == 1.0
    assert row.rank_range is None
    assert row.unranked == "ranked only once NegHub has reproduced it (its items depend on the model)"
    assert "ranked only once NegHub has reproduced it" in page(tmp_path, "scn")


def test_a_five_line_scn_file_stays_unranked_even_when_reproduced(tmp_path: Path) -> None:
    # a model may really answer one hand-picked triplet perfectly; one triplet still ranks nothing
    folder = _five_line_scn(tmp_path / "subs")
    records = tmp_path / "reproductions"
    records.mkdir()
    sha = hashlib.sha256((folder / "predictions/scn/predictions.jsonl").read_bytes()).hexdigest()
    (records / "five-lines.json").write_text(
        json.dumps(
            {
                "submission": "five-lines",
                "date": "2025-06-01",
                "neghub_version": "0",
                "sample_seed": 0,
                "items_per_run": 5,
                "device": "cpu",
                "machine": "test",
                "library_versions": {},
                "runs": [
                    {
                        "file": "predictions/scn/predictions.jsonl",
                        "predictions_sha256": sha,
                        "items_checked": 5,
                        "items_agreeing": 5,
                        "comparison": "exact",
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    (row,) = collect(tmp_path / "subs", reported=False, reproductions_dir=records).rows
    assert row.trust == "reproduced" and row.reproduction == "reproduced: 5/5 sampled items agree (2025-06-01)"
    assert row.unranked == "scored on 1 triplets (ranked from 30)"
    # its interval is [100, 100]: a bootstrap over one triplet has nothing to resample, so narrowness is no proof
    assert row.headline_ci == (1.0, 1.0)


# --- copies, seeds, prompt floods, names ------------------------------------------------------


def test_a_copy_of_another_submissions_predictions_is_not_ranked(tmp_path: Path) -> None:
    submission(tmp_path, "a-original", "Original", [always("choice1")])
    submission(tmp_path, "b-copy", "Someone Else's Model", [always("choice1")], submitter="Other")
    rows = by_submission(collect(tmp_path, reported=False, reproductions_dir=None).rows)
    assert rows["a-original"].rank_range == (1, 1)
    assert rows["b-copy"].rank_range is None
    assert rows["b-copy"].unranked == "duplicate of a-original: the same predictions, byte for byte"
    assert "duplicate of a-original" in page(tmp_path, "nubench")


def test_the_earlier_landing_keeps_the_rank_not_the_earlier_name(tmp_path: Path) -> None:
    submission(tmp_path, "a-copy", "Copy", [always("choice1")], submitter="Other")
    submission(tmp_path, "b-original", "Original", [always("choice1")])
    rows: list[Row] = []
    for sid in ("a-copy", "b-original"):
        rows += collect_submission(tmp_path / sid, None, benchmark_names())[1]
    # b-original landed on main first (git history); a-copy came a month later
    apply_rules(rows, {"b-original": "2025-01-01T00:00:00+00:00", "a-copy": "2025-02-01T00:00:00+00:00"})
    found = by_submission(rows)
    assert found["b-original"].unranked is None
    assert found["a-copy"].unranked == "duplicate of b-original: the same predictions, byte for byte"


def test_runs_that_repeat_a_seed_are_not_averaged_into_a_ranked_row(tmp_path: Path) -> None:
    # two different runs, both called seed 0
    submission(tmp_path, "same-seed", "Same Seed", [always("choice1"), always("choice3")], seeds=[0, 0])
    (row,) = collect(tmp_path, reported=False, reproductions_dir=None).rows
    assert row.n_runs == 2 and row.rank_range is None
    assert row.unranked == "its runs repeat a seed or the same predictions (an average needs distinct runs)"


def test_three_seeds_with_one_file_are_not_three_runs(tmp_path: Path) -> None:
    # seeds 0, 1, 2 with byte-identical predictions: the "3 runs ± 0.00"
    submission(tmp_path, "three-copies", "Three Copies", [always("choice1")] * 3)
    (row,) = collect(tmp_path, reported=False, reproductions_dir=None).rows
    assert row.n_runs == 3 and row.sd["acc"] == 0.0
    assert row.rank_range is None
    assert row.unranked == "its runs repeat a seed or the same predictions (an average needs distinct runs)"


def test_a_flood_of_prompt_names_is_one_custom_row(tmp_path: Path) -> None:
    # 30 runs, each naming its own prompt, each with slightly different predictions (item i answered wrong)
    picks = [wrong_on(i) for i in range(30)]
    submission(tmp_path, "flood", "Flood", picks, seeds=[0] * 30, prompts=[f"prompt-{i}" for i in range(30)])
    rows = collect(tmp_path, reported=False, reproductions_dir=None).rows
    assert len(rows) == 30
    # none of the 30 names is a NUBench prompt style: all are one board, prompt "custom"
    assert {row.key.prompt for row in rows} == {CUSTOM_PROMPT}
    assert len({row.key for row in rows}) == 1
    ranked = [row for row in rows if row.rank_range is not None]
    assert len(ranked) == 1
    others = {row.unranked for row in rows if row.rank_range is None}
    assert others == {"another row of this model is on this board already (one row per model and board)"}
    assert all(any("shown as custom" in flag for flag in row.flags) for row in rows)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Оne Run", "Cyrillic capital O (U+041E) for the Latin O"),
        ("ONE RUN", "case"),
        ("Ｏｎｅ Ｒｕｎ", "full-width forms (NFKC)"),
        ("One Rսn", "Armenian small seh (U+057D) for u"),
    ],
)
def test_a_model_name_that_reads_as_another_submitters_is_not_ranked(tmp_path: Path, name: str, why: str) -> None:
    submission(tmp_path, "a-first", "One Run", [always("choice1")])
    submission(tmp_path, "b-look-alike", name, [wrong_on(45)], submitter="Impostor")
    rows = by_submission(collect(tmp_path, reported=False, reproductions_dir=None).rows)
    assert name_key(name) == name_key("One Run"), why
    assert rows["a-first"].rank_range is not None
    assert rows["b-look-alike"].rank_range is None
    assert rows["b-look-alike"].unranked == "its model name reads as 'One Run', submitted by Tester"


def test_an_exact_copy_of_a_name_and_submitter_gets_no_second_row(tmp_path: Path) -> None:
    submission(tmp_path, "a-first", "One Run", [always("choice1")])
    submission(tmp_path, "b-again", "One Run", [wrong_on(45)])
    rows = by_submission(collect(tmp_path, reported=False, reproductions_dir=None).rows)
    assert rows["a-first"].rank_range is not None
    assert rows["b-again"].unranked == (
        "another row of this model is on this board already (one row per model and board)"
    )


def test_different_names_are_not_look_alikes() -> None:
    assert name_key("One Run") != name_key("One Rum")
    assert name_key("Llama-3.1-8B") != name_key("Llama-3.1-70B")


# --- rank ranges --------------------------------------------------------------------------------


def test_rank_ranges_follow_the_paired_bootstrap(tmp_path: Path) -> None:
    # A answers all 46 items right; E all but item 45; B and C none (the contradiction, the paraphrase).
    # A vs E: one discordant item, missing from a resample with probability (45/46)^46 = 0.36 > 2.5%, so
    # neither is told apart: both ranks 1-2. A and E each beat B and C on every resample (a difference of
    # 45 or 46 right of 46 cannot vanish: a resample would have to draw item 45 alone, 46^-46). B and C
    # answer identically wrong: every resampled difference is 0, never above it: both ranks 3-4.
    submission(tmp_path, "all-right", "A", [always("choice1")])
    submission(tmp_path, "one-wrong", "E", [wrong_on(45)])
    submission(tmp_path, "contradiction", "B", [always("choice3")])
    submission(tmp_path, "paraphrase", "C", [always("choice4")])
    rows = by_submission(collect(tmp_path, reported=False, reproductions_dir=None).rows)
    assert {sid: row.rank_range for sid, row in rows.items()} == {
        "all-right": (1, 2),
        "one-wrong": (1, 2),
        "contradiction": (3, 4),
        "paraphrase": (3, 4),
    }
    text = page(tmp_path, "nubench")
    assert "1–2" in text and "3–4" in text


def test_a_row_whose_interval_is_too_wide_is_not_ranked(tmp_path: Path) -> None:
    # right on the even items: 23/46 = 50%, whose 95% interval is about ±14 points (1.96 * sqrt(.25 / 46))
    submission(tmp_path, "half", "Half", [lambda number, item: "choice1" if number % 2 == 0 else "choice3"])
    (row,) = collect(tmp_path, reported=False, reproductions_dir=None).rows
    assert row.metrics["acc"] == 0.5
    assert row.unranked is not None and row.unranked.startswith("interval too wide to rank: ±1")
    assert row.unranked.endswith("points (ranked at ±10 or less)")


# --- the built site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str | bytes], dict[Board, list[Row]]]:
    """The site of the committed submissions and every paper table, built as `mkdocs build` builds it."""
    import os

    from neghub.leaderboard.collect import submissions_dir

    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    board = collect(submissions_dir(Path(__file__).parents[1]), data_dir=Path(data_dir) if data_dir else None)
    return build_pages(board), board.tables()


PROTOCOL_SETTINGS: tuple[Literal["shots", "mode", "split"], ...] = ("shots", "mode", "split")
BOARD_FIELDS = ("task", "dataset", "is_sample", "split", "mode", "shots", "prompt", "chat_template")


def test_no_download_mixes_boards(built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]]) -> None:
    files, tables = built_site
    slugs = {board.slug: board for board in tables}
    assert len(slugs) == len(tables), "two boards share a download name"
    per_board = [name for name in files if name.startswith("data/") and name.endswith(".json")]
    assert {name.removeprefix("data/").removesuffix(".json") for name in per_board} == set(slugs)
    for name in per_board:
        text = files[name]
        assert isinstance(text, str)
        records = json.loads(text)
        stem = name.removeprefix("data/").removesuffix(".json")
        assert records and {r["board"] for r in records} == {stem}
        assert {r["dataset"] for r in records} == {slugs[stem].dataset_label}
        assert {r["task"] for r in records} == {slugs[stem].task}
    long_text = files["data/results-long.csv"]
    assert isinstance(long_text, str)
    identities: dict[str, set[tuple[str, ...]]] = {}
    for record in csv.DictReader(io.StringIO(long_text)):
        identities.setdefault(record["board"], set()).add(tuple(record[f] for f in BOARD_FIELDS))
    assert set(identities) == set(slugs)
    for slug, seen in identities.items():
        assert len(seen) == 1, f"{slug} mixes {seen}"


def test_no_chart_mixes_boards(built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]]) -> None:
    _, tables = built_site
    by_title = {board.title: board for board in tables}
    for task in benchmark_names():
        mine = {board: rows for board, rows in tables.items() if board.task == task}
        for view in chart_views(task, mine):
            boards = {by_title[row[2]] for row in view["rows"]}  # the chart's table: model, trust, board, ...
            if len(boards) > 1:
                # only a by-setting chart spans boards, and they differ in its setting alone
                settings = [f for f in PROTOCOL_SETTINGS if len({getattr(b, f) for b in boards}) > 1]
                assert len(settings) == 1, view["title"]
                assert len({b.without(settings[0]) for b in boards}) == 1


def test_every_benchmark_page_states_the_interval_method_and_rank_ranges(
    built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]],
) -> None:
    files, _ = built_site
    for task in benchmark_names():
        text = files[f"benchmarks/{task}.md"]
        assert isinstance(text, str)
        assert INTERVAL_METHOD in text
        assert "a row is ranked only when" in text
        assert ">rank<" in text.lower() or "rank</th>" in text.lower()


def test_the_smollm2_jnli_neg_row_says_its_answers_did_not_parse(
    built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]], shared_datasets: Path
) -> None:
    """A JNLI-Neg row: it skips where the build cannot read the release (its runs are left out then)."""
    files, tables = built_site
    smollm2 = {
        board.prompt: (board, r)
        for board, rows in tables.items()
        for r in rows
        if board.task == "jnli-neg" and r.submission_id == "smollm2-135m-instruct"
    }
    assert sorted(smollm2) == ["llm-jp-eval", "llm-jp-eval-loglikelihood"]
    # the committed runs went through the model's chat template (metadata: TASK.PROMPT.MODE.chat_template)
    assert {board.chat_template for board, _ in smollm2.values()} == {"yes"}
    _board, row = smollm2["llm-jp-eval"]
    # all 1,363 generated answers are unparseable (a 135M model does not follow the format)...
    assert row.parsed_share == 0.0
    # ...while the log-likelihood protocol answers every item (it picks the likeliest label word)
    assert smollm2["llm-jp-eval-loglikelihood"][1].parsed_share == 1.0
    text = files["benchmarks/jnli-neg.md"]
    assert isinstance(text, str)
    assert "only 0% of its answers parsed" in text
    model = files["models/smollm2-135m-instruct.md"]
    assert isinstance(model, str)
    # the flip analysis: with no parsed answer there is no pair to compare, so no share is claimed at all
    flips = model.split("## Flip analysis", 1)[1].split("\n## ", 1)[0]
    lines = {
        re.findall(r"<td[^>]*>(.*?)</td>", line)[1].split(" · ")[2]: re.findall(r"<td[^>]*>(.*?)</td>", line)
        for line in flips.splitlines()
        if line.startswith("<tr><td>JNLI-Neg</td>")
    }
    cells = lines["prompt llm-jp-eval"]
    assert cells[2:4] == ["—", "—"]  # negation ignored, distracted: not claimed
    assert int(cells[4].replace(",", "")) > 0  # every pair left out, and counted
    assert cells[5] == "0%"
    # the log-likelihood run answers "contradiction" to every item: no pair's answer changes, so on M_i
    # every pair ignored the negation (100%) and on M_u none was distracted (0%); no pair is left out
    answers = ROOT / "submissions" / "smollm2-135m-instruct" / "predictions" / "jnli-neg"
    predictions = {
        json.loads(line)["prediction"]
        for line in (answers / "jnli-neg-valid-llm-jp-eval-loglikelihood-0shot.jsonl").read_text().splitlines()
    }
    assert predictions == {"contradiction"}
    assert lines["prompt llm-jp-eval-loglikelihood"][2:6] == ["100.00", "0.00", "0", "100%"]


# --- latest submissions -------------------------------------------------------------------------


def _git(folder: Path, *args: str, when: str) -> None:
    import os
    import subprocess

    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    identity = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, "-C", str(folder), *args], check=True, capture_output=True, env=env)


def test_latest_submissions_are_ordered_by_landing_not_by_the_typed_date(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subs = repo / "submissions"
    subs.mkdir(parents=True)
    _git(repo, "init", "-q", when="2025-01-01T00:00:00+00:00")
    # landed first (January), though it types the later date
    submission(subs, "typed-late", "Typed Late", [always("choice1")])
    (subs / "typed-late" / "metadata.yaml").write_text(
        (subs / "typed-late" / "metadata.yaml").read_text().replace('date: "2025-05-01"', 'date: "2026-01-01"')
    )
    _git(repo, "add", ".", when="2025-01-10T12:00:00+00:00")
    _git(repo, "commit", "-q", "-m", "first", when="2025-01-10T12:00:00+00:00")
    # landed in June, committed from a time zone east of UTC (the local time reads as 6 June, 01:00)
    submission(subs, "typed-early", "Typed Early", [always("choice3")])
    (subs / "typed-early" / "metadata.yaml").write_text(
        (subs / "typed-early" / "metadata.yaml").read_text().replace('date: "2025-05-01"', 'date: "2020-01-01"')
    )
    _git(repo, "add", ".", when="2025-06-06T01:00:00+09:00")
    _git(repo, "commit", "-q", "-m", "second", when="2025-06-06T01:00:00+09:00")
    board = collect(subs, reported=False, reproductions_dir=None)
    assert board.landed == {"typed-late": "2025-01-10T12:00:00+00:00", "typed-early": "2025-06-05T16:00:00+00:00"}
    home = build_pages(board)["index.md"]
    assert isinstance(home, str)
    latest = home.split('id="latest"', 1)[1]
    assert latest.index("Typed Early") < latest.index("Typed Late")
    assert "2025-06-05" in latest and "2025-01-10" in latest


def test_the_pages_workflow_clones_the_whole_history() -> None:
    # a shallow clone would date every submission to the last commit
    import yaml

    workflow = yaml.safe_load((Path(__file__).parents[1] / ".github" / "workflows" / "pages.yml").read_text())
    steps = [s for job in workflow["jobs"].values() for s in job["steps"] if "checkout" in str(s.get("uses"))]
    assert steps and all(s["with"]["fetch-depth"] == 0 for s in steps)
