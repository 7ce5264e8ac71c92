"""d6battle close combat: to hit d6 + CA >= 7 (a 1 misses), saves, kills; combat score =
kills + bonuses; the loser's combat morale test at Mo - result and the result table.

Side A is the actor, side B the target. Bonuses: rank (regular infantry +1 per rank of
6+ figures, max +2; light infantry max +1; none when disordered or in difficult
terrain; cavalry get none), impact +1 (a battle formation charging, or skirmishers
charging skirmishers in the front facing; lost when disordered or counter charging),
flank +1 / rear +2 (battle formations), push & shove +1 or +2 from the last round, and
special-rule bonuses. A unit below its minimum size at the end of the combat gets none.
"""

from __future__ import annotations

from dataclasses import dataclass
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

from .common import (
    NEVER,
    binomial,
    chance,
    count_at_least,
    kill_needed,
    pass_chance,
    roll_test,
    score_needed,
)
from .settings import setting_param
from .tables import FORMATIONS, armour_save

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import D6Unit

SIDES = ("a", "b")


def _side_params(x: str) -> list[Param]:
    who = "A (actor)" if x == "a" else "B (target)"
    return [
        Param(f"figures_{x}", "int", help=f"{who}: figures fighting (1 d6 each)", minimum=0),
        Param(f"size_{x}", "int", 0, f"{who}: figures in the unit (0: figures_{x})", minimum=0),
        Param(f"ca_{x}", "int", help=f"{who}: Combat Ability (CA)"),
        Param(f"mod_{x}", "int", 0, f"{who}: to-hit modifiers"),
        Param(f"ka_{x}", "int", help=f"{who}: Killing Ability (KA)"),
        Param(f"ap_{x}", "int", 0, f"{who}: Armour Penetration (AP)", minimum=0),
        Param(f"save_{x}", "int", 0, f"{who}: armour save value", minimum=0),
        Param(f"armour_{x}", "strs", [], f"{who}: armour parts instead of save_{x}="),
        Param(f"durability_{x}", "int", help=f"{who}: Durability (D)"),
        Param(f"mo_{x}", "int", 0, f"{who}: Morale (Mo) (0: the test is not rolled)",
              minimum=0),
        Param(f"kind_{x}", "choice", "infantry", f"{who}: infantry or cavalry",
              choices=("infantry", "cavalry")),
        Param(f"formation_{x}", "choice", "regular",
              f"{who}: regular, drilled, light or skirmish", choices=FORMATIONS),
        Param(f"ranks_{x}", "int", 0, f"{who}: ranks of 6+ figures (rank bonus)", minimum=0),
        Param(f"disordered_{x}", "bool", False, f"{who}: disordered (no rank or impact bonus)"),
        Param(f"terrain_{x}", "bool", False, f"{who}: in difficult terrain (no rank bonus)"),
        Param(f"charge_{x}", "choice", "no", f"{who}: charged this turn: no, yes, counter",
              choices=("no", "yes", "counter")),
        Param(f"facing_{x}", "choice", "front", f"{who}: enemy facing it fights: front, "
              "flank (+1), rear (+2)", choices=("front", "flank", "rear")),
        Param(f"push_{x}", "int", 0, f"{who}: push & shove bonus from last round",
              minimum=0, maximum=2),
        Param(f"bonus_{x}", "int", 0, f"{who}: bonuses from army organization or special rules"),
        Param(f"min_size_{x}", "int", 0, f"{who}: minimum size for combat bonuses", minimum=0),
        Param(f"facings_{x}", "int", 1, f"{who}: facings engaged by enemy battle formations",
              minimum=0),
    ]


PARAMS = [
    Param("actor", "actor", "", "unit A (roster name)"),
    Param("target", "target", "", "unit B (roster name)"),
    *_side_params("a"),
    *_side_params("b"),
    setting_param("natural_one"),
    setting_param("morale_dice"),
    setting_param("rank_bonus_ranks"),
    setting_param("drilled_rank_bonus"),
    setting_param("countercharge_cancels"),
    setting_param("outnumber_when"),
    setting_param("rout_destroyed"),
]

