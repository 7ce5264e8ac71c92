"""Fantasy Warlord missile fire resolver: the wood elves' volley and the edges of the rule."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.core.dice import Dice, DiceError
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.warlord.numbers import round_remainder, show
from tracker.rules.warlord.profiles import SAMPLE_SHEET, load_sheet

RULES = get("warlord")
FIRE = RULES.action("fire")
ROOT = Path(__file__).resolve().parents[2]


def fire(dice: dict[str, list[int]] | None = None, **raw: object) -> dict:
    params = FIRE.parse_params({k: str(v) for k, v in raw.items()})
    d = Dice.from_spec(dice or {}, seed=1)
    res = FIRE.resolve(params, d)
    d.check_all_used()
    out = res.as_json()
    out["_text"] = res.text
    return out


def odds(**raw: object) -> dict[str, float]:
    return dict(FIRE.odds(FIRE.parse_params({k: str(v) for k, v in raw.items()})))


ELVES = {"bfp": 18, "mods": "-1,3,4", "figures": 10}
ELVES_BY_SHEET = {
    "race": "wood_elf",
    "weapon": "elf_bow",
    "armour": "chainmail",
    "named": "target_moved,huntmasters,per_target_rank",
    "target_ranks": 2,
    "figures": 10,
}


# --- the worked example -----------------------------------------------------------------


def test_wood_elves_volley_at_medium_range_d100_23_misses():
    r = fire({"d100": [23]}, range="medium", **ELVES)
    assert r["mfp"] == 24
    assert r["ffp"] == 240
    assert r["effective"] == 120
    assert r["sure_kills"] == 1
    assert r["chance"] == 20
    assert r["d100"] == 23
    assert r["kills"] == 1
    assert r["outcome"] == "kill"
    assert "d100 23 misses" in r["_text"]
    assert [x["role"] for x in r["rolls"]] == ["d100"]


def test_wood_elves_volley_at_short_range_two_kills_and_40_percent():
    r = fire({"d100": [41]}, range="short", **ELVES)
    assert (r["ffp"], r["effective"], r["sure_kills"], r["chance"]) == (240, 240, 2, 40)
    assert r["kills"] == 2
    assert odds(range="short", **ELVES) == pytest.approx({"2 killed": 0.6, "3 killed": 0.4})


def test_wood_elves_from_the_profile_sheet_give_the_same_volley():
    r = fire({"d100": [23]}, range="medium", **ELVES_BY_SHEET)
    assert r["bfp"] == 18 and r["bfp_source"] == "printed"
    assert [m["value"] for m in r["modifiers"]] == [-1, 3, 4]
    assert r["modifiers"][2]["name"].startswith("Per rank of target")
    assert (r["mfp"], r["ffp"], r["effective"], r["kills"]) == (24, 240, 120, 1)


def test_the_remainder_roll_kills_on_equal_or_under():
    assert fire({"d100": [20]}, range="medium", **ELVES)["kills"] == 2
    assert fire({"d100": [1]}, range="medium", **ELVES)["kills"] == 2
    assert fire({"d100": [21]}, range="medium", **ELVES)["kills"] == 1
    assert fire({"d100": [0]}, range="medium", **ELVES)["kills"] == 1  # 00 reads 100


def test_medium_range_odds_of_the_example():
    got = odds(range="medium", **ELVES)
    assert got == pytest.approx({"1 killed": 0.8, "2 killed": 0.2})
    assert sum(got.values()) == pytest.approx(1)


# --- range ------------------------------------------------------------------------------


def test_long_range_divides_by_three_and_keeps_the_fraction():
    r = fire({"d100": [50]}, bfp=25, figures=10, range="long")
    assert r["ffp"] == 250
    assert r["effective_exact"] == "250/3"
    assert r["effective_shown"] == "83 1/3"
    assert r["effective"] == pytest.approx(250 / 3)
    assert r["sure_kills"] == 0
    assert r["remainder_exact"] == "250/3"
    assert r["chance"] == 83
    assert r["kills"] == 1
    assert "83 1/3%" in r["_text"]


def test_long_range_exact_third_of_the_example():
    r = fire({"d100": [80]}, range="long", **ELVES)
    assert (r["effective"], r["sure_kills"], r["chance"], r["kills"]) == (80, 0, 80, 1)


@pytest.mark.parametrize(
    ("distance", "band"),
    [(0, "short"), (20, "short"), (20.5, "medium"), (40, "medium"), (40.1, "long"), (60, "long")],
)
def test_range_band_edges_from_the_sheet(distance, band):
    r = fire({"d100": [99]}, distance=distance, **ELVES_BY_SHEET)
    assert r["range"] == band
    assert r["divisor"] == {"short": 1, "medium": 2, "long": 3}[band]


def test_beyond_long_range_cannot_be_fired_on():
    with pytest.raises(RuleError, match="out of range"):
        fire(distance=60.5, **ELVES_BY_SHEET)


def test_range_is_needed():
    with pytest.raises(RuleError, match="range="):
        fire(**ELVES)
    with pytest.raises(RuleError, match="race= and weapon="):
        fire(distance=30, **ELVES)


def test_given_range_differing_from_the_measured_one_is_noted():
    r = fire({"d100": [99]}, distance=30, range="short", **ELVES_BY_SHEET)
    assert r["range"] == "short"
    assert any("sheet says medium" in n for n in r["notes"])


# --- the remainder and its rounding -----------------------------------------------------


@pytest.mark.parametrize(("rounding", "chance"), [("down", 20), ("nearest", 21), ("up", 21)])
def test_remainder_rounding_setting_on_a_half(rounding, chance):
    # 241% halved is 120 1/2%: the d100 is rolled against the rounded remainder
    r = fire({"d100": [21]}, bfp=241, figures=1, range="medium", remainder_rounding=rounding)
    assert r["effective_exact"] == "241/2"
    assert r["remainder_exact"] == "41/2"
    assert r["chance"] == chance
    assert r["kills"] == (2 if chance >= 21 else 1)


def test_remainder_rounding_thirds():
    assert round_remainder(Fraction(250, 3), "down") == 83
    assert round_remainder(Fraction(250, 3), "nearest") == 83
    assert round_remainder(Fraction(251, 3), "nearest") == 84
    assert round_remainder(Fraction(250, 3), "up") == 84
    assert round_remainder(Fraction(1, 3), "down") == 0


def test_remainder_rounding_is_a_setting_and_a_param_of_the_same_name():
    setting = RULES.setting_spec("remainder_rounding")
    assert setting.default == "down"
    assert FIRE.param("remainder_rounding").default == setting.default


def test_whole_hundreds_roll_no_d100():
    r = fire(bfp=20, figures=10, range="medium")  # exactly 100%
    assert (r["sure_kills"], r["chance"], r["d100"], r["kills"]) == (1, 0, None, 1)
    assert r["rolls"] == []
    assert odds(bfp=20, figures=10, range="medium") == {"1 killed": 1.0}


def test_a_remainder_rounded_to_nothing_rolls_no_d100():
    r = fire(bfp=1, figures=1, range="long")  # 1/3%
    assert (r["effective_exact"], r["chance"], r["kills"], r["d100"]) == ("1/3", 0, 0, None)
    assert r["outcome"] == "miss"


def test_rounded_up_to_a_full_hundred_kills_without_a_roll():
    r = fire(bfp=299, figures=1, range="long", remainder_rounding="up")  # 99 2/3%
    assert (r["chance"], r["kills"], r["d100"]) == (100, 1, None)


def test_entered_d100_left_unused_is_an_error():
    with pytest.raises(DiceError):
        fire({"d100": [5]}, bfp=20, figures=10, range="medium")


# --- extremes ---------------------------------------------------------------------------


def test_negative_mfp_has_no_chance():
    r = fire(bfp=2, mods="-5", figures=10, range="short")
    assert r["mfp"] == -3 and r["effective"] == 0 and r["kills"] == 0
    assert odds(bfp=2, mods="-5", figures=10, range="short") == {"0 killed": 1.0}


def test_zero_figures_is_refused():
    with pytest.raises(RuleError, match="at least one figure"):
        fire(bfp=18, figures=0, range="short")


def test_figures_is_required_headless():
    with pytest.raises(RuleError, match="figures= is required"):
        FIRE.parse_params({"bfp": "18", "range": "short"})


def test_more_figures_than_may_fire_is_refused():
    with pytest.raises(RuleError, match="only 8 figures"):
        fire(bfp=18, figures=10, eligible=8, range="short")
    assert fire({"d100": [1]}, bfp=18, figures=8, eligible=8, range="short")["kills"] == 2


def test_kills_never_exceed_the_figures_left_in_the_target():
    r = fire(bfp=50, figures=10, range="short", target_figures=3)  # 500%
    assert (r["sure_kills"], r["kills"], r["d100"]) == (5, 3, None)
    assert odds(bfp=50, figures=10, range="short", target_figures=3) == {"3 killed": 1.0}
    r = fire({"d100": [10]}, bfp=15, figures=10, range="short", target_figures=2)
    assert (r["sure_kills"], r["chance"], r["kills"]) == (1, 50, 2)
    r = fire(bfp=15, figures=10, range="short", target_figures=1)
    assert (r["kills"], r["d100"]) == (1, None)


def test_weapon_not_on_the_race_chart_may_not_be_used():
    with pytest.raises(RuleError, match="may not use it"):
        fire(race="orc", weapon="arquebus", armour="chainmail", figures=5, range="short")


def test_unknown_named_modifier_and_armour_are_refused():
    with pytest.raises(RuleError, match="no firing modifier 'fog'"):
        fire(range="short", **{**ELVES_BY_SHEET, "named": "fog"})
    with pytest.raises(RuleError, match="no armour class 'mithril'"):
        fire(range="short", **{**ELVES_BY_SHEET, "armour": "mithril"})


def test_named_none_means_no_modifier():
    r = fire({"d100": [1]}, range="short", **{**ELVES_BY_SHEET, "named": "none"})
    assert r["mfp"] == 18 and r["modifiers"] == []


def test_sample_bfp_is_marked():
    r = fire(
        {"d100": [1]}, race="orc", weapon="crossbow", armour="leather", figures=9, range="short"
    )
    assert r["bfp_source"] == "sample"
    assert any("sample" in n for n in r["notes"])


def test_show_fractions():
    assert show(Fraction(120)) == "120"
    assert show(Fraction(250, 3)) == "83 1/3"
    assert show(Fraction(1, 3)) == "1/3"


# --- odds -------------------------------------------------------------------------------


@given(
    bfp=st.integers(0, 60),
    mod=st.integers(-10, 10),
    figures=st.integers(1, 40),
    band=st.sampled_from(["short", "medium", "long"]),
    rounding=st.sampled_from(["down", "nearest", "up"]),
)
def test_odds_sum_to_one_and_match_the_resolver(bfp, mod, figures, band, rounding):
    raw = {
        "bfp": bfp,
        "mods": str(mod),
        "figures": figures,
        "range": band,
        "remainder_rounding": rounding,
    }
    got = odds(**raw)
    assert sum(got.values()) == pytest.approx(1)
    eff = max(Fraction((bfp + mod) * figures, {"short": 1, "medium": 2, "long": 3}[band]), 0)
    sure = int(eff // 100)
    for d100 in (1, 100):
        r = fire(
            {"d100": [d100]} if 0 < round_remainder(eff - 100 * sure, rounding) < 100 else None,
            **raw,
        )
        assert f"{r['kills']} killed" in got
        assert r["kills"] in (sure, sure + 1)


def test_odds_of_sixty_figures_at_long_range():
    """65% x 60 = 3900%, / 3 = 1300%: 13 sure kills and nothing left to roll for."""
    assert odds(bfp=60, mods="5", figures=60, range="long") == {"13 killed": 1.0}


# --- the profile sheet ------------------------------------------------------------------


def test_sample_sheet_prints_what_the_text_prints():
    sheet = load_sheet()
    assert sheet.race("wood_elf").ranks_for_firing == 3
    assert sheet.race("human").ranks_for_firing == 2
    assert sheet.bfp("wood_elf", "elf_bow", "chainmail") == (18, "printed")
    assert sheet.race("goblin").weapons["short_bow"].move_fire_loss == "1/2"
    assert [r for r, p in sheet.races.items() if "arquebus" in p.weapons] == ["dwarf"]


def test_a_broken_sheet_gives_a_clear_error(tmp_path):
    bad = tmp_path / "sheet.toml"
    bad.write_text('[races.elf]\nname = "Elves"\nranks_for_firing = "three"\n')
    with pytest.raises(RuleError, match="races.elf.ranks_for_firing"):
        fire(profiles=str(bad), race="elf", weapon="bow", armour="none", figures=1, range="short")


def test_an_edited_sheet_is_read_again(tmp_path):
    sheet = tmp_path / "sheet.toml"
    import tomllib

    import tomli_w

    text = tomllib.loads(SAMPLE_SHEET.read_text(encoding="utf-8"))

    sheet.write_bytes(tomli_w.dumps(text).encode())
    r = fire({"d100": [99]}, profiles=str(sheet), range="short", **ELVES_BY_SHEET)
    assert r["bfp"] == 18
    text["races"]["wood_elf"]["weapons"]["elf_bow"]["bfp"]["chainmail"] = 30
    sheet.write_bytes(tomli_w.dumps(text).encode())
    import os

    st_ = sheet.stat()
    os.utime(sheet, ns=(st_.st_atime_ns, st_.st_mtime_ns + 10_000_000))
    r = fire({"d100": [99]}, profiles=str(sheet), range="short", **ELVES_BY_SHEET)
    assert r["bfp"] == 30


# --- headless ---------------------------------------------------------------------------


def test_tracker_resolve_json_of_the_issue():
    cmd = [
        sys.executable,
        "-m",
        "tracker",
        "resolve",
        "warlord",
        "fire",
        "bfp=18",
        "mods=-1,3,4",
        "figures=10",
        "range=medium",
        "--dice",
        "d100=23",
        "--json",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(out.stdout)
    assert {k: data[k] for k in ("mfp", "ffp", "effective", "sure_kills", "chance", "kills")} == {
        "mfp": 24,
        "ffp": 240,
        "effective": 120,
        "sure_kills": 1,
        "chance": 20,
        "kills": 1,
    }
