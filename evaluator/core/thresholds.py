"""Thresholds that both the leaderboard and the evaluator's commands state: kept here, below both (the runners
may not import the leaderboard), so that a trial's warning and the board's rule cannot drift apart."""

from __future__ import annotations

# a run is ranked only where at least this share of its answers parse: below half, most of the score is the
# parser's, not the model's (leaderboard/verdicts.py states why on the Ranking rules page)
PARSED_SHARE_MIN = 0.5