ROLES = [
    DieRole("hit_a", "d6", "A's to-hit dice, one per figure: d6 + CA >= 7; 1 misses"),
    DieRole("save_b", "d6", "B's saves, one per A hit: d6 + save - AP >= 7"),
    DieRole("kill_a", "d6", "A's kill rolls, one per unsaved hit: d6 + KA >= D"),
    DieRole("hit_b", "d6", "B's to-hit dice"),
    DieRole("save_a", "d6", "A's saves against B's hits"),
    DieRole("kill_b", "d6", "B's kill rolls"),
    DieRole("morale", "2d6", "the loser's combat morale test (the morale_dice setting)"),
]


@dataclass
class Attack:
    """One side's attack on the other: scores needed and its chance per figure."""

    dice: int
    needed: int
    save_needed: int
    kill_needed: int
    cap: int

    @property
    def p(self) -> float:
        return float(
            chance(self.needed) * (1 - chance(self.save_needed)) * chance(self.kill_needed)
        )


def _other(x: str) -> str:
    return "b" if x == "a" else "a"


def _save(params: ParamDict, x: str) -> int:
    parts = list(params.get(f"armour_{x}") or [])
    save = int(params.get(f"save_{x}") or 0)
    if parts:
        if save:
            raise RuleError(f"give save_{x}= or armour_{x}=, not both")
        return armour_save(parts)
    return save


def size(params: ParamDict, x: str) -> int:
    return int(params[f"size_{x}"]) or int(params[f"figures_{x}"])


def attack(params: ParamDict, x: str) -> Attack:
    """Side x attacking the other side."""
    y = _other(x)
    floor = 2 if params.get("natural_one", "hit") == "all" else 1
    bonus = int(params[f"ca_{x}"]) + int(params[f"mod_{x}"])
    save_left = _save(params, y) - int(params[f"ap_{x}"])
    if int(params[f"figures_{x}"]) > size(params, x):
        raise RuleError(f"figures_{x} is more than size_{x}")
    return Attack(
        dice=int(params[f"figures_{x}"]),
        needed=score_needed(bonus, floor=2),
        save_needed=score_needed(save_left, floor) if save_left > 0 else NEVER,
        kill_needed=kill_needed(int(params[f"durability_{y}"]), int(params[f"ka_{x}"]), floor),
        cap=size(params, y),
    )


def bonuses(params: ParamDict, x: str, left: int) -> list[tuple[str, int]]:
    """Side x's combat bonuses with ``left`` figures at the end of the combat."""
    y = _other(x)
    if left < int(params[f"min_size_{x}"]):
        return []
    battle = params[f"formation_{x}"] != "skirmish"
    disordered = bool(params[f"disordered_{x}"])
    out: list[tuple[str, int]] = []
    formation = params[f"formation_{x}"]
    cap = {"regular": 2, "light": 1}.get(formation, 0)
    if formation == "drilled" and params.get("drilled_rank_bonus", True):
        cap = 2
    if params[f"kind_{x}"] == "infantry" and cap and not disordered and not params[f"terrain_{x}"]:
        ranks = int(params[f"ranks_{x}"])
        if params.get("rank_bonus_ranks", "all") == "behind_front":
            ranks -= 1
        if ranks > 0:
            out.append(("rank", min(cap, ranks)))
    if params[f"charge_{x}"] == "yes" and not disordered:
        cancelled = params.get("countercharge_cancels") and params[f"charge_{y}"] == "counter"
        skirmish_front = (
            not battle
            and params[f"formation_{y}"] == "skirmish"
            and params[f"facing_{x}"] == "front"
        )
        if not cancelled and (battle or skirmish_front):
            out.append(("impact", 1))
    if battle and params[f"facing_{x}"] == "flank":
        out.append(("flank", 1))
    if battle and params[f"facing_{x}"] == "rear":
        out.append(("rear", 2))
    if params[f"push_{x}"]:
        out.append(("push & shove", int(params[f"push_{x}"])))
    if params[f"bonus_{x}"]:
        out.append(("special", int(params[f"bonus_{x}"])))
    return out


@dataclass
class Result:
    """The combat result once the kills are known (before the morale test)."""

    score: dict[str, int]
    bonus: dict[str, list[tuple[str, int]]]
    left: dict[str, int]
    winner: str | None
    loser: str | None
    result: int


def result_of(params: ParamDict, kills: dict[str, int]) -> Result:
    """Scores from the kills each side caused (kills["a"]: figures of B that A killed)."""
    left = {x: max(0, size(params, x) - kills[_other(x)]) for x in SIDES}
    bonus = {x: bonuses(params, x, left[x]) for x in SIDES}
    score = {x: kills[x] + sum(v for _, v in bonus[x]) for x in SIDES}
    if score["a"] == score["b"]:
        return Result(score, bonus, left, None, None, 0)
    winner = "a" if score["a"] > score["b"] else "b"
    loser = _other(winner)
    return Result(score, bonus, left, winner, loser, abs(score["a"] - score["b"]))


