"""Fire orders, moving and firing, the end of phase eight, morale tests, turn upkeep."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import REQUIRED, FunctionAction, Param, ParamDict, Resolution, RuleError

from .fire import ACTOR_NAME, _unit, fill_name, json_number, name_of, show
from .profiles import load_sheet, parse_fraction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


MORALE_WHEN = ("any_loss", "class_threshold")
SAMPLE_THRESHOLDS = "A:50,B:40,C:30,D:20,E:10"


# --- orders ----------------------------------------------------------------------------


def resolve_order(params: ParamDict, dice: Dice) -> Resolution:
    orders = params["orders"].strip()
    text = f"{name_of(params)}: orders {orders or 'none'}"
    return Resolution("order", "ordered", text, {"orders": orders}, rolls=dice.rolls)


def apply_order(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    unit = _unit(enc, params["actor"])
    tx.set(["units", unit.id, "orders"], res.figures["orders"])
    if "fire" in res.figures["orders"].lower():
        tx.set(["units", unit.id, "fired"], False)


ORDER = FunctionAction(
    name="order",
    help="Give a unit its orders; a fire order puts the fire order counter on it",
    params=[
        Param("actor", "actor", REQUIRED, "unit"),
        Param("orders", "str", "fire", "orders, e.g. fire, advance and fire, none"),
        ACTOR_NAME,
    ],
    roles=[],
    resolve=resolve_order,
    fill=fill_name,
    apply=apply_order,
)


def resolve_holdfire(params: ParamDict, dice: Dice) -> Resolution:
    text = f"{name_of(params)} has finished firing: fire order counter removed"
    return Resolution("holdfire", "done", text, {}, rolls=dice.rolls)


def apply_holdfire(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    unit = _unit(enc, params["actor"])
    tx.set(["units", unit.id, "fired"], True)
    tx.set(["units", unit.id, "orders"], "")


HOLDFIRE = FunctionAction(
    name="holdfire",
    help="Take a unit's fire order counter off: it has finished firing (or will not fire)",
    params=[Param("actor", "actor", REQUIRED, "unit"), ACTOR_NAME],
    roles=[],
    resolve=resolve_holdfire,
    fill=fill_name,
    apply=apply_holdfire,
)


# --- movement and firing ---------------------------------------------------------------


def resolve_movefire(params: ParamDict, dice: Dice) -> Resolution:
    """How far a unit may move this turn and still fire."""
    if params["charge"]:
        raise RuleError("a unit cannot charge and fire in the same game turn")
    move = params["move"]
    sheet_note = ""
    weapon = None
    if params["race"]:
        profile = load_sheet(params["profiles"]).race(params["race"])
        if move < 0:
            move = profile.move
            if profile.source("move") == "sample":
                sheet_note = "normal move is sample data"
        if params["weapon"]:
            weapon = profile.weapon(params["weapon"])
    if move < 0:
        raise RuleError("give move= (normal move in cm) or race=")
    move_f = Fraction(str(move))
    if params["mounted"]:
        loss = Fraction(0)
    elif params["loss"]:
        loss = parse_fraction(params["loss"], "loss")
    elif weapon is not None:
        loss = parse_fraction(weapon.move_fire_loss, "move_fire_loss")
    else:
        raise RuleError("give loss= (fraction of the move lost) or race= and weapon=")
    if loss > 1:
        raise RuleError(f"loss={params['loss']}: at most the whole move (1)")
    terrain = parse_fraction(params["terrain"], "terrain")
    after_fire = move_f * (1 - loss)
    allowance = after_fire * terrain
    moved = params["moved"]
    if moved >= 0 and Fraction(str(moved)) > allowance:
        raise RuleError(f"moved={moved:g}: only {show(allowance)} cm allowed when moving to fire")

    name = name_of(params)
    line = f"{name} move and fire: {show(move_f)} cm"
    if params["mounted"]:
        line += ", mounted: full move"
    else:
        line += f", loses {show(loss)} to fire → {show(after_fire)} cm"
    if terrain != 1:
        line += f"; terrain ×{show(terrain)} → {show(allowance)} cm"
    if moved >= 0:
        line += f"; moved {moved:g} cm"
    if sheet_note:
        line += f" [{sheet_note}]"
    figures: dict[str, Any] = {
        "move": json_number(move_f),
        "loss": str(loss),
        "after_fire": json_number(after_fire),
        "terrain": str(terrain),
        "allowance": json_number(allowance),
        "allowance_exact": str(allowance),
        "moved": moved if moved >= 0 else None,
    }
    return Resolution("movefire", "allowed", line, figures, rolls=dice.rolls)


def fill_movefire(enc: Encounter, params: ParamDict) -> ParamDict:
    if not params.get("actor"):
        return params
    unit = _unit(enc, params["actor"])
    params.setdefault("actor_name", unit.name)
    params.setdefault("race", unit.race)
    params.setdefault("weapon", unit.weapon)
    params.setdefault("mounted", unit.mounted)
    params.setdefault("charge", unit.charged)
    if unit.pace > 0:
        params.setdefault("move", unit.pace)
    return params


def apply_movefire(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    if params.get("actor") and params["moved"] >= 0:
        unit = _unit(enc, params["actor"])
        tx.set(["units", unit.id, "moved_cm"], params["moved"])


MOVEFIRE = FunctionAction(
    name="movefire",
    help="Movement allowance of a unit that moves and fires (record moved= on the unit)",
    params=[
        Param("actor", "actor", "", "unit"),
        Param("move", "float", -1, "normal move in cm (-1: from the race)"),
        Param("race", "str", "", "race on the profile sheet"),
        Param("weapon", "str", "", "missile weapon (its move and fire loss)"),
        Param("loss", "str", "", "fraction of the move lost to fire, e.g. 1/2 (overrides sheet)"),
        Param("terrain", "str", "1", "terrain factor on what is left, e.g. 1/2 in scrub"),
        Param("mounted", "bool", False, "mounted figures move a whole move and fire"),
        Param("charge", "bool", False, "the unit charges (it then cannot fire)"),
        Param("moved", "float", -1, "cm actually moved, recorded on the unit (-1: none)"),
        Param("profiles", "str", "", "profile sheet TOML (empty: the sample sheet)"),
        ACTOR_NAME,
    ],
    roles=[],
    resolve=resolve_movefire,
    fill=fill_movefire,
    apply=apply_movefire,
)


# --- end of phase eight ----------------------------------------------------------------


def parse_thresholds(text: str) -> dict[str, int]:
    """``"A:50,B:40"``: the percent of a unit's figures lost in the phase that makes it test."""
    out: dict[str, int] = {}
    for part in str(text).split(","):
        if not part.strip():
            continue
        cls, sep, pct = part.partition(":")
        try:
            out[cls.strip()] = int(pct)
        except ValueError:
            raise RuleError(
                f"morale_thresholds: '{part}' should read CLASS:PERCENT, e.g. A:50"
            ) from None
        if not sep:
            raise RuleError(f"morale_thresholds: '{part}' should read CLASS:PERCENT")
    return out


