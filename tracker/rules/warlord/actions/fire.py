"""``fire``: one unit's missile fire at one target in phase eight; the kills are held on
the target until every unit has fired (``endphase``). A unit fires at up to three
targets, each figure once a turn: the encounter counts the figures fired and the targets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice, face_classes
from tracker.rules.availability import no_enemy
from tracker.rules.base import Action, Figures, Odds, Resolution, RuleError, Stage

from ..later import profiles
from ..numbers import json_number, show
from ..sequence import FIRE_PHASE
from ..units import (
    auto_modifiers,
    eligible_total,
    find_unit,
    moved_too_far,
    require_fire_order,
    target_problem,
    warlord_units,
)
from .volley import FireParams, Volley, compute, d100_count, fire_odds, kills_word

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import WarlordUnit
    from ..profiles import RaceProfile


class NamedModifier(Figures):
    name: str
    value: int


class FireFigures(Figures):
    bfp: int
    bfp_source: str
    modifiers: list[NamedModifier]
    mfp: int
    figures: int
    ffp: int
    range: str
    divisor: int
    effective: int | float
    effective_exact: str
    effective_shown: str
    sure_kills: int
    remainder: int | float
    remainder_exact: str
    chance: int
    d100: int | None
    kills: int
    notes: list[str]


def fire_line(v: Volley, d100: int | None) -> str:
    """BFP to kills, as the GM works it out at the table."""
    terms = [f"BFP {v.bfp}"]
    for name, val in v.modifiers:
        terms.append(f"{val:+d}" if name == "modifier" else f"{val:+d} ({name})")
    line = " ".join(terms)
    line += f" = MFP {v.mfp}%; ×{v.figures} = FFP {v.ffp}%"
    if v.divisor > 1:
        line += f"; {v.range} range ÷{v.divisor} = {show(v.effective)}%"
    else:
        line += f"; {v.range} range"
    line += f": {v.sure_kills} sure"
    if v.remainder:
        line += f", {show(v.remainder)}% left"
        if v.chance != v.remainder:
            line += f" (rolls against {v.chance}%)"
    if d100 is not None:
        line += f"; d100 {d100} {'kills' if d100 <= v.chance else 'misses'}"
    elif v.capped:
        line += "; every figure of the target is down"
    return line


class Fire(Action[FireParams]):
    name = "fire"
    help = "One unit's missile fire at one target (kills held to the end of phase eight)"
    phases = (FIRE_PHASE,)
    marker = "fired"
    stages = (Stage("d100", "d100", "one roll-under for the percentage left over",
                    label="for the percentage left over", count=d100_count),)
    detail = (
        "figures: bfp, modifiers, mfp, figures, ffp, range, divisor, effective (FFP after the "
        "range divisor; effective_exact keeps the fraction), sure_kills, remainder, chance "
        "(the remainder rounded: the d100 kills on this or less), d100, kills."
    )

    def can_act(self, who: Any) -> bool:
        """A unit with a missile weapon that still holds its fire order counter."""
        has_order = getattr(who, "has_fire_order", None)
        return bool(getattr(who, "weapon", "")) and (has_order is None or has_order())

    def resolve(self, p: FireParams, dice: Dice) -> Resolution:
        v = compute(p)
        d100: int | None = None
        kills = v.sure_kills
        if v.capped:
            kills = v.cap or 0
        elif v.rolls_d100:
            d100 = dice.roll("d100", 100, classes=face_classes(100, under=v.chance))
            if d100 <= v.chance:
                kills += 1
        elif v.chance >= 100:
            kills += 1
        if v.cap is not None:
            kills = min(kills, v.cap)
        actor = p.actor_name or p.actor or "Unit"
        target = p.target_name or p.target or "target"
        text = (f"{actor} fire on {target}: {fire_line(v, d100)} → {kills_word(kills)}"
                " (held to end of phase)")
        if v.notes:
            text += " [" + "; ".join(v.notes) + "]"
        figures = FireFigures(
            bfp=v.bfp, bfp_source=v.bfp_source,
            modifiers=[NamedModifier(name=n, value=val) for n, val in v.modifiers],
            mfp=v.mfp, figures=v.figures, ffp=v.ffp, range=v.range, divisor=v.divisor,
            effective=json_number(v.effective), effective_exact=str(v.effective),
            effective_shown=show(v.effective), sure_kills=v.sure_kills,
            remainder=json_number(v.remainder), remainder_exact=str(v.remainder),
            chance=v.chance, d100=d100, kills=kills, notes=v.notes,
        )
        return Resolution("fire", "kill" if kills else "miss", text, figures, rolls=dice.rolls)

    def odds(self, p: FireParams) -> Odds:
        return fire_odds(p)

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """A unit that may fire as it stands (its fire order, its weapon, figures left),
        and an enemy unit in play it may fire on; with no one named, any unit that may."""
        if who is not None:
            said = _refused(enc, who, who.weapon, None)
            if said:
                return [said]
        elif not any(not _refused(enc, u, u.weapon, None) for u in warlord_units(enc)):
            return ["no unit can fire now: none holds a fire order with a missile weapon"
                    " and figures left to fire"]
        targets = {u.id for u in warlord_units(enc) if target_problem(None, u) is None}
        return no_enemy(enc, who, None, "fire on", lambda u: u.id in targets)

    def refusals(self, enc: Encounter, p: FireParams) -> list[str]:
        """What refuses the firing unit's fire, as it stands: routed or removed, charged
        this turn, no fire order where the setting asks for one (or fired on it), no
        missile weapon, moved too far for it, every figure that can fire fired; the GM
        may force past it."""
        try:
            firer = find_unit(enc, p.actor) if p.actor else None
            if firer is None:
                return []
            profile = _profile(p.profiles, p.race if p.race is not None else firer.race)
            said = _refused(enc, firer, p.weapon or firer.weapon, profile)
        except RuleError:  # a race or weapon the sheet lacks: the fire itself says so
            return []
        return [said] if said else []

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """Race, weapon, figures that can fire, armour, ranks and modifiers from the units."""
        firer = find_unit(enc, given["actor"]) if given.get("actor") else None
        target = find_unit(enc, given["target"]) if given.get("target") else None
        out: dict[str, Any] = {}

        def put(key: str, value: Any) -> None:
            if key not in given:
                out[key] = value

        profile = None
        if firer is not None:
            put("actor_name", firer.name)
            put("race", firer.race)
            put("weapon", firer.weapon)
            profile = _profile(given.get("profiles"), given.get("race", firer.race))
            left = max(0, _can_fire(firer, profile) - firer.figures_fired)
            put("eligible", left)
            put("figures", left)
        if target is not None:
            problem = target_problem(firer, target)
            if problem:
                raise RuleError(problem)
            put("target_name", target.name)
            put("armour", target.armour_class)
            put("target_ranks", target.ranks or 1)
            put("target_figures", target.strength - target.held_casualties)
        if firer is not None and profile is not None:
            put("named", auto_modifiers(profile, firer, target))
        return out

    def apply(self, enc: Encounter, p: FireParams, res: Resolution, tx: Transaction) -> None:
        """Hold the kills on the target; count the figures fired; take the counter off
        when every figure that may fire has fired."""
        f = res.figures_as(FireFigures)
        if p.target:
            target = find_unit(enc, p.target)
            if f.kills:
                tx.set(["units", target.id, "held_casualties"], target.held_casualties + f.kills)
        if not p.actor:
            return
        firer = find_unit(enc, p.actor)
        fired = firer.figures_fired + f.figures
        tx.set(["units", firer.id, "figures_fired"], fired)
        if p.target:
            tid = find_unit(enc, p.target).id
            if tid not in firer.fire_targets:
                tx.add(["units", firer.id, "fire_targets"], tid)
        done = p.done
        if done == "auto":
            rff = firer.strength
            if firer.race:
                rff = profiles.load_sheet(p.profiles).race(firer.race).ranks_for_firing
            done = "yes" if fired >= eligible_total(firer, rff) else "no"
        if done == "yes":
            tx.set(["units", firer.id, "fired"], True)
            tx.set(["units", firer.id, "orders"], "")


FIRE = Fire()


def _profile(sheet: str | None, race: str | None) -> RaceProfile | None:
    """The race's profile on the sheet (the sample sheet where none is named)."""
    return profiles.load_sheet(sheet or "").race(race) if race else None


def _can_fire(firer: WarlordUnit, profile: RaceProfile | None) -> int:
    """The figures of the unit that may fire: the ranks its race fires with, or all."""
    return eligible_total(firer, profile.ranks_for_firing) if profile else firer.strength


def _refused(enc: Encounter, firer: WarlordUnit, weapon: str | None,
             profile: RaceProfile | None) -> str:
    """Why the unit fires not, as it stands ("" where it may)."""
    if not firer.active:
        return f"{firer.name} is routed or removed and cannot fire"
    if firer.charged:
        return f"{firer.name} charged this turn and cannot fire"
    if require_fire_order(enc) and not firer.has_fire_order():
        why = ("has already fired" if firer.fired
               else f"has no fire order ({firer.orders or 'none'})")
        return f"{firer.name} {why}"
    if not weapon:
        return f"{firer.name} has no missile weapon"
    if profile is not None:
        too_far = moved_too_far(firer, profile.weapon(weapon), profile.move)
        if too_far:
            return too_far
    if _can_fire(firer, profile) - firer.figures_fired <= 0:
        return f"{firer.name}: every figure that can fire has fired this turn"
    return ""
