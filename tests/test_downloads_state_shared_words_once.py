"""The downloads state what every listed row shares once, not on each line (issue 37, item 6: the site's size).

A benchmark CSV repeats its row's fields on each of the row's figures; the not-run rule's explanation (250
characters) was on every line of every listed row, a third of the file at a hundred submissions. The downloads keep
the row's own words (its queue position, or why it is not queued); the whole sentence stays the row's `why` in the
leaderboard file, and the schemas' `unranked` states the explanation.
"""

from __future__ import annotations

from neghub.leaderboard.contract import BOARD_SCHEMA, LONG_SCHEMA, site_schemas
from neghub.leaderboard.exports import short_reason
from neghub.leaderboard.verdicts import rule_for

EXPLANATION = (
    "Only a figure NegHub computed from its own run's answers is ranked; a submitted row is listed, unnumbered, "
    "with the submitter's figure until NegHub runs it."
)


def test_a_listed_rows_download_keeps_its_queue_position_without_the_shared_explanation() -> None:
    why = rule_for("not-run").say(queue="submitted, not run by NegHub yet: queue position 14")
    assert why == "submitted, not run by NegHub yet: queue position 14. " + EXPLANATION
    assert short_reason(why) == "submitted, not run by NegHub yet: queue position 14"


def test_another_rules_reason_is_written_whole() -> None:
    why = "Its headline's 95 % interval says too little to rank: it has none."
    assert short_reason(why) == why
    assert short_reason(None) is None


def test_the_schemas_state_the_explanation_the_downloads_leave_out() -> None:
    schemas = site_schemas()
    for name in (BOARD_SCHEMA, LONG_SCHEMA):
        description = " ".join(schemas[name]["properties"]["unranked"]["description"].split())
        assert EXPLANATION[0].lower() + EXPLANATION[1:-1] in description, name
        assert "data/leaderboard.json" in description, name


def test_the_long_format_leaves_the_board_title_to_the_leaderboard_file() -> None:
    schemas = site_schemas()
    assert "board_title" not in schemas[LONG_SCHEMA]["properties"]
    assert "title" in schemas["leaderboard.schema.json"]["$defs"]["BoardEntry"]["properties"]
