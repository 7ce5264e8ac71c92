"""Warmaster Revolution: the Shooting phase (WM).

Units of stands. Attack values read close/shooting (3/1); the attack dice of a shot are
the shooting Attacks of the stands in range, summed over every unit shooting the target
in one batch. To hit 4+; 5+ against infantry/artillery in a defended position, 6 in a
fortified one. Armour (6+ to 3+) saves one hit per die. A stand is removed each time the
unit's Hits (hits per stand) are reached; leftover hits stay on the unit until the end of
the phase. At the end of the phase every unit hit is driven back one die per hit (a
defended unit ignores the first hit, a fortified one the first two): any 6 confuses,
a total above full pace routs and removes the unit. Chargers shot in the enemy's turn
lose stands at once, are not driven back, and carry the hits into the first combat round.

Actions: ``shoot``, ``driveback``, ``endphase``.

Settings (rule decisions the text leaves to the table):
- ``split_batches`` (default yes): when some stands of the target are protected and some
  exposed, the shot is rolled in batches so that the exposed stands are hit at 4+ until
  they are all destroyed and the rest at the position's score. The batches are sized so
  no hit spills past the last exposed stand, which is what rolling die by die would give.
  With ``no`` every die is rolled at 4+ while any stand is exposed (a table shortcut).

Readings of the text the tracker makes (not settings):
- Leftover hits from earlier shots this phase count against the exposed stands first,
  since unprotected stands are removed first.
- Hits on chargers and on engaged units count as struck in the first combat round: they
  are kept on the unit as ``carried_hits``, and its leftover hits are not discarded at the
  end of the Shooting phase (they are still outstanding for that combat).
- A unit routed by a drive back is removed whole; its stands are not counted as
  casualties of the shooting (the roster shows it routed).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import (
    Action,
    DieRole,
    Odds,
    Param,
    Params,
    Resolution,
    RuleError,
    Ruleset,
    Setting,
    lazy_models,
)

PHASES = ["command", "movement", "shooting", "combat"]
POSITIONS = ("open", "defended", "fortified")
KINDS = ("infantry", "cavalry", "chariots", "artillery", "monster", "machine", "other")
COVER_KINDS = ("infantry", "artillery")
"""Kinds of target that are harder to hit in a defended or fortified position."""
IGNORED_HITS = {"open": 0, "defended": 1, "fortified": 2}
"""Hits a unit disregards for its drive back, by its position."""

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter, Unit


# --- the numbers -------------------------------------------------------------------------


def to_hit(position: str | None, target_kind: str | None) -> int:
    """Score needed to hit (Table 1)."""
    kind = target_kind or "infantry"
    if kind not in COVER_KINDS:
        return 4
    return {"open": 4, "defended": 5, "fortified": 6}[position or "open"]


def _p_hit(score: int) -> float:
    return (7 - score) / 6


def _p_save(armour: int | None) -> float:
    return 0.0 if not armour else (7 - armour) / 6


def remove_stands(unsaved: int, stands: int, hits_per_stand: int, leftover: int) -> tuple[int, int]:
    """Stands removed and hits left over after ``unsaved`` more hits."""
    total = leftover + unsaved
    removed = min(stands, total // hits_per_stand)
    left = 0 if removed >= stands else total - removed * hits_per_stand
    return removed, left


def _hits_to_clear_exposed(params: Params) -> int | None:
    """Unsaved hits that destroy every exposed stand, or None when the shot is not split."""
    exposed = params.get("exposed") or 0
    protected_score = to_hit(params.get("position"), params.get("target_kind"))
    if exposed <= 0 or protected_score == 4:
        return None
    hps, stands = params.get("hits_per_stand"), params.get("stands")
    if hps is None or stands is None:
        raise RuleError("exposed= needs hits_per_stand= and stands= to know when they are gone")
    if exposed > stands:
        raise RuleError(f"exposed={exposed}: the unit has only {stands} stands")
    if not params.get("split_batches", True):
        return None
    return max(0, exposed * hps - (params.get("leftover") or 0))


def _check_target(params: Params) -> None:
    hps, stands = params.get("hits_per_stand"), params.get("stands")
    leftover = params.get("leftover") or 0
    if (hps is None) != (stands is None):
        raise RuleError("give both hits_per_stand= and stands= (or neither)")
    if hps is not None and leftover >= hps:
        raise RuleError(f"leftover={leftover}: a stand goes at {hps} hits")
    if params.get("armour") == 1:
        raise RuleError("armour=1: armour is 6+ to 3+ (or 0 for none)")


# --- shoot -------------------------------------------------------------------------------


def _shooters(params: Params) -> list[str]:
    names: list[str] = []
    for name in [params.get("actor"), *(params.get("shooters") or [])]:
        if name and name not in names:
            names.append(name)
    return names


def resolve_shoot(params: Params, dice: Dice) -> Resolution:
    """Roll the hit dice (in batches when exposed stands run out) and one save per hit."""
    _check_target(params)
    attacks = params.get("attacks")
    if attacks is None:
        raise RuleError("shoot: give attacks= (attack dice) or the shooting units")
    target = params.get("target") or "the target"
    if params.get("engaged") and not params.get("magic") and not params.get("charging"):
        raise RuleError(
            f"{target} is engaged in combat: intermingled with its opponents, it is not a"
            " valid target"
        )
    armour = params.get("armour") or None
    protected_score = to_hit(params.get("position"), params.get("target_kind"))
    exposed = params.get("exposed") or 0
    to_clear = _hits_to_clear_exposed(params)
    save_chance = armour is not None

    batches: list[dict[str, Any]] = []
    left = attacks
    while left > 0:
        if to_clear is not None and to_clear > 0:
            size, score = min(left, to_clear), 4
        elif exposed > 0 and to_clear is None and protected_score != 4:
            size, score = left, 4  # split_batches off: exposed stands draw every shot
        else:
            size, score = left, protected_score
        rolled = dice.roll_many("hit", 6, size)
        hits = sum(1 for v in rolled if v >= score)
        saves = dice.roll_many("save", 6, hits) if save_chance else []
        saved = sum(1 for v in saves if armour is not None and v >= armour)
        unsaved = hits - saved
        batches.append(
            {
                "to_hit": score,
                "dice": rolled,
                "hits": hits,
                "saves": saves,
                "saved": saved,
                "unsaved": unsaved,
            }
        )
        left -= size
        if to_clear is not None:
            to_clear = max(0, to_clear - unsaved)

    hits = sum(b["hits"] for b in batches)
    saved = sum(b["saved"] for b in batches)
    unsaved = hits - saved
    charging = bool(params.get("charging"))
    figures: dict[str, Any] = {
        "attacks": attacks,
        "to_hit": batches[0]["to_hit"] if batches else protected_score,
        "dice": [v for b in batches for v in b["dice"]],
        "hits": hits,
        "armour": armour or 0,
        "saves": [v for b in batches for v in b["saves"]],
        "saved": saved,
        "unsaved": unsaved,
    }
    if len(batches) > 1:
        figures["batches"] = batches

    shooters = _shooters(params)
    who = ", ".join(shooters) + " shoot " if shooters else ""
    at = f"{who}{target}" if shooters or params.get("target") else "Shooting"
    runs: list[list[int]] = []  # [to_hit, dice] with equal scores merged
    for b in batches:
        if runs and runs[-1][0] == b["to_hit"]:
            runs[-1][1] += len(b["dice"])
        else:
            runs.append([b["to_hit"], len(b["dice"])])
    scores = " then ".join(f"{n} at {score}+" for score, n in runs) or "no dice"
    text = f"{at}: {attacks} dice ({scores}), {hits} hit{'s' if hits != 1 else ''}"
    if armour is not None:
        text += f", {saved} saved ({armour}+): {unsaved} unsaved"

    outcome = "hit" if unsaved else "no hits"
    hps, stands = params.get("hits_per_stand"), params.get("stands")
    if hps is not None and stands is not None:
        removed, leftover = remove_stands(unsaved, stands, hps, params.get("leftover") or 0)
        destroyed = removed >= stands and stands > 0
        figures.update(
            stands_removed=removed,
            leftover=leftover,
            stands_left=stands - removed,
            destroyed=destroyed,
        )
        if exposed:
            figures["exposed_left"] = max(0, exposed - removed)
        if destroyed:
            text += f"; {target} destroyed"
            outcome = "destroyed"
        elif removed:
            text += f"; {removed} stand{'s' if removed > 1 else ''} removed"
            outcome = "stands removed"
        if leftover and not destroyed:
            text += f", {leftover} hit{'s' if leftover > 1 else ''} left over"
    figures["charging"] = charging
    figures["drive_back"] = not charging and unsaved > 0
    if charging:
        figures["carried"] = unsaved
        if unsaved:
            text += f"; {unsaved} carried into the first combat round, no drive back"
    return Resolution("shoot", outcome, text, figures, rolls=dice.rolls)


def _binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def shoot_distributions(params: Params) -> dict[str, list[float]]:
    """Exact distributions of ``hits``, ``unsaved`` and (with stands) ``stands_removed``.

    Each list is indexed by the count. When the shot is split (exposed stands first) the
    to-hit changes once the exposed stands are destroyed, so the counts are walked die by
    die, which gives the same chances as the batches.
    """
    _check_target(params)
    n = params.get("attacks") or 0
    s = _p_save(params.get("armour") or None)
    protected = to_hit(params.get("position"), params.get("target_kind"))
    exposed = params.get("exposed") or 0
    to_clear = _hits_to_clear_exposed(params)
    if to_clear is None or to_clear == 0:
        score = 4 if exposed > 0 and to_clear is None and protected != 4 else protected
        p = _p_hit(score)
        hits = _binomial(n, p)
        unsaved = _binomial(n, p * (1 - s))
    else:
        hits, unsaved = _split_distributions(n, to_clear, _p_hit(4), _p_hit(protected), s)
    out = {"hits": hits, "unsaved": unsaved}
    hps, stands = params.get("hits_per_stand"), params.get("stands")
    if hps is not None and stands is not None:
        removed = [0.0] * (stands + 1)
        for u, pr in enumerate(unsaved):
            r, _ = remove_stands(u, stands, hps, params.get("leftover") or 0)
            removed[r] += pr
        out["stands_removed"] = removed
    return out


def _split_distributions(
    n: int, need: int, p1: float, p2: float, s: float
) -> tuple[list[float], list[float]]:
    """Hits and unsaved hits when dice hit at ``p1`` until ``need`` unsaved, then at ``p2``."""
    # rows[k][h]: k unsaved so far (capped at need), h hits so far
    rows = [[0.0] * (n + 2) for _ in range(need + 1)]
    rows[0][0] = 1.0
    miss1, sav1, uns1 = 1 - p1, p1 * s, p1 * (1 - s)
    miss2 = 1 - p2
    for die in range(n):
        width = die + 2
        new = [[0.0] * (n + 2) for _ in range(need + 1)]
        for k in range(need + 1):
            row = rows[k]
            if not any(row[:width]):
                continue
            tgt = new[k]
            if k < need:
                up = new[k + 1]
                for h in range(width - 1):
                    v = row[h]
                    if v:
                        tgt[h] += v * miss1
                        tgt[h + 1] += v * sav1
                        up[h + 1] += v * uns1
            else:
                for h in range(width - 1):
                    v = row[h]
                    if v:
                        tgt[h] += v * miss2
                        tgt[h + 1] += v * p2
        rows = new
    hits = [sum(rows[k][h] for k in range(need + 1)) for h in range(n + 1)]
    # unsaved: one count, the to-hit switching once it reaches need
    dist = [0.0] * (n + 1)
    dist[0] = 1.0
    q1, q2 = uns1, p2 * (1 - s)
    for die in range(n):
        new_u = [0.0] * (n + 1)
        for u in range(die + 1):
            v = dist[u]
            if v:
                q = q1 if u < need else q2
                new_u[u] += v * (1 - q)
                new_u[u + 1] += v * q
        dist = new_u
    return hits, dist


def odds_shoot(params: Params) -> Odds:
    """Chance of each number of stands removed (or of unsaved hits without stands)."""
    dists = shoot_distributions(params)
    if "stands_removed" in dists:
        stands = params["stands"]
        out: Odds = []
        for r, pr in enumerate(dists["stands_removed"]):
            if pr <= 0:
                continue
            if r == stands and stands:
                label = "destroyed"
            else:
                label = f"{r} stand{'' if r == 1 else 's'} removed"
            out.append((label, pr))
        return out
    return [
        (f"{u} unsaved hit{'s' if u != 1 else ''}", pr)
        for u, pr in enumerate(dists["unsaved"])
        if pr > 0
    ]


def _find_unit(enc: Encounter, name: str) -> Unit:
    try:
        return enc.find_unit(name)
    except LookupError as exc:
        raise RuleError(str(exc).strip("'\"")) from None


def _phase(enc: Encounter) -> str:
    i = enc.position.phase
    return PHASES[i] if 0 <= i < len(PHASES) else ""


def fill_shoot(enc: Encounter, params: Params) -> Params:
    """Target's stands, Hits, armour, position and state; attack dice from the shooters."""
    out: Params = {}
    target: Unit | None = None
    if params.get("target"):
        target = _find_unit(enc, params["target"])
        out["target"] = target.name
        if target.removed or target.routed:
            raise RuleError(f"{target.name} is no longer on the field")
        out["stands"] = target.strength
        out["hits_per_stand"] = target.hits_per_stand
        out["leftover"] = target.leftover_hits
        out["armour"] = target.armour or 0
        out["position"] = target.position
        out["target_kind"] = target.kind if target.kind in KINDS else "other"
        out["exposed"] = min(getattr(target, "exposed", 0), target.strength)
        out["engaged"] = target.engaged
    charging = params.get("charging")
    if charging is None:
        charging = _phase(enc) == "movement"
        out["charging"] = charging
    names = _shooters(params)
    if names:
        in_range = list(params.get("in_range") or [])
        if in_range and len(in_range) != len(names):
            raise RuleError(
                f"in_range= gives {len(in_range)} numbers for {len(names)} shooting units"
            )
        attacks = 0
        for i, name in enumerate(names):
            unit = _find_unit(enc, name)
            if unit.removed or unit.routed:
                raise RuleError(f"{unit.name} is no longer on the field")
            if target is not None and unit.side == target.side:
                raise RuleError(f"{unit.name} and {target.name} are on the same side")
            if unit.shoot_attacks <= 0:
                raise RuleError(f"{unit.name} has no shooting attacks ({unit.attacks})")
            if unit.engaged and not charging:
                raise RuleError(
                    f"{unit.name} is engaged in combat: it can only shoot at units charging it"
                )
            if unit.engaged and not in_range:
                raise RuleError(
                    f"{unit.name} is engaged: give in_range= with its stands not engaged"
                )
            stands = in_range[i] if in_range else unit.strength
            if stands > unit.strength:
                raise RuleError(f"{unit.name} has only {unit.strength} stands")
            attacks += stands * unit.shoot_attacks
        if params.get("attacks") is None:
            out["attacks"] = attacks
    return out


