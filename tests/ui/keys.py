"""Typing text into the app through Pilot, one key at a time, as a GM types."""

from __future__ import annotations

KEY_NAMES = {" ": "space", ",": "comma"}


def keys_for(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def type_text(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*keys_for(text))


async def command(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    """A line at the ``:`` command line, typed and run."""
    await pilot.press("colon")
    await type_text(pilot, line)
    await pilot.press("enter")
    await pilot.pause()


CHARACTERS = {name: ch for ch, name in KEY_NAMES.items()}


def burst(app, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Queue keys as one read from the terminal does, before the app handles any of them
    (Pilot's ``press`` waits for each key to be handled)."""
    from textual import events

    for key in keys:
        character = CHARACTERS.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))
