"""The words the pages say to a researcher: each hold's short phrase, the abbreviations of the tables spelled out
(the glossary page and the `<abbr>` of a column's head), and the repository's own words kept out of reader text.

A hold shows in a table as one short phrase (at most twelve words); its full sentence stays in the row's details.
Every hold a table shows goes through `hold_phrase`: the declared rule's own phrase (`verdicts.rule_for(kind)`).
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from .board_file import HoldEntry
from .verdicts import rule_for

MAX_PHRASE_WORDS = 12  # a table's cell holds a hold's phrase; its full sentence is in the row's details


def hold_phrase(hold: HoldEntry) -> str:
    """The short phrase a table shows for a hold: its rule's own (verdicts.RULES; the full reason is in the row's
    details)."""
    return rule_for(hold.kind).phrase


# Every abbreviation a table's head or a page's text uses, spelled out once here: the glossary page lists them,
# a column's head wraps each in an <abbr>, and a one-line key beside a table repeats those it uses.
GLOSSARY: dict[str, tuple[str, str]] = {
    "M": ("all minimal pairs", "every minimal pair of the data: an item and the same item with a negation added"),
    "M_i": (
        "important pairs",
        "the minimal pairs whose gold answer the added negation changes (the paper's 重要な, important, pairs)",
    ),
    "M_u": (
        "unimportant pairs",
        "the minimal pairs whose gold answer the added negation leaves unchanged",
    ),
    "Acc": ("accuracy on the controls", "accuracy on each pair's control: the item before the cue is added"),
    "Acc′": (
        "accuracy on the treatments",
        "accuracy on the items with the added negation (read: Acc prime)",
    ),
    "AccChg": ("accuracy change", "Acc′ − Acc: how much accuracy moves when the negation is added, in points"),
    "D_orig": ("the original items", "the items of the source dataset (JNLI, JSTS) the pairs were made from"),
    "D_neg": ("the negated items", "the items with a negation cue added"),
    "D_JNLI": (
        "JNLI's data",
        "JNLI, the dataset JNLI-Neg's items come from: classifiers are fine-tuned on its training split, and the "
        "paper's Table 2 column D_JNLI is accuracy on its validation set",
    ),
    "CpTn": (
        "context positive, target negated",
        "SCN pattern: an affirmative context sentence, then a negated target sentence",
    ),
    "CnTp": (
        "context negated, target positive",
        "SCN pattern: a negated context sentence, then an affirmative target sentence",
    ),
    "CnTn": ("context negated, target negated", "SCN control pattern: both sentences negated"),
    "CpTv": (
        "context positive, target with 'very'",
        "SCN control pattern: the target sentence adds the intensifier 'very' instead of a negation",
    ),
    "CpTp": ("context positive, target positive", "SCN's reference pattern: neither sentence negated"),
    "coref": (
        "forced co-reference",
        "SCN control: the target repeats the context's name instead of a pronoun, so both name one person "
        "(the paper's Table 7, example 3)",
    ),
    "noncoref": (
        "forced non-coreference",
        "SCN control: the target names another person, of the same or the other gender, so the context says nothing "
        "of the target (the paper's Table 7, examples 1 and 2)",
    ),
    "GH22": ("Gubelmann and Handschuh (2022)", "the earlier test the SCN paper replicates in part"),
}
# Words of the tables that are not abbreviations, defined once on the glossary page (under the abbreviations)
TERMS: dict[str, tuple[str, str]] = {
    "drop": (
        "a fall of the verb's repetition, in points",
        "SCN: 100 − the %-ACT-repetition of a pattern, relative to CpTp (100 by construction); the papers' Tables 6, "
        "8 and 9 print drops. A high drop for CpTn and CnTp and a low one for CnTn and CpTv is what the paper expects "
        "of a model that understands negation",
    ),
    "negation contrast": (
        "NegHub's figure, not the paper's",
        "SCN: min(CpTn drop, CnTp drop) − max(CnTn drop, CpTv drop), in points: how much more the negated patterns "
        "stop the repetition than the controls do. NegHub computes it (from the paper's drops, on paper rows); no "
        "table of the paper prints it",
    ),
}
# the longest first, so that "M_i" is found before "M" and "Acc′" before "Acc"
_ABBREVIATION = re.compile(
    r"(?<![\w′])(" + "|".join(re.escape(k) for k in sorted(GLOSSARY, key=len, reverse=True)) + r")(?![\w′])"
)


def abbreviations_in(*texts: str) -> list[str]:
    """The glossary's abbreviations these texts use, in the glossary's order."""
    found = {match.group(1) for text in texts for match in _ABBREVIATION.finditer(text)}
    return [key for key in GLOSSARY if key in found]


def with_abbr(text: str) -> Markup:
    """The text escaped, each abbreviation of the glossary in an <abbr> that spells it out."""
    out, last = [], 0
    for match in _ABBREVIATION.finditer(text):
        key = match.group(1)
        out.append(escape(text[last : match.start()]))
        out.append(Markup('<abbr title="{}">{}</abbr>').format(GLOSSARY[key][0], key))
        last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def key_line(*texts: str) -> str:
    """One line spelling out the abbreviations these texts use ("M_i: important pairs · Acc′: …"), or ""."""
    return " · ".join(f"{key}: {GLOSSARY[key][0]}" for key in abbreviations_in(*texts))


# The repository's words that reader text outside a row's provenance details never uses (the browser test and the
# page tests hold every page to it): a researcher reads rows, papers and baselines, not merges and accounts.
MECHANICS = re.compile(
    r"\blanded\b|\blanding\b|position \d+ of main|\b[0-9a-f]{12,40}\b|sha256|clearance|\baccount\b|rule row|\bfloor\b",
    re.IGNORECASE,
)


def _without_mechanics(text: str) -> str:
    """`text` less every parenthesis (with what it nests) whose words name the repository's mechanics."""
    cut: list[tuple[int, int]] = []
    opened: list[int] = []
    for position, char in enumerate(text):
        if char == "(":
            opened.append(position)
        elif char == ")" and opened:
            start = opened.pop()
            inside = text[start : position + 1]
            if MECHANICS.search(inside) or re.search(r"\bcommit\b|\bpushed\b", inside):
                cut = [(a, b) for a, b in cut if not (start <= a and b <= position + 1)] + [(start, position + 1)]
    out, last = [], 0
    for a, b in sorted(cut):
        out.append(text[last:a].rstrip(" "))
        last = b
    out.append(text[last:])
    return "".join(out)


def reader_words(text: str) -> str:
    """Where a row came from, in a reader's words: the provenance sentence less its commits, digests and landings
    ("run by NegHub's maintainers (pushed to main by the maintainers (commit f70a430bbe67)); not reproduced: ..."
    -> "run by NegHub's maintainers; not reproduced: ..."). The whole sentence stays in the row's provenance fold."""
    return re.sub(r"\s+", " ", _without_mechanics(text)).strip()
