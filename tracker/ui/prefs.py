"""The GM's view choices kept between starts: the theme, the roster's sort and filter.

They live in ``prefs.toml`` in the user's config folder (platformdirs;
``TRACKER_CONFIG`` names another folder, and with ``TRACKER_HOME`` set they live there,
beside the encounters). A file that cannot be read or written is ignored: a preference
is never worth an error at the table.
"""

from __future__ import annotations

import os
from pathlib import Path

import tomli
import tomli_w

FILE = "prefs.toml"
KEYS = ("theme", "roster_sort", "roster_filter")


def config_dir() -> Path:
    override = os.environ.get("TRACKER_CONFIG") or os.environ.get("TRACKER_HOME")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("tracker", appauthor=False))


def load() -> dict[str, str]:
    """The preferences saved so far (only known keys with text values)."""
    try:
        data = tomli.loads((config_dir() / FILE).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
        return {}
    return {k: v for k, v in data.items() if k in KEYS and isinstance(v, str)}


def get(key: str) -> str | None:
    return load().get(key)


def remember(**values: str) -> bool:
    """Keep these preferences (with the others already saved); False if it could not."""
    prefs = load()
    prefs.update({k: v for k, v in values.items() if k in KEYS})
    folder = config_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = folder / f".{FILE}.tmp"
        tmp.write_text(tomli_w.dumps(prefs), "utf-8")
        os.replace(tmp, folder / FILE)
    except OSError:
        return False
    return True