def apply_shoot(enc: Encounter, params: Params, res: Resolution, tx: Transaction) -> None:
    """Stands removed, leftover hits, phase hits (or carried hits for chargers)."""
    from tracker.rules.warmaster.model import WarmasterUnit

    f = res.figures
    name = params.get("target")
    if not name:
        raise RuleError("shoot: name the target unit to record the hits on it")
    target = _find_unit(enc, name)
    path: list[str | int] = ["units", target.id]
    removed = f.get("stands_removed", 0)
    if "stands_removed" in f:
        tx.set([*path, "strength"], target.strength - removed)
        tx.set([*path, "leftover_hits"], f["leftover"])
        if removed:
            tx.set([*path, "casualties_turn"], target.casualties_turn + removed)
            tx.set([*path, "casualties_total"], target.casualties_total + removed)
            if isinstance(target, WarmasterUnit):
                tx.set([*path, "exposed"], max(0, target.exposed - removed))
        if f["destroyed"]:
            tx.set([*path, "removed"], True)
    if f["charging"]:
        tx.set([*path, "carried_hits"], target.carried_hits + f["unsaved"])
    else:
        tx.set([*path, "hits"], target.hits + f["unsaved"])
        shooters = [_find_unit(enc, n) for n in _shooters(params)]
        if isinstance(target, WarmasterUnit):
            seen = list(target.shot_by)
            seen += [u.name for u in shooters if u.name not in seen]
            tx.set([*path, "shot_by"], seen)
        for unit in shooters:
            if isinstance(unit, WarmasterUnit):
                tx.set(["units", unit.id, "shot"], True)


