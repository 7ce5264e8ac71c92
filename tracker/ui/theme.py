"""Themes: ``themes/*.toml`` -> a pydantic model -> ``textual.theme.Theme``.

A file that does not validate is skipped with a message; the app then falls back to the
default theme and says so, it never stops.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import tomli
from pydantic import BaseModel, ConfigDict, ValidationError
from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import Theme

from tracker.store import paths

DEFAULT_THEME = "tracker-dark"
SAFE_THEME = "tracker-16"


class ThemeFile(BaseModel):
    """The keys a theme file may hold."""

    model_config = ConfigDict(extra="forbid")

    name: str
    primary: str
    secondary: str | None = None
    accent: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    dark: bool = True
    ansi: bool = False
    variables: dict[str, str] = {}

    def to_theme(self) -> Theme:
        return Theme(**self.model_dump())


def theme_dirs() -> tuple[list[Path], list[str]]:
    """The shipped themes' folder, then the data folder's ``themes/``; a message when
    the install lacks the shipped ones."""
    shipped = paths.themes_dir()
    missing = [] if shipped else ["the shipped themes are missing from this install"]
    dirs = [shipped, paths.data_dir() / "themes"]
    return [d for d in dirs if d is not None and d.is_dir()], missing


def _check_colours(spec: ThemeFile) -> None:
    for key in ("primary", "secondary", "accent", "warning", "error", "success",
                "foreground", "background", "surface", "panel", "boost"):
        value = getattr(spec, key)
        if value is None or value.startswith("ansi_"):
            continue
        try:
            Color.parse(value)
        except ColorParseError:
            raise ValueError(f"{key} = {value!r} is not a colour") from None


def load_theme_file(path: Path) -> Theme:
    """One theme file; ValueError says which file and key is wrong."""
    try:
        data = tomli.loads(path.read_text("utf-8"))
        spec = ThemeFile.model_validate(data)
        _check_colours(spec)
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ValueError(f"{path.name}: {where}: {err['msg']}") from None
    except ValueError as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    return spec.to_theme()


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every theme found, and a message for each file that could not be used."""
    themes: list[Theme] = []
    folders, problems = theme_dirs()
    for folder in folders:
        for path in sorted(folder.glob("*.toml")):
            try:
                themes.append(load_theme_file(path))
            except ValueError as exc:
                problems.append(f"theme {exc}")
    return themes, problems


def few_colours() -> bool:
    """True when the terminal shows 16 colours or fewer (plain xterm, the linux console)."""
    if os.environ.get("COLORTERM") in ("truecolor", "24bit"):
        return False
    term = os.environ.get("TERM", "")
    return term in ("xterm", "linux", "vt100", "vt220", "screen", "ansi", "dumb") or (
        "256" not in term and "direct" not in term and term != ""
    )


def install_themes(app: App[Any], requested: str | None) -> list[str]:
    """Register every theme and switch to the one asked for, or the one that suits the
    terminal; a theme file that is broken or missing falls back. Returns the notices to
    show once the app runs.

    Called from the app's ``__init__``, so the first screen is drawn in this theme.
    Textual's theme watcher applies its colours by parsing the stylesheets once more as
    the app starts (about 10 ms); no public call sets a theme without that."""
    themes, problems = load_themes()
    for theme in themes:
        app.register_theme(theme)
    names = {t.name for t in themes}
    wanted = requested or (SAFE_THEME if few_colours() else DEFAULT_THEME)
    if wanted not in names and wanted not in app.available_themes:
        problems.append(f"theme '{wanted}' not found")
        wanted = DEFAULT_THEME if DEFAULT_THEME in names else "textual-dark"
    app.theme = wanted
    return [f"{problem}; using {wanted}" for problem in problems]


def show_notices(app: App[Any], notices: list[str]) -> None:
    """Theme problems: in the status line where the app has one, else in a notice."""
    set_status = getattr(app, "set_status", None)
    if set_status is not None and notices:
        set_status("; ".join(notices), error=True)
        return
    for notice in notices:
        app.notify(notice, severity="warning", timeout=8)
