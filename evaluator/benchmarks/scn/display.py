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
from .criterion import CPTV_VETO, MIN_STRONG_DROP, UNDECIDED, VERDICT_ORDER
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


VERDICT_RULE = (
    "NegHub's reading of the paper's criterion (sections 3.5 and 4): the base test and the coreference controls "
    f"together, as the paper's conclusion judges its four models. Section 3.5: {quoted('scn.criterion')} "
    "In the base test (pronoun) and the forced-coreference variant (coref), a negated pattern (CpTn, CnTp) drops "
    "strongly when its drop is above the same variant's CpTv drop and above its CnTn drop, each by a paired "
    "comparison over the same triplets (Newcombe's interval of the difference), and above "
    f"{100 * MIN_STRONG_DROP:.0f} points: section 4 calls roberta-large's coref drop of 28.9 large, "
    f"{quoted('scn.roberta-large-controls')}, and not roberta-base's of 3.9 and 12.6, "
    f"{quoted('scn.roberta-base-controls')} A CpTv drop above {100 * CPTV_VETO:.0f} points vetoes the variant's "
    f"drops, and in the base test fails the model (section 3.3: {quoted('scn.cptv-control')}): the paper accepts "
    f"CpTv drops of 26.0, {quoted('scn.roberta-large')}, and 21.3, {quoted('scn.roberta-base-significant')}, and "
    f"refuses 42.9, {quoted('scn.bert-large')} In the forced non-coreference variants (noncoref_same, "
    "noncoref_other) a negated drop is small when the upper end of its 95 % interval is below the "
    f"{100 * MIN_STRONG_DROP:.0f}-point minimum of a strong drop and it is below the base test's (pronoun) drop of "
    "the same pattern, by an unpaired comparison (each variant selects its own triplets; Newcombe's interval), "
    f"section 4: {quoted('scn.noncoref-expectation')} and, across Table 6, {quoted('scn.noncoref-small')} The "
    "verdict's parts are the base test (its negated drops) and its three controls, the CpTv veto, the coref variant "
    "and the non-coreference variants, as the introduction reads bert-large: "
    f"{quoted('scn.intro-bert-large')} Passes: both base drops strong, both coref drops strong, every "
    f"non-coreference drop small (section 5: {quoted('scn.conclusion-roberta-large')}); partially passes: no veto "
    "and at least one strong base drop, the rest not all confirmed (section 5: "
    f"{quoted('scn.conclusion-roberta-base')}); fails: the veto, or no strong base drop. A file without the coref "
    "and noncoref variants is at most partially passes. A comparison whose 95 % interval straddles it is "
    "undecided, and a verdict an undecided comparison could change is inconclusive (not ranked). The negation "
    "contrast, min(CpTn, CnTp) − max(CnTn, CpTv), is NegHub's statistic; on paper rows NegHub computes it from "
    f"the paper's drops. {CAUSAL_LIMITATION}"
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