SHOOT = Action(
    name="shoot",
    help="Shoot one target with one or more units in one batch of dice",
    params=[
        Param("actor", "actor", None, "a shooting unit"),
        Param("target", "target", None, "the unit shot at"),
        Param("shooters", "strs", None, "more shooting units (one batch)"),
        Param("in_range", "ints", None, "stands in range, per shooting unit"),
        Param("attacks", "int", None, "attack dice (default: from the shooters)", minimum=0),
        Param("armour", "int", None, "target armour 6..3 (+), 0 none", minimum=0, maximum=6),
        Param("position", "choice", None, "target's position", choices=POSITIONS),
        Param("target_kind", "choice", None, "target type", choices=KINDS),
        Param("exposed", "int", None, "target stands outside its position", minimum=0),
        Param("hits_per_stand", "int", None, "target's Hits value", minimum=1),
        Param("stands", "int", None, "target's stands now", minimum=0),
        Param("leftover", "int", None, "hits already on the target", minimum=0),
        Param("charging", "bool", None, "target is charging the shooters"),
        Param("engaged", "bool", None, "target is engaged in combat"),
        Param("magic", "bool", False, "a spell's attack (may hit engaged units)"),
        Param("split_batches", "bool", True, "hit exposed stands first, in batches"),
    ],
    roles=[
        DieRole("hit", "d6", "one per attack: 4+ (5+ defended, 6 fortified inf/art)"),
        DieRole("save", "d6", "one per hit: armour score or more saves it"),
    ],
    resolve=resolve_shoot,
    odds=odds_shoot,
    fill=fill_shoot,
    apply=apply_shoot,
    detail=(
        "figures: attacks, to_hit, dice, hits, saves, saved, unsaved; with stands and"
        " hits_per_stand also stands_removed, leftover, stands_left, destroyed; charging,"
        " carried (hits counted in the first combat round), drive_back; batches when split."
    ),
)


