"""The GM's app: panes for the fight, a `:` command line, dialogs, autosave in a worker."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from tracker import startup
from tracker.core import sequence as seqs
from tracker.core.dice import Answers
from tracker.core.history import touched_units
from tracker.core.model import Combatant, Unit
from tracker.session.language import CommandError
from tracker.session.opening import Opened
from tracker.session.play import FORCE_HINT, Never, PendingDuty
from tracker.session.session import Outcome
from tracker.ui import prefs
from tracker.ui.commandline import CommandLine
from tracker.ui.errors import draw_or_report, log_unexpected
from tracker.ui.following import follow_while_read_only, read_only_notice
from tracker.ui.footer import KeyFooter
from tracker.ui.kept import STYLESHEETS, KeptDialogs, prepare
from tracker.ui.panes import layout
from tracker.ui.panes.combatants import CombatantsPane
from tracker.ui.panes.log import LogPane, summary
from tracker.ui.panes.pools import PoolsPane
from tracker.ui.panes.roster import RosterPane
from tracker.ui.panes.wounds import WoundsPane
from tracker.ui.saving import SavingApp
from tracker.ui.table import SyncTable
from tracker.ui.theme import install_themes, show_notices
from tracker.ui.topbar import TopBar, topbar_text
from tracker.ui.typeahead import drop, hold, ready

if TYPE_CHECKING:
    from tracker.rules.base import Action
    from tracker.session import commands
    from tracker.session.commands import Command
    from tracker.ui import watch
    from tracker.ui.screens import (
        condition,
        confirm,
        edit,
        picker,
        points,
        reading,
        report,
        resolve,
    )
    from tracker.ui.screens import dice as dice_step
    from tracker.ui.screens import help as help_screen
else:  # the commands, dialogs and player view load after the first screen or when first
    # used (see tracker.startup)
    commands = startup.lazy("tracker.session.commands")
    condition = startup.lazy("tracker.ui.screens.condition")
    confirm = startup.lazy("tracker.ui.screens.confirm")
    dice_step = startup.lazy("tracker.ui.screens.dice")
    help_screen = startup.lazy("tracker.ui.screens.help")
    edit = startup.lazy("tracker.ui.screens.edit")
    picker = startup.lazy("tracker.ui.screens.picker")
    points = startup.lazy("tracker.ui.screens.points")
    reading = startup.lazy("tracker.ui.screens.reading")
    report = startup.lazy("tracker.ui.screens.report")
    resolve = startup.lazy("tracker.ui.screens.resolve")
    watch = startup.lazy("tracker.ui.watch")

__all__ = ["TrackerApp", "run_app", "topbar_text"]

STACKED_BELOW = 110
"""Columns under which a mass battle's log goes under its roster."""
SHORT_BELOW = 20
"""Rows under which the line under a table keeps to two rows."""


