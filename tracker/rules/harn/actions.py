"""The missile actions at the table: attacks (missile/fire, shoot, throw, charge), the
round-long actions load, aim and span, abandon (to defend normally), status, and the
injury level the GM enters for a wound a strike left.

``fill`` draws parameters from the encounter and refuses illegal actions with the reason;
``apply`` moves the shooter's missile state and records the injury on the creature struck.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import DieRole, FunctionAction, Param, ParamDict, Resolution, RuleError

from .missile import SKILL, missile_odds, plan_attack, resolve_missile
from .settings import DEFAULTS

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import HarnCombatant

WEAPONS = ("bow", "crossbow", "sling", "thrown")

# The Missile Actions table: (movement, time, defence) per weapon and action.
MISSILE_ACTIONS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("bow", "load"): ("none", "1 round", "ignore"),
    ("sling", "load"): ("none", "1 round", "ignore"),
    ("bow", "aim"): ("none", "1 round", "ignore"),
    ("bow", "shoot"): ("half move", "1 turn", "any"),
    ("sling", "shoot"): ("half move", "1 turn", "any"),
    ("crossbow", "span"): ("none", "1+ rounds", "ignore"),
    ("crossbow", "load"): ("none", "1 round", "ignore"),
    ("crossbow", "aim"): ("none", "1 round", "ignore"),
    ("crossbow", "shoot"): ("half move", "1 turn", "any"),
    ("thrown", "aim"): ("none", "1 round", "ignore"),
    ("thrown", "throw"): ("none", "1 turn", "any"),
    ("thrown", "charge"): ("half move", "1 turn", "any"),
}

ROUND_LONG = ("load", "aim", "span")

ATTACK_ROLES = (
    DieRole("test", "d100", "the missile test: d100 <= EML succeeds, /5 is critical"),
    DieRole("count", "d20/d10", "target count die: d20, or the volley precision d10s"),
    DieRole("impact", "d10", "rolled with the count die: 5 or 0 adds the Impact TA"),
    DieRole("zone", "ZD", "Zone Die: d6/d8 by range, d10 or the body's zone count"),
    DieRole("deviation", "d8", "volley miss: which adjacent 15-ft area"),
)


def _p(name: str, kind: Any = "int", default: Any = None, help: str = "", **kw: Any) -> Param:
    return Param(name, kind, default, help, **kw)


ATTACK_PARAMS: tuple[Param, ...] = (
    _p("actor", "actor", "", "the shooter"),
    _p("at", "target", "", "the combatant shot at"),
    _p("ml", help="missile ML (Archery, Slings or Throwing)", minimum=0),
    _p("range", help="feet to the target (or the volley area)", minimum=0),
    _p("br", help="Base Range (BR) in feet", minimum=1),
    _p("weapon", "choice", None, "bow, crossbow, sling or thrown", choices=WEAPONS),
    _p("target", "choice", None, "target is still, moving or evading",
       choices=("still", "moving", "evading")),
    _p("dodge", help="evading target's Effective Dodge Index (x5 penalty)", minimum=0),
    _p("shooter_moving", "bool", None, "shooter half-moved this turn (-10, not throwers)"),
    _p("aimed", "bool", None, "took the Aim action last round (+10)"),
    _p("sb", help="crossbow: Archery SB (EML may be SB x 3)", minimum=0),
    _p("pull", help="shooter's Pull (a bow's Aim needs Pull - Draw >= 75)"),
    _p("draw", help="bow's Draw (DRW)"),
    _p("crosswind", "int", 0, "crosswind Windforce 0-4", minimum=0, maximum=4),
    _p("overhead", help="overhead clearance in feet (none: open sky)", minimum=0),
    _p("tar", help="target's TAR (TAR2+: +5 per TAR at Direct)", minimum=1),
    _p("object", "choice", None, "thrown object: none, object (-10), oblong (-20)",
       choices=("none", "object", "oblong")),
    _p("heft", help="Heft penalty of the thrown weapon/object (points)"),
    _p("trauma", help="fatigue and impairment penalty (points)"),
    _p("wet", "bool", False, "wet bow or crossbow string: BR halved"),
    _p("charge", "bool", False, "Charging Throw after a 20-ft+ Charge (thrown)"),
    _p("area_moving", "bool", False, "volley: the target area is moving (-10)"),
    _p("zone_aim", "int", 1, "ZN aimed at: the Zone Die counts up from it", minimum=1),
    _p("zones", help="target's body zones (none: humanoid)", minimum=0),
    _p("targets", help="target count: others within 5 ft (Direct) or all in the area "
       "(Volley), TAR for large ones", minimum=0),
    _p("numbering", "strs", [], "names by count number (horse twice for TAR2)"),
    _p("count_zones", "ints", [], "body zones by count number (one value: all)"),
    _p("deviation_targets", "ints", [], "target counts of the 8 adjacent areas (or one)"),
    _p("steps", "int", 0, "success steps beyond CS (one more TA each)", minimum=0),
    _p("ta", "strs", [], "TAs of choice in order: precision or impact"),
    _p("base_impact", "str", "", "weapon's base impact, e.g. d12+4"),
    _p("impact_bonus", help="projectile's Impact TA bonus"),
    _p("location", "str", "", "name of the location struck (from your table)"),
    _p("injury", "str", "", "injury level from your table, e.g. S2p"),
    _p("strike_impact", help="final strike impact rolled, for the wound", minimum=0),
    _p("crosswind_direct", "choice", DEFAULTS["crosswind_direct"],
       "Direct crosswind rule", choices=("per_force", "above_one")),
    _p("massive_target", "choice", DEFAULTS["massive_target"], "massive target rule",
       choices=("per_tar", "above_one")),
    _p("spoiled_attack", "choice", DEFAULTS["spoiled_attack"], "EML <= -40: fails or wasted",
       choices=("fails", "wasted")),
    _p("ta_choice", "choice", DEFAULTS["ta_choice"], "TA spent when ta= is silent",
       choices=("precision", "impact")),
    _p("zone_pick", "str", DEFAULTS["zone_pick"], "ZD kept: lowest, highest, first or 1..n"),
    _p("count_pick", "str", DEFAULTS["count_pick"], "volley precision d10 kept"),
    _p("zone_overflow", "choice", DEFAULTS["zone_overflow"], "ZN past the last zone",
       choices=("cap", "wrap", "open")),
    _p("humanoid_zones", "int", DEFAULTS["humanoid_zones"], "zones of a humanoid", minimum=1),
    _p("thrown_pb_zd", "int", DEFAULTS["thrown_pb_zd"], "thrown ZD at Direct PB", minimum=2),
    _p("pb_zd", help="the thrown weapon's own ZD at Direct PB (sides)", minimum=2),
)

ATTACK_DETAIL = """\
JSON: attack_type (direct-pb, direct, volley2-4), eml (final, clamped 5-95), eml_adjusted,
modifiers [{name, value}], success (CS MS MF CF), result (strike miss mishap spoiled), hit
(target nearby area deviation), zone_die, zone_rolls, zone (ZN struck), impact_mod (range),
precision, precision_ta, free_ta, ta, impact_ta, impact_tas, impact_total, impact, target_count,
count_die, count_rolls, struck (count value that picked the creature), struck_name,
impact_roll, deviation (d8), mishap (fumble stumble)."""


# --- looking things up --------------------------------------------------------------------


def _combatant(enc: Encounter, name: Any) -> HarnCombatant | None:
    from tracker.rules.harn.model import HarnCombatant

    if not name:
        return None
    try:
        found = enc.find_combatant(str(name))
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    if not isinstance(found, HarnCombatant):
        raise RuleError(f"{found.name} is not a HârnMaster combatant")
    return found


def _need(enc: Encounter, name: Any, what: str = "actor") -> HarnCombatant:
    found = _combatant(enc, name)
    if found is None:
        raise RuleError(f"{what}= is required: which combatant?")
    return found


def _setting(enc: Encounter, name: str) -> Any:
    return enc.settings.get(name, DEFAULTS[name])


def _skill_ml(c: HarnCombatant, weapon: str) -> int:
    return {"bow": c.archery, "crossbow": c.archery, "sling": c.slings,
            "thrown": c.throwing}[weapon]


def _weapon_kind(c: HarnCombatant | None, p: ParamDict) -> str:
    if p.get("weapon"):
        return str(p["weapon"])
    if c is not None and c.weapon is not None:
        return c.weapon.kind
    return "bow"


def _check_turn(enc: Encounter, c: HarnCombatant, free: bool = False) -> None:
    if c.out:
        raise RuleError(f"{c.name} is out of the fight")
    if free or not _setting(enc, "one_action_per_round"):
        return
    if c.acted_round == enc.position.round:
        raise RuleError(f"{c.name} already acted this round ({c.last_action or 'an action'})")


# --- attacks ------------------------------------------------------------------------------


def fill_attack(enc: Encounter, params: ParamDict) -> ParamDict:
    """Shooter's skill, weapon and missile state; target's movement, Dodge, TAR, zones."""
    p = dict(params)
    shooter = _combatant(enc, p.get("actor"))
    target = _combatant(enc, p.get("at"))
    rnd = enc.position.round
    if shooter is not None:
        w = shooter.weapon
        weapon = _weapon_kind(shooter, p)
        p["weapon"] = weapon
        if p.get("ml") is None:
            p["ml"] = _skill_ml(shooter, weapon)
        if weapon == "crossbow" and p.get("sb") is None and shooter.archery_sb:
            p["sb"] = shooter.archery_sb
        if p.get("shooter_moving") is None:
            p["shooter_moving"] = shooter.moved
        if p.get("aimed") is None:
            p["aimed"] = shooter.aimed_round is not None and shooter.aimed_round == rnd - 1
        if p.get("trauma") is None and (shooter.fatigue or shooter.impairment):
            p["trauma"] = abs(shooter.fatigue) + abs(shooter.impairment)
        if p.get("pull") is None and shooter.pull:
            p["pull"] = shooter.pull
        if w is not None and w.kind == weapon:
            if p.get("br") is None and w.br:
                p["br"] = w.br
            if p.get("draw") is None and w.draw:
                p["draw"] = w.draw
            if weapon == "thrown":
                if p.get("heft") is None and w.heft:
                    p["heft"] = w.heft
                if p.get("object") is None:
                    p["object"] = w.object
                if w.pb_zd and p.get("pb_zd") is None:
                    p["pb_zd"] = w.pb_zd
            if not p.get("base_impact") and w.impact:
                p["base_impact"] = w.impact
            if p.get("impact_bonus") is None and w.impact_bonus:
                p["impact_bonus"] = w.impact_bonus
        if target is not None and p.get("range") is None:
            for note in shooter.ranges:
                if note.id == target.id:
                    p["range"] = note.feet
        check_attack(enc, shooter, p)
    if target is not None:
        if p.get("target") is None:
            p["target"] = target.movement
        if p.get("dodge") is None and target.dodge:
            p["dodge"] = target.dodge
        if p.get("tar") is None:
            p["tar"] = target.tar
        if p.get("zones") is None and target.zones:
            p["zones"] = target.zones
    if p.get("numbering") and not p.get("count_zones"):
        zones = []
        for name in p["numbering"]:
            c = _combatant(enc, name)
            zones.append(c.zones if c is not None else 0)
        if any(zones):
            p["count_zones"] = zones
    return p


def check_attack(enc: Encounter, c: HarnCombatant, p: ParamDict, action: str = "") -> None:
    """Refuse an attack the shooter's missile state does not allow, saying why."""
    if c.out:
        raise RuleError(f"{c.name} is out of the fight")
    weapon = _weapon_kind(c, p)
    name = c.weapon.name if c.weapon is not None else weapon
    if weapon == "crossbow" and not c.loaded:
        how = "load a bolt" if c.spanned else "span it, then load a bolt"
        raise RuleError(f"{c.name}'s {name} is not loaded ({how})")
    if weapon in ("bow", "sling") and not c.loaded:
        raise RuleError(f"{c.name}'s {name} is not loaded (load first)")
    _check_turn(enc, c)