# --- drive backs ---------------------------------------------------------------------------


def drive_back(
    hits: int,
    pace: int,
    position: str | None,
    dice: Dice,
    *,
    engaged: bool = False,
    blocked: bool = False,
) -> dict[str, Any]:
    """One unit's drive back: one die per hit less those its position ignores."""
    ignored = min(hits, IGNORED_HITS[position or "open"])
    if engaged:
        return {
            "hits": hits,
            "ignored": 0,
            "dice": [],
            "distance": 0,
            "confused": False,
            "routed": False,
            "carried": hits,
            "engaged": True,
        }
    rolled = dice.roll_many("drive", 6, hits - ignored)
    distance = sum(rolled)
    return {
        "hits": hits,
        "ignored": ignored,
        "dice": rolled,
        "distance": distance,
        "confused": 6 in rolled or (blocked and distance > 0),
        "routed": distance > pace,
        "carried": 0,
        "engaged": False,
    }


def _drive_text(name: str, r: dict[str, Any], pace: int) -> str:
    if r["engaged"]:
        return f"{name} is engaged: {r['hits']} hits carried into the first combat round"
    if not r["dice"]:
        why = f", {r['ignored']} ignored ({'defended' if r['ignored'] == 1 else 'fortified'})"
        return f"{name}: {r['hits']} hit{'s' if r['hits'] != 1 else ''}{why}, no drive back"
    shown = " + ".join(map(str, r["dice"]))
    text = f"{name} driven back {shown} = {r['distance']} cm"
    if r["ignored"]:
        text += f" ({r['ignored']} hit{'s' if r['ignored'] > 1 else ''} ignored)"
    if r["routed"]:
        text += f": more than its pace {pace} cm, routed and removed"
    elif r["confused"]:
        text += ": confused"
    return text


