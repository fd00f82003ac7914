"""The Self-Contained Negation Test (Kletz, Amsili and Candito, BlackboxNLP 2023; SPEC §3).

A triplet (NAME, PROF, ACT) is instantiated in five patterns: a context "NAME is a PROF who
(doesn't) like(s) to ACT." followed by a target "PRON is (not / very) happy to [MASK].". A model
keeps a triplet only when its top-1 at the mask of CpTp is ACT itself; the metric is, per pattern,
the share of kept triplets whose top-1 is still ACT (%-ACT-repetition), and drop = 1 - repetition.

The "dataset" is not a release of records but NegHub's word lists and the generator below; the
triplets themselves are chosen per model by the runner. Scoring needs no data at all: it reads
the prediction file, checks it (`check_predictions`) and counts (`score`). The leaderboard also
requires the words to come from NegHub's lists (`check_vocabulary`).
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, StringConstraints

from ...core.benchmark import (
    BaselineRun,
    Benchmark,
    ChartSeries,
    ChartSpec,
    Display,
    EvalOptions,
    Headline,
    MetricDisplay,
)
from ...core.errors import FileProblems, InputError, Problem, TooManyProblems, stopped
from ...core.numbers import percent
from ...core.results import Result, assemble_result
from ...core.stats import BootstrapConfig, bootstrap_categories_ci, bootstrap_proportion_ci
from ...fileio.files import read_bytes
from ...fileio.jsonl import JsonlReader, flat_string_rows, json_type_name
from ...fileio.lines import STRICT_LINE
from ...releases.loading import Release
from . import protocol
from .metadata import METADATA as METADATA
from .metadata import PATTERNS as PATTERNS
from .metadata import VARIANTS as VARIANTS

NAME = "scn"
TASK_VERSION = "1"
WORD_LIST_DIR = Path(__file__).parent / "word_lists"

REFERENCE = "CpTp"
MAX_VERBS_PER_PAIR = 20  # the paper keeps at most 20 random verbs per (NAME, PROF) pair and variant
FIELDS = ("name", "profession", "verb", "variant", "pattern", "top1")
# Caps on a line's strings, published in schemas/prediction-scn.schema.json; they only bound abuse: the words
# are NegHub's (a few characters), top1 is one decoded token (long runs of punctuation are tokens too).
MAX_WORD_CHARS = 100
MAX_TOP1_CHARS = 1_000
# A realistic run (the paper's ~364k triplets x 5 patterns, plus the coreference variants) is a few
# million short lines, i.e. a few hundred MB; the cap only stops absurd inputs.
MAX_PREDICTION_FILE_BYTES = 1024 * 1024 * 1024

# The reading of "passes" (SPEC §3, the paper's section 3.5): the drops of the two patterns where
# repeating ACT is semantically forbidden (CpTn, CnTp) must both exceed the drops of both controls
# (CnTn, CpTv) by more than PASS_MARGIN, i.e. min(CpTn, CnTp) - max(CnTn, CpTv) > 0.10. The paper
# gives no number; 0.10 (10 percentage points) is the smallest round margin under which Table 6
# reads as the paper's text does: roberta-large passes (min 0.647 - max 0.435 = 0.212), while
# roberta-base (0.277 - 0.233 = 0.044, "only the 46.7 drop is significant"), bert-large
# (0.165 - 0.429 < 0) and bert-base (0.012 - 0.255 < 0) do not.
PASS_MARGIN = 0.10

Gender = Literal["female", "male"]
PRONOUN: dict[Gender, str] = {"female": "She", "male": "He"}


# --- word lists -------------------------------------------------------------------------------


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
    release = Release(METADATA, WORD_LIST_DIR, "bundled", unverified)
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


# --- the generator ----------------------------------------------------------------------------

CONTEXTS = {
    "Cp": "{name} is {article} {profession} who likes to {verb}.",
    "Cn": "{name} is {article} {profession} who doesn't like to {verb}.",
}
TARGETS = {
    "Tp": "{subject} is happy to",
    "Tn": "{subject} isn't happy to",
    "Tv": "{subject} is very happy to",
}


def render(
    *, name: str, article: str, profession: str, verb: str, subject: str, mask_token: str | None
) -> dict[str, str]:
    """The five inputs (pattern -> text) for one triplet and one target subject.

    With a mask token the target reads "She is happy to [MASK]."; with `mask_token=None` (causal
    models, this project's extension) it stops where the mask would be: "She is happy to", and the
    model's next token plays the top-1 at the mask.
    """
    out: dict[str, str] = {}
    for pattern in PATTERNS:
        context = CONTEXTS[pattern[:2]].format(name=name, article=article, profession=profession, verb=verb)
        target = TARGETS[pattern[2:]].format(subject=subject)
        out[pattern] = f"{context} {target}" if mask_token is None else f"{context} {target} {mask_token}."
    return out


def other_name(name: str, profession: str, variant: str, lists: WordLists, seed: int = 0) -> str:
    """The distinct name of the non-coreference variants, the same for every verb of a (NAME, PROF) pair.

    Chosen from the same-gender list without NAME (noncoref_same) or the other gender's list
    (noncoref_other) by a sha256 of (seed, variant, name, profession): deterministic across runs,
    machines and Python versions, unlike `hash()`.
    """
    gender = lists.gender(name)
    if variant == "noncoref_same":
        candidates = [n for n in lists.names(gender) if n != name]
    elif variant == "noncoref_other":
        candidates = list(lists.names("male" if gender == "female" else "female"))
    else:
        raise ValueError(f"variant {variant!r} has no other name (expected noncoref_same or noncoref_other)")
    digest = hashlib.sha256(f"{seed}\x1f{variant}\x1f{name}\x1f{profession}".encode()).digest()
    return candidates[int.from_bytes(digest[:8], "big") % len(candidates)]


def instantiate(
    name: str,
    profession: str,
    verb: str,
    variant: str,
    *,
    mask_token: str | None,
    lists: WordLists | None = None,
    seed: int = 0,
) -> dict[str, str]:
    """The five inputs of a triplet of NegHub's lists in one variant (SPEC §3 and the paper's section 4).

    pronoun: T's subject is She/He by NAME's gender; coref: NAME again; noncoref_same /
    noncoref_other: another name of the same / the other gender (see `other_name`).
    """
    lists = lists or load_word_lists()
    if profession not in lists.articles:
        raise ValueError(f"{profession!r} is not in professions.tsv")
    if variant == "pronoun":
        subject = PRONOUN[lists.gender(name)]
    elif variant == "coref":
        lists.gender(name)  # the name must still be one of the lists
        subject = name
    else:
        subject = other_name(name, profession, variant, lists, seed)
    return render(
        name=name,
        article=lists.articles[profession],
        profession=profession,
        verb=verb,
        subject=subject,
        mask_token=mask_token,
    )


# --- reading and checking predictions ---------------------------------------------------------


@dataclass
class Predictions:
    """A prediction file as columns: one row per line, triplets and (NAME, PROF) pairs interned per variant."""

    file: str
    line: NDArray[np.int64]
    variant: NDArray[np.int8]  # index into VARIANTS
    pattern: NDArray[np.int8]  # index into PATTERNS
    repeated: NDArray[np.bool_]  # top1 == verb
    triplet: NDArray[np.int64]  # index into triplet_keys
    triplet_keys: list[tuple[str, str, str, str]]  # (name, profession, verb, variant)
    triplet_first_line: NDArray[np.int64]
    triplet_pair: NDArray[np.int64]  # index into pair_keys, per triplet
    pair_keys: list[tuple[str, str, str]]  # (name, profession, variant)
    cptp_top1: dict[int, str]  # line -> top1, for the CpTp lines whose top1 is not the verb

    @property
    def size(self) -> int:
        return int(self.line.size)


_MAX_CHARS = {"name": MAX_WORD_CHARS, "profession": MAX_WORD_CHARS, "verb": MAX_WORD_CHARS, "top1": MAX_TOP1_CHARS}


def _field_problems(file: str, line: int, obj: dict[str, Any]) -> list[Problem]:
    """What is wrong with the fields of one line: unknown, missing, not a string, empty, too long."""
    problems = [
        Problem(file, line, key, f"unknown field (expected only {', '.join(FIELDS)})")
        for key in sorted(obj.keys() - set(FIELDS))
    ]
    for key in FIELDS:
        if key not in obj:
            problems.append(Problem(file, line, key, "missing field"))
        elif not isinstance(obj[key], str):
            problems.append(Problem(file, line, key, f"expected a string, got {json_type_name(obj[key])}"))
        elif key in ("name", "profession", "verb") and not obj[key].strip():
            problems.append(Problem(file, line, key, "must not be empty"))
        elif key in _MAX_CHARS and len(obj[key]) > _MAX_CHARS[key]:
            problems.append(
                Problem(file, line, key, f"expected at most {_MAX_CHARS[key]:,} characters, got {len(obj[key]):,}")
            )
    return problems


def _columns(file: str, rows: Iterable[tuple[int, dict[str, Any]]], problems: list[Problem]) -> Predictions:
    """Check each line's fields and intern its strings; problems are appended to `problems`."""
    variant_code = {v: i for i, v in enumerate(VARIANTS)}
    pattern_code = {p: i for i, p in enumerate(PATTERNS)}
    triplet_of: dict[tuple[str, str, str, str], int] = {}
    pair_of: dict[tuple[str, str, str], int] = {}
    lines: list[int] = []
    variants: list[int] = []
    patterns: list[int] = []
    repeated: list[bool] = []
    triplets: list[int] = []
    triplet_first_line: list[int] = []
    triplet_pair: list[int] = []
    cptp_top1: dict[int, str] = {}
    get_fields = operator.itemgetter(*FIELDS)
    for line, obj in rows:
        # the common case in one test, written out so it runs without a Python-level loop per line;
        # the field-by-field diagnosis only for lines that fail it
        try:
            name, profession, verb, variant, pattern, top1 = get_fields(obj)
            well_formed = (
                len(obj) == len(FIELDS)
                and type(name) is str
                and type(profession) is str
                and type(verb) is str
                and type(variant) is str
                and type(pattern) is str
                and type(top1) is str
                and bool(name.strip())
                and bool(profession.strip())
                and bool(verb.strip())
                and len(name) <= MAX_WORD_CHARS
                and len(profession) <= MAX_WORD_CHARS
                and len(verb) <= MAX_WORD_CHARS
                and len(top1) <= MAX_TOP1_CHARS
            )
        except KeyError:
            well_formed = False
        if not well_formed:
            row_problems = _field_problems(file, line, obj)
            if row_problems:
                problems.extend(row_problems)
                continue
            name, profession, verb, variant, pattern, top1 = get_fields(obj)
        v = variant_code.get(variant)
        p = pattern_code.get(pattern)
        if v is None:
            problems.append(
                Problem(file, line, "variant", f"unknown variant {variant!r} (expected {', '.join(VARIANTS)})")
            )
        if p is None:
            problems.append(
                Problem(file, line, "pattern", f"unknown pattern {pattern!r} (expected {', '.join(PATTERNS)})")
            )
        if v is None or p is None:
            continue
        key4 = (name, profession, verb, variant)
        t = triplet_of.get(key4)
        if t is None:
            t = triplet_of[key4] = len(triplet_of)
            triplet_first_line.append(line)
            key3 = (name, profession, variant)
            pair = pair_of.get(key3)
            if pair is None:
                pair = pair_of[key3] = len(pair_of)
            triplet_pair.append(pair)
        hit = top1 == verb
        if p == 0 and not hit:
            cptp_top1[line] = top1
        lines.append(line)
        variants.append(v)
        patterns.append(p)
        repeated.append(hit)
        triplets.append(t)
    return Predictions(
        file=file,
        line=np.array(lines, dtype=np.int64),
        variant=np.array(variants, dtype=np.int8),
        pattern=np.array(patterns, dtype=np.int8),
        repeated=np.array(repeated, dtype=np.bool_),
        triplet=np.array(triplets, dtype=np.int64),
        triplet_keys=list(triplet_of),
        triplet_first_line=np.array(triplet_first_line, dtype=np.int64),
        triplet_pair=np.array(triplet_pair, dtype=np.int64),
        pair_keys=list(pair_of),
        cptp_top1=cptp_top1,
    )


