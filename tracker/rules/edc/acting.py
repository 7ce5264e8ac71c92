"""Who acts in an edc exchange, and what the rules start that ends with an exchange or a round.

- The initiative: "the winner of the exchange (after any damage is resolved) takes or
  retains initiative for the next exchange, with ties indicating the attacker retains the
  initiative". The exchange's result is kept as ``next_initiative`` (takes / loses) and
  handed over as the next exchange begins (``holds_initiative``), which it decides: in
  each bout the holder attacks first, and one who does not hold it attacks the holder
  only once the holder has acted ("allow combatants with initiative to resolve their
  attacks first, then attack"). It is held until the next exchange's result.
- The red and white markers are "only used at the beginning of a bout or a Pause or
  Break": a red marker leads a bout where no one holds the initiative; two reds roll
  ``initiative`` first. The markers are put away as the exchange they were thrown in ends.
- Hesitation: "at best, can only defend for 1 full exchange"; a failed roll "is unable to
  act at all for an entire exchange". Both end as that exchange ends.
- A shield "can only be used once per exchange, regardless of the source of attack":
  ``shield_used`` until the exchange ends.
- A successful ride-by "limits the combat round to a single exchange": ``single_exchange``
  on the rider and his opponent until the round ends.

Bouts act in order of their fastest fighter's Reflex ("the actions occur in order of
Reflex scores"); in a bout the holder of the initiative first, then a red marker, then by
Reflex, highest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.lifetimes import Lasts, When

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import EdcCombatant

EXCHANGE = "exchange"
"""The action whose result passes the initiative."""


def bout_of(c: Any) -> str:
    """The duel a fighter is in (a fighter in none is a bout of his own)."""
    return str(getattr(c, "bout", "") or c.id)


def order(enc: Encounter) -> list[str]:
    """Who acts in an exchange, in order: bouts by their fastest fighter's Reflex, and in a
    bout the holder of the initiative, then a red marker, then by Reflex."""
    fighters = [c for c in enc.combatants if not c.out]
    fastest: dict[str, int] = {}
    for c in fighters:
        b = bout_of(c)
        fastest[b] = max(fastest.get(b, -1), getattr(c, "reflex", 0))

    def key(c: Any) -> tuple[int, str, bool, bool, int, str]:
        b = bout_of(c)
        return (-fastest[b], b.lower(), not getattr(c, "holds_initiative", False),
                getattr(c, "marker", "") != "red", -getattr(c, "reflex", 0), c.name.lower())

    return [c.id for c in sorted(fighters, key=key)]


def fighter(enc: Encounter, name: Any) -> EdcCombatant | None:
    """The fighter a parameter names (None where it names no one)."""
    if not name:
        return None
    try:
        return enc.find_combatant(str(name))  # type: ignore[return-value]
    except LookupError:
        return None


def acted_this_exchange(enc: Encounter, c: EdcCombatant) -> bool:
    """Has ``c`` taken part in an exchange of blows in the exchange the fight stands in?"""
    pos = enc.position
    return any(a.actor == c.id and a.action == EXCHANGE and (a.round, a.phase)
               == (pos.round, pos.phase) for a in enc.acted)


def frozen(c: EdcCombatant | None) -> list[str]:
    """A fighter frozen by hesitation does nothing this exchange."""
    if c is not None and c.hesitation == "frozen":
        return [f"{c.name} hesitated and is frozen: no action this exchange"]
    return []


def may_not_attack(c: EdcCombatant | None) -> list[str]:
    """A fighter who hesitated may at best defend this exchange."""
    if c is None:
        return []
    if c.hesitation == "frozen":
        return frozen(c)
    if c.hesitation == "defend only" or c.marker == "hesitating":
        return [f"{c.name} hesitated: he may only defend this exchange"]
    return []


def shield_spent(c: EdcCombatant | None, blocks: bool) -> list[str]:
    """A shield blocks once an exchange, whatever the source of the attack."""
    if c is not None and blocks and c.shield_used:
        return [f"{c.name}'s shield has blocked once this exchange (once an exchange)"]
    return []


def initiative_first(enc: Encounter, a: EdcCombatant | None,
                     d: EdcCombatant | None) -> list[str]:
    """An attack on the one who leads the exchange before he has acted in it."""
    if a is None or d is None or a.holds_initiative:
        return []
    if d.holds_initiative:
        why = f"{d.name} holds the initiative"
    elif a.marker == "red" and d.marker == "red":
        return [f"{a.name} and {d.name} both threw red: initiative decides whose blow "
                "lands first"]
    elif d.marker == "red" and a.marker != "red":
        why = f"{d.name} threw red"
    else:
        return []
    if acted_this_exchange(enc, d):
        return []
    return [f"{why}: {d.name} attacks first this exchange ({a.name} may attack once "
            f"{d.name} has acted; buying the initiative is force=yes)"]


def single_exchange(enc: Encounter, *who: EdcCombatant | None) -> list[str]:
    """The second exchange of a round a ride-by limited to one."""
    if enc.position.phase == 0:
        return []
    return [f"the ride-by limits {c.name}'s round to a single exchange"
            for c in who if c is not None and c.single_exchange]


def exchange_refusals(enc: Encounter, p: Any) -> list[str]:
    """Why an exchange of blows may not be taken now: hesitation, the initiative, a
    shield's one block, a ride-by's single exchange."""
    a, d = fighter(enc, p.get("attacker")), fighter(enc, p.get("defender"))
    defends = bool(p.get("defense_dice") or p.get("defense_press_dice"))
    return [*may_not_attack(a), *(frozen(d) if defends else []), *initiative_first(enc, a, d),
            *shield_spent(d, bool(p.get("shield_block"))), *single_exchange(enc, a, d)]


# --- lifetimes ---------------------------------------------------------------------------


def _hand_over(enc: Encounter, tx: Transaction, who: Any) -> str:
    """The exchange's result passes the initiative as the next exchange begins."""
    takes = who.next_initiative == "takes"
    tx.set(["combatants", who.id, "next_initiative"], "")
    if takes == who.holds_initiative:
        return f"{who.name} keeps the initiative" if takes else ""
    tx.set(["combatants", who.id, "holds_initiative"], takes)
    return f"{who.name} takes the initiative" if takes else f"{who.name} loses the initiative"


EXCHANGE_ENDS = When(at="end", of="phase")
LIFETIMES = (
    Lasts("next_initiative", When(at="start", of="phase"), "", then=_hand_over),
    Lasts("marker", EXCHANGE_ENDS, "initiative marker put away"),
    Lasts("hesitation", EXCHANGE_ENDS, "hesitation over"),
    Lasts("shield_used", EXCHANGE_ENDS, "shield free to block again"),
    Lasts("single_exchange", When(at="end", of="round"), "ride-by's single exchange over"),
)
"""What the rules start and where each ends, in the words of the exchange."""