def resolve_driveback(params: Params, dice: Dice) -> Resolution:
    hits, pace = params.get("hits"), params.get("pace")
    if hits is None:
        raise RuleError("driveback: give hits= (hits taken this phase) or the unit")
    if pace is None:
        raise RuleError("driveback: give pace= (the unit's full pace in cm)")
    r = drive_back(
        hits,
        pace,
        params.get("position"),
        dice,
        engaged=bool(params.get("engaged")),
        blocked=bool(params.get("blocked")),
    )
    name = params.get("target") or "Unit"
    outcome = (
        "carried"
        if r["engaged"]
        else "routed"
        if r["routed"]
        else "confused"
        if r["confused"]
        else "driven back"
        if r["dice"]
        else "no drive back"
    )
    figures = {**r, "pace": pace}
    return Resolution("driveback", outcome, _drive_text(name, r, pace), figures, dice.rolls)


def _sum_counts(n: int, faces: int) -> list[int]:
    """Ways n dice of faces 1..faces make each total (index = total)."""
    ways = [1]
    for _ in range(n):
        new = [0] * (len(ways) + faces)
        for t, w in enumerate(ways):
            if w:
                for f in range(1, faces + 1):
                    new[t + f] += w
        ways = new
    return ways


def drive_back_distribution(hits: int, position: str | None = None) -> list[float]:
    """Exact chance of each drive-back distance (index = cm)."""
    n = max(0, hits - IGNORED_HITS[position or "open"])
    total = 6**n
    return [w / total for w in _sum_counts(n, 6)]


