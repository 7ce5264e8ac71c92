"""d6battle: a d6 mass-battle game: shooting (d6 + SA >= 7), the weapon table, armour
saves, kill rolls against Durability, morale from casualties, close combat with rank and
push & shove bonuses, combat results and routs.

Abbreviations: SA Shooting Ability, CA Combat Ability, Mo Morale, D Durability, KA Killing
Ability, AP Armour Penetration, ROF rate of fire.

Actions: ``shoot``, ``combat``, ``morale`` (the test queued by shooting casualties),
``command`` (a unit charged in the flank).

Settings (decisions the text leaves open):
- ``morale_dice`` (2d6): the morale die is not printed; a test passes on a roll <= Mo
  (Mo - combat result in a combat morale test).
- ``command_dice`` (2d6): the command test die and value are not printed.
- ``natural_one`` (hit): a 1 always misses to hit; with 'all' a 1 also fails saves and
  kill rolls ("for all shooting rolls").
- ``shooting_casualties`` (turn): casualties counted against the morale table are this
  turn's, against the unit's size at the start of the turn ('battle': all casualties
  against the starting size).
- ``morale_retest`` (no): a unit tests once, when its casualties first reach the table's
  number; yes makes it test again at each further shooting casualty.
- ``rank_bonus_ranks`` (all): every rank of 6+ figures counts, as printed;
  'behind_front' leaves out the front rank.
- ``drilled_rank_bonus`` (yes): drilled infantry take the regular rank bonus.
- ``countercharge_cancels`` (no): a counter charger never gets the impact bonus; with yes
  a counter charge also cancels the charger's.
- ``outnumber_when`` (end): outnumbering in the combat results counts the figures left
  after this combat's kills.
- ``rout_destroyed`` (3+): destruction of a unit routing while engaged on more than one
  facing by battle formations is printed under a result of 3+ only.
- ``bows_no_move_shoot`` (no): the "No move & shoot" line under Staff Sling binds it
  alone; yes makes it bind Shortbow, Bow and Longbow too.

Further readings of the text: a battle formation is every formation but skirmish; the
impact bonus is the charge impact bonus (charge_X=yes means a charge on a target in the
frontal attack zone); cavalry get no rank bonus but the other combat bonuses; the
combat bonuses (push & shove too) need the minimum size at the end of the combat; mass
shooting changes no die, it is a legality check (the GM counts the figures that fire);
the morale table is extended past 40 figures at one casualty per 5 figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import Ruleset, lazy_models

from . import combat, morale, shooting
from .settings import SETTINGS

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter, Unit

    from .model import D6Encounter, D6Unit


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """New turn: shooting casualty counts and movement flags start again."""
    from tracker.rules.d6battle.model import D6Unit

    lines = []
    for unit in enc.units:
        path: list[str | int] = ["units", unit.id]
        if unit.casualties_turn:
            tx.set([*path, "casualties_turn"], 0)
        if isinstance(unit, D6Unit) and unit.moved:
            tx.set([*path, "moved"], False)
    queued = [u.name for u in enc.units if u.morale_test and u.active]
    if queued:
        lines.append("Morale tests still queued: " + ", ".join(queued))
    fleeing = [u.name for u in enc.units if isinstance(u, D6Unit) and u.flee and not u.removed]
    if fleeing:
        lines.append("Fleeing: " + ", ".join(fleeing))
    return lines


def _describe_unit(unit: Unit) -> str:
    from .model import describe_unit

    return describe_unit(unit)  # type: ignore[arg-type]  # the roster holds D6Units


RULESET = Ruleset(
    id="d6battle",
    name="d6 mass battle",
    scale="mass",
    model="tracker.rules.d6battle.model:D6Encounter",
    actions={
        "shoot": shooting.ACTION,
        "combat": combat.ACTION,
        "morale": morale.MORALE,
        "command": morale.COMMAND,
    },
    phases=["shoot", "combat", "resolution"],
    panes=("roster", "log"),
    settings=SETTINGS,
    start_round=start_round,
    describe_unit=_describe_unit,
    unit_profile=True,
)

__all__ = ["RULESET", "D6Encounter", "D6Unit"]


__getattr__ = lazy_models(__name__, ("D6Encounter", "D6Unit"))
