"""How the leaderboard shows SCN: the negation contrast as the headline, each variant's drops, and the verdict,
NegHub's reading of the paper's criterion (criterion.py), with the paper's sentences it rests on."""

from __future__ import annotations

from ...core.benchmark import (
    BoardNote,
    ChartSeries,
    ChartSpec,
    Display,
    Headline,
    HeadlineBoard,
    MetricDisplay,
    PrimaryBoard,
)
from ...papers.quotes import quote
from .criterion import READINGS, UNDECIDED, VERDICT_ORDER, Reading
from .metadata import PATTERNS, REFERENCE, VARIANTS

# the paper's sentences the verdict rule quotes, each where its comparison is stated
VERDICT_QUOTES = (
    "scn.criterion",
    "scn.roberta-large-controls",
    "scn.roberta-base-controls",
    "scn.cptv-control",
    "scn.roberta-large",
    "scn.roberta-base-significant",
    "scn.bert-large",
    "scn.noncoref-expectation",
    "scn.noncoref-small",
    "scn.intro-bert-large",
    "scn.conclusion-roberta-large",
    "scn.conclusion-roberta-base",
    "scn.limitation",
)


def quoted(key: str) -> str:
    return f"“{quote(key).text}”"


# The paper's own limitation (section 6, line 331), said wherever a causal language model is judged (a board note
# of the "causal" prompt style, Display.board_notes, and the verdict rule): NegHub's verdict of a causal model is
# NegHub's extension of a test the paper designed for masked models only.
CAUSAL_LIMITATION = (
    "A causal (generative) language model is judged on a board of its own, by NegHub's extension of the test: the "
    f"paper's test is for masked language models, section 6: {quoted('scn.limitation')}"
)


def _reading_words(reading: Reading) -> str:
    own = f" NegHub's own: {reading.own}." if reading.own else ""
    return f"{reading.words}: {reading.reading} ({reading.lines}).{own}"


VERDICT_RULE = (
    "NegHub's reading of the paper's criterion (sections 3.5 and 4): the base test and the coreference controls "
    f"together, as the paper's conclusion judges its four models. Section 3.5: {quoted('scn.criterion')} Section 4 "
    f"(Tables 8 and 9): {quoted('scn.noncoref-expectation')} and {quoted('scn.noncoref-small')} The paper gives "
    "no number for any of these words; its small and large are relative, one drop beside another (it calls "
    f"roberta-large's CnTn drop of 43.5 small, {quoted('scn.roberta-large')}, and its coref drop of 28.9 large, "
    f"{quoted('scn.roberta-large-controls')}). Each word as NegHub reads it, with the lines it rests on and the "
    "numbers that are NegHub's own: "
    + " ".join(_reading_words(reading) for reading in READINGS)
    + " Where the paper disagrees with itself, NegHub names the line it follows. Of bert-large, line 72 says "
    f"{quoted('scn.intro-bert-large')}, and line 250 {quoted('scn.bert-large')} NegHub follows line 246 with "
    "Table 6 (its CpTn 44.7 beside its CpTv 42.9): bert-large's base test fails. Line 252 reads roberta-base's "
    f"drops with figures Table 6 does not print, {quoted('scn.roberta-base-significant')} NegHub reads Table 6's "
    "figures (CpTn 27.7, CnTp 66.9, CpTv 23.3) as line 252 reads its own: only CnTp's drop is strong. Of "
    f"roberta-base's coref drops (3.9 and 12.6), line 311: {quoted('scn.roberta-base-controls')}"
    + " Each comparison is a 95 % interval, never a point estimate: two patterns of a variant are compared over the "
    "same triplets (paired), two variants unpaired (each selects its own triplets), and every interval counts the "
    "triplets of one name and profession, and of one verb, as the clusters they are (the effective sample size: "
    "the triplets divided by the design effect, clustered both ways). The verdict's parts are the base test (its "
    "negated drops) and its three controls, the CpTv veto (section 3.3: "
    f"{quoted('scn.cptv-control')}), the coref variant and the non-coreference variants. Passes: both base drops "
    "strong, the coref variant confirming, every non-coreference drop small (section 5: "
    f"{quoted('scn.conclusion-roberta-large')}); partially passes: no veto and at least one strong base drop, the "
    f"rest not all confirmed (section 5: {quoted('scn.conclusion-roberta-base')}); fails: the veto, or no strong "
    "base drop. A file without the coref and noncoref variants is at most partially passes. A comparison whose "
    "95 % interval straddles it is undecided, and a verdict an undecided comparison could change is inconclusive "
    "(not ranked). The negation contrast, min(CpTn, CnTp) − max(CnTn, CpTv), is NegHub's statistic; on paper rows "
    f"NegHub computes it from the paper's drops. {CAUSAL_LIMITATION}"
)

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
        "negated patterns stop the repetition than the controls do (a statistic of NegHub's; the verdict — passes, "
        "partially passes, fails, inconclusive — is NegHub's reading of the paper's criterion, sections 3.5 and 4)",
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
    primary_board=PrimaryBoard(
        split=None,
        shots=None,
        prompt="masked",
        why="The paper's test is a cloze test of masked language models; causal language models are NegHub's "
        "extension, on a board of their own.",
    ),
    # Table 6 prints the base test's four drops, not the negation contrast (NegHub's): the home page shows those,
    # its models in the order of the paper's words (l.256: the roberta models better than bert, the large version
    # of each family better; l.323: bert-large "a little better at first sight" than bert-base)
    headline_board=HeadlineBoard(
        table="Table 6",
        shots=None,
        finding="scn.conclusion-roberta-large",
        figures=tuple(f"variants.pronoun.patterns.{p}.drop" for p in ("CpTn", "CnTp", "CnTn", "CpTv")),
        order=("roberta-large", "roberta-base", "bert-large-cased", "bert-base-cased"),
        order_quotes=("scn.large-performs-better", "scn.conclusion-bert"),
    ),
    verdict_path="verdict",
    verdict_reason_path="verdict_reason",
    verdict_rule=VERDICT_RULE,
    verdict_order=VERDICT_ORDER,
    verdict_unranked=(UNDECIDED,),
    verdict_quotes=VERDICT_QUOTES,
    board_notes=(BoardNote(prompt="causal", words=CAUSAL_LIMITATION),),
)
