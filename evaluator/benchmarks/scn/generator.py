"""The SCN generator (SPEC §3 and the paper's section 4): the five inputs of a (NAME, PROF, ACT) triplet in each
variant, a context "NAME is a PROF who (doesn't) like(s) to ACT." followed by a target "PRON is (not / very) happy
to [MASK]."."""

from __future__ import annotations

import hashlib

from .metadata import PATTERNS
from .words import Gender, WordLists, load_word_lists

PRONOUN: dict[Gender, str] = {"female": "She", "male": "He"}

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
