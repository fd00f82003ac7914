"""The Self-Contained Negation Test: word lists, generator, prediction checks and scores, worked out by hand."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neghub.evaluator.benchmarks import scn
from neghub.evaluator.core.errors import InputError, Problem
from neghub.evaluator.core.stats import BootstrapConfig

from .conftest import flat_result

PATTERNS = ("CpTp", "CpTn", "CnTp", "CnTn", "CpTv")


def row(name: str, profession: str, verb: str, variant: str, pattern: str, top1: str) -> dict[str, Any]:
    return {"name": name, "profession": profession, "verb": verb, "variant": variant, "pattern": pattern, "top1": top1}


def triplet(name: str, profession: str, verb: str, variant: str, repeats: str = "11111") -> list[dict[str, Any]]:
    """Five lines, one per pattern in PATTERNS order; repeats[i] == "1" means that pattern's top-1 is the verb."""
    return [
        row(name, profession, verb, variant, pattern, verb if flag == "1" else "sleep")
        for pattern, flag in zip(PATTERNS, repeats, strict=True)
    ]


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# --- word lists -------------------------------------------------------------------------------


def test_word_lists_load_with_the_counts_the_card_states() -> None:
    lists = scn.load_word_lists()
    # word_lists/README.md: 163 female, 153 male names, 140 professions, 432 verbs
    assert (len(lists.female_names), len(lists.male_names), len(lists.professions), len(lists.verbs)) == (
        163,
        153,
        140,
        432,
    )
    assert lists.female_names[0] == "Mary" and lists.male_names[0] == "James"
    assert lists.articles["engineer"] == "an" and lists.articles["urologist"] == "a"
    assert lists.gender("Mary") == "female" and lists.gender("James") == "male"
    assert [f.n_records for f in scn.METADATA.files] == [163, 153, 140, 432]


def test_a_changed_word_list_fails_its_sha256_pin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for f in scn.METADATA.files:
        shutil.copy(scn.WORD_LIST_DIR / f.path, tmp_path / f.path)
    with (tmp_path / "verbs.txt").open("a", encoding="utf-8") as handle:
        handle.write("zzzz\n")
    monkeypatch.setattr(scn.words, "WORD_LIST_DIR", tmp_path)  # where the lists are read from
    with pytest.raises(InputError, match="sha256 mismatch"):
        scn._load_word_lists.__wrapped__(False)
    # --unverified reads it anyway, with the extra verb
    assert scn._load_word_lists.__wrapped__(True).verbs[-1] == "zzzz"


def test_word_list_parsers_report_bad_lines() -> None:
    words, problems = scn.parse_word_list(Path("v.txt"), "swim\nswim\ntwo words\n\nsing\n")
    assert words == ("swim", "sing")
    assert [str(p) for p in problems] == [
        "v.txt:2: duplicate 'swim' (first on line 1)",
        "v.txt:3: expected one word of ASCII letters, got 'two words'",
        "v.txt:4: expected one word of ASCII letters, got ''",  # a blank line is a row to any other reader
    ]
    articles, problems = scn.parse_professions(Path("p.tsv"), "article\tprofession\nan\tengineer\nthe\tcook\n")
    assert articles == {"engineer": "an"}
    assert [str(p) for p in problems] == ["p.tsv:3: expected a|an<TAB>profession, got 'the\\tcook'"]


def test_word_list_parsers_refuse_comment_lines() -> None:
    """The lists hold data only: a `#` line is not skipped as a comment (datasets would load it as a row)."""
    words, problems = scn.parse_word_list(Path("v.txt"), "# verbs\nswim\n")
    assert words == ("swim",)
    assert [str(p) for p in problems] == [
        "v.txt:1: expected one word of ASCII letters, got '# verbs' "
        "(the lists hold data only; notes go in word_lists/README.md)"
    ]
    articles, problems = scn.parse_professions(Path("p.tsv"), "# jobs\narticle\tprofession\nan\tengineer\n")
    assert articles == {}
    assert [str(p) for p in problems] == ["p.tsv:1: expected the header article<TAB>profession on line 1, got '# jobs'"]
    articles, problems = scn.parse_professions(Path("p.tsv"), "article\tprofession\n# a note\na\tcook\n")
    assert articles == {"cook": "a"}
    assert [str(p) for p in problems] == ["p.tsv:2: expected a|an<TAB>profession, got '# a note'"]
    assert [str(p) for p in scn.parse_professions(Path("p.tsv"), "")[1]] == [
        "p.tsv:1: expected the header article<TAB>profession on line 1, got an empty file"
    ]


# The sha256s the word lists were pinned with when each file began with its `#` comment lines (METADATA
# of commit 55c0aa7). Those comments now sit in word_lists/README.md, quoted word for word: comments +
# today's file must give back the old bytes, so the words and their order cannot have changed.
PINS_WITH_COMMENTS = {
    "female_names.txt": "3aa9c081f78e6bb4868343cc84e0b04f1087ce7c3262b6815fb56fe389019896",
    "male_names.txt": "5336df21899f7af9471ea4943b63b1072261f1c4055a25fd02032a7083326455",
    "professions.tsv": "a34e97bffc64680a3ff74788799667a66445430fea438d8cd15af46707f41d9a",
    "verbs.txt": "0f8a2ca3d1094e21b07593cc8388385e092c8a6b28554741656211c74dd2e342",
}