class TrackerApp(SavingApp):
    """Runs one encounter for the GM."""

    CSS_PATH = ["app.tcss", *STYLESHEETS]  # the dialogs' too: their first opening parses none
    TITLE = "tracker"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("colon", "command_line", ":cmd", id="command-line"),
        Binding("n", "next('turn')", "Next", id="next-turn"),
        Binding("N", "next('round')", "Round", id="next-round"),
        Binding("p", "next('phase')", "Phase", id="next-phase", show=False),
        Binding("f", "act", "Act", id="act"),
        Binding("E", "end_phase", "End phase", id="end-phase", show=False),
        Binding("a", "add", "Add", id="add"),
        Binding("e", "edit", "Edit", id="edit", show=False),
        Binding("x,delete", "remove", "Remove", id="remove", show=False),
        Binding("d", "points('damage')", "Damage", id="damage", show=False),
        Binding("h", "points('heal')", "Heal", id="heal", show=False),
        Binding("c", "condition", "Condition", id="condition", show=False),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("ctrl+r", "redo", "Redo", id="redo"),
        Binding("s", "settings", "Settings", id="settings", show=False),
        Binding("R", "report", "Battle report", id="report", show=False),
        Binding("w", "watch_hint", "How players connect", id="watch-hint", show=False),
        Binding("m", "whole_message", "The status line's message, whole", id="message",
                show=False),
        Binding("t", "pick_theme", "Theme", id="theme", show=False),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
    ]

    def __init__(
        self,
        opened: Opened,
        *,
        theme: str | None = None,
        autosave: bool = True,
    ) -> None:
        super().__init__(opened, autosave)
        self.session.on_change = self._changed
        self.requested_theme = theme
        self._theme_notices = install_themes(self, theme or prefs.get("theme"))
        self.selected: str | None = None
        self.dialogs = KeptDialogs(self)
        """Dialogs kept between openings, so a second opening composes nothing."""
        self._cmdline: CommandLine | None = None

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        left, right = self._pane_names()
        yield TopBar(id="topbar")
        yield layout.body(left, right, self._pane, LogPane(id="log"),
                          classes="mass" if left == ("roster",) else "")
        yield Static(id="status", markup=False)  # messages quote what was typed: [x=…]
        yield CommandLine(id="cmdline")
        yield KeyFooter(compact=True)

    def _pane_names(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The left column's tables, and above the log the pools and wounds of the
        combatants it shows."""
        return layout.pane_names(self.session.ruleset, self.session.enc)

    def _pane(self, name: str) -> Widget:
        return layout.pane(name, self.session.ruleset)

    async def _join_panes(self) -> None:
        """Panes for what joined since the screen was made, then filled."""
        left, right = self._pane_names()
        if await layout.join(self, left, right, self._pane):
            self.query_one("#body").set_class(left == ("roster",), "mass")
            self._stack(self.size.width, self.size.height)
            self.refresh_panes()

    @property
    def command_line(self) -> CommandLine | None:
        """The ``:`` line, once the main screen is up (found once: the keys ask for it at
        every binding check and keypress)."""
        if self._cmdline is None:
            found = self.query(CommandLine)
            self._cmdline = found.first() if found else None
        return self._cmdline

    def on_mount(self) -> None:
        self.query_one(CommandLine).display = False
        self._stack(self.size.width, self.size.height)
        self.refresh_panes()
        notice = self.opened.notice
        if self.session.read_only and self.opened.held_by:
            self.set_status(read_only_notice(self.opened.held_by), error=True)
            follow_while_read_only(self, self.session, self.refresh_panes)
        elif self.session.read_only:
            self.set_status(notice or "read-only", error=True)
        elif notice:
            self.set_status(notice)
        else:
            name = self.session.path.name if self.session.path else "unsaved"
            self.set_status(f"{name} · ? for help · : for commands")
        if self._theme_notices:  # in the status line, as every notice: nothing covers a pane
            show_notices(self, self._theme_notices)
        table = self.query(SyncTable).first()
        if table is not None:
            table.focus()
        self.follow_turn()
        self._install_signals()
        self.start_saving()
        self.call_after_refresh(self._prepare_save)
        self.call_after_refresh(self._load_actions)
        self.call_after_refresh(self.set_timer, 0.2, self._prepare_dialogs)

    def _prepare_dialogs(self) -> None:
        """Once the first screen is up: what a dialog's first opening would load."""
        startup.first_screen_shown(("tracker.session.commands",), prepare)

    @work(thread=True, group="save", exit_on_error=False)
    def _prepare_save(self) -> None:
        self.saving.prepare()

    @work(thread=True, group="warm-up", exit_on_error=False)
    def _load_actions(self) -> None:
        """The ruleset's actions load after the first screen, not before it, and not on
        the GM's first key: the action list opens as fast as it would had they loaded
        at start."""
        actions = self.session.ruleset.actions
        for name in list(actions):
            try:
                actions[name]
            except Exception as exc:  # a broken action shows when it is taken, not here
                log_unexpected(exc, f"loading the action {name}")

    def _install_signals(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self._on_signal)
        except (RuntimeError, NotImplementedError, ValueError):
            pass

    def _on_signal(self) -> None:
        """SIGHUP or SIGTERM: save, let go of the lock, and leave."""
        self.handle_exit_signal()

    # --- refreshing -------------------------------------------------------------------

    def refresh_panes(self, units: set[str] | None = None) -> None:
        """Redraw the panes from the encounter; ``units``, when known, are the only units
        changed since the last redraw (the roster then remakes only their rows)."""
        problem = draw_or_report(partial(self._refresh_panes, units), "refreshing the panes")
        if problem:
            self.set_status(problem, error=True)

    def _refresh_panes(self, units: set[str] | None = None) -> None:
        enc = self.session.enc
        play = self.session.play
        self.query_one(TopBar).show(self.session, self.saving_mark())
        actor = play.current()
        marks = play.markers()
        for pane in self.query(CombatantsPane):
            pane.refresh_from(enc, actor, marks)
            if self.selected is None or all(c.id != self.selected for c in enc.combatants):
                self.selected = pane.table.selected_key
        for roster in self.query(RosterPane):
            roster.refresh_from(enc, units, marks)
        for pools in self.query(PoolsPane):
            pools.refresh_from(enc, self.selected)
        for wounds in self.query(WoundsPane):
            wounds.refresh_from(enc, self.selected)
        self.query_one(LogPane).refresh_from(enc)
        if layout.missing(self, layout.left_panes(self.session.ruleset, enc)):
            self.call_later(self._join_panes)

    def on_sync_table_row_highlighted(self, event: SyncTable.RowHighlighted) -> None:
        if event.table.id == "combatants-table":
            key = event.key
            if key != self.selected:
                self.selected = key
                enc = self.session.enc
                for pane in self.query(CombatantsPane):
                    pane.show_detail(enc, key)
                for pools in self.query(PoolsPane):
                    pools.refresh_from(enc, self.selected)
                for wounds in self.query(WoundsPane):
                    wounds.refresh_from(enc, self.selected)
        elif event.table.id == "roster-table":
            self.selected = event.key

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed (saving, odds) is logged and reported in one line; the
        table stays up."""
        if event.state != WorkerState.ERROR or event.worker.error is None:
            return
        where = log_unexpected(event.worker.error, f"worker {event.worker.name}")
        kind = type(event.worker.error).__name__
        self.set_status(f"{event.worker.group or 'background'} work failed ({kind});"
                        f" details in {where}", error=True)

    # --- running commands -------------------------------------------------------------

    def run_line(self, line: str) -> str | None:
        """Read a command line and run it; returns an error message, or None when it
        worked."""
        try:
            cmd = commands.parse(line)
        except CommandError as exc:
            self.set_status(str(exc), error=True)
            return str(exc)
        return self.run_command(cmd)

    def run_command(self, cmd: Command) -> str | None:
        """Run a typed command; returns an error message, or None when it worked."""
        outcome = self._outcome(cmd)
        if isinstance(outcome, str):
            return outcome
        if outcome.pending is not None:  # typed at the `:` line: said, as any refusal
            self.set_status(outcome.message, error=True)
            return outcome.message
        entry = outcome.entry
        keys = " (u / ctrl+r)" if isinstance(cmd, commands.Rewind) else ""
        self.set_status(outcome.message + keys,
                        short=summary(entry) if entry is not None else "")
        if not outcome.changed:
            self.refresh_panes()
        return None

    def _outcome(self, cmd: Command) -> Outcome | str:
        """What the session made of a command, or the error shown for it."""
        try:
            return self.session.run(cmd)
        except CommandError as exc:
            self.set_status(str(exc), error=True)
            return str(exc)
        except Exception as exc:  # a bug must not take the table down
            where = log_unexpected(exc, cmd.text())
            message = f"unexpected error ({type(exc).__name__}); details in {where}"
            self.set_status(message, error=True)
            return message

    def _changed(self, outcome: Outcome) -> None:
        self.note_change()
        entry = outcome.entry
        self.refresh_panes(touched_units(self.session.enc, entry) if entry else None)
        if entry is not None and any(op.path[:1] == ["position"] for op in entry.ops):
            self.follow_turn()

    def follow_turn(self) -> None:
        """Put the cursor on whoever acts now (the first of a side or group that has not
        acted this phase), so the Pools and Wounds panes show them and f acts for them."""
        play = self.session.play
        holder = play.current()
        if holder is None:
            return
        members = [m for m in seqs.members(self.session.enc, holder) if _in_play(m)]
        fresh = [m for m in members if not play.acted_now(m.id)]
        if not (fresh or members):
            return
        who = (fresh or members)[0]
        for table in self.query(SyncTable):
            if table.id in ("combatants-table", "roster-table") and table.has_key(who.id):
                table.select_key(who.id)  # the highlight it posts updates the other panes

    # --- actions ----------------------------------------------------------------------

    def action_command_line(self) -> None:
        self.query_one(CommandLine).open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The app's keys work on the main screen; in a dialog, the help, the palette or
        the open command line, letters are text (and Esc, y/n, q close what is open)."""
        if action.startswith("app.") or action not in _LETTER_ACTIONS:
            return True
        if len(self.screen_stack) > 1:
            return False
        cmdline = self.command_line
        return not (cmdline and cmdline.is_open)

    def get_default_screen(self) -> Screen:  # type: ignore[type-arg]
        return MainScreen(id="_default")

    def typed_for_a_dialog(self, event: events.Key) -> bool:
        """Keys typed fast after one that opens a dialog were handed to the main screen
        before the dialog opened: they go on, in the order typed, to the dialog."""
        main = self.screen_stack[0] if self.screen_stack else None
        return isinstance(main, MainScreen) and main.passed(event) and self.screen is not main

    def on_key(self, event: events.Key) -> None:
        """Keys typed fast after ':' can reach a pane before the command line has focus;
        they bubble here and go where the GM meant them."""
        line = self.command_line
        if line is None or not line.is_open:
            return
        # the line handles its own keys; these came from a pane
        if event.key == "enter":
            event.stop()
            self.call_later(line.action_submit)
        elif event.is_printable and event.character:
            event.stop()
            line.insert_text_at_cursor(event.character)

    async def on_command_line_run(self, message: CommandLine.Run) -> None:
        await self.carry_out(message.command)

    def on_command_line_refused(self, message: CommandLine.Refused) -> None:
        self.set_status(message.why, error=True)

    async def carry_out(self, cmd: Command) -> None:
        """A command from the `:` line: the app's own (quit, save-as, the help screen),
        else the session's."""
        if isinstance(cmd, commands.Quit):
            await self.action_quit()
        elif isinstance(cmd, commands.SaveAs):
            self.save_as(cmd.file)
        elif isinstance(cmd, commands.Help) and cmd.topic is None:
            self.action_help()
        else:
            self.run_command(cmd)

    def on_log_pane_rewind(self, message: LogPane.Rewind) -> None:
        self.run_command(commands.Rewind(entry=message.entry))

    def action_next(self, what: str) -> None:
        """``n``, ``p``, ``N``. ``N`` that would skip whole phases or turns (the rest of this
        side's turn, the other side's) asks first: y skips, n or Enter stays."""
        skipped = self.session.play.skipped(what)
        if what != "round" or not skipped.whole or self.session.read_only:
            self.advance(what)
            return

        def go(yes: bool | None) -> None:
            if yes:
                self.advance(what)

        self.push_screen(confirm.ConfirmScreen(skipped.question(), yes="skip", no="stay"), go)

    def advance(self, what: str, force: bool = False, dice: Answers | None = None) -> None:
        """Walk the sequence; a duty still pending opens its action (its dice entered or
        rolled there), then the advance goes on; the GM may also skip it knowingly.
        ``dice``: those of the duties owed as the phase begins, from the dice step."""
        if self.session.read_only:
            self.set_status("read-only: another tracker writes this encounter", error=True)
            return
        step = commands.step_of(what)
        if step is None:
            raise ValueError(f"no step {what!r}")  # the keys give turn, phase or round
        given = dice or {}
        cmd = commands.Next(step, force, dice={r: [v for v, _ in vs] for r, vs in given.items()},
                            sources={r: [src for _, src in vs] for r, vs in given.items()})
        outcome = self._outcome(cmd)
        if isinstance(outcome, str):
            return
        if outcome.pending is not None:
            self._deal_with(outcome.pending, what)
            return
        self.set_status(outcome.message)

    def _deal_with(self, pending: PendingDuty, what: str) -> None:
        def skip(yes: bool | None) -> None:
            if yes:
                self.advance(what, force=True)
            else:  # kept: the status no longer says a dialog is open
                self.set_status(f"{pending.why}: kept, still owed ({self._again(what)} asks "
                                "for it again)", error=True)

        if pending.start:
            self._start_dice(pending, what, skip)
            return

        def done(ran: object) -> None:
            if ran:
                self.advance(what)
            else:
                ask = f"Leave {pending.duty.name} undone and go on? (the log will say so)"
                self.push_screen(confirm.CarefulConfirm(ask), skip)

        action = pending.action
        if action and action in self.session.ruleset.actions:
            said = (f"{pending.why}: its {action} dialog is open (Esc leaves it undone, and "
                    "asks first)")
            self.set_status(said, error=True)
            self._drop_typed_ahead(said)
            # the dialog is for the first who owes the duty (the next unit to test; the
            # wounded, where the action names no actor: a HârnMaster injury level)
            owes = pending.first
            spec = self.session.ruleset.action(action)
            named = spec.actor_param or next(
                (p.name for p in spec.params if p.kind == "target"), None)
            given = ({named: self.session.canonical_name(owes)}
                     if named is not None and owes is not None else {})
            self.open_action(action, then=done, **given)
        else:
            self.set_status(pending.message, error=True)
            done(None)

    @staticmethod
    def _again(what: str) -> str:
        """The key that asks for a duty again: the advance that met it."""
        return {"turn": "n", "round": "N", "phase": "p"}.get(what, "n")

    def _start_dice(self, pending: PendingDuty, what: str,
                    skip: Callable[[bool | None], None]) -> None:
        """A duty owed as a phase begins (the blood loss tests as a round begins): its
        dice asked for in the dice step, for one who owes it after another; then the
        advance goes on with them. Esc leaves it undone, and asks first."""
        ask = f"Leave {pending.duty.name} undone and go on? (the log will say so)"
        action = self.session.ruleset.actions.get(pending.action) if pending.action else None
        asks = list(pending.asks)
        if action is None or not asks:
            self.set_status(pending.message, error=True)
            self.push_screen(confirm.CarefulConfirm(ask), skip)
            return
        step = commands.step_of(what)
        assert step is not None
        seed = self.session.dice_seed(commands.Next(step))
        answers: Answers = {}

        def ask_next(k: int) -> None:
            if k == len(asks):
                self.advance(what, dice=answers)
                return
            owes = asks[k]

            def got(result: Answers | None) -> None:
                if result is None:
                    self.push_screen(confirm.CarefulConfirm(ask), skip)
                    return
                for role, values in result.items():
                    answers.setdefault(role, []).extend(values)
                ask_next(k + 1)

            title = f"{pending.duty.name}: {owes.who}" if owes.who else pending.duty.name
            self.push_screen(dice_step.DiceScreen(self.session, action, owes.params, seed + k,
                                                  title=title), got)

        said = f"{pending.why}: its dice step is open (Esc leaves it undone, and asks first)"
        self.set_status(said, error=True)
        self._drop_typed_ahead(said)
        ask_next(0)

    def _drop_typed_ahead(self, said: str) -> None:
        """A duty's dialog opens on ``n``: keys typed ahead of it were meant for the main
        screen (another ``n``), never for its fields; the status says they went unused."""
        def dropped(keys: list[str]) -> None:
            self.set_status(f"{said}; typed ahead, not used: {' '.join(keys)}", error=True)

        drop(self.screen, dropped)

    def action_undo(self) -> None:
        self.run_command(commands.Undo())

    def action_redo(self) -> None:
        self.run_command(commands.Redo())

    def _mass(self) -> bool:
        return bool(self.query(RosterPane)) and not (
            self.query(CombatantsPane) and self.focused and self.focused.id == "combatants-table"
        )

    def _selected_name(self) -> tuple[str, str] | None:
        # the row under the focused table's cursor now: when keys come fast, the
        # highlight message that updates `selected` can still be on its way
        focused = self.focused
        key = focused.selected_key if isinstance(focused, SyncTable) else self.selected
        if key is None:
            return None
        for c in self.session.enc.combatants:
            if c.id == key:
                return "combatant", c.id
        for u in self.session.enc.units:
            if u.id == key:
                return "unit", u.id
        return None

    def action_add(self) -> None:
        if self.session.read_only:
            self.set_status("read-only: another tracker writes this encounter", error=True)
            return
        kind = "unit" if self._mass() else "combatant"
        self.dialogs.show(f"add {kind}", edit.add_form(self.session, kind, self.run_command))

    def action_edit(self) -> None:
        sel = self._selected_name()
        if sel is None:
            self.set_status("select a combatant or unit first", error=True)
            return
        self.dialogs.show(f"edit {sel[0]}",
                          edit.edit_form(self.session, sel[0], sel[1], self.run_command))

    def action_remove(self) -> None:
        sel = self._selected_name()
        if sel is None:
            self.set_status("select a combatant or unit first", error=True)
            return
        kind, key = sel
        who = (self.session.enc.find_combatant(key) if kind == "combatant"
               else self.session.enc.find_unit(key))

        def done(yes: bool | None) -> None:
            if yes:
                self.run_command(commands.Remove(key))

        self.push_screen(confirm.ConfirmScreen(f"Remove {who.name}? (undo brings it back)",
                                               yes="remove", no="keep"), done)

    def _combatant_here(self) -> Combatant | None:
        """The combatant under the cursor, for a key that changes it (or None, said)."""
        if self.session.read_only:
            self.set_status("read-only: another tracker writes this encounter", error=True)
            return None
        sel = self._selected_name()
        if sel is None or sel[0] != "combatant":
            self.set_status("select a combatant first", error=True)
            return None
        return self.session.enc.find_combatant(sel[1])

    def action_points(self, verb: str) -> None:
        """``d`` / ``h``: damage or heal the combatant under the cursor (others beside)."""
        who = self._combatant_here()
        if who is not None:
            form = points.points_form(self.session, verb, who, self.run_command)
            self.dialogs.show(f"points {verb}", form)

    def action_condition(self) -> None:
        """``c``: a condition on the combatant under the cursor, and how long it lasts."""
        who = self._combatant_here()
        if who is not None:
            dialog = condition.ConditionScreen(self.session, who, self.run_command)
            self.dialogs.show("condition", dialog)

    def action_act(self) -> None:
        actions = self.session.ruleset.actions
        if not actions:
            self.set_status(f"{self.session.ruleset.id} has no actions yet", error=True)
            return
        # each action greyed for the one its form would open for (the first unit that
        # can shoot, the one that owes a morale test); where no one can take it, for no
        # one in particular (the reason then says why none can)
        refused = {a.name: why for a in actions.values()
                   if (why := self.session.why_not(a, _able(a, self._acting(a))))}
        if len(refused) == len(actions):  # nothing it may do now: said before any list
            self.set_status(next(iter(refused.values())), error=True)
            return
        # what it may do now first; the others after them, greyed with the reason
        ordered = sorted(actions.values(), key=lambda a: a.name in refused)
        items = [(a.name, f"{a.name:<12} {a.help}") for a in ordered]

        def picked(name: str | None) -> None:
            if name:
                self.open_action(name)

        hold(self.screen)
        final = frozenset(name for name, why in refused.items() if isinstance(why, Never))
        self.dialogs.show("actions", picker.PickerScreen("Resolve which action?", items,
                                                         refused=refused, final=final), picked)

    def open_action(self, name: str, then: Callable[[object], None] | None = None,
                    **given: str) -> None:
        action = self.session.ruleset.action(name)
        # the refusal the action list greys it with (the phase, a duty that blocks it),
        # said before the form; who acts is chosen in the form, so no one yet
        problem = self.session.why_not(action, None)
        if problem:
            anyway = "" if isinstance(problem, Never) else FORCE_HINT
            self.set_status(f"{problem}{anyway}", error=True)
            ready(self.screen)  # no dialog opens: keys held for one go on at once
            return
        actor = self._acting(action)
        named = action.actor_param
        if actor is not None and named is not None and named not in given:
            given[named] = self.session.canonical_name(actor.id)
        target = self._target_here(actor) or \
            self.session.ruleset.default_target(self.session.enc, actor)
        if target is not None:
            for p in action.params:
                if p.kind == "target" and p.name not in given:
                    given[p.name] = self.session.canonical_name(target.id)
                    break
        dialog = resolve.ResolveScreen(self.session, action, given, self.run_command)
        self.dialogs.show(f"resolve {name}", dialog, then)

    def _target_here(self, actor: Combatant | Unit | None) -> Combatant | Unit | None:
        """The row under the cursor, where it is another side's than the actor's and in
        play: the GM put the cursor on the target before pressing f."""
        sel = self._selected_name()
        if sel is None or actor is None:
            return None
        who = self.session.find(sel[1])[1]
        return who if who.side != actor.side and _in_play(who) else None

    def _acting(self, action: Action[Any] | None = None) -> Combatant | Unit | None:
        """Who an action is for: for an action that does a duty still owed (a morale
        test), the row under the cursor if it owes it, else the first who does; else the
        row under the cursor if it is one of those acting now, else the first of them who
        has not acted this phase (and can take ``action``: a unit with no missile weapon
        does not shoot)."""
        play = self.session.play
        holder = play.current()
        enc = self.session.enc
        sel = self._selected_name()
        chosen = self.session.find(sel[1])[1] if sel is not None else None
        owing = play.owing(action.name) if action is not None else []
        if owing:
            if chosen is not None and chosen.id in owing:
                return chosen
            return next((x for x in enc.everyone if x.id == owing[0]), chosen)
        if holder is None:
            return chosen
        able = action.can_act if action is not None else (lambda who: True)
        if chosen is not None and seqs.is_holder(enc, holder, chosen) and able(chosen):
            return chosen
        members = [m for m in seqs.members(enc, holder) if _in_play(m)]
        if action is not None:
            members = [m for m in members if action.can_act(m)] or members
        fresh = [m for m in members if not play.acted_now(m.id)]
        return (fresh or members)[0] if fresh or members else chosen

    def action_end_phase(self) -> None:
        """The ruleset's end of phase (drive backs, held casualties), dice rolled or entered."""
        if "endphase" not in self.session.ruleset.actions:
            self.set_status(f"{self.session.ruleset.id} has no end-of-phase step", error=True)
            return
        self.open_action("endphase")

    def action_settings(self) -> None:
        if not self.session.ruleset.settings:
            self.set_status(self.session.settings_text())
            return
        self.dialogs.show("settings", edit.settings_form(self.session, self.run_command))

    def action_watch_hint(self) -> None:
        """How players connect: the table server's command, or how to start one; in a
        dialog that stays until the GM closes it."""
        table = os.environ.get("TRACKER_TABLE", "")
        if table:
            lines = table.split("\n")
            self.push_screen(reading.ReadingScreen("Players connect with", "\n".join(
                [*lines, "", "GM key: this app · a side's key: that side's view · "
                 "spectator key: the public view"])))
            return
        path = self.session.path or "FILE"
        self.push_screen(reading.ReadingScreen("Serve the table", "\n".join([
            f"tracker serve {path} --ssh 2222 --access ACCESS.toml", "",
            "then each player: ssh -p 2222 THIS-HOST (the access file names keys by role)",
            "", f"or, with a login here: tracker watch {path} --side SIDE"])))

    def action_whole_message(self) -> None:
        """The status line's message, whole, in a dialog."""
        message = self.status_message
        if message:
            self.push_screen(reading.ReadingScreen("The last message", message))

    def on_resize(self, event: events.Resize) -> None:
        self._stack(event.size.width, event.size.height)
        self.call_after_refresh(self._draw_status)  # it wraps to the new width

    def _stack(self, width: int, height: int) -> None:
        """A mass battle on a narrow screen: the log under the roster, its width whole
        for one row an entry, rather than a narrow column beside it. On a short screen
        the line under a table keeps to two rows, so that the table keeps its rows."""
        for body in self.query("#body"):
            body.set_class(width < STACKED_BELOW and body.has_class("mass"), "stacked")
            body.set_class(height < SHORT_BELOW, "short")

    def action_pick_theme(self) -> None:
        current = self.theme
        items = [(name, f"{name}  (current)" if name == current else name)
                 for name in sorted(self.available_themes)]

        def picked(name: str | None) -> None:
            if name:
                self.theme = name
                if not prefs.remember(theme=name):
                    self.set_status(f"theme {name} (it could not be kept for the next start)")

        self.dialogs.show("themes", picker.PickerScreen("Theme", items, current=current), picked)

    def action_report(self) -> None:
        self.push_screen(report.ReportScreen(self.session.enc))

    def action_help(self) -> None:
        keys = help_screen.key_groups(self.BINDINGS, RosterPane.BINDINGS, LogPane.BINDINGS)
        dialog = help_screen.HelpScreen(keys, self.session.help_lines())
        self.dialogs.show("help", dialog)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:  # type: ignore[type-arg]
        yield from super().get_system_commands(screen)
        for b in self.BINDINGS:
            assert isinstance(b, Binding)
            action = b.action
            yield SystemCommand(
                f"{b.description} ({help_screen.key_names(b.key)})",
                help_screen.SAYS.get(b.id or "", f"key {help_screen.key_names(b.key)}"),
                partial(self.run_action, action),
            )
        for a in self.session.ruleset.actions.values():
            yield SystemCommand(
                f"Resolve: {a.name}", a.help, lambda n=a.name: self.open_action(n)
            )


_LETTER_ACTIONS = {
    b.action.split("(")[0] for b in TrackerApp.BINDINGS if isinstance(b, Binding)
} | {"cycle_sort", "cycle_view"}
"""The names of the actions on the app's keys (check_action gets the name alone)."""


class MainScreen(Screen):  # type: ignore[type-arg]
    """The GM's screen; notes the keys that bubble out of it (see TrackerApp.on_key)."""

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self._passed: set[int] = set()

    def on_key(self, event: events.Key) -> None:
        self._passed.add(id(event))

    def on_screen_resume(self) -> None:
        ready(self)  # keys held while a dialog closed with nothing after it
        for footer in self.query(KeyFooter):  # it stood still while a dialog was open
            footer.call_later(footer.recompose)

    def passed(self, event: events.Key) -> bool:
        """Whether the key came up through this screen; each key is asked about once,
        as it reaches the app."""
        if id(event) in self._passed:
            self._passed.discard(id(event))
            return True
        return False


def _able(action: Action[Any], who: Combatant | Unit | None) -> str | None:
    """The id of who would take ``action``, where it could at all."""
    return who.id if who is not None and action.can_act(who) else None


def _in_play(who: Combatant | Unit) -> bool:
    return who.active


def run_app(opened: Opened, theme: str | None = None, notice: str = "") -> int:
    """Run the GM's app on an opened encounter; saves and releases the lock on the way out."""
    if notice:
        opened.notice = "; ".join(n for n in (notice, opened.notice) if n)
    app = TrackerApp(opened, theme=theme)
    startup.app_made()
    try:
        app.run()
    finally:
        left = app.saving.finish()
        app.note_rescue(left)
        if left.message:
            print(f"tracker: {left.message}", file=sys.stderr)
    return 0 if left.saved else 2


def run_watch(
    path: Path, theme: str | None = None, side: str | None = None, public: bool = False
) -> int:
    watch.WatchApp(path, theme=theme, side=side, public=public).run()
    return 0
