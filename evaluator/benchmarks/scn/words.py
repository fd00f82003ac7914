"""NegHub's SCN word lists (female and male first names, professions with their article, verbs): read from the
files shipped in the package, each checked against its pin, every line checked."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ...core.errors import InputError, Problem
from ...fileio.files import read_bytes
from ...releases.loading import Release
from .metadata import METADATA

WORD_LIST_DIR = Path(__file__).parent / "word_lists"
Gender = Literal["female", "male"]


@dataclass(frozen=True)
class WordLists:
    """NegHub's SCN word lists, in file order."""

    female_names: tuple[str, ...]
    male_names: tuple[str, ...]
    articles: dict[str, str]  # profession -> "a" | "an", in file order
    verbs: tuple[str, ...]
    _gender: dict[str, Gender] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._gender.update({n: "female" for n in self.female_names})
        self._gender.update({n: "male" for n in self.male_names})

    @property
    def professions(self) -> tuple[str, ...]:
        return tuple(self.articles)

    def gender(self, name: str) -> Gender:
        if name not in self._gender:
            raise ValueError(f"{name!r} is in neither female_names.txt nor male_names.txt")
        return self._gender[name]

    def names(self, gender: Gender) -> tuple[str, ...]:
        return self.female_names if gender == "female" else self.male_names


def _data_lines(text: str) -> list[tuple[int, str]]:
    """(line number, content) of every line; the empty string after the final newline is not a line.

    The files hold data only: a `#` line or a blank line is a row to any other reader (the `datasets`
    text loader counts both), so the parsers see it, and refuse it, rather than skip it.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return list(enumerate(lines, start=1))


def parse_word_list(path: Path, text: str) -> tuple[tuple[str, ...], list[Problem]]:
    """One word of ASCII letters per line, no duplicates, nothing else (no comments, no blank lines)."""
    words: list[str] = []
    problems: list[Problem] = []
    first_line: dict[str, int] = {}
    for number, line in _data_lines(text):
        if line.startswith("#"):
            why = "the lists hold data only; notes go in word_lists/README.md"
            message = f"expected one word of ASCII letters, got {line!r} ({why})"
            problems.append(Problem(str(path), number, None, message))
        elif not (line.isascii() and line.isalpha()):
            problems.append(Problem(str(path), number, None, f"expected one word of ASCII letters, got {line!r}"))
        elif line in first_line:
            problems.append(Problem(str(path), number, None, f"duplicate {line!r} (first on line {first_line[line]})"))
        else:
            first_line[line] = number
            words.append(line)
    return tuple(words), problems


def parse_professions(path: Path, text: str) -> tuple[dict[str, str], list[Problem]]:
    """The header `article<TAB>profession` on line 1, then `article<TAB>profession` lines and nothing else."""
    articles: dict[str, str] = {}
    problems: list[Problem] = []
    rows = _data_lines(text)
    if not rows or rows[0][1] != "article\tprofession":
        got = f", got {rows[0][1]!r}" if rows else ", got an empty file"
        return {}, [Problem(str(path), 1, None, f"expected the header article<TAB>profession on line 1{got}")]
    for number, line in rows[1:]:
        parts = line.split("\t")
        if len(parts) != 2 or parts[0] not in ("a", "an") or not parts[1].strip():
            problems.append(Problem(str(path), number, None, f"expected a|an<TAB>profession, got {line!r}"))
        elif parts[1] in articles:
            problems.append(Problem(str(path), number, None, f"duplicate profession {parts[1]!r}"))
        else:
            articles[parts[1]] = parts[0]
    return articles, problems


def load_word_lists(*, unverified: bool = False) -> WordLists:
    """Read the shipped lists, each checked against its pinned sha256 (see METADATA)."""
    return _load_word_lists(unverified)


@functools.cache
def _load_word_lists(unverified: bool) -> WordLists:
    release = word_list_release(unverified)
    texts: dict[str, tuple[Path, str]] = {}
    for release_file in METADATA.files:
        resolved = release.file(release_file)
        texts[release_file.config] = (resolved.path, read_bytes(resolved.path).decode("utf-8"))
    female, female_problems = parse_word_list(*texts["female_names"])
    male, male_problems = parse_word_list(*texts["male_names"])
    articles, profession_problems = parse_professions(*texts["professions"])
    verbs, verb_problems = parse_word_list(*texts["verbs"])
    problems = female_problems + male_problems + profession_problems + verb_problems
    both = sorted(set(female) & set(male))
    if both:
        problems.append(Problem(str(texts["male_names"][0]), None, None, f"names in both lists: {', '.join(both)}"))
    if problems:
        raise InputError(problems)
    return WordLists(female_names=female, male_names=male, articles=articles, verbs=verbs)


def word_list_release(unverified: bool = False) -> Release:
    """The word lists as a release: what SCN results name as their dataset."""
    return Release(METADATA, WORD_LIST_DIR, "bundled", unverified)
