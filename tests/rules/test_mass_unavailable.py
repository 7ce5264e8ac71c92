"""Actions of the mass rulesets that cannot be taken now say why before their form (the
action list greys them with it) and the ``:`` line refuses them in the same words;
``force=yes`` takes them anyway."""

from __future__ import annotations

import pytest

from tests.conftest import SAVES
from tracker.core import history
from tracker.session.commands import CommandError
from tracker.session.opening import load
from tracker.session.session import Session


def open_save(name: str) -> Session:
    return Session(load(SAVES / f"{name}.toml"))


def why(s: Session, action: str, who: str | None = None) -> str:
    unit = s.enc.find_unit(who).id if who else None
    return s.why_not(s.ruleset.actions[action], unit)


def refused(s: Session, line: str) -> str:
    before, entries = history.state_of(s.enc), len(s.enc.log)
    with pytest.raises(CommandError) as err:
        s.execute(line)
    assert history.state_of(s.enc) == before and len(s.enc.log) == entries
    return str(err.value)


# --- Warmaster: the river crossing, the High Elves' shooting phase ---------------------


def test_warmaster_driveback_with_no_hits_this_phase_is_greyed_and_refused() -> None:
    s = open_save("warmaster-river-crossing")
    said = "no unit owes a drive back: none in play took hits this phase"
    assert why(s, "driveback") == said
    assert refused(s, "driveback Crossbowmen hits=1") == \
        f"{said}; add force=yes to take it anyway"


def test_warmaster_driveback_is_offered_once_a_unit_is_hit() -> None:
    s = open_save("warmaster-river-crossing")
    s.execute("shoot \"Archers I\" Crossbowmen --dice hit=6,6,6")
    assert s.enc.find_unit("Crossbowmen").hits == 3
    assert why(s, "driveback") == ""


def test_warmaster_a_unit_with_no_shooting_attacks_does_not_shoot() -> None:
    s = open_save("warmaster-river-crossing")
    said = "Spearmen has no shooting attacks (3/0)"
    assert why(s, "shoot", "Spearmen") == said
    assert refused(s, "shoot Spearmen Crossbowmen") == said
    assert why(s, "shoot", "Archers I") == ""


def test_warmaster_a_confused_unit_does_not_shoot_unless_the_setting_says_so() -> None:
    s = open_save("warmaster-river-crossing")
    s.execute("set \"Archers I\" confused=yes")
    said = "Archers I is confused: it does not shoot (setting confused_shoot)"
    assert why(s, "shoot", "Archers I") == said
    assert refused(s, "shoot \"Archers I\" Crossbowmen --dice hit=1,1,1") == \
        f"{said}; add force=yes to take it anyway"
    out = s.execute("shoot \"Archers I\" Crossbowmen force=yes --dice hit=1,1,1")
    assert "forced by the GM" in out.message
    s2 = open_save("warmaster-river-crossing")
    s2.execute("set \"Archers I\" confused=yes")
    s2.execute("setting confused_shoot=yes")
    assert why(s2, "shoot", "Archers I") == ""


def test_warmaster_no_enemy_in_play_to_shoot_at() -> None:
    s = open_save("warmaster-river-crossing")
    for name in ("Empire Knights", "Halberdiers", "Crossbowmen", "Handgunners",
                 "Great Cannon"):
        s.execute(f"set {name} removed=yes")
    assert why(s, "shoot", "Archers I") == \
        "no enemy unit is in play for Archers I to shoot at"
    assert why(s, "shoot") == "High Elves has no enemy unit in play to shoot at"


# --- Warlord: the wood elves' volley, phase eight ------------------------------------


