"""No row NegHub did not run has a rank, a leader line or a best, in the leaderboard file, the pages or the downloads
(issue 37's first "Done when"), and a row NegHub re-ran ranks by NegHub's figure with the difference marked: one
build of a git history GitHub could have produced, on the real JNLI-Neg validation split (skipped without it).

- NegHub's run ("Maintained 70", org/maintained), pushed by the maintainers, cleared above the published best;
- @carol's "Claim 95" (pull request #1): 95 % right, never run by NegHub: listed, queue position 1;
- @dora's "Dora" (pull request #2): submitted 95 % right; NegHub's re-run of org/dora kept answers 55 % right
  (a schema-5 record pushed by the maintainers, its answers at reproductions/dora/<run.file>): ranked by NegHub's
  figure, the submitter's beside it, "differs on k items, beyond the drift its setting allows";
- @erin's row, whose record's kept answers were changed after it was written: not run by NegHub, listed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from pathlib import Path

from neghub.evaluator.benchmarks import jnli_neg
from tests.histories import Main, build, clearances_yaml, hub_model, jnli_run, submission
from tests.reproduction_records import landed_record, landed_rerun

LABELS = jnli_neg.LABELS


def model(split: tuple[list[int], list[str]], share: float, seed: int) -> dict[int, str | None]:
    """Gold on a seeded random `share` of the instances, the next label after the gold elsewhere."""
    rng = random.Random(seed)
    ids, gold = split
    return {i: g if rng.random() < share else LABELS[(LABELS.index(g) + 1) % 3] for i, g in zip(ids, gold, strict=True)}


def test_no_unrun_row_has_a_rank_anywhere_and_a_rerun_ranks_by_neghubs_figure(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main = Main.create(tmp_path / "repo")
    run = jnli_run(model(split, 0.70, 1))
    main.push(
        "NegHub's run",
        submission("maintained", hub_model("Maintained 70", "org/maintained", "1" * 40), "neghub", [run]),
    )
    main.push(
        "Clear NegHub's run",
        {
            "clearances.yaml": clearances_yaml(
                "maintained", ["above-published-best"], "neghub-maint", "2026-11-28", "checked"
            )
        },
    )
    claim = submission(
        "claim-95", hub_model("Claim 95", "org/claim", "2" * 40), "carol", [jnli_run(model(split, 0.95, 2))]
    )
    main.merge(1, "carol", claim)
    main.merge(
        2,
        "dora",
        submission("dora", hub_model("Dora", "org/dora", "3" * 40), "dora", [jnli_run(model(split, 0.95, 3))]),
    )
    kept_run, kept_text = jnli_run(model(split, 0.55, 4))
    record = json.loads(landed_record(main.root, "dora"))
    record["schema_version"] = 5
    for entry in record["runs"]:
        entry["rerun_file"] = entry["file"]
        entry["rerun_sha256"] = hashlib.sha256(kept_text.encode()).hexdigest()
        entry["items_not_in_file"] = 0
    main.push(
        "NegHub's re-run of dora",
        {
            "reproductions/dora.json": json.dumps(record, indent=1) + "\n",
            f"reproductions/dora/{kept_run['file']}": kept_text,
        },
    )
    # @erin's record names kept answers other than those it landed: her row stays unrun
    erin = submission("erin", hub_model("Erin", "org/erin", "5" * 40), "erin", [jnli_run(model(split, 0.6, 5))])
    main.merge(3, "erin", erin)
    forged = {k: v for k, v in landed_rerun(main.root, "erin").items()}
    kept_path = next(k for k in forged if k.startswith("reproductions/erin/"))
    forged[kept_path] = str(forged[kept_path]).replace('"prediction": "neutral"', '"prediction": "entailment"', 5)
    main.push("NegHub's re-run of erin, its kept answers changed after", dict(forged))
    site = build(main.root)
    file = site.file()
    ran = {r["row"] for r in file["rows"] if r["trust"] in ("neghub-run", "reproduced")}
    for row in file["rows"]:
        if row["row"] not in ran:
            assert row["rank"] is None and row["status"] != "ranked", row
    for leader in file["leaders"]:
        assert leader["row"] in (None, *ran) and leader["runner_up"] in (None, *ran)
    entries = {r["submission"]: r for r in file["rows"] if r["kind"] == "verified"}
    assert entries["claim-95"]["status"] == "listed" and entries["claim-95"]["queue_position"] == 1
    assert [q["submission"] for q in file["queue"]] == ["claim-95", "erin"]
    dora = entries["dora"]
    assert dora["status"] == "ranked" and dora["trust"] == "reproduced"
    assert dora["submitted_headline"] > 0.85 and dora["headline"] < 0.65  # NegHub's figure ranks, the claim beside it
    assert any("beyond the drift its setting allows" in mark for mark in dora["marks"])
    erin_row = entries["erin"]
    assert erin_row["status"] == "listed" and "not the file NegHub's record names" in (erin_row["reproduction"] or "")
    # the page: the claim is unnumbered and says why; Dora's row carries a rank
    rows = site.rows("jnli-neg", "valid split · 0-shot · prompt llm-jp-eval · chat template: no")
    assert not rows["Claim 95"][:1].isdigit() and "queue position 1" in rows["Claim 95"], rows["Claim 95"]
    assert rows["Dora"][:1].isdigit(), rows["Dora"]
    # the download: no rank on the claim
    slug = entries["claim-95"]["board"]
    table = site.pages[f"data/{slug}.csv"]
    reader = csv.DictReader(io.StringIO(table if isinstance(table, str) else table.decode()))
    by_id = {r["submission_id"]: r for r in reader}
    assert by_id["claim-95"]["rank_low"] == "" and by_id["claim-95"]["status"] == "listed"
    assert by_id["dora"]["rank_low"] != ""