def _held(entry: str) -> tuple[str, int, int, str]:
    parts = entry.split(":")
    if len(parts) < 3:
        raise RuleError(f"held={entry}: expected UNIT:KILLED:STRENGTH[:CLASS]")
    try:
        killed, strength = int(parts[1]), int(parts[2])
    except ValueError:
        raise RuleError(f"held={entry}: KILLED and STRENGTH are whole numbers") from None
    if killed < 0 or strength < 0:
        raise RuleError(f"held={entry}: numbers must not be negative")
    return parts[0], killed, strength, ":".join(parts[3:])


def resolve_endphase(params: ParamDict, dice: Dice) -> Resolution:
    """Remove every held casualty together and say which units take a morale test."""
    pending = [p for p in params["pending"] if p]
    if pending and not params["force"]:
        raise RuleError(
            f"still to fire: {', '.join(pending)} (fire, holdfire, or endphase force=yes)"
        )
    when = params["morale_test_when"]
    thresholds = parse_thresholds(params["morale_thresholds"]) if when == "class_threshold" else {}
    removed: list[dict[str, Any]] = []
    parts: list[str] = []
    for entry in params["held"]:
        unit, killed, strength, cls = _held(entry)
        if killed == 0:
            continue
        after = max(0, strength - killed)
        lost_pct = Fraction(100 * min(killed, strength), strength) if strength else Fraction(100)
        note = ""
        if after == 0:
            test = False
        elif when == "any_loss":
            test = True
        elif cls in thresholds:
            test = lost_pct >= thresholds[cls]
        else:
            test = True
            note = f"no threshold for class '{cls}': tests"
        removed.append(
            {
                "unit": unit,
                "casualties": min(killed, strength),
                "strength": strength,
                "strength_after": after,
                "lost_pct": json_number(lost_pct),
                "morale_class": cls,
                "morale_test": test,
                "wiped_out": after == 0,
            }
        )
        bit = f"{unit} loses {min(killed, strength)} ({strength} → {after})"
        if after == 0:
            bit += ", wiped out"
        elif test:
            bit += ", morale test"
        if note:
            bit += f" [{note}]"
        parts.append(bit)
    tests = [r["unit"] for r in removed if r["morale_test"]]
    text = "End of missile fire: " + ("; ".join(parts) if parts else "no casualties")
    if pending:
        text += f" (did not fire: {', '.join(pending)})"
    figures = {
        "removed": removed,
        "casualties": sum(r["casualties"] for r in removed),
        "morale_tests": tests,
        "forfeit": pending,
    }
    outcome = "morale" if tests else ("casualties" if removed else "none")
    return Resolution("endphase", outcome, text, figures, rolls=dice.rolls)


