"""The exchange's parameters and figures (edc), shared by the action and its fill."""

from __future__ import annotations

from tracker.rules.base import Figures, Omit, Params, param

from ..common import DAMAGE_TYPES, DEFENSE_PRESS_TN, PRESS_TN, damage_table_param, tn_rule
from ..wounds import WoundFields

HOLDERS = ("attacker", "defender", "neither")
"""Who holds the initiative as an exchange begins: usually the attacker ("whoever holds
the initiative attacks"); the defender where the other attacks once the holder has acted
or buys the initiative; neither at a bout's start (the markers decide)."""


def pool_cost(dice: int, free: int, cost: int, press: int) -> int:
    """CP spent: rolled dice not given free, the activation cost, press dice."""
    return max(dice - free, 0) + cost + press


class ExchangeParams(Params):
    """The parameters of ``exchange``."""

    attacker: str = param("", "who attacks (spends CP)", kind="actor")
    defender: str = param("", "who defends (spends CP, takes the wound)", kind="target",
                          unlike="attacker")
    attack_dice: int = param(help="dice rolled for the attack", ge=0)
    atn: int = param(help="attack TN (weapon ATN with modifiers)", ge=1)
    defense_dice: int = param(0, "dice rolled for the defence", ge=0)
    dtn: int = param(help="defence TN (DTN with modifiers)", ge=1)
    maneuver: str = param("", "attack maneuver (cut, thrust, bash ...)")
    location: str = param("", "target location (head, neck, chest, abdomen, arm, leg)")
    defense: str = param("", "defence maneuver (parry, block, evade ...)")
    attack_free: int = param(0, "attack dice not from the CP (aggressive posture 2)", ge=0)
    attack_cost: int = param(0, "attack activation cost in CP (defensive posture 2)", ge=0)
    defense_free: int = param(0, "defence dice not from the CP (defensive posture 2)", ge=0)
    defense_cost: int = param(0, "defence activation cost (aggressive posture 2)", ge=0)
    press_dice: int = param(0, "attacker's press dice", ge=0)
    press_tn: int = param(PRESS_TN, "attacker's press TN", ge=1)
    defense_press_dice: int = param(0, "defender's press dice", ge=0)
    defense_press_tn: int = param(DEFENSE_PRESS_TN, "defender's press TN", ge=1)
    damage_type: str = param("cutting", "damage type", choices=DAMAGE_TYPES)
    weapon_damage: int = param(0, "weapon damage added to the MoS")
    toughness: int = param(0, "defender's Toughness taken off the MoS", ge=0)
    armour: int = param(0, "defender's armour at the location", ge=0)
    wound_level: int = param(-1, "wound level 0-5 (-1: MoS + damage - TO - AR)", ge=-1, le=5)
    defender_cp: int = param(-1, "defender's CP left before the exchange (-1: unknown)", ge=-1)
    defender_mounted: bool = param(False, "defender is mounted (ride check if hit)")
    holder: str = param("attacker", "who holds the initiative as the exchange begins "
                        "(the winner keeps or takes it)", choices=HOLDERS)
    damage_table: str = damage_table_param()
    tn_above_ten: str = tn_rule()

    @property
    def shield_block(self) -> bool:
        """The defence is a block with a shield (once an exchange)."""
        return "block" in self.defense.lower() and bool(self.defense_dice)

    def attack_cp(self) -> int:
        return pool_cost(self.attack_dice, self.attack_free, self.attack_cost, self.press_dice)

    def defense_cp(self) -> int:
        return pool_cost(self.defense_dice, self.defense_free, self.defense_cost,
                         self.defense_press_dice)


class ExchangeRoll(Figures):
    """The contest and the press of an exchange."""

    attack_successes: int
    defense_successes: int
    mos: int
    winner: str
    initiative: str
    """Who holds the initiative next exchange."""
    hit: bool
    attack_botch: bool
    defense_botch: bool
    attack_fumble_penalty: int
    defense_fumble_penalty: int
    attack_cp_spent: int
    defense_cp_spent: int
    press_successes: Omit[int] = None
    defense_press_successes: Omit[int] = None
    press_total: Omit[int] = None
    defense_press_total: Omit[int] = None
    press_feet: Omit[int] = None
    press_by: Omit[str] = None
    drive_feet: Omit[int] = None
    """Feet the loser gives without press dice (one per point of MoS)."""


class ExchangeFigures(WoundFields, ExchangeRoll):
    """What ``exchange`` reports (the ``--json`` keys): the roll, then the wound."""

    ride_check_penalty: Omit[int] = None
