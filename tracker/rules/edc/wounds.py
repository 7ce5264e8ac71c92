"""Wounds: Shock, Pain, Blood Loss (BL), the Knockdown and Knockout calls a wound makes, and
recording a wound on a fighter.

Wound level 0-5 comes from the exchange's margin of success (MoS); the damage table
(``damage.py``) gives Shock, Pain and BL for a level, location and damage type. Shock comes
off every pool at once; what the CP left cannot take spills into the next round's refresh
(unless Pain is larger). BL: the first wound sets the TN, each wound to a different body
part raises it (setting ``blood_loss_raise``).
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

from tracker.rules.base import Figures, Omit
from tracker.startup import lazy

from .common import CP, MP
from .later import damage

if TYPE_CHECKING:
    from tracker.core import model
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter, Wound

    from .model import EdcCombatant
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.core.model")


class WoundFigures(Figures):
    """A wound as the GM needs it: table values (or those entered) and the calls it makes."""

    flag_words = {"knockout_roll": "a knockout roll owed"}

    wound_level: int
    location: str
    damage_type: str
    shock: int
    pain: int
    blood_loss: int
    wound_note: str
    cp_now: Omit[int] = None
    """CP left this round (when the CP before the blow is known)."""
    spill: Omit[int] = None
    """Shock carried into the next round's refresh."""
    knockdown_tn: int = 0
    """0: no knockdown roll."""
    knockout_roll: bool = False


_WOUND_KEYS = tuple(f.name for f in fields(WoundFigures))


class WoundFields(Figures):
    """The wound's figures after those of an action that may wound (exchange, missile),
    each left out until a blow lands. Put it first among the bases: its fields then
    follow the action's own."""

    wound_level: Omit[int] = None
    location: Omit[str] = None
    damage_type: Omit[str] = None
    shock: Omit[int] = None
    pain: Omit[int] = None
    blood_loss: Omit[int] = None
    wound_note: Omit[str] = None
    cp_now: Omit[int] = None
    spill: Omit[int] = None
    knockdown_tn: Omit[int] = None
    knockout_roll: Omit[bool] = None

    def take_wound(self, wound: WoundFigures) -> None:
        for key in _WOUND_KEYS:
            setattr(self, key, getattr(wound, key))

    def wound(self) -> WoundFigures | None:
        if self.wound_level is None:
            return None
        return WoundFigures(**{key: getattr(self, key) for key in _WOUND_KEYS})


def wound_level(entered: int, mos: int, weapon_damage: int, toughness: int, armour: int) -> int:
    """Level 0-5: as entered, else MoS + weapon damage - Toughness - armour."""
    if mos <= 0:
        return 0
    if entered >= 0:
        return entered
    return max(0, min(5, mos + weapon_damage - toughness - armour))


def effective_pain(c: EdcCombatant, pain_resist: str = "none") -> int:
    """Pain after Will Power (setting ``pain_resist``)."""
    pain = c.pain
    if pain_resist == "will_power":
        pain -= c.will_power
    elif pain_resist == "half_will_power":
        pain -= c.will_power // 2
    return max(pain, 0)


def blood_loss_tn(wounds: list[Wound], raise_rule: str = "add") -> int:
    """BL TN from the wounds in the order taken; 0 when nothing bleeds.

    The first bleeding wound sets the TN; a later one to a body part not yet bleeding
    raises it by its own BL (``add``) or by 1 (``one``); the same part again does not.
    """
    tn = 0
    parts: set[str] = set()
    for w in wounds:
        if w.blood_loss <= 0:
            continue
        part = w.location.strip().lower()
        if not parts:
            tn = w.blood_loss
        elif part not in parts:
            tn += w.blood_loss if raise_rule == "add" else 1
        parts.add(part)
    return tn


def shock_split(cp_left: int, shock: int) -> tuple[int, int]:
    """(dice lost now, dice spilled into next round) for ``shock`` on ``cp_left`` CP."""
    now = min(max(cp_left, 0), max(shock, 0))
    return now, max(shock, 0) - now