def fill_endphase(enc: Encounter, params: ParamDict) -> ParamDict:
    from tracker.rules.warlord.model import WarlordUnit

    units = [u for u in enc.units if isinstance(u, WarlordUnit)]
    params.setdefault(
        "held",
        [
            f"{u.name}:{u.held_casualties}:{u.strength}:{u.morale_class}"
            for u in units
            if u.held_casualties > 0
        ],
    )
    params.setdefault(
        "pending",
        [u.name for u in units if u.active and u.weapon and u.has_fire_order()],
    )
    return params


def apply_endphase(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    from tracker.rules.warlord.model import WarlordUnit

    for r in res.figures["removed"]:
        unit = _unit(enc, r["unit"])
        path = ["units", unit.id]
        tx.set([*path, "strength"], r["strength_after"])
        tx.set([*path, "held_casualties"], 0)
        tx.set([*path, "casualties_turn"], unit.casualties_turn + r["casualties"])
        tx.set([*path, "casualties_total"], unit.casualties_total + r["casualties"])
        if r["morale_test"]:
            tx.set([*path, "morale_test"], True)
        if r["wiped_out"]:
            tx.set([*path, "removed"], True)
    # units named as the GM names them (older saves: by id)
    forfeit = {str(f).lower() for f in res.figures["forfeit"]}
    for each in enc.units:
        if not isinstance(each, WarlordUnit):
            continue
        path = ["units", each.id]
        if each.id.lower() in forfeit or each.name.lower() in forfeit:
            tx.set([*path, "orders"], "")
        tx.set([*path, "fired"], False)
        tx.set([*path, "figures_fired"], 0)
        if each.fire_targets:
            tx.set([*path, "fire_targets"], [])


ENDPHASE = FunctionAction(
    name="endphase",
    help="Every unit has fired: remove the held casualties together, flag morale tests",
    params=[
        Param("held", "strs", [], "UNIT:KILLED:STRENGTH[:CLASS] per unit (from the encounter)"),
        Param("pending", "strs", [], "units still holding a fire order (from the encounter)"),
        Param("force", "bool", False, "end the phase although units have not fired"),
        Param(
            "morale_test_when", "choice", "any_loss", "which units test morale", choices=MORALE_WHEN
        ),
        Param(
            "morale_thresholds",
            "str",
            SAMPLE_THRESHOLDS,
            "CLASS:PERCENT lost that makes a unit test (class_threshold)",
        ),
    ],
    roles=[],
    resolve=resolve_endphase,
    fill=fill_endphase,
    apply=apply_endphase,
    detail="figures: removed (unit, casualties, strength, strength_after, lost_pct, "
    "morale_test, wiped_out), casualties, morale_tests, forfeit.",
)


# --- morale tests ----------------------------------------------------------------------


def resolve_morale(params: ParamDict, dice: Dice) -> Resolution:
    result = params["result"]
    text = f"{name_of(params)} {result} its morale test"
    if params["note"]:
        text += f": {params['note']}"
    return Resolution("morale", result, text, {"result": result}, rolls=dice.rolls)


def apply_morale(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    unit = _unit(enc, params["actor"])
    tx.set(["units", unit.id, "morale_test"], False)
    if params["result"] == "failed" and "failed morale test" not in unit.conditions:
        tx.add(["units", unit.id, "conditions"], "failed morale test")


MORALE = FunctionAction(
    name="morale",
    help="Record a morale test the GM took from the morale rules (clears the flag)",
    params=[
        Param("actor", "actor", REQUIRED, "unit"),
        Param("result", "choice", "passed", "what the test gave", choices=("passed", "failed")),
        Param("note", "str", "", "what follows, in the morale rules' words"),
        ACTOR_NAME,
    ],
    roles=[],
    resolve=resolve_morale,
    fill=fill_name,
    apply=apply_morale,
)


# --- turn upkeep -----------------------------------------------------------------------


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """A new game turn: movement, charges, fire and this turn's casualties start afresh."""
    from tracker.rules.warlord.model import WarlordUnit

    lines: list[str] = []
    for unit in enc.units:
        if not isinstance(unit, WarlordUnit):
            continue
        path = ["units", unit.id]
        tx.set([*path, "moved_cm"], 0)
        tx.set([*path, "charged"], False)
        tx.set([*path, "casualties_turn"], 0)
        tx.set([*path, "fired"], False)
        tx.set([*path, "figures_fired"], 0)
        if unit.fire_targets:
            tx.set([*path, "fire_targets"], [])
        if unit.held_casualties:
            held = unit.held_casualties
            lines.append(f"{unit.name} still holds {held} "
                         f"{'casualty' if held == 1 else 'casualties'}: run endphase")
        if unit.morale_test:
            lines.append(f"{unit.name} has a morale test still to take")
    return lines
