"""How a command from the shell fails: one line on stderr, and its exit status."""

from __future__ import annotations

import sys


class UsageError(Exception):
    """A bad request from the shell: printed as one line, exit status 2."""


def fail(message: str, code: int = 2) -> int:
    print(f"tracker: {message}", file=sys.stderr)
    return code