def _attack_resolver(action: str) -> Callable[[ParamDict, Dice], Resolution]:
    def resolve(params: ParamDict, dice: Dice) -> Resolution:
        p = dict(params)
        weapon = p.get("weapon") or "bow"
        if action == "shoot" and weapon == "thrown":
            raise RuleError("shoot: a thrown weapon is thrown (use throw or charge)")
        if action in ("throw", "charge"):
            if p.get("weapon") is None:
                p["weapon"] = weapon = "thrown"
            if weapon != "thrown":
                raise RuleError(f"{action}: a {weapon} is shot, not thrown (use shoot)")
        if action == "charge":
            p["charge"] = True
        return resolve_missile(p, dice, action)

    return resolve


def _attack_odds(action: str) -> Callable[[ParamDict], list[tuple[str, float]]]:
    def odds(params: ParamDict) -> list[tuple[str, float]]:
        p = dict(params)
        if action in ("throw", "charge") and p.get("weapon") is None:
            p["weapon"] = "thrown"
        if action == "charge":
            p["charge"] = True
        return missile_odds(p)

    return odds


_LEVEL = re.compile(r"\d+")


def injury_level(code: str) -> int:
    """The level number of an injury code: S2p -> 2, G4 -> 4, M1 -> 1."""
    m = _LEVEL.search(code or "")
    return int(m.group()) if m else 0


