"""NUBench as NegHub pins it: today the sample NegHub wrote, and the official release, Thunder-NUBench on the
Hugging Face Hub, which NegHub has not pinned yet (`neghub datasets pin nubench --revision COMMIT` does, once
its split sizes are the paper's; it writes hub_pin.yaml beside this file)."""

from __future__ import annotations

from pathlib import Path

from ...protocol.metadata import (
    PIN_FILE_NAME,
    CardText,
    DatasetMetadata,
    ExpectedSplit,
    HubRelease,
    RecordField,
    ReleaseFile,
    read_pin,
)

MULTIPLE_CHOICE = "multiple-choice"
SENTENCE_NEGATION = "sentence-negation"
PIN_FILE = Path(__file__).with_name(PIN_FILE_NAME)
# CC BY-NC-SA 4.0 in the paper's words (Ethics statement) and the Hub release's; said beside every download
LICENSE_TERMS = (
    "NUBench is licensed under CC BY-NC-SA 4.0: you may copy, share and adapt it for non-commercial purposes "
    "only, giving credit to its authors and a link to the license, and you must release what you make from it "
    "under the same license. Commercial use needs the authors' permission."
)
# What the paper reports of the release (papers/nubench.txt): Table 5 gives the three sets, Table 11 the
# demonstration and test items per choice2_type. The multiple-choice names are those of the paper's own
# harness configuration (appendix M, Listing 7: dataset_name multiple-choice, test_split test, fewshot_split
# demonstration); the training pairs' config is the one the Hub release's card names (sentence-negation-pair).
CHOICE2_TYPE_COUNTS = {
    "demonstration": {"relative_part": 12, "pp_part": 12, "adverb_part": 12, "compound_part": 12, "non-applicable": 2},
    "test": {"relative_part": 312, "pp_part": 308, "adverb_part": 310, "compound_part": 294, "non-applicable": 37},
}
OFFICIAL_RELEASE = HubRelease(
    pretty_name="Thunder-NUBench",
    repo_id="thunder-research-group/SNU_Thunder-NUBench",
    license="cc-by-nc-sa-4.0",
    gated=True,
    expected=(
        ExpectedSplit(config="sentence-negation-pair", split="train", n_records=3772, source="Table 5"),
        *(
            ExpectedSplit(
                config=MULTIPLE_CHOICE,
                split=split,
                n_records=sum(counts.values()),  # 50 and 1,261 (Table 5)
                source="Tables 5 and 11",
                count_field="choice2_type",
                counts=counts,
            )
            for split, counts in CHOICE2_TYPE_COUNTS.items()
        ),
    ),
    pin=read_pin(PIN_FILE),
)

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
    license_terms=LICENSE_TERMS,
    homepage="https://huggingface.co/datasets/thunder-research-group/SNU_Thunder-NUBench",
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
        "own words (46 test items, 10 demonstrations, 20 sentence/negation pairs). The official release, "
        "Thunder-NUBench, is published on the Hugging Face Hub (thunder-research-group/SNU_Thunder-NUBench; "
        "the paper counts 3,772 sentence/negation pairs, 50 demonstrations and 1,261 test items); NegHub "
        "scores on this sample until it has pinned that release."
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
    official_release=OFFICIAL_RELEASE,
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
        licensing=(
            "CC BY-NC-SA 4.0, as the NUBench paper states (Ethics statement) and the Hub release declares; "
            "NegHub's sample is published under the same terms."
        ),
        limitations=(
            "English only; sentences come from Wikipedia-style factual prose.",
            "Which option is the standard negation rests on the paper's operational definition (Table 2), "
            "which natural-language coordination does not always fit unambiguously.",
        ),
    ),
)
