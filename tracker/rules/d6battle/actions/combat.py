"""``combat``: a close combat between unit A (the actor) and unit B (the target)
(d6battle).

Each side rolls a d6 per figure fighting: d6 + CA + modifiers >= 7 hits, a 1 misses; the
other side saves on d6 + save - AP >= 7; each unsaved hit kills on d6 + KA >= D. The combat
score is the kills plus the combat bonuses (``combat.toml``); the higher score wins by the
difference (the combat result), a draw fights on. The loser takes a combat morale test
at Mo - result; on a failure the results rows say whether it stands, routs or is
destroyed. The side with Strategic Advantage selects the order of the combats of the
round; each is fought once before moving to the next, so the two units of a combat
fight it once in a combat phase (either may be A; a unit engaged by two enemies fights
a combat against each). Either side's unit may be A: the text does not tie a combat to
the side whose turn it is. A routed unit fights no more; a unit charged in the flank
takes its command test before its combat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice, face_classes
from tracker.core.words import plural
from tracker.rules.action import Scope
from tracker.rules.base import Action, Odds, Resolution, Stage
from tracker.startup import lazy

from .combat_fill import apply_combat, fill_combat
from .combat_params import SIDES, CombatFigures, CombatParams, combat_key, fighting, other
from .combat_rules import Bonus, Judge, Result, attack
from .scores import count_at_least, roll_test, score_needed

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.d6battle.actions import combat_odds
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    combat_odds = lazy("tracker.rules.d6battle.actions.combat_odds")


def _hit_dice(x: str) -> Any:
    def count(p: CombatParams) -> int:
        s = p.side(x)
        return s.figures if score_needed(s.ca + s.mod, floor=2) <= 6 else 0

    return count


def _bonus_text(items: list[Bonus]) -> str:
    return " ".join(f"{label} {v:+d}" for label, v in items)


class Combat(Action[CombatParams]):
    name = "combat"
    help = "close combat between unit A and unit B: scores, result, loser's morale test"
    phases = ("combat",)
    once_per = "phase"
    marker = "fought"
    stages = (
        Stage("hit_a", "d6", "A's to-hit dice, one per figure: d6 + CA >= 7; 1 misses",
              label="A to hit", count=_hit_dice("a")),
        Stage("save_b", "d6", "B's saves, one per A hit: d6 + save - AP >= 7",
              label="B to save"),
        Stage("kill_a", "d6", "A's kill rolls, one per unsaved hit: d6 + KA >= D",
              label="A to kill"),
        Stage("hit_b", "d6", "B's to-hit dice", label="B to hit", count=_hit_dice("b")),
        Stage("save_a", "d6", "A's saves against B's hits", label="A to save"),
        Stage("kill_b", "d6", "B's kill rolls", label="B to kill"),
        Stage("morale", "2d6", "the loser's combat morale test (the morale_dice setting)",
              label="for the loser's morale"),
    )
    detail = (
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
    )

    def can_act(self, who: Any) -> bool:
        return not (who.routed or who.removed)

    def actors(self, p: CombatParams) -> list[str]:
        """Both units fight it."""
        return fighting(p)

    def limit(self, p: CombatParams) -> tuple[Scope, str] | None:
        """Once a phase for the two units together, whichever of them is A."""
        return "phase", combat_key(p)

    def resolve(self, p: CombatParams, dice: Dice) -> Resolution:
        atk = {x: attack(p, x) for x in SIDES}
        hits: dict[str, int] = {}
        saved: dict[str, int] = {}
        kills: dict[str, int] = {}
        for x in SIDES:
            y, a = other(x), atk[x]
            up = x.upper()
            rolls = dice.roll_many(f"hit_{x}", 6, a.dice, need=a.needed,
                                   classes=face_classes(6, need=max(2, a.needed))) \
                if a.needed <= 6 else []
            hits[x] = count_at_least([v for v in rolls if v != 1], a.needed)
            saved[x] = 0
            if a.save_needed <= 6:
                saves = dice.roll_many(f"save_{y}", 6, hits[x], need=a.save_needed,
                                       classes=face_classes(6, need=a.save_needed),
                                       why=f"{up}: {plural(hits[x], 'hit')}")
                saved[x] = count_at_least(saves, a.save_needed)
            k = 0
            if a.kill_needed <= 6:
                unsaved = hits[x] - saved[x]
                rolled = dice.roll_many(f"kill_{x}", 6, unsaved, need=a.kill_needed,
                                        classes=face_classes(6, need=a.kill_needed),
                                        why=f"{up}: {plural(unsaved, 'unsaved hit')}")
                k = count_at_least(rolled, a.kill_needed)
            kills[x] = min(k, a.cap)
        judge = Judge(p)
        r = judge.result_of(kills)
        f = CombatFigures(
            score_a=r.score["a"], score_b=r.score["b"], result=r.result,
            winner=r.winner, loser=r.loser,
            hits_a=hits["a"], saved_b=saved["a"], kills_a=kills["a"],
            needed_a=_shown(atk["a"].needed), bonus_a=_total(r, "a"),
            bonuses_a=_labels(r, "a"), left_a=r.left["a"],
            hits_b=hits["b"], saved_a=saved["b"], kills_b=kills["b"],
            needed_b=_shown(atk["b"].needed), bonus_b=_total(r, "b"),
            bonuses_b=_labels(r, "b"), left_b=r.left["b"],
        )
        lines = []
        for x in SIDES:
            line = f"{p.name(x)} {plural(hits[x], 'hit')}, {saved[x]} saved, {kills[x]} killed"
            if r.bonus[x]:
                line += f" + {_bonus_text(r.bonus[x])}"
            lines.append(line + f" = {r.score[x]}")
        text = "; ".join(lines) + _morale(p, judge, r, f, dice)
        outcome = "draw" if r.winner is None else f"{r.winner}_wins"
        return Resolution("combat", outcome, text, f, rolls=list(dice.rolls))

    def odds(self, p: CombatParams) -> Odds:
        return combat_odds.odds_combat(p)

    def summary(self, p: CombatParams) -> str:
        return combat_odds.summary_combat(p)

    def happened(self, p: CombatParams, res: Resolution, odds: Odds) -> str:
        """The winner and what became of the loser, as the odds name it."""
        assert isinstance(res.figures, CombatFigures)
        found = combat_odds.label(p, res.figures.winner, res.figures.loser_outcome)
        return found if any(found == shown for shown, _ in odds) else ""

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_combat(enc, given)

    def apply(self, enc: Encounter, p: CombatParams, res: Resolution, tx: Transaction) -> None:
        apply_combat(enc, p, res, tx)


def _shown(needed: int) -> int | None:
    return needed if needed <= 6 else None


def _total(r: Result, x: str) -> int:
    return sum(v for _, v in r.bonus[x])


def _labels(r: Result, x: str) -> list[str]:
    return [f"{label} {v:+d}" for label, v in r.bonus[x]]


def _morale(p: CombatParams, judge: Judge, r: Result, f: CombatFigures, dice: Dice) -> str:
    """The loser's combat morale test and what it does; sets the figures, returns the text."""
    if r.loser is None or r.winner is None:
        f.loser_outcome = "fights on"
        return ": draw, the combat continues next round"
    lo, wi = r.loser, r.winner
    text = f": {p.name(wi)} wins by {r.result}"
    mo = p.side(lo).mo
    if r.left[lo] == 0:
        f.loser_outcome = "destroyed"
        return text + f", {p.name(lo)} is wiped out"
    if mo == 0:
        f.loser_outcome = "must test"
        return text + f"; {p.name(lo)} takes a combat morale test at Mo - {r.result}"
    needed = mo - r.result
    total, values = roll_test(dice, "morale", p.morale_dice, needed)
    passed = total <= needed
    f.morale_needed, f.morale_roll, f.morale_passed = needed, total, passed
    f.morale = "passed" if passed else "failed"
    shown = "+".join(map(str, values))
    text += (f"; {p.name(lo)} morale {p.morale_dice} {shown}={total} vs Mo {mo}-{r.result}"
             f"={needed}")
    if passed:
        f.loser_outcome, f.push_shove = "stands", judge.table.push_shove.win
        text += ": passed, stands and fights on"
    else:
        f.loser_outcome, f.push_shove = judge.failed_test(r)
        text += {
            "stands": ": failed, but stands",
            "routs": ": failed, routs and flees",
            "destroyed": ": failed, routs while engaged on more than one facing: destroyed",
        }[f.loser_outcome]
    if f.push_shove:
        text += f" ({p.name(wi)} push & shove +{f.push_shove} next round)"
    return text


COMBAT = Combat()
