"""Help (``?``): every key, under the screen or pane it works in, and the whole command
language."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

KeyRow = tuple[str, str]
Group = tuple[str, list[KeyRow]]

SAYS = {
    "command-line": "the command line: type a command, Enter runs it, Esc leaves",
    "next-turn": "next to act: the next combatant, then the next phase, then the other "
                 "side's turn, then the next round; a duty owed opens its dialog first",
    "next-round": "next round (asks first when it would skip whole phases or turns)",
    "next-phase": "next phase",
    "act": "act for whoever acts now: pick an action, fill its dialog, see the odds",
    "end-phase": "the end of the phase (drive backs, held casualties)",
    "add": "add a combatant or unit",
    "edit": "edit the combatant or unit under the cursor",
    "remove": "remove the combatant or unit under the cursor (asks; undo brings it back)",
    "damage": "damage the combatant under the cursor (hit points; others beside it)",
    "heal": "heal the combatant under the cursor",
    "condition": "a condition on the combatant under the cursor, and how long it lasts",
    "message": "the status line's message, whole",
    "undo": "take back the last change",
    "redo": "make again the change taken back",
    "settings": "the ruleset's settings (rule decisions the texts leave open)",
    "report": "the battle report (Tab between its parts, Esc back)",
    "watch-hint": "how players connect to watch",
    "theme": "choose a theme",
    "help": "this help",
    "quit": "save and quit",
    "roster-sort": "sort the units another way (kept for the next start)",
    "roster-filter": "show one side's or one state's units (kept for the next start)",
    "log-round-back": "mark the entry that starts the round (again: the round before)",
    "log-round-on": "mark the entry that starts the next round",
    "log-details": "the marked entry whole, with its dice",
    "log-rewind": "go back (or forward) to just after the marked entry, in one step",
}
"""What each of the app's and the panes' keys does, by the binding's id (the footer
shows the binding's own short word)."""

ELSEWHERE: list[Group] = [
    ("In a table (combatants, units, log)", [
        ("↑ ↓ PgUp PgDn", "move the cursor (Home, End: to the first, the last; in the log it "
                          "marks an entry)"),
        ("Tab / Shift+Tab", "the next / previous pane"),
        ("ctrl+p", "command palette: every key and action by name"),
    ]),
    ("On the : line", [("↑ ↓", "earlier commands"), ("Enter", "run"), ("Esc", "leave")]),
    ("In a pick list (actions, themes)", [
        ("a letter", "the next item starting with it"), ("Enter", "pick"), ("Esc", "back"),
    ]),
    ("In a form or an action's dialog", [
        ("Tab / ↓", "the next field"),
        ("Shift+Tab / ↑", "the previous field"),
        ("Enter / ctrl+s", "apply (an action: on to the dice step)"),
        ("ctrl+o", "the form's other fields"),
        ("Esc", "cancel"),
    ]),
    ("In the dice step", [
        ("digits", "the dice as rolled (the prompt shows how for the die asked)"),
        ("Enter", "the next stage"),
        ("r / R", "roll this stage's dice not typed / this and every later stage"),
        ("Backspace", "on an empty entry: back to the stage before"),
        ("Esc", "back to the dialog, as it was"),
    ]),
    ("At a question", [
        ("y", "yes"), ("n / Enter / Esc", "no: the safe answer (keep, stay)"),
    ]),
]


def key_names(key: str) -> str:
    """A binding's keys as the GM types them (``x / Del``)."""
    names = {"colon": ":", "question_mark": "?", "delete": "Del", "enter": "Enter",
             "left_square_bracket": "[", "right_square_bracket": "]"}
    return " / ".join(names.get(k, k) for k in key.split(","))


def rows_of(bindings: Sequence[BindingType]) -> list[KeyRow]:
    """Each binding's keys and what it does, in words."""
    rows = []
    for b in bindings:
        assert isinstance(b, Binding)
        rows.append((key_names(b.key), SAYS.get(b.id or "", b.description)))
    return rows


def key_groups(main: Sequence[BindingType], roster: Sequence[BindingType],
               log: Sequence[BindingType]) -> list[Group]:
    """The keys under the screen or pane they work in."""
    return [("On the main screen", rows_of(main)),
            ("In the unit roster", rows_of(roster)),
            ("In the log", rows_of(log)),
            *ELSEWHERE]


class HelpScreen(ModalScreen[None]):
    """A scrollable list of keys (under where they work) and commands."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss(None)", "Close", id="help-close"),
    ]

    def __init__(self, keys: list[Group], commands: list[str]) -> None:
        super().__init__()
        self.keys = keys
        self.commands = commands

    def renew(self, fresh: HelpScreen) -> bool:
        """Kept between openings (see ``tracker.ui.kept``): the same text, from the top."""
        if (fresh.keys, fresh.commands) != (self.keys, self.commands):
            return False
        if self.is_mounted:
            self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)
        return True

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog big"):
            yield Label("Help — Esc closes", classes="dialog-title")
            yield VerticalScroll(id="help-body")

    def on_mount(self) -> None:
        # the frame is drawn with the key; the text, whose table takes longer to lay out
        # than the rest of the dialog, right after it
        self.call_after_refresh(self._fill)

    def _fill(self) -> None:
        width = max(len(key) for _, rows in self.keys for key, _ in rows) + 2
        parts: list[Static | Label] = []
        for where, rows in self.keys:
            table = Table(box=None, expand=True, show_header=False, padding=(0, 1, 0, 0))
            table.add_column("Key", no_wrap=True, width=width)
            table.add_column("Does", ratio=1)
            for key, what in rows:
                table.add_row(f" {key}", what)
            parts += [Label(where, classes="help-where"), Static(table)]
        self.query_one("#help-body", VerticalScroll).mount_all([
            *parts,
            Label(""),
            Label("Command line (press : then type, Enter runs, Esc leaves):",
                  classes="dialog-title"),
            Static(Text("\n".join(self.commands))),
            Label(""),
            Static(
                "Dice: add --dice ROLE=V1,V2 to any action to use physical dice; roles "
                "not given are rolled by the tracker. Every roll is logged with its role "
                "and whether it was rolled or entered.",
                classes="dialog-hint",
            ),
        ])
