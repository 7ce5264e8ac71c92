"""Pick one item from a list (an action, a theme); Enter picks, Esc cancels.

A letter moves to the next item whose id starts with it, so a GM who knows the
actions picks one blind: `f l Enter` loads a bow in HârnMaster.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from tracker.session.play import FORCE_HINT
from tracker.ui.typeahead import hand_on, hold, ready


class PickerScreen(ModalScreen[str | None]):
    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="picker-cancel")]

    def __init__(self, title: str, items: list[tuple[str, str]],
                 current: str | None = None, refused: dict[str, str] | None = None,
                 final: frozenset[str] = frozenset()) -> None:
        """``items`` are (id, label) pairs; ``current``, the id highlighted first;
        ``refused``, why an item may not be picked now (it is greyed with the reason);
        ``final``, those of them no ``force=yes`` takes (greyed "cannot", where the
        others read "not now")."""
        super().__init__()
        self.title_text = title
        self.items = items
        self.refused = refused or {}
        self.final = final
        self._picked = False
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            options = OptionList(*(Option(self._prompt(key, label), id=key)
                                   for key, label in self.items))
            keys = [key for key, _ in self.items]
            if self.current in keys:
                options.highlighted = keys.index(self.current)
            yield options
            why = Label("", id="picker-why", classes="dialog-error", markup=False)
            why.display = False
            yield why
            yield Label("↑↓ or a first letter choose · Enter pick · Esc cancel",
                        classes="dialog-hint")

    def _prompt(self, key: str, label: str) -> str | Text | Table:
        """An item's line: greyed with the reason where it may not be picked now. A label
        that leads with its id in a column of 12 (an action and what it does) wraps
        under its words, not under the id."""
        why = self.refused.get(key)
        if why is not None:  # its name leads the line already: "throw  not now: a bow ..."
            why = why.removeprefix(f"{key}: ").removeprefix(f"{key} is ")
            return _columns(key, f"{'cannot' if key in self.final else 'not now'}: {why}", "dim")
        if label.startswith(f"{key:<12} "):
            return _columns(key, label[13:], "")
        return label

    def renew(self, fresh: PickerScreen) -> bool:
        """Kept between openings (see ``tracker.ui.kept``): the same ids; the title, the
        labels (a mark on the current theme) and the highlight are refreshed."""
        keys = [key for key, _ in self.items]
        if [key for key, _ in fresh.items] != keys:
            return False
        self._picked = False
        self.current = fresh.current
        shown = {key: self._prompt(key, label) for key, label in self.items}
        self.refused, self.final = fresh.refused, fresh.final
        if self.is_mounted:
            self.query_one(".dialog-title", Label).update(fresh.title_text)
            self.query_one("#picker-why", Label).display = False
            options = self.query_one(OptionList)
            for key, label in fresh.items:
                prompt = self._prompt(key, label)
                if shown[key] != prompt:
                    options.replace_option_prompt(key, prompt)
            options.highlighted = keys.index(fresh.current) if fresh.current in keys else 0
            options.scroll_home(animate=False)
            options.scroll_to_highlight()
        self.title_text = fresh.title_text
        self.items = fresh.items
        return True

    def on_mount(self) -> None:
        ready(self)

    def on_screen_resume(self) -> None:
        ready(self)  # a kept picker opens again without mounting

    def on_key(self, event: events.Key) -> None:
        """Enter picks what is highlighted as its key arrives, and letters the list does
        not take jump to the next item starting with them. Keys typed in the same burst
        after the pick were meant for what the pick opens: they go back to the app, in
        order, and reach the dialog opened next."""
        if self._picked:
            hand_on(self, event)
            return
        options = self.query_one(OptionList)
        if event.key == "enter":
            # the list's own Enter runs only once the key has reached the app, after
            # the keys typed behind it have already come here
            event.stop()
            event.prevent_default()
            if options.highlighted is not None:
                self.pick(self.items[options.highlighted][0])
        elif event.is_printable and event.character and event.character.strip():
            event.stop()
            self.jump(event.character)

    def jump(self, letter: str) -> None:
        options = self.query_one(OptionList)
        keys = [key for key, _ in self.items]
        start = options.highlighted if options.highlighted is not None else -1
        for step in range(1, len(keys) + 1):
            index = (start + step) % len(keys)
            if keys[index].lower().startswith(letter.lower()):
                options.highlighted = index
                return

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.pick(event.option.id)

    def pick(self, key: str) -> None:
        if self._picked:
            return  # a second Enter of the same burst: the first already picked
        why = self.refused.get(key)
        if why is not None:
            said = self.query_one("#picker-why", Label)
            anyway = "" if key in self.final else FORCE_HINT
            said.update(f"{key}: {why}{anyway}")
            said.display = True
            return
        self._picked = True
        hold(self)  # the keys behind this Enter are for what the pick opens
        self.dismiss(key)


def _columns(key: str, words: str, style: str) -> Table:
    """An id and its words side by side, the words wrapping in their own column."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=12, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text(key, style=style), Text(words, style=style))
    return grid
