"""A fifth benchmark from a plugin: installed, it appears everywhere, with no edit to NegHub.

tests/fixtures/plugin/ is a third party's package: a toy Korean multiple-choice benchmark
(`korean-negation-mc`, ten items shipped in the package, pinned by sha256, with its LICENSE) composed from
NegHub's multiple-choice family, declared in the entry-point group `neghub.benchmarks` of its
pyproject.toml. The module's fixture installs it with pip into a temporary folder (never into the test
environment) and every check runs NegHub's installed command line or modules in a subprocess with
PYTHONPATH naming that folder, where importlib.metadata finds the plugin's dist-info: `neghub tasks`,
`baseline` and `evaluate`, `validate`, the generated schemas and card, and the built site.

Other plugins may be installed beside it: every expectation is the test environment's own (its registry, its
generated files, run without the plugin) plus what the plugin adds, and a warning about another plugin is no
complaint.

The acc_norm and option-order tests import the plugin's module from its source folder in-process: they need the
scorer, not the registry.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from neghub.evaluator.core.benchmark import EvalOptions
from neghub.evaluator.core.registry import DuplicateBenchmark, benchmark_names, get_benchmark, register
from neghub.evaluator.releases.cards import CardFrontMatter, split_front_matter
from tests.conftest import FIXTURES, ROOT
from tests.plugins import Installed, complaints, pip_install, write_distribution
from tests.test_lm_eval_files import FunctionLoader, exported_utils

PLUGIN_SOURCE = FIXTURES / "plugin"
NAME = "korean-negation-mc"
HEADLINE_LABEL = "정답률 (accuracy)"
TEST_SHA256 = "6e10662a379732392e24b2cc7134f0e6dff246b1d49b7dabc2fdd27e997586f5"  # sha256sum of release/test.jsonl
# the answer of items 0..9 of release/test.jsonl, read off the file by eye
ANSWERS = ("b", "a", "c", "b", "a", "c", "b", "a", "c", "b")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("plugin")
    source = work / "source"  # pip may write build/ and *.egg-info/ beside the sources: a copy, not the fixture
    shutil.copytree(PLUGIN_SOURCE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    pip_install(source, work / "site")
    return Installed((work / "site",))


def write_submission(root: Path, predictions: Path, *, sid: str = "korean-plugin-run") -> Path:
    """A submission folder with one completion-mode run of the plugin's benchmark."""
    folder = root / sid
    rel = f"predictions/{NAME}/run.jsonl"
    (folder / rel).parent.mkdir(parents=True)
    shutil.copyfile(predictions, folder / rel)
    metadata = {
        "model": {
            "kind": "local",
            "name": "Random choice (plugin test)",
            "file": "random-choice",
            "sha256": "c" * 64,
            "parameters": 1,
            "open_weights": True,
            "license": "Apache-2.0",
        },
        "submitter": {"name": "Tester", "contact": "https://example.org/tester", "github": "tester"},
        "date": "2025-05-01",
        "description": "A random baseline of the plugin benchmark.",
        "runs": [{"task": NAME, "split": "test", "file": rel, "shots": 0, "seed": 0, "mode": "completion"}],
    }
    (folder / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def random_baseline(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("baseline") / "random.jsonl"
    done = installed.neghub("baseline", NAME, "--mode", "completion", "--kind", "random", "-o", path)
    assert done.returncode == 0, done.stderr
    assert complaints(done.stderr) == [f"wrote 10 predictions to {path}"]
    return path


# --- the command line -------------------------------------------------------------------------------


def test_tasks_lists_the_plugin_beside_the_builtins(installed: Installed) -> None:
    done = installed.neghub("tasks")
    assert done.returncode == 0, done.stderr
    names = [line.split("\t")[0] for line in done.stdout.splitlines()]
    # the test environment's benchmarks (the four built-ins, and any plugin installed there) and the plugin
    assert names == sorted({*benchmark_names(), NAME})
    # the worked plugin imports the public plugin API only: nothing of it is deprecated
    assert f"the plugin benchmark {NAME!r}" not in done.stderr
    assert (
        f"{NAME}\tKorean Negation MC\tversion 1\t"
        "한국어 부정문 선택: pick the standard negation of a Korean sentence among three options."
    ) in done.stdout.splitlines()


def test_the_test_environment_itself_does_not_see_the_plugin() -> None:
    # installed into a temporary folder only: the in-process registry does not know it
    assert NAME not in benchmark_names()


def test_random_baseline_is_scored_against_the_pinned_korean_release(
    installed: Installed, random_baseline: Path
) -> None:
    rows = [json.loads(line) for line in random_baseline.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == list(range(10))
    assert all(sorted(row["loglikelihoods"]) == ["a", "b", "c"] for row in rows)
    done = installed.neghub("evaluate", NAME, random_baseline, "--mode", "completion", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    provenance = result["provenance"]
    assert (provenance["task"], provenance["split"], provenance["mode"]) == (NAME, "test", "completion")
    assert provenance["verified"] is True
    assert provenance["dataset"]["source"] == "bundled"
    assert (provenance["dataset"]["file"], provenance["dataset"]["sha256"]) == ("test.jsonl", TEST_SHA256)
    assert result["headline"]["label"] == HEADLINE_LABEL
    assert result["metrics"]["n_items"] == 10
    assert result["metrics"]["n_items_by_type"] == {"short_form": 5, "long_form": 5}
    # the random baseline picks one option per item; its accuracy is the share of those that are the answer
    picked = [max(row["loglikelihoods"], key=row["loglikelihoods"].get) for row in rows]
    hits = sum(p == a for p, a in zip(picked, ANSWERS, strict=True))
    assert result["headline"]["value"] == pytest.approx(hits / 10)


def test_constant_baseline_scores_the_share_of_its_option_among_the_answers(
    installed: Installed, tmp_path: Path
) -> None:
    path = tmp_path / "b.jsonl"
    assert installed.neghub("baseline", NAME, "--mode", "option", "--kind", "constant:b", "-o", path).returncode == 0
    done = installed.neghub("evaluate", NAME, path, "--mode", "option", "--json")
    assert done.returncode == 0, done.stderr
    metrics = json.loads(done.stdout)["metrics"]
    # b is the answer of items 0, 3, 6 and 9: 4 of 10; short forms 0, 6 of 0, 2, 4, 6, 8; long 3, 9 of 1, 3, 5, 7, 9
    assert metrics["acc"] == pytest.approx(0.4)
    assert metrics["acc_by_type"] == {"short_form": pytest.approx(0.4), "long_form": pytest.approx(0.4)}
    assert metrics["format_wrong"] == 0


def test_unknown_name_suggests_the_plugin(installed: Installed, tmp_path: Path) -> None:
    done = installed.neghub("evaluate", "korean-negation", tmp_path / "p.jsonl", "--mode", "completion")
    assert done.returncode == 2
    expected = "error: task: unknown task 'korean-negation'; did you mean 'korean-negation-mc'?"
    assert complaints(done.stderr) == [expected]


def test_validate_accepts_a_submission_with_one_plugin_run(
    installed: Installed, random_baseline: Path, tmp_path: Path
) -> None:
    folder = write_submission(tmp_path, random_baseline)
    done = installed.neghub("validate", folder)
    assert done.returncode == 0, done.stderr
    assert complaints(done.stderr) == []


def test_validate_refuses_a_plugin_line_by_its_own_line_model(
    installed: Installed, random_baseline: Path, tmp_path: Path
) -> None:
    folder = write_submission(tmp_path, random_baseline, sid="bad")
    run = folder / "predictions" / NAME / "run.jsonl"
    lines = run.read_text(encoding="utf-8").splitlines()
    lines[2] = json.dumps({"id": 2, "loglikelihoods": {"a": -1.0, "b": 0.5, "c": -2.0}})
    run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = installed.neghub("validate", folder)
    assert done.returncode == 2
    assert complaints(done.stderr) == [
        f"error: bad/predictions/{NAME}/run.jsonl:3: loglikelihoods.b: "
        "log-likelihood 0.5 is positive (expected a number <= 0)"
    ]


def test_a_name_two_plugins_declare_is_left_out_with_one_warning(installed: Installed, tmp_path: Path) -> None:
    # a second distribution declares a benchmark under the same name: which one a run meant cannot be told, so
    # neither serves; every other benchmark still does
    write_distribution(
        tmp_path / "site",
        "korean-negation-copy",
        "1.0",
        {NAME: "korean_negation_copy:BENCHMARK"},
        "from korean_negation_mc import BENCHMARK as BENCHMARK\n",
    )
    both = Installed((*installed.sites, tmp_path / "site"))
    why = (
        f"the plugin benchmark {NAME!r} is left out: 2 plugins declare it: korean_negation_copy:BENCHMARK of "
        "korean-negation-copy 1.0, korean_negation_mc:BENCHMARK of korean-negation-mc 1.0"
    )
    done = both.neghub("tasks")
    assert done.returncode == 0, done.stderr
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == benchmark_names()
    assert done.stderr.splitlines().count(f"warning: {why}") == 1
    done = both.neghub("evaluate", NAME, tmp_path / "p.jsonl", "--mode", "completion")
    assert done.returncode == 2
    assert complaints(done.stderr) == [f"error: task: {why}"]


def test_duplicate_name_raises_in_process() -> None:
    nubench = get_benchmark("nubench")
    expected = "benchmark 'nubench' is registered twice: by neghub.evaluator.benchmarks.nubench and by elsewhere"
    with pytest.raises(DuplicateBenchmark, match=re.escape(expected)):
        register(nubench, "elsewhere")
    assert get_benchmark("nubench") is nubench


# --- the generated files ----------------------------------------------------------------------------


def test_schemas_publish_the_plugin_lines(installed: Installed, random_baseline: Path, tmp_path: Path) -> None:
    done = installed.module("neghub.evaluator.submissions.schemas", tmp_path)
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    # the test environment's schemas (a line model each, the submission, the result) and the plugin's two
    without = tmp_path.parent / "without-plugin"
    assert Installed(()).module("neghub.evaluator.submissions.schemas", without).returncode == 0
    plugin = [f"prediction-{NAME}-completion.schema.json", f"prediction-{NAME}-option.schema.json"]
    assert names == sorted([*(p.name for p in without.iterdir()), *plugin])
    completion = json.loads((tmp_path / f"prediction-{NAME}-completion.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(completion)
    for line in random_baseline.read_text(encoding="utf-8").splitlines():
        assert validator.is_valid(json.loads(line))
    assert not validator.is_valid({"id": 0, "loglikelihoods": {"a": -1.0, "b": -1.0}})
    # the submission schema names the plugin among the tasks a run may name
    assert NAME in (tmp_path / "submission.schema.json").read_text(encoding="utf-8")


def test_card_is_generated_from_the_plugin_metadata(installed: Installed, tmp_path: Path) -> None:
    done = installed.module("neghub.evaluator.releases.cards", "--write", "--out", tmp_path, NAME)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / f"{NAME}.md").read_text(encoding="utf-8")
    matter = CardFrontMatter.model_validate(split_front_matter(text)[0])
    assert (matter.language, matter.license, matter.size_categories) == (["ko"], "cc-by-4.0", ["n<1K"])
    assert "# Korean Negation MC\n" in text
    assert "| `test.jsonl` | 10 |" in text  # the statistics, counted from the pinned file
    assert f"| `test.jsonl` | test | `{TEST_SHA256}` |" in text
    assert "License: `cc-by-4.0`." in text


# --- the built site ---------------------------------------------------------------------------------


def test_site_has_the_plugin_benchmark_page_with_its_own_headline(
    installed: Installed, random_baseline: Path, tmp_path: Path
) -> None:
    pytest.importorskip("mkdocs", reason="the site extra is not installed (pip install -e '.[site]')")
    submissions = tmp_path / "submissions"
    write_submission(submissions, random_baseline)
    out = tmp_path / "public"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env=installed.env(NEGHUB_SUBMISSIONS_DIR=str(submissions), NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    page = out / "benchmarks" / f"{NAME}.html"
    assert page.is_file()
    html = page.read_text(encoding="utf-8")
    assert HEADLINE_LABEL in html
    assert "Random choice (plugin test)" in html  # the verified row of the submission
    assert (out / "datasets" / f"{NAME}.html").is_file()


# --- acc_norm on Korean options: lengths in characters, not UTF-8 bytes ----------------------------------


@pytest.fixture
def plugin_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(PLUGIN_SOURCE))
    return importlib.import_module("korean_negation_mc")


def test_the_plugin_exported_to_lm_eval_is_scored_by_lm_eval(installed: Installed, tmp_path: Path) -> None:
    # the family declares its lm-eval scoring, so a plugin built on it needs none of its own: lm-eval scores its
    # completions (acc, acc_norm against each document's gold) and its letters (its module's process_option_letter)
    out = tmp_path / "tasks"
    exported = installed.neghub("export", "lm-eval", out, "--tasks", NAME)
    assert exported.returncode == 0, exported.stderr
    assert "prints no score" not in exported.stderr
    names = sorted(p.stem for p in out.glob("*.yaml"))
    stem = "neghub_korean_negation_mc_test"
    assert names == [f"{stem}_completion_default_0shot", f"{stem}_option_default_0shot"]
    completion, option = (yaml.load((out / f"{n}.yaml").read_text(), Loader=FunctionLoader) for n in names)
    assert [m["metric"] for m in completion["metric_list"]] == ["acc", "acc_norm"]
    assert [m["metric"] for m in option["metric_list"]] == ["acc"]
    assert option["process_results"] == ("function", f"{names[1]}.process_option_letter")

    records = {
        r["id"]: r
        for r in map(
            json.loads,
            (PLUGIN_SOURCE / NAME.replace("-", "_") / "release" / "test.jsonl")
            .read_text(encoding="utf-8")
            .splitlines(),
        )
    }
    docs = [json.loads(line) for line in (out / f"{names[0]}.jsonl").read_text(encoding="utf-8").splitlines()]
    # every option is offered in the order a, b, c: the right one's index is its key's
    assert {d["neghub_id"]: d["gold"] for d in docs} == {i: "abc".index(answer) for i, answer in enumerate(ANSWERS)}
    utils = exported_utils(out, names[1])
    docs = [json.loads(line) for line in (out / f"{names[1]}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(d["neghub_id"] for d in docs) == sorted(records)
    for doc in docs:
        record = records[doc["neghub_id"]]
        shown = [line[3:] for line in doc["query"].splitlines() if line[:3] in ("A. ", "B. ", "C. ")]
        assert shown[doc["gold"]] == record[record["answer"]]  # the gold letter names the right option
        assert utils.process_option_letter(doc, ["ABC"[doc["gold"]]]) == {"acc": 1.0}
        assert utils.process_option_letter(doc, ["ABC"[(doc["gold"] + 1) % 3]]) == {"acc": 0.0}


def test_acc_norm_divides_by_characters_of_korean_options(plugin_module: Any, tmp_path: Path) -> None:
    """Two items decide it; on the other eight the answer's log-likelihood is -1 and the others' -50 (right
    under every normalisation). Lengths counted by hand (Hangul syllables are 3 UTF-8 bytes, ASCII 1):

    item 3 (answer b): a "민수는 신문을 읽는다." 12 characters (30 bytes), b "민수는 책을 읽지 않는다." 14 (34).
      log-likelihoods a -13.2, b -14, c -100: plain arg-max a (wrong); per character a -1.1 < b -1.0, so b
      (right); per byte b -0.412 > a -0.44, b too.
    item 5 (answer c): a "회의는 2024-05-02에 열렸다." 20 characters (7 syllables: 21 bytes, 13 ASCII: 34),
      c "회의는 2024년 5월 1일에 열리지 않았다." 25 characters (13 syllables: 39 bytes, 12 ASCII: 51).
      log-likelihoods a -18, b -100, c -25: plain a (wrong); per character a -0.9 > c -1.0, a (wrong);
      per byte c -0.490 > a -0.529, c (right).
    So acc = 8/10, acc_norm by characters = 9/10 (by bytes it would be 10/10).
    """
    rows = []
    for item, answer in enumerate(ANSWERS):
        scores = {key: (-1.0 if key == answer else -50.0) for key in "abc"}
        if item == 3:
            scores = {"a": -13.2, "b": -14.0, "c": -100.0}
        if item == 5:
            scores = {"a": -18.0, "b": -100.0, "c": -25.0}
        rows.append(json.dumps({"id": item, "loglikelihoods": scores}))
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    metrics = plugin_module.BENCHMARK.evaluate(path, EvalOptions(mode="completion")).metrics
    assert metrics["acc"] == pytest.approx(0.8)
    assert metrics["acc_norm"] == pytest.approx(0.9)
    # the diagnostics follow the plain arg-max: items 3 and 5 are long forms
    assert metrics["acc_by_type"] == {"short_form": pytest.approx(1.0), "long_form": pytest.approx(0.6)}


def test_option_mode_orders_each_item_by_itself_as_its_upstream_does(plugin_module: Any) -> None:
    """The plugin's upstream shows each item's options in the order random.Random(f"{seed}:{id}") shuffles them
    to (written here as upstream writes it: the item's (text, key) pairs shuffled); the family's hook gives the
    same letters for every item, whatever items come before it in the file."""
    from neghub.evaluator.families import multiple_choice as family

    spec = plugin_module.SPEC
    records = family.load(spec, "test").records

    def upstream(record: Any, seed: int = 42) -> tuple[str, ...]:
        pairs = [(record.a, "a"), (record.b, "b"), (record.c, "c")]
        random.Random(f"{seed}:{record.id}").shuffle(pairs)
        return tuple(key for _, key in pairs)

    assert family.option_orders(spec, records) == [upstream(r) for r in records]
    assert family.option_orders(spec, records[::-1]) == [upstream(r) for r in records[::-1]]
    assert family.option_orders(spec, records[3:5]) == [upstream(r) for r in records[3:5]]


def out_of_date(stderr: str) -> set[str]:
    """The files a failed `schemas --check` names."""
    prefix = "schemas out of date (run `nox -s schemas`): "
    return {name for line in stderr.splitlines() if line.startswith(prefix) for name in line[len(prefix) :].split(", ")}


def test_drift_checks_cover_the_plugin_with_no_edit(installed: Installed) -> None:
    # `nox -s schemas` and `nox -s cards` check every registered benchmark: the plugin's files are missing
    # from the committed ones, so both checks fail and name them (beside what the test environment alone names)
    check = ("neghub.evaluator.submissions.schemas", "--check", ROOT / "schemas")
    done, without = installed.module(*check), Installed(()).module(*check)
    assert done.returncode == 1
    # the submission schema too: it lists the tasks a run may name, the plugin's among them
    assert out_of_date(done.stderr) == out_of_date(without.stderr) | {
        "submission.schema.json",
        f"prediction-{NAME}-completion.schema.json",
        f"prediction-{NAME}-option.schema.json",
    }
    check = ("neghub.evaluator.releases.cards", "--check", "--out", ROOT / "datasets_cards")
    done, without = installed.module(*check), Installed(()).module(*check)
    if done.returncode == 2 and "need the pinned" in done.stderr:
        pytest.skip(f"a built-in release is not here for its card's statistics: {done.stderr.strip()}")
    assert done.returncode == 1
    assert set(complaints(done.stderr)) - set(complaints(without.stderr)) == {
        f"error: {ROOT / 'datasets_cards' / NAME}.md: differs from its metadata: run `nox -s cards`"
    }
