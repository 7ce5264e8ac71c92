"""The parameters and figures of a close combat (d6battle ``combat``): side A is the actor,
side B the target; each side's parameters end in ``_a`` or ``_b`` and read as a
:class:`Side`."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from tracker.rules.base import REQUIRED, AtMost, Figures, Params, param, setting_param

from ..settings import (
    COUNTERCHARGE_CANCELS,
    DRILLED_RANK_BONUS,
    MORALE_DICE,
    NATURAL_ONE,
    OUTNUMBER_WHEN,
    RANK_BONUS_RANKS,
    ROUT_DESTROYED,
)
from ..tables import FORMATIONS, KINDS

SIDES = ("a", "b")
CHARGES = ("no", "yes", "counter")
FACINGS = ("front", "flank", "rear")

_SIDE: dict[str, tuple[Any, str, dict[str, Any]]] = {
    # name: (default, help, bounds and choices); "{x}" reads as the side's letter
    "figures": (REQUIRED, "figures fighting (1 d6 each)", {"ge": 0}),
    "size": (0, "figures in the unit (0: figures_{x})", {"ge": 0}),
    "ca": (REQUIRED, "Combat Ability (CA)", {"ge": 0}),
    "mod": (0, "to-hit modifiers", {}),
    "ka": (REQUIRED, "Killing Ability (KA)", {"ge": 0}),
    "ap": (0, "Armour Penetration (AP)", {"ge": 0}),
    "save": (0, "armour save value", {"ge": 0}),
    "armour": (None, "armour parts instead of save_{x}=", {"kind": "strs"}),
    "durability": (REQUIRED, "Durability (D)", {"ge": 1}),
    "mo": (0, "Morale (Mo) (0: the test is not rolled)", {"ge": 0}),
    "kind": ("infantry", "infantry or cavalry", {"choices": KINDS}),
    "formation": ("regular", "regular, drilled, light or skirmish", {"choices": FORMATIONS}),
    "ranks": (0, "ranks of 6+ figures (rank bonus)", {"ge": 0}),
    "disordered": (False, "disordered (no rank or impact bonus)", {}),
    "terrain": (False, "in difficult terrain (no rank bonus)", {}),
    "charge": ("no", "charged this turn: no, yes, counter", {"choices": CHARGES}),
    "facing": ("front", "enemy facing it fights: front, flank (+1), rear (+2)",
               {"choices": FACINGS}),
    "push": (0, "push & shove bonus from last round", {"ge": 0, "le": 2}),
    "bonus": (0, "bonuses from army organization or special rules", {}),
    "min_size": (0, "minimum size for combat bonuses", {"ge": 0}),
    "facings": (1, "facings engaged by enemy battle formations", {"ge": 0}),
}


def _side(x: str, name: str) -> Any:
    default, help_, extra = _SIDE[name]
    who = "A (actor)" if x == "a" else "B (target)"
    if name == "figures":  # 1 d6 a figure: no more than the unit has
        extra = {**extra, "at_most": AtMost("actor" if x == "a" else "target", "strength",
                                            "figures")}
    return param(default, f"{who}: {help_.format(x=x)}", **extra)


@dataclass(frozen=True, slots=True)
class Side:
    """One side's parameters, read without its letter (``figures``, not ``figures_a``)."""

    figures: int
    size: int
    ca: int
    mod: int
    ka: int
    ap: int
    save: int
    armour: tuple[str, ...] | None
    durability: int
    mo: int
    kind: str
    formation: str
    ranks: int
    disordered: bool
    terrain: bool
    charge: str
    facing: str
    push: int
    bonus: int
    min_size: int
    facings: int

    @property
    def unit_size(self) -> int:
        """Figures in the unit (the figures fighting when not given)."""
        return self.size or self.figures

    @property
    def battle(self) -> bool:
        """A battle formation: every formation but skirmish."""
        return self.formation != "skirmish"


