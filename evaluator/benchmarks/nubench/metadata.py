"""NUBench as NegHub pins it: today the sample NegHub wrote (the official release is not available)."""

from __future__ import annotations

from ...releases.metadata import CardText, DatasetMetadata, RecordField, ReleaseFile

MULTIPLE_CHOICE = "multiple-choice"
SENTENCE_NEGATION = "sentence-negation"

_SAMPLE_FILES = (
    ReleaseFile(
        path="multiple-choice/test.jsonl",
        config=MULTIPLE_CHOICE,
        split="test",
        sha256="9b2e46ed22965a0d5c1255343912ed6c96691c2745b1708d193ea7b29bfb43e0",
        n_records=46,
    ),
    ReleaseFile(
        path="multiple-choice/demonstration.jsonl",
        config=MULTIPLE_CHOICE,
        split="demonstration",
        sha256="b7e4a8ff93d5510be0eac285cadf191e4eb6cdec10ba419bd2a5c58be504ac84",
        n_records=10,
    ),
    ReleaseFile(
        path="sentence-negation/train.jsonl",
        config=SENTENCE_NEGATION,
        split="train",
        sha256="1acb778118e23382f26ca1114408e2295fa97c846db46913d7c94a9bc8a16d24",
        n_records=20,
    ),
)

METADATA = DatasetMetadata(
    name="nubench",
    pretty_name="NUBench",
    version="neghub-sample-1",
    languages=("en",),
    # The paper's ethics statement: "released under the Creative Commons Attribution Non-Commercial
    # Share Alike 4.0"; the sample is published under the same terms so that both can sit together.
    license="cc-by-nc-sa-4.0",
    homepage="https://openreview.net/",
    citation=(
        "@misc{nubench,\n"
        "  title  = {{NUBench}: A Benchmark for {LLMs}' Sentence-Level Negation Understanding},\n"
        "  author = {Anonymous},\n"
        "  note   = {Paper under double-blind review},\n"
        "  year   = {2025}\n"
        "}"
    ),
    description=(
        "A SAMPLE WRITTEN BY NEGHUB, for testing and demonstration only: not the NUBench release and not "
        "comparable with the paper's numbers. NUBench tests sentence-level negation understanding: for an "
        "English sentence, pick its standard negation (choice1) among a local negation (choice2, absent for "
        "non-applicable items, which have three options), a contradiction (choice3) and a paraphrase "
        "(choice4). The sample has the release's layout and schema (configurations multiple-choice with "
        "splits test and demonstration, sentence-negation with split train; appendix L), written in NegHub's "
        "own words (46 test items, 10 demonstrations, 20 sentence/negation pairs). The official release "
        "loads through the same code from a mirror folder (--data-dir DIR with DIR/nubench/multiple-choice/"
        "test.jsonl, ...); its files differ from the sample's pinned sha256s, so score it with --unverified "
        "until NegHub pins them."
    ),
    hub_repo_id="neghub/nubench",
    revision=None,
    files=_SAMPLE_FILES,
    record_fields=(
        RecordField(name="index", type="int", description="item id, unique within the split (multiple-choice)"),
        RecordField(
            name="wikipedia_index",
            type="str",
            description="row of the Wikipedia Summary dataset the sentence comes from; 'S<n>' for conditionals "
            "found by manual search",
        ),
        RecordField(name="sentence", type="str", description="the original sentence"),
        RecordField(name="choice1", type="str", description="standard negation: the answer"),
        RecordField(
            name="choice2", type="str | null", description="local negation; null (or empty) for non-applicable items"
        ),
        RecordField(
            name="choice2_type",
            type="relative_part | pp_part | adverb_part | compound_part | non-applicable",
            description="where the local negation sits (relative, participle or adverbial clause, one clause of "
            "a compound sentence), or non-applicable",
        ),
        RecordField(
            name="choice2_element", type="str | null", description="the phrase or clause the local negation negates"
        ),
        RecordField(name="choice3", type="str", description="contradiction without explicit negation"),
        RecordField(name="choice4", type="str", description="paraphrase"),
        RecordField(name="premise", type="str", description="sentence-negation pairs: the original sentence"),
        RecordField(name="hypothesis", type="str", description="sentence-negation pairs: its standard negation"),
    ),
    is_sample=True,
    card=CardText(
        task_categories=("multiple-choice",),
        tags=("negation", "standard-negation", "local-negation"),
        phenomena=(
            "Sentence-level (standard) negation in English, defined over the logical structure of the sentence: "
            "the main predicate of every main clause is negated, coordinations follow De Morgan (Neg(P and Q) = "
            'Neg(P) or Neg(Q)), conditionals "if P, Q" are negated as "P and Neg(Q)", and complementary '
            "antonyms count as negation. Distractors: local negation (a relative clause, a participle clause, "
            "an adverbial clause or one conjunct of a compound sentence negated: `choice2_type`), a "
            "contradiction and a paraphrase."
        ),
        construction=(
            "Sentences from HoVer and the Wikipedia Summary dataset, corrected and split into single sentences; "
            "the standard and local negations written by hand, the contradiction and paraphrase generated and "
            "then reviewed by the authors. Multiple choice: `choice1` is the standard negation (the answer), "
            "`choice2` the local negation (left out when `choice2_type` is `non-applicable`, leaving three "
            "options), `choice3` a contradiction, `choice4` a paraphrase. NUBench has no minimal pairs; the "
            "sentence-negation configuration pairs each sentence with its standard negation, for fine-tuning."
        ),
        licensing="CC BY-NC-SA 4.0, as the NUBench paper states (Ethics statement): non-commercial use only.",
        limitations=(
            "English only; sentences come from Wikipedia-style factual prose.",
            "Which option is the standard negation rests on the paper's operational definition (Table 2), "
            "which natural-language coordination does not always fit unambiguously.",
        ),
    ),
)