def former_comment_lines(readme: str, file_name: str) -> str:
    """The `# ...` lines a file began with, from its quote under "Notes of each file" in the README."""
    block = readme.split(f"`{file_name}`:\n\n", 1)[1].split("\n\n", 1)[0]
    assert block.startswith("> "), block[:40]
    return "".join(f"#{line[1:]}\n" for line in block.split("\n"))


def test_the_word_lists_are_the_words_they_were_before_the_comments_left() -> None:
    readme = (scn.WORD_LIST_DIR / "README.md").read_text(encoding="utf-8")
    for file_name, old_sha256 in PINS_WITH_COMMENTS.items():
        data = (scn.WORD_LIST_DIR / file_name).read_bytes()
        rebuilt = former_comment_lines(readme, file_name).encode("utf-8") + data
        assert hashlib.sha256(rebuilt).hexdigest() == old_sha256, file_name
    # counted by hand in word_lists/README.md: 163 female, 153 male names, 140 professions, 432 verbs;
    # read here line by line, without the parser, and the parser gives back the same words in file order
    raw = {
        f.path: (scn.WORD_LIST_DIR / f.path).read_text(encoding="utf-8").removesuffix("\n").split("\n")
        for f in scn.METADATA.files
    }
    assert {path: len(lines) for path, lines in raw.items()} == {
        "female_names.txt": 163,
        "male_names.txt": 153,
        "professions.tsv": 1 + 140,  # the header, then one profession per line
        "verbs.txt": 432,
    }
    assert not any(line.startswith("#") or not line.strip() for lines in raw.values() for line in lines)
    assert raw["professions.tsv"][0] == "article\tprofession"
    lists = scn.load_word_lists()
    assert list(lists.female_names) == raw["female_names.txt"]
    assert list(lists.male_names) == raw["male_names.txt"]
    assert list(lists.verbs) == raw["verbs.txt"]
    assert [f"{a}\t{p}" for p, a in lists.articles.items()] == raw["professions.tsv"][1:]


# --- generator --------------------------------------------------------------------------------


def test_pronoun_variant_sentences_for_a_female_name_and_an_an_profession() -> None:
    assert scn.instantiate("Mary", "engineer", "swim", "pronoun", mask_token="[MASK]") == {
        "CpTp": "Mary is an engineer who likes to swim. She is happy to [MASK].",
        "CpTn": "Mary is an engineer who likes to swim. She isn't happy to [MASK].",
        "CnTp": "Mary is an engineer who doesn't like to swim. She is happy to [MASK].",
        "CnTn": "Mary is an engineer who doesn't like to swim. She isn't happy to [MASK].",
        "CpTv": "Mary is an engineer who likes to swim. She is very happy to [MASK].",
    }


def test_male_name_a_profession_and_roberta_mask() -> None:
    texts = scn.instantiate("James", "teacher", "dance", "pronoun", mask_token="<mask>")
    assert texts["CnTn"] == "James is a teacher who doesn't like to dance. He isn't happy to <mask>."
    # "a urologist": /ju/ takes "a" although it is spelled with a vowel
    assert scn.instantiate("James", "urologist", "dance", "pronoun", mask_token="<mask>")["CpTp"] == (
        "James is a urologist who likes to dance. He is happy to <mask>."
    )


def test_causal_models_get_the_target_cut_before_the_mask() -> None:
    texts = scn.instantiate("Mary", "teacher", "swim", "pronoun", mask_token=None)
    assert texts["CpTp"] == "Mary is a teacher who likes to swim. She is happy to"
    assert texts["CpTv"] == "Mary is a teacher who likes to swim. She is very happy to"


def test_coref_repeats_the_name() -> None:
    texts = scn.instantiate("Mary", "teacher", "swim", "coref", mask_token="[MASK]")
    assert texts["CpTn"] == "Mary is a teacher who likes to swim. Mary isn't happy to [MASK]."


def test_noncoref_names_a_different_person_of_the_right_gender_deterministically() -> None:
    lists = scn.load_word_lists()
    same = scn.other_name("Mary", "teacher", "noncoref_same", lists)
    other = scn.other_name("Mary", "teacher", "noncoref_other", lists)
    assert same != "Mary" and same in lists.female_names
    assert other in lists.male_names
    # the documented rule: sha256 of "seed\x1fvariant\x1fname\x1fprofession", first 8 bytes big-endian,
    # modulo the candidates (the female list without Mary)
    digest = hashlib.sha256(b"0\x1fnoncoref_same\x1fMary\x1fteacher").digest()
    candidates = [n for n in lists.female_names if n != "Mary"]
    assert same == candidates[int.from_bytes(digest[:8], "big") % len(candidates)]
    texts = scn.instantiate("Mary", "teacher", "swim", "noncoref_same", mask_token="[MASK]")
    assert texts["CnTp"] == f"Mary is a teacher who doesn't like to swim. {same} is happy to [MASK]."
    texts = scn.instantiate("Mary", "teacher", "swim", "noncoref_other", mask_token="[MASK]")
    assert texts["CpTp"] == f"Mary is a teacher who likes to swim. {other} is happy to [MASK]."
    # the same pair keeps its other name for every verb; the seed changes it for some pairs
    assert scn.instantiate("Mary", "teacher", "dance", "noncoref_same", mask_token="[MASK]")["CpTp"].startswith(
        "Mary is a teacher who likes to dance. " + same
    )
    pairs = [(n, p) for n in lists.female_names[:20] for p in lists.professions[:5]]
    assert any(
        scn.other_name(n, p, "noncoref_same", lists, 0) != scn.other_name(n, p, "noncoref_same", lists, 1)
        for n, p in pairs
    )


