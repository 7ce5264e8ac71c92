"""A rule decision the text leaves open: a named setting with its default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tracker.rules.errors import RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter

Scalar = int | float | str | bool

_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"0", "false", "no", "n", "off"}


@dataclass(frozen=True, slots=True)
class Setting:
    """A rule decision the text leaves open, with its default; the GM sees and sets it."""

    name: str
    default: Scalar
    help: str
    choices: tuple[str, ...] = ()
    path: bool = False
    """A file named by the encounter: resolved inside the save's folder, never outside."""
    check: Callable[[str], object] | None = None
    """Reads the value as the rule that uses it does: RuleError saying what it takes."""

    def of(self, enc: Encounter) -> Scalar:
        """The encounter's value of this setting: its default until the GM changes it."""
        return self.among(enc.settings)

    def among(self, settings: Mapping[str, Scalar]) -> Scalar:
        """Its value among an encounter's ``settings`` (its default where they lack it)."""
        return settings.get(self.name, self.default)

    def parse(self, raw: str) -> Scalar:
        d = self.default
        try:
            if isinstance(d, bool):
                low = raw.lower()
                if low in _TRUE | _FALSE:
                    return low in _TRUE
                raise ValueError
            if isinstance(d, int):
                return int(raw)
            if isinstance(d, float):
                return float(raw)
        except ValueError:
            raise RuleError(f"setting {self.name}: '{raw}' is not a {type(d).__name__}") from None
        if self.choices and raw not in self.choices:
            raise RuleError(f"setting {self.name}: expected one of {', '.join(self.choices)}")
        if self.check is not None:
            self.check(raw)
        return raw
