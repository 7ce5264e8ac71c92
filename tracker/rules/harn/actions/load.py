"""``load``: load a bow, sling or crossbow (Missile Actions: no move, 1 round, defence
ignore). With a projectile in hand or readily to hand, load is a free action.

How often: one missile action a round (setting ``one_action_per_round``); a free load
does not count (the text leaves the limit implicit; see ``missile``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Resolution, RuleError, Scope, param

from ..kinds import WEAPONS
from ..settings import one_action_param
from .lookup import movement_problems, need, round_limit, weapon_kind
from .state import ActorParams, InTurn, StateFigures, row_of, took

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from ..model import HarnCombatant


class LoadParams(ActorParams):
    weapon: str | None = param(None, "bow, crossbow, sling or thrown", choices=WEAPONS)
    free: bool | None = param(None, "free action: projectile in hand")
    one_action_per_round: bool = one_action_param()


class LoadFigures(StateFigures):
    flag_words = {"free": "a free action"}
    free: bool


class Load(InTurn[LoadParams]):
    name = "load"
    help = "Load the bow, sling or crossbow (1 round; free with a projectile in hand)"

    def limit(self, p: LoadParams) -> tuple[Scope, str] | None:
        # ``p`` may be the partial parameters of the action list (a dict)
        return round_limit(bool(p.get("one_action_per_round", True)) and not p.get("free"))

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        c = need(enc, given.get("actor"))
        kind = weapon_kind(c, given.get("weapon"))
        out: dict[str, Any] = {"weapon": kind}
        if given.get("free") is None:
            out["free"] = c.in_hand
        if kind == "thrown":
            raise RuleError(f"{c.name}: thrown weapons have no Load action")
        return out

    def state_problems(self, enc: Encounter, c: HarnCombatant, p: LoadParams) -> list[str]:
        """A thrown weapon (no Load action), loaded already, a crossbow not spanned, a move
        where a load allows none (a free load, with a projectile in hand, allows one)."""
        kind = weapon_kind(c, p.get("weapon"))
        if kind == "thrown":
            return [f"{c.name}: thrown weapons have no Load action"]
        free = c.in_hand if p.get("free") is None else p.get("free")
        out = [] if free else movement_problems(c, self.name, kind)
        if c.loaded:
            out.append(f"{c.name}'s {kind} is already loaded")
        elif kind == "crossbow" and not c.spanned:
            out.append(f"{c.name}'s crossbow is not spanned (span it first)")
        return out

    def resolve(self, p: LoadParams, dice: Dice) -> Resolution:
        kind = p.weapon or "bow"
        if kind == "thrown":
            raise RuleError("load: thrown weapons have no Load action")
        who = p.actor or "combatant"
        free = bool(p.free)
        f = LoadFigures(**row_of(kind, "load"), free=free)
        if free:
            f.time = "free"
            text = f"{who} loads the {kind} as a free action (projectile in hand)"
        else:
            text = f"{who} loads the {kind} (1 round, defence: ignore)"
        return Resolution(self.name, "loaded", text, f, dice.rolls)

    def apply(self, enc: Encounter, p: LoadParams, res: Resolution, tx: Transaction) -> None:
        c = need(enc, p.actor)
        if res.figures["free"]:
            tx.set(["combatants", c.id, "loaded"], True)
        else:
            took(enc, c, self.name, tx, loaded=True)


LOAD = Load()