def apply_shock(c: EdcCombatant, shock: int, tx: Transaction) -> tuple[int, int]:
    """Take Shock off the CP (and MP) now; carry the rest to the next refresh."""
    if shock <= 0:
        return 0, 0
    path: list[str | int] = ["combatants", c.id, "pools"]
    cp = c.pool(CP)
    now, spill = shock_split(cp.left, shock)
    if now:
        tx.set([*path, CP, "size"], cp.size - now)
        tx.set([*path, CP, "breakdown"], [*cp.breakdown, f"Shock -{now}"])
    if spill:
        tx.set(["combatants", c.id, "shock_spill"], c.shock_spill + spill)
    mp = c.pool(MP)
    lost = min(max(mp.left, 0), shock)
    if lost:
        tx.set([*path, MP, "size"], mp.size - lost)
        tx.set([*path, MP, "breakdown"], [*mp.breakdown, f"Shock -{lost}"])
    return now, spill


def wound_figures(
    *,
    level: int,
    location: str,
    damage_type: str,
    table: str,
    mos: int,
    cp_left: int,
    shock: int = -1,
    pain: int = -1,
    blood_loss: int = -1,
) -> WoundFigures:
    """Table values (or those entered) and the knockdown / knockout calls a wound makes.

    A blow that drives the CP below 0 calls Knockdown at 2 x MoS (3 x blunt); a table row
    that calls it (head and leg blows) at the Shock; the harder of the two is rolled.
    """
    if location:
        row = damage.lookup(table, damage_type, location, level)
    else:
        row = damage.WoundRow(note="no location: table not used")
    f = WoundFigures(
        wound_level=level,
        location=location,
        damage_type=damage_type,
        shock=row.shock if shock < 0 else shock,
        pain=row.pain if pain < 0 else pain,
        blood_loss=row.blood_loss if blood_loss < 0 else blood_loss,
        wound_note=row.note,
    )
    knockdown_tn = 0
    if cp_left >= 0:
        now, spill = shock_split(cp_left, f.shock)
        f.cp_now, f.spill = cp_left - now, spill
        if spill > 0:  # the blow drives the CP below 0
            knockdown_tn = (3 if damage_type == "blunt" else 2) * max(mos, 0)
    if row.knockdown and level > 0:
        knockdown_tn = max(knockdown_tn, f.shock)
    f.knockdown_tn = knockdown_tn
    f.knockout_roll = bool(row.knockout and level > 0)
    return f


def wound_summary(f: WoundFigures) -> str:
    return (f"level {f.wound_level} {f.damage_type} wound: Shock {f.shock}, Pain {f.pain}, "
            f"BL {f.blood_loss}")


def wound_calls(f: WoundFigures) -> str:
    """The rolls a wound calls for, for the log line."""
    text = f"; knockdown roll TN {f.knockdown_tn}" if f.knockdown_tn else ""
    return text + ("; knockout roll" if f.knockout_roll else "")


def add_wound(
    enc: Encounter, c: EdcCombatant, f: WoundFigures, tx: Transaction, note: str = ""
) -> None:
    """Record the wound on ``c`` and take its Shock."""
    if f.wound_level <= 0 and not (f.shock or f.pain):
        return
    wound = model.Wound(
        location=f.location or "unspecified",
        level=f.wound_level,
        kind=f.damage_type,
        shock=f.shock,
        pain=f.pain,
        blood_loss=f.blood_loss,
        round=enc.position.round,
        note=note or f.wound_note,
    )
    tx.add(["combatants", c.id, "wounds"], wound)
    apply_shock(c, wound.shock, tx)


def lose_health(enc: Encounter, c: EdcCombatant, tx: Transaction, n: int = 1) -> str:
    health = max(c.health - n, 0)
    tx.set(["combatants", c.id, "health"], health)
    if health == 0:
        tx.set(["combatants", c.id, "out"], True)
        if "coma" not in c.conditions:
            tx.set(["combatants", c.id, "conditions"], [*c.conditions, "coma"])
        return f"{c.name} falls into a coma (Health 0)"
    if health == 1:
        return f"{c.name} Health 1: pools halved"
    return f"{c.name} Health {health}"

