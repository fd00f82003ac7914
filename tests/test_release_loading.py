"""Every pinned release loads with Hugging Face `datasets` as its card says, offline.

The folder is built the way `neghub datasets convert` builds the Hub release (data files, the card as
README.md, LICENSE), and `datasets.load_dataset(folder, config)` reads it: so the card's own front matter
(`configs:`) drives the loading, as it will on the Hub. Each config must come back with the card's splits
and, per split, the rows the card's statistics table states, which are also counted here by hand.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import datasets
import huggingface_hub.constants
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neghub.evaluator.benchmarks import scn
from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.releases import cards

from .test_datasets_cli import release_source

# Rows per release file, counted by hand: ../shared/datasets/jnli-neg/SOURCE.md (train 5,494 and valid
# 1,363 instances), NUBench's release/NOTES.md (46 test items, 10 demonstrations, 20 sentence/negation
# pairs), SCN's word_lists/README.md (163 female and 153 male names, 140 professions, 432 verbs).
HAND_COUNTS = {
    "jnli-neg": {"jnli-neg-train-v1.1.jsonl": 5494, "jnli-neg-valid-v1.1.jsonl": 1363},
    "nubench": {
        "multiple-choice/test.jsonl": 46,
        "multiple-choice/demonstration.jsonl": 10,
        "sentence-negation/train.jsonl": 20,
    },
    "scn": {"female_names.txt": 163, "male_names.txt": 153, "professions.tsv": 140, "verbs.txt": 432},
}
JNLI_COLUMNS = [
    "id",
    "jnli_sentence_pair_id",
    "pair_id_in_group",
    "type",
    "sentence1",
    "sentence2",
    "gold_label",
    "annotator_labels",
]
NUBENCH_COLUMNS = [
    "index",
    "wikipedia_index",
    "sentence",
    "choice1",
    "choice2",
    "choice2_type",
    "choice2_element",
    "choice3",
    "choice4",
]
# config -> split -> columns, from each release's documentation (SOURCE.md, NOTES.md, word_lists/README.md)
COLUMNS = {
    "jnli-neg": {"default": {"train": JNLI_COLUMNS, "valid": JNLI_COLUMNS}},
    "nubench": {
        "multiple-choice": {"test": NUBENCH_COLUMNS, "demonstration": NUBENCH_COLUMNS},
        "sentence-negation": {"train": ["index", "premise", "hypothesis"]},
    },
    "scn": {
        "professions": {"word_lists": ["article", "profession"]},  # the header of professions.tsv
        "female_names": {"word_lists": ["text"]},
        "male_names": {"word_lists": ["text"]},
        "verbs": {"word_lists": ["text"]},
    },
}
STATISTICS_ROW = re.compile(r"^\| `(?P<path>[^`]+)` \| (?P<records>[0-9,]+) \|$", re.M)


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network: the variables for any library that reads them now, the constants `datasets` read at import."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)


def converted(task: str, out: Path, neghub: Any) -> Path:
    """The Hub release folder of `task`, as `neghub datasets convert` writes it."""
    result = neghub("datasets", "convert", task, "--source", release_source(task), "-o", out)
    assert result.code == 0, result.err
    return out


def card_statistics(card_body: str) -> dict[str, int]:
    """The `| file | records |` table under "## Statistics"."""
    section = card_body.split("## Statistics\n", 1)[1].split("\n## ", 1)[0]
    return {m["path"]: int(m["records"].replace(",", "")) for m in STATISTICS_ROW.finditer(section)}


def load(folder: Path, config: str, cache: Path) -> datasets.DatasetDict:
    loaded = datasets.load_dataset(str(folder), config, cache_dir=str(cache))
    assert isinstance(loaded, datasets.DatasetDict)
    return loaded


@pytest.mark.parametrize("task", cards.available_tasks())
def test_each_release_loads_with_datasets_as_its_card_says(task: str, tmp_path: Path, neghub: Any) -> None:
    if not cards.has_statistics(get_benchmark(task).metadata):
        pytest.skip(
            f"{task} has no pinned release: its metadata pins no sha256 and NegHub has no copy of the data, "
            "so there is nothing to load (its card says the statistics are not available)"
        )
    folder = converted(task, tmp_path / task, neghub)
    matter, body = cards.split_front_matter((folder / "README.md").read_text(encoding="utf-8"))
    records = card_statistics(body)
    assert records == HAND_COUNTS[task]
    columns: dict[str, dict[str, list[str]]] = {}
    configs = matter.get("configs") or [{"config_name": "default", "data_files": None}]
    for config in configs:
        name = config["config_name"]
        dataset = load(folder, name, tmp_path / "cache")
        files = {entry["split"]: entry["path"] for entry in config["data_files"] or []}
        if config["data_files"] is not None:
            assert len(files) == len(config["data_files"]), "one file per split in NegHub's releases"
            assert list(dataset) == list(files)
        for split, path in files.items():
            assert dataset[split].num_rows == records[path], (name, split)
        columns[name] = {split: dataset[split].column_names for split in dataset}
    assert columns == COLUMNS[task]


def test_the_scn_word_lists_load_as_the_words_neghub_reads(tmp_path: Path, neghub: Any) -> None:
    folder = converted("scn", tmp_path / "scn", neghub)
    lists = scn.load_word_lists()
    cache = tmp_path / "cache"
    assert load(folder, "female_names", cache)["word_lists"]["text"] == list(lists.female_names)
    assert load(folder, "male_names", cache)["word_lists"]["text"] == list(lists.male_names)
    assert load(folder, "verbs", cache)["word_lists"]["text"] == list(lists.verbs)
    professions = load(folder, "professions", cache)["word_lists"]
    assert dict(zip(professions["profession"], professions["article"], strict=True)) == lists.articles
    assert professions[0] == {"article": "a", "profession": "teacher"}  # the first row of professions.tsv
    # the card's default configuration stays the first one of the metadata, though professions comes first
    default = datasets.load_dataset(str(folder), cache_dir=str(cache))
    assert isinstance(default, datasets.DatasetDict)
    assert default["word_lists"]["text"][:2] == ["Mary", "Patricia"]


@pytest.mark.parametrize(
    ("suffix", "content", "rows"),
    [
        (".jsonl", '{"a": 1}\n{"a": 2}\n\n', 2),  # JNLI-Neg's files end so: the empty last line is no row
        (".jsonl", '{"a": 1}\n\n{"a": 2}', 2),
        (".txt", "swim\nsing\n", 2),
        (".txt", "swim\nsing", 2),  # no final newline: still two lines
        (".txt", "# verbs\nswim\n", 2),  # a comment is a row: why the word lists hold data only
        (".txt", "swim\n\nsing\n\n", 4),  # the text builder keeps blank lines, the last one too
        (".tsv", "article\tprofession\na\tcook\n\nan\tactor\n\n", 2),  # the csv builder skips blank lines
        (".tsv", "article\tprofession\n# a note\na\tcook\n", 2),  # no comment character: a row
    ],
)
def test_count_records_counts_the_rows_datasets_loads(suffix: str, content: str, rows: int, tmp_path: Path) -> None:
    path = tmp_path / f"release{suffix}"
    path.write_text(content, encoding="utf-8")
    assert cards.count_records(path) == rows
    options = {"sep": "\t"} if suffix == ".tsv" else {}
    loaded = datasets.load_dataset(
        cards.LOCAL_BUILDERS[suffix], data_files={"x": str(path)}, cache_dir=str(tmp_path / "cache"), **options
    )
    assert isinstance(loaded, datasets.DatasetDict)
    assert loaded["x"].num_rows == rows


_file_numbers = itertools.count()


# the autouse `offline` fixture is function-scoped; what it sets holds for every example alike
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.text(alphabet="ab# \t\n", min_size=1, max_size=40))  # an empty file loads as no dataset
def test_any_text_file_counts_as_many_records_as_the_text_builder_loads(
    tmp_path_factory: pytest.TempPathFactory, content: str
) -> None:
    # a new folder each time: `datasets` caches by file path, and a rewritten file could be served stale
    folder = tmp_path_factory.mktemp(f"text{next(_file_numbers)}")
    path = folder / "list.txt"
    path.write_text(content, encoding="utf-8")
    loaded = datasets.load_dataset("text", data_files={"x": str(path)}, cache_dir=str(folder / "cache"))
    assert isinstance(loaded, datasets.DatasetDict)
    assert cards.count_records(path) == loaded["x"].num_rows