def test_generator_refuses_words_outside_the_lists() -> None:
    with pytest.raises(ValueError, match=r"neither female_names\.txt nor male_names\.txt"):
        scn.instantiate("Zorblax", "teacher", "swim", "pronoun", mask_token="[MASK]")
    with pytest.raises(ValueError, match=r"not in professions\.tsv"):
        scn.instantiate("Mary", "wizard", "swim", "pronoun", mask_token="[MASK]")


# --- scores, worked out by hand ---------------------------------------------------------------

# pronoun: 4 triplets. Flags per pattern (CpTp CpTn CnTp CnTn CpTv):
#   swim  1 1 0 1 1
#   dance 1 0 0 1 1
#   sing  1 0 0 1 1
#   cook  1 0 0 0 1
# repetition: CpTp 4/4 = 1, CpTn 1/4 = 0.25, CnTp 0/4 = 0, CnTn 3/4 = 0.75, CpTv 4/4 = 1
# drop:       CpTp 0,       CpTn 0.75,      CnTp 1,      CnTn 0.25,      CpTv 0
# contrast = min(0.75, 1) - max(0.25, 0) = 0.5
# coref: 2 triplets
#   swim  1 1 1 0 1
#   dance 1 1 0 1 1
# drop: CpTn 0/2 -> 0, CnTp 1/2 -> 0.5, CnTn 1/2 -> 0.5, CpTv 0
# contrast = min(0, 0.5) - max(0.5, 0) = -0.5
# verdict (criterion.py), by hand with z = 1.96: four triplets decide little.
#   The veto: CpTv drops 0 of 4, Wilson [0, z^2 / (4 + z^2)] = [0, 0.4899], which straddles 0.35: undecided.
#   CnTp drops 4 of 4, [0.5101, 1]: above the minimum 0.20. Against 1.4 x CpTv (dropped by none: only_a 4): phi =
#   0 (a margin is empty), d = 1, L = 1 - sqrt(0.4899^2 + (1.4 x 0.4899)^2) = 1 - 0.8429 = 0.157 > 0 (MOVER: the
#   second side's distance times 1.4; every triplet's 1 - 1.4 x 0 is 1, no design effect); against CnTn (cook
#   only: both 1, only_a 3): the triplets' differences (1, 1, 1, 0) share sources: residuals (1/4, 1/4, 1/4, -3/4),
#   sum e^2 = 3/4; by name/profession pair (Mary: swim, dance; James: sing, cook) sums 1/2 and -1/2, 2/1 x 1/2 = 1;
#   by verb and by both (each triplet alone) 4/3 x 3/4 = 1; Cameron-Gelbach-Miller 1 + 1 - 1 = 1, design effect
#   1 / (3/4) = 4/3: the counts become both 0.75, only_a 2.25 of n = 3. Wilson at 3 of 3: [3 / (3 + z^2), 1] =
#   [0.4385, 1]; at 0.75 of 3: centre (0.25 + z^2/6) / (1 + z^2/3) = 0.3904, half 0.3535, [0.0369, 0.7439];
#   phi = 0, d = 0.75, L = 0.75 - sqrt(0.5615^2 + 0.4939^2) = 0.0022 > 0. So CnTp's drop is strong, and only the
#   undecided veto stands between the file and a verdict other than "fails": inconclusive, the veto named.
HAND_ROWS = (
    triplet("Mary", "teacher", "swim", "pronoun", "11011")
    + triplet("Mary", "teacher", "dance", "pronoun", "10011")
    + triplet("James", "engineer", "sing", "pronoun", "10011")
    + triplet("James", "engineer", "cook", "pronoun", "10001")
    + triplet("Mary", "teacher", "swim", "coref", "11101")
    + triplet("Mary", "teacher", "dance", "coref", "11011")
)


