"""Keys typed ahead of a dialog: held while it opens, then handed to it in the order typed.

A GM types a whole line without waiting (``f s Enter Enter 4 5 6``: pick the action,
open its form, go on to the dice step, the dice). Textual hands each key to the
focused widget of the screen active when the app reads it, and a key opens a dialog
only once it has been handled: the keys behind it have by then gone to the screen
that is closing. Such a screen hands them back here; the app holds them, and every key
that arrives while a dialog is opening, and gives them out in the order typed once the
dialog has its focus.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.timer import Timer

SAFETY = 0.5
"""Seconds after which held keys go out even if no dialog said it is ready."""


class TypeAhead(App[None]):
    """The app's side: the order keys came in, the keys held, and when they go out."""

    _key_order = 0
    _holding = False
    _held: list[tuple[int, str, str | None]]
    _release_timer: Timer | None = None

    def hold_keys(self) -> None:
        """A dialog is opening: keep the keys that come in until it is ready."""
        self._holding = True
        if self._release_timer is not None:
            self._release_timer.stop()
        self._release_timer = self.set_timer(SAFETY, self._release_all)

    def keys_ready(self, screen: Screen[Any]) -> None:
        """``screen`` has opened and has its focus: held keys go to it, if it is the
        screen keys go to now."""
        if screen is self.screen:
            self._release_all()

    def hand_back(self, event: events.Key) -> None:
        """A key that reached a screen no longer the one keys go to; it goes out again
        in its place in the order typed."""
        self._queue(event)
        if not self._holding:
            self._release_all()

    def _queue(self, event: events.Key) -> None:
        order = getattr(event, "_typed_order", None)
        if order is None:
            self._key_order += 1
            order = self._key_order
        self._held_keys().append((order, event.key, event.character))

    def _held_keys(self) -> list[tuple[int, str, str | None]]:
        if not hasattr(self, "_held"):
            self._held = []
        return self._held

    def _release_all(self) -> None:
        self._holding = False
        if self._release_timer is not None:
            self._release_timer.stop()
            self._release_timer = None
        held = sorted(self._held_keys(), key=lambda k: k[0])
        self._held = []
        for order, key, character in held:
            again = events.Key(key, character)
            again._typed_order = order  # type: ignore[attr-defined]
            self.post_message(again)

    def typed_for_a_dialog(self, event: events.Key) -> bool:
        """Whether a key coming back up to the app was typed for a dialog opened since
        it was handed out (the app's own keys are checked after this)."""
        return False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if not event.is_forwarded:
                if getattr(event, "_typed_order", None) is None:
                    self._key_order += 1
                    event._typed_order = self._key_order  # type: ignore[attr-defined]
                if self._holding:
                    self._queue(event)
                    return
            elif self.typed_for_a_dialog(event):
                # before the app's bindings, which would run in the dialog's widgets
                event.stop()
                event.prevent_default()
                self.hand_back(event)
                return
        await super().on_event(event)


def hand_on(screen: Screen[Any], event: events.Key) -> None:
    """A key that reached ``screen`` after it closed (or opened a dialog over itself)
    goes back to the app, keeping its place in the order typed."""
    event.stop()
    event.prevent_default()
    app = screen.app
    if isinstance(app, TypeAhead):
        app.hand_back(event)
    else:
        app.post_message(events.Key(event.key, event.character))


def hold(screen: Screen[Any]) -> None:
    """``screen`` is about to open a dialog (or close for one): hold the keys."""
    if isinstance(screen.app, TypeAhead):
        screen.app.hold_keys()


def ready(screen: Screen[Any]) -> None:
    """``screen`` has opened and has its focus: keys held for it go to it."""
    if isinstance(screen.app, TypeAhead):
        screen.app.keys_ready(screen)


__all__ = ["TypeAhead", "hand_on", "hold", "ready"]
