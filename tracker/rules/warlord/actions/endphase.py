"""``endphase``: every unit has fired; the casualties held through phase eight are removed
together, and the units that lost figures are flagged for their morale test."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, RuleError, param

from ..casualties import Removed, apply_removed, removal
from ..sequence import FIRE_PHASE
from ..settings import MORALE_TEST_WHEN, MORALE_THRESHOLDS, MORALE_WHEN, parse_thresholds
from ..units import still_to_fire, warlord_units

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

HELD = "UNIT:KILLED:STRENGTH[:CLASS]"


class EndPhaseParams(Params):
    held: tuple[str, ...] | None = param(None, f"{HELD} per unit (default: from the encounter)")
    pending: tuple[str, ...] | None = param(
        None, "units still holding a fire order (default: from the encounter)"
    )
    force: bool = param(False, "end the phase although units have not fired")
    names: tuple[str, ...] | None = param(
        None, "UNIT=NAME, names for units held gives by id (default: as held names them)"
    )
    morale_test_when: str = param(help="which units test morale", choices=MORALE_WHEN,
                               setting=MORALE_TEST_WHEN)
    morale_thresholds: str = param(help="CLASS:PERCENT lost that makes a unit test "
                                "(class_threshold)", setting=MORALE_THRESHOLDS)


class EndPhaseFigures(Figures):
    removed: list[Removed]
    casualties: int
    morale_tests: list[str]
    forfeit: list[str]


def _held(entry: str) -> tuple[str, int, int, str]:
    parts = entry.split(":")
    if len(parts) < 3:
        raise RuleError(f"held={entry}: expected {HELD}")
    try:
        killed, strength = int(parts[1]), int(parts[2])
    except ValueError:
        raise RuleError(f"held={entry}: KILLED and STRENGTH are whole numbers") from None
    if killed < 0 or strength < 0:
        raise RuleError(f"held={entry}: numbers must not be negative")
    return parts[0], killed, strength, ":".join(parts[3:])


def parse_names(entries: tuple[str, ...] | None) -> dict[str, str]:
    """``UNIT=NAME`` entries: the names the log gives the units of ``held``."""
    out: dict[str, str] = {}
    for entry in entries or ():
        unit, sep, name = entry.partition("=")
        if not sep or not unit.strip() or not name.strip():
            raise RuleError(f"names: '{entry}' should read UNIT=NAME")
        out[unit.strip()] = name.strip()
    return out


def _removed(entry: str, when: str, thresholds: dict[str, int],
             names: dict[str, str]) -> tuple[Removed, str] | None:
    unit, killed, strength, cls = _held(entry)
    return removal(unit, killed, strength, cls, when, thresholds, names.get(unit, unit))


class EndPhase(Action[EndPhaseParams]):
    name = "endphase"
    help = "Every unit has fired: remove the held casualties together, flag morale tests"
    phases = (FIRE_PHASE,)
    detail = ("figures: removed (unit, casualties, strength, strength_after, lost_pct, "
              "morale_test, wiped_out), casualties, morale_tests, forfeit.")

    def resolve(self, p: EndPhaseParams, dice: Dice) -> Resolution:
        """Remove every held casualty together and say which units take a morale test."""
        pending = [u for u in p.pending or () if u]
        if pending and not p.force:
            raise RuleError(
                f"still to fire: {', '.join(pending)} (fire, holdfire, or endphase force=yes)"
            )
        when = p.morale_test_when
        thresholds = (parse_thresholds(p.morale_thresholds)
                      if when == "class_threshold" else {})
        names = parse_names(p.names)
        removed: list[Removed] = []
        parts: list[str] = []
        for entry in p.held or ():
            found = _removed(entry, when, thresholds, names)
            if found is not None:
                removed.append(found[0])
                parts.append(found[1])
        tests = [names.get(r.unit, r.unit) for r in removed if r.morale_test]
        text = "End of missile fire: " + ("; ".join(parts) if parts else "no casualties")
        if pending:
            text += f" (did not fire: {', '.join(pending)})"
        figures = EndPhaseFigures(removed=removed, casualties=sum(r.casualties for r in removed),
                                  morale_tests=tests, forfeit=pending)
        outcome = "morale" if tests else ("casualties" if removed else "none")
        return Resolution("endphase", outcome, text, figures, rolls=dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "held" not in given:  # units by the names the GM knows them by
            out["held"] = [f"{u.name}:{u.held_casualties}:{u.strength}:{u.morale_class}"
                           for u in warlord_units(enc) if u.held_casualties > 0]
        if "pending" not in given:
            out["pending"] = [u.name for u in still_to_fire(enc)]
        return out

    def apply(self, enc: Encounter, p: EndPhaseParams, res: Resolution,
              tx: Transaction) -> None:
        f = res.figures_as(EndPhaseFigures)
        for r in f.removed:
            apply_removed(enc, tx, r)
        # units named as the GM names them (older saves: by id)
        forfeit = {str(x).casefold() for x in f.forfeit}
        for each in warlord_units(enc):
            path = ["units", each.id]
            if each.id.casefold() in forfeit or each.name.casefold() in forfeit:
                tx.set([*path, "orders"], "")


ENDPHASE = EndPhase()
