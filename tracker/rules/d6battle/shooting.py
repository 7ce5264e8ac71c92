"""d6battle shooting: d6 + SA + modifiers >= 7 hits (a 1 always misses), armour saves
d6 + save - AP >= 7, kill rolls d6 + KA >= D, and the morale test from casualties.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import (
    DieRole,
    FunctionAction,
    Odds,
    Param,
    ParamDict,
    Resolution,
    RuleError,
)

from .common import NEVER, binomial, chance, count_at_least, kill_needed, score_needed
from .settings import setting_param
from .tables import WEAPONS, Weapon, armour_save, morale_casualties, weapon

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


FIRE_MODES = ("stationary", "moving", "stand", "flee")
MASS_RANGE = 8
STAND_AND_SHOOT_RANGE = 5

PARAMS = [
    Param("actor", "actor", "", "shooting unit (roster name)"),
    Param("target", "target", "", "target unit (roster name)"),
    Param("figures", "int", help="figures firing (1 d6 each; ROF 2 doubles)", minimum=0),
    Param("sa", "int", help="firer's Shooting Ability (SA)"),
    Param("weapon", "choice", help="weapon from the table", choices=tuple(WEAPONS)),
    Param("range", "choice", "effective", "range band (long: over half range, -1)",
          choices=("effective", "long")),
    Param("distance", "float", 0.0, "inches to the target (0: not measured); sets the band",
          minimum=0),
    Param("fire", "choice", "stationary",
          "stationary, moving (& shooting), stand (& shoot at chargers), flee (fire & flee)",
          choices=FIRE_MODES),
    Param("skirmishers", "int", 0, "skirmish formations in the line of fire (-1 each)",
          minimum=0),
    Param("chargers", "bool", False, "shooting chargers (-1; always so for stand and flee)"),
    Param("terrain", "bool", False, "target in a terrain feature (-1)"),
    Param("mass", "bool", False, "mass shooting (stationary, frontal zone, over 8\")"),
    Param("frontal", "bool", True, "target in the firer's frontal attack zone"),
    Param("save", "int", 0, "target's armour save value (sum of its parts)", minimum=0),
    Param("armour", "strs", [], "target's armour parts instead of save= (shield,heavy-armor)"),
    Param("durability", "int", help="target's Durability (D)"),
    Param("unit_size", "int", 0, "target unit's size for the morale table (0: no test)",
          minimum=0),
    Param("casualties_before", "int", 0, "target's casualties already taken (morale table)",
          minimum=0),
    setting_param("natural_one"),
    setting_param("bows_no_move_shoot"),
    setting_param("morale_retest"),
]

ROLES = [
    DieRole("hit", "d6", "one per shot: d6 + SA + modifiers >= 7 hits; 1 misses"),
    DieRole("save", "d6", "one per hit: d6 + save - AP >= 7 saves"),
    DieRole("kill", "d6", "one per unsaved hit: d6 + KA >= D kills"),
]


@dataclass
class ShotPlan:
    """Everything about a shot that is known before any die is rolled."""

    weapon: Weapon
    range: str
    rof: int
    shots: int
    sa_modified: int
    modifiers: list[str]
    impossible_odds: bool
    needed: int
    ka: int
    ap: int
    save: int
    save_needed: int
    kill_needed: int
    remaining: int | None
    threshold: int | None
    notes: list[str] = field(default_factory=list)

    def p_kill_per_shot(self) -> float:
        p = chance(self.needed) * (1 - chance(self.save_needed)) * chance(self.kill_needed)
        return float(p)


def plan(params: ParamDict) -> ShotPlan:
    """Check the shot against the rules and work out every score needed."""
    w = weapon(str(params["weapon"]))
    bows = bool(params.get("bows_no_move_shoot", False))
    fire = params["fire"]
    range_ = params["range"]
    distance = float(params.get("distance") or 0)
    notes: list[str] = []
    if distance > 0:
        reach = w.long.range if w.long else w.effective.range
        if distance > reach:
            raise RuleError(f'{w.name}: {distance:g}" is out of range (max {reach}")')
        by_distance = "effective" if distance <= w.effective.range else "long"
        if range_ == "long" and by_distance == "effective":
            raise RuleError(
                f'{w.name}: {distance:g}" is effective range (up to {w.effective.range}")'
            )
        range_ = by_distance
    band = w.band(range_)
    if fire == "moving" and w.binds("no_move_and_shoot", bows):
        raise RuleError(f"{w.name}: no move & shoot")
    if fire == "flee" and w.binds("no_shoot_and_flee", bows):
        raise RuleError(f"{w.name}: no shoot & flee")
    if fire == "stand" and w.binds("stand_and_shoot_under_5") and distance >= STAND_AND_SHOOT_RANGE:
        raise RuleError(f'{w.name}: may stand & shoot only under {STAND_AND_SHOOT_RANGE}"')
    if params["mass"]:
        if w.binds("no_mass_fire"):
            raise RuleError(f"{w.name}: no mass fire")
        if fire not in ("stationary", "stand"):
            raise RuleError("mass shooting: the firer must be stationary")
        if fire == "stand" and w.binds("no_mass_fire_charge_reaction"):
            raise RuleError(f"{w.name}: may not mass fire as a charge reaction")
        if not params["frontal"]:
            raise RuleError("mass shooting: only at units in the frontal attack zone")
        if 0 < distance <= MASS_RANGE:
            raise RuleError(f'mass shooting: only at units over {MASS_RANGE}" away')
        if distance == 0:
            notes.append(f'mass fire: target must be over {MASS_RANGE}" away')
    if fire == "stand" and w.binds("stand_and_shoot_under_5") and distance == 0:
        notes.append(f'{w.name} stand & shoot only under {STAND_AND_SHOOT_RANGE}"')

    rof, ka = 1, band.ka
    if w.rof_stationary > 1 and fire == "stationary":
        rof = w.rof_stationary
        ka = w.ka_rof2 if w.ka_rof2 is not None else ka

    mods: list[tuple[str, int]] = []
    if params["skirmishers"]:
        n = int(params["skirmishers"])
        mods.append((f"skirmishers x{n}" if n > 1 else "skirmishers", -n))
    if params["chargers"] or fire in ("stand", "flee"):
        mods.append(("chargers", -1))
    if range_ == "long":
        mods.append(("long range", -1))
    if fire == "moving":
        if w.binds("no_move_penalty"):
            notes.append(f"{w.name}: no negative for moving & shooting")
        else:
            mods.append(("moving", -1))
    if params["terrain"]:
        mods.append(("target in terrain", -1))
    sa = int(params["sa"])
    sa_mod = sa + sum(v for _, v in mods)
    impossible = sa_mod < 1
    if impossible:
        needed = 6
        ka -= 1
    else:
        needed = score_needed(sa_mod, floor=2)

    one_fails = params.get("natural_one", "hit") == "all"
    floor = 2 if one_fails else 1
    parts = list(params.get("armour") or [])
    save = int(params.get("save") or 0)
    if parts:
        if save:
            raise RuleError("give save= or armour=, not both")
        save = armour_save(parts)
    ap = band.ap
    save_left = save - ap
    save_needed = score_needed(save_left, floor) if save_left > 0 else NEVER
    k_needed = kill_needed(int(params["durability"]), ka, floor)

    size = int(params.get("unit_size") or 0)
    before = int(params.get("casualties_before") or 0)
    remaining = threshold = None
    if size > 0:
        if before > size:
            raise RuleError(f"casualties_before={before} is more than unit_size={size}")
        remaining = size - before
        threshold = morale_casualties(size)
    return ShotPlan(
        weapon=w,
        range=range_,
        rof=rof,
        shots=int(params["figures"]) * rof,
        sa_modified=sa_mod,
        modifiers=[f"{label} {v:+d}" for label, v in mods],
        impossible_odds=impossible,
        needed=needed,
        ka=ka,
        ap=ap,
        save=save,
        save_needed=save_needed,
        kill_needed=k_needed,
        remaining=remaining,
        threshold=threshold,
        notes=notes,
    )


def _score(needed: int) -> str:
    return "none" if needed > 6 else f"{needed}+"


def resolve(params: ParamDict, dice: Dice) -> Resolution:
    p = plan(params)
    hit_rolls = dice.roll_many("hit", 6, p.shots)
    hits = count_at_least([v for v in hit_rolls if v != 1], p.needed)
    saved = 0
    if p.save_needed <= 6:
        saved = count_at_least(dice.roll_many("save", 6, hits), p.save_needed)
    unsaved = hits - saved
    kills = 0
    if p.kill_needed <= 6:
        kills = count_at_least(dice.roll_many("kill", 6, unsaved), p.kill_needed)
    if p.remaining is not None:
        kills = min(kills, p.remaining)

    shooter = params.get("actor") or "Shooters"
    target = params.get("target") or "the target"
    sa_text = f"SA {params['sa']}"
    if p.modifiers:
        sa_text += " " + " ".join(p.modifiers) + f" = {p.sa_modified}"
    if p.impossible_odds:
        sa_text += ": impossible odds, 6 to hit, KA -1"
    rof = f" ROF {p.rof}" if p.rof > 1 else ""
    text = (
        f"{shooter}: {p.shots} {p.weapon.name}{rof} shots at {target}, {p.range} range "
        f"({sa_text}; {p.needed}+ to hit): {hits} hit{'' if hits == 1 else 's'}"
    )
    if hits:
        text += f", {saved} saved ({_score(p.save_needed)})"
        text += f", {kills} killed (KA {p.ka} vs D {params['durability']}: {_score(p.kill_needed)})"
    figures: dict[str, Any] = {
        "hits": hits,
        "saved": saved,
        "kills": kills,
        "ka": p.ka,
        "ap": p.ap,
        "needed": p.needed,
        "weapon": p.weapon.name,
        "range": p.range,
        "rof": p.rof,
        "shots": p.shots,
        "sa_modified": p.sa_modified,
        "modifiers": p.modifiers,
        "impossible_odds": p.impossible_odds,
        "save": p.save,
        "save_needed": p.save_needed if p.save_needed <= 6 else None,
        "kill_needed": p.kill_needed if p.kill_needed <= 6 else None,
        "expected_kills": round(expected_kills(p), 4),
    }
    if p.threshold is not None:
        before = int(params["casualties_before"])
        after = before + kills
        test = forces_test(params, p.threshold, before, kills)
        figures["morale_test"] = test
        figures["morale_casualties"] = p.threshold
        figures["casualties"] = after
        if test:
            size = params["unit_size"]
            text += f"; {target} must take a morale test ({after} casualties of {size})"
    if p.notes:
        figures["notes"] = p.notes
        text += " [" + "; ".join(p.notes) + "]"
    if hits == 0:
        outcome = "no_hits"
    elif kills:
        outcome = "kills"
    elif saved == hits:
        outcome = "all_saved"
    else:
        outcome = "no_kills"
    return Resolution("shoot", outcome, text, figures, rolls=list(dice.rolls))


def forces_test(params: ParamDict, threshold: int, before: int, kills: int) -> bool:
    """Whether these kills force a morale test: casualties reach the table's number (or,
    with the morale_retest setting, more casualties once it is reached)."""
    if kills <= 0 or before + kills < threshold:
        return False
    return before < threshold or bool(params.get("morale_retest", False))


def kill_distribution(p: ShotPlan) -> list[float]:
    return binomial(p.shots, p.p_kill_per_shot(), p.remaining)


def expected_kills(p: ShotPlan) -> float:
    return sum(k * pr for k, pr in enumerate(kill_distribution(p)))


def summary(params: ParamDict) -> dict[str, Any]:
    """Expected kills, their distribution and the chance of forcing a morale test."""
    p = plan(params)
    dist = kill_distribution(p)
    out: dict[str, Any] = {"expected_kills": sum(k * pr for k, pr in enumerate(dist)),
                           "distribution": dist}
    if p.threshold is not None:
        before = int(params["casualties_before"])
        out["morale_test"] = sum(
            pr for k, pr in enumerate(dist) if forces_test(params, p.threshold, before, k)
        )
    return out


ODDS_ROWS = 10
TAIL = 1e-4


def _kill_words(lo: int, hi: int, last: int) -> str:
    if lo == hi:
        return f"{lo} kill" + ("" if lo == 1 else "s")
    if hi == last and lo > 0:
        return f"{lo}+ kills"
    return f"{lo}-{hi} kills"


def odds(params: ParamDict) -> Odds:
    """Chance of each number of kills (grouped to at most 10 rows, the rare tails folded
    in); rows that force a morale test say so. The first row also carries the mean kills
    and the chance of forcing a morale test."""
    p = plan(params)
    dist = kill_distribution(p)
    last = len(dist) - 1
    before = int(params.get("casualties_before") or 0)
    test_from: int | None = None
    if p.threshold is not None:
        test_from = next(
            (k for k in range(last + 1) if forces_test(params, p.threshold, before, k)), None
        )
    lo = next(k for k in range(last + 1) if sum(dist[k + 1 :]) < 1 - TAIL or k == last)
    hi = next(k for k in range(last, -1, -1) if sum(dist[:k]) < 1 - TAIL or k == 0)
    hi = max(hi, lo)
    budget = ODDS_ROWS - (lo > 0) - (test_from is not None)
    width = -(-(hi - lo + 1) // budget)
    edge_set = {0, *range(lo, hi + 1, width)}
    if test_from is not None:
        edge_set.add(test_from)
    edges = sorted(edge_set)
    rows: Odds = []
    for i, start in enumerate(edges):
        stop = edges[i + 1] - 1 if i + 1 < len(edges) else last
        pr = sum(dist[start : stop + 1])
        if pr <= 0:
            continue
        label = _kill_words(start, stop, last)
        if test_from is not None and start >= test_from:
            label += ", morale test"
        rows.append((label, pr))
    mean = sum(k * pr for k, pr in enumerate(dist))
    summary_bits = [f"mean {mean:.2f} kills"]
    if p.threshold is not None:
        forced = sum(dist[test_from:]) if test_from is not None else 0.0
        summary_bits.append(f"morale test {100 * forced:.1f}%")
    first, pr = rows[0]
    rows[0] = (f"{first} ({'; '.join(summary_bits)})", pr)
    return rows


def fill(enc: Encounter, params: ParamDict) -> ParamDict:
    """Firer's figures, SA, weapon and move; target's save, D, terrain and morale counts."""
    from tracker.rules.d6battle.model import D6Unit

    out = dict(params)
    if out.get("actor"):
        shooter = enc.find_unit(str(out["actor"]))
        if isinstance(shooter, D6Unit):
            if "figures" not in out:
                front = shooter.files if shooter.files and not out.get("mass") else None
                out["figures"] = min(shooter.strength, front) if front else shooter.strength
            out.setdefault("sa", shooter.sa)
            if shooter.weapon:
                out.setdefault("weapon", shooter.weapon)
            if shooter.moved:
                out.setdefault("fire", "moving")
    if out.get("target"):
        target = enc.find_unit(str(out["target"]))
        if isinstance(target, D6Unit):
            if "save" not in out and "armour" not in out:
                out["save"] = target.save
            out.setdefault("durability", target.durability)
            if target.in_terrain:
                out.setdefault("terrain", True)
            if "unit_size" not in out:
                if enc.settings.get("shooting_casualties", "turn") == "battle":
                    out["unit_size"] = target.strength_start
                    out.setdefault("casualties_before", target.casualties_total)
                else:
                    out["unit_size"] = target.strength + target.casualties_turn
                    out.setdefault("casualties_before", target.casualties_turn)
    return out


def apply(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    """Remove the figures killed from the target; flag it for a morale test."""
    if not params.get("target"):
        raise RuleError("shoot: name the target unit to apply casualties")
    target = enc.find_unit(str(params["target"]))
    path: list[str | int] = ["units", target.id]
    kills = min(int(res.figures["kills"]), target.strength)
    if kills:
        tx.set([*path, "strength"], target.strength - kills)
        tx.set([*path, "casualties_turn"], target.casualties_turn + kills)
        tx.set([*path, "casualties_total"], target.casualties_total + kills)
        if target.strength == 0:
            tx.set([*path, "removed"], True)
    if res.figures.get("morale_test") and target.strength > 0:
        tx.set([*path, "morale_test"], True)


ACTION = FunctionAction(
    name="shoot",
    help="one unit shoots at another: hits, saves, kills, morale test",
    params=PARAMS,
    roles=ROLES,
    resolve=resolve,
    odds=odds,
    fill=fill,
    apply=apply,
    detail=(
        "figures: hits, saved, kills, ka, ap, needed (d6 score to hit), sa_modified, "
        "modifiers, impossible_odds, rof, shots, save, save_needed, kill_needed, "
        "expected_kills; with unit_size=: morale_test, morale_casualties, casualties.\n"
        "Impossible odds: SA after modifiers below 1 hits on a 6 only, KA -1. "
        "Slings stationary: ROF 2 at KA 2. No save is rolled when save - AP is 0 or less; "
        "no kill roll when d6 + KA cannot reach D."
    ),
)
