"""``tracker report``: the battle report, read from the save and its journal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tracker.core.sequence import sides
from tracker.report.render import render
from tracker.shell.errors import UsageError
from tracker.shell.saves import load_save
from tracker.store.fs import write_private


def cmd_report(ns: argparse.Namespace) -> int:
    fmt = ns.format
    if fmt is None and ns.out:
        fmt = {".csv": "csv", ".json": "json"}.get(Path(ns.out).suffix.lower(), "md")
    enc = load_save(ns.file)
    side = ns.side
    if side is not None:
        known = sides(enc)
        match = [s for s in known if s.lower() == side.lower()]
        if not match:
            raise UsageError(f"--side {side}: no such side in {Path(ns.file).name} "
                             f"(sides: {', '.join(known) or 'none'})")
        side = match[0]
    text = render(enc, fmt or "md", side)
    if not ns.out:
        sys.stdout.write(text)
        return 0
    out = Path(ns.out)
    if out.is_dir() or ns.out.endswith(("/", os.sep)):  # a folder: the report goes into it
        out = out / f"{Path(ns.file).stem}-report.{fmt or 'md'}"
    if out.resolve() == Path(ns.file).resolve():
        raise UsageError(f"--out {ns.out}: that is the save itself; not written")
    write_private(out, text.encode("utf-8"))  # 0600, never through a link planted there
    print(f"{out}: the {fmt or 'md'} report of {enc.name}")
    return 0