def test_hand_computed_drops_through_the_command_line(tmp_path: Path, neghub: Any) -> None:
    path = write(tmp_path / "p.jsonl", HAND_ROWS)
    result = neghub("evaluate", "scn", path, "--json")
    assert result.code == 0, result.err
    out = flat_result(json.loads(result.out))
    assert out["task"] == "scn" and out["split"] is None and out["n_predictions"] == 30
    pronoun = out["variants"]["pronoun"]
    assert pronoun["n_triplets"] == 4
    assert {p: m["repetition"] for p, m in pronoun["patterns"].items()} == {
        "CpTp": 1.0,
        "CpTn": 0.25,
        "CnTp": 0.0,
        "CnTn": 0.75,
        "CpTv": 1.0,
    }
    assert {p: m["drop"] for p, m in pronoun["patterns"].items()} == {
        "CpTp": 0.0,
        "CpTn": 0.75,
        "CnTp": 1.0,
        "CnTn": 0.25,
        "CpTv": 0.0,
    }
    assert pronoun["negation_contrast"] == 0.5
    coref = out["variants"]["coref"]
    assert coref["n_triplets"] == 2
    assert {p: m["drop"] for p, m in coref["patterns"].items()} == {
        "CpTp": 0.0,
        "CpTn": 0.0,
        "CnTp": 0.5,
        "CnTn": 0.5,
        "CpTv": 0.0,
    }
    assert coref["negation_contrast"] == -0.5
    assert out["verdict"] == "inconclusive"
    assert out["verdict_reason"] == (
        "the base test's veto is undecided: pronoun CpTv drop 0.0 [0.0, 49.0] is undecided against the veto (35.0)"
    )
    assert out["verdict_comparisons"]["pronoun"]["CnTp"]["above_CpTv"]["difference_ci95"][0] == pytest.approx(
        0.157, abs=1e-3
    )
    assert out["verdict_comparisons"]["pronoun"]["CnTp"]["above_CnTn"]["difference_ci95"][0] == pytest.approx(
        0.0022, abs=2e-4
    )
    # the parts: the base test's CnTp is strong and its CpTn (3 of 4 against CnTn's 1 of 4) undecided, so the base
    # part is inconclusive; the CpTv control is the undecided veto
    assert out["verdict_parts"] == {
        "base": "inconclusive",
        "cptv": "inconclusive",
        "coref": "inconclusive",
        "noncoref": "not run",
    }
    absent = out["variants"]["noncoref_same"]
    assert absent["n_triplets"] == 0 and absent["patterns"]["CpTn"]["drop"] is None
    # drops are proportions of triplets: Wilson intervals. CpTv, 4 of 4 repeating: repetition [4 / (4 + z^2), 1],
    # so the drop's interval is [0, z^2 / (4 + z^2)] = [0, 0.4899], never [0, 0] however few the triplets
    z2 = 1.959963984540054**2
    assert pronoun["patterns"]["CpTv"]["drop_ci95"] == pytest.approx([0.0, z2 / (4 + z2)])
    assert z2 / (4 + z2) == pytest.approx(0.4899, abs=1e-4)
    # CpTn, 1 of 4 repeating: Wilson's centre (p + z^2/2n) / (1 + z^2/n), half z / (1 + z^2/n) sqrt(p(1-p)/n + z^2/4n^2)
    # at the effective n = 4 / (4/3) = 3: the repeats (1, 0, 0, 0) have residuals (3/4, -1/4, -1/4, -1/4), sum e^2 =
    # 3/4; by name/profession pair sums 1/2, -1/2 (2/1 x 1/2 = 1), by verb and by both 4/3 x 3/4 = 1: design effect
    # (1 + 1 - 1) / (3/4) = 4/3 (the CnTp-against-CnTn comparison above, the same figures)
    centre = (0.25 + z2 / 6) / (1 + z2 / 3)
    half = (z2**0.5) / (1 + z2 / 3) * (0.25 * 0.75 / 3 + z2 / 36) ** 0.5
    assert pronoun["patterns"]["CpTn"]["drop_ci95"] == pytest.approx([1 - (centre + half), 1 - (centre - half)])


def test_the_text_report_prints_percent(tmp_path: Path, neghub: Any) -> None:
    result = neghub("evaluate", "scn", write(tmp_path / "p.jsonl", HAND_ROWS))
    assert result.code == 0
    assert "pronoun: 4 triplets" in result.out
    # CpTn: repetition 25.00 %, drop 75.00 %
    assert "  CpTn          25.00   75.00" in result.out
    assert "negation contrast min(CpTn, CnTp) - max(CnTn, CpTv): 50.00 points [" in result.out
    assert "verdict: inconclusive (NegHub's reading of the paper's criterion, sections 3.5 and 4)" in result.out
    assert "  because the base test's veto is undecided: pronoun CpTv drop 0.0 [0.0, 49.0]" in result.out
    assert (
        "  base test (pronoun): inconclusive; CpTv control: inconclusive; coref control: inconclusive; noncoref "
        "controls: not run" in result.out
    )
    assert "noncoref_same: no triplets" in result.out


def test_the_negation_contrast_interval_resamples_triplets(tmp_path: Path) -> None:
    # 400 triplets: half answer ideally (repeat only in CpTp, CnTn, CpTv: "10011"), half never repeat the verb
    # after CpTp ("10000"). With q the share of "never" triplets, drops are CpTn = CnTp = 1 and CnTn = CpTv =
    # q, so the contrast is 1 - q = 0.5. Resampling 400 triplets, q is Binomial(400, 1/2) / 400 with SD
    # sqrt(.25 / 400) = 0.025: the 95% interval is 0.5 -+ 1.96 * 0.025 = [0.451, 0.549]. The interval also draws
    # whole name/profession pairs, and is the union of the two: here every name holds 5 of each outcome, so drawing
    # names never moves q, and the triplets' interval stands.
    rows = []
    for index in range(400):
        name, verb = f"name{index // 10}", f"verb{index % 10}"
        rows += triplet(name, "teacher", verb, "pronoun", "10011" if index % 2 == 0 else "10000")
    predictions = scn.load_predictions(write(tmp_path / "p.jsonl", rows))
    pronoun = scn.score(predictions, BootstrapConfig(resamples=4000))["variants"]["pronoun"]
    assert pronoun["negation_contrast"] == 0.5
    low, high = pronoun["negation_contrast_ci95"]
    assert low == pytest.approx(0.451, abs=0.01) and high == pytest.approx(0.549, abs=0.01)


