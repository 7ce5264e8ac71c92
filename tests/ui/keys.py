"""Typing text into the app through Pilot, one key at a time, as a GM types."""

from __future__ import annotations

KEY_NAMES = {" ": "space", ",": "comma"}


def keys_for(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def type_text(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*keys_for(text))
