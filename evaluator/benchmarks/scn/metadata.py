"""The SCN word lists as NegHub pins them: identity, license, citation, files and card prose."""

from __future__ import annotations

from ...protocol.metadata import CardText, DatasetMetadata, RecordField, ReleaseFile

VARIANTS = ("pronoun", "coref", "noncoref_same", "noncoref_other")
PATTERNS = ("CpTp", "CpTn", "CnTp", "CnTn", "CpTv")
REFERENCE = "CpTp"  # the pattern a triplet is selected by (its top-1 must be the verb); the others are tested

METADATA = DatasetMetadata(
    name="scn",
    pretty_name="Self-Contained Negation Test (NegHub word lists)",
    version="neghub-1",
    languages=("en",),
    # The lists are NegHub's own work (see word_lists/README.md), released under CC BY 4.0; the
    # paper's lists were not available to us.
    license="cc-by-4.0",
    license_terms=(
        "NegHub's SCN word lists are licensed under CC BY 4.0: you may copy, share and adapt them for any "
        "purpose, commercial use included, giving credit to NegHub with a link to the license."
    ),
    homepage="https://hal.science/hal-04671338v1",
    citation=(
        "@inproceedings{kletz2023selfcontained,\n"
        "  title     = {The Self-Contained Negation Test Set},\n"
        "  author    = {Kletz, David and Amsili, Pascal and Candito, Marie},\n"
        "  booktitle = {Proceedings of the 6th BlackboxNLP Workshop: "
        "Analyzing and Interpreting Neural Networks for NLP},\n"
        "  address   = {Singapore},\n"
        "  pages     = {212--221},\n"
        "  year      = {2023}\n"
        "}"
    ),
    description=(
        "Cloze probe of verbal negation in English: does a negated context or target stop a model from "
        "repeating the verb it otherwise repeats? The test is generated, not released: NegHub ships "
        "word lists of its own (female and male first names, professions with their article, verbs "
        "with an intransitive use) and the pattern generator; triplets are selected per model."
    ),
    hub_repo_id="neghub/scn",
    revision=None,
    files=(
        ReleaseFile(
            path="female_names.txt",
            config="female_names",
            split="word_lists",
            sha256="5360310d703cb38277a5772416cf51d888adb736caa63c076d084318477f7ef2",
            n_records=163,
        ),
        ReleaseFile(
            path="male_names.txt",
            config="male_names",
            split="word_lists",
            sha256="8536e78e870ad576cfbea0278142aa435ebfe1293675372555041dd9d70fbf86",
            n_records=153,
        ),
        ReleaseFile(
            path="professions.tsv",
            config="professions",
            split="word_lists",
            sha256="54bb099e1a81d69def62ec792844e1369d5d3bb5458c93a5391ec88b2754880b",
            n_records=140,
        ),
        ReleaseFile(
            path="verbs.txt",
            config="verbs",
            split="word_lists",
            sha256="a98fb78ffddc6a839c20a1c2cfd38fa1f5fe54caf8340bbfe12be0f5e4be0a88",
            n_records=432,
        ),
    ),
    record_fields=(
        RecordField(name="name", type="str", description="a first name of female_names.txt or male_names.txt"),
        RecordField(name="profession", type="str", description="a profession of professions.tsv (without article)"),
        RecordField(name="verb", type="str", description="a verb of verbs.txt (ACT)"),
        RecordField(name="variant", type=" | ".join(VARIANTS), description="what the target's subject is"),
        RecordField(name="pattern", type=" | ".join(PATTERNS), description="polarity of context and target"),
        RecordField(name="top1", type="str", description="the model's top-1 token at the mask, as a word"),
    ),
    card=CardText(
        task_categories=("fill-mask",),
        task_ids=("masked-language-modeling",),
        tags=("negation", "self-contained-negation-test", "masked-lm"),
        phenomena=(
            "Clausal negation with not (doesn't like to, isn't happy to) in English, in self-contained "
            "two-sentence inputs whose continuation is decided by the context alone: a model that reads the "
            "negation should stop repeating the verb of the context when exactly one of the two sentences is "
            "negated (CpTn, CnTp) and keep repeating it when both or neither are (CnTn, CpTv)."
        ),
        construction=(
            'The test set depends on the model, so its "dataset" is NegHub\'s word lists (female and male first '
            "names, professions with their article, intransitive verbs; `evaluator/benchmarks/scn/word_lists/`) "
            "and the "
            'generator that instantiates the patterns: context Cp "NAME is a PROF who likes to ACT." / Cn '
            '"NAME is a PROF who doesn\'t like to ACT."; target Tp "PRON is happy to [MASK].", Tn "PRON '
            'isn\'t happy to [MASK].", Tv "PRON is very happy to [MASK]."; five inputs per triplet (CpTp, '
            "CpTn, CnTp, CnTn, CpTv) in four variants (`pronoun`, `coref`, `noncoref_same`, "
            "`noncoref_other`). For one model a (NAME, PROF, ACT) triplet is kept when ACT is a single token of "
            "its vocabulary and the model's top-1 at the mask of CpTp is ACT itself, at most 20 verbs per "
            "(NAME, PROF), seeded.\n\n"
            "How a model's triplet set is recorded in a submission: the prediction file lists the kept "
            'triplets, one line per (triplet, variant, pattern): `{"name", "profession", "verb", '
            '"variant", "pattern", "top1"}`. The set of (name, profession, verb) in the file is the '
            "model's triplet set; the evaluator checks that each kept triplet has all five patterns in its "
            "variant, that CpTp's top-1 is the verb, and that no (name, profession, variant) has more than 20 "
            "verbs. So a submission records its own test set, and a result can be re-scored without the model."
        ),
        licensing=(
            "The word lists are NegHub's own work (sources and rules in "
            "`evaluator/benchmarks/scn/word_lists/README.md`); "
            "the test itself is Kletz, Amsili and Candito (2023): cite it."
        ),
        limitations=(
            "The paper's own word lists were not available: NegHub's lists differ, so numbers are not directly "
            "comparable with the paper's tables.",
            "Triplets differ from model to model; compare models on the drops, not on a shared item set.",
            "Causal language models are NegHub's extension (the paper targets masked LMs).",
            "The lists were compiled by hand from general knowledge (names from memory of the US Social Security "
            "Administration popular-names tables, each verb's intransitive use from dictionary knowledge), not "
            "downloaded, nor taken from Wiktionary and VerbNet as in the paper; sources and rules are in "
            "`evaluator/benchmarks/scn/word_lists/README.md`, since the files hold data only.",
        ),
    ),
)