def test_the_contrast_of_identical_triplets_has_no_interval(tmp_path: Path) -> None:
    # every triplet the same outcome: every resample is the same file, so a percentile bootstrap gives [c, c],
    # which would claim a certainty five triplets do not give: the result has no interval instead
    rows = [r for index in range(5) for r in triplet(f"name{index}", "teacher", "act", "pronoun", "10011")]
    pronoun = scn.score(scn.load_predictions(write(tmp_path / "p.jsonl", rows)), BootstrapConfig())["variants"][
        "pronoun"
    ]
    assert pronoun["negation_contrast"] == 1.0 and pronoun["negation_contrast_ci95"] is None


@settings(max_examples=40, deadline=None)
@given(outcomes=st.lists(st.sampled_from(["10000", "10011", "11111", "10101", "11010"]), min_size=1, max_size=60))
def test_the_contrast_interval_lies_within_the_contrasts_range(outcomes: list[str]) -> None:
    # any resample is a multiset of the file's triplets, so its contrast lies between the contrasts of the
    # extreme files: [-1, 1] always, and a single-outcome file gives back its own contrast
    import tempfile

    rows = [r for index, o in enumerate(outcomes) for r in triplet(f"name{index}", "teacher", "act", "pronoun", o)]
    with tempfile.TemporaryDirectory() as folder:
        predictions = scn.load_predictions(write(Path(folder) / "p.jsonl", rows))
    pronoun = scn.score(predictions, BootstrapConfig(resamples=200))["variants"]["pronoun"]
    if pronoun["negation_contrast_ci95"] is None:  # no spread to resample: a single outcome, or all alike
        assert len({_contrast_of(o) for o in outcomes}) == 1
        return
    low, high = pronoun["negation_contrast_ci95"]
    assert -1.0 <= low < high <= 1.0


def _contrast_of(outcome: str) -> float:
    """The contrast of a file whose every triplet has this outcome (bits CpTp CpTn CnTp CnTn CpTv)."""
    drops = {p: 1.0 - int(bit) for p, bit in zip(("CpTp", "CpTn", "CnTp", "CnTn", "CpTv"), outcome, strict=True)}
    return min(drops["CpTn"], drops["CnTp"]) - max(drops["CnTn"], drops["CpTv"])


def test_smollm2s_committed_run_does_not_pass(neghub: Any) -> None:
    # its CpTv control drops 61.25 %: any change disturbs it, which rules out a positive reading (section 3.3)
    root = Path(__file__).resolve().parent.parent
    result = neghub(
        "evaluate",
        "scn",
        root / "submissions/smollm2-135m-instruct/predictions/scn/scn-all-causal-0shot-seed0.jsonl",
        "--json",
    )
    assert result.code == 0, result.err
    out = flat_result(json.loads(result.out))
    # 49 of 80 triplets drop in CpTv: Wilson [0.503, 0.712] were they independent; they are 20 verbs of each of 4
    # name/profession pairs, so the interval is wider (clustered), and still all of it above the veto of 0.35
    cptv = out["variants"]["pronoun"]["patterns"]["CpTv"]
    assert cptv["drop"] == 49 / 80
    assert cptv["drop_ci95"][0] <= 0.503 and cptv["drop_ci95"][1] >= 0.712 and cptv["drop_ci95"][0] > 0.35
    assert out["verdict"] == "fails"
    assert out["verdict_reason"].startswith("the base test's veto: pronoun CpTv drop 61.3 [")


# --- malformed input: one line per problem, exit code 2 ---------------------------------------


def errors_of(neghub: Any, path: Path) -> list[str]:
    result = neghub("evaluate", "scn", path)
    assert result.code == 2
    assert result.out == ""
    return result.err.splitlines()


def test_a_missing_pattern(tmp_path: Path, neghub: Any) -> None:
    rows = triplet("Mary", "teacher", "swim", "pronoun")[:3] + triplet("Mary", "teacher", "dance", "pronoun")
    path = write(tmp_path / "p.jsonl", rows)
    assert errors_of(neghub, path) == [
        f"error: {path}:1: pattern: triplet ('Mary', 'teacher', 'swim') in variant pronoun lacks CnTn, CpTv "
        "(every kept triplet needs all of CpTp, CpTn, CnTp, CnTn, CpTv)"
    ]


def test_cptp_top1_not_the_verb_is_a_validation_error(tmp_path: Path, neghub: Any) -> None:
    # line 6 is the dance triplet's CpTp, whose top-1 here is "sleep"
    rows = triplet("Mary", "teacher", "swim", "pronoun") + triplet("Mary", "teacher", "dance", "pronoun", "01111")
    path = write(tmp_path / "p.jsonl", rows)
    assert errors_of(neghub, path) == [
        f"error: {path}:6: top1: CpTp top-1 is 'sleep', not the verb 'dance': the triplet was not selected "
        "(only triplets whose CpTp top-1 is the verb itself are kept; drop it from the file)"
    ]


def test_more_than_twenty_verbs_per_name_and_profession(tmp_path: Path, neghub: Any) -> None:
    verbs = scn.load_word_lists().verbs[:21]
    rows = [r for verb in verbs for r in triplet("Mary", "teacher", verb, "pronoun")]
    # the same 21 verbs in another variant are another pair: reported separately
    rows += [r for verb in verbs for r in triplet("Mary", "teacher", verb, "coref")]
    path = write(tmp_path / "p.jsonl", rows)
    # the 21st verb's first line: 20 triplets x 5 lines + 1 = 101; in coref, 105 + 100 + 1 = 206
    assert errors_of(neghub, path) == [
        f"error: {path}:101: verb: ('Mary', 'teacher') in variant pronoun has 21 verbs "
        "(at most 20 per name and profession)",
        f"error: {path}:206: verb: ('Mary', 'teacher') in variant coref has 21 verbs "
        "(at most 20 per name and profession)",
    ]
    # twenty is allowed
    assert neghub("evaluate", "scn", write(tmp_path / "ok.jsonl", rows[:100])).code == 0


