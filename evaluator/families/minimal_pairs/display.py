"""How the leaderboard shows a minimal-pair benchmark: ranked by Acc′ on M_i, with the pair sets' figures, the
flip rates and two charts."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.benchmark import ChartSeries, ChartSpec, Display, Headline, HeadlineBoard, MetricDisplay, PrimaryBoard


def minimal_pair_display(
    name: str,
    summary: str,
    extra_columns: Sequence[MetricDisplay] = (),
    primary_board: PrimaryBoard | None = None,
    ignored_negation: str | None = None,
    headline_board: HeadlineBoard | None = None,
) -> Display:
    """The display block every minimal-pair benchmark shares (SPEC §1): ranked by Acc′ on M_i, the
    accuracy once the cue that changes the gold is added."""
    columns: list[MetricDisplay] = []
    for pair_set in ("M_i", "M_u", "M"):
        base = f"pair_metrics.{pair_set}"
        columns += [
            MetricDisplay(path=f"{base}.acc", label=f"{pair_set} Acc"),
            MetricDisplay(path=f"{base}.acc_prime", label=f"{pair_set} Acc′"),
            MetricDisplay(
                path=f"{base}.acc_chg", label=f"{pair_set} AccChg", unit="points", ci_path=f"{base}.acc_chg_ci95"
            ),
        ]
    columns += [
        MetricDisplay(path="instance_metrics.D_orig.acc", label="D_orig acc"),
        MetricDisplay(path="instance_metrics.D_neg.acc", label="D_neg acc"),
        MetricDisplay(
            path="pair_metrics.M_i.ignored_rate",
            label="negation ignored (M_i)",
            description="pairs of M_i whose prediction did not change although the gold did",
        ),
        MetricDisplay(
            path="pair_metrics.M_u.distracted_rate",
            label="distracted (M_u)",
            description="pairs of M_u whose prediction changed although the gold did not",
        ),
        *extra_columns,
    ]
    return Display(
        name=name,
        summary=summary,
        headline=Headline(
            path="pair_metrics.M_i.acc_prime",
            label="M_i Acc′",
            unit="percent",
            ci_path="pair_metrics.M_i.acc_prime_ci95",
            higher_is_better=True,
            description="accuracy on the treatments of the pairs whose gold the added cue changes",
        ),
        columns=tuple(columns),
        key_columns=("pair_metrics.M_i.acc_chg", "pair_metrics.M_i.ignored_rate"),
        charts=(
            ChartSpec(
                kind="dot_interval",
                title="AccChg on M_i and M_u",
                unit="points",
                series=(
                    ChartSeries(
                        label="M_i (gold changes)",
                        path="pair_metrics.M_i.acc_chg",
                        ci_path="pair_metrics.M_i.acc_chg_ci95",
                    ),
                    ChartSeries(
                        label="M_u (gold unchanged)",
                        path="pair_metrics.M_u.acc_chg",
                        ci_path="pair_metrics.M_u.acc_chg_ci95",
                    ),
                ),
                x_title="AccChg = Acc′ − Acc (points)",
            ),
            ChartSpec(
                kind="scatter",
                title="Acc against Acc′",
                series=(
                    ChartSeries(label="M_i", path="pair_metrics.M_i.acc_prime", x_path="pair_metrics.M_i.acc"),
                    ChartSeries(label="M_u", path="pair_metrics.M_u.acc_prime", x_path="pair_metrics.M_u.acc"),
                ),
                x_title="Acc (control)",
                y_title="Acc′ (treatment)",
            ),
        ),
        max_ci_half_width=0.10,
        prompt_styles=("llm-jp-eval", "llm-jp-eval-loglikelihood", "fine-tuned"),
        primary_board=primary_board,
        ignored_negation=ignored_negation,
        headline_board=headline_board,
    )
