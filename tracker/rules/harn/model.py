"""HârnMaster combatants with their missile state.

A combatant keeps its missile skills (Archery, Slings, Throwing ML; Archery SB for
crossbows), its missile weapon (kind, Base Range BR, Draw DRW, spanner rounds, impact)
and the state the missile actions move through: loaded, spanning progress, the round
it aimed in (the +10 is for a shot in the next round only), projectile in hand (load
is then a free action), the last action this round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, model_validator

from tracker.core.domains import Domain, checks
from tracker.core.model import Combatant, Count, Encounter, Model, Rating

from .effects import aim_effect
from .kinds import IMPACT, LAST_ACTIONS
from .settings import INITIATIVE_TIES

WeaponKind = Literal["bow", "crossbow", "sling", "thrown"]
Movement = Literal["still", "moving", "evading"]
ThrownObject = Literal["none", "object", "oblong"]


class MissileWeapon(Model):
    """A missile weapon as the missile sequence uses it."""

    name: str = "bow"
    kind: WeaponKind = "bow"
    br: Count = 0
    """Base Range (BR) in feet."""
    draw: Count = 0
    """Bows: Draw (DRW); the Aim action needs the shooter's Pull to exceed it by 75."""
    span_rounds: Annotated[int, Domain(choices=(1, 2, 4, 8))] = 1
    """Crossbows: rounds to span (1 by hand; 2, 4 or 8 with a mechanical spanner)."""
    impact: Annotated[str, Domain(pattern=IMPACT, said="must be dice the strike can roll, "
                                  "like d12+4 or 2d6+1 (or a number)")] = ""
    """Base impact of the projectile, e.g. ``d12+4``."""
    impact_bonus: Count = 0
    """The projectile's Impact TA bonus."""
    heft: Count = 0
    """Thrown: Heft penalty (as a positive number of points)."""
    object: ThrownObject = "none"
    """Thrown: an improvised object (-10) or an oblong one (-20)."""
    pb_zd: Count = 0
    """Thrown: Zone Die sides at Direct PB (Thrown Weapon table); 0 uses the setting."""


class RangeNote(Model):
    """The last range this combatant measured to another one (``id`` is the target's id)."""

    id: str
    feet: Count


class HarnCombatant(Combatant):
    """A HârnMaster combatant; ``initiative`` is the Initiative Rating (IR).

    Each field declares its domain: skills, penalties and counts never below 0, a target
    rating (TAR) at least 1.
    """

    table_fields: ClassVar[tuple[str, ...]] = (
        "archery", "slings", "throwing", "pull", "dodge", "movement",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    archery: Rating = 0
    """Archery ML (bows; crossbows may use it)."""
    archery_sb: Rating = 0
    """Archery SB: a crossbow may shoot at an EML of SB x 3 instead of the ML."""
    slings: Rating = 0
    throwing: Rating = 0
    pull: Rating = 0
    """Pull, compared with a bow's Draw for the Aim action."""
    dodge: Rating = 0
    """Effective Dodge Index: an evading target costs the shooter Dodge x 5."""
    fatigue: Count = 0
    """Fatigue penalty (points) to its own tests."""
    impairment: Count = 0
    """Impairment penalty (points) to its own tests."""
    tar: Annotated[int, Domain(ge=1)] = 1
    """Target rating (TAR): counts in a target count; TAR 2+ is a massive target."""
    zones: Count = 0
    """Body zones on its Body Location table (0: the humanoid setting)."""
    movement: Movement = "still"
    """As a target this round: still, moving (charging) or evading; still again as the
    round ends."""
    moved: bool = False
    """Half-moved this round: the Shooter Moving penalty, before or after the shot; ends
    with the round."""
    weapon: MissileWeapon | None = None
    loaded: bool = False
    spanned: bool = False
    """Crossbows: spanned and ready for a bolt."""
    span_progress: Count = 0
    """Crossbows: rounds of spanning done so far, short of the weapon's span rounds (once
    spanned it is 0 again)."""
    aimed_round: int | None = None
    """Saves made before the aim was an effect: read as the ``aim`` effect on load."""
    in_hand: bool = False
    """A projectile in hand or readily to hand: Load is a free action."""
    acted_round: Annotated[int | None, Domain(ge=1)] = None
    """The round of its missile action (free loads do not count), while that round lasts."""
    last_action: Annotated[str, Domain(choices=LAST_ACTIONS)] = ""
    """Its missile action this round (``defend`` once abandoned), while the round lasts:
    what the Missile Actions table then allows of movement."""
    ranges: list[RangeNote] = Field(default_factory=list)

    notes_on_others: ClassVar[tuple[str, ...]] = ("ranges",)

    kept: ClassVar[Mapping[str, str]] = {
        "acted_round": "the round of its missile action: the action records it",
        "last_action": "its missile action this round: the action records it",
    }
    """The missile actions record these for the round's limit and movement; ``undo``
    takes one back."""

    def tie_rank(self, enc: Encounter) -> int:
        """Equal IR: by name (0), or as the encounter lists them where
        ``initiative_ties`` says ``listed`` (the first listed acts first)."""
        if INITIATIVE_TIES.of(enc) != "listed":
            return 0
        return -next(i for i, c in enumerate(enc.combatants) if c is self)

    @model_validator(mode="after")
    def _spanning(self, info: ValidationInfo) -> HarnCombatant:
        """Spanning belongs to a crossbow: its progress stays short of the weapon's span
        rounds (the last round spans it), and only a crossbow is spanned."""
        crossbow = self.weapon is not None and self.weapon.kind == "crossbow"
        most = self.weapon.span_rounds - 1 if self.weapon is not None and crossbow else 0
        why = (f"short of the crossbow's {most + 1} span rounds" if crossbow
               else "only a crossbow is spanned")
        then = "" if checks(info, "span_progress") else "; set span_progress first"
        if self.span_progress > most and checks(info, "span_progress", "weapon"):
            raise ValueError(f"span_progress={self.span_progress}: must be at most {most} "
                             f"({why}){then}")
        then = "" if checks(info, "spanned") else "; set spanned=no first"
        if self.spanned and not crossbow and checks(info, "spanned", "weapon"):
            raise ValueError(f"spanned=yes: only a crossbow is spanned{then}")
        return self

    @model_validator(mode="before")
    @classmethod
    def _aim_from_older_saves(cls, data: Any) -> Any:
        """An ``aimed_round`` of an older save is the aim effect, begun in that round."""
        if not isinstance(data, dict) or data.get("aimed_round") is None:
            return data
        data = dict(data)
        rnd = int(data.pop("aimed_round"))
        data["effects"] = [*data.get("effects", []), aim_effect((rnd, 0, 0, 0))]
        return data


class HarnEncounter(Encounter):
    """An encounter of HârnMaster combatants."""

    ruleset: str = "harn"
    combatants: list[HarnCombatant] = Field(default_factory=list)  # type: ignore[assignment]
