"""View choices kept between starts: the theme, the roster's sort and filter.

The GM's are kept in ``prefs.toml`` in the user's config folder (platformdirs;
``TRACKER_CONFIG`` names another folder, and with ``TRACKER_HOME`` set they live there,
beside the encounters): :class:`FilePrefs`. A player view's are its own and live as
long as it does (:class:`ViewPrefs`): a view writes nothing. A file that cannot be read
or written is not worth an error at the table: what it holds that does not read is
left out, and :attr:`FilePrefs.problem` says what, in one line (file, key, expected).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol, runtime_checkable

import tomli
import tomli_w
from platformdirs import user_config_dir
from pydantic import BaseModel, ConfigDict, ValidationError

from tracker.store.fs import write_private

FILE = "prefs.toml"


class Prefs(BaseModel):
    """The choices kept; any other key of the file is left alone."""

    model_config = ConfigDict(extra="ignore", strict=True)
    theme: str | None = None
    roster_sort: str | None = None
    roster_filter: str | None = None


KEYS = tuple(Prefs.model_fields)


def config_dir() -> Path:
    override = os.environ.get("TRACKER_CONFIG") or os.environ.get("TRACKER_HOME")
    if override:
        return Path(override).expanduser()
    return Path(user_config_dir("tracker", appauthor=False))


class ViewPrefs:
    """Choices that live in the view that made them."""

    def __init__(self) -> None:
        self.prefs = Prefs()

    def get(self, key: str) -> str | None:
        value = getattr(self.prefs, key, None)
        return value if isinstance(value, str) else None

    def remember(self, **values: str) -> bool:
        self.prefs = self.prefs.model_copy(update={k: v for k, v in values.items()
                                                   if k in KEYS})
        return True


class FilePrefs(ViewPrefs):
    """Choices kept in ``prefs.toml``, read again at each look (another tracker of the
    same user may have changed them)."""

    def __init__(self) -> None:
        super().__init__()
        self.problem = ""

    @property
    def path(self) -> Path:
        return config_dir() / FILE

    def load(self) -> Prefs:
        """The preferences saved so far (those that read; see :attr:`problem`)."""
        self.problem = ""
        try:
            data = tomli.loads(self.path.read_text("utf-8"))
        except FileNotFoundError:
            return Prefs()
        except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
            self.problem = f"{self.path}: a readable TOML file ({exc})"
            return Prefs()
        known = {k: v for k, v in data.items() if k in KEYS}
        try:
            return Prefs.model_validate(known)
        except ValidationError as exc:
            err = exc.errors()[0]
            key = ".".join(str(p) for p in err["loc"])
            self.problem = f"{self.path} at {key}: text in quotes, found {err['input']!r}"
            return Prefs.model_validate({k: v for k, v in known.items()
                                         if isinstance(v, str)})

    def get(self, key: str) -> str | None:
        self.prefs = self.load()
        return super().get(key)

    def remember(self, **values: str) -> bool:
        """Keep these preferences (with the others already saved); False if it could not."""
        self.prefs = self.load()
        super().remember(**values)
        text = tomli_w.dumps(self.prefs.model_dump(exclude_none=True))
        try:
            write_private(self.path, text.encode("utf-8"))
        except OSError:
            return False
        return True


@runtime_checkable
class HasPrefs(Protocol):
    """An app that keeps its view choices its own way."""

    prefs: ViewPrefs


def of(app: object) -> ViewPrefs:
    """Where ``app``'s choices are kept: its own, or else the user's file."""
    return app.prefs if isinstance(app, HasPrefs) else FilePrefs()


def get(key: str) -> str | None:
    """A choice kept in the user's file."""
    return FilePrefs().get(key)


def load() -> dict[str, str]:
    """The choices kept in the user's file."""
    return FilePrefs().load().model_dump(exclude_none=True)


def remember(**values: str) -> bool:
    """Keep these choices in the user's file; False if it could not."""
    return FilePrefs().remember(**values)
