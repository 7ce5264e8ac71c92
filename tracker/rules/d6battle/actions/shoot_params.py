"""The parameters and figures of a shot (d6battle ``shoot``)."""

from __future__ import annotations

from tracker.rules.base import AtMost, Figures, Omit, Params, param, setting_param

from ..settings import BOWS_NO_MOVE_SHOOT, MORALE_RETEST, NATURAL_ONE
from ..tables import weapon_table

FIRE_MODES = ("stationary", "moving", "stand", "flee")
RANGES = ("effective", "long")
WEAPONS = tuple(weapon_table().weapons)
"""The weapon keys, the choices of ``weapon=`` (the table is read when the action loads)."""


class ShootParams(Params):
    actor: str = param("", "shooting unit (roster name)", kind="actor")
    target: str = param("", "target unit (roster name)", kind="target", unlike="actor")
    figures: int = param(help="figures firing (1 d6 each; ROF 2 doubles)", ge=0,
                         at_most=AtMost("actor", "strength", "figures"))
    sa: int = param(help="firer's Shooting Ability (SA)")
    weapon: str = param(help="weapon from the table", choices=WEAPONS)
    range: str = param("effective", "range band (long: over half range, -1)", choices=RANGES)
    distance: float = param(0.0, "inches to the target (0: not measured); sets the band", ge=0)
    fire: str = param(
        "stationary",
        "stationary, moving (& shooting), stand (& shoot at chargers), flee (fire & flee)",
        choices=FIRE_MODES,
    )
    skirmishers: int = param(0, "skirmish formations in the line of fire (-1 each)", ge=0)
    chargers: bool = param(False, "shooting chargers (-1; always so for stand and flee)")
    terrain: bool = param(False, "target in a terrain feature (-1)")
    mass: bool = param(False, "mass shooting (stationary, frontal zone, over 8\")")
    frontal: bool = param(True, "target in the firer's frontal attack zone")
    save: int = param(0, "target's armour save value (sum of its parts)", ge=0)
    armour: tuple[str, ...] | None = param(
        None, "target's armour parts instead of save= (shield,heavy-armor)", kind="strs"
    )
    durability: int = param(help="target's Durability (D)", ge=1)
    unit_size: int = param(0, "target unit's size for the morale table (0: no test)", ge=0)
    casualties_before: int = param(
        0, "target's casualties already taken (morale table)", ge=0
    )
    natural_one: str = setting_param(NATURAL_ONE)
    bows_no_move_shoot: bool = setting_param(BOWS_NO_MOVE_SHOOT)
    morale_retest: bool = setting_param(MORALE_RETEST)


def shots(p: ShootParams) -> int:
    """Dice to hit: one per figure, two for a weapon that doubles its ROF when stationary."""
    w = weapon_table().weapons.get(p.weapon)
    rof = w.rof_stationary if w is not None and p.fire == "stationary" else 1
    return p.figures * rof


class ShootFigures(Figures):
    hits: int
    saved: int
    kills: int
    ka: int
    ap: int
    needed: int
    """The d6 score to hit."""
    weapon: str
    range: str
    rof: int
    shots: int
    sa_modified: int
    modifiers: list[str]
    impossible_odds: bool
    save: int
    save_needed: int | None
    kill_needed: int | None
    expected_kills: float
    morale_test: Omit[bool] = None
    morale_casualties: Omit[int] = None
    casualties: Omit[int] = None
    notes: Omit[list[str]] = None
