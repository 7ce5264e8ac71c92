"""The hit points dialog (``d`` damage, ``h`` heal): how many, to the combatant under the
cursor and any others named beside it, sent as ``damage`` or ``heal``."""

from __future__ import annotations

from tracker.core.model import Combatant
from tracker.rules.plain.health import points
from tracker.session.commands import Command, Damage, Heal
from tracker.session.language import whole
from tracker.session.session import Session
from tracker.ui.screens.form import Field, FormScreen, Submit

VERBS = {"damage": Damage, "heal": Heal}


def points_form(session: Session, verb: str, who: Combatant, submit: Submit) -> FormScreen:
    """``Damage Goblin 3 (4/7)``: the amount first, the names after it."""
    made = VERBS[verb]
    shown = points(who)
    title = f"{verb.capitalize()} {who.name}" + (f" ({shown} hp)" if shown else "")
    fields = [
        Field("amount", "", "hit points", help=f"how many hit points to {verb}"),
        Field("who", session.canonical_name(who.id), "names, comma separated",
              help="each takes the same (an area spell): Goblin 1, Goblin 2"),
    ]

    def build(values: dict[str, str]) -> Command:
        amount = values.get("amount", "")
        if not amount:
            raise ValueError("how many? type the hit points")
        names = [n.strip() for n in values.get("who", "").split(",") if n.strip()]
        if not names:
            raise ValueError("who? name at least one combatant")
        return made(names, whole("amount", amount))

    hint = ("temporary hit points go first; at 0 down" if verb == "damage"
            else "up to the maximum; above 0 back up")
    return FormScreen(title, fields, build, submit, hint=hint)
