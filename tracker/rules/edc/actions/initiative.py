"""``initiative``: both fighters threw red (edc). Each rolls only his Reflex dice against his
weapon's ATN, less the weapon-length penalty; blows land in order of successes; a tie goes
to the higher Reflex (a thrust +1 over swings and bashes), then the blows land together.

How often: "This process (Red and White initiative markers) is only used at the
beginning of a bout or a Pause or Break"; in all other exchanges the winner of the last
one holds the initiative. So the two reds roll for the first blow once, as the exchange
they threw them in begins: a second roll between the same two in that exchange is
refused (the action list greys it), as the exchange's own limit is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Odds, Params, Resolution, Scope, param

from ..common import check, combatant_or_none, d10s, missing, successes_word, tn_rule
from ..later import chances
from ..pools import opponent_of, reach_penalty
from .own import OwnAction

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class InitiativeParams(Params):
    """The parameters of ``initiative``."""

    a: str = param("", "first fighter", kind="actor")
    b: str = param("", "second fighter", kind="target", unlike="a")
    a_reflex: int = param(help="A's Reflex", ge=0)
    a_atn: int = param(help="A's weapon ATN", ge=1)
    a_penalty: int = param(0, "A's weapon length penalty (dice)", ge=0)
    a_thrust: bool = param(False, "A thrusts (+1 on a tie)")
    b_reflex: int = param(help="B's Reflex", ge=0)
    b_atn: int = param(help="B's weapon ATN", ge=1)
    b_penalty: int = param(0, "B's weapon length penalty (dice)", ge=0)
    b_thrust: bool = param(False, "B thrusts (+1 on a tie)")
    tn_above_ten: str = tn_rule()

    @property
    def a_dice(self) -> int:
        return max(self.a_reflex - self.a_penalty, 0)

    @property
    def b_dice(self) -> int:
        return max(self.b_reflex - self.b_penalty, 0)

    def tie_scores(self) -> tuple[int, int]:
        """Reflex, a thrust +1: who lands first when the successes tie."""
        return (self.a_reflex + (1 if self.a_thrust else 0),
                self.b_reflex + (1 if self.b_thrust else 0))


class InitiativeFigures(Figures):
    """What ``initiative`` reports (the ``--json`` keys)."""

    a_successes: int
    b_successes: int
    first: str
    """a, b or simultaneous."""
    reason: str


class Initiative(OwnAction, Action[InitiativeParams]):
    name = "initiative"
    slots = ("a", "b")
    attacks = True
    marker = "rolled"
    """What the roster says of both: they rolled for the first blow this exchange."""
    help = ("Both threw red: Reflex dice vs ATN (less weapon length penalty) decide whose "
            "blow lands first; ties by Reflex (thrust +1), then simultaneous")
    stages = (
        d10s("a", "A's Reflex dice", "for the first blow", lambda p: p.a_dice),
        d10s("b", "B's Reflex dice", "for the first blow", lambda p: p.b_dice),
    )
    detail = (
        "figures: a_successes, b_successes, first (a, b or simultaneous), reason. "
        "Markers are thrown at the start of a bout or after a break; set each fighter's "
        "marker (red, white, hesitating) with `set NAME marker=red`. Aggressors declare "
        "lowest Reflex first."
    )

    def resolve(self, p: InitiativeParams, dice: Dice) -> Resolution:
        rule = p.tn_above_ten
        a_name, b_name = p.a or "A", p.b or "B"
        a_s = check(dice, "a", p.a_dice, p.a_atn, rule, why=a_name).successes
        b_s = check(dice, "b", p.b_dice, p.b_atn, rule, why=b_name).successes
        a_score, b_score = p.tie_scores()
        if a_s != b_s:
            first, why = ("a" if a_s > b_s else "b"), "more successes"
        elif a_score != b_score:
            first, why = ("a" if a_score > b_score else "b"), "higher Reflex (thrust +1)"
        else:
            first, why = "simultaneous", "a dead tie"
        name = {"a": a_name, "b": b_name}.get(first, "both")
        text = (
            f"Both red: {a_name} {successes_word(a_s)}, {b_name} {successes_word(b_s)}; "
            + (f"{name}'s blow lands first ({why})" if first != "simultaneous"
               else "blows land together")
        )
        f = InitiativeFigures(a_successes=a_s, b_successes=b_s, first=first, reason=why)
        return Resolution("initiative", first, text, f, dice.rolls)

    def odds(self, p: InitiativeParams) -> Odds:
        dist = chances.mos_odds(p.a_dice, p.a_atn, p.b_dice, p.b_atn, p.tn_above_ten)
        a_more = sum(q for m, q in dist.items() if m > 0)
        b_more = sum(q for m, q in dist.items() if m < 0)
        tie = dist.get(0, 0.0)
        a_score, b_score = p.tie_scores()
        if a_score > b_score:
            a_more += tie
            tie = 0.0
        elif b_score > a_score:
            b_more += tie
            tie = 0.0
        return [("A first", a_more), ("B first", b_more), ("simultaneous", tie)]

    def actors(self, p: Any) -> list[str]:
        """Both fighters: the roll is theirs, once an exchange (the limit's record)."""
        return [str(p.get(slot)) for slot in self.slots if p.get(slot)]

    def limit(self, p: Any) -> tuple[Scope, str] | None:
        """Once an exchange between the same two: the record names the pair."""
        return ("exchange", pair_key(p.get("a"), p.get("b")))

    def refusals(self, enc: Encounter, p: Any) -> list[str]:
        """Hesitation, a fighter who threw no red marker (the roll is "if both combatants
        attack (both throw a Red initiative marker)"), and the two having rolled this
        exchange already."""
        out = super().refusals(enc, p)
        for slot in self.slots:
            c = combatant_or_none(enc, p.get(slot))
            if c is not None and c.marker != "red":
                out.append(f"{c.name} threw no red marker: the first blow is rolled for only"
                           " between two reds (set NAME marker=red)")
        a, b = (combatant_or_none(enc, p.get(slot)) for slot in self.slots)
        if a is not None and b is None:  # the action list knows the fighter: his opponent
            b = opponent_of(enc, a)
        if a is not None and b is not None and rolled_this_exchange(enc, a.id, a.name,
                                                                    b.name):
            out.append(f"{a.name} and {b.name} have rolled for the first blow this exchange: "
                       "the markers are thrown once, as a bout begins or after a break, and "
                       "the roll is made once then")
        return out

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """Reflex and ATN of each; the weapon-length penalty of the shorter weapon."""
        out: dict[str, Any] = {}
        a = combatant_or_none(enc, given.get("a"))
        b = combatant_or_none(enc, given.get("b"))
        for key, c in (("a", a), ("b", b)):
            if c is None:
                continue
            if missing(given, f"{key}_reflex"):
                out[f"{key}_reflex"] = c.reflex
            if missing(given, f"{key}_atn"):
                out[f"{key}_atn"] = c.atn
        if a is not None and b is not None:
            for key, me, them in (("a", a, b), ("b", b, a)):
                steps = reach_penalty(me.reach, them.reach, me.inside_reach)
                if missing(given, f"{key}_penalty") and steps:
                    out[f"{key}_penalty"] = steps
        return out

    def apply(self, enc: Encounter, p: InitiativeParams, res: Resolution,
              tx: Transaction) -> None:
        f = res.figures_as(InitiativeFigures)
        for key in ("a", "b"):
            c = combatant_or_none(enc, p.get(key))
            if c is not None:
                tx.set(["combatants", c.id, "marker"], "red")
                tx.set(["combatants", c.id, "holds_initiative"],
                       f.first in (key, "simultaneous"))


def pair_key(a: Any, b: Any) -> str:
    """What the once-an-exchange limit counts: this roll between these two."""
    return "initiative " + " & ".join(sorted(str(n or "").casefold() for n in (a, b)))


def rolled_this_exchange(enc: Encounter, who: str, name: str, other: str) -> bool:
    """Whether ``who`` (an id; ``name``) rolled for the first blow with ``other`` in the
    exchange the fight stands in."""
    pos, key = enc.position, pair_key(name, other)
    return any((x.actor, x.key, x.round, x.side, x.phase) ==
               (who, key, pos.round, pos.side, pos.phase) for x in enc.acted)


INITIATIVE = Initiative()