def odds_driveback(params: Params) -> Odds:
    """Chance of no drive back, a steady or confused drive back, or a rout."""
    hits, pace = params.get("hits") or 0, params.get("pace")
    if params.get("engaged"):
        return [("engaged: hits carried into combat", 1.0)]
    n = max(0, hits - IGNORED_HITS[params.get("position") or "open"])
    if n == 0:
        return [("no drive back", 1.0)]
    pace = 0 if pace is None else pace
    total = 6**n
    six = _sum_counts(n, 6)
    five = _sum_counts(n, 5)
    within = sum(six[: pace + 1])
    steady = sum(five[: pace + 1])
    if params.get("blocked"):
        steady = 0
    out = [
        ("driven back", steady / total),
        ("driven back, confused", (within - steady) / total),
        ("routed", (total - within) / total),
    ]
    return [(label, pr) for label, pr in out if pr > 0]


def fill_driveback(enc: Encounter, params: Params) -> Params:
    out: Params = {}
    if params.get("target"):
        unit = _find_unit(enc, params["target"])
        if unit.removed or unit.routed:
            raise RuleError(f"{unit.name} is no longer on the field")
        if getattr(unit, "drive_back_done", False):
            raise RuleError(f"{unit.name} has already been driven back this phase")
        out.update(
            target=unit.name,
            hits=unit.hits,
            pace=unit.pace,
            position=unit.position,
            engaged=unit.engaged,
        )
    return out


