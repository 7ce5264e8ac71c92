"""The edc encounter model: a fighter's attributes, Combat Pool (CP), Missile Pool (MP),
posture, footing, mount, lighting, reach, initiative marker and carried penalties.

Pain and the Blood Loss TN (BL) are not stored: they are worked out from the wounds, so
adding or healing a wound (by any command) and undo keep them right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field, ValidationInfo, model_validator

from tracker.core.domains import Domain, at_most
from tracker.core.model import Combatant, Count, Encounter, Pool, Rating

from .common import CP, MP

Posture = Literal["neutral", "aggressive", "defensive"]
Footing = Literal["level", "higher"]
Lighting = Literal["normal", "dim", "moonlight", "darkness"]
Marker = Literal["", "red", "white", "hesitating"]
Hesitation = Literal["", "defend only", "frozen"]
Passing = Literal["", "takes", "loses"]
Gait = Literal["stand", "walk", "trot", "canter", "gallop"]
TN = Annotated[int, Domain(ge=1)]
"""A target number: a die shows it or more to succeed."""


class EdcCombatant(Combatant):
    """A duellist: attributes (Reflex, Toughness, Will Power ...), CP and MP as pools.

    Each field declares its domain: attributes, dice and Health are never below 0, a
    TN is at least 1, reach one of the six steps of the ladder (0-5).
    """

    table_fields: ClassVar[tuple[str, ...]] = (
        "reflex", "proficiency", "toughness", "will_power", "agility", "health_max",
        "armour", "weapon_damage", "reach",
    )
    """What the add form asks first: the fields a GM fills in at the table."""

    reflex: Rating = 5
    proficiency: Rating = 5
    """Proficiency with the weapon in hand (adds to Reflex for the CP)."""
    toughness: Rating = 4
    will_power: Rating = 4
    knockdown: Rating = 4
    """Knockdown (derived attribute): dice rolled to stay on one's feet."""
    agility: Rating = 4
    ride: Rating = 0
    """Ride skill; AG/Ride checks roll Agility + Ride dice."""
    health: Count = 5
    health_max: Annotated[int, Domain(ge=1)] = 5
    armour: Rating = 0
    """Armour rating (AR) at the spot that matters most (knockout TN 10 - AR)."""
    atn: TN = 7
    dtn: TN = 7
    reach: Annotated[int, Domain(ge=0, le=5)] = 2
    """Weapon length on the 0-5 ladder (hand, short, medium, long, very long, extreme)."""
    weapon_damage: int = 0
    cp_modifier: int = 0
    """Any other CP modifier the GM keeps each round (armour penalty, fatigue ...)."""
    bout: str = ""
    """Which duel this fighter is in (bouts are run separately)."""
    opponent: str = ""
    """Id of the fighter faced now (for reach and mounted height); blank: none."""
    posture: Posture = "neutral"
    footing: Footing = "level"
    prone: bool = False
    """On the ground: half the CP at each refresh."""
    lighting: Lighting = "normal"
    dark_sight: bool = False
    mounted: bool = False
    mount_height: Count = 2
    """CP from mounted height against ground opponents (varies with the horse)."""
    gait: Gait = "stand"
    mount_move: Rating = 10
    inside_reach: bool = False
    """The shorter weapon has landed a damaging strike: no more reach penalty."""
    marker: Marker = ""
    """The initiative marker thrown at the start of a bout or after a break (put away as
    that exchange ends); ``hesitating``: threw none."""
    holds_initiative: bool = False
    """Holds the initiative in this exchange: attacks first in his bout."""
    next_initiative: Passing = ""
    """This exchange's result: takes (or keeps) or loses the initiative as the next
    exchange begins."""
    hesitation: Hesitation = ""
    """Hesitated this exchange: may only defend, or is frozen (no action at all)."""
    shield_used: bool = False
    """The shield has blocked this exchange (once an exchange, whatever the source)."""
    single_exchange: bool = False
    """A successful ride-by limits this round to a single exchange."""
    exchange_spent: Count = 0
    """CP spent in the exchange named by ``exchange_mark``."""
    exchange_mark: Annotated[str, Domain(pattern=r"(?:[1-9]\d*\.[12])?",
                                         said="must be ROUND.EXCHANGE (2.1), or empty")] = ""
    """"ROUND.EXCHANGE" (1 or 2) the ``exchange_spent`` belongs to."""
    shock_spill: Count = 0
    """Shock beyond the CP left, taken off at the next refresh (unless Pain is larger)."""
    fumble_penalty: Count = 0
    """CP lost at the next refresh for a fumble in the second exchange."""
    aim: Rating = 0
    missile_proficiency: Rating = 0
    missile_prep: Count = 0
    """Rounds of missile preparation still to go (0: ready or not preparing)."""
    missile_prep_cost: Count = 0
    """MP cost paid for a shortened preparation, taken from the proficiency refresh."""
    preparing: bool = False
    missile_ready: bool = False
    """Missile weapon ready to loose (preparation done, not yet fired)."""
    fired: bool = False
    """Fired a missile this round (no Aim refresh next round)."""
    pools: list[Pool] = Field(default_factory=list)

    names_another: ClassVar[tuple[str, ...]] = ("opponent",)

    kept: ClassVar[Mapping[str, str]] = {
        "exchange_spent": "CP spent in this exchange: the dice spent record it",
        "exchange_mark": "the exchange the CP spent belongs to: the dice spent record it",
        "next_initiative": "this exchange's result, handed over as the next one begins: "
                           "the exchange records it; set holds_initiative for a break",
    }
    """What the exchange and the dice spent record, for the exchange's CP and the
    initiative it passes on; ``undo`` takes one back."""

    @model_validator(mode="after")
    def _health_at_most_max(self, info: ValidationInfo) -> EdcCombatant:
        """Health no more than the fighter's full Health, where either comes in."""
        at_most(info, self, "health", "health_max", self.health_max, "the fighter's full "
                "Health")
        return self

    @model_validator(mode="after")
    def _ensure_pools(self) -> EdcCombatant:
        names = {p.name for p in self.pools}
        if CP not in names:
            base = self.reflex + self.proficiency
            self.pools.insert(
                0,
                Pool(
                    name=CP,
                    size=base,
                    breakdown=[f"Reflex {self.reflex}", f"Proficiency {self.proficiency}"],
                ),
            )
        if MP not in names:
            self.pools.append(Pool(name=MP, size=0))
        return self

    def find_pool(self, name: str) -> Pool | None:
        """The pool of that name, or None (the player view hides pools)."""
        return next((p for p in self.pools if p.name == name), None)

    def pool(self, name: str) -> Pool:
        found = self.find_pool(name)
        if found is None:
            raise KeyError(name)
        return found

    @property
    def combat_pool(self) -> Pool:
        return self.pool(CP)

    @property
    def missile_pool(self) -> Pool:
        return self.pool(MP)

    def spent_in_exchange(self, round_: int, phase: int) -> int:
        """CP spent in this exchange (0 when the last spending was in another)."""
        return self.exchange_spent if self.exchange_mark == f"{round_}.{phase + 1}" else 0

    @property
    def pain(self) -> int:
        """Pain of all wounds not yet healed (before Will Power)."""
        return sum(w.pain for w in self.wounds)


class EdcEncounter(Encounter):
    """An edc fight: bouts of duellists, each round two exchanges."""

    ruleset: str = "edc"
    combatants: list[EdcCombatant] = Field(default_factory=list)  # type: ignore[assignment]