class CombatParams(Params):
    actor: str = param("", "unit A (roster name)", kind="actor")
    target: str = param("", "unit B (roster name)", kind="target", unlike="actor")
    figures_a: int = _side("a", "figures")
    size_a: int = _side("a", "size")
    ca_a: int = _side("a", "ca")
    mod_a: int = _side("a", "mod")
    ka_a: int = _side("a", "ka")
    ap_a: int = _side("a", "ap")
    save_a: int = _side("a", "save")
    armour_a: tuple[str, ...] | None = _side("a", "armour")
    durability_a: int = _side("a", "durability")
    mo_a: int = _side("a", "mo")
    kind_a: str = _side("a", "kind")
    formation_a: str = _side("a", "formation")
    ranks_a: int = _side("a", "ranks")
    disordered_a: bool = _side("a", "disordered")
    terrain_a: bool = _side("a", "terrain")
    charge_a: str = _side("a", "charge")
    facing_a: str = _side("a", "facing")
    push_a: int = _side("a", "push")
    bonus_a: int = _side("a", "bonus")
    min_size_a: int = _side("a", "min_size")
    facings_a: int = _side("a", "facings")
    figures_b: int = _side("b", "figures")
    size_b: int = _side("b", "size")
    ca_b: int = _side("b", "ca")
    mod_b: int = _side("b", "mod")
    ka_b: int = _side("b", "ka")
    ap_b: int = _side("b", "ap")
    save_b: int = _side("b", "save")
    armour_b: tuple[str, ...] | None = _side("b", "armour")
    durability_b: int = _side("b", "durability")
    mo_b: int = _side("b", "mo")
    kind_b: str = _side("b", "kind")
    formation_b: str = _side("b", "formation")
    ranks_b: int = _side("b", "ranks")
    disordered_b: bool = _side("b", "disordered")
    terrain_b: bool = _side("b", "terrain")
    charge_b: str = _side("b", "charge")
    facing_b: str = _side("b", "facing")
    push_b: int = _side("b", "push")
    bonus_b: int = _side("b", "bonus")
    min_size_b: int = _side("b", "min_size")
    facings_b: int = _side("b", "facings")
    natural_one: str = setting_param(NATURAL_ONE)
    morale_dice: str = setting_param(MORALE_DICE)
    rank_bonus_ranks: str = setting_param(RANK_BONUS_RANKS)
    drilled_rank_bonus: bool = setting_param(DRILLED_RANK_BONUS)
    countercharge_cancels: bool = setting_param(COUNTERCHARGE_CANCELS)
    outnumber_when: str = setting_param(OUTNUMBER_WHEN)
    rout_destroyed: str = setting_param(ROUT_DESTROYED)

    def side(self, x: str) -> Side:
        """Side ``x`` ("a" or "b")."""
        return Side(**{f.name: getattr(self, f"{f.name}_{x}") for f in fields(Side)})

    def name(self, x: str) -> str:
        return (self.actor if x == "a" else self.target) or x.upper()


def fighting(p: CombatParams) -> list[str]:
    """The units of a combat as named (both fight it)."""
    return [name for name in (p.actor, p.target) if name]


def combat_key(p: CombatParams) -> str:
    """What the limit of a combat counts: the two units together, whichever is A."""
    return "combat " + " & ".join(sorted(fighting(p)))


def other(x: str) -> str:
    return "b" if x == "a" else "a"


class CombatFigures(Figures):
    score_a: int
    score_b: int
    result: int
    winner: str | None
    loser: str | None
    hits_a: int
    saved_b: int
    kills_a: int
    needed_a: int | None
    bonus_a: int
    bonuses_a: list[str]
    left_a: int
    hits_b: int
    saved_a: int
    kills_b: int
    needed_b: int | None
    bonus_b: int
    bonuses_b: list[str]
    left_b: int
    morale_needed: int | None = None
    morale_roll: int | None = None
    morale_passed: bool | None = None
    morale: str | None = None
    """passed, failed, or None when no test was rolled."""
    loser_outcome: str = "fights on"
    """stands, routs, destroyed, fights on (a draw) or must test (no Mo given)."""
    push_shove: int = 0
    """The winner's push & shove bonus in the next round."""
