"""The predictions of two trivial SCN models (`neghub baseline scn`): one that always repeats the verb, one that
never does where it may."""

from __future__ import annotations

from typing import Any

from ...core.benchmark import EvalOptions, ReferenceRule
from ...core.errors import InputError
from ...core.results import Result
from .checks import MAX_VERBS_PER_PAIR
from .metadata import PATTERNS, REFERENCE, VARIANTS
from .reader import FIELDS
from .words import WordLists, load_word_lists

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


def reference_rules(result: Result, _options: EvalOptions) -> list[ReferenceRule]:
    """The rule rows NegHub computes for an SCN row, on the row's own triplets (each model keeps its own): one that
    always repeats the verb (every drop 0) and one that never does where it may (every drop but CpTp's 1). Both
    have a negation contrast of 0: a row beats them only where its negated patterns drop more than its controls."""
    lists = load_word_lists()
    following = {verb: lists.verbs[(i + 1) % len(lists.verbs)] for i, verb in enumerate(lists.verbs)}
    triplets = [item.split("|") for item in result.items.ids]
    rules = []
    for kind, name, words in (
        ("repeat", "Rule: always repeats the verb", "answers the context's verb in every pattern"),
        ("never", "Rule: never repeats the verb", "answers the verb only where a triplet is kept (CpTp), never else"),
    ):
        lines = tuple(
            prediction_row(
                name_,
                profession,
                verb,
                variant,
                pattern,
                verb if kind == "repeat" or pattern == REFERENCE else following.get(verb, verb + "s"),
            )
            for variant, name_, profession, verb in triplets
            for pattern in PATTERNS
        )
        rules.append(ReferenceRule(name=name, words=f"{words}, on the row's own triplets", lines=lines))
    return rules
