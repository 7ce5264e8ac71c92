"""The key bar: Textual's Footer, rebuilt only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class KeyFooter(Footer):
    """Footer rebuilds all its keys, a widget each, whenever the screen says its bindings
    may have changed: every change of focus, of the screen stack, of the app's focus.
    Opening an encounter sends several of those in a row, and each rebuilt the dozen
    keys the tracker shows (20-80 ms each, on the UI thread, just when the GM starts
    typing). This one compares the keys it would show with those it shows and keeps
    them when nothing changed, and does nothing while a dialog covers it.
    """

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._shown: tuple[object, ...] | None = None

    def _keys(self) -> tuple[object, ...]:
        """What the footer draws: each active binding, its key, label and state."""
        return tuple(
            (binding.key, binding.action, binding.description, binding.show,
             self.app.get_key_display(binding), enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
        )

    async def recompose(self) -> None:
        if self.screen is not self.app.screen:
            # under a dialog, which covers it: the keys it would show are the dialog's
            # state, not the main screen's; it looks again when its screen is back
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