def _apply_drive(enc: Encounter, tx: Transaction, unit: Unit, r: dict[str, Any]) -> None:
    from tracker.rules.warmaster.model import WarmasterUnit

    path: list[str | int] = ["units", unit.id]
    if r["engaged"]:
        tx.set([*path, "carried_hits"], unit.carried_hits + r["carried"])
    else:
        tx.set([*path, "driven_back"], 0 if r["routed"] else r["distance"])
        if r["confused"]:
            tx.set([*path, "confused"], True)
        if r["routed"]:
            tx.set([*path, "routed"], True)
            tx.set([*path, "removed"], True)
    if isinstance(unit, WarmasterUnit):
        tx.set([*path, "drive_back_done"], True)


def apply_driveback(enc: Encounter, params: Params, res: Resolution, tx: Transaction) -> None:
    if not params.get("target"):
        raise RuleError("driveback: name the unit to record its drive back")
    _apply_drive(enc, tx, _find_unit(enc, params["target"]), res.figures)


DRIVEBACK = Action(
    name="driveback",
    help="Drive back one unit hit this phase (one die per hit)",
    params=[
        Param("target", "target", None, "the unit driven back"),
        Param("hits", "int", None, "hits taken this phase", minimum=0),
        Param("pace", "int", None, "full pace in cm", minimum=0),
        Param("position", "choice", None, "defended ignores 1 hit, fortified 2", choices=POSITIONS),
        Param("engaged", "bool", None, "engaged: no drive back, hits carried"),
        Param("blocked", "bool", False, "driven into impassable terrain or units: confused"),
    ],
    roles=[DieRole("drive", "d6", "one per hit not ignored; any 6 confuses")],
    resolve=resolve_driveback,
    odds=odds_driveback,
    fill=fill_driveback,
    apply=apply_driveback,
    detail=(
        "figures: hits, ignored, dice, distance (cm), confused, routed (distance above"
        " full pace: the unit is removed), carried (engaged units), pace."
    ),
)


# --- end of the phase --------------------------------------------------------------------

_UNIT_SPEC = "NAME:HITS:PACE[:open|defended|fortified][:engaged]"


def _parse_unit_spec(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    bits = str(item).split(":")
    try:
        spec: dict[str, Any] = {"name": bits[0], "hits": int(bits[1]), "pace": int(bits[2])}
    except (IndexError, ValueError):
        raise RuleError(f"units: '{item}' is not {_UNIT_SPEC}") from None
    spec.update(position="open", engaged=False)
    for extra in bits[3:]:
        if extra in POSITIONS:
            spec["position"] = extra
        elif extra == "engaged":
            spec["engaged"] = True
        else:
            raise RuleError(f"units: '{item}' is not {_UNIT_SPEC}")
    return spec


def resolve_endphase(params: Params, dice: Dice) -> Resolution:
    """Drive backs for every unit hit, in the GM's order; then leftover hits go."""
    specs = [_parse_unit_spec(u) for u in params.get("units") or []]
    order = [o.lower() for o in params.get("order") or []]

    def rank(spec: dict[str, Any]) -> int:
        keys = {spec["name"].lower(), str(spec.get("id", "")).lower()}
        for i, o in enumerate(order):
            if o in keys:
                return i
        return len(order)

    for o in order:
        if not any(o in {s["name"].lower(), str(s.get("id", "")).lower()} for s in specs):
            raise RuleError(f"order: '{o}' took no hits this phase (or is not a unit)")
    specs.sort(key=rank)
    results = []
    lines = []
    for spec in specs:
        r = drive_back(
            spec["hits"],
            spec["pace"],
            spec.get("position"),
            dice,
            engaged=bool(spec.get("engaged")),
        )
        results.append({"unit": spec["name"], "id": spec.get("id", ""), **r})
        lines.append(_drive_text(spec["name"], r, spec["pace"]))
    none = "no unit in play took hits this phase"
    text = "End of shooting: " + ("; ".join(lines) if lines else none)
    text += "; leftover hits discarded"
    routed = sum(1 for r in results if r["routed"])
    outcome = f"{routed} routed" if routed else "drive backs" if results else "no drive backs"
    return Resolution("endphase", outcome, text, {"units": results}, dice.rolls)


def fill_endphase(enc: Encounter, params: Params) -> Params:
    specs = [
        {
            "id": u.id,
            "name": u.name,
            "hits": u.hits,
            "pace": u.pace,
            "position": u.position,
            "engaged": u.engaged,
        }
        for u in enc.units
        if u.hits > 0 and u.active and not getattr(u, "drive_back_done", False)
    ]
    return {"units": specs}


def apply_endphase(enc: Encounter, params: Params, res: Resolution, tx: Transaction) -> None:
    from tracker.rules.warmaster.model import WarmasterUnit

    for r in res.figures["units"]:
        unit = _find_unit(enc, r["id"] or r["unit"])
        _apply_drive(enc, tx, unit, r)
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "hits"], 0)
        if unit.carried_hits == 0:
            tx.set([*path, "leftover_hits"], 0)
        if isinstance(unit, WarmasterUnit):
            tx.set([*path, "shot"], False)
            tx.set([*path, "shot_by"], [])
            tx.set([*path, "drive_back_done"], False)


