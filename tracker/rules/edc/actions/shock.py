"""``shock``: the arithmetic of a blow's Shock on the Combat Pool (CP) left (edc). Shock
comes off the CP at once; what it cannot take spills into the next round's refresh,
unless Pain is larger. No dice; the GM may work it out at any time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Figures, Params, Resolution, param

from ..common import CP, combatant_or_none
from ..pools import combat_pool
from ..settings import PAIN_RESIST
from ..wounds import effective_pain, shock_split

if TYPE_CHECKING:
    from tracker.core.model import Encounter


class ShockParams(Params):
    """The parameters of ``shock``."""

    target: str = param("", "the fighter struck (fills cp, pain, base)", kind="target")
    cp: int = param(help="CP left now", ge=0)
    shock: int = param(help="Shock of the blow", ge=0)
    pain: int = param(0, "Pain next round (all wounds, this one included)", ge=0)
    base: int = param(help="next round's CP before Pain and Shock", ge=0)
    halved: bool = param(False, "Health 1: the pool is halved")


class ShockFigures(Figures):
    """What ``shock`` reports (the ``--json`` keys)."""
    flag_words = {"knockdown_roll": "a knockdown roll owed"}

    cp_now: int
    shock_taken: int
    spill: int
    next_cp: int
    next_penalty: int
    knockdown_roll: bool


class Shock(Action[ShockParams]):
    name = "shock"
    help = "Shock on the CP left: lost now, spilled into next round, and next round's CP"
    detail = (
        "figures: cp_now (left this round), shock_taken, spill (carried to next round), "
        "next_cp (base - the larger of Pain and spill), next_penalty, knockdown_roll. "
        "Example: shock cp=5 shock=7 pain=2 base=12 -> cp_now 0, spill 2, next_cp 10."
    )

    def resolve(self, p: ShockParams, dice: Dice) -> Resolution:
        now, spill = shock_split(p.cp, p.shock)
        cp_now = p.cp - now
        penalty = max(p.pain, spill)
        nxt = max(p.base - penalty, 0)
        if p.halved:
            nxt -= nxt // 2
        knockdown = p.shock > p.cp or p.base - p.pain < 0
        f = ShockFigures(cp_now=cp_now, shock_taken=now, spill=spill, next_cp=nxt,
                         next_penalty=penalty, knockdown_roll=knockdown)
        why = "spilled Shock" if spill > p.pain else "Pain"
        text = (
            f"Shock {p.shock} on {p.cp} CP: {now} lost now, {cp_now} left this round, "
            f"{spill} spills over; next round CP {p.base} - {penalty} ({why}) = {nxt}"
        )
        if p.halved:
            text += " (halved, Health 1)"
        if knockdown:
            text += "; CP below 0: knockdown roll"
        return Resolution("shock", "spill" if spill else "absorbed", text, f, dice.rolls)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        """CP left, Pain, next round's CP before Pain and Shock, and Health 1."""
        c = combatant_or_none(enc, given.get("target"))
        if c is None:
            return {}
        out: dict[str, Any] = {}
        if "cp" not in given:
            out["cp"] = c.pool(CP).left
        if "pain" not in given:
            out["pain"] = effective_pain(c, str(PAIN_RESIST.of(enc)))
        if "base" not in given:
            probe = c.model_copy(update={"shock_spill": 0, "wounds": [], "health": 2})
            out["base"] = combat_pool(probe, enc)[0]
        if "halved" not in given:
            out["halved"] = c.health == 1
        return out


SHOCK = Shock()
