"""Phase eight missile fire: BFP + modifiers = MFP; × figures = FFP; ÷ range; kills.

BFP: Basic Firing Percentage from the weapon × armour chart of the firer's profile.
MFP: Modified Firing Percentage (BFP plus the firing modifiers that apply).
FFP: Final Firing Percentage (MFP × figures firing); short range leaves it, medium range
halves it, long range divides it by three. Each full 100% kills one figure; the remainder
is a d100 roll-under (equal scores) for one more. Kills are held until every unit has
fired (``endphase``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import (
    REQUIRED,
    DieRole,
    FunctionAction,
    Odds,
    Param,
    ParamDict,
    Resolution,
    RuleError,
)

from .profiles import RANGE_DIVISOR, FiringModifier, RaceProfile, load_sheet

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import WarlordUnit

ROUNDINGS = ("down", "nearest", "up")
ACTOR_NAME = Param("actor_name", "str", "", "unit's name for the log (from the encounter)")
MAX_TARGETS = 3


def show(value: Fraction) -> str:
    """A fraction as the GM reads it: ``120``, ``83 1/3``, ``-2/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    whole = math.trunc(value)
    rest = abs(value - whole)
    if whole == 0:
        return f"{'-' if value < 0 else ''}{rest.numerator}/{rest.denominator}"
    return f"{whole} {rest.numerator}/{rest.denominator}"


