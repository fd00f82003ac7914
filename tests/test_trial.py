"""What a trial (`neghub run --max-items N`) tells a submitter, and `neghub validate`'s one rerun line, tested by
running what they print.

The trial runs test_runners' tiny Llama on NUBench's bundled sample (46 test items): its completion runs parse
every answer (log-likelihoods always do), its option runs none (the tiny model writes "one D.", not a letter).
The expected scores are worked out by hand from the lines the trial wrote: NUBench's right answer is always
`choice1` (docs/submitting.md), and the completion mode's answer is the arg-max of the log-likelihoods, the first
of equal maxima (lm-evaluation-harness's rule, families/multiple_choice/reader.py), so an item is right where
`choice1` is at least every other offered option.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from neghub.evaluator.cli import main
from neghub.evaluator.protocol.plans import PARTIAL_ITEMS, SPLIT_ITEMS, RunPlan
from neghub.evaluator.runners.trial import TrialRun, duration, whole_run_seconds
from neghub.evaluator.submissions.rerun import DATA_DIR_PLACEHOLDER, submission_id

from .conftest import SHARED_DATASETS

SIGNED = [
    "--submitter-name",
    "Trial Tester",
    "--submitter-contact",
    "https://github.com/tt",
    "--submitter-github",
    "tt",
]
NUBENCH_ITEMS = 46  # the bundled sample's test.jsonl lines
LICENSE_WARNING = "warning: --license not given"


def _plan(items: int, settings: dict[str, Any]) -> RunPlan:
    return RunPlan(
        task="t",
        split="s",
        shots=0,
        seed=None,
        prompt="p",
        mode=None,
        items=list(range(items)),
        process=lambda backend, batch: [],
        settings=settings,
    )


def test_the_estimate_scales_each_run_s_own_rate_to_its_full_item_count() -> None:
    # 20 of 46 items in 2 s: 0.1 s an item, 46 items 4.6 s
    assert whole_run_seconds(TrialRun(_plan(20, {PARTIAL_ITEMS: 20, SPLIT_ITEMS: 46}), 20, 2.0)) == pytest.approx(4.6)
    # resumed: 10 of the plan's 20 items ran here, in 1 s: the same rate
    assert whole_run_seconds(TrialRun(_plan(20, {PARTIAL_ITEMS: 20, SPLIT_ITEMS: 46}), 10, 1.0)) == pytest.approx(4.6)
    # the cloze test's plan items are pairs, its counts triplets: 3 pairs (9 triplets) in 3 s of 4 x 432 triplets
    scn = _plan(3, {PARTIAL_ITEMS: 9, SPLIT_ITEMS: 4 * 432})
    assert whole_run_seconds(TrialRun(scn, 3, 3.0)) == pytest.approx(576.0)
    assert whole_run_seconds(TrialRun(scn, 0, 0.0)) is None  # written before this command: no rate


def test_a_run_written_together_with_another_adds_nothing_to_the_estimate() -> None:
    # JNLI-Neg's two runs in one pass: the generation run's seconds are both runs', the other's 0 of its own
    plan = _plan(20, {PARTIAL_ITEMS: 20, SPLIT_ITEMS: 46})
    assert whole_run_seconds(TrialRun(plan, 20, 0.0)) == 0.0
    assert [duration(s) for s in (0.2, 40.4, 576.0, 7500.0)] == [
        "about 1 s",
        "about 40 s",
        "about 10 min",
        "about 2 h 5 min",
    ]


def test_a_submission_folder_is_named_for_the_model() -> None:
    assert submission_id("SmolLM2-135M-Instruct") == "smollm2-135m-instruct"
    assert submission_id("model (sha256 66aa14cd49d8…)") == "model-sha256-66aa14cd49d8"
    assert submission_id("…") == "my-model"  # nothing left of the name


def test_the_trial_s_parse_minimum_is_the_leaderboard_s() -> None:
    from neghub.evaluator.core.thresholds import PARSED_SHARE_MIN
    from neghub.leaderboard import verdicts

    assert PARSED_SHARE_MIN == verdicts.PARSED_SHARE_MIN == 0.5


# --- the command, end to end ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.test_runners import _causal

    return _causal(tmp_path_factory.mktemp("trial-model") / "model")


def _neghub(capsys: pytest.CaptureFixture[str], words: list[str]) -> tuple[int, str]:
    """`neghub WORDS...` as a printed command line reads (its first word `neghub`), in this process."""
    assert words[0] == "neghub", words
    capsys.readouterr()
    code = main(words[1:])
    return code, capsys.readouterr().err


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _right_by_hand(line: dict[str, Any]) -> bool:
    offered = [v for v in line["loglikelihoods"].values() if v is not None]
    return bool(line["loglikelihoods"]["choice1"] >= max(offered))


@pytest.mark.models
def test_the_trial_prints_each_run_s_score_and_parse_rate_and_its_next_command_runs(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ["neghub", "run", str(tiny_model), "--tasks", "nubench", "--max-items", "20", "--no-progress"]
    code, err = _neghub(capsys, [*argv, "-o", "try-my-model", *SIGNED])
    assert code == 0, err
    trial = tmp_path / "try-my-model"
    completion = _lines(trial / "predictions/nubench/nubench-test-completion-simple-0shot.jsonl")
    option = _lines(trial / "predictions/nubench/nubench-test-option-simple-0shot.jsonl")
    assert len(completion) == len(option) == 20
    right = sum(map(_right_by_hand, completion))
    assert {line["output"] for line in option} == {"one D."}  # no letter: nothing parses
    lines = err.splitlines()
    assert (
        "trial, 20 items: not comparable: predictions/nubench/nubench-test-completion-simple-0shot.jsonl: accuracy "
        f"{100 * right / 20:.2f}% over 20 units (item); 100.00% of 20 answers parsed"
    ) in lines
    assert (
        "trial, 20 items: not comparable: predictions/nubench/nubench-test-option-simple-0shot.jsonl: accuracy "
        "0.00% over 20 units (item); 0.00% of 20 answers parsed"
    ) in lines
    warnings = [line for line in lines if line.startswith("warning: predictions/")]
    assert warnings == [
        "warning: predictions/nubench/nubench-test-option-simple-0shot.jsonl: 0.00% of its answers parsed, under the "
        "50.00% the leaderboard ranks from: the whole run would be left unranked (an unparsed answer is scored "
        "wrong); its raw outputs are in the file"
    ]
    (estimate,) = [line for line in lines if line.startswith("estimate: ")]
    assert re.match(r"estimate: the whole run would take about \d+ (s|min) on this machine \(an estimate", estimate)
    assert any(line.startswith(LICENSE_WARNING) for line in lines)

    # the "next" command: the whole run, into the folder a pull request adds; then validate it as "then" says
    (step,) = [line for line in lines if line.startswith("next: ")]
    whole = shlex.split(step.split("the folder your pull request adds: ", 1)[1])
    assert "--max-items" not in whole
    meta = yaml.safe_load((trial / "metadata.yaml").read_text())
    folder = f"submissions/{submission_id(meta['model']['name'])}"
    assert whole[whole.index("-o") + 1] == folder
    code, err = _neghub(capsys, whole)
    assert code == 0, err
    assert not [line for line in err.splitlines() if line.startswith("trial, ")]  # a whole run is no trial
    (then,) = [line for line in lines if line.startswith("then: ")]
    check = shlex.split(then.removeprefix("then: ").split(", then open", 1)[0])
    assert check == ["neghub", "validate", folder]
    code, err = _neghub(capsys, check)
    assert code == 0, err
    # the licence the run was not given: a line of validate too (a warning: the folder is valid)
    assert [line for line in err.splitlines() if "model.license" in line] == [
        f"warning: {Path(folder).name}/metadata.yaml: model.license: 'unknown': the leaderboard shows the licence "
        "as unknown; write the licence the model card names (e.g. apache-2.0), or pass --license to neghub run"
    ]
    # the whole run's answers to the sampled items are the trial's (the trial scored the model, not a filler)
    scored = {
        line["id"]: line
        for line in _lines(tmp_path / folder / "predictions/nubench/nubench-test-completion-simple-0shot.jsonl")
    }
    assert len(scored) == NUBENCH_ITEMS
    assert sum(_right_by_hand(scored[line["id"]]) for line in completion) == right


@pytest.mark.models
def test_validate_prints_the_rerun_command_once_and_it_runs_with_its_placeholders_filled(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "releases"  # NUBench's release ships with NegHub: an empty mirror still runs it
    data.mkdir()
    trial_words = ["neghub", "run", str(tiny_model), "--tasks", "nubench", "--max-items", "5", "--no-progress"]
    code, err = _neghub(capsys, [*trial_words, "--data-dir", str(data), "--license", "mit", "-o", "try-it", *SIGNED])
    assert code == 0, err
    assert LICENSE_WARNING not in err

    code, err = _neghub(capsys, ["neghub", "validate", "try-it"])
    assert code == 2
    refused = [line for line in err.splitlines() if line.startswith("error: ")]
    reruns = [line for line in err.splitlines() if line.startswith("rerun: ")]
    assert len(refused) == 2 and len(reruns) == 1  # two partial runs, one command
    assert all("--max-items (neghub validate prints it once, after `rerun:`)" in line for line in refused)
    rerun = reruns[0].removeprefix("rerun: ")
    model_placeholder = f"<MODEL: the path of the model folder or file {tiny_model.name}>"
    assert set(re.findall(r"<[^>]*>", rerun)) == {model_placeholder, DATA_DIR_PLACEHOLDER}
    # the placeholders, filled as their words say, make the whole run
    words = [
        {model_placeholder: str(tiny_model), DATA_DIR_PLACEHOLDER: str(data)}.get(word, word)
        for word in shlex.split(rerun)
    ]
    assert "--max-items" not in words
    code, err = _neghub(capsys, words)
    assert code == 0, err
    folder = words[words.index("-o") + 1]
    assert folder.startswith("submissions/")
    code, err = _neghub(capsys, ["neghub", "validate", folder])
    assert code == 0, err

    # given --model and --data-dir, validate fills them in: no placeholder left
    code, err = _neghub(capsys, ["neghub", "validate", "try-it", "--model", str(tiny_model), "--data-dir", str(data)])
    (filled,) = [line.removeprefix("rerun: ") for line in err.splitlines() if line.startswith("rerun: ")]
    assert "<" not in filled and filled == shlex.join(words)
    code, out = _neghub_json(capsys, ["neghub", "validate", "try-it", "--json"])
    assert code == 2 and out["submissions"][0]["rerun"] == rerun


def _neghub_json(capsys: pytest.CaptureFixture[str], words: list[str]) -> tuple[int, Any]:
    capsys.readouterr()
    code = main(words[1:])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.models
def test_a_whole_run_into_a_trial_s_folder_is_refused_before_the_model_loads(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run keeps the prediction files already written (that is how it resumes): into a trial's folder, the whole
    run would keep the samples under a metadata.yaml that no longer says they are partial."""
    out = tmp_path / "try-it"
    base = ["run", str(tiny_model), "--tasks", "nubench", "--no-progress", "-o", str(out), *SIGNED]
    assert main([*base, "--max-items", "3"]) == 0
    capsys.readouterr()
    assert main(base) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {out}: holds a trial's partial runs (--max-items), which a whole run would keep: write the whole "
        "run to another -o folder (submissions/<id>), or delete this one"
    ]