def _columns_of_plain_rows(file: str, rows: list[tuple[str, ...]]) -> Predictions | None:
    """`_columns` for a file read by `flat_string_rows` (every line i+1 is row i, six strings), a
    column at a time in C-level maps; None as soon as a value is one `_columns` would complain
    about, so that the line-by-line path names it."""
    n = len(rows)
    variant_code = {v: i for i, v in enumerate(VARIANTS)}
    pattern_code = {p: i for i, p in enumerate(PATTERNS)}
    variant_codes = list(map(variant_code.get, map(operator.itemgetter(3), rows)))
    pattern_codes = list(map(pattern_code.get, map(operator.itemgetter(4), rows)))
    if None in variant_codes or None in pattern_codes:
        return None
    # triplets numbered in the order they first appear, as `_columns` numbers them
    triplet_keys4 = list(map(operator.itemgetter(0, 1, 2, 3), rows))
    triplet_of = dict.fromkeys(triplet_keys4, 0)
    # emptiness and length checked once per distinct triplet, not once per line
    if not all(
        name.strip()
        and profession.strip()
        and verb.strip()
        and max(len(name), len(profession), len(verb)) <= MAX_WORD_CHARS
        for name, profession, verb, _ in triplet_of
    ):
        return None
    for number, key4 in enumerate(triplet_of):
        triplet_of[key4] = number
    triplet = np.fromiter(map(triplet_of.__getitem__, triplet_keys4), dtype=np.int64, count=n)
    _, first_row = np.unique(triplet, return_index=True)
    pair_of: dict[tuple[str, str, str], int] = {}
    triplet_pair = [pair_of.setdefault((name, prof, var), len(pair_of)) for name, prof, _, var in triplet_of]
    pattern = np.fromiter(pattern_codes, dtype=np.int8, count=n)
    top1s = list(map(operator.itemgetter(5), rows))
    if max(map(len, top1s), default=0) > MAX_TOP1_CHARS:
        return None
    repeated = np.fromiter(map(operator.eq, top1s, map(operator.itemgetter(2), rows)), dtype=np.bool_, count=n)
    return Predictions(
        file=file,
        line=np.arange(1, n + 1, dtype=np.int64),
        variant=np.fromiter(variant_codes, dtype=np.int8, count=n),
        pattern=pattern,
        repeated=repeated,
        triplet=triplet,
        triplet_keys=list(triplet_of),
        triplet_first_line=first_row.astype(np.int64) + 1,
        triplet_pair=np.array(triplet_pair, dtype=np.int64),
        pair_keys=list(pair_of),
        cptp_top1={int(r) + 1: top1s[r] for r in np.flatnonzero((pattern == 0) & ~repeated).tolist()},
    )