def failed_test(params: ParamDict, r: Result) -> tuple[str, int]:
    """What a failed combat morale test does: loser 'stands' | 'routs' | 'destroyed', and
    the winner's push & shove bonus for the next round."""
    assert r.loser and r.winner
    lo, wi = r.loser, r.winner
    if params.get("outnumber_when", "end") == "start":
        n_lo, n_wi = size(params, lo), size(params, wi)
    else:
        n_lo, n_wi = r.left[lo], r.left[wi]
    formation = params[f"formation_{lo}"]
    outnumbers = n_lo > n_wi
    two_to_one = n_lo >= 2 * n_wi
    if r.result == 1:
        if (formation == "regular" and outnumbers) or formation == "drilled":
            return "stands", 1 if two_to_one else 2
    elif r.result == 2:
        if (formation == "regular" and two_to_one) or (formation == "drilled" and outnumbers):
            return "stands", 2
    surrounded = int(params[f"facings_{lo}"]) > 1
    if surrounded and (r.result >= 3 or params.get("rout_destroyed", "3+") == "any"):
        return "destroyed", 0
    return "routs", 0


def _names(params: ParamDict) -> dict[str, str]:
    return {"a": str(params.get("actor") or "A"), "b": str(params.get("target") or "B")}


def _bonus_text(items: list[tuple[str, int]]) -> str:
    return " ".join(f"{label} +{v}" if v >= 0 else f"{label} {v}" for label, v in items)


def resolve(params: ParamDict, dice: Dice) -> Resolution:
    names = _names(params)
    atk = {x: attack(params, x) for x in SIDES}
    hits: dict[str, int] = {}
    saved: dict[str, int] = {}
    kills: dict[str, int] = {}
    for x in SIDES:
        y = _other(x)
        a = atk[x]
        rolls = dice.roll_many(f"hit_{x}", 6, a.dice) if a.needed <= 6 else []
        hits[x] = count_at_least([v for v in rolls if v != 1], a.needed)
        saved[x] = 0
        if a.save_needed <= 6:
            saved[x] = count_at_least(dice.roll_many(f"save_{y}", 6, hits[x]), a.save_needed)
        k = 0
        if a.kill_needed <= 6:
            k = count_at_least(dice.roll_many(f"kill_{x}", 6, hits[x] - saved[x]), a.kill_needed)
        kills[x] = min(k, a.cap)
    r = result_of(params, kills)
    figures: dict[str, Any] = {
        "score_a": r.score["a"],
        "score_b": r.score["b"],
        "result": r.result,
        "winner": r.winner,
        "loser": r.loser,
    }
    for x in SIDES:
        figures[f"hits_{x}"] = hits[x]
        figures[f"saved_{_other(x)}"] = saved[x]
        figures[f"kills_{x}"] = kills[x]
        figures[f"needed_{x}"] = atk[x].needed if atk[x].needed <= 6 else None
        figures[f"bonus_{x}"] = sum(v for _, v in r.bonus[x])
        figures[f"bonuses_{x}"] = [f"{label} +{v}" for label, v in r.bonus[x]]
        figures[f"left_{x}"] = r.left[x]
    lines = []
    for x in SIDES:
        y = _other(x)
        word = "hit" if hits[x] == 1 else "hits"
        line = f"{names[x]} {hits[x]} {word}, {saved[x]} saved, {kills[x]} killed"
        if r.bonus[x]:
            line += f" + {_bonus_text(r.bonus[x])}"
        lines.append(line + f" = {r.score[x]}")
    text = "; ".join(lines)
    push = 0
    morale: dict[str, Any] = {"morale_needed": None, "morale_roll": None, "morale_passed": None}
    if r.loser is None:
        outcome, fate = "draw", "fights on"
        text += ": draw, the combat continues next round"
    else:
        lo, wi = r.loser, r.winner
        assert wi is not None
        outcome = f"{wi}_wins"
        text += f": {names[wi]} wins by {r.result}"
        mo = int(params[f"mo_{lo}"])
        if r.left[lo] == 0:
            fate = "destroyed"
            text += f", {names[lo]} is wiped out"
        elif mo == 0:
            fate = "must test"
            text += f"; {names[lo]} takes a combat morale test at Mo - {r.result}"
        else:
            spec = str(params.get("morale_dice", "2d6"))
            needed = mo - r.result
            total, values = roll_test(dice, "morale", spec)
            passed = total <= needed
            morale = {"morale_needed": needed, "morale_roll": total, "morale_passed": passed}
            shown = "+".join(map(str, values))
            text += f"; {names[lo]} morale {spec} {shown}={total} vs Mo {mo}-{r.result}={needed}"
            if passed:
                fate, push = "stands", 1
                text += ": passed, stands and fights on"
            else:
                fate, push = failed_test(params, r)
                text += {
                    "stands": ": failed, but stands",
                    "routs": ": failed, routs and flees",
                    "destroyed": ": failed, routs while engaged on more than one facing: "
                    "destroyed",
                }[fate]
        if push:
            text += f" ({names[wi]} push & shove +{push} next round)"
    figures.update(morale)
    passed = morale["morale_passed"]
    figures["morale"] = None if passed is None else ("passed" if passed else "failed")
    figures["loser_outcome"] = fate
    figures["push_shove"] = push
    return Resolution("combat", outcome, text, figures, rolls=list(dice.rolls))


