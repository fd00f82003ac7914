"""How the leaderboard shows SCN: the negation contrast as the headline, each variant's drops, the paper's verdict."""

from __future__ import annotations

from ...core.benchmark import ChartSeries, ChartSpec, Display, Headline, MetricDisplay, PrimaryBoard
from .metadata import PATTERNS, REFERENCE, VARIANTS
from .scoring import CONTROL_MARGIN, CPTV_VETO, STRONG_DROP

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
        "partially passes, fails — is the paper's reading of the four drops)",
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
    verdict_path="verdict",
    verdict_reason_path="variants.pronoun.verdict_reason",
    verdict_rule=(
        "the paper's reading of the four drops (section 3.3): a negated pattern (CpTn, CnTp) shows the effect when "
        f"its drop is strong, {100 * STRONG_DROP:.0f} points or more, exceeds the CpTv control's by "
        f"{100 * CONTROL_MARGIN:.0f} points and exceeds CnTn's; a CpTv drop of {100 * CPTV_VETO:.0f} points or more "
        "fails the model (it \"would prevent any positive interpretation\"). Both patterns: passes; one: partially "
        "passes; none: fails. These values give the paper's verdicts on its Table 6 (bert-base-cased fails, "
        "bert-large-cased fails, roberta-base partially passes, roberta-large passes). The negation contrast, "
        "min(CpTn, CnTp) − max(CnTn, CpTv), is NegHub's statistic; on paper rows it is computed by NegHub from the "
        "paper's drops"
    ),
)
