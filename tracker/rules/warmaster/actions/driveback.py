"""``driveback``: drive back one unit hit this phase, one die per hit (WM)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Odds, Params, Resolution, RuleError, param

from ..domains import POSITIONS
from ..sequence import drive_backs_due
from .drive import (
    Drive,
    apply_drive,
    drive_back,
    drive_odds,
    drive_outcome,
    drive_stage,
    drive_text,
)
from .lookup import find_unit, on_field

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class DriveBackParams(Params):
    target: str | None = param(None, "the unit driven back", kind="target")
    hits: int | None = param(None, "hits taken this phase", ge=0)
    pace: int | None = param(None, "full pace in cm", ge=1)
    position: str | None = param(None, "defended ignores 1 hit, fortified 2", choices=POSITIONS)
    engaged: bool | None = param(None, "engaged: no drive back, hits carried")
    blocked: bool = param(False, "driven into impassable terrain or units: confused")


class DriveBackFigures(Drive):
    pace: int


class DriveBack(Action[DriveBackParams]):
    name = "driveback"
    help = "Drive back one unit hit this phase (one die per hit)"
    phases = ("shooting",)
    stages = (drive_stage("one per hit not ignored; any 6 confuses"),)
    outcome_labels = {"carried": "engaged: hits carried into combat",
                      "confused": "driven back, confused"}
    detail = (
        "figures: hits, ignored, dice, distance (cm), confused, routed (distance above"
        " full pace: the unit is removed), carried (engaged units), pace."
    )

    def resolve(self, p: DriveBackParams, dice: Dice) -> Resolution:
        if p.hits is None:
            raise RuleError("driveback: give hits= (hits taken this phase) or the unit")
        if p.pace is None:
            raise RuleError("driveback: give pace= (the unit's full pace in cm)")
        name = p.target or "Unit"
        r = drive_back(p.hits, p.pace, p.position, dice, engaged=bool(p.engaged),
                       blocked=p.blocked, name=p.target or "")
        figures = DriveBackFigures(**r.as_json(), pace=p.pace)
        return Resolution("driveback", drive_outcome(r), drive_text(name, r, p.pace), figures,
                          dice.rolls)

    def odds(self, p: DriveBackParams) -> Odds:
        return drive_odds(p.hits or 0, 0 if p.pace is None else p.pace, p.position,
                          engaged=bool(p.engaged), blocked=p.blocked)

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        if drive_backs_due(enc):
            return []
        return ["no unit owes a drive back: none in play took hits this phase"]

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        if not given.get("target"):
            return {}
        unit = find_unit(enc, given["target"])
        on_field(unit)
        if unit.drive_back_done:
            raise RuleError(f"{unit.name} has already been driven back this phase")
        if unit.hits <= 0 and given.get("hits") is None:
            raise RuleError(f"{unit.name} took no hits this phase: it is not driven back")
        return {"target": unit.name, "hits": unit.hits, "pace": unit.pace,
                "position": unit.position, "engaged": unit.engaged}

    def apply(self, enc: Encounter, p: DriveBackParams, res: Resolution,
              tx: Transaction) -> None:
        if not p.target:
            raise RuleError("driveback: name the unit to record its drive back")
        f = res.figures_as(DriveBackFigures)
        apply_drive(tx, find_unit(enc, p.target), f)


DRIVEBACK = DriveBack()