def kill_dists(params: ParamDict) -> dict[str, list[float]]:
    out = {}
    for x in SIDES:
        a = attack(params, x)
        out[x] = binomial(a.dice, a.p, a.cap)
    return out


def odds(params: ParamDict) -> Odds:
    """Chance of each side winning and of the loser standing, routing or being destroyed;
    the first row also carries each side's mean kills."""
    names = _names(params)
    dists = kill_dists(params)
    spec = str(params.get("morale_dice", "2d6"))
    totals: dict[str, float] = {}
    for ka, pa in enumerate(dists["a"]):
        if pa <= 0:
            continue
        for kb, pb in enumerate(dists["b"]):
            p = pa * pb
            if p <= 0:
                continue
            r = result_of(params, {"a": ka, "b": kb})
            if r.loser is None:
                _add(totals, "draw, fight on", p)
                continue
            lo, wi = r.loser, r.winner
            assert wi is not None
            head = f"{names[wi]} wins, {names[lo]}"
            mo = int(params[f"mo_{lo}"])
            if r.left[lo] == 0:
                _add(totals, f"{head} destroyed", p)
            elif mo == 0:
                _add(totals, f"{head} tests", p)
            else:
                passed = pass_chance(spec, mo - r.result)
                fate, _ = failed_test(params, r)
                _add(totals, f"{head} stands", p * passed)
                _add(totals, f"{head} {fate}", p * (1 - passed))
    order = ["stands", "tests", "routs", "destroyed"]

    def key(label: str) -> tuple[int, int]:
        side = 0 if label.startswith(f"{names['a']} wins") else 2
        if label.startswith("draw"):
            return (1, 0)
        return (side, next((i for i, w in enumerate(order) if label.endswith(w)), 0))

    rows = [(label, totals[label]) for label in sorted(totals, key=key) if totals[label] > 0]
    means = {x: sum(k * pr for k, pr in enumerate(dists[x])) for x in SIDES}
    first, pr = rows[0]
    rows[0] = (f"{first} (mean kills {names['a']} {means['a']:.2f}, "
               f"{names['b']} {means['b']:.2f})", pr)
    return rows


def _add(totals: dict[str, float], label: str, p: float) -> None:
    totals[label] = totals.get(label, 0.0) + p