def parse_predictions(
    data: bytes, file: str, problems: list[Problem] | None = None
) -> tuple[Predictions, list[Problem]]:
    """The columns of a prediction file and the problems of its individual lines (appended to `problems`,
    a `FileProblems` by default: reading stops once there are too many)."""
    problems = FileProblems() if problems is None else problems
    rows = flat_string_rows(data, FIELDS)
    if rows is not None:  # the usual file: read a column at a time
        predictions = _columns_of_plain_rows(file, rows)
        if predictions is not None:
            return predictions, problems
    predictions = _columns(file, JsonlReader(data, file, problems), problems)
    if not predictions.size and not problems:
        problems.append(Problem(file, None, None, "no predictions (the file is empty)"))
    return predictions, problems


def _triplet_text(key: tuple[str, str, str, str]) -> str:
    name, profession, verb, variant = key
    return f"triplet ({name!r}, {profession!r}, {verb!r}) in variant {variant}"


def check_predictions(predictions: Predictions, *, complete: bool = True) -> list[Problem]:
    """The checks of the whole file (SPEC §3, issue 4 point 3), vectorised over rows:

    - no (triplet, variant, pattern) twice;
    - CpTp's top-1 is the verb (selection keeps only those triplets);
    - at most MAX_VERBS_PER_PAIR verbs per (NAME, PROF, variant);
    - every triplet has all five patterns (only when `complete`: skipped while some lines are
      unreadable, whose triplets would otherwise also be reported incomplete).
    """
    file = predictions.file
    problems: list[Problem] = []
    n_patterns = len(PATTERNS)
    n_triplets = len(predictions.triplet_keys)
    cell = predictions.triplet * n_patterns + predictions.pattern
    per_cell = np.bincount(cell, minlength=n_triplets * n_patterns)
    if (per_cell > 1).any():  # only then is the O(n log n) sort paid, to name the first line of each
        order = np.argsort(cell, kind="stable")  # stable: the first occurrence in the file comes first
        sorted_cell = cell[order]
        repeat = np.flatnonzero(sorted_cell[1:] == sorted_cell[:-1]) + 1
        run_start = np.flatnonzero(np.concatenate(([True], sorted_cell[1:] != sorted_cell[:-1])))
        first_of = run_start[np.searchsorted(run_start, repeat, side="right") - 1]
        for dup, first in zip(repeat.tolist(), first_of.tolist(), strict=True):
            row = int(order[dup])
            key = predictions.triplet_keys[int(predictions.triplet[row])]
            problems.append(
                Problem(
                    file,
                    int(predictions.line[row]),
                    "pattern",
                    f"duplicate prediction for the {_triplet_text(key)}, pattern "
                    f"{PATTERNS[int(predictions.pattern[row])]} (first on line {int(predictions.line[order[first]])})",
                )
            )

    for row in np.flatnonzero((predictions.pattern == 0) & ~predictions.repeated).tolist():
        line = int(predictions.line[row])
        verb = predictions.triplet_keys[int(predictions.triplet[row])][2]
        problems.append(
            Problem(
                file,
                line,
                "top1",
                f"CpTp top-1 is {predictions.cptp_top1[line]!r}, not the verb {verb!r}: the triplet was not "
                "selected (only triplets whose CpTp top-1 is the verb itself are kept; drop it from the file)",
            )
        )

    verbs_per_pair = np.bincount(predictions.triplet_pair, minlength=len(predictions.pair_keys))
    too_many = np.flatnonzero(verbs_per_pair > MAX_VERBS_PER_PAIR)
    if too_many.size:
        # triplets are numbered in the order they first appear, so a stable sort by pair lists each
        # pair's triplets in file order, and position start + 20 is where the 21st verb first appears
        triplets_by_pair = np.argsort(predictions.triplet_pair, kind="stable")
        pair_start = np.concatenate(([0], np.cumsum(verbs_per_pair)[:-1]))
    for pair in too_many.tolist():
        extra_triplet = triplets_by_pair[int(pair_start[pair]) + MAX_VERBS_PER_PAIR]
        line = int(predictions.triplet_first_line[extra_triplet])
        name, profession, variant = predictions.pair_keys[pair]
        problems.append(
            Problem(
                file,
                line,
                "verb",
                f"({name!r}, {profession!r}) in variant {variant} has {int(verbs_per_pair[pair])} verbs "
                f"(at most {MAX_VERBS_PER_PAIR} per name and profession)",
            )
        )

    if complete and n_triplets:
        present = per_cell.reshape(n_triplets, n_patterns) > 0
        for t in np.flatnonzero(~present.all(axis=1)).tolist():
            missing = ", ".join(PATTERNS[p] for p in np.flatnonzero(~present[t]).tolist())
            problems.append(
                Problem(
                    file,
                    int(predictions.triplet_first_line[t]),
                    "pattern",
                    f"{_triplet_text(predictions.triplet_keys[t])} lacks {missing} "
                    f"(every kept triplet needs all of {', '.join(PATTERNS)})",
                )
            )
    return problems


