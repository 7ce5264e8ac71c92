"""The `tracker` command: read the arguments, then carry out the command asked for.

Each command lives in a module of ``tracker.shell``, imported only when it runs (see
``tracker.startup``): ``tracker resolve`` answers fast, with neither argparse nor Textual,
and works where there is no terminal.
"""

from __future__ import annotations

import os
import sys

from tracker import startup

SUBCOMMANDS = (
    "open", "new", "list", "check", "exec", "resolve", "replay", "watch", "restore", "serve",
    "army", "repair", "report", "completion",
)

OPEN_FLAGS = ("--theme", "--take-over", "--read-only")
"""Options of ``open`` that may come first: ``tracker --take-over FILE``."""


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `tracker resolve ... | head`: the reader left, that is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] not in SUBCOMMANDS and args[0] not in ("-h", "--help", "--version"):
        if not args[0].startswith("-") or args[0].split("=")[0] in OPEN_FLAGS:
            args.insert(0, "open")
    if not args:
        args = ["open"]
    if args[0] == "resolve":  # before argparse: `tracker resolve` starts light
        return startup.command("tracker.shell.resolve:main")(args[1:])
    return startup.command("tracker.shell.parser:run")(args)


if __name__ == "__main__":
    raise SystemExit(main())
