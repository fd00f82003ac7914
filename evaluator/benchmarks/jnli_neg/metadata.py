"""JNLI-Neg's release as NegHub pins it: identity, license, citation, files, record fields and card prose."""

from __future__ import annotations

from typing import Literal

from ...families.minimal_pairs.records import RecordSchema, TaskField
from ...protocol.metadata import CardText, DatasetMetadata, LicenseFile, ReleaseFile

# The upstream release (../shared/datasets/jnli-neg/SOURCE.md): asahi-y/JNLI-Neg at this commit, folder
# data/jnli-neg-v1.1/. Raw GitHub URLs name the commit, so the bytes they serve cannot move.
UPSTREAM_COMMIT = "cbd89b97da4981c2c64eef65747a87130787b343"
UPSTREAM_BASE = f"https://raw.githubusercontent.com/asahi-y/JNLI-Neg/{UPSTREAM_COMMIT}"

LABELS = ("entailment", "neutral", "contradiction")

# a line of the release: JNLI's names, an NLI label and the annotators' votes
RECORD = RecordSchema(
    corpus="JNLI",
    gold=TaskField(
        "gold_label",
        Literal["entailment", "neutral", "contradiction"],
        "entailment | neutral | contradiction",
        "the gold label",
    ),
    annotations=TaskField(
        "annotator_labels",
        dict[str, int] | None,
        "{entailment, neutral, contradiction} | null",
        "how many of the three annotators chose each label; null for originals",
    ),
    gold_code=lambda record: LABELS.index(record.gold_label),
    sentence_roles=("the premise", "the hypothesis"),
    description="One line of the JNLI-Neg release.",
)

METADATA = DatasetMetadata(
    name="jnli-neg",
    pretty_name="JNLI-Neg",
    version="1.1",
    languages=("ja",),
    license="cc-by-sa-4.0",
    license_terms=(
        "JNLI-Neg is licensed under CC BY-SA 4.0: you may copy, share and adapt it for any purpose, commercial "
        "use included, giving credit to its authors and to JGLUE's with a link to the license, and you must "
        "release what you make from it under the same license."
    ),
    homepage="https://github.com/asahi-y/JNLI-Neg",
    # Only what the paper itself states (../shared/papers/jnli-neg-ja.txt): its title, its authors and the
    # dataset's URL (footnote 1). It names no venue and no year, and the papers that cite it disagree (the
    # English JSTS-Neg paper: 2025, no venue; the Japanese one: a journal article under another title).
    citation=(
        "@misc{yoshida-jnlineg,\n"
        "  title  = {否定理解能力を評価するための日本語言語推論データセットの構築},\n"
        "  author = {吉田 朝飛 and 加藤 芳秀 and 小川 泰弘 and 松原 茂樹},\n"
        "  url    = {https://github.com/asahi-y/JNLI-Neg},\n"
        "  note   = {In Japanese}\n"
        "}"
    ),
    description=(
        "Japanese natural language inference for negation understanding. Each JNLI premise/hypothesis "
        "pair without negation is extended with variants that insert one negation cue (ない or ず) into "
        "the premise, the hypothesis or both, re-annotated by three annotators; instances that differ by "
        "exactly one cue form minimal pairs."
    ),
    hub_repo_id="neghub/jnli-neg",
    revision=None,
    files=(
        ReleaseFile(
            path="jnli-neg-train-v1.1.jsonl",
            upstream_url=f"{UPSTREAM_BASE}/data/jnli-neg-v1.1/jnli-neg-train-v1.1.jsonl",
            split="train",
            sha256="adc27dfba32e0c56c5f4bc84c03e346dcb4a73266ca9b7db38bfa8d379247302",
            n_records=5494,
        ),
        ReleaseFile(
            path="jnli-neg-valid-v1.1.jsonl",
            upstream_url=f"{UPSTREAM_BASE}/data/jnli-neg-v1.1/jnli-neg-valid-v1.1.jsonl",
            split="valid",
            sha256="da5c18369face5a6e338b67732c9beeef4aefd0937f314e9249119e2d988ea03",
            n_records=1363,
        ),
    ),
    # the CC BY-SA 4.0 text; upstream keeps it at the repository's root
    license_file=LicenseFile(
        sha256="8c213737cccb19572153ef2080a8694c76e9697c697db4404790bd40b59f4281",
        upstream_url=f"{UPSTREAM_BASE}/LICENSE",
    ),
    record_fields=RECORD.record_fields(),
    card=CardText(
        task_categories=("text-classification",),
        task_ids=("natural-language-inference",),
        tags=("negation", "minimal-pairs", "jglue", "jnli"),
        phenomena=(
            "Clausal negation by exactly one cue, the auxiliary ない or ず, attached to a verb (動詞), an "
            "i-adjective (形容詞) or a na-adjective (形容動詞; 形状詞 in UniDic). The cue sits either at the end "
            "of the sentence (`neg_position: end`, the predicate is negated) or in the middle (`mid`, inside an "
            "adnominal or subordinate clause, as in 白くない皿). Affixal negation (不-, 非-, ...) and double "
            "negation are out of scope, as in the paper."
        ),
        construction=(
            "Built from JNLI (JGLUE) train and validation pairs whose premise and hypothesis contain no "
            "negation; JNLI's test split was unpublished. (1) Every insertion point of a cue after a verb or "
            "adjective is found by rule on the MeCab/UniDic analysis; a sentence with n insertion points yields "
            "n variants with one cue each; an LLM (gpt-4o-2024-05-13, 1-shot) discarded unnatural variants. "
            "(2) For each source pair, `p_neg` variants negate the premise, `h_neg` the hypothesis and "
            "`p_neg_h_neg` both (one cue in each); three annotators labelled every variant with the JNLI "
            "guideline and a label at least two of them chose was kept. A minimal pair (control, treatment) "
            "differs by exactly one cue: (original, p_neg), (original, h_neg), and (p_neg, p_neg_h_neg) or "
            "(h_neg, p_neg_h_neg) sharing the same negated sentence (matched by `neg_id_in_jnli_sentence` "
            "within one `jnli_sentence_pair_id`). A pair whose gold label changes is in M_i (important "
            "negation), otherwise in M_u (unimportant)."
        ),
        licensing=(
            "CC BY-SA 4.0, the license of the upstream release (its `LICENSE` file is shipped unchanged). "
            "JNLI-Neg is derived from JNLI, part of JGLUE (Kurihara, Kawahara and Shibata, LREC 2022), "
            "itself CC BY-SA 4.0: credit both and share adaptations under the same license."
        ),
        limitations=(
            "No test split: JNLI's test split was unpublished, so models are compared on the validation split.",
            "Only variants the annotators agreed on (at least two of three) are released; some p_neg_h_neg "
            "instances therefore lack one of their D_1 or D_2 controls and form fewer both pairs.",
            "Unnatural variants were filtered by an LLM, not by people; some odd sentences may remain.",
            "One cue per sentence, ない or ず only; other negation forms are not covered.",
            "Each upstream file ends with one empty line; a strict JSON Lines reader must skip it.",
        ),
    ),
)