def test_warlord_a_unit_that_has_fired_neither_fires_nor_holds_fire() -> None:
    s = open_save("warlord-wood-elves")
    assert why(s, "fire", "Wood elf guards") == "Wood elf guards has already fired"
    assert why(s, "holdfire", "Wood elf guards") == \
        "Wood elf guards has already fired: there is no counter to take off"
    assert refused(s, "holdfire Wood") == ("Wood elf guards has already fired: there is no"
                                           " counter to take off; add force=yes to take it"
                                           " anyway")
    assert why(s, "fire", "Human longbowmen") == ""


def test_warlord_with_every_fire_order_off_nothing_fires() -> None:
    s = open_save("warlord-wood-elves")
    for name in ("Human longbowmen", "Morgab's goblin archers"):
        if s.enc.find_unit(name).has_fire_order():  # type: ignore[attr-defined]
            s.execute(f'holdfire "{name}"')
    assert why(s, "fire") == ("no unit can fire now: none holds a fire order with a missile"
                              " weapon and figures left to fire")
    assert why(s, "holdfire") == "no unit holds a fire order: there is no counter to take off"


def test_warlord_morale_when_no_unit_owes_a_test() -> None:
    s = open_save("warlord-wood-elves")
    s.execute("next phase force")
    assert s.play.where().phase == "morale tests"
    for u in s.enc.units:
        s.execute(f'set "{u.name}" morale_test=no')
    said = "no unit owes a morale test: none lost figures in the missile fire"
    assert why(s, "morale") == said
    assert why(s, "morale", "Orc warband") == ("Orc warband owes no morale test (only units"
                                               " that lost figures in the missile fire test)")


# --- d6battle: the crossbow duel -------------------------------------------------------


def go_to_shoot(s: Session, side: str) -> None:
    for _ in range(8):
        where = s.play.where()
        if (where.side, where.phase) == (side, "shoot"):
            return
        s.execute("next phase force")
    raise AssertionError("no shoot phase")


def test_d6battle_a_unit_with_no_missile_weapon_is_greyed() -> None:
    s = open_save("d6battle-crossbow-duel")
    go_to_shoot(s, "English")
    said = "Billmen has no missile weapon (weapon= gives the one it uses)"
    assert why(s, "shoot", "Billmen") == said
    assert why(s, "shoot", "Longbowmen") == ""


def test_d6battle_no_enemy_on_the_table_to_shoot_at() -> None:
    s = open_save("d6battle-crossbow-duel")
    go_to_shoot(s, "English")
    for name in ("Genoese Crossbowmen", "French Knights", "Foot Sergeants"):
        s.execute(f'set "{name}" removed=yes')
    said = "no enemy unit is in play for Longbowmen to shoot at"
    assert why(s, "shoot", "Longbowmen") == said
    assert refused(s, "shoot Longbowmen durability=3 --dice hit=1") == \
        f"{said}; add force=yes to take it anyway"
    assert why(s, "shoot") == "English has no enemy unit in play to shoot at"


def test_d6battle_morale_with_no_test_owed_is_greyed_then_offered_once_one_is() -> None:
    s = open_save("d6battle-crossbow-duel")
    go_to_shoot(s, "English")
    said = "no unit owes a morale test: no shooting casualties forced one"
    assert why(s, "morale") == said
    assert why(s, "morale", "Foot Sergeants") == ("Foot Sergeants owes no morale test"
                                                  " (shooting casualties force one)")
    s.execute("shoot Longbowmen Foot --dice hit=6,6,6,6,6,6 save=1,1,1,1,1,1")
    assert why(s, "morale", "Foot Sergeants") == ""
    assert why(s, "morale") == ""


def test_d6battle_shoot_is_greyed_when_no_unit_of_the_side_has_a_missile_weapon() -> None:
    s = open_save("d6battle-crossbow-duel")
    go_to_shoot(s, "French")  # the Genoese fled: the knights and sergeants have none
    assert why(s, "shoot") == ("no unit of French in play has a missile weapon (weapon= at"
                               " the : line gives the one a unit uses)")
    go_to_shoot(s, "English")
    assert why(s, "shoot") == ""
