"""Typing into the app: text, a ``:`` line or any keys in one burst, as a fast typist or a
paste delivers them (the app hands each key out once the one before it was handled), then
waiting for the app to settle; Pilot's ``press`` idles after every key, for a key at a
time."""

from __future__ import annotations

from textual import events

from tests.ui.wait import settled, until

KEY_NAMES = {" ": "space", ",": "comma"}


def keys_for(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def type_text(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """``text`` typed in one burst, once every key of it was handled."""
    burst(pilot.app, *keys_for(text))
    await settled(pilot)


async def command(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    """A line at the ``:`` command line, typed in one burst as a GM types fast (Pilot's
    ``press`` idles after every key), and run."""
    await pilot.press("colon")
    burst(pilot.app, *keys_for(line), "enter")
    await until(pilot, lambda: not pilot.app.command_line.is_open, f"':{line}' to run")
    await settled(pilot)


CHARACTERS = {name: ch for ch, name in KEY_NAMES.items()}


def burst(app, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Queue keys as one read from the terminal does, before the app handles any of them
    (Pilot's ``press`` waits for each key to be handled)."""
    for key in keys:
        character = CHARACTERS.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))