@pytest.mark.models
@pytest.mark.skipif(not (SHARED_DATASETS / "jnli-neg").is_dir(), reason="../shared/datasets/jnli-neg is absent")
def test_jnli_neg_s_trial_of_20_items_is_15_whole_pairs_as_the_submit_page_says(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "try-it"
    argv = ["run", str(tiny_model), "--tasks", "jnli-neg", "--max-items", "20", "--prompt", "llm-jp-eval-loglikelihood"]
    assert main([*argv, "--data-dir", str(SHARED_DATASETS), "--no-progress", "-o", str(out), *SIGNED]) == 0
    (line,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("trial, ")]
    assert line.startswith("trial, 15 items: not comparable: predictions/jnli-neg/")
    assert line.endswith("100.00% of 15 answers parsed")  # log-likelihoods always parse


def test_a_cloze_run_s_trial_score_reads_items_that_have_no_right_answer() -> None:
    """The Submit page's trial (`--tasks jnli-neg,nubench,scn --max-items 20 --max-pairs 20`) on SmolLM2 ended in a
    traceback: a cloze test's items have no right answer (ItemOutcomes.correct is None), and the trial's summary
    read them as if they had. Here the committed SmolLM2 SCN run, scored whole: its headline, the pronoun variant's
    negation contrast, is worked out below from the file alone (a pattern's drop is 100 minus the share of its
    triplets whose top-1 repeats the verb; the contrast is min(CpTn, CnTp) - max(CnTn, CpTv))."""
    from neghub.evaluator.core.benchmark import EvalOptions
    from neghub.evaluator.core.registry import get_benchmark
    from neghub.evaluator.runners.trial import _summarised
    from tests.conftest import ROOT

    path = ROOT / "submissions/smollm2-135m-instruct/predictions/scn/scn-all-causal-0shot-seed0.jsonl"
    lines = _lines(path)
    triplets = {(r["variant"], r["name"], r["profession"], r["verb"]) for r in lines}
    pronoun = [r for r in lines if r["variant"] == "pronoun"]

    def drop(pattern: str) -> float:
        of = [r for r in pronoun if r["pattern"] == pattern]
        return 100.0 - 100.0 * sum(r["top1"] == r["verb"] for r in of) / len(of)

    contrast = min(drop("CpTn"), drop("CnTp")) - max(drop("CnTn"), drop("CpTv"))
    result = get_benchmark("scn").evaluate(path, EvalOptions(split=None, mode=None))
    score = _summarised(result, None)
    assert (len(lines), len(triplets)) == (1600, 320)
    assert score.units == 320 and score.value is not None
    assert 100 * score.value == pytest.approx(contrast, abs=1e-9)
    assert score.unit == "triplet"  # the unit's name, not its definition


def test_a_trial_line_prints_the_headline_in_its_own_unit() -> None:
    """A cloze test's contrast is in points (the leaderboard prints 28.75 points), not a percentage."""
    from neghub.evaluator.runners.trial import PartialScore, trial_line

    scn = PartialScore(label="negation contrast", value=0.2875, units=320, unit="triplet", parsed=1.0, items=320)
    assert trial_line("trial, 400 items: not comparable", "scn", "p.jsonl", scn) == (
        "trial, 400 items: not comparable: p.jsonl: negation contrast 28.75 points over 320 units (triplet); "
        "100.00% of 320 answers parsed"
    )
    nub = PartialScore(label="accuracy", value=0.4, units=20, unit="item", parsed=1.0, items=20)
    assert trial_line("m", "nubench", "q.jsonl", nub).startswith("m: q.jsonl: accuracy 40.00% over 20 units (item)")
