"""Every command and snippet a committed card shows under "Loading" runs as written, in the card's order.

The shell lines run through `neghub`'s own entry point in a folder of their own, with a newcomer's
environment: no mirror ($NEGHUB_DATA_DIR unset), an empty cache, the network out of reach but for a server
on 127.0.0.1 standing in for JNLI-Neg's upstream host. `DIR` (a folder holding a copy of the release) is the
one word replaced: by the JSTS-Neg fixture, as NegHub has no copy of that release. The Python snippet then
runs with `datasets`, offline, and must load every configuration the card's front matter declares, each split
with the records its statistics table states.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import datasets
import huggingface_hub.constants
import pytest

from neghub.evaluator.releases import cards

from .conftest import FIXTURES, ROOT
from .test_release_loading import card_statistics
from .upstream_server import UpstreamServer, build_site

CARDS = ROOT / "datasets_cards"
BLOCK = re.compile(r"^(`{3,})(\w*)\n(.*?)\n\1$", re.M | re.S)
# where the card's DIR points, per task: only JSTS-Neg's card asks for a copy of its release
DIRS = {"jsts-neg": FIXTURES / "mirror"}


def loading_section(card: str) -> str:
    return card.split("\n## Loading\n", 1)[1].split("\n## ", 1)[0]


def loading_blocks(card: str) -> list[tuple[str, str]]:
    """(language, code) of every fenced block in the card's "Loading" section, in order."""
    return [(m.group(2), m.group(3)) for m in BLOCK.finditer(loading_section(card))]


def loading_inline_commands(card: str) -> list[str]:
    """The `neghub ...` commands the "Loading" section's prose shows in code spans, in order."""
    prose = BLOCK.sub("", loading_section(card))
    return re.findall(r"`(neghub [^`]+)`", prose)


@pytest.fixture
def upstream(shared_datasets: Path, tmp_path: Path) -> Iterator[UpstreamServer]:
    site = tmp_path / "www"
    build_site(shared_datasets, site)
    server = UpstreamServer(site)
    yield server
    server.stop()


@pytest.fixture
def newcomer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working folder and cache, no mirror, nothing online (the `datasets` cache is the test's)."""
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "neghub-cache"))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "datasets-cache")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def run_shell(code: str, task: str, neghub: Any, dirs: dict[str, Path] = DIRS) -> list[str]:
    """Each line of a shell block (comments skipped), run as `neghub ...`; returns the commands run."""
    ran = []
    for line in code.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        argv = shlex.split(line.replace("DIR", str(dirs[task])) if "DIR" in line else line)
        assert argv[0] == "neghub", line
        result = neghub(*argv[1:])
        assert result.code == 0, f"{line}\n{result.err}"
        ran.append(line)
    return ran


def run_card(task: str, neghub: Any, dirs: dict[str, Path] = DIRS) -> tuple[str, list[str], dict[str, Any]]:
    """The card's "Loading" blocks in order, then the commands its prose shows (DIR: `dirs[task]`)."""
    card = (CARDS / f"{task}.md").read_text(encoding="utf-8")
    ran: list[str] = []
    namespace: dict[str, Any] = {}
    for language, code in loading_blocks(card):
        if language == "sh":
            ran += run_shell(code, task, neghub, dirs)
        else:
            assert language == "python"
            exec(compile(code, f"{task}.md", "exec"), namespace)
    ran += run_shell("\n".join(loading_inline_commands(card)), task, neghub, dirs)
    return card, ran, namespace


def assert_every_config_loaded(card: str, namespace: dict[str, Any]) -> None:
    matter, body = cards.split_front_matter(card)
    records = card_statistics(body)
    loaded = [value for value in namespace.values() if isinstance(value, datasets.DatasetDict)]
    configs = matter["configs"]
    assert len(loaded) == len(configs)
    expected = sorted(
        sorted((entry["split"], records[entry["path"]]) for entry in config["data_files"]) for config in configs
    )
    assert sorted(sorted((split, d.num_rows) for split, d in dataset.items()) for dataset in loaded) == expected


@pytest.mark.parametrize("task", ["nubench", "scn"])
def test_the_cards_of_the_releases_in_the_package_run_as_written(task: str, newcomer: Path, neghub: Any) -> None:
    card, ran, namespace = run_card(task, neghub)
    assert ran[0] == f"neghub datasets convert {task} -o {task}"
    assert sum(line.startswith(f"neghub evaluate {task} PREDICTIONS.jsonl") for line in ran) == (
        2 if task == "nubench" else 1  # NUBench scores two modes, each its own command
    )
    assert_every_config_loaded(card, namespace)