def ranks_of_six(unit: D6Unit) -> int:
    """Ranks holding 6 or more figures, from its frontage (files) and figures."""
    files = unit.files
    if not files and unit.ranks:
        files = -(-unit.strength // unit.ranks)
    if not files or files < 6:
        return 0
    full, rest = divmod(unit.strength, files)
    return full + (1 if rest >= 6 else 0)


def fill(enc: Encounter, params: ParamDict) -> ParamDict:
    """Each side's profile, armour, formation, ranks, disorder and push & shove."""
    from tracker.rules.d6battle.model import D6Unit

    out = dict(params)
    for x, key in (("a", "actor"), ("b", "target")):
        if not out.get(key):
            continue
        unit = enc.find_unit(str(out[key]))
        if not isinstance(unit, D6Unit):
            continue
        if f"figures_{x}" not in out:
            front = unit.files
            out[f"figures_{x}"] = min(unit.strength, front) if front else unit.strength
        defaults = {
            f"size_{x}": unit.strength,
            f"ca_{x}": unit.ca,
            f"ka_{x}": unit.ka,
            f"ap_{x}": unit.ap,
            f"durability_{x}": unit.durability,
            f"mo_{x}": unit.mo,
            f"kind_{x}": unit.kind if unit.kind in ("infantry", "cavalry") else "infantry",
            f"formation_{x}": unit.formation,
            f"ranks_{x}": ranks_of_six(unit),
            f"disordered_{x}": unit.disordered,
            f"terrain_{x}": unit.difficult_terrain,
            f"push_{x}": unit.push_shove,
            f"min_size_{x}": unit.min_size,
        }
        for k, v in defaults.items():
            out.setdefault(k, v)
        if f"save_{x}" not in out and f"armour_{x}" not in out:
            out[f"save_{x}"] = unit.save
    return out


def apply(enc: Encounter, params: ParamDict, res: Resolution, tx: Transaction) -> None:
    """Casualties on both units, push & shove for the winner, the loser's rout."""
    from tracker.rules.d6battle.model import D6Unit

    if not params.get("actor") or not params.get("target"):
        raise RuleError("combat: name both units to apply the result")
    units = {"a": enc.find_unit(str(params["actor"])), "b": enc.find_unit(str(params["target"]))}
    f = res.figures
    for x in SIDES:
        unit = units[x]
        path: list[str | int] = ["units", unit.id]
        lost = min(int(f[f"kills_{_other(x)}"]), unit.strength)
        if lost:
            tx.set([*path, "strength"], unit.strength - lost)
            tx.set([*path, "casualties_total"], unit.casualties_total + lost)
        tx.set([*path, "engaged"], unit.strength > 0)
        if unit.strength == 0:
            tx.set([*path, "removed"], True)
        push = int(f["push_shove"]) if f["winner"] == x else 0
        if isinstance(unit, D6Unit):
            tx.set([*path, "push_shove"], push)
    loser = f["loser"]
    if loser:
        unit = units[loser]
        path = ["units", unit.id]
        fate = f["loser_outcome"]
        if fate in ("routs", "destroyed"):
            tx.set([*path, "routed"], True)
            tx.set([*path, "engaged"], False)
            if isinstance(unit, D6Unit):
                tx.set([*path, "flee"], "rout")
        if fate == "destroyed":
            tx.set([*path, "removed"], True)


ACTION = FunctionAction(
    name="combat",
    help="close combat between unit A and unit B: scores, result, loser's morale test",
    params=PARAMS,
    roles=ROLES,
    resolve=resolve,
    odds=odds,
    fill=fill,
    apply=apply,
    detail=(
        "Each side: figures_X fighting roll d6 + CA + mod >= 7 to hit (1 misses); the "
        "other side saves on d6 + save - AP >= 7; unsaved hits kill on d6 + KA >= D.\n"
        "Score = kills + bonuses: rank (infantry: regular/drilled +1 per rank of 6+ "
        "figures, max +2; light max +1; not disordered or in difficult terrain), impact +1 "
        "(charge_X=yes: battle formation, or skirmish vs skirmish in the front facing; not "
        "when disordered or counter charging), flank +1 / rear +2 (battle formations), "
        "push_X, bonus_X; none if below min_size_X at the end of the combat.\n"
        "The higher score wins by the difference (result); a draw fights on. The loser "
        "tests morale (morale_dice <= Mo - result); on a failure: result 1 routs unless a "
        "regular formation that outnumbered the winner or any drilled formation (then "
        "the winner's push & shove is +2, +1 if the loser outnumbers it 2:1); result 2 "
        "routs unless regular outnumbering 2:1 or drilled outnumbering (winner +2); 3+ "
        "routs, destroyed when engaged on more than one facing (facings_X > 1) by battle "
        "formations.\n"
        "figures: score_a, score_b, result, winner, loser (a|b|null on a draw), hits_X, "
        "saved_X, kills_X (figures X killed), needed_X, bonus_X, bonuses_X, left_X, "
        "morale_needed, morale_roll, morale_passed, morale (passed|failed|null), "
        "loser_outcome (stands|routs|destroyed|fights on|must test), "
        "push_shove (the winner's bonus next round).\n"
        "A unit charged in the flank takes a command test first: the `command` action."
    ),
)
