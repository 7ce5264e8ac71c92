"""Waiting in Pilot tests for what the app is doing, not for a number of pauses.

``until`` lets the app run until a condition holds: each turn waits until a worker
running then (odds, saving, the report, the command palette's search) ends, and for the
messages the keys and the workers sent to be handled. ``settled`` waits until no worker
runs, no key typed ahead waits to be handed out and every message is handled; ``on_top``
until a dialog of a kind is up and ``gone`` until one has closed. Each gives up after a
deadline and says what it waited for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from time import monotonic
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen
from textual.worker import Worker

S = TypeVar("S", bound=Screen[Any])

DEADLINE = 30.0
"""Seconds before a wait fails: far beyond any step on a loaded machine."""
TURN = 0.1
"""Seconds a turn waits for a worker at most (a player view follows its save for as long
as it runs)."""


def _ended(worker: Worker[Any]) -> asyncio.Future[Any]:
    """A future done when ``worker`` ends, however it ends (a failing worker shows in what
    the app shows, which the test looks at)."""
    waiting = asyncio.ensure_future(worker.wait())
    waiting.add_done_callback(lambda f: f.cancelled() or f.exception())
    return waiting


async def _turn(pilot: Pilot[Any]) -> None:
    """Until a worker running now ends (or a turn passes), then the messages handled."""
    running = [w for w in pilot.app.workers if not w.is_finished]
    if running:
        await asyncio.wait([_ended(w) for w in running], timeout=TURN,
                           return_when=asyncio.FIRST_COMPLETED)
    await pilot.pause()


async def until(
    pilot: Pilot[Any], ready: Callable[[], object], what: str, timeout: float = DEADLINE
) -> None:
    """Let the app run until ``ready()`` is true; fail naming ``what`` after ``timeout``."""
    deadline = monotonic() + timeout
    while not ready():
        if monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await _turn(pilot)


async def settled(pilot: Pilot[Any], timeout: float = DEADLINE) -> None:
    """Until every message and every key typed ahead is handled and no worker runs, those
    started meanwhile too."""
    app = pilot.app
    workers = app.workers

    def idle() -> bool:
        return all(w.is_finished for w in workers) and not getattr(app, "keys_waiting", False)

    await pilot.pause()  # the keys posted are read, and wait in the app's queue if they must
    try:
        await until(pilot, idle, "the app to settle", timeout)
    except AssertionError as exc:
        busy = [w.name or w.group for w in workers if not w.is_finished]
        if getattr(app, "keys_waiting", False):
            busy.append("keys typed ahead")
        raise AssertionError(f"{exc}; still busy: {', '.join(busy)}") from None
    await pilot.pause()  # what the last of them sent on (a key the app forwards to a field)


async def on_top(pilot: Pilot[Any], kind: type[S], timeout: float = DEADLINE) -> S:
    """The screen on top once it is a ``kind`` and every key typed ahead reached it."""
    app = pilot.app

    def there() -> bool:
        return isinstance(app.screen, kind) and not getattr(app, "keys_waiting", False)

    await until(pilot, there, f"a {kind.__name__} on top", timeout)
    screen = app.screen
    assert isinstance(screen, kind)
    return screen


async def gone(pilot: Pilot[Any], screen: Screen[Any], timeout: float = DEADLINE) -> None:
    """Until ``screen`` has left the app's stack of screens, then the app settled."""
    app = pilot.app
    await until(pilot, lambda: screen not in app.screen_stack, f"{screen!r} to close", timeout)
    await settled(pilot, timeout)
