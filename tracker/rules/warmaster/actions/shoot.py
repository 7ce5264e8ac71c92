"""``shoot``: one target shot by one or more units in one batch of dice (WM).

Attack dice are the shooting Attacks of the stands in range; each hits on the score of
Table 1; one armour die per hit saves it on the armour score or more; a stand is removed
each time the target's Hits are reached, leftover hits stay until the end of the phase.
Where some stands are protected and some exposed, the dice are rolled in batches so that
the exposed stands are hit at 4+ until they are gone (setting ``split_batches``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import NonNegativeInt

from tracker.core.dice import Dice, face_classes
from tracker.core.words import plural
from tracker.rules.base import (
    Action,
    Figures,
    Odds,
    Omit,
    Params,
    Resolution,
    RuleError,
    Scope,
    Stage,
    param,
)
from tracker.startup import lazy

from ..domains import KINDS, POSITIONS
from ..settings import SPLIT_BATCHES
from ..tables import check_armour, remove_stands, to_hit
from .lookup import find_unit, shooting_phase
from .shoot_fill import apply_shoot, fill_shoot, shooter_unavailable, shooting_over

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.warmaster.actions import shoot_odds
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    shoot_odds = lazy("tracker.rules.warmaster.actions.shoot_odds")


class ShootParams(Params):
    actor: str | None = param(None, "a shooting unit", kind="actor")
    target: str | None = param(None, "the unit shot at", kind="target", unlike="actor")
    shooters: tuple[str, ...] | None = param(None, "more shooting units, one batch (default: none)",
                                              unlike="target")
    in_range: tuple[NonNegativeInt, ...] | None = param(
        None, "stands in range, per shooting unit (default: every stand)")
    attacks: int | None = param(None, "attack dice (default: from the shooters)", ge=0)
    armour: int | None = param(None, "target armour 6..3 (+), 0 none", ge=0, le=6)
    position: str | None = param(None, "target's position", choices=POSITIONS)
    target_kind: str | None = param(None, "target type", choices=KINDS)
    exposed: int | None = param(None, "target stands outside its position", ge=0)
    hits_per_stand: int | None = param(None, "target's Hits value", ge=1)
    stands: int | None = param(None, "target's stands now", ge=0)
    leftover: int | None = param(None, "hits already on the target", ge=0)
    charging: bool | None = param(None, "target is charging the shooters")
    engaged: bool | None = param(None, "target is engaged in combat")
    magic: bool = param(False, "a spell's attack (may hit engaged units)")
    split_batches: bool = param(help="hit exposed stands first, in batches", setting=SPLIT_BATCHES)

    def shooter_names(self) -> list[str]:
        names: list[str] = []
        for name in [self.actor, *(self.shooters or ())]:
            if name and name not in names:
                names.append(name)
        return names


class Batch(Figures):
    """Dice rolled at one score to hit, and the saves for their hits."""

    to_hit: int
    dice: list[int]
    hits: int
    saves: list[int]
    saved: int
    unsaved: int


class ShootFigures(Figures):
    attacks: int
    to_hit: int
    dice: list[int]
    hits: int
    armour: int
    saves: list[int]
    saved: int
    unsaved: int
    batches: Omit[list[Batch]] = None
    stands_removed: Omit[int] = None
    leftover: Omit[int] = None
    stands_left: Omit[int] = None
    destroyed: Omit[bool] = None
    exposed_left: Omit[int] = None
    charging: bool = False
    drive_back: bool = False
    carried: Omit[int] = None


def check_target(p: ShootParams) -> None:
    hps, stands, leftover = p.hits_per_stand, p.stands, p.leftover or 0
    if (hps is None) != (stands is None):
        raise RuleError("give both hits_per_stand= and stands= (or neither)")
    if stands is not None and stands <= 0:
        raise RuleError("stands=0: the target has no stands left (it is destroyed)")
    if hps is not None and leftover >= hps:
        raise RuleError(f"leftover={leftover}: a stand goes at {hps} hits")
    check_armour(p.armour)


def hits_to_clear_exposed(p: ShootParams) -> int | None:
    """Unsaved hits that destroy every exposed stand, or None when the shot is not split."""
    exposed = p.exposed or 0
    if exposed <= 0 or to_hit(p.position, p.target_kind) == 4:
        return None
    if p.hits_per_stand is None or p.stands is None:
        raise RuleError("exposed= needs hits_per_stand= and stands= to know when they are gone")
    if exposed > p.stands:
        raise RuleError(f"exposed={exposed}: the unit has only {p.stands} stands")
    if not p.split_batches:
        return None
    return max(0, exposed * p.hits_per_stand - (p.leftover or 0))


def _roll_batches(p: ShootParams, attacks: int, dice: Dice) -> list[Batch]:
    armour = p.armour or None
    protected = to_hit(p.position, p.target_kind)
    exposed = p.exposed or 0
    to_clear = hits_to_clear_exposed(p)
    batches: list[Batch] = []
    left = attacks
    while left > 0:
        if to_clear is not None and to_clear > 0:
            size, score = min(left, to_clear), 4
        elif exposed > 0 and to_clear is None and protected != 4:
            size, score = left, 4  # split_batches off: exposed stands draw every shot
        else:
            size, score = left, protected
        rolled = dice.roll_many("hit", 6, size, need=score, classes=face_classes(6, need=score))
        hits = sum(1 for v in rolled if v >= score)
        saves = dice.roll_many("save", 6, hits, need=armour, why=plural(hits, "hit"),
                               classes=face_classes(6, need=armour)) \
            if armour is not None else []
        saved = sum(1 for v in saves if armour is not None and v >= armour)
        batches.append(Batch(to_hit=score, dice=rolled, hits=hits, saves=saves, saved=saved,
                             unsaved=hits - saved))
        left -= size
        if to_clear is not None:
            to_clear = max(0, to_clear - (hits - saved))
    return batches


def _scores(batches: list[Batch]) -> str:
    runs: list[list[int]] = []  # [to_hit, dice] with equal scores merged
    for b in batches:
        if runs and runs[-1][0] == b.to_hit:
            runs[-1][1] += len(b.dice)
        else:
            runs.append([b.to_hit, len(b.dice)])
    return " then ".join(f"{n} at {score}+" for score, n in runs) or "no dice"


class Shoot(Action[ShootParams]):
    name = "shoot"
    help = "Shoot one target with one or more units in one batch of dice"
    phases = ("shooting", "movement")
    stages = (
        Stage("hit", "d6", "one per attack: 4+ (5+ defended, 6 fortified inf/art)",
              label="to hit", count=lambda p: p.attacks),
        Stage("save", "d6", "one per hit: armour score or more saves it", label="to save"),
    )
    detail = (
        "figures: attacks, to_hit, dice, hits, saves, saved, unsaved; with stands and"
        " hits_per_stand also stands_removed, leftover, stands_left, destroyed; charging,"
        " carried (hits counted in the first combat round), drive_back; batches when split."
    )

    def resolve(self, p: ShootParams, dice: Dice) -> Resolution:
        """Roll the hit dice (in batches when exposed stands run out) and one save per hit."""
        check_target(p)
        if p.attacks is None:
            raise RuleError("shoot: give attacks= (attack dice) or the shooting units")
        target = p.target or "the target"
        if p.engaged and not p.magic and not p.charging:
            raise RuleError(
                f"{target} is engaged in combat: intermingled with its opponents, it is not a"
                " valid target"
            )
        armour = p.armour or None
        batches = _roll_batches(p, p.attacks, dice)
        hits = sum(b.hits for b in batches)
        saved = sum(b.saved for b in batches)
        unsaved = hits - saved
        f = ShootFigures(
            attacks=p.attacks,
            to_hit=batches[0].to_hit if batches else to_hit(p.position, p.target_kind),
            dice=[v for b in batches for v in b.dice],
            hits=hits,
            armour=armour or 0,
            saves=[v for b in batches for v in b.saves],
            saved=saved,
            unsaved=unsaved,
            batches=batches if len(batches) > 1 else None,
        )
        shooters = p.shooter_names()
        verb = " shoots " if len(shooters) == 1 else " shoot "
        who = ", ".join(shooters) + verb if shooters else ""
        at = f"{who}{target}" if shooters or p.target else "Shooting"
        text = f"{at}: {p.attacks} dice ({_scores(batches)}), {plural(hits, 'hit')}"
        if armour is not None:
            text += f", {saved} saved ({armour}+): {unsaved} unsaved"
        outcome = "hit" if unsaved else "no hits"
        if p.hits_per_stand is not None and p.stands is not None:
            text, outcome = _stands(p, f, text, outcome)
        f.charging = bool(p.charging)
        f.drive_back = not f.charging and unsaved > 0
        if f.charging:
            f.carried = unsaved
            if unsaved:
                text += f"; {unsaved} carried into the first combat round, no drive back"
        return Resolution("shoot", outcome, text, f, rolls=dice.rolls)

    marker = "shot"

    def can_act(self, who: Any) -> bool:
        return getattr(who, "shoot_attacks", 0) > 0  # a unit with shooting attacks

    def unavailable(self, enc: Encounter, who: Any) -> list[str]:
        return shooter_unavailable(enc, who)

    def limit(self, p: ShootParams) -> tuple[Scope, str] | None:
        """A unit shoots once in its turn; at chargers, once at each charger (in the
        enemy's movement phase), so that has no limit here."""
        return None if p.charging else ("phase", "shoot")

    def turn_rule(self, phase: str, p: ShootParams) -> Literal["own", "enemy", "any"]:
        """Units shoot in their own turn, and at chargers in the enemy's."""
        if phase == "shooting":
            return "own"
        return "enemy" if phase == "movement" else "any"

    def actors(self, p: ShootParams) -> list[str]:
        return p.shooter_names()

    def odds(self, p: ShootParams) -> Odds:
        return shoot_odds.odds_shoot(p)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_shoot(enc, given, shooting_phase(enc))

    def refusals(self, enc: Encounter, p: ShootParams) -> list[str]:
        return shooting_over(enc, p.charging)

    def apply(self, enc: Encounter, p: ShootParams, res: Resolution, tx: Transaction) -> None:
        if not p.target:
            raise RuleError("shoot: name the target unit to record the hits on it")
        apply_shoot(enc, p, res.figures_as(ShootFigures), tx, find_unit(enc, p.target))


def _stands(p: ShootParams, f: ShootFigures, text: str, outcome: str) -> tuple[str, str]:
    assert p.hits_per_stand is not None and p.stands is not None
    stands = p.stands
    removed, leftover = remove_stands(f.unsaved, stands, p.hits_per_stand, p.leftover or 0)
    destroyed = removed >= stands and stands > 0
    f.stands_removed, f.leftover = removed, leftover
    f.stands_left, f.destroyed = stands - removed, destroyed
    if p.exposed:
        f.exposed_left = max(0, p.exposed - removed)
    target = p.target or "the target"
    if destroyed:
        text += f"; {target} destroyed"
        outcome = "destroyed"
    elif removed:
        text += f"; {removed} stand{'s' if removed > 1 else ''} removed"
        outcome = "stands removed"
    if leftover and not destroyed:
        text += f", {leftover} hit{'s' if leftover > 1 else ''} left over"
    return text, outcome


SHOOT = Shoot()