def test_the_nubench_card_loads_its_sentence_negation_config_and_scores_both_modes(newcomer: Path, neghub: Any) -> None:
    _, ran, namespace = run_card("nubench", neghub)
    assert {name for name, value in namespace.items() if isinstance(value, datasets.DatasetDict)} == {
        "multiple_choice",
        "sentence_negation",
    }
    assert namespace["sentence_negation"]["train"].num_rows == 20  # release/NOTES.md: 20 sentence/negation pairs
    assert "neghub evaluate nubench PREDICTIONS.jsonl --mode completion" in ran
    assert "neghub evaluate nubench PREDICTIONS.jsonl --mode option" in ran


def test_the_scn_card_loads_its_four_word_lists(newcomer: Path, neghub: Any) -> None:
    _, _, namespace = run_card("scn", neghub)
    # word_lists/README.md: 163 female and 153 male names, 140 professions, 432 verbs
    assert {
        name: value["word_lists"].num_rows
        for name, value in namespace.items()
        if isinstance(value, datasets.DatasetDict)
    } == {"female_names": 163, "male_names": 153, "professions": 140, "verbs": 432}


def test_the_jnli_neg_card_runs_as_written_from_its_pinned_upstream(
    newcomer: Path, upstream: UpstreamServer, neghub: Any, monkeypatch: pytest.MonkeyPatch, shared_datasets: Path
) -> None:
    monkeypatch.setenv("NEGHUB_UPSTREAM_ENDPOINT", upstream.url)
    card, ran, namespace = run_card("jnli-neg", neghub, {"jnli-neg": shared_datasets})
    assert ran[0] == "neghub datasets convert jnli-neg -o jnli-neg"
    assert "neghub datasets fetch jnli-neg" in ran
    # the prose's local copy, read with the option each command it names takes
    assert ran[-2:] == [
        "neghub evaluate jnli-neg PREDICTIONS.jsonl --data-dir DIR",
        "neghub datasets convert jnli-neg --data-dir DIR -o jnli-neg",
    ]
    assert_every_config_loaded(card, namespace)
    # SOURCE.md: 5,494 train and 1,363 valid instances
    assert {split: d.num_rows for split, d in namespace["ds"].items()} == {"train": 5494, "valid": 1363}


def test_the_jsts_neg_card_says_no_release_is_published_and_its_commands_run_on_a_copy(
    newcomer: Path, neghub: Any
) -> None:
    card, ran, _ = run_card("jsts-neg", neghub)
    assert "No release of JSTS-Neg is published, on the Hub or elsewhere" in card
    assert not any(language == "python" for language, _ in loading_blocks(card))  # no snippet to mistake for runnable
    assert ran == [
        "neghub baseline jsts-neg --kind majority --data-dir DIR --unverified -o PREDICTIONS.jsonl",
        "neghub evaluate jsts-neg PREDICTIONS.jsonl --data-dir DIR --unverified",
    ]


def test_every_task_s_card_is_run_by_a_test_here() -> None:
    assert set(cards.available_tasks()) == {"jnli-neg", "jsts-neg", "nubench", "scn"}


def test_verify_reads_the_package_s_copy_when_the_data_dir_variable_names_a_mirror_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, neghub: Any
) -> None:
    # $NEGHUB_DATA_DIR is a default for every task (../shared/datasets holds JNLI-Neg only): the card's
    # `neghub datasets verify nubench` must not fail for want of a nubench folder there, as the loader does not
    (tmp_path / "jnli-neg").mkdir()
    monkeypatch.setenv("NEGHUB_DATA_DIR", str(tmp_path))
    result = neghub("datasets", "verify", "nubench")
    assert result.code == 0, result.err
    assert result.out.count("OK        ") == 3  # the sample's three files
    # an explicit --data-dir still means that folder, and says what is missing
    result = neghub("datasets", "verify", "nubench", "--data-dir", tmp_path)
    assert result.code == 2
    assert f"no nubench folder in the data directory {tmp_path}" in result.err


@pytest.mark.parametrize("task", ["jnli-neg", "jsts-neg", "nubench", "scn"])
def test_a_card_names_a_hub_repository_only_where_it_loads_from_one(task: str) -> None:
    """A card that says the release is not on the Hub does not name a Hub repository for it either (no committed
    card loads from the Hub yet); the card written for the Hub itself names the repository it is in."""
    card = (CARDS / f"{task}.md").read_text(encoding="utf-8")
    metadata = cards.metadata_of(task)
    assert metadata.revision is None  # the committed cards: no release is on the Hub yet
    assert "Hub repository:" not in card
    assert f"`{metadata.hub_repo_id}`" not in card.split("\n## Loading\n", 1)[0]
    if metadata.files and cards.has_statistics(metadata):
        statistics = cards.statistics_for(metadata, None) if task in ("nubench", "scn") else None
        for_hub = cards.render_card(metadata, statistics, for_hub=True)
        assert f"- Hub repository: `{metadata.hub_repo_id}`" in for_hub
