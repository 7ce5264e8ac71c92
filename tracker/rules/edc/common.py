"""Shared pieces of the edc ruleset: d10 success counting, botches, the TN rule, names.

A die succeeds when it shows its target number (TN) or more; a roll botches (fumbles)
when it has no successes and two or more 1s. TNs above 10 follow the ``tn_above_ten``
setting: ``cap`` (only a 10 succeeds) or ``impossible`` (no die can succeed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from tracker.core.dice import Dice, face_classes
from tracker.rules.base import RuleError, Stage, param

from .settings import DAMAGE_TABLE, TN_ABOVE_TEN

if TYPE_CHECKING:
    from tracker.core.model import Encounter

CP = "CP"
"""The Combat Pool's name on a fighter."""
MP = "MP"
"""The Missile Pool's name on a fighter."""

# The words of the tables, as the actions offer them for choice. The tables themselves
# (tables.toml, damage.toml) load when a roll first reads them, and refuse a row that
# names a word not here, or leaves one out.
DAMAGE_TYPES = ("cutting", "puncture", "blunt", "generic")
TERRAINS = ("narrow", "swampy", "rocky", "icy", "slippery", "tight", "limited_room", "pressing")
MOVEMENTS = ("standing", "crawling", "cautious", "normal", "defending", "hurried", "attacking",
             "sprinting")
GAITS = ("stand", "walk", "trot", "canter", "gallop")
MANEUVERS = ("accelerate", "accelerate2", "decelerate", "decelerate2", "decelerate3",
             "quarter_turn", "wheel")
EVASIONS = ("evade_full", "evade_partial", "duck")
PRESS_TN = 3
"""Press dice roll against TN 3 attacking ..."""
DEFENSE_PRESS_TN = 4
"""... and TN 4 defending."""


def tn_rule() -> Any:
    """The ``tn_above_ten`` parameter every rolling action carries (from the setting)."""
    return param(help="TN over 10: cap (a 10 succeeds) or impossible",
                 choices=TN_ABOVE_TEN.choices, setting=TN_ABOVE_TEN)


def effective_tn(tn: int, rule: str = "cap") -> int:
    """The TN a d10 must reach; 11 means no die can succeed."""
    if tn > 10:
        return 10 if rule == "cap" else 11
    return max(tn, 1)


def d10s(role: str, help: str, label: str,
         count: Callable[[Any], int | None] | None = None) -> Stage:
    """A stage of the ruleset's d10s (a die showing 0 reads 10), ``count`` of them from
    the parameters where that is known before any die falls."""
    return Stage(role, "d10", help, label=label, count=count, zero_is_ten=True)


def roll_d10s(dice: Dice, role: str, count: int, tn: int, rule: str, why: str = "",
              botch: bool = True) -> list[int]:
    """One stage: ``count`` d10s for ``role`` against ``tn`` (an entered 0 reads 10), read
    as successes and, with ``botch``, as 1s (two 1s and no success botch)."""
    if count < 0:
        raise RuleError(f"{role}: cannot roll {count} dice")
    if count == 0:
        return []
    need = effective_tn(tn, rule)
    if need > 10:
        why = f"{why}, no die can succeed" if why else "no die can succeed"
    target = need if need <= 10 else None
    return dice.roll_many(role, 10, count, need=target, why=why, zero_is_ten=True,
                          classes=face_classes(10, need=target, apart=(1,) if botch else ()))


def count_successes(values: Iterable[int], tn: int, rule: str = "cap") -> int:
    need = effective_tn(tn, rule)
    return sum(1 for v in values if v >= need)


def is_botch(values: list[int], successes: int) -> bool:
    """No successes and at least two 1s."""
    return successes == 0 and values.count(1) >= 2


class Check(NamedTuple):
    """A stage of d10s read against its TN: how many succeeded, and whether it botched."""

    successes: int
    botch: bool


def check(dice: Dice, role: str, count: int, tn: int, rule: str, why: str = "",
          botch: bool = True) -> Check:
    """One stage (:func:`roll_d10s`), read: its successes and, with ``botch``, a botch."""
    values = roll_d10s(dice, role, count, tn, rule, why, botch)
    successes = count_successes(values, tn, rule)
    return Check(successes, botch and is_botch(values, successes))


def missing(given: dict[str, Any], name: str) -> bool:
    return name not in given or given[name] is None


def combatant_or_none(enc: Encounter, name: Any) -> Any:
    if not name:
        return None
    return enc.find_combatant(str(name))


def from_actor(enc: Encounter, given: dict[str, Any], **fields: str) -> dict[str, Any]:
    """The parameters not given that the actor's own fields supply
    (``from_actor(enc, given, dice="toughness")``); none without an actor."""
    c = combatant_or_none(enc, given.get("actor"))
    if c is None:
        return {}
    return {key: getattr(c, field) for key, field in fields.items() if missing(given, key)}


def successes_word(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"


def damage_table_param() -> Any:
    """The ``damage_table`` parameter of the actions that wound (from the setting)."""
    return param(help="damage table TOML (empty: the example table)", setting=DAMAGE_TABLE)