def json_number(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


def round_remainder(remainder: Fraction, rounding: str) -> int:
    """The percentage the d100 is rolled against: the remainder rounded as the setting says."""
    if rounding == "down":
        return math.floor(remainder)
    if rounding == "up":
        return math.ceil(remainder)
    if rounding == "nearest":
        return math.floor(remainder + Fraction(1, 2))  # halves go up
    raise RuleError(f"remainder_rounding={rounding}: expected one of {', '.join(ROUNDINGS)}")


@dataclass
class Volley:
    """One unit's fire at one target, worked out before the d100."""

    bfp: int
    bfp_source: str
    modifiers: list[tuple[str, int]]
    mfp: int
    figures: int
    ffp: int
    range: str
    divisor: int
    effective: Fraction
    sure_kills: int
    remainder: Fraction
    chance: int
    cap: int | None
    notes: list[str] = field(default_factory=list)

    @property
    def capped(self) -> bool:
        return self.cap is not None and self.sure_kills >= self.cap

    @property
    def rolls_d100(self) -> bool:
        return not self.capped and 0 < self.chance < 100


def _modifiers(params: ParamDict, profile: RaceProfile | None) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    named = [n for n in params.get("named") or [] if n.lower() != "none"]
    if named and profile is None:
        raise RuleError("named modifiers need the firer's race= (or give numbers in mods=)")
    for key in named:
        assert profile is not None
        mods.append(profile.modifier(key).label(params.get("target_ranks", 1)))
    mods += [("modifier", v) for v in params.get("mods") or []]
    return mods


def compute(params: ParamDict) -> Volley:
    """Work out the volley (BFP to the d100 chance) from parsed params; RuleError if illegal."""
    sheet = None
    profile = None
    weapon = None
    race, weapon_key = params.get("race", ""), params.get("weapon", "")
    if race:
        sheet = load_sheet(params.get("profiles", ""))
        profile = sheet.race(race)
        if weapon_key:
            weapon = profile.weapon(weapon_key)

    bfp = params.get("bfp", -1)
    if bfp is None or bfp < 0:
        armour = params.get("armour", "")
        if sheet is None or not weapon_key or not armour:
            raise RuleError("give bfp= or the firer's race= and weapon= and the target's armour=")
        bfp, bfp_source = sheet.bfp(race, weapon_key, armour)
    else:
        bfp_source = "given"

    mods = _modifiers(params, profile)
    mfp = bfp + sum(v for _, v in mods)

    figures = params["figures"]
    if figures < 1:
        raise RuleError(f"figures={figures}: at least one figure must fire")
    eligible = params.get("eligible", -1)
    if eligible is not None and 0 <= eligible < figures:
        raise RuleError(
            f"figures={figures}: only {eligible} figures can still fire "
            "(ranks for firing, each figure once a turn)"
        )
    ffp = mfp * figures

    notes: list[str] = []
    band = params.get("range", "auto")
    distance = params.get("distance", -1)
    if distance is not None and distance >= 0:
        if weapon is None:
            raise RuleError("distance= needs the firer's race= and weapon= for the range bands")
        found = weapon.band(distance)
        if band == "auto":
            band = found
        elif band != found:
            notes.append(f"range {band} given, the sheet says {found} at {distance:g} cm")
    if band == "auto":
        raise RuleError("give range=short|medium|long, or distance= with race= and weapon=")
    divisor = RANGE_DIVISOR[band]
    effective = Fraction(ffp, divisor)
    if effective < 0:
        notes.append("MFP below zero: no chance to kill")
        effective = Fraction(0)
    sure_kills = math.floor(effective / 100)
    remainder = effective - 100 * sure_kills
    chance = round_remainder(remainder, params.get("remainder_rounding", "down"))
    cap = params.get("target_figures", -1)
    if cap is not None and cap < 0:
        cap = None
    if bfp_source == "sample":
        notes.append("BFP is sample data from the profile sheet")
    return Volley(
        bfp,
        bfp_source,
        mods,
        mfp,
        figures,
        ffp,
        band,
        divisor,
        effective,
        sure_kills,
        remainder,
        chance,
        cap,
        notes,
    )


def _kills_word(n: int) -> str:
    return f"{n} killed"


def resolve_fire(params: ParamDict, dice: Dice) -> Resolution:
    v = compute(params)
    d100: int | None = None
    kills = v.sure_kills
    if v.capped:
        kills = v.cap or 0
    elif v.rolls_d100:
        d100 = dice.roll("d100", 100)
        if d100 <= v.chance:
            kills += 1
    elif v.chance >= 100:
        kills += 1
    if v.cap is not None:
        kills = min(kills, v.cap)

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
    actor = params.get("actor_name") or params.get("actor") or "Unit"
    target = params.get("target_name") or params.get("target") or "target"
    text = f"{actor} fire on {target}: {line} → {_kills_word(kills)} (held to end of phase)"
    if v.notes:
        text += " [" + "; ".join(v.notes) + "]"

    figures: dict[str, Any] = {
        "bfp": v.bfp,
        "bfp_source": v.bfp_source,
        "modifiers": [{"name": n, "value": val} for n, val in v.modifiers],
        "mfp": v.mfp,
        "figures": v.figures,
        "ffp": v.ffp,
        "range": v.range,
        "divisor": v.divisor,
        "effective": json_number(v.effective),
        "effective_exact": str(v.effective),
        "effective_shown": show(v.effective),
        "sure_kills": v.sure_kills,
        "remainder": json_number(v.remainder),
        "remainder_exact": str(v.remainder),
        "chance": v.chance,
        "d100": d100,
        "kills": kills,
        "notes": v.notes,
    }
    outcome = "kill" if kills else "miss"
    return Resolution("fire", outcome, text, figures, rolls=dice.rolls)


def odds_fire(params: ParamDict) -> Odds:
    """Exact chance of each number of figures killed."""
    v = compute(params)
    if v.capped:
        return [(_kills_word(v.cap or 0), 1.0)]
    p = Fraction(min(max(v.chance, 0), 100), 100)
    out: Odds = []
    if p < 1:
        out.append((_kills_word(v.sure_kills), float(1 - p)))
    if p > 0:
        out.append((_kills_word(v.sure_kills + 1), float(p)))
    return out


# --- in the encounter ------------------------------------------------------------------


def eligible_total(unit: WarlordUnit, ranks_for_firing: int) -> int:
    """Figures in the ranks that may fire: files × ranks for firing, at most the strength."""
    if unit.files is None or unit.files <= 0:
        return unit.strength
    return min(unit.strength, unit.files * ranks_for_firing)


def _applies(m: FiringModifier, firer: WarlordUnit, target: WarlordUnit | None) -> bool:
    if m.per == "target_rank":
        return target is not None
    if m.when == "target_moved_over":
        return target is not None and target.moved_cm > m.over
    if m.when == "firer_moved":
        return firer.moved_cm > 0
    if m.when == "firer_trait":
        return m.trait in firer.traits
    if m.when == "target_trait":
        return target is not None and m.trait in target.traits
    if m.when == "target_mounted":
        return target is not None and target.mounted
    return False


def auto_modifiers(
    profile: RaceProfile, firer: WarlordUnit, target: WarlordUnit | None
) -> list[str]:
    """Keys of the firer's modifiers the encounter says apply (moved, traits, target ranks)."""
    return [m.key for m in profile.modifiers if _applies(m, firer, target)]


def _unit(enc: Encounter, name: str) -> WarlordUnit:
    from tracker.rules.warlord.model import WarlordUnit

    try:
        unit = enc.find_unit(name)
    except LookupError as exc:
        raise RuleError(str(exc)) from None
    if not isinstance(unit, WarlordUnit):
        raise RuleError(f"{unit.name} is not a Fantasy Warlord unit")
    return unit


def name_of(params: ParamDict) -> str:
    """The unit's name for the log: the encounter's name, else the name as typed."""
    return str(params.get("actor_name") or params.get("actor") or "Unit")


def fill_name(enc: Encounter, params: ParamDict) -> ParamDict:
    if params.get("actor"):
        params.setdefault("actor_name", _unit(enc, params["actor"]).name)
    return params


def require_fire_order(enc: Encounter) -> bool:
    return bool(enc.settings.get("require_fire_order", True))


def target_problem(firer: WarlordUnit | None, target: WarlordUnit) -> str | None:
    """Why ``firer`` may not fire on ``target`` (None: it may), in one line."""
    if firer is not None and target.id == firer.id:
        return f"{firer.name} cannot fire on itself"
    if not target.active:
        return f"{target.name} is routed or removed"
    if target.engaged:
        return f"{target.name} is locked in combat: missile troops cannot fire on it"
    if target.strength - target.held_casualties <= 0:
        return f"every figure of {target.name} is already killed this phase"
    if firer is not None and target.id not in firer.fire_targets:
        if len(firer.fire_targets) >= MAX_TARGETS:
            return f"{firer.name} already fires on three targets this turn"
    return None


def valid_targets(enc: Encounter, firer: WarlordUnit) -> list[tuple[WarlordUnit, str | None]]:
    """Every other side's unit with the reason it may not be fired on (None: valid).

    Valid targets come first, those already fired on this turn before the rest; the
    tracker keeps no distances, so sight, arc and range stay with the GM.
    """
    from tracker.rules.warlord.model import WarlordUnit

    rows = [
        (u, target_problem(firer, u))
        for u in enc.units
        if isinstance(u, WarlordUnit) and u.side != firer.side
    ]
    rows.sort(key=lambda r: (r[1] is not None, r[0].id not in firer.fire_targets))
    return rows


def fill_fire(enc: Encounter, params: ParamDict) -> ParamDict:
    """Draw race, weapon, figures that can fire, armour, ranks and modifiers from the units."""
    firer = _unit(enc, params["actor"]) if params.get("actor") else None
    target = _unit(enc, params["target"]) if params.get("target") else None
    profile = None
    if firer is not None:
        if not firer.active:
            raise RuleError(f"{firer.name} is routed or removed and cannot fire")
        if firer.charged:
            raise RuleError(f"{firer.name} charged this turn and cannot fire")
        if require_fire_order(enc) and not firer.has_fire_order():
            why = (
                "has already fired"
                if firer.fired
                else f"has no fire order ({firer.orders or 'none'})"
            )
            raise RuleError(f"{firer.name} {why}")
        params.setdefault("actor_name", firer.name)
        params.setdefault("race", firer.race)
        params.setdefault("weapon", firer.weapon)
        if not params["weapon"]:
            raise RuleError(f"{firer.name} has no missile weapon")
        if params["race"]:
            profile = load_sheet(params.get("profiles", "")).race(params["race"])
            total = eligible_total(firer, profile.ranks_for_firing)
        else:
            total = firer.strength
        left = total - firer.figures_fired
        if left <= 0:
            raise RuleError(f"{firer.name}: every figure that can fire has fired this turn")
        params.setdefault("eligible", left)
        params.setdefault("figures", left)
    if target is not None:
        problem = target_problem(firer, target)
        if problem:
            raise RuleError(problem)
        standing = target.strength - target.held_casualties
        params.setdefault("target_name", target.name)
        params.setdefault("armour", target.armour_class)
        params.setdefault("target_ranks", target.ranks or 1)
        params.setdefault("target_figures", standing)
    if firer is not None and profile is not None and "named" not in params:
        params["named"] = auto_modifiers(profile, firer, target)
    return params


def apply_fire(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    """Hold the kills on the target; count the figures fired; take the counter off when done."""
    if params.get("target"):
        target = _unit(enc, params["target"])
        kills = res.figures["kills"]
        if kills:
            tx.set(["units", target.id, "held_casualties"], target.held_casualties + kills)
    if not params.get("actor"):
        return
    firer = _unit(enc, params["actor"])
    fired = firer.figures_fired + res.figures["figures"]
    tx.set(["units", firer.id, "figures_fired"], fired)
    if params.get("target"):
        tid = _unit(enc, params["target"]).id
        if tid not in firer.fire_targets:
            tx.add(["units", firer.id, "fire_targets"], tid)
    done = params.get("done", "auto")
    if done == "auto":
        rff = firer.strength
        if firer.race:
            rff = load_sheet(params.get("profiles", "")).race(firer.race).ranks_for_firing
        done = "yes" if fired >= eligible_total(firer, rff) else "no"
    if done == "yes":
        tx.set(["units", firer.id, "fired"], True)
        tx.set(["units", firer.id, "orders"], "")


FIRE = FunctionAction(
    name="fire",
    help="One unit's missile fire at one target (kills held to the end of phase eight)",
    params=[
        Param("actor", "actor", "", "firing unit"),
        Param("target", "target", "", "target unit"),
        Param("bfp", "int", -1, "Basic Firing Percentage (-1: from the profile sheet)", minimum=0),
        Param("mods", "ints", [], "further modifiers in percent, e.g. -1,3,4"),
        Param("named", "strs", [], "firing modifiers of the profile by key (none: no modifier)"),
        Param("figures", "int", REQUIRED, "figures firing at this target", minimum=0),
        Param(
            "range",
            "choice",
            "auto",
            "range band (auto: from distance=)",
            choices=("auto", "short", "medium", "long"),
        ),
        Param("distance", "float", -1, "cm to the target (-1: not measured)"),
        Param("race", "str", "", "firer's race on the profile sheet"),
        Param("weapon", "str", "", "firer's weapon on the BFP chart"),
        Param("armour", "str", "", "target's armour class"),
        Param("target_ranks", "int", 1, "ranks of the target (per-rank modifiers)", minimum=0),
        Param("target_figures", "int", -1, "figures of the target still standing (-1: no cap)"),
        Param("eligible", "int", -1, "figures that may still fire (-1: not checked)"),
        Param(
            "done",
            "choice",
            "auto",
            "take the fire order counter off after this fire",
            choices=("auto", "yes", "no"),
        ),
        Param(
            "remainder_rounding",
            "choice",
            "down",
            "rounding of the remainder for the d100",
            choices=ROUNDINGS,
        ),
        Param("profiles", "str", "", "profile sheet TOML (empty: the sample sheet)"),
        ACTOR_NAME,
        Param("target_name", "str", "", "target's name for the log (from the encounter)"),
    ],
    roles=[DieRole("d100", "d100", "one roll-under for the percentage left over")],
    resolve=resolve_fire,
    odds=odds_fire,
    fill=fill_fire,
    apply=apply_fire,
    detail=(
        "figures: bfp, modifiers, mfp, figures, ffp, range, divisor, effective (FFP after the "
        "range divisor; effective_exact keeps the fraction), sure_kills, remainder, chance "
        "(the remainder rounded: the d100 kills on this or less), d100, kills."
    ),
)
