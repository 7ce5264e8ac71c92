"""Plain combatants: hit points, defences and an initiative bonus, for any game.

Hit points are optional: a combatant with ``hp`` none is not tracked (its row shows no
points, ``damage`` refuses it). Given one of ``hp`` and ``max_hp`` as it joins, the
other is the same (a goblin with 7 hit points has 7 at most). ``temp_hp`` are lost
first. Defences are numbers an attack is made against: ``ac``, and any other the GM
names in ``defences`` and gives as a stat (``defences=ac,will will=13``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar

from pydantic import Field, field_validator, model_validator

from tracker.core.model import Combatant, Encounter
from tracker.rules.errors import RuleError
from tracker.rules.ruleset import field_names

from .damage import read_attack
from .domains import DEFENCE, HP, INIT_BONUS, MAX_HP, TEMP_HP
from .health import DEFENCE_WORD
from .settings import INITIATIVE_TIES, SECRET_FIELDS


class PlainCombatant(Combatant):
    """A combatant of any game: hit points, defences, an initiative bonus."""

    table_fields: ClassVar[tuple[str, ...]] = ("hp", "ac", "init_bonus", "attack")
    """What the add form asks first: the fields a GM fills in at the table."""

    hp: Annotated[int | None, HP] = None
    """Hit points now (none: not tracked)."""
    max_hp: Annotated[int | None, MAX_HP] = None
    """Hit points at most: healing stops there (none: no maximum)."""
    temp_hp: Annotated[int, TEMP_HP] = 0
    """Temporary hit points, lost before ``hp``."""
    ac: Annotated[int | None, DEFENCE] = None
    """Armour Class, or whatever the game calls the defence attacks are made against."""
    defences: str = "ac"
    """The defences an attack may be made against (``vs=``), comma separated: ``ac``
    and any stat of the combatant (``ac,will``)."""
    init_bonus: Annotated[int, INIT_BONUS] = 0
    """Added to its initiative die."""
    attack: str = ""
    """Its usual attack, the bonus and the damage dice (``+4 1d6+2``): what ``attack``
    takes where they are not given."""

    def tie_rank(self, enc: Encounter) -> int:
        """Equal initiative: the higher bonus first, or every side but the GM's first
        (then the bonus), or by name alone (``initiative_ties``)."""
        rule = INITIATIVE_TIES.of(enc)
        if rule == "name":
            return 0
        player = rule == "players" and bool(enc.gm_side) and self.side != enc.gm_side
        return 1000 * player + self.init_bonus

    @model_validator(mode="before")
    @classmethod
    def _one_gives_the_other(cls, data: Any) -> Any:
        """``hp=7`` alone: 7 at most too; ``max_hp=24`` alone: at 24 now."""
        if not isinstance(data, dict):
            return data
        hp, top = data.get("hp"), data.get("max_hp")
        if hp is not None and top is None and "max_hp" not in data:
            return {**data, "max_hp": hp if hp != 0 else None}
        if top is not None and hp is None and "hp" not in data:
            return {**data, "hp": top}
        return data

    @field_validator("defences")
    @classmethod
    def _defence_names(cls, value: str) -> str:
        names = [n.strip().lower() for n in value.split(",") if n.strip()]
        for name in names:
            if not re.fullmatch(DEFENCE_WORD, name):
                raise ValueError(f"'{name}' is not a defence name (letters, digits and _)")
        return ",".join(names)

    @field_validator("attack")
    @classmethod
    def _attack_reads(cls, value: str) -> str:
        if value.strip():
            try:
                read_attack(value)
            except RuleError as exc:
                raise ValueError(str(exc).split(": ", 1)[1]) from None
        return value.strip()

    @model_validator(mode="after")
    def _within_maximum(self) -> PlainCombatant:
        if self.hp is not None and self.max_hp is not None and self.hp > self.max_hp:
            raise ValueError(f"hp={self.hp}: must be at most max_hp ({self.max_hp})")
        return self


LEGACY_SECRET = ["pools", "wounds", "notes"]
"""What every save's ``secret_fields`` held before plain named its own default."""


class PlainEncounter(Encounter):
    """An encounter of plain combatants."""

    ruleset: str = "plain"
    combatants: list[PlainCombatant] = Field(default_factory=list)  # type: ignore[assignment]
    secret_fields: list[str] = Field(
        default_factory=lambda: field_names(str(SECRET_FIELDS.default)))
    """Another side's AC, attack and initiative bonus are the GM's (the setting's default)."""

    @model_validator(mode="before")
    @classmethod
    def _numbers_behind_the_screen(cls, data: Any) -> Any:
        """A save from before plain kept a monster's numbers from players lists only what
        is always secret (``pools``, ``wounds``, ``notes``), in its journal if not in its
        state: it chose nothing, and has plain's default."""
        if isinstance(data, dict) and data.get("secret_fields") == LEGACY_SECRET:
            return {k: v for k, v in data.items() if k != "secret_fields"}
        return data
