"""``endphase``: the drive backs at the end of the Shooting phase (WM). Every unit hit
this phase is driven back, in the order its player chooses, once all shooting is
complete; the phase's end then discounts the odd hits and clears its marks (the
sequence's lifetimes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, RuleError, param
from tracker.startup import lazy

from ..domains import POSITIONS
from .drive import Drive, apply_drive, drive_back, drive_odds, drive_stage, drive_text
from .lookup import find_unit

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.warmaster import model
else:  # imported on first use (tracker.startup): `tracker resolve` needs no models
    model = lazy("tracker.rules.warmaster.model")

UNIT_SPEC = "NAME:HITS:PACE[:open|defended|fortified][:engaged]"


class EndPhaseParams(Params):
    order: tuple[str, ...] | None = param(
        None, "units driven back first, in this order (default: as the roster lists them)")
    units: tuple[Any, ...] | None = param(
        None, f"units hit (default: from the roster), {UNIT_SPEC}", kind="strs"
    )


class UnitDrive(Drive):
    """A unit's drive back at the end of the phase, named."""

    unit: str
    id: str


class EndPhaseFigures(Figures):
    units: list[UnitDrive]


def parse_unit_spec(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        if item.get("pace") is None:
            raise RuleError(f"{item['name']} has no pace: set its full pace in cm before its"
                            f" drive back (set {item['name']} pace=20)")
        return item
    bits = str(item).split(":")
    try:
        spec: dict[str, Any] = {"name": bits[0], "hits": int(bits[1]), "pace": int(bits[2])}
    except (IndexError, ValueError):
        raise RuleError(f"units: '{item}' is not {UNIT_SPEC}") from None
    if spec["hits"] < 0 or spec["pace"] < 1:  # the domains of driveback's hits= and pace=
        raise RuleError(f"units: '{item}': HITS must be at least 0 and PACE (cm) at least 1")
    spec.update(position="open", engaged=False)
    for extra in bits[3:]:
        if extra in POSITIONS:
            spec["position"] = extra
        elif extra == "engaged":
            spec["engaged"] = True
        else:
            raise RuleError(f"units: '{item}' is not {UNIT_SPEC}")
    return spec


def _keys(spec: dict[str, Any]) -> set[str]:
    return {spec["name"].lower(), str(spec.get("id", "")).lower()}


class EndPhase(Action[EndPhaseParams]):
    name = "endphase"
    help = "Drive back every unit hit this phase, once all shooting is complete"
    phases = ("shooting",)
    stages = (drive_stage("one per hit not ignored, unit by unit in order"),)
    detail = ("figures: units, each with unit, hits, ignored, dice, distance, confused, routed,"
              " carried.")

    def resolve(self, p: EndPhaseParams, dice: Dice) -> Resolution:
        """Drive backs for every unit hit, in the GM's order; then leftover hits go."""
        specs = [parse_unit_spec(u) for u in p.units or ()]
        order = [o.lower() for o in p.order or ()]
        for o in order:
            if not any(o in _keys(s) for s in specs):
                raise RuleError(f"order: '{o}' took no hits this phase (or is not a unit)")

        def rank(spec: dict[str, Any]) -> int:
            keys = _keys(spec)
            return next((i for i, o in enumerate(order) if o in keys), len(order))

        specs.sort(key=rank)
        results: list[UnitDrive] = []
        lines = []
        for spec in specs:
            r = drive_back(spec["hits"], spec["pace"], spec.get("position"), dice,
                           engaged=bool(spec.get("engaged")), name=spec["name"])
            results.append(UnitDrive(unit=spec["name"], id=spec.get("id", ""), **r.as_json()))
            lines.append(drive_text(spec["name"], r, spec["pace"]))
        none = "no unit in play took hits this phase"
        text = "End of shooting: " + ("; ".join(lines) if lines else none)
        routed = sum(1 for r in results if r.routed)
        outcome = f"{routed} routed" if routed else "drive backs" if results else "no drive backs"
        return Resolution("endphase", outcome, text, EndPhaseFigures(units=results), dice.rolls)

    def odds(self, p: EndPhaseParams) -> Odds:
        """The chance of each number of units routed (driven back beyond their full
        pace), each unit's drive back its own dice."""
        dist = [1.0]
        for spec in (parse_unit_spec(u) for u in p.units or ()):
            each = drive_odds(spec["hits"], spec["pace"], spec.get("position"),
                              engaged=bool(spec.get("engaged")))
            rout = dict(each).get("routed", 0.0)
            dist = [(dist[k] if k < len(dist) else 0.0) * (1 - rout)
                    + (dist[k - 1] * rout if k else 0.0) for k in range(len(dist) + 1)]
        return [(f"{n} routed", q) for n, q in enumerate(dist) if q > 0]

    def happened(self, p: EndPhaseParams, res: Resolution, odds: Odds) -> str:
        f = res.figures_as(EndPhaseFigures)
        return f"{sum(1 for r in f.units if r.routed)} routed"

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        units = [
            {"id": u.id, "name": u.name, "hits": u.hits, "pace": u.pace,
             "position": u.position, "engaged": u.engaged}
            for u in enc.units
            if isinstance(u, model.WarmasterUnit) and u.hits > 0 and u.active
            and not u.drive_back_done
        ]
        return {"units": units}

    def apply(self, enc: Encounter, p: EndPhaseParams, res: Resolution,
              tx: Transaction) -> None:
        f = res.figures_as(EndPhaseFigures)
        for r in f.units:
            apply_drive(tx, find_unit(enc, r.id or r.unit), r)


ENDPHASE = EndPhase()