def test_a_duplicate_line(tmp_path: Path, neghub: Any) -> None:
    rows = triplet("Mary", "teacher", "swim", "pronoun")
    rows.append(dict(rows[2]))  # CnTp again, on line 6
    path = write(tmp_path / "p.jsonl", rows)
    assert errors_of(neghub, path) == [
        f"error: {path}:6: pattern: duplicate prediction for the triplet ('Mary', 'teacher', 'swim') in variant "
        "pronoun, pattern CnTp (first on line 3)"
    ]


def test_unknown_variant_and_pattern(tmp_path: Path, neghub: Any) -> None:
    rows = triplet("Mary", "teacher", "swim", "pronoun")
    rows[1] = {**rows[1], "variant": "Pronoun"}
    rows[3] = {**rows[3], "pattern": "CnTv"}
    path = write(tmp_path / "p.jsonl", rows)
    # the completeness check waits until every line is readable, so only the two real problems show
    assert errors_of(neghub, path) == [
        f"error: {path}:2: variant: unknown variant 'Pronoun' (expected pronoun, coref, noncoref_same, noncoref_other)",
        f"error: {path}:4: pattern: unknown pattern 'CnTv' (expected CpTp, CpTn, CnTp, CnTn, CpTv)",
    ]


def test_wrong_types_missing_unknown_and_empty_fields(tmp_path: Path, neghub: Any) -> None:
    rows = triplet("Mary", "teacher", "swim", "pronoun")
    rows[0] = {**rows[0], "top1": 7}
    rows[1] = {**rows[1], "name": None}
    del rows[2]["verb"]
    rows[3] = {**rows[3], "score": 0.5}
    rows[4] = {**rows[4], "profession": " "}
    path = write(tmp_path / "p.jsonl", rows)
    assert errors_of(neghub, path) == [
        f"error: {path}:1: top1: expected a string, got an integer",
        f"error: {path}:2: name: expected a string, got null",
        f"error: {path}:3: verb: missing field",
        f"error: {path}:4: score: unknown field (expected only name, profession, verb, variant, pattern, top1)",
        f"error: {path}:5: profession: must not be empty",
    ]


def test_broken_json_and_empty_file(tmp_path: Path, neghub: Any) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"name": "Mary",\n', encoding="utf-8")
    assert errors_of(neghub, path) == [
        f"error: {path}:1: invalid JSON: Expecting property name enclosed in double quotes (column 17)"
    ]
    path.write_text("", encoding="utf-8")
    assert errors_of(neghub, path) == [f"error: {path}: no predictions (the file is empty)"]


def test_scn_has_no_split_and_only_its_own_baselines(tmp_path: Path, neghub: Any) -> None:
    path = write(tmp_path / "p.jsonl", HAND_ROWS)
    result = neghub("evaluate", "scn", path, "--split", "test")
    assert (result.code, result.err) == (2, "error: --split: scn has no splits (leave --split out)\n")
    result = neghub("baseline", "scn", "--kind", "majority", "-o", tmp_path / "b.jsonl")
    assert (result.code, result.err) == (
        2,
        "error: --kind: unknown baseline 'majority' for scn (expected repeat or never)\n",
    )
    assert not (tmp_path / "b.jsonl").exists()


# --- vocabulary (leaderboard) -----------------------------------------------------------------


def test_check_vocabulary_names_each_unknown_word_once(tmp_path: Path) -> None:
    rows = (
        triplet("Mary", "teacher", "swim", "pronoun")
        + triplet("Zorblax", "teacher", "swim", "pronoun")  # lines 6-10
        + triplet("Zorblax", "wizard", "teleport", "coref")  # lines 11-15
    )
    predictions = scn.load_predictions(write(tmp_path / "p.jsonl", rows), display_name="p.jsonl")
    assert [str(p) for p in scn.check_vocabulary(predictions)] == [
        "p.jsonl:6: name: 'Zorblax' is not in NegHub's female_names.txt / male_names.txt "
        "(the leaderboard accepts only NegHub's words)",
        "p.jsonl:11: profession: 'wizard' is not in NegHub's professions.tsv "
        "(the leaderboard accepts only NegHub's words)",
        "p.jsonl:11: verb: 'teleport' is not in NegHub's verbs.txt (the leaderboard accepts only NegHub's words)",
    ]
    ok = scn.load_predictions(write(tmp_path / "ok.jsonl", HAND_ROWS))
    assert scn.check_vocabulary(ok) == []


