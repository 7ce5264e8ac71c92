"""The status line: what the last command did or why it was refused, on up to two lines.

A message that needs more is shown as far as two lines hold it, to the last whole word,
with the key that opens it whole (``m``): never cut in the middle of a word, never with
an ellipsis that hides the end of a refusal.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

LINES = 2
"""The status line's height at most."""
MORE = " (m: the whole message)"


def lines_of(text: str, width: int) -> int:
    """The lines ``text`` takes wrapped at word boundaries to ``width`` cells."""
    if width <= 0:
        return 1
    console = Console(width=width, legacy_windows=False)
    return sum(len(Text(part).wrap(console, width)) or 1 for part in text.split("\n"))


def fit(message: str, width: int) -> tuple[str, bool]:
    """What the status line shows of ``message`` at ``width`` cells, and whether that is
    the whole of it."""
    if lines_of(message, width) <= LINES:
        return message, True
    words = message.replace("\n", " ").split(" ")
    low, high = 0, len(words)
    while low < high:  # the most words that fit with the hint after them
        mid = (low + high + 1) // 2
        if lines_of(" ".join(words[:mid]) + MORE, width) <= LINES:
            low = mid
        else:
            high = mid - 1
    head = " ".join(words[:low]).rstrip(" ,;:")
    return head + MORE, False
