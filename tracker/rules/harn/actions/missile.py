"""``missile``: a missile attack with any weapon (HM pp. 163-164): range band from Base
Range (BR), EML from ML and the situational modifiers, the d100 test, then the Direct or
Volley results. ``fire``, ``shoot``, ``throw`` and ``charge`` are this attack as the
Missile Actions table names it for each weapon.

How often: the Missile Actions table gives each attack "1 turn" and the round-long
actions "1 round"; the text does not say outright that a combatant takes one missile
action a round. The tracker reads it so (setting ``one_action_per_round``, on by
default; a free load does not count) and refuses a second action in ``fill``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Impossible, Odds, Resolution, RuleError, Stage
from tracker.startup import lazy

from ..attack import AttackParams
from ..plan import plan_attack
from ..results import resolve_missile, wasted
from ..tables import attack_row
from .attack_fill import apply_attack, fill_attack, load_problems
from .lookup import movement_problems, weapon_kind
from .state import InTurn

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter
    from tracker.rules.harn import attack_odds

    from ..model import HarnCombatant
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    attack_odds = lazy("tracker.rules.harn.attack_odds")


def _test_count(p: AttackParams) -> int | None:
    """One d100, none when a spoiled attack is wasted (None while the plan is incomplete)."""
    try:
        return 0 if wasted(plan_attack(p), p) else 1
    except RuleError:
        return None


ATTACK_STAGES = (
    Stage("test", "d100", "the missile test: d100 <= EML succeeds, /5 is critical",
          label="for the missile test", count=_test_count),
    Stage("deviation", "d8", "volley miss: which adjacent 15-ft area",
          label="for the deviation"),
    Stage("count", "d20/d10", "target count die: d20, or the volley precision d10s",
          label="against the target count", zero_is_ten=True),
    Stage("impact_ta", "d10", "rolled with the count die: 5 or 0 adds the Impact TA",
          label="for the Impact TA", zero_is_ten=True),
    Stage("zone", "ZD", "Zone Die: d6/d8 by range, d10 or the body's zone count",
          label="for the zone struck", zero_is_ten=True),
    Stage("impact", "impact", "the strike impact: the weapon's impact dice, adjusted by "
          "range and Impact TAs", label="for the strike impact"),
)

ATTACK_DETAIL = """\
JSON: attack_type (direct-pb, direct, volley2-4), eml (final, clamped 5-95), eml_adjusted,
modifiers [{name, value}], success (CS MS MF CF), result (strike miss mishap spoiled), hit
(target nearby area deviation), zone_die, zone_rolls, zone (ZN struck), impact_mod (range),
precision, precision_ta, free_ta, ta, impact_ta, impact_tas, impact_total, impact, target_count,
count_die, count_rolls, struck (count value that picked the creature), struck_name,
impact_roll, deviation (d8), mishap (fumble stumble)."""


class Missile(InTurn[AttackParams]):
    """A missile attack; the actions named after a weapon's use refine ``prepared``."""

    name = "missile"
    help = "Missile attack: range band, EML, test and results"
    detail = ATTACK_DETAIL
    stages = ATTACK_STAGES

    def prepared(self, p: AttackParams) -> AttackParams:
        """The parameters as this action reads them (a throw is with a thrown weapon)."""
        wrong = self.wrong_weapon(p.weapon)
        if wrong:
            raise RuleError(wrong)
        return p

    def wrong_weapon(self, kind: str | None) -> str:
        """Why this attack is not made with a weapon of ``kind`` ("": it is)."""
        return ""

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        out = fill_attack(enc, given)
        wrong = self.wrong_weapon(given.get("weapon") or out.get("weapon"))
        if wrong:  # a weapon with no row for this attack: no force takes it
            raise Impossible(wrong)
        return out

    def state_problems(self, enc: Encounter, c: HarnCombatant, p: AttackParams) -> list[str]:
        """A weapon this attack is not made with; a bow, sling or crossbow not loaded; a
        move where the shot allows none."""
        kind = p.get("weapon")
        wrong = self.wrong_weapon(weapon_kind(c, kind))
        if wrong:
            return [wrong]
        return [*load_problems(c, kind),
                *movement_problems(c, self.name, kind, bool(p.get("shooter_moving")))]

    def resolve(self, p: AttackParams, dice: Dice) -> Resolution:
        return resolve_missile(self.prepared(p), dice, self.name)

    def odds(self, p: AttackParams) -> Odds:
        return attack_odds.missile_odds(self.prepared(p))

    def summary(self, p: AttackParams) -> str:
        plan = plan_attack(self.prepared(p))
        terms = " ".join(f"{name} {value:+d}" for name, value in plan.modifiers)
        spoiled = " (spoiled)" if plan.spoiled else ""
        row = attack_row(plan.weapon, self.name)
        return (f"{row.action}: {row.movement}, {row.time}, defence {row.defence}; "
                f"{plan.band.label}, ZD d{plan.zone_die}, impact {plan.impact_mod:+d}; "
                f"EML {plan.eml}{spoiled} = {plan.skill} {plan.ml} {terms}").rstrip()

    def apply(self, enc: Encounter, p: AttackParams, res: Resolution, tx: Transaction) -> None:
        apply_attack(enc, p, res, tx)


MISSILE = Missile()
