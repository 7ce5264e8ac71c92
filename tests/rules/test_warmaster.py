"""Warmaster Revolution shooting phase (WM): resolvers, odds, and the seed's examples."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tracker.core.dice import Dice, NeedDice
from tracker.rules import get
from tracker.rules.base import RuleError
from tracker.rules.warmaster.actions.drive import drive_odds
from tracker.rules.warmaster.actions.driveback import DRIVEBACK
from tracker.rules.warmaster.actions.endphase import ENDPHASE
from tracker.rules.warmaster.actions.shoot import SHOOT
from tracker.rules.warmaster.actions.shoot_odds import shoot_distributions
from tracker.rules.warmaster.tables import to_hit


def shoot(dice: dict[str, list[int]], **raw: object) -> dict:
    params = SHOOT.parse_params({k: str(v) for k, v in raw.items()})
    d = Dice.from_spec(dice, seed=1)
    res = SHOOT.resolve(params, d)
    d.check_all_used()
    return res.as_json()


def driveback(dice: dict[str, list[int]], **raw: object) -> dict:
    params = DRIVEBACK.parse_params({k: str(v) for k, v in raw.items()})
    d = Dice.from_spec(dice, seed=1)
    res = DRIVEBACK.resolve(params, d)
    d.check_all_used()
    return res.as_json()


# --- the seed's worked examples -------------------------------------------------------------


def test_counting_hits_three_dice_1_4_6_two_hits() -> None:
    out = shoot({"hit": [1, 4, 6]}, attacks=3)
    assert out["hits"] == 2
    assert out["unsaved"] == 2


def test_empire_knights_saves_2_4_5_6_leave_one_hit() -> None:
    out = shoot({"hit": [1, 2, 4, 5, 6, 6], "save": [2, 4, 5, 6]}, attacks=6, armour=4)
    assert (out["hits"], out["saved"], out["unsaved"]) == (4, 3, 1)


def test_headless_shoot_with_stands() -> None:
    out = shoot(
        {"hit": [1, 2, 4, 5, 6, 6], "save": [2, 4, 5, 6]},
        attacks=6,
        armour=4,
        hits_per_stand=3,
        stands=4,
        leftover=0,
    )
    assert out["stands_removed"] == 0
    assert out["leftover"] == 1
    assert out["stands_left"] == 4


def test_drive_back_3_and_4_is_7_cm() -> None:
    out = driveback({"drive": [3, 4]}, hits=2, pace=20)
    assert out["dice"] == [3, 4]
    assert out["distance"] == 7
    assert out["confused"] is False
    assert out["routed"] is False
    assert "7 cm" in out["text"]


def test_three_hits_on_charging_knights_remove_one_stand_and_carry_three() -> None:
    out = shoot(
        {"hit": [4, 5, 6]},
        attacks=3,
        hits_per_stand=3,
        stands=3,
        charging="yes",
    )
    assert out["stands_removed"] == 1
    assert out["carried"] == 3
    assert out["leftover"] == 0
    assert out["drive_back"] is False


def test_two_hits_on_charging_knights_carried_outstanding() -> None:
    out = shoot({"hit": [4, 5, 1]}, attacks=3, hits_per_stand=3, stands=3, charging="yes")
    assert out["stands_removed"] == 0
    assert out["carried"] == 2
    assert out["leftover"] == 2


# --- to hit, armour, stands -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "kind", "score"),
    [
        ("open", "infantry", 4),
        ("defended", "infantry", 5),
        ("fortified", "infantry", 6),
        ("defended", "artillery", 5),
        ("fortified", "artillery", 6),
        ("defended", "cavalry", 4),
        ("fortified", "monster", 4),
        (None, None, 4),
    ],
)
def test_to_hit_table(position: str | None, kind: str | None, score: int) -> None:
    assert to_hit(position, kind) == score


def test_defended_infantry_needs_five() -> None:
    out = shoot({"hit": [4, 4, 5, 6]}, attacks=4, position="defended")
    assert out["to_hit"] == 5
    assert out["hits"] == 2


def test_fortified_infantry_needs_six_but_cavalry_four() -> None:
    assert shoot({"hit": [5, 6]}, attacks=2, position="fortified")["hits"] == 1
    out = shoot({"hit": [4, 6]}, attacks=2, position="fortified", target_kind="cavalry")
    assert out["hits"] == 2


@pytest.mark.parametrize(("armour", "saved"), [(6, 1), (5, 2), (4, 3), (3, 4), (0, 0)])
def test_armour_bands(armour: int, saved: int) -> None:
    saves = [3, 4, 5, 6] if armour else []
    out = shoot({"hit": [6, 6, 6, 6], "save": saves}, attacks=4, armour=armour)
    assert out["saved"] == saved
    assert out["unsaved"] == 4 - saved


def test_no_save_dice_without_armour_and_none_for_misses() -> None:
    out = shoot({"hit": [1, 2, 3]}, attacks=3, armour=4)
    assert out["hits"] == 0
    assert out["saves"] == []


def test_zero_attacks() -> None:
    out = shoot({}, attacks=0, hits_per_stand=3, stands=3)
    assert out["hits"] == 0 and out["stands_removed"] == 0
    assert out["outcome"] == "no hits"


def test_leftover_adds_up_to_a_stand() -> None:
    out = shoot({"hit": [4]}, attacks=1, hits_per_stand=3, stands=3, leftover=2)
    assert out["stands_removed"] == 1
    assert out["leftover"] == 0


def test_several_stands_in_one_shot_and_destroyed() -> None:
    out = shoot({"hit": [6] * 7}, attacks=7, hits_per_stand=3, stands=2)
    assert out["stands_removed"] == 2
    assert out["destroyed"] is True
    assert out["leftover"] == 0
    assert out["outcome"] == "destroyed"


def test_dwarfs_four_hits_per_stand() -> None:
    out = shoot({"hit": [6] * 7}, attacks=7, hits_per_stand=4, stands=3)
    assert (out["stands_removed"], out["leftover"]) == (1, 3)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(RuleError, match="attacks"):
        shoot({})
    with pytest.raises(RuleError, match="leftover"):
        shoot({}, attacks=1, hits_per_stand=3, stands=3, leftover=3)
    with pytest.raises(RuleError, match="both"):
        shoot({}, attacks=1, hits_per_stand=3)
    with pytest.raises(RuleError, match="exposed"):
        shoot({}, attacks=1, exposed=1, position="defended")
    with pytest.raises(RuleError, match="engaged"):
        shoot({}, attacks=1, engaged="yes")


def test_engaged_target_may_be_hit_by_magic() -> None:
    out = shoot({"hit": [5]}, attacks=1, engaged="yes", magic="yes")
    assert out["hits"] == 1


# --- exposed stands first ------------------------------------------------------------------


def test_exposed_stand_hit_at_four_then_batch_at_five() -> None:
    out = shoot(
        {"hit": [4, 5, 6, 1, 4, 5, 6, 6]},
        attacks=8,
        position="defended",
        hits_per_stand=3,
        stands=3,
        exposed=1,
    )
    first, second = out["batches"]
    assert (first["to_hit"], first["dice"], first["unsaved"]) == (4, [4, 5, 6], 3)
    assert (second["to_hit"], second["dice"], second["hits"]) == (5, [1, 4, 5, 6, 6], 3)
    assert out["stands_removed"] == 2
    assert out["exposed_left"] == 0


def test_batches_sized_to_hits_still_needed() -> None:
    # the exposed stand needs 3 hits; the first batch of 3 gives 1, so a batch of 2 follows
    out = shoot(
        {"hit": [1, 2, 4, 5, 6, 4, 4], "save": [1, 1, 1]},
        attacks=7,
        armour=6,
        position="fortified",
        hits_per_stand=3,
        stands=3,
        exposed=1,
    )
    sizes = [(b["to_hit"], len(b["dice"])) for b in out["batches"]]
    assert sizes == [(4, 3), (4, 2), (6, 2)]
    assert out["hits"] == 3
    assert out["stands_removed"] == 1


def test_leftover_counts_against_exposed_stands() -> None:
    out = shoot(
        {"hit": [4, 4]},
        attacks=2,
        position="defended",
        hits_per_stand=3,
        stands=3,
        exposed=1,
        leftover=2,
    )
    assert [b["to_hit"] for b in out["batches"]] == [4, 5]
    assert out["hits"] == 1


def test_split_batches_off_rolls_all_at_four() -> None:
    out = shoot(
        {"hit": [4, 4, 4, 4]},
        attacks=4,
        position="defended",
        hits_per_stand=3,
        stands=3,
        exposed=1,
        split_batches="no",
    )
    assert out["hits"] == 4
    assert "batches" not in out


# --- drive backs ---------------------------------------------------------------------------


def test_defended_ignores_first_hit() -> None:
    assert driveback({}, hits=1, pace=20, position="defended")["dice"] == []
    out = driveback({"drive": [5]}, hits=2, pace=20, position="defended")
    assert out["distance"] == 5 and out["ignored"] == 1


def test_fortified_ignores_first_two_hits() -> None:
    assert driveback({}, hits=2, pace=20, position="fortified")["distance"] == 0
    out = driveback({"drive": [2, 3]}, hits=4, pace=20, position="fortified")
    assert out["dice"] == [2, 3]
    assert out["outcome"] == "driven back"


def test_any_six_confuses() -> None:
    out = driveback({"drive": [1, 6]}, hits=2, pace=20)
    assert out["confused"] is True and out["outcome"] == "confused"


def test_rout_only_above_full_pace() -> None:
    assert driveback({"drive": [5, 5]}, hits=2, pace=10)["routed"] is False
    out = driveback({"drive": [5, 6]}, hits=2, pace=10)
    assert out["routed"] is True and out["outcome"] == "routed"


def test_engaged_unit_not_driven_back() -> None:
    out = driveback({}, hits=3, pace=20, engaged="yes")
    assert out["carried"] == 3 and out["dice"] == []


def test_blocked_drive_back_confuses() -> None:
    assert driveback({"drive": [2]}, hits=1, pace=20, blocked="yes")["confused"] is True


def test_driveback_needs_pace() -> None:
    with pytest.raises(RuleError, match="pace"):
        driveback({}, hits=2)


def test_endphase_headless_order_and_spec() -> None:
    params = ENDPHASE.parse_params(
        {"units": "Knights:2:30,Spearmen:3:20:defended,Guard:2:20:engaged", "order": "spearmen"}
    )
    d = Dice.from_spec({"drive": [1, 6, 3, 4]})
    res = ENDPHASE.resolve(params, d)
    d.check_all_used()
    units = res.figures["units"]
    assert [u["unit"] for u in units] == ["Spearmen", "Knights", "Guard"]
    assert units[0]["distance"] == 7 and units[0]["confused"]
    assert units[1]["distance"] == 7 and not units[1]["confused"]
    assert units[2]["carried"] == 2
    with pytest.raises(RuleError, match="no hits"):
        ENDPHASE.resolve(ENDPHASE.parse_params({"units": "A:1:20", "order": "B"}), Dice())
    with pytest.raises(RuleError, match="NAME:HITS:PACE"):
        ENDPHASE.resolve(ENDPHASE.parse_params({"units": "A:x"}), Dice())


# --- odds ----------------------------------------------------------------------------------


def _odds(action, **raw: object) -> list[tuple[str, float]]:
    return action.odds(action.parse_params({k: str(v) for k, v in raw.items()}))


def test_shoot_odds_hand_computed() -> None:
    # two dice at 4+, armour 4+: an unsaved hit is 1/2 * 1/2 = 1/4 per die
    odds = dict(_odds(SHOOT, attacks=2, armour=4))
    assert odds["0 unsaved hits"] == pytest.approx(9 / 16)
    assert odds["1 unsaved hit"] == pytest.approx(6 / 16)
    assert odds["2 unsaved hits"] == pytest.approx(1 / 16)


def test_shoot_odds_stands_removed() -> None:
    odds = dict(_odds(SHOOT, attacks=3, hits_per_stand=3, stands=3))
    assert odds["1 stand removed"] == pytest.approx(1 / 8)
    assert odds["0 stands removed"] == pytest.approx(7 / 8)
    odds = dict(_odds(SHOOT, attacks=2, hits_per_stand=1, stands=2))
    assert odds["destroyed"] == pytest.approx(1 / 4)


@pytest.mark.parametrize(
    "raw",
    [
        {"attacks": 60},
        {"attacks": 60, "armour": 5, "hits_per_stand": 3, "stands": 4},
        {
            "attacks": 60,
            "position": "defended",
            "exposed": 3,
            "hits_per_stand": 4,
            "stands": 6,
            "armour": 4,
        },
        {
            "attacks": 60,
            "position": "fortified",
            "exposed": 1,
            "hits_per_stand": 3,
            "stands": 3,
            "leftover": 2,
        },
    ],
)
def test_shoot_odds_sum_to_one(raw: dict) -> None:
    """Up to 60 dice (their speed is measured in bench/moving_odds.py, not here)."""
    params = SHOOT.parse_params({k: str(v) for k, v in raw.items()})
    odds = SHOOT.odds(params)
    dists = shoot_distributions(params)
    assert sum(p for _, p in odds) == pytest.approx(1)
    for dist in dists.values():
        assert sum(dist) == pytest.approx(1)


def _enumerate_split(raw: dict[str, object]) -> tuple[dict[int, Fraction], ...]:
    """Exact distributions by running the resolver over every face of every die it asks
    for, stage by stage (a later stage's count may hang on an earlier stage's faces)."""
    params = SHOOT.parse_params({k: str(v) for k, v in raw.items()})
    hits: dict[int, Fraction] = {}
    unsaved: dict[int, Fraction] = {}

    def walk(given: dict[str, list[int]], weight: Fraction) -> None:
        try:
            f = SHOOT.resolve(params, Dice(entered=given, mode="ask")).figures
        except NeedDice as need:
            req = need.request
            for faces in itertools.product(range(1, req.sides + 1), repeat=req.count):
                more = {**given, req.role: [*given.get(req.role, []), *faces]}
                walk(more, weight / req.sides**req.count)
            return
        hits[f["hits"]] = hits.get(f["hits"], 0) + weight
        unsaved[f["unsaved"]] = unsaved.get(f["unsaved"], 0) + weight

    walk({}, Fraction(1))
    assert sum(hits.values()) == 1 == sum(unsaved.values())
    return hits, unsaved


def test_split_odds_match_enumeration_of_the_resolver() -> None:
    raw = {
        "attacks": 3,
        "armour": 5,
        "position": "defended",
        "exposed": 1,
        "hits_per_stand": 2,
        "stands": 3,
        "leftover": 0,
    }
    hits, unsaved = _enumerate_split(raw)
    dists = shoot_distributions(SHOOT.parse_params({k: str(v) for k, v in raw.items()}))
    for k in range(4):
        assert dists["hits"][k] == pytest.approx(float(hits.get(k, 0)), abs=1e-12)
        assert dists["unsaved"][k] == pytest.approx(float(unsaved.get(k, 0)), abs=1e-12)


def test_driveback_odds() -> None:
    odds = dict(_odds(DRIVEBACK, hits=1, pace=20))
    assert odds["driven back"] == pytest.approx(5 / 6)
    assert odds["driven back, confused"] == pytest.approx(1 / 6)
    assert "routed" not in odds
    odds = dict(_odds(DRIVEBACK, hits=2, pace=10))
    # totals 11 and 12 rout (3 of 36); 10 without a six is 5+5 (1 of 36)
    assert odds["routed"] == pytest.approx(3 / 36)
    assert odds["driven back"] == pytest.approx(25 / 36)
    assert sum(odds.values()) == pytest.approx(1)
    assert _odds(DRIVEBACK, hits=2, pace=20, position="fortified") == [("no drive back", 1.0)]


def test_a_drive_back_is_the_sum_of_a_d6_a_hit_less_those_the_position_ignores() -> None:
    def within(pace: int) -> float:  # not routed: driven back no further than the pace
        return sum(p for label, p in drive_odds(2, pace, None) if label != "routed")

    assert within(7) - within(6) == pytest.approx(6 / 36)  # 2d6 shows 7 six ways in 36
    assert within(12) == pytest.approx(1)
    assert drive_odds(1, 20, "defended") == [("no drive back", 1.0)]


def test_registry_finds_ruleset() -> None:
    rs = get("warmaster")
    assert set(rs.actions) == {"shoot", "driveback", "endphase"}
    assert rs.phases == ["command", "movement", "shooting", "combat"]
    assert rs.setting_spec("split_batches").default is True


# --- properties ----------------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tracker.rules.warmaster.tables import remove_stands  # noqa: E402


@given(
    unsaved=st.integers(0, 60),
    stands=st.integers(1, 8),
    hps=st.integers(1, 6),
    data=st.data(),
)
def test_stand_accounting_keeps_every_hit(unsaved: int, stands: int, hps: int, data) -> None:
    leftover = data.draw(st.integers(0, hps - 1))
    removed, left = remove_stands(unsaved, stands, hps, leftover)
    assert 0 <= removed <= stands and 0 <= left < hps
    if removed < stands:
        assert removed * hps + left == leftover + unsaved
    else:
        assert left == 0 and leftover + unsaved >= stands * hps


@given(
    dice=st.lists(st.integers(1, 6), min_size=0, max_size=20),
    exposed=st.integers(1, 3),
    leftover=st.integers(0, 2),
)
def test_no_hit_at_four_spills_past_the_exposed_stands(
    dice: list[int], exposed: int, leftover: int
) -> None:
    params = SHOOT.parse_params(
        {
            "attacks": str(len(dice)),
            "position": "fortified",
            "exposed": str(exposed),
            "hits_per_stand": "3",
            "stands": "4",
            "leftover": str(leftover),
        }
    )
    res = SHOOT.resolve(params, Dice.from_spec({"hit": dice}))
    batches = res.figures.get("batches") or [
        {"to_hit": res.figures["to_hit"], "unsaved": res.figures["unsaved"]}
    ]
    at_four = sum(b["unsaved"] for b in batches if b["to_hit"] == 4)
    assert at_four <= exposed * 3 - leftover
    if dice and any(b["to_hit"] == 6 for b in batches):
        assert at_four == exposed * 3 - leftover
