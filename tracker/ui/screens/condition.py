"""The add-condition dialog (``c``): a condition on the combatant under the cursor, any
word, the common ones offered as it is typed (``→`` takes the one offered; a start of
one alone takes it too), and how long it lasts, sent as ``set NAME +CONDITION`` or
``effect NAME CONDITION until=WHO at=end``."""

from __future__ import annotations

from textual.suggester import SuggestFromList
from textual.widgets import Input

from tracker.core.model import Combatant
from tracker.rules.base import RuleError
from tracker.session.commands import Command, Effect, Set
from tracker.session.session import Session
from tracker.ui.screens.form import Field, FormScreen, Submit

SETTING = "common_conditions"
"""The setting that names the conditions offered (plain's; other rulesets offer none)."""


def offered(session: Session) -> list[str]:
    """The conditions the dialog offers, as the encounter's setting names them."""
    try:
        text = str(session.ruleset.setting(session.enc, SETTING))
    except RuleError:
        return []
    return [c.strip() for c in text.split(",") if c.strip()]


def expand(word: str, choices: list[str]) -> str:
    """``poi``: poisoned, the one offered condition it starts; any other word as typed."""
    low = word.lower()
    if low in (c.lower() for c in choices):
        return word
    starts = [c for c in choices if c.lower().startswith(low)]
    return starts[0] if len(starts) == 1 else word


class ConditionScreen(FormScreen):
    """The condition, whose turn ends it (start or end) or how many rounds it lasts."""

    def __init__(self, session: Session, who: Combatant, submit: Submit) -> None:
        self.offered = offered(session)
        self.names = [c.name for c in session.enc.combatants]
        name = session.canonical_name(who.id)
        fields = [
            Field("condition", "", "poisoned, prone or any word",
                  help="offered: " + (", ".join(self.offered) or "none (any word)")),
            Field("until", "", "whose turn ends it (blank: until removed)",
                  help="a combatant's name: it ends at the start or end of their next turn"),
            Field("at", "end", "start or end of that turn"),
            Field("rounds", "", "or: rounds it lasts",
                  help="with until: that many of those turns; alone: rounds, this one too"),
        ]

        def build(values: dict[str, str]) -> Command:
            word = values.get("condition", "").strip()
            if not word:
                raise ValueError("which condition? type one (any word)")
            cond = expand(word, self.offered)
            lasts = {k: values[k] for k in ("until", "rounds") if values.get(k)}
            if not lasts:
                return Set(name, marks=[f"+{cond}"])
            at = values.get("at", "end").lower() or "end"
            if at not in ("start", "end"):
                raise ValueError(f"at={at}: start or end (of that turn)")
            return Effect(name, cond, {**lasts, **({"at": at} if "until" in lasts else {})})

        super().__init__(f"Condition on {who.name}", fields, build, submit,
                         hint="any word; → takes the one offered as you type")

    def _row(self, f: Field) -> Input:
        box = super()._row(f)
        self._suggest(f.name, box)
        return box

    def _suggest(self, name: str, box: Input) -> None:
        choices = {"condition": self.offered, "until": self.names}.get(name)
        if choices:
            box.suggester = SuggestFromList(choices, case_sensitive=False)

    def renew(self, fresh: FormScreen) -> bool:
        if not isinstance(fresh, ConditionScreen):
            return False
        self.offered, self.names = fresh.offered, fresh.names
        if not super().renew(fresh):
            return False
        for name in ("condition", "until"):
            box = self._box(name)
            if box is not None:
                self._suggest(name, box)
        return True
