"""d6battle units: a core ``Unit`` (strength = figures) with SA, CA, Mo, D, armour parts,
missile weapon, close-combat KA/AP, formation and combat state.

Abbreviations: SA Shooting Ability, CA Combat Ability, Mo Morale, D Durability,
KA Killing Ability, AP Armour Penetration.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator

from tracker.core.domains import Domain
from tracker.core.model import Count, Encounter, Rating, Unit

from .tables import KINDS, armour_part, armour_save, weapon

Formation = Literal["regular", "drilled", "light", "skirmish"]


class D6Unit(Unit):
    """A d6battle unit of figures.

    ``ranks`` counts its ranks of 6 or more figures (rank bonus) and ``files`` its
    frontage in figures; ``formation`` is regular, drilled, light or skirmish: every
    formation but skirmish is a battle formation. ``kind`` is infantry or cavalry.
    Stat defaults are placeholders: set them for each unit. Each field declares its
    domain: a stat is never below 0, Durability at least 1, push and shove 0 to 2.
    """

    table_fields: ClassVar[tuple[str, ...]] = (
        "kind", "formation", "sa", "ca", "mo", "durability", "ka", "ap", "weapon",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    sa: Rating = 3
    """Shooting Ability (SA)."""
    ca: Rating = 3
    """Combat Ability (CA)."""
    mo: Rating = 7
    """Morale (Mo): a morale test passes on a roll of Mo or less."""
    durability: Annotated[int, Domain(ge=1)] = 4
    """Durability (D): a kill roll of d6 + KA >= D kills a figure."""
    ka: Rating = 3
    """Killing Ability (KA) in close combat."""
    ap: Rating = 0
    """Armour Penetration (AP) in close combat."""
    weapon: str = ""
    """Missile weapon, a key of the weapon table ("" for none)."""
    armour_parts: list[str] = Field(default_factory=list)
    """Armour parts from the armour table; the save value is their sum."""
    kind: Annotated[str, Domain(choices=KINDS)] = "infantry"
    formation: Formation = "regular"
    disordered: bool = False
    """Disordered (no rank or impact bonus): ends where the setting disorder_ends says."""
    difficult_terrain: bool = False
    """Fighting in difficult terrain (no rank bonus)."""
    in_terrain: bool = False
    """Inside a terrain feature (-1 to shoot at it)."""
    moved: bool = False
    """Moved this turn (moving & shooting): ends with its own side's turn."""
    push_shove: Annotated[int, Domain(ge=0, le=2)] = 0
    """Push & shove bonus carried into its next round of combat (+1, or +2): it ends
    with the next combat phase after the one it was won in."""
    push_shove_since: tuple[int, int, int, int] | None = None
    """Where the push & shove bonus was won (round, side, phase, turn)."""
    min_size: Count = 0
    """Minimum size: below it at the end of a combat it gets no combat bonus."""
    rank_bonus_max: Annotated[int | None, Domain(ge=0)] = None
    """Special rule overriding the rank bonus cap (None: +2 regular, +1 light)."""
    command: Rating = 0
    """Command value used for its command test when charged in the flank (0: not set)."""
    flee: Annotated[str, Domain(choices=("", "morale", "rout"))] = ""
    """Why it flees in this turn's resolution phase: "morale" (failed a shooting morale
    test), "rout" (lost a combat and failed its test), "" when it does not. It ends with
    the resolution phase: the unit has fled, and stays routed."""

    @field_validator("weapon")
    @classmethod
    def _known_weapon(cls, value: str) -> str:
        return weapon(value).key if value else ""

    @field_validator("armour_parts")
    @classmethod
    def _known_parts(cls, value: list[str]) -> list[str]:
        for part in value:
            armour_part(part)
        armour_save(value)
        return value

    @property
    def save(self) -> int:
        """The armour save value: the sum of its armour parts."""
        return armour_save(self.armour_parts)


class D6Encounter(Encounter):
    """An encounter whose units are d6battle units."""

    units: list[D6Unit] = Field(default_factory=list)  # type: ignore[assignment]

