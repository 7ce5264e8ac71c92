"""``tracker serve``: the table over SSH and in a browser. The shell reads the
arguments and the files they name (the encounters, the access files) into the server's
options; the server (:mod:`tracker.table.serve`) knows no argparse and opens no save."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

from tracker.core.model import Encounter
from tracker.core.words import digits
from tracker.session.opening import working_copy
from tracker.shell.errors import UsageError
from tracker.shell.saves import load_save
from tracker.table.access import Access, AccessError, Role, read_access
from tracker.table.club import read_club
from tracker.table.serve import Options, Served, ServeError, parse_address, serve
from tracker.table.table import Limits


def cmd_serve(ns: argparse.Namespace) -> int:
    try:
        opts = options(ns, load_save)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return serve(opts)


def options(ns: argparse.Namespace, load: Callable[[str], Encounter]) -> Options:
    """The server's options from `tracker serve`'s arguments, every file read and checked
    (``load`` reads an encounter, with the CLI's one-line error)."""
    if not ns.ssh and not ns.web:
        raise ServeError("serve: say where: --ssh [HOST:]PORT and/or --web [HOST:]PORT")
    if ns.max_sessions < 1:
        raise ServeError(f"--max-sessions {ns.max_sessions}: expected 1 or more")
    if ns.max_per_key < 1:
        raise ServeError(f"--max-per-key {ns.max_per_key}: expected 1 or more")
    if not ns.keepalive > 0:
        raise ServeError(f"--keepalive {ns.keepalive}: expected a number of seconds above 0")
    cols, _, rows = ns.max_size.lower().partition("x")
    if not (digits(cols) and digits(rows) and int(cols) >= 20 and int(rows) >= 10):
        raise ServeError(f"--max-size {ns.max_size}: expected COLSxROWS, at least 20x10, "
                         "e.g. 500x200")
    limits = Limits(ns.max_sessions, ns.max_per_key, int(cols), int(rows))
    try:
        ssh = parse_address(ns.ssh) if ns.ssh else None
        web = parse_address(ns.web) if ns.web else None
    except ValueError as exc:
        raise ServeError(str(exc)) from None
    if web is not None and importlib.util.find_spec("textual_serve") is None:
        raise ServeError("serve --web needs textual-serve: pip install -e '.[serve]'")
    target = Path(ns.file)
    try:
        if target.is_dir():
            if ns.access:
                raise ServeError(f"serve {target}: a folder's encounters each have their "
                                 "access file beside them (NAME.access.toml); no --access")
            served = [Served(save.resolve(), access, _sides(load(str(save))))
                      for save, access in read_club(target)]
            if not served:
                raise ServeError(f"serve {target}: no encounter there has an access file "
                                 "beside it (NAME.access.toml for NAME.toml)")
        else:
            served = [_one(target, ns.access, ssh is not None, load)]
    except AccessError as exc:
        raise ServeError(str(exc)) from None
    return Options(served, ssh, web, ns.web_gm, limits, ns.keepalive)


def _one(target: Path, access_file: str | None, ssh: bool,
         load: Callable[[str], Encounter]) -> Served:
    if ssh and not access_file:
        raise ServeError("serve --ssh needs --access ACCESS.toml (public keys by role)")
    path, notice = working_copy(target)
    sides = _sides(load(str(path)))
    if notice:
        print(f"tracker: {notice}", file=sys.stderr)
    if access_file:
        access = read_access(access_file)
    else:  # the browser only: a role for each side of the encounter
        access = Access(Path("-"), {f"side:{side}": Role("side", side) for side in sides})
    return Served(path.resolve(), access, sides)


def _sides(enc: Encounter) -> set[str]:
    return {x.side for x in enc.everyone}