def _sort_key(problem: Problem) -> tuple[int, str, str]:
    return (problem.line or 0, problem.field or "", problem.message)


def load_predictions(path: Path, *, display_name: str | None = None) -> Predictions:
    """Read and check a prediction file; every problem is raised together (exit code 2 on the command line)."""
    file = display_name or str(path)
    data = read_bytes(path, max_bytes=MAX_PREDICTION_FILE_BYTES)
    problems = FileProblems()
    try:
        predictions, _ = parse_predictions(data, file, problems)
        problems += check_predictions(predictions, complete=not problems)
    except TooManyProblems:
        raise stopped(file, sorted(problems, key=_sort_key)) from None
    if problems:
        raise InputError(sorted(problems, key=_sort_key))
    return predictions


def check_vocabulary(predictions: Predictions, lists: WordLists | None = None) -> list[Problem]:
    """For the leaderboard: every name, profession and verb must come from NegHub's lists, so rows stay
    comparable. One problem per unknown word, at the first line that uses it."""
    lists = lists or load_word_lists()
    known = {
        "name": set(lists.female_names) | set(lists.male_names),
        "profession": set(lists.articles),
        "verb": set(lists.verbs),
    }
    where = {"name": "female_names.txt / male_names.txt", "profession": "professions.tsv", "verb": "verbs.txt"}
    # the usual answer, every word known, from set differences in C; the per-triplet walk only to place a problem
    if all(
        set(map(operator.itemgetter(i), predictions.triplet_keys)) <= known[field_name]
        for i, field_name in enumerate(("name", "profession", "verb"))
    ):
        return []
    first_line: dict[tuple[str, str], int] = {}
    for key, line in zip(predictions.triplet_keys, predictions.triplet_first_line.tolist(), strict=True):
        for field_name, word in zip(("name", "profession", "verb"), key[:3], strict=True):
            if word not in known[field_name] and (field_name, word) not in first_line:
                first_line[(field_name, word)] = line
    return sorted(
        (
            Problem(
                predictions.file,
                line,
                field_name,
                f"{word!r} is not in NegHub's {where[field_name]} (the leaderboard accepts only NegHub's words)",
            )
            for (field_name, word), line in first_line.items()
        ),
        key=_sort_key,
    )


