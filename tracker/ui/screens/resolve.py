"""Resolve an action: its parameters (filled from the encounter), the exact odds before
any die is rolled, and the dice by role (blank: the tracker rolls)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from tracker.core.dice import Answers
from tracker.core.words import percent
from tracker.rules.base import Action, RuleError
from tracker.session.commands import Act, Command
from tracker.session.session import Session
from tracker.ui.screens.dice import DiceScreen
from tracker.ui.screens.form import Field, FormScreen, Submit, show_value
from tracker.ui.screens.resolve_text import (
    field_help,
    field_hint,
    is_records,
    left_open,
    odds_text,
    record_rows,
    roster_hint,
)
from tracker.ui.typeahead import hold


class ResolveScreen(FormScreen):
    """The generic resolve dialog, built from ``Action.params`` and ``Action.stages``."""

    def __init__(self, session: Session, action: Action[Any], given: dict[str, str],
                 submit: Submit) -> None:
        self.session = session
        self.action = action
        self.given = {k for k, v in given.items() if v}
        self.touched: set[str] = set(self.given)
        """Fields the GM typed (or the app gave); the rest follow the encounter."""
        self._last_fill: dict[str, str] = {}
        """What the encounter filled in last time it could, for the fields not typed."""
        self.records: dict[str, list[dict[str, Any]]] = {}
        """Fields the encounter fills with records (units and their figures): shown as
        rows under the fields, their boxes left empty until the GM types in them."""
        self.filled = self._defaults(given)
        self._set_by_me: dict[str, str] = {}
        self._odds_asked = 0
        self._odds_shown = 0
        self.typed_ahead: DiceScreen | None = None
        """The dice step while it is open: keys typed ahead into the form go on to it."""
        fields = [
            Field(p.name, self.filled.get(p.name, ""), field_hint(p),
                  label=p.name + ("*" if p.required else ""), help=field_help(p))
            for p in action.params
            if not p.name_of  # a name for the log, from the one its field names
        ]
        super().__init__(f"{action.name}: {action.help}", fields, self._command, submit,
                         hint="* required · grey fields follow the encounter; type to override")

    def _defaults(self, given: dict[str, str], remember: bool = True) -> dict[str, str]:
        """What the form shows: the typed fields, then what the encounter fills in.

        A form the action refuses as it stands (a field half typed, a pool too small
        for the dice asked) keeps what the encounter filled in last, so the fields the
        GM did not type do not go blank while the odds line says what is wrong.
        ``remember=False`` asks what the encounter would give without changing that.
        """
        out = {k: v for k, v in given.items() if v}
        try:
            raw = self.session.action_params_raw(self.action, out)
            if remember:
                self._last_fill = {k: show_value(v) for k, v in raw.items()
                                   if k not in out and v != -1}
        except Exception:
            for key, value in self._last_fill.items():
                out.setdefault(key, value)
            try:
                raw = self.action.parse_params(out, partial=True)
            except Exception:
                return out
        open_ = {p.name for p in self.action.params
                 if p.default == -1 and left_open(p) is not None}
        for key, value in raw.items():
            if key not in out and is_records(value):
                if remember:
                    self.records[key] = list(value)
                out[key] = ""
                continue
            # a value left open shows as an empty box that says what is used instead
            out.setdefault(key, "" if key in open_ and value == -1 else show_value(value))
        if remember:
            for key in [k for k in self.records if k in out and out[k]]:
                del self.records[key]  # typed: the box says it
        return out

    def renew(self, fresh: FormScreen) -> bool:
        """Kept between openings (see ``tracker.ui.kept``): the same action's dialog
        takes what the encounter fills in now, and works out its odds again."""
        if not isinstance(fresh, ResolveScreen) or fresh.session is not self.session \
                or fresh.action.name != self.action.name:
            return False
        self.action = fresh.action
        self.given, self.touched = fresh.given, fresh.touched
        self._last_fill, self.filled = fresh._last_fill, fresh.filled
        self.records = fresh.records
        self._set_by_me = {}
        self.typed_ahead = None
        if not super().renew(fresh):
            return False
        if self.is_mounted:
            self._mark_followers()
            self._show_records()
            self.query_one("#odds", Static).update("…")
            self.update_odds()
        return True

    def set_box(self, f: Field, box: Input, value: str) -> None:
        if box.value != value:
            self._set_by_me[f.name] = value  # the encounter's value, not the GM typing
        super().set_box(f, box, value)

    def compose_extra(self) -> ComposeResult:
        records = Static(self._records_text(), id="records", classes="dialog-hint",
                         markup=False)
        records.display = bool(self.records)
        yield records
        with Vertical(classes="odds"):
            head = "Odds before rolling:" if self.action.has_odds else "Before it is taken:"
            yield Label(head, classes="dialog-hint")
            yield Static("…", id="odds")

    def on_mount(self) -> None:
        super().on_mount()
        self._mark_followers()
        self.update_odds()

    def on_input_changed(self, event: Input.Changed) -> None:
        name = (event.input.id or "")[2:]
        if self._set_by_me.get(name) == event.value:
            del self._set_by_me[name]  # our own refill, not the GM typing
            return
        if not name.startswith("die--"):
            # the box as it is now (keys that came in one burst have all landed), against
            # what the encounter would put there: the same value follows the encounter
            value = event.input.value
            others = {k: v for k, v in self._typed().items() if k != name}
            if value != self._defaults(others, remember=False).get(name, ""):
                self.touched.add(name)
            elif name not in self.given:
                self.touched.discard(name)
            self._refill()
        self.update_odds()

    def _typed(self) -> dict[str, str]:
        values = self.values()
        return {k: values[k] for k in self.touched if values.get(k)}

    def _refill(self) -> None:
        """Fields the GM did not type follow what the encounter now says."""
        shown, self.filled = self.filled, self._defaults(self._typed())
        for p in self.action.params:
            if p.name in self.touched:
                continue
            box = self._box(p.name)
            if box is None:
                continue  # not mounted yet: it is made with what the encounter fills in
            value = self.filled.get(p.name, "")
            if box.value == value:
                continue
            if box.value != shown.get(p.name, "") and self._set_by_me.get(p.name) != box.value:
                # typed in the same burst of keys, before its change reached us
                self.touched.add(p.name)
                continue
            self._set_by_me[p.name] = value
            box.value = value
        self._mark_followers()
        if self.is_mounted:
            self._show_records()

    def _show_records(self) -> None:
        records = self.query_one("#records", Static)
        records.update(self._records_text())
        records.display = bool(self.records)

    def _records_text(self) -> str:
        return "\n".join(record_rows(k, v) for k, v in self.records.items())

    def value_for(self, f: Field) -> str:
        if f.name.startswith("die--") or f.name in self.touched:
            return f.value
        return self.filled.get(f.name, "")

    def rows_added(self) -> None:
        self._mark_followers()

    def _mark_followers(self) -> None:
        values = self.values()
        named = all(values.get(p.name) for p in self.action.params
                    if p.kind in ("actor", "target"))
        for p in self.action.params:
            box = self._box(p.name)
            if box is not None:
                box.set_class(p.name not in self.touched, "follows")
                if p.kind not in ("actor", "target") and p.name not in self.records:
                    # the roster's value shows in the box: an empty one has none to give
                    box.placeholder = roster_hint(p) if named else field_hint(p)

    def _params(self) -> dict[str, str]:
        return self._typed()

    def update_odds(self) -> None:
        self._odds_asked += 1
        self._compute_odds(self._params(), self._odds_asked)

    @property
    def odds_settled(self) -> bool:
        """True once the odds shown are those of the form as it stands."""
        return self._odds_asked > 0 and self._odds_shown == self._odds_asked

    @work(thread=True, exclusive=True, group="odds", exit_on_error=False)
    def _compute_odds(self, raw: dict[str, str], asked: int) -> None:
        try:
            params = self.session.action_params_raw(self.action, raw, complete=True)
        except (RuleError, ValueError, LookupError) as exc:
            text = f"(fill the form: {exc})"
        except Exception as exc:  # odds must never take the dialog down
            text = f"(odds unavailable: {exc})"
        else:
            text = self._reading(params, raw)
        self.app.call_from_thread(self._show_odds, text, asked)

    def _reading(self, params: Any, raw: dict[str, str]) -> str:
        """What the form says of parameters that read: the odds, or that Enter takes it;
        first, where Enter would be refused, why (said while the GM types)."""
        reads = True
        try:
            if self.action.has_odds:
                text = odds_text(self.action.odds(params)) or "-"
            elif self.action.stages:  # dice, but no outcome with odds (initiative)
                text = "the form reads: Enter goes on to the dice"
            else:
                text = "the form reads, no dice to roll: Enter takes it"
            summary = self.action.summary(params)
            if summary is not None:
                text = f"{summary}\n{text}"
        except (RuleError, ValueError, LookupError) as exc:
            text, reads = f"(fill the form: {exc})", False
        except Exception as exc:  # odds must never take the dialog down
            text = f"(odds unavailable: {exc})"
        try:
            refused = self.session.form_refusal(self.action, params, raw, resolving=reads)
        except Exception:  # a form half filled: what Enter says is said then
            refused = ""
        if not refused:
            return text
        keep = self.action.has_odds or not reads  # the odds, or what is left to fill
        return f"reads, but Enter is refused: {refused}" + (f"\n{text}" if keep else "")

    def _show_odds(self, text: str, asked: int) -> None:
        if asked != self._odds_asked:
            return  # a newer form is being worked out; an older answer must not win
        self._odds_shown = asked
        if self.is_mounted:
            self.query_one("#odds", Static).update(text)

    def _command(self, values: dict[str, str]) -> Act:
        """The typed fields; the rest the session fills, the dice the dice step asks."""
        return Act(self.action.name, params={key: value for key, value in values.items()
                                             if value and key in self.touched})

    def action_submit(self) -> None:
        """The parameters settled, the dice step asks for the dice stage by stage; its
        Esc comes back here with the form as it was."""
        try:
            cmd = self.build(self.values())
            assert isinstance(cmd, Act)  # the form of an action builds its action
            params = self.session.dice_params(self.action, cmd)
            # what the rules refuse before any die is said here, in the form
            first = self.session.next_stage(self.action, params, {})
        except ValueError as exc:  # CommandError is one
            self.show_error(str(exc))
            return
        if first is None:  # no dice to ask for
            self._run(cmd)
            return
        def dice_in(answers: Answers | None) -> None:
            self.typed_ahead = None
            if answers is None:
                self.show_error("")
                return
            self._run(replace(
                cmd, dice={role: [v for v, _ in vals] for role, vals in answers.items()},
                sources={role: [s for _, s in vals] for role, vals in answers.items()}))

        title = f"{self.action.name}: {_who(self.action, params)}"
        step = DiceScreen(self.session, self.action, params, self.session.dice_seed(cmd),
                          title)
        self.typed_ahead = step
        hold(self)
        self.app.push_screen(step, dice_in)

    def submit_in_order(self) -> None:
        """Enter in a field, run as its key arrives (see InOrderInput)."""
        self.action_submit()

    def _run(self, cmd: Command) -> None:
        error = self.submit_command(cmd)
        if error:
            self.show_error(error)
        else:
            self.dismiss(cmd)

    def _line(self, values: dict[str, str]) -> str:
        """The command as the GM could type it at the `:` line."""
        return self._command(values).text()


def _who(action: Action[Any], params: Any) -> str:
    """Who acts on whom, as the title of the dice step says it."""
    def value(kind: str) -> str:
        for p in action.params:
            if p.kind == kind:
                got = params.get(p.name) if hasattr(params, "get") else getattr(
                    params, p.name, None)
                if got:
                    return str(got)
        return ""

    names = [n for n in (value("actor"), value("target")) if n]
    return " at ".join(names) or "the dice, stage by stage"


__all__ = ["ResolveScreen", "odds_text", "percent"]
