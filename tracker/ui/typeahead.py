"""Keys typed ahead of a dialog: held while it opens, then handed to it in the order typed.

A GM types a whole line without waiting (``f s Enter Enter 4 5 6``: pick the action,
open its form, go on to the dice step, the dice). Textual hands each key to the
focused widget of the screen active when the app reads it, and a key opens a dialog
only once it has been handled: the keys behind it would by then have gone to the
screen that is closing. So the app hands keys out one at a time, each once the one
before it has been handled, and holds them while a dialog opens until it has its
focus. A key that still reaches a screen no longer on top (it closed, or a dialog
opened over it) is handed back, and goes out again in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer

SAFETY = 2.0
"""Seconds after which held keys go out even if no dialog said it is ready (or a key
is taken as handled). Every path that holds keys says when they may go, so this only
bounds a wait that went wrong; on a loaded server a dialog can take more than half a
second to take its focus, and the GM's Tab and digits must still reach it."""


class TypeAhead(App[None]):
    """The app's side: keys in the order typed, handed out one at a time.

    Each key goes out once the one before it has been handled all the way up (by the
    widget it went to and each container above it, up to the app), so a key that opens
    a dialog has opened it before the next key is handed out; while a dialog is opening
    the keys wait for it to have its focus.
    """

    _key_order = 0
    _holding = False
    _busy = False
    _release_timer: Timer | None = None
    _busy_timer: Timer | None = None
    _dropping: Callable[[list[str]], None] | None = None

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._held: list[tuple[int, str, str | None]] = []
        """Keys waiting to go out: the order typed, the key, its character."""

    @property
    def keys_waiting(self) -> bool:
        """Whether keys typed ahead wait to be handed out, or one is on its way."""
        return bool(self._held) or self._busy

    def hold_keys(self) -> None:
        """A dialog is opening: keep the keys that come in until it is ready."""
        self._holding = True
        _stop(self._release_timer)
        self._release_timer = self.set_timer(SAFETY, self._release_all)

    def drop_keys(self, dropped: Callable[[list[str]], None]) -> None:
        """A dialog the GM did not open is opening (a duty's, opened by ``n``): the keys
        typed before it is ready were meant for the screen under it, and are not handed
        to it; ``dropped`` is told which they were."""
        self.hold_keys()
        self._dropping = dropped

    def keys_ready(self, screen: Screen[Any]) -> None:
        """``screen`` has opened and has its focus: held keys go to it, if it is the
        screen keys go to now."""
        if screen is self.screen:
            self._release_all()

    def hand_back(self, event: events.Key) -> None:
        """A key that reached a screen no longer the one keys go to; it goes out again
        in its place in the order typed."""
        self._queue(event)
        self.call_later(self._pump)

    def _queue(self, event: events.Key) -> None:
        order = getattr(event, "_typed_order", None)
        if order is None:
            self._key_order += 1
            order = self._key_order
        self._held.append((order, event.key, event.character))

    def _release_all(self) -> None:
        dropped, self._dropping = self._dropping, None
        if dropped is not None:
            keys = [character or key for _, key, character in sorted(self._held)]
            self._held.clear()
            if keys:
                dropped(keys)
        self._holding = False
        _stop(self._release_timer)
        self._release_timer = None
        self.call_later(self._pump)

    async def _pump(self) -> None:
        """Hand out the first key typed of those waiting, if none is on its way."""
        held = self._held
        if self._busy or self._holding or not held:
            return
        held.sort(key=lambda k: k[0])
        order, key, character = held.pop(0)
        event = events.Key(key, character)
        event._typed_order = order  # type: ignore[attr-defined]
        self._busy = True
        _stop(self._busy_timer)
        self._busy_timer = self.set_timer(SAFETY, self._handled)
        target = self.focused or self.screen
        await super().on_event(event)
        self._climb(target)

    def _climb(self, node: object) -> None:
        """Once ``node`` has handled the key on its way, follow it to the node above."""
        if node is self:
            self._handled()
            return
        parent = getattr(node, "parent", None) or self
        if isinstance(node, MessagePump) and node.call_later(self._climb, parent):
            return
        self._climb(parent)  # a node closed meanwhile: the key went no further there

    def _handled(self) -> None:
        self._busy = False
        _stop(self._busy_timer)
        self._busy_timer = None
        self.call_later(self._pump)

    def typed_for_a_dialog(self, event: events.Key) -> bool:
        """Whether a key coming back up to the app was typed for a dialog opened since
        it was handed out (the app's own keys are checked after this)."""
        return False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if not event.is_forwarded:
                self._queue(event)
                await self._pump()
                return
            if self.typed_for_a_dialog(event):
                # before the app's bindings, which would run in the dialog's widgets
                event.stop()
                event.prevent_default()
                self.hand_back(event)
                return
        await super().on_event(event)


def _stop(timer: Timer | None) -> None:
    if timer is not None:
        timer.stop()


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


def drop(screen: Screen[Any], dropped: Callable[[list[str]], None]) -> None:
    """``screen`` opens a dialog the GM did not ask for: keys typed ahead are not used."""
    if isinstance(screen.app, TypeAhead):
        screen.app.drop_keys(dropped)


def ready(screen: Screen[Any]) -> None:
    """``screen`` has opened and has its focus: keys held for it go to it."""
    if isinstance(screen.app, TypeAhead):
        screen.app.keys_ready(screen)


__all__ = ["TypeAhead", "drop", "hand_on", "hold", "ready"]