# --- scoring ----------------------------------------------------------------------------------


def score(predictions: Predictions, bootstrap: BootstrapConfig, *, margin: float = PASS_MARGIN) -> dict[str, Any]:
    """Repetition and drop per variant and pattern, with bootstrap intervals (resampling triplets).

    A checked file has exactly one row per (triplet, pattern), so the counts of one bincount over
    variant x pattern cells are all that is needed.
    """
    n_cells = len(VARIANTS) * len(PATTERNS)
    cell = predictions.variant.astype(np.int64) * len(PATTERNS) + predictions.pattern
    n = np.bincount(cell, minlength=n_cells).reshape(len(VARIANTS), len(PATTERNS))
    hits = np.bincount(cell[predictions.repeated], minlength=n_cells).reshape(len(VARIANTS), len(PATTERNS))
    # each triplet's outcome as bits (bit p: pattern p repeated the verb): the contrast's interval resamples
    # triplets, and a resample changes it only through how many triplets show each of the 32 outcomes
    n_all = len(predictions.triplet_keys)
    bits = predictions.repeated.astype(np.int64) << predictions.pattern.astype(np.int64)
    outcome = np.bincount(predictions.triplet, weights=bits, minlength=n_all).astype(np.int64)
    triplet_variant = np.zeros(n_all, dtype=np.int64)
    triplet_variant[predictions.triplet] = predictions.variant
    variants: dict[str, Any] = {}
    for v, variant in enumerate(VARIANTS):
        patterns: dict[str, Any] = {}
        for p, pattern in enumerate(PATTERNS):
            count, hit = int(n[v, p]), int(hits[v, p])
            ci = bootstrap_proportion_ci(hit, count, bootstrap)
            patterns[pattern] = {
                "n": count,
                "repetition": hit / count if count else None,
                # (n - hits) / n rather than 1 - repetition: exact for the fractions tests write by hand
                "drop": (count - hit) / count if count else None,
                "repetition_ci95": None if ci is None else [ci[0], ci[1]],
                "drop_ci95": None if ci is None else [1.0 - ci[1], 1.0 - ci[0]],
            }
        contrast = negation_contrast({p: patterns[p]["drop"] for p in PATTERNS})
        outcomes = np.bincount(outcome[triplet_variant == v], minlength=2 ** len(PATTERNS))
        contrast_ci = bootstrap_categories_ci(outcomes, _contrast_of_outcome_counts, bootstrap)
        variants[variant] = {
            "n_triplets": int(n[v, 0]),
            "patterns": patterns,
            "negation_contrast": contrast,
            "negation_contrast_ci95": None if contrast_ci is None else [contrast_ci[0], contrast_ci[1]],
            "passes": None if contrast is None else contrast > margin,
        }
    return {
        "n_predictions": predictions.size,
        "variants": variants,
        "pass_margin": margin,
        "passes": variants["pronoun"]["passes"],
    }


