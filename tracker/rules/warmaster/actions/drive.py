"""One unit's drive back (WM): one die per hit, less those its position ignores; any 6
confuses; a total above its full pace routs it. Engaged units are not driven back: their
hits count in the first round of combat. Shared by ``driveback`` and ``endphase``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.core.words import plural
from tracker.rules.base import Figures, Odds, Stage
from tracker.startup import lazy

from ..tables import ignored_hits

if TYPE_CHECKING:
    from tracker.core import odds
    from tracker.core.history import Transaction

    from ..model import WarmasterUnit
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    odds = lazy("tracker.core.odds")

ROLE = "drive"
"""The role of the drive back dice."""


class Drive(Figures):
    """One unit's drive back."""

    hits: int
    ignored: int
    dice: list[int]
    distance: int
    confused: bool
    routed: bool
    carried: int
    engaged: bool


def drive_stage(help: str) -> Stage:
    """The stage of the drive back dice, as :func:`drive_back` rolls them: a d6 a hit."""
    return Stage(ROLE, "d6", help, label="for the drive back")


def drive_back(
    hits: int,
    pace: int,
    position: str | None,
    dice: Dice,
    *,
    engaged: bool = False,
    blocked: bool = False,
    name: str = "",
) -> Drive:
    """One unit's drive back: one die per hit less those its position ignores."""
    ignored = min(hits, ignored_hits(position))
    if engaged:
        return Drive(hits=hits, ignored=0, dice=[], distance=0, confused=False, routed=False,
                     carried=hits, engaged=True)
    why = f"{name}: {plural(hits, 'hit')}" if name else plural(hits, "hit")
    count = hits - ignored
    # where even all 1s drive it beyond its pace it routs, whatever the dice show
    rolled = dice.roll_many(ROLE, 6, count, why=why,
                            classes=(1,) * 6 if count > pace else ())
    distance = sum(rolled)
    routed = distance > pace  # removed whole: confusion is for units that stay
    return Drive(hits=hits, ignored=ignored, dice=rolled, distance=distance,
                 confused=not routed and (6 in rolled or (blocked and distance > 0)),
                 routed=routed, carried=0, engaged=False)


def drive_text(name: str, r: Drive, pace: int) -> str:
    if r.engaged:
        return f"{name} is engaged: {r.hits} hits carried into the first combat round"
    if not r.dice and not r.ignored:
        return f"{name}: no hits, no drive back"
    if not r.dice:
        why = f", {r.ignored} ignored ({'defended' if r.ignored == 1 else 'fortified'})"
        return f"{name}: {r.hits} hit{'s' if r.hits != 1 else ''}{why}, no drive back"
    shown = " + ".join(map(str, r.dice))
    text = f"{name} driven back {shown} = {r.distance} cm"
    if r.ignored:
        text += f" ({r.ignored} hit{'s' if r.ignored > 1 else ''} ignored)"
    if r.routed:
        text += f": more than its pace {pace} cm, routed and removed"
    elif r.confused:
        text += ": confused"
    return text


def drive_outcome(r: Drive) -> str:
    if r.engaged:
        return "carried"
    if r.routed:
        return "routed"
    if r.confused:
        return "confused"
    return "driven back" if r.dice else "no drive back"


def drive_odds(hits: int, pace: int, position: str | None, *, engaged: bool = False,
               blocked: bool = False) -> Odds:
    """Chance of no drive back, a steady or confused drive back, or a rout."""
    if engaged:
        return [("engaged: hits carried into combat", 1.0)]
    n = max(0, hits - ignored_hits(position))
    if n == 0:
        return [("no drive back", 1.0)]
    if n > pace:  # each die shows 1 or more: beyond the pace whatever they show
        return [("routed", 1.0)]
    total = 6**n
    within = sum(odds.ways_sum(n, 6)[: pace + 1])
    steady = 0 if blocked else sum(odds.ways_sum(n, 5)[: pace + 1])  # no 6 among the dice
    out = [
        ("driven back", steady / total),
        ("driven back, confused", (within - steady) / total),
        ("routed", (total - within) / total),
    ]
    return [(label, pr) for label, pr in out if pr > 0]


def apply_drive(tx: Transaction, unit: WarmasterUnit, r: Drive) -> None:
    path: list[str | int] = ["units", unit.id]
    if r.engaged:
        tx.set([*path, "carried_hits"], unit.carried_hits + r.carried)
    else:
        tx.set([*path, "driven_back"], 0 if r.routed else r.distance)
        if r.confused:
            tx.set([*path, "confused"], True)
        if r.routed:
            tx.set([*path, "routed"], True)
            tx.set([*path, "removed"], True)
    tx.set([*path, "drive_back_done"], True)