def apply_attack(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    """Spend the shot, note the range, and record the injury on the creature struck."""
    from tracker.core.model import Wound
    from tracker.rules.harn.model import RangeNote

    f = res.figures
    rnd = enc.position.round
    shooter = _combatant(enc, p.get("actor"))
    target = _combatant(enc, p.get("at"))
    if shooter is not None:
        base: list[str | int] = ["combatants", shooter.id]
        weapon = f.get("weapon", "bow")
        attacked = f.get("roll") is not None
        if attacked and weapon != "thrown":
            tx.set(base + ["loaded"], False)
            if weapon == "crossbow":
                tx.set(base + ["spanned"], False)
                tx.set(base + ["span_progress"], 0)
        tx.set(base + ["aimed_round"], None)
        tx.set(base + ["acted_round"], rnd)
        tx.set(base + ["last_action"], res.action)
        if p.get("shooter_moving") or res.action == "charge":
            tx.set(base + ["moved"], True)
        if target is not None and p.get("range") is not None:
            if any(n.id == target.id for n in shooter.ranges):
                tx.set(base + ["ranges", target.id, "feet"], int(p["range"]))
            else:
                tx.add(base + ["ranges"], RangeNote(id=target.id, feet=int(p["range"])))
    if f.get("result") != "strike":
        return
    struck = _combatant_or_none(enc, f.get("struck_name"))
    if struck is None and f.get("hit") == "target":
        struck = target
    if struck is None:
        return
    location = f"ZN{f['zone']}"
    if p.get("location"):
        location += f" {p['location']}"
    impact = f.get("impact") or f"{f.get('impact_total', 0):+d}"
    who = p.get("actor") or "missile"
    note = f"{who}, {f['attack_type']}: impact {impact}"
    if f.get("impact_ta"):
        note += f", Impact TA x{f.get('impact_tas', 1)}"
    if not p.get("injury"):
        note += "; injury level: GM to enter"
    wound = Wound(
        location=location,
        level=injury_level(p.get("injury") or ""),
        kind=p.get("injury") or "missile",
        impact=p.get("strike_impact"),
        round=rnd,
        note=note,
    )
    tx.add(["combatants", struck.id, "wounds"], wound)


def _combatant_or_none(enc: Encounter, name: Any) -> HarnCombatant | None:
    try:
        return _combatant(enc, name)
    except RuleError:
        return None


def _attack_summary(action: str) -> Callable[[ParamDict], str]:
    def summary(params: ParamDict) -> str:
        p = dict(params)
        if action in ("throw", "charge") and p.get("weapon") is None:
            p["weapon"] = "thrown"
        if action == "charge":
            p["charge"] = True
        plan = plan_attack(p)
        terms = " ".join(f"{name} {value:+d}" for name, value in plan.modifiers)
        spoiled = " (spoiled)" if plan.spoiled else ""
        return (f"{plan.band.label}, ZD d{plan.zone_die}, impact {plan.impact_mod:+d}; "
                f"EML {plan.eml}{spoiled} = {plan.skill} {plan.ml} {terms}").rstrip()

    return summary


def attack_action(name: str, help: str) -> FunctionAction:
    return FunctionAction(
        name=name,
        help=help,
        params=ATTACK_PARAMS,
        roles=ATTACK_ROLES,
        resolve=_attack_resolver(name),
        odds=_attack_odds(name),
        summary=_attack_summary(name),
        fill=fill_attack,
        apply=apply_attack,
        detail=ATTACK_DETAIL,
    )


# --- round-long actions: load, aim, span; abandon; status ---------------------------------


def _state_figures(weapon: str, action: str) -> dict[str, Any]:
    movement, time, defence = MISSILE_ACTIONS.get((weapon, action), ("none", "1 round", "ignore"))
    return {"weapon": weapon, "movement": movement, "time": time, "defence": defence}


def fill_load(enc: Encounter, params: ParamDict) -> ParamDict:
    p = dict(params)
    c = _need(enc, p.get("actor"))
    weapon = _weapon_kind(c, p)
    p["weapon"] = weapon
    if p.get("free") is None:
        p["free"] = c.in_hand
    _check_turn(enc, c, free=bool(p["free"]))
    if weapon == "thrown":
        raise RuleError(f"{c.name}: thrown weapons have no Load action")
    if c.loaded:
        raise RuleError(f"{c.name}'s {weapon} is already loaded")
    if weapon == "crossbow" and not c.spanned:
        raise RuleError(f"{c.name}'s crossbow is not spanned (span it first)")
    return p


def resolve_load(p: ParamDict, dice: Dice) -> Resolution:
    weapon = p.get("weapon") or "bow"
    if weapon == "thrown":
        raise RuleError("load: thrown weapons have no Load action")
    who = p.get("actor") or "combatant"
    figures = _state_figures(weapon, "load")
    free = bool(p.get("free"))
    figures["free"] = free
    if free:
        figures["time"] = "free"
        text = f"{who} loads the {weapon} as a free action (projectile in hand)"
    else:
        text = f"{who} loads the {weapon} (1 round, defence: ignore)"
    return Resolution("load", "loaded", text, figures, dice.rolls)


def apply_load(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    base: list[str | int] = ["combatants", c.id]
    tx.set(base + ["loaded"], True)
    if not res.figures.get("free"):
        tx.set(base + ["acted_round"], enc.position.round)
        tx.set(base + ["last_action"], "load")


def fill_aim(enc: Encounter, params: ParamDict) -> ParamDict:
    p = dict(params)
    c = _need(enc, p.get("actor"))
    weapon = _weapon_kind(c, p)
    p["weapon"] = weapon
    if p.get("pull") is None and c.pull:
        p["pull"] = c.pull
    if p.get("draw") is None and c.weapon is not None and c.weapon.draw:
        p["draw"] = c.weapon.draw
    _check_turn(enc, c)
    _check_aim(p)
    if weapon in ("bow", "crossbow") and not c.loaded and _setting(enc, "aim_needs_load"):
        raise RuleError(f"{c.name}'s {weapon} is not loaded: load before aiming")
    return p


def _check_aim(p: ParamDict) -> None:
    weapon = p.get("weapon") or "bow"
    if weapon == "sling":
        raise RuleError("aim: a sling has no Aim action")
    pull, draw = p.get("pull"), p.get("draw")
    if weapon == "bow" and pull is not None and draw is not None and pull - draw < 75:
        raise RuleError(
            f"aim: a bow may be aimed only if Pull exceeds Draw by 75 (Pull {pull}, Draw {draw})"
        )


def resolve_aim(p: ParamDict, dice: Dice) -> Resolution:
    _check_aim(p)
    weapon = p.get("weapon") or "bow"
    who = p.get("actor") or "combatant"
    text = f"{who} aims the {weapon} (1 round, defence: ignore): +10 to a shot next round"
    return Resolution("aim", "aimed", text, _state_figures(weapon, "aim"), dice.rolls)


def apply_aim(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    base: list[str | int] = ["combatants", c.id]
    tx.set(base + ["aimed_round"], enc.position.round)
    tx.set(base + ["acted_round"], enc.position.round)
    tx.set(base + ["last_action"], "aim")


def fill_span(enc: Encounter, params: ParamDict) -> ParamDict:
    p = dict(params)
    c = _need(enc, p.get("actor"))
    weapon = _weapon_kind(c, p)
    if weapon != "crossbow":
        raise RuleError(f"{c.name}: only a crossbow is spanned")
    _check_turn(enc, c)
    if c.spanned or c.loaded:
        raise RuleError(f"{c.name}'s crossbow is already spanned")
    if p.get("span_rounds") is None and c.weapon is not None:
        p["span_rounds"] = c.weapon.span_rounds
    if p.get("progress") is None:
        p["progress"] = c.span_progress
    return p


def resolve_span(p: ParamDict, dice: Dice) -> Resolution:
    rounds = int(p.get("span_rounds") or 1)
    if rounds not in (1, 2, 4, 8):
        raise RuleError(f"span_rounds={rounds}: 1 by hand, or 2, 4 or 8 with a spanner")
    done_before = int(p.get("progress") or 0)
    if done_before >= rounds:
        raise RuleError("span: the crossbow is already spanned")
    progress = done_before + 1
    spanned = progress >= rounds
    who = p.get("actor") or "combatant"
    figures = _state_figures("crossbow", "span")
    figures.update(span_rounds=rounds, span_progress=progress, spanned=spanned)
    how = "by hand" if rounds == 1 else f"with a spanner, round {progress} of {rounds}"
    text = f"{who} spans the crossbow ({how}, defence: ignore)"
    text += ": spanned, load a bolt next" if spanned else ""
    return Resolution("span", "spanned" if spanned else "spanning", text, figures, dice.rolls)


def apply_span(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    base: list[str | int] = ["combatants", c.id]
    if res.figures["spanned"]:
        tx.set(base + ["spanned"], True)
        tx.set(base + ["span_progress"], 0)
    else:
        tx.set(base + ["span_progress"], res.figures["span_progress"])
    tx.set(base + ["acted_round"], enc.position.round)
    tx.set(base + ["last_action"], "span")


def fill_abandon(enc: Encounter, params: ParamDict) -> ParamDict:
    p = dict(params)
    c = _need(enc, p.get("actor"))
    if c.acted_round != enc.position.round or c.last_action not in ROUND_LONG:
        raise RuleError(f"{c.name} has no load, aim or span under way this round to abandon")
    p["what"] = c.last_action
    return p


def resolve_abandon(p: ParamDict, dice: Dice) -> Resolution:
    what = p.get("what") or "action"
    who = p.get("actor") or "combatant"
    text = f"{who} abandons the {what} to defend normally"
    return Resolution("abandon", "abandoned", text, {"abandoned": what}, dice.rolls)


def apply_abandon(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    base: list[str | int] = ["combatants", c.id]
    what = res.figures["abandoned"]
    if what == "load":
        tx.set(base + ["loaded"], False)
    elif what == "aim":
        tx.set(base + ["aimed_round"], None)
    elif what == "span":
        if c.spanned:
            rounds = c.weapon.span_rounds if c.weapon is not None else 1
            tx.set(base + ["spanned"], False)
            tx.set(base + ["span_progress"], max(0, rounds - 1))
        else:
            tx.set(base + ["span_progress"], max(0, c.span_progress - 1))
    tx.set(base + ["last_action"], "defend")


def resolve_status(p: ParamDict, dice: Dice) -> Resolution:
    who = p.get("actor") or "combatant"
    bits = []
    if p.get("movement"):
        bits.append(f"is {p['movement']}")
    if p.get("moved") is not None:
        bits.append("moves (half move)" if p["moved"] else "stays put")
    if p.get("in_hand") is not None:
        bits.append("has a projectile in hand" if p["in_hand"] else "has no projectile in hand")
    if not bits:
        raise RuleError("status: give movement=, moved= or in_hand=")
    figures = {k: p.get(k) for k in ("movement", "moved", "in_hand")}
    return Resolution("status", "status", f"{who} " + ", ".join(bits), figures, dice.rolls)


def apply_status(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    for key in ("movement", "moved", "in_hand"):
        if p.get(key) is not None:
            tx.set(["combatants", c.id, key], p[key])


def _fill_need_actor(enc: Encounter, params: ParamDict) -> ParamDict:
    _need(enc, params.get("actor"))
    return dict(params)


# --- wounds -------------------------------------------------------------------------------


def fill_injury(enc: Encounter, params: ParamDict) -> ParamDict:
    p = dict(params)
    c = _need(enc, p.get("actor"))
    if not c.wounds:
        raise RuleError(f"{c.name} has no wound to set an injury level on")
    n = p.get("wound") or len(c.wounds)
    if not 1 <= n <= len(c.wounds):
        raise RuleError(f"wound={n}: {c.name} has wounds 1..{len(c.wounds)}")
    p["wound"] = n
    return p


def resolve_injury(p: ParamDict, dice: Dice) -> Resolution:
    level = p.get("level") or ""
    if not level:
        raise RuleError("injury: level= is required (e.g. S2p)")
    who = p.get("actor") or "combatant"
    figures = {"level": injury_level(level), "injury": level, "wound": p.get("wound"),
               "strike_impact": p.get("strike_impact")}
    text = f"{who}: injury level {level}"
    if p.get("strike_impact") is not None:
        text += f" (impact {p['strike_impact']})"
    return Resolution("injury", "injury", text, figures, dice.rolls)


def apply_injury(enc: Encounter, p: ParamDict, res: Resolution, tx: Transaction) -> None:
    c = _need(enc, p.get("actor"))
    i = int(p.get("wound") or len(c.wounds)) - 1
    base: list[str | int] = ["combatants", c.id, "wounds", i]
    tx.set(base + ["level"], res.figures["level"])
    tx.set(base + ["kind"], res.figures["injury"])
    if res.figures["strike_impact"] is not None:
        tx.set(base + ["impact"], res.figures["strike_impact"])
    note = c.wounds[i].note.replace("; injury level: GM to enter", "")
    tx.set(base + ["note"], note)


ACTOR = _p("actor", "actor", "", "the combatant")
WEAPON = _p("weapon", "choice", None, "bow, crossbow, sling or thrown", choices=WEAPONS)


def state_actions() -> dict[str, FunctionAction]:
    return {
        "load": FunctionAction(
            "load", "Load the bow, sling or crossbow (1 round; free with a projectile in hand)",
            (ACTOR, WEAPON, _p("free", "bool", None, "free action: projectile in hand")),
            (), resolve_load, fill=fill_load, apply=apply_load,
        ),
        "aim": FunctionAction(
            "aim", "Aim (1 round): +10 to a shot next round; a bow needs Pull - Draw >= 75",
            (ACTOR, WEAPON, _p("pull", help="shooter's Pull"), _p("draw", help="bow's Draw")),
            (), resolve_aim, fill=fill_aim, apply=apply_aim,
        ),
        "span": FunctionAction(
            "span", "Span a crossbow: 1 round by hand, 2/4/8 rounds with a spanner",
            (ACTOR, _p("span_rounds", help="rounds to span: 1, 2, 4 or 8", minimum=1),
             _p("progress", help="rounds already spent spanning", minimum=0)),
            (), resolve_span, fill=fill_span, apply=apply_span,
        ),
        "abandon": FunctionAction(
            "abandon", "Abandon this round's load, aim or span to defend normally",
            (ACTOR, _p("what", "str", "", "the action abandoned (filled)")),
            (), resolve_abandon, fill=fill_abandon, apply=apply_abandon,
        ),
        "status": FunctionAction(
            "status", "Set movement (still/moving/evading), moved this round, projectile in hand",
            (ACTOR, _p("movement", "choice", None, "as a target: still, moving or evading",
                       choices=("still", "moving", "evading")),
             _p("moved", "bool", None, "half-moved this round (Shooter Moving)"),
             _p("in_hand", "bool", None, "projectile in hand (free Load)")),
            (), resolve_status, fill=_fill_need_actor, apply=apply_status,
        ),
        "injury": FunctionAction(
            "injury", "Enter the injury level of a wound from your table (default: the last)",
            (ACTOR, _p("level", "str", "", "injury level, e.g. S2p"),
             _p("wound", help="wound number (1 = first)", minimum=1),
             _p("strike_impact", help="strike impact", minimum=0)),
            (), resolve_injury, fill=fill_injury, apply=apply_injury,
        ),
    }


def attack_actions() -> dict[str, FunctionAction]:
    make = partial(attack_action)
    return {
        "missile": make("missile", "Missile attack: range band, EML, test and results"),
        "fire": make("fire", "Missile attack with the actor's weapon (as missile)"),
        "shoot": make("shoot", "Shoot a bow, sling or crossbow (half move, 1 turn, any defence)"),
        "throw": make("throw", "Throw a weapon or object (no move, 1 turn, any defence)"),
        "charge": make("charge", "Charging Throw after a Charge (target 5 ft+ away)"),
    }


__all__ = ["SKILL", "attack_actions", "state_actions", "MISSILE_ACTIONS", "injury_level"]