# OUTCOME_REPEATS[k, p]: whether outcome k (a triplet's bits) has pattern p repeating the verb
OUTCOME_REPEATS = ((np.arange(2 ** len(PATTERNS))[:, None] >> np.arange(len(PATTERNS))[None, :]) & 1).astype(np.float64)


def _contrast_of_outcome_counts(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    """negation_contrast of each resample, from its (resamples x 32) counts of triplet outcomes."""
    drops = 1.0 - (counts @ OUTCOME_REPEATS) / counts.sum(axis=1, keepdims=True)
    column = {p: drops[:, i] for i, p in enumerate(PATTERNS)}
    contrast: NDArray[np.float64] = np.minimum(column["CpTn"], column["CnTp"]) - np.maximum(
        column["CnTn"], column["CpTv"]
    )
    return contrast


def negation_contrast(drops: dict[str, float | None]) -> float | None:
    """min(drop CpTn, drop CnTp) - max(drop CnTn, drop CpTv): how far the forbidden-repetition patterns
    drop beyond the controls; `passes` is this exceeding PASS_MARGIN."""
    values = [drops[p] for p in ("CpTn", "CnTp", "CnTn", "CpTv")]
    if any(value is None for value in values):
        return None
    cptn, cntp, cntn, cptv = (float(value) for value in values if value is not None)
    return min(cptn, cntp) - max(cntn, cptv)


def report(full: Result) -> str:
    """A readable table: repetition and drop in percent, as the paper prints them."""

    pct = percent  # never "-0.00"; "n/a" with no unit after it (core/numbers.py)
    prov = full.provenance
    result = full.metrics
    lines = [
        f"{prov.task}, evaluator {prov.evaluator_version}, task version {prov.task_version}, "
        f"{result['n_predictions']} predictions",
    ]
    for variant, entry in result["variants"].items():
        if entry["n_triplets"] == 0:
            continue
        lines.append("")
        lines.append(f"{variant}: {entry['n_triplets']} triplets")
        lines.append(f"  {'pattern':<8}{'repetition':>11}{'drop':>8}  95% CI of drop")
        for pattern, m in entry["patterns"].items():
            ci = m["drop_ci95"]
            ci_text = "n/a" if ci is None else f"[{pct(ci[0])}, {pct(ci[1])}]"
            lines.append(f"  {pattern:<8}{pct(m['repetition']):>11}{pct(m['drop']):>8}  {ci_text}")
        verdict = "n/a" if entry["passes"] is None else ("passes" if entry["passes"] else "does not pass")
        contrast_ci = entry.get("negation_contrast_ci95")
        interval = "" if contrast_ci is None else f" [{pct(contrast_ci[0])}, {pct(contrast_ci[1])}]"
        lines.append(
            f"  min(CpTn, CnTp) - max(CnTn, CpTv) drop: {pct(entry['negation_contrast'])} points{interval}; "
            f"{verdict} (margin {pct(result['pass_margin'])})"
        )
    lines.append("")
    lines.append(
        "Percent. Under the coreference controls a model that resolves coreference is expected to pass "
        "with coref and NOT with noncoref_* (small drops there)."
    )
    return "\n".join(lines)


# --- baselines and registration ---------------------------------------------------------------

BASELINE_FEMALE, BASELINE_MALE, BASELINE_PROFESSIONS = 5, 5, 4
BASELINE_KINDS = ("repeat", "never")


def prediction_row(name: str, profession: str, verb: str, variant: str, pattern: str, top1: str) -> dict[str, str]:
    """One line of a prediction file, as the runner writes it."""
    return dict(zip(FIELDS, (name, profession, verb, variant, pattern, top1), strict=True))


def baseline_rows(kind: str, lists: WordLists | None = None) -> list[dict[str, Any]]:
    """The predictions of two trivial models, on fixed triplets: the first 5 female and 5 male names,
    the first 4 professions and the first 20 verbs of the lists (no randomness: 800 triplets in each
    of the four variants, 16,000 lines).

    "repeat" answers the verb everywhere: repetition 1, drop 0 for every pattern. "never" must
    still answer the verb for CpTp, because a triplet is only kept when its CpTp top-1 is the verb
    (a file without that would fail validation); everywhere else it answers the next verb of the
    list, so its drop is 1 for CpTn, CnTp, CnTn and CpTv and 0 for CpTp, the reference.
    """
    if kind not in BASELINE_KINDS:
        raise InputError.single("--kind", f"unknown baseline {kind!r} for scn (expected {' or '.join(BASELINE_KINDS)})")
    lists = lists or load_word_lists()
    names = lists.female_names[:BASELINE_FEMALE] + lists.male_names[:BASELINE_MALE]
    verbs = lists.verbs[:MAX_VERBS_PER_PAIR]
    rows: list[dict[str, Any]] = []
    for variant in VARIANTS:
        for name in names:
            for profession in lists.professions[:BASELINE_PROFESSIONS]:
                for i, verb in enumerate(verbs):
                    for pattern in PATTERNS:
                        top1 = verb if kind == "repeat" or pattern == REFERENCE else verbs[(i + 1) % len(verbs)]
                        rows.append(prediction_row(name, profession, verb, variant, pattern, top1))
    return rows


def word_list_release(unverified: bool = False) -> Release:
    """The word lists as a release: what SCN results name as their dataset."""
    return Release(METADATA, WORD_LIST_DIR, "bundled", unverified)


def evaluate(path: Path, options: EvalOptions) -> Result:
    """Score a prediction file; SCN has no split and reads no data (the words are in the file). For the
    leaderboard (`options.for_leaderboard`), its words must also come from NegHub's lists."""
    if options.split is not None:
        raise InputError.single("--split", "scn has no splits (leave --split out)")
    predictions = load_predictions(path, display_name=options.display_name)
    if options.for_leaderboard:
        problems = check_vocabulary(predictions)
        if problems:
            raise InputError(problems)
    return result_from_predictions(path, predictions, options.bootstrap)


def result_from_predictions(path: Path, predictions: Predictions, bootstrap: BootstrapConfig) -> Result:
    """The whole result of an already loaded (and checked) prediction file."""
    return assemble_result(
        benchmark=BENCHMARK,
        split=None,
        mode=None,
        predictions=path,
        release=word_list_release(),
        dataset_file=None,
        scores=score(predictions, bootstrap),
        bootstrap=bootstrap,
    )


def baseline(kind: str, options: EvalOptions, seed: int) -> list[dict[str, Any]]:
    # `seed` is unused: both baselines are deterministic by construction
    if options.split is not None:
        raise InputError.single("--split", "scn has no splits (leave --split out)")
    return baseline_rows(kind, load_word_lists(unverified=options.unverified))


def derive_metrics(metrics: dict[str, float]) -> dict[str, float]:
    """A paper row gives drops only: the negation contrast of each variant, from them."""
    out: dict[str, float] = {}
    for variant in VARIANTS:
        base = f"variants.{variant}.patterns"
        contrast = negation_contrast({p: metrics.get(f"{base}.{p}.drop") for p in ("CpTn", "CnTp", "CnTn", "CpTv")})
        if contrast is not None:
            out[f"variants.{variant}.negation_contrast"] = contrast
    return out


# --- one prediction line (what the validator runs on every line, and schemas/ publishes) ---------------

# The characters Python's str.strip() removes (str.isspace), spelled out: the reader refuses a word that
# strip() empties, and \s would mean a different set in each regex engine (see submissions/format.py).
PYTHON_WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# SCN words are single English words or short phrases from NegHub's lists; the cap only bounds abuse.
Word = Annotated[str, StringConstraints(min_length=1, max_length=MAX_WORD_CHARS, pattern=f"[^{PYTHON_WHITESPACE}]")]


class PredictionLine(BaseModel):
    """One line of an SCN prediction file: the top-1 token at the mask for one (triplet, variant, pattern)."""

    model_config = STRICT_LINE
    name: Word
    profession: Word
    verb: Word
    variant: Literal["pronoun", "coref", "noncoref_same", "noncoref_other"]
    pattern: Literal["CpTp", "CpTn", "CnTp", "CnTn", "CpTv"]
    top1: Annotated[str, StringConstraints(max_length=MAX_TOP1_CHARS)]


DISPLAY = Display(
    name="SCN",
    summary="The Self-Contained Negation Test: a cloze probe. Does a negated context or target stop a model from "
    "repeating the verb of the context, while controls do not?",
    headline=Headline(
        path="variants.pronoun.negation_contrast",
        label="negation contrast",
        unit="points",
        ci_path="variants.pronoun.negation_contrast_ci95",
        higher_is_better=True,
        description="min(drop CpTn, drop CnTp) − max(drop CnTn, drop CpTv), in points: how much more the "
        "negated patterns stop the repetition than the controls do (NegHub's criterion passes above "
        f"{100 * PASS_MARGIN:.0f} points)",
    ),
    columns=tuple(
        column
        for variant in VARIANTS
        for column in (
            *(
                MetricDisplay(
                    path=f"variants.{variant}.patterns.{p}.drop",
                    label=f"{variant} {p} drop",
                    ci_path=f"variants.{variant}.patterns.{p}.drop_ci95",
                )
                for p in PATTERNS
                if p != REFERENCE
            ),
            MetricDisplay(path=f"variants.{variant}.n_triplets", label=f"{variant} triplets", unit="count"),
        )
    ),
    key_columns=("variants.pronoun.patterns.CpTn.drop", "variants.pronoun.patterns.CnTn.drop"),
    charts=(
        ChartSpec(
            kind="bars",
            title="Drop per pattern",
            facets=VARIANTS,
            series=tuple(
                ChartSeries(label=p, path=f"variants.{{facet}}.patterns.{p}.drop") for p in PATTERNS if p != REFERENCE
            ),
            y_title="drop (%)",
        ),
    ),
    max_ci_half_width=0.10,
    items_path="variants.pronoun.n_triplets",
    items_noun="triplets",
    min_items=30,
    prompt_styles=("masked", "causal"),
)

BENCHMARK = Benchmark(
    name=NAME,
    version=TASK_VERSION,
    metadata=METADATA,
    display=DISPLAY,
    family="cloze",
    evaluate=evaluate,
    report=report,
    baseline=baseline,
    default_split=None,
    prediction_lines={None: PredictionLine},
    baseline_kinds=BASELINE_KINDS,
    baseline_runs={"repeat": (BaselineRun("repeat"),), "never": (BaselineRun("never"),)},
    bundled_release=WORD_LIST_DIR,
    reported_dir=Path(__file__).parent / "reported",
    plans=protocol.plans,
    derive_metrics=derive_metrics,
)
