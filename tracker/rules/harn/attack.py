"""What a missile attack takes (its typed parameters) and what it reports (its figures)."""

from __future__ import annotations

from dataclasses import field

from pydantic import NonNegativeInt

from tracker.rules.base import Figures, Params, param

from .injuries import InjuryCode
from .kinds import MOVEMENTS, WEAPONS
from .settings import (
    COUNT_PICK,
    CROSSWIND_DIRECT,
    HUMANOID_ZONES,
    MASSIVE_TARGET,
    SPOILED_ATTACK,
    TA_CHOICE,
    THROWN_PB_ZD,
    ZONE_OVERFLOW,
    ZONE_PICK,
    one_action_param,
)


class AttackParams(Params):
    """A missile attack: the shooter, the target, the weapon and the situation."""

    actor: str = param("", "the shooter", kind="actor")
    at: str = param("", "the combatant shot at", kind="target", unlike="actor")
    ml: int | None = param(None, "missile ML (Archery, Slings or Throwing)", ge=0)
    range: int | None = param(None, "feet to the target (or the volley area)", ge=0)
    br: int | None = param(None, "Base Range (BR) in feet", ge=1)
    weapon: str | None = param(None, "bow, crossbow, sling or thrown", choices=WEAPONS)
    target: str | None = param(None, "target is still, moving or evading", choices=MOVEMENTS)
    dodge: int | None = param(None, "evading target's Effective Dodge Index (x5 penalty)", ge=0)
    shooter_moving: bool | None = param(None, "shooter half-moved this turn (-10, not throwers)")
    aimed: bool | None = param(None, "took the Aim action last round (+10)")
    sb: int | None = param(None, "crossbow: Archery SB (EML may be SB x 3)", ge=0)
    pull: int | None = param(None, "shooter's Pull (a bow's Aim needs Pull - Draw >= 75)",
                             ge=0)
    draw: int | None = param(None, "bow's Draw (DRW)", ge=0)
    crosswind: int = param(0, "crosswind Windforce 0-4", ge=0, le=4)
    overhead: int | None = param(None, "overhead clearance in feet (none: open sky)", ge=0)
    tar: int | None = param(None, "target's TAR (TAR2+: +5 per TAR at Direct)", ge=1)
    object: str | None = param(None, "thrown object: none, object (-10), oblong (-20)",
                               choices=("none", "object", "oblong"))
    heft: int | None = param(None, "Heft penalty of the thrown weapon/object (points)",
                             ge=0)
    trauma: int | None = param(None, "fatigue and impairment penalty (points)", ge=0)
    wet: bool = param(False, "wet bow or crossbow string: BR halved")
    charge: bool = param(False, "Charging Throw after a 20-ft+ Charge (thrown)")
    area_moving: bool = param(False, "volley: the target area is moving (-10)")
    zone_aim: int = param(1, "ZN aimed at: the Zone Die counts up from it", ge=1)
    zones: int | None = param(None, "target's body zones (none: humanoid)", ge=0)
    targets: int | None = param(None, "target count: others within 5 ft (Direct) or all in "
                                "the area (Volley), TAR for large ones", ge=0)
    numbering: tuple[str, ...] = param((), "names by count number (horse twice for TAR2)")
    count_zones: tuple[NonNegativeInt, ...] = param(
        (), "body zones by count number (one value: all)")
    deviation_targets: tuple[NonNegativeInt, ...] = param(
        (), "target counts of the 8 adjacent areas (or one)")
    steps: int = param(0, "success steps beyond CS (one more TA each)", ge=0)
    ta: tuple[str, ...] = param((), "TAs of choice in order: precision or impact")
    base_impact: str = param("", "weapon's base impact, e.g. d12+4")
    impact_bonus: int | None = param(None, "projectile's Impact TA bonus", ge=0)
    location: str = param("", "name of the location struck (from your table)")
    injury: InjuryCode = param("", "injury level from your table, e.g. S2p (level 1 to 5)")
    strike_impact: int | None = param(None, "strike impact rolled at the table (else its "
                                      "dice are asked for)", ge=0)
    crosswind_direct: str = param(help="Direct crosswind rule", choices=CROSSWIND_DIRECT.choices,
                                  setting=CROSSWIND_DIRECT)
    massive_target: str = param(help="massive target rule", choices=MASSIVE_TARGET.choices,
                                setting=MASSIVE_TARGET)
    spoiled_attack: str = param(help="EML <= -40: fails or wasted",
                                choices=SPOILED_ATTACK.choices, setting=SPOILED_ATTACK)
    ta_choice: str = param(help="TA spent when ta= is silent", choices=TA_CHOICE.choices,
                           setting=TA_CHOICE)
    zone_pick: str = param(help="ZD kept: lowest, highest, first or 1..n", setting=ZONE_PICK)
    count_pick: str = param(help="volley precision d10 kept", setting=COUNT_PICK)
    zone_overflow: str = param(help="ZN past the last zone", choices=ZONE_OVERFLOW.choices,
                               setting=ZONE_OVERFLOW)
    humanoid_zones: int = param(help="zones of a humanoid", ge=1, setting=HUMANOID_ZONES)
    thrown_pb_zd: int = param(help="thrown ZD at Direct PB", ge=2, setting=THROWN_PB_ZD)
    pb_zd: int | None = param(None, "the thrown weapon's own ZD at Direct PB (sides)", ge=2)
    one_action_per_round: bool = one_action_param()


class ModifierFigure(Figures):
    """A situational modifier applied to the EML."""

    name: str
    value: int


class AttackFigures(Figures):
    """The figures of a missile attack (``--json``); every key is always present."""

    flag_words = {"precision": "a precision TA", "impact_ta": "an impact TA"}

    attack_type: str
    range: int
    br: int | float
    weapon: str
    ml: int
    skill: str
    modifiers: list[ModifierFigure]
    eml_adjusted: int
    eml: int
    spoiled: bool
    roll: int | None = None
    success: str | None = None
    """CS, MS, MF or CF (None: a spoiled attack wasted, no roll)."""
    result: str | None = None
    """strike, miss, mishap or spoiled."""
    hit: str | None = None
    """Who the strike found: target, nearby, area or deviation."""
    zone_die: str
    zone_aim: int | None
    zone_rolls: list[int] = field(default_factory=list)
    zone_numbers: list[int] = field(default_factory=list)
    zone: int | None = None
    impact_mod: int
    precision: bool = False
    precision_ta: int = 0
    free_ta: int = 0
    ta: list[str] = field(default_factory=list)
    impact_tas: int = 0
    impact_ta: bool = False
    impact_total: int = 0
    impact: str = ""
    area: str | None
    target_count: int
    count_die: str | None = None
    count_rolls: list[int] = field(default_factory=list)
    struck: int | None = None
    struck_name: str | None = None
    impact_roll: int | None = None
    deviation: int | None = None
    mishap: str | None = None
    """fumble (CF0) or stumble (CF5)."""
    notes: list[str] = field(default_factory=list)
    impact_rolls: list[int] = field(default_factory=list)
    """The dice of the strike impact (role ``impact``)."""
    strike_impact: int | None = None
    """The strike impact rolled (or given), for the Injury Sequence."""
    movement: str = ""
    """What the Missile Actions table allows of movement with this action."""
    time: str = ""
    defence: str = ""
