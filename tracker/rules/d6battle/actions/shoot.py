"""``shoot``: one unit shoots at another (d6battle).

One d6 per figure firing: d6 + SA + modifiers >= 7 hits, a 1 always misses; one armour
save per hit, d6 + save - AP >= 7; one kill roll per unsaved hit, d6 + KA >= D kills; then
the morale test the kills force (the morale table). "The player whose round it is
shoots": each of its units shoots once in its Shoot phase, resolved before the next unit
is selected. Stand & shoot and fire & flee (``fire=stand|flee``) answer a charge, so the
unit shoots in the other side's turn; the text does not say in which phase (the tracker
takes them in the charging side's Shoot phase, before its combats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from tracker.core.dice import Dice, face_classes
from tracker.core.sequence import phasing_side
from tracker.core.words import plural
from tracker.rules.availability import in_play, no_enemy
from tracker.rules.base import Action, Odds, Resolution, Stage
from tracker.startup import lazy

from ..sequence import SEQUENCE
from .scores import count_at_least, kill_chance, score_text
from .shoot_fill import apply_shoot, fill_shoot
from .shoot_params import ShootFigures, ShootParams, shots
from .shoot_plan import ShotPlan, forces_test, plan

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.d6battle.actions import shoot_odds
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    shoot_odds = lazy("tracker.rules.d6battle.actions.shoot_odds")


class Shoot(Action[ShootParams]):
    name = "shoot"
    help = "one unit shoots at another: hits, saves, kills, morale test"
    phases = ("shoot",)
    once_per = "phase"
    marker = "shot"
    stages = (
        Stage("hit", "d6", "one per shot: d6 + SA + modifiers >= 7 hits; 1 misses",
              label="to hit", count=shots),
        Stage("save", "d6", "one per hit: d6 + save - AP >= 7 saves", label="to save"),
        Stage("kill", "d6", "one per unsaved hit: d6 + KA >= D kills", label="to kill"),
    )
    detail = (
        "figures: hits, saved, kills, ka, ap, needed (d6 score to hit), sa_modified, "
        "modifiers, impossible_odds, rof, shots, save, save_needed, kill_needed, "
        "expected_kills; with unit_size=: morale_test, morale_casualties, casualties.\n"
        "Impossible odds: SA after modifiers below 1 hits on a 6 only, KA -1. "
        "Slings stationary: ROF 2 at KA 2. No save is rolled when save - AP is 0 or less; "
        "no kill roll when d6 + KA cannot reach D."
    )

    def can_act(self, who: Any) -> bool:
        # a unit with a missile weapon, still in the fight
        return bool(getattr(who, "weapon", "")) and not (who.routed or who.removed)

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        """A shooter still on the table, and an enemy unit on it."""
        if who is not None and not in_play(who):
            return [f"{who.name} is no longer on the table"]
        side = phasing_side(enc, SEQUENCE)
        if who is None and side is not None and not any(
                u.side == side and in_play(u) and getattr(u, "weapon", "") for u in enc.units):
            return [f"no unit of {side} in play has a missile weapon (weapon= at the : line"
                    " gives the one a unit uses)"]
        return no_enemy(enc, who, side, "shoot at")

    def refusals(self, enc: Encounter, p: ShootParams) -> list[str]:
        """A shooter with no missile weapon of its own shoots only with one given."""
        actor = p.get("actor")
        if not actor or p.get("weapon"):
            return []
        try:
            unit = enc.find_unit(actor)
        except LookupError:
            return []
        return [] if getattr(unit, "weapon", "") else [
            f"{unit.name} has no missile weapon (weapon= gives the one it uses)"]

    def resolve(self, p: ShootParams, dice: Dice) -> Resolution:
        s = plan(p)
        # a 1 always misses: the hit dice read as a hit or not
        hit_rolls = dice.roll_many("hit", 6, s.shots, need=s.needed,
                                   classes=face_classes(6, need=max(2, s.needed)))
        hits = count_at_least([v for v in hit_rolls if v != 1], s.needed)
        saved = 0
        if s.save_needed <= 6:
            saves = dice.roll_many("save", 6, hits, need=s.save_needed, why=plural(hits, "hit"),
                                   classes=face_classes(6, need=s.save_needed))
            saved = count_at_least(saves, s.save_needed)
        unsaved = hits - saved
        kills = 0
        if s.kill_needed <= 6:
            rolled = dice.roll_many("kill", 6, unsaved, need=s.kill_needed,
                                    classes=face_classes(6, need=s.kill_needed),
                                    why=plural(unsaved, "unsaved hit"))
            kills = count_at_least(rolled, s.kill_needed)
        if s.remaining is not None:
            kills = min(kills, s.remaining)
        f = ShootFigures(
            hits=hits, saved=saved, kills=kills, ka=s.ka, ap=s.ap, needed=s.needed,
            weapon=s.weapon.name, range=s.range, rof=s.rof, shots=s.shots,
            sa_modified=s.sa_modified, modifiers=s.modifiers,
            impossible_odds=s.impossible_odds, save=s.save,
            save_needed=s.save_needed if s.save_needed <= 6 else None,
            kill_needed=s.kill_needed if s.kill_needed <= 6 else None,
            expected_kills=round(expected_kills(s), 4),
        )
        text = _text(p, s, f)
        if s.threshold is not None:
            after = p.casualties_before + kills
            f.morale_test = forces_test(p, s.threshold, kills)
            f.morale_casualties = s.threshold
            f.casualties = after
            if f.morale_test:
                target = p.target or "the target"
                text += f"; {target} must take a morale test ({after} casualties of {p.unit_size})"
        if s.notes:
            f.notes = s.notes
            text += " [" + "; ".join(s.notes) + "]"
        return Resolution("shoot", _outcome(f), text, f, rolls=list(dice.rolls))

    def turn_rule(self, phase: str, p: ShootParams) -> Literal["own", "enemy", "any"]:
        """The side whose turn it is shoots; a charge reaction is the other side's (read
        from a form not yet whole too: the action list asks before the weapon is known)."""
        return "enemy" if p.get("fire") in ("stand", "flee") else "own"

    def odds(self, p: ShootParams) -> Odds:
        return shoot_odds.odds(p)

    def summary(self, p: ShootParams) -> str:
        return shoot_odds.summary_text(p)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_shoot(enc, given)

    def apply(self, enc: Encounter, p: ShootParams, res: Resolution, tx: Transaction) -> None:
        apply_shoot(enc, p, res, tx)


def expected_kills(s: ShotPlan) -> float:
    """Mean kills: shots x the chance of a kill per shot, or, where the kills may be capped
    by the figures left, the mean of the capped distribution (only then are the odds
    loaded)."""
    if s.remaining is None or s.remaining >= s.shots:
        return float(s.shots * kill_chance(s.needed, s.save_needed, s.kill_needed))
    return sum(k * pr for k, pr in enumerate(shoot_odds.kill_distribution(s)))


def _text(p: ShootParams, s: ShotPlan, f: ShootFigures) -> str:
    shooter = p.actor or "Shooters"
    target = p.target or "the target"
    sa_text = f"SA {p.sa}"
    if s.modifiers:
        sa_text += " " + " ".join(s.modifiers) + f" = {s.sa_modified}"
    if s.impossible_odds:
        sa_text += ": impossible odds, 6 to hit, KA -1"
    rof = f" ROF {s.rof}" if s.rof > 1 else ""
    text = (
        f"{shooter}: {s.shots} {s.weapon.name}{rof} shots at {target}, {s.range} range "
        f"({sa_text}; {s.needed}+ to hit): {plural(f.hits, 'hit')}"
    )
    if f.hits:
        text += f", {f.saved} saved ({score_text(s.save_needed)})"
        text += (f", {f.kills} killed (KA {s.ka} vs D {p.durability}: "
                 f"{score_text(s.kill_needed)})")
    return text


def _outcome(f: ShootFigures) -> str:
    if f.hits == 0:
        return "no_hits"
    if f.kills:
        return "kills"
    if f.saved == f.hits:
        return "all_saved"
    return "no_kills"


SHOOT = Shoot()
