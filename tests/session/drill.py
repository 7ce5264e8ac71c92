"""A small ruleset for the turn engine's tests: two sides take turns of a command, a
shooting and a combat phase.

- Shooting leaves hits to drive back (a duty the GM does on the table, at the phase's
  end; the leftover hits are discarded there whatever happens) and casualties held until
  the phase ends (then removed), and the unit shot owes a morale test (a duty done by
  ``morale``, which blocks the next ``shoot`` while it is owed).
- A unit that fails its morale test is shaken: its side's command phase begins with its
  rally test (a start duty done by ``rally``, whose dice ``next`` asks for); the round's
  upkeep, after it, names the units still shaken.
"""

from __future__ import annotations

from typing import Any, Literal

from tracker.core.dice import Dice
from tracker.core.history import Transaction
from tracker.core.lifetimes import Lasts
from tracker.core.model import Encounter, Ends, Unit
from tracker.core.sequence import Duty, Phase, SequenceOfPlay
from tracker.rules.base import Action, Params, Resolution, Stage, param
from tracker.rules.ruleset import Ruleset
from tracker.session.session import Session


class DrillUnit(Unit):
    leftover: int = 0
    """Hits still to drive back."""
    held: int = 0
    """Casualties held until the shooting phase ends."""
    owes_test: bool = False
    shaken: bool = False


class DrillEncounter(Encounter):
    units: list[DrillUnit] = []  # type: ignore[assignment]


class ShootParams(Params):
    actor: str = param("", "who shoots", kind="actor")
    target: str = param("", "who is shot", kind="target")
    hits: int = param(1, "hits scored", ge=0)


class Shoot(Action[ShootParams]):
    name = "shoot"
    help = "hits scored on a unit (no dice)"
    params_model = ShootParams
    phases = ("shooting",)
    once_per = "phase"
    marker = "shot"

    def resolve(self, p: ShootParams, dice: Dice) -> Resolution:
        return Resolution("shoot", "hit", f"{p.actor} shoots {p.target}: {p.hits} hits")

    def turn_rule(self, phase: str, p: ShootParams) -> Literal["own", "enemy", "any"]:
        return "own"

    def apply(self, enc: Encounter, p: ShootParams, res: Resolution, tx: Transaction) -> None:
        unit = enc.find_unit(p.target)
        assert isinstance(unit, DrillUnit)
        tx.set(["units", unit.id, "leftover"], unit.leftover + p.hits)
        tx.set(["units", unit.id, "held"], unit.held + 1)
        tx.set(["units", unit.id, "owes_test"], True)


class TestParams(Params):
    actor: str = param("", "who tests", kind="actor")


class D6Test(Action[TestParams]):
    """A d6 test of one unit: ``need`` or more passes (``outcome``), else ``failed``."""

    params_model = TestParams
    need: int
    outcomes: tuple[str, str]
    """The outcome words: passed, failed."""
    words: tuple[str, str]
    """What the log says after the unit's name: passed, failed."""

    def resolve(self, p: TestParams, dice: Dice) -> Resolution:
        passed = dice.roll(self.name, 6, need=self.need) >= self.need
        return Resolution(self.name, self.outcomes[0 if passed else 1],
                          f"{p.actor} {self.words[0 if passed else 1]}", {}, list(dice.rolls))


class Morale(D6Test):
    name = "morale"
    help = "a morale test: 4+ holds, else shaken"
    stages = (Stage("morale", "d6", "4+ holds", label="for morale"),)
    need, outcomes, words = 4, ("held", "shaken"), ("morale: holds", "morale: shaken")

    def apply(self, enc: Encounter, p: TestParams, res: Resolution, tx: Transaction) -> None:
        unit = enc.find_unit(p.actor)
        tx.set(["units", unit.id, "owes_test"], False)
        if res.outcome == "shaken":
            tx.set(["units", unit.id, "shaken"], True)


class Rally(D6Test):
    name = "rally"
    help = "a rally test: 3+ rallies"
    stages = (Stage("rally", "d6", "3+ rallies", label="to rally"),)
    need, outcomes, words = 3, ("rallied", "shaken"), ("rallies", "stays shaken")

    def apply(self, enc: Encounter, p: TestParams, res: Resolution, tx: Transaction) -> None:
        if res.outcome == "rallied":
            tx.set(["units", enc.find_unit(p.actor).id, "shaken"], False)


def _units(enc: Encounter) -> list[DrillUnit]:
    return [u for u in enc.units if isinstance(u, DrillUnit) and u.active]


def drive_backs(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, f"{u.leftover} hits to drive back") for u in _units(enc) if u.leftover]


def morale_tests(enc: Encounter) -> list[tuple[str, str]]:
    return [(u.id, "morale test") for u in _units(enc) if u.owes_test]


def rally_tests(enc: Encounter) -> list[tuple[str, str]]:
    sides = list(dict.fromkeys(u.side for u in enc.units))  # the side whose turn begins
    side = sides[enc.position.side] if sides else ""
    return [(u.id, "rally test") for u in _units(enc) if u.shaken and u.side == side]


def remove_held(enc: Encounter, tx: Transaction, unit: Any) -> str:
    held = unit.held
    tx.set(["units", unit.id, "strength"], unit.strength - held)
    tx.set(["units", unit.id, "held"], 0)
    return f"{unit.name}: {held} held casualties removed"


def still_shaken(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    shaken = [u.name for u in _units(enc) if u.shaken]
    return [f"still shaken: {', '.join(shaken)}"] if shaken else []


SHOOTING = Ends(at="end", of="phase", who="shooting")

SEQUENCE = SequenceOfPlay(
    phases=(
        Phase("command", "side", duties=(
            Duty("rally tests", rally_tests, action="rally", at="start"),)),
        Phase("shooting", "side", duties=(
            Duty("drive backs", drive_backs),
            Duty("morale tests", morale_tests, action="morale", blocks=("shoot",)))),
        Phase("combat", "side"),
    ),
    turns_by="side",
    round_start=still_shaken,
    lifetimes=(
        Lasts("leftover", SHOOTING, "leftover hits discarded"),
        Lasts("held", SHOOTING, "", then=remove_held),
        Lasts("owes_test", SHOOTING, "morale test not taken"),
    ),
)

DRILL = Ruleset(
    id="drill", name="Drill", scale="mass", model="tests.session.drill:DrillEncounter",
    actions={"shoot": Shoot(), "morale": Morale(), "rally": Rally()}, sequence=SEQUENCE,
)


def drill(**fields: dict[str, Any]) -> Session:
    """Red's bowmen and spears, then Blue's archers and horse, on the drill ruleset;
    ``fields`` set a unit's fields by id."""
    units = [
        DrillUnit(id="bw", name="Bowmen", side="Red", strength=6, strength_start=6),
        DrillUnit(id="sp", name="Spears", side="Red", strength=6, strength_start=6),
        DrillUnit(id="ar", name="Archers", side="Blue", strength=6, strength_start=6),
        DrillUnit(id="hs", name="Horse", side="Blue", strength=4, strength_start=4),
    ]
    for u in units:
        for key, value in fields.get(u.id, {}).items():
            setattr(u, key, value)
    session = Session(DrillEncounter(name="drill", ruleset="plain", units=units))
    session.ruleset = DRILL
    return session