# --- baselines --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "drop"),
    [
        ("repeat", {p: 0.0 for p in PATTERNS}),
        ("never", {"CpTp": 0.0, "CpTn": 1.0, "CnTp": 1.0, "CnTn": 1.0, "CpTv": 1.0}),
    ],
)
def test_baselines(tmp_path: Path, neghub: Any, kind: str, drop: dict[str, float]) -> None:
    out = tmp_path / f"{kind}.jsonl"
    assert neghub("baseline", "scn", "--kind", kind, "-o", out).code == 0
    first = out.read_bytes()
    assert neghub("baseline", "scn", "--kind", kind, "-o", out, "--seed", "5").code == 0
    assert out.read_bytes() == first  # deterministic
    # 5 + 5 names x 4 professions x 20 verbs = 800 triplets per variant; x 4 variants x 5 patterns = 16,000
    assert len(first.splitlines()) == 16_000
    result = neghub("evaluate", "scn", out, "--json")
    assert result.code == 0, result.err
    scored = flat_result(json.loads(result.out))
    for entry in scored["variants"].values():
        assert entry["n_triplets"] == 800
        assert {p: m["drop"] for p, m in entry["patterns"].items()} == drop
    # repeat: CpTn drops 0 of 800 (Wilson upper bound z^2 / (800 + z^2) = 0.0048), under the minimum 0.20, and
    # so does CnTp: no strong base drop. never: CpTv drops 800 of 800 (lower bound 800 / (800 + z^2) = 0.995),
    # above the veto 0.35. Both fail.
    assert scored["verdict"] == "fails"
    assert scored["verdict_reason"].startswith("no strong drop" if kind == "repeat" else "the base test's veto")
    assert scn.check_vocabulary(scn.load_predictions(out)) == []


# --- properties -------------------------------------------------------------------------------

FLAGS = st.text(alphabet="01", min_size=4, max_size=4).map(lambda s: "1" + s)  # CpTp always repeats


