"""edc tables as data: every row of the printed tables as the text gives it, each read by
the rolls that use it, and files that do not fit refused with the file, key and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.edc_helpers import resolve
from tracker.core.tables import TableError, load_table
from tracker.rules.base import RuleError
from tracker.rules.edc import EdcCombatant, EdcEncounter, combat_pool
from tracker.rules.edc.common import EVASIONS, GAITS, MANEUVERS, MOVEMENTS, TERRAINS
from tracker.rules.edc.damage import lookup, missile_location
from tracker.rules.edc.tables import TABLES_FILE, Tables, gait_after, opponents_tns, terrain_tn
from tracker.session.session import Session

# "Terrain Rolls - Difficult Terrain", as printed: columns Standing/Crawling, Cautious,
# Normal/Defending, Hurried/Attacking, Sprinting; None for a dash.
PRINTED_TERRAIN = {
    "narrow": (1, 2, 3, 5, 7),
    "swampy": (2, 3, 4, 6, 8),
    "rocky": (2, 3, 4, 6, 8),
    "icy": (2, 4, 6, 8, 10),
    "slippery": (2, 4, 6, 8, 10),
    "tight": (2, 3, 4, 5, 6),
    "limited_room": (None, None, 5, 6, 8),
    "pressing": (None, None, 4, 3, 3),
}
PRINTED_COLUMN = {"standing": 0, "crawling": 0, "cautious": 1, "normal": 2, "defending": 2,
                  "hurried": 3, "attacking": 3, "sprinting": 4}
# "Terrain Rolls - Multiple Opponents": 2 opponents 6 5; 3-5: 8 6; 6-9: 9 7; 10+: 10 8.
PRINTED_OPPONENTS = {2: (6, 5), 3: (8, 6), 5: (8, 6), 6: (9, 7), 9: (9, 7), 10: (10, 8),
                     30: (10, 8)}


@pytest.mark.parametrize("terrain", list(PRINTED_TERRAIN))
@pytest.mark.parametrize("movement", list(PRINTED_COLUMN))
def test_every_cell_of_the_difficult_terrain_table(terrain: str, movement: str) -> None:
    tn = PRINTED_TERRAIN[terrain][PRINTED_COLUMN[movement]]
    if tn is None:
        with pytest.raises(RuleError, match="no TN"):
            terrain_tn(terrain, movement)
        return
    assert terrain_tn(terrain, movement) == tn
    # and the roll reads it: one die showing the TN succeeds, one below fails
    res = resolve("terrain", {"terrain": [tn]}, dice=1, terrain=terrain, movement=movement)
    assert res.figures["tn"] == tn and res.outcome == "success"
    if tn > 1:
        res = resolve("terrain", {"terrain": [tn - 1]}, dice=1, terrain=terrain,
                      movement=movement)
        assert res.outcome == "failure"


@pytest.mark.parametrize(("n", "tns"), list(PRINTED_OPPONENTS.items()))
def test_every_row_of_the_multiple_opponents_table(n: int, tns: tuple[int, int]) -> None:
    assert opponents_tns(n, "lone_first") == tns
    assert opponents_tns(n, "lone_second") == tns[::-1]
    res = resolve("opponents", {"lone": [tns[0]], "opponent": [tns[1] - 1]}, dice=1,
                  opponents=n, opponent_dice="1")
    assert (res.figures["tn"], res.figures["opponents_tn"]) == tns
    assert res.figures["opponent_successes"][0] == 0 and res.figures["may_choose"]


def test_the_multiple_opponents_column_setting_reaches_the_roll() -> None:
    res = resolve("opponents", {"lone": [9]}, dice=1, opponents=2,
                  multiple_opponents_column="lone_second")
    assert (res.figures["tn"], res.figures["opponents_tn"]) == (5, 6)


@pytest.mark.parametrize(("defence", "dtn"),
                         [("evade_full", 4), ("evade_partial", 7), ("duck", 9)])
def test_every_missile_evasion_dtn(defence: str, dtn: int) -> None:
    """Full Evasion DTN 4, Partial Evasion 7, Duck & Weave 9."""
    res = resolve("missile", {"missile": [9], "defense": [dtn, dtn - 1]}, dice=1, atn=6,
                  defense=defence, defense_dice=2)
    assert res.figures["dtn"] == dtn and res.figures["defense_successes"] == 1


@pytest.mark.parametrize(("gait", "times"), [("canter", 2), ("gallop", 3)])
def test_ride_by_gaits_move_half_their_rate_in_yards(gait: str, times: int) -> None:
    res = resolve("ride_by", {"ride": [9]}, dice=1, gait=gait, move=12)
    assert res.figures["yards_after"] == 12 * times / 2


@pytest.mark.parametrize("gait", ["stand", "walk", "trot"])
def test_ride_by_needs_a_canter_or_a_gallop(gait: str) -> None:
    with pytest.raises(RuleError, match="canter or gallop"):
        resolve("ride_by", dice=1, gait=gait)


@pytest.mark.parametrize(("now", "maneuver", "after"), [
    ("stand", "accelerate", "trot"), ("walk", "accelerate", "trot"),  # a walk is standing
    ("trot", "accelerate", "canter"), ("canter", "accelerate", "gallop"),
    ("gallop", "accelerate", "gallop"), ("trot", "accelerate2", "gallop"),
    ("gallop", "decelerate", "canter"), ("trot", "decelerate", "stand"),
    ("gallop", "decelerate2", "trot"), ("gallop", "decelerate3", "stand"),
    ("canter", "quarter_turn", "canter"), ("gallop", "wheel", "gallop"),
])
def test_every_riding_maneuver_changes_the_gait(now: str, maneuver: str, after: str) -> None:
    assert gait_after(now, maneuver) == after


@pytest.mark.parametrize(("maneuver", "free"), [
    ("accelerate", True), ("decelerate", True), ("quarter_turn", True),
    ("accelerate2", False), ("decelerate2", False), ("decelerate3", False), ("wheel", False),
])
def test_a_skilled_rider_needs_no_check_for_one_step_or_a_quarter_turn(
    maneuver: str, free: bool
) -> None:
    res = resolve("ride", {} if free else {"ride": [9]}, maneuver=maneuver, gait="trot",
                  dice=0 if free else 1)
    assert res.figures["check"] is (not free)


@pytest.mark.parametrize(("lighting", "lost"), [("dim", 1), ("moonlight", 3), ("darkness", 6)])
def test_every_lighting_row_of_the_pool(lighting: str, lost: int) -> None:
    """CP 12: dim -1, moonlight -1/4 (3), darkness -1/2 (6)."""
    c = EdcCombatant(id="f", name="F", reflex=6, proficiency=6, lighting=lighting)
    size, lines = combat_pool(c, EdcEncounter(name="x", combatants=[c]))
    assert size == 12 - lost and f"{lighting.capitalize()} -{lost}" in lines


def test_higher_footing_reach_ladder_prone_and_health_one() -> None:
    me = EdcCombatant(id="m", name="Me", reflex=6, proficiency=6, footing="higher", reach=1,
                      opponent="o")
    them = EdcCombatant(id="o", name="Them", reach=4)
    size, lines = combat_pool(me, EdcEncounter(name="x", combatants=[me, them]))
    assert "Higher footing +2" in lines and "Reach 1 vs 4 -3" in lines and size == 12 + 2 - 3
    down = EdcCombatant(id="d", name="Down", reflex=6, proficiency=6, prone=True, health=1)
    size, lines = combat_pool(down, EdcEncounter(name="x", combatants=[down]))
    assert lines[-2:] == ["On the ground -6", "Health 1 halves -3"] and size == 3


def test_the_choices_are_the_words_of_the_tables() -> None:
    t = load_table(Tables, TABLES_FILE)
    assert [n for row in t.terrain.rows for n in row.names] == list(TERRAINS)
    assert tuple(t.terrain.movements) == MOVEMENTS
    assert tuple(t.missile.evade) == EVASIONS
    assert tuple(g.name for g in t.ride.gaits) == GAITS
    assert tuple(m.name for m in t.ride.maneuvers) == MANEUVERS


# --- files that do not fit -------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "tables.toml"
    text = TABLES_FILE.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new", "key", "expected"), [
    ("tn = [1, 2, 3, 5, 7]", 'tn = [1, 2, "three", 5, 7]', "terrain.rows[0].tn[2]",
     "expected a whole number"),
    ("tn = [1, 2, 3, 5, 7]", "tn = [1, 2, 3, 5]", "terrain", "has 4 TNs for 5 columns"),
    ('names = ["narrow"]', 'names = ["ledge"]', "terrain", "'ledge' is not one of"),
    ('names = ["swampy", "rocky"]', 'names = ["swampy"]', "terrain", "no entry for rocky"),
    ("duck = 9", "duck = 9\ndive = 5", "missile", "'dive' is not one of"),
    ("at_least = 3", "at_least = 1", "opponents", "rising order"),
    ("most_faced = 3", "most_faced = 3\nmost_faced_tiny = 5", "opponents.most_faced_tiny",
     "unknown key"),
    ('ride_by = ["canter", "gallop"]', 'ride_by = ["canter", "sprint"]', "ride",
     "sprint, not a gait"),
])
def test_a_table_that_does_not_fit_names_file_key_and_reason(
    tmp_path: Path, old: str, new: str, key: str, expected: str
) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(TableError) as err:
        load_table(Tables, path)
    assert err.value.key == key and expected in err.value.expected
    assert str(err.value).startswith("tables.toml at ")


def _damage_file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(body)
    return str(path)


@pytest.mark.parametrize(("body", "message"), [
    ('[cutting.arm]\nshock = "high"\n', "at cutting.arm.shock: expected a list"),
    ("[cutting.arm]\nshock = [1, 2, 3, 4, 5, 6]\n", "shock has more than 5 entries"),
    ("[cutting.arm]\nknockdown = [1]\n", "at cutting.arm.knockdown[0]: expected true or false"),
    ('[missile_location]\n13 = "head"\n', "'13' is not a 2d6 roll"),
    ("[fire.arm]\nshock = [1]\n", "at fire: unknown key"),
    ("[cutting.arm\n", "not valid TOML"),
])
def test_a_damage_table_that_does_not_fit_is_refused_naming_the_file_and_key(
    tmp_path: Path, body: str, message: str
) -> None:
    path = _damage_file(tmp_path, body)
    with pytest.raises(RuleError, match="damage table") as err:
        lookup(path, "cutting", "arm", 1)
    assert path in str(err.value) and message in str(err.value)


def test_a_changed_damage_table_is_read_again(tmp_path: Path) -> None:
    path = _damage_file(tmp_path, "[cutting.arm]\nshock = [1, 2, 3, 4, 5]\n")
    assert lookup(path, "cutting", "arm", 2).shock == 2
    Path(path).write_text("[cutting.arm]\nshock = [1, 9, 3, 4, 5, 5]\n")
    with pytest.raises(RuleError, match="more than 5"):
        lookup(path, "cutting", "arm", 2)
    Path(path).write_text("[cutting.arm]\nshock = [1, 7]\n")
    assert lookup(path, "cutting", "arm", 2).shock == 7


@pytest.mark.parametrize("roll", range(2, 13))
def test_every_missile_location_roll_names_a_location_of_each_table(roll: int) -> None:
    where = missile_location("", roll)
    for kind in ("cutting", "puncture", "blunt"):
        assert lookup("", kind, where, 3).shock > 0


def test_the_damage_table_setting_reaches_the_exchange(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text("[cutting.arm]\nshock = [9, 9, 9, 9, 9]\n"
                                        "pain = [1, 1, 1, 1, 1]\n")
    guard = EdcCombatant(id="g", name="Guard", toughness=0)
    roland = EdcCombatant(id="r", name="Roland")
    session = Session(EdcEncounter(name="x", combatants=[roland, guard]), tmp_path / "x.toml")
    session.execute("setting damage_table=mine.toml")
    out = session.execute("exchange Roland Guard attack_dice=1 atn=6 dtn=6 location=arm "
                          "--dice attack=9")
    assert out.resolution is not None
    assert (out.resolution.figures["shock"], out.resolution.figures["pain"]) == (9, 1)
    assert guard.wounds[0].shock == 9
