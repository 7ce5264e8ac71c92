"""The tracker uses its libraries through their public API: no private module of Textual,
Rich, tomli-w or textual-serve is imported, and none of the Textual internals the
tracker once reached into is named, anywhere but in ``tracker/ui/workarounds.py``
(where each use links the upstream issue that makes it necessary)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACKER = ROOT / "tracker"
WORKAROUNDS = TRACKER / "ui" / "workarounds.py"
LIBRARIES = ("textual", "rich", "tomli_w", "textual_serve")
INTERNALS = re.compile(
    r"textual\._|_data_table|tomli_w\._|_render_cell|_update_dimensions|def _on_key"
    r"|_refresh_truecolor_filter|_get_styles_to_render_cell|_row_locations"
    r"|_cell_render_cache|\._bindings\b")
"""Textual and tomli-w internals the tracker once used."""


def modules() -> list[Path]:
    return sorted(p for p in TRACKER.rglob("*.py") if p != WORKAROUNDS)


def private_imports(path: Path) -> list[str]:
    """``from textual._x import y``, ``from tomli_w import _x``, ``import rich._x``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] in LIBRARIES and any(p.startswith("_") for p in parts[1:]):
                found.append(f"{path.name}:{node.lineno} {name}")
    return found


def test_no_private_module_of_a_library_is_imported() -> None:
    assert [hit for path in modules() for hit in private_imports(path)] == []


def test_no_textual_internal_is_named() -> None:
    hits = [f"{path.relative_to(TRACKER)}:{n} {line.strip()}"
            for path in modules()
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
            if INTERNALS.search(line)]
    assert hits == []


def test_the_checks_would_catch_what_the_tracker_once_did(tmp_path: Path) -> None:
    old = tmp_path / "old.py"
    old.write_text("from textual.widgets._data_table import RowKey\n"
                   "from tomli_w import _writer\nimport textual._types\n", "utf-8")
    assert len(private_imports(old)) == 3
    assert INTERNALS.search("    app._refresh_truecolor_filter(app.ansi_theme)")
    assert INTERNALS.search("        bindings = self._bindings.key_to_bindings.get(key)")
    assert not INTERNALS.search("    def on_key(self, event: events.Key) -> None:")