@st.composite
def prediction_sets(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    names = ["Mary", "James", "Linda"]
    professions = ["teacher", "engineer"]
    verbs = ["swim", "dance", "sing", "cook"]
    chosen = draw(
        st.lists(
            st.tuples(
                st.sampled_from(names),
                st.sampled_from(professions),
                st.sampled_from(verbs),
                st.sampled_from(scn.VARIANTS),
            ),
            min_size=1,
            max_size=30,
            unique=True,
        )
    )
    flags = {key: draw(FLAGS) for key in chosen}
    rows = [r for key, f in flags.items() for r in triplet(*key, repeats=f)]
    by_variant: dict[str, list[str]] = {}
    for key, f in flags.items():
        by_variant.setdefault(key[3], []).append(f)
    return rows, by_variant


def score_rows(tmp_path: Path, rows: list[dict[str, Any]]) -> dict[str, Any]:
    path = write(tmp_path / "prop.jsonl", rows)
    return scn.score(scn.load_predictions(path), BootstrapConfig(resamples=50))


@settings(max_examples=40, deadline=None)
@given(data=prediction_sets(), seed=st.integers(0, 2**32 - 1))
def test_shuffling_lines_changes_no_score(tmp_path_factory: pytest.TempPathFactory, data: Any, seed: int) -> None:
    rows, _ = data
    tmp = tmp_path_factory.mktemp("shuffle")
    shuffled = list(rows)
    random.Random(seed).shuffle(shuffled)
    assert score_rows(tmp, rows) == score_rows(tmp, shuffled)


@settings(max_examples=40, deadline=None)
@given(data=prediction_sets())
def test_drops_are_the_share_of_non_repeats(tmp_path_factory: pytest.TempPathFactory, data: Any) -> None:
    rows, by_variant = data
    result = score_rows(tmp_path_factory.mktemp("drops"), rows)
    for variant, entry in result["variants"].items():
        flags = by_variant.get(variant, [])
        assert entry["n_triplets"] == len(flags)
        for i, pattern in enumerate(PATTERNS):
            m = entry["patterns"][pattern]
            if not flags:
                assert m["drop"] is None
                continue
            assert 0.0 <= m["drop"] <= 1.0
            assert m["drop"] == sum(f[i] == "0" for f in flags) / len(flags)
            assert m["repetition"] + m["drop"] == pytest.approx(1.0)
            low, high = m["drop_ci95"]
            assert 0.0 <= low <= m["drop"] <= high <= 1.0
        assert entry["patterns"]["CpTp"]["drop"] in (None, 0.0)


# --- the column-at-a-time reading of the usual file ----------------------------------------------

FIELDS = ("name", "profession", "verb", "variant", "pattern", "top1")


def test_flat_string_rows_takes_the_usual_file_in_any_one_key_order() -> None:
    from neghub.evaluator.fileio.jsonl import flat_string_rows

    usual = b'{"name": "Mary", "profession": "teacher", "verb": "swim", "variant": "pronoun", "pattern": "CpTp", '
    usual += b'"top1": "swim"}\n'
    assert flat_string_rows(usual + b"\n\n", FIELDS) == [("Mary", "teacher", "swim", "pronoun", "CpTp", "swim")]
    # compact separators, another key order, spaces and tabs inside and after, non-ASCII text:
    # the values come back in FIELDS order
    other = '{"top1":"x","verb":"naïve","pattern":"CnTn"\t, "variant":"coref","name":"Zoë","profession":"chef"} \n'
    rows = flat_string_rows(other.encode() * 2, FIELDS)
    assert rows == [("Zoë", "chef", "naïve", "coref", "CnTn", "x")] * 2


@pytest.mark.parametrize(
    "data",
    [
        b"",  # empty
        b'\xef\xbb\xbf{"name": "M"}\n',  # BOM
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\r\n',  # CRLF
        # an escape in a value: the text between the quotes is not the value
        b'{"name": "M\\u0061", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        # a blank line in the middle
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n\n'
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        # the second line changes the key order
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n'
        b'{"profession": "t", "name": "M", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        # a non-string value, a duplicate key, a missing key, an extra key
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": 1}\n',
        b'{"name": "M", "name": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        b'{"name": "M", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z", "k": "w"}\n',
        # a no-break space is not JSON whitespace; two objects on a line
        '{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\u00a0\n'.encode(),
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}'
        b'{"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        # space before the object (the line-by-line reader refuses it too)
        b' {"name": "M", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
        # a control character inside a value
        b'{"name": "M\x01", "profession": "t", "verb": "v", "variant": "x", "pattern": "y", "top1": "z"}\n',
    ],
)
def test_flat_string_rows_leaves_anything_unusual_to_the_exact_reader(data: bytes) -> None:
    from neghub.evaluator.fileio.jsonl import flat_string_rows

    assert flat_string_rows(data, FIELDS) is None


def _line_by_line(data: bytes) -> tuple[scn.Predictions, list[Any]]:
    from neghub.evaluator.fileio.jsonl import parse_jsonl

    content = parse_jsonl(data, "f.jsonl")
    problems = list(content.problems)
    predictions = scn._columns("f.jsonl", content.objects, problems)
    if not content.objects and not content.problems:
        problems.append(Problem("f.jsonl", None, None, "no predictions (the file is empty)"))
    return predictions, problems


def _same_predictions(a: scn.Predictions, b: scn.Predictions) -> None:
    for name in ("line", "variant", "pattern", "repeated", "triplet", "triplet_first_line", "triplet_pair"):
        left, right = getattr(a, name), getattr(b, name)
        assert left.dtype == right.dtype and left.tolist() == right.tolist(), name
    assert (a.triplet_keys, a.pair_keys, a.cptp_top1) == (b.triplet_keys, b.pair_keys, b.cptp_top1)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["Mary", "James", " ", "Zoë"]),
            st.sampled_from(["teacher", "engineer", ""]),
            st.sampled_from(["swim", "sing"]),
            st.sampled_from([*scn.VARIANTS, "other"]),
            st.sampled_from([*PATTERNS, "CpTq"]),
            st.sampled_from(["swim", "sing", "sleep"]),
        ),
        min_size=1,
        max_size=40,
    ),
    order=st.permutations(FIELDS),
    compact=st.booleans(),
)
def test_reading_a_column_at_a_time_equals_reading_line_by_line(
    rows: list[tuple[str, ...]], order: list[str], compact: bool
) -> None:
    separators = (",", ":") if compact else (", ", ": ")
    data = "".join(
        json.dumps({k: dict(zip(FIELDS, r, strict=True))[k] for k in order}, separators=separators, ensure_ascii=False)
        + "\n"
        for r in rows
    ).encode()
    expected, expected_problems = _line_by_line(data)
    got, problems = scn.parse_predictions(data, "f.jsonl")
    from neghub.evaluator.fileio.jsonl import flat_string_rows

    assert flat_string_rows(data, FIELDS) == rows  # in FIELDS order whatever order the lines use
    plain = scn._columns_of_plain_rows("f.jsonl", rows)
    # the fast reader is really the one that ran whenever no value is one the checks refuse
    clean = all(r[0].strip() and r[1] and r[3] in scn.VARIANTS and r[4] in PATTERNS for r in rows)
    assert (plain is not None) == bool(clean)
    assert problems == expected_problems
    _same_predictions(got, expected)
    # duplicates, missing patterns, too many verbs: the whole-file checks see the same columns
    assert scn.check_predictions(got) == scn.check_predictions(expected)


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=300)
    | st.lists(
        st.lists(st.text(max_size=6), min_size=6, max_size=6).map(
            lambda values: json.dumps(dict(zip(FIELDS, values, strict=True)), ensure_ascii=False)
        ),
        min_size=1,
        max_size=6,
    ).map(lambda lines: ("\n".join(lines) + "\n").encode())
)
def test_any_input_reads_the_same_either_way_and_only_ever_gives_problems(data: bytes) -> None:
    # arbitrary bytes, and lines of the usual shape with arbitrary text (quotes, backslashes, controls)
    got, problems = scn.parse_predictions(data, "f.jsonl")
    assert all(isinstance(p, Problem) for p in problems)
    expected, expected_problems = _line_by_line(data)
    assert problems == expected_problems
    _same_predictions(got, expected)


def test_the_negation_contrast_interval_draws_whole_name_profession_pairs(tmp_path: Path) -> None:
    # 40 triplets, two names of 20 verbs: every triplet of the first answers ideally ("10011", contrast 1), every one
    # of the second never repeats after CpTp ("10000"). Drawing triplets alone, q (the share of "never") is
    # Binomial(40, 1/2) / 40 and the contrast 1 - q lies within 0.5 ± 0.16; drawing the two names, a resample holds
    # the first twice, both or the second twice (probabilities 1/4, 1/2, 1/4): the contrast is 1, 0.5 or 0, and
    # the interval [0, 1]
    rows = []
    for index in range(40):
        name = "name0" if index < 20 else "name1"
        rows += triplet(name, "teacher", f"verb{index % 20}", "pronoun", "10011" if index < 20 else "10000")
    predictions = scn.load_predictions(write(tmp_path / "p.jsonl", rows))
    pronoun = scn.score(predictions, BootstrapConfig())["variants"]["pronoun"]
    assert pronoun["negation_contrast"] == 0.5
    assert pronoun["negation_contrast_ci95"] == [0.0, 1.0]
