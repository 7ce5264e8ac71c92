"""An Input whose editing keys keep their order when keys arrive in one burst."""

from __future__ import annotations

from functools import cache

from rich.cells import cell_len
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input

from tracker.ui.typeahead import hand_on


class InOrderInput(Input):
    """Runs its own bindings (Backspace, Home, ctrl+k, Enter ...) as their key arrives.

    Textual inserts a printable key as soon as the focused Input receives it, but runs
    the Input's bindings only once the key has bubbled up to the app. Keys that come in
    one read (fast typing, or a slow SSH link delivering a second's typing at once) then
    apply out of order: "Backspace Backspace n d" inserts "nd" first and deletes it
    again. Running the binding here keeps the keys in the order they were typed.
    """

    _fitted = ""
    """The hint as last cut to the box (a hint set since is the whole one)."""
    _whole_hint = ""

    def on_resize(self, event: events.Resize) -> None:
        self._fit_hint()

    def watch_placeholder(self, value: str) -> None:
        self._fit_hint()

    def _fit_hint(self) -> None:
        """A hint longer than the box is cut after its last whole word, with "…", rather
        than mid-word at the box's edge (the line under a form says it whole)."""
        if self.placeholder != self._fitted:
            self._whole_hint = self.placeholder
        width = self.content_size.width - 1  # the cursor's cell
        if width <= 0:
            return
        self._fitted = fit_words(self._whole_hint, width)
        self.placeholder = self._fitted

    def typed_for_another_screen(self) -> bool:
        """Whether keys reaching the field now were typed for another screen: one opened
        over this field's, or the one under it once this one has closed."""
        if getattr(self.screen, "typed_ahead", None) is not None:
            return True
        return self.is_attached and self.screen is not self.app.screen

    def binding_for(self, event: events.Key) -> Binding | None:
        """The field's own binding for this key (Backspace, Home, Enter ...), if any."""
        own = own_bindings(type(self))
        for key in event.aliases:
            binding = own.get(key)
            if binding is not None:
                return binding
        return None

    async def on_key(self, event: events.Key) -> None:
        """Runs before Input's own key handler, which prevent_default() skips."""
        if self.typed_for_another_screen():
            # a dialog opened over this one, or this one closed, by a key of the same
            # burst (the form's Enter opening the dice step, the last die's Enter): the
            # keys after it are meant for the screen that is now on top
            hand_on(self.screen, event)
            return
        binding = None if event.is_printable else self.binding_for(event)
        submit = getattr(self.screen, "submit_in_order", None)
        if binding is not None and binding.action == "submit" and submit is not None:
            # the dialog acts on Enter before the next key of the burst reaches a field
            event.stop()
            event.prevent_default()
            submit()
            return
        if binding is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(binding.action)


@cache
def own_bindings(field: type[Input]) -> dict[str, Binding]:
    """The bindings a field's class declares or inherits, by key; a class's own binding
    for a key before the one it inherits."""
    found: dict[str, Binding] = {}
    for cls in field.__mro__:
        declared: list[BindingType] = cls.__dict__.get("BINDINGS", [])
        for binding in Binding.make_bindings(declared):
            found.setdefault(binding.key, binding)
    return found


def fit_words(text: str, width: int) -> str:
    """``text`` cut after its last whole word that fits in ``width`` cells, with "…"."""
    if cell_len(text) <= width:
        return text
    cut = text[: max(width - 1, 0)]
    if " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:(") + "…"
