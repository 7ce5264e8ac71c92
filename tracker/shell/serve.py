"""``tracker serve``: the table over SSH and in a browser."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from tracker.session.opening import working_copy
from tracker.shell.errors import UsageError
from tracker.shell.saves import load_save
from tracker.table.access import Access, AccessError, Role, read_access
from tracker.table.serve import Options, parse_address, serve


def cmd_serve(ns: argparse.Namespace) -> int:
    if not ns.ssh and not ns.web:
        raise UsageError("serve: say where: --ssh [HOST:]PORT and/or --web [HOST:]PORT")
    if ns.ssh and not ns.access:
        raise UsageError("serve --ssh needs --access ACCESS.toml (public keys by role)")
    if ns.max_sessions < 1:
        raise UsageError(f"--max-sessions {ns.max_sessions}: expected 1 or more")
    if not ns.keepalive > 0:
        raise UsageError(f"--keepalive {ns.keepalive}: expected a number of seconds above 0")
    path, notice = working_copy(Path(ns.file))
    enc = load_save(str(path))
    if notice:
        print(f"tracker: {notice}", file=sys.stderr)
    try:
        ssh = parse_address(ns.ssh) if ns.ssh else None
        web = parse_address(ns.web) if ns.web else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if web is not None and importlib.util.find_spec("textual_serve") is None:
        raise UsageError("serve --web needs textual-serve: pip install -e '.[serve]'")
    try:
        if ns.access:
            access = read_access(ns.access)
        else:
            access = Access(Path("-"))
            for side in sorted({x.side for x in enc.everyone}):
                access.roles[f"side:{side}"] = Role("side", side)
    except AccessError as exc:
        raise UsageError(str(exc)) from None
    opts = Options(path.resolve(), access, ssh, web, ns.web_gm, ns.max_sessions, ns.keepalive)
    return serve(opts)