ENDPHASE = Action(
    name="endphase",
    help="End the Shooting phase: drive back every unit hit, then discard leftover hits",
    params=[
        Param("order", "strs", None, "units driven back first, in this order"),
        Param("units", "strs", None, f"units hit (default: from the roster), {_UNIT_SPEC}"),
    ],
    roles=[DieRole("drive", "d6", "one per hit not ignored, unit by unit in order")],
    resolve=resolve_endphase,
    fill=fill_endphase,
    apply=apply_endphase,
    detail="figures: units, each with unit, hits, ignored, dice, distance, confused, routed,"
    " carried.",
)


# --- the ruleset ------------------------------------------------------------------------


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """New turn: last turn's drive-back distances, casualties and carried hits are cleared."""
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        tx.set([*path, "driven_back"], 0)
        tx.set([*path, "casualties_turn"], 0)
        tx.set([*path, "carried_hits"], 0)
    return []


def describe_unit(unit: Unit) -> str:
    armour = f"{unit.armour}+" if unit.armour else "0"
    bits = [
        f"{unit.kind} {unit.strength}/{unit.strength_start} stands",
        f"A {unit.attacks}",
        f"H {unit.hits_per_stand}",
        f"Arm {armour}",
        f"pace {unit.pace}",
    ]
    if unit.hits or unit.leftover_hits:
        bits.append(f"hits {unit.hits} (leftover {unit.leftover_hits})")
    if unit.carried_hits:
        bits.append(f"carried {unit.carried_hits}")
    if unit.position != "open":
        exposed = getattr(unit, "exposed", 0)
        bits.append(unit.position + (f", {exposed} exposed" if exposed else ""))
    for flag in ("engaged", "confused", "routed", "removed"):
        if getattr(unit, flag):
            bits.append(flag)
    if unit.driven_back:
        bits.append(f"driven back {unit.driven_back} cm")
    return ", ".join(bits)


RULESET = Ruleset(
    id="warmaster",
    name="Warmaster Revolution shooting",
    scale="mass",
    model="tracker.rules.warmaster.model:WarmasterEncounter",
    actions={a.name: a for a in (SHOOT, DRIVEBACK, ENDPHASE)},
    phases=PHASES,
    panes=("roster", "log"),
    settings=[
        Setting(
            "split_batches",
            True,
            "exposed stands are hit at 4+ first, the rest at the position's score",
        )
    ],
    start_round=start_round,
    describe_unit=describe_unit,
)


__getattr__ = lazy_models(__name__, ("WarmasterEncounter", "WarmasterUnit"))
