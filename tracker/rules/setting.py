"""A rule decision the text leaves open: a named setting with its default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from tracker.core.domains import Domain
from tracker.rules.errors import RuleError

if TYPE_CHECKING:
    from tracker.core.model import Encounter

Scalar = int | float | str | bool
_N = TypeVar("_N", int, float)

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
    domain: Domain | None = None
    """The numbers a whole-number setting may hold (a pace of at least 1 cm)."""
    kept: str = ""
    """Kept in the encounter's own list of this name (shown comma separated), not among
    its settings: ``secret_fields``."""
    implied: tuple[str, ...] = ()
    """Names such a list holds in effect whatever it says: neither shown nor kept."""
    names_side: bool = False
    """The value names a side of the encounter (or is empty): :meth:`named` checks it."""

    def of(self, enc: Encounter) -> Scalar:
        """The encounter's value of this setting: its default until the GM changes it."""
        if self.kept:
            return ",".join(self.listed(getattr(enc, self.kept)))
        return self.among(enc.settings)

    def listed(self, names: list[str]) -> list[str]:
        """What a kept list says beyond its implied names."""
        return [n for n in names if n not in self.implied]

    def among(self, settings: Mapping[str, Scalar]) -> Scalar:
        """Its value among an encounter's ``settings`` (its default where they lack it)."""
        return settings.get(self.name, self.default)

    def parse(self, raw: str) -> Scalar:
        d = self.default
        if isinstance(d, bool):
            low = raw.lower()
            if low not in _TRUE | _FALSE:
                raise RuleError(f"setting {self.name}: '{raw}' is not yes or no")
            return low in _TRUE
        if isinstance(d, int):
            return self._within(self._number(int, raw), raw)
        if isinstance(d, float):
            return self._number(float, raw)
        if self.choices and raw not in self.choices:
            raise RuleError(f"setting {self.name}: expected one of {', '.join(self.choices)}")
        if self.check is not None:
            self.check(raw)
        return raw

    def named(self, enc: Encounter, value: Scalar) -> Scalar:
        """``value`` as the encounter has it, where the setting names a side: the side
        as it is spelled (any case typed); RuleError naming the sides there are."""
        if not self.names_side or value == "":
            return value
        have: list[str] = []
        for who in enc.everyone:
            if who.side not in have:
                have.append(who.side)
        found = next((s for s in have if s.casefold() == str(value).casefold()), None)
        if found is None:
            listed = (have[0] if len(have) == 1 else
                      f"{', '.join(have[:-1])} or {have[-1]}") if have else ""
            raise RuleError(f"{self.name}={value}: " + (f"name {listed}, or leave it empty"
                                                        if have else "no sides yet: leave it "
                                                        "empty"))
        return found

    def _number(self, kind: Callable[[str], _N], raw: str) -> _N:
        try:
            return kind(raw)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise RuleError(f"setting {self.name}: '{raw}' is not {what}") from None

    def _within(self, value: int, raw: str) -> int:
        if self.domain is not None and not self.domain.allows(value):
            raise RuleError(f"{self.name}={raw}: {self.domain.words()}")
        return value
