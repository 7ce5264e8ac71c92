"""One unit's fire at one target worked out before the d100 (phase eight).

BFP: Basic Firing Percentage from the weapon × armour chart of the firer's profile.
MFP: Modified Firing Percentage (BFP plus the firing modifiers that apply).
FFP: Final Firing Percentage (MFP × figures firing); short range leaves it, medium range
halves it, long range divides it by three. Each full 100% kills one figure; the remainder
is a d100 roll-under (equal scores) for one more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from tracker.rules.base import AtMost, Odds, Params, RuleError, param
from tracker.startup import lazy

from ..later import profiles
from ..numbers import ROUNDINGS, round_remainder
from ..settings import PROFILES, REMAINDER_ROUNDING
from ..tables import RANGES, range_divisor, tables

if TYPE_CHECKING:
    from tracker.core import odds

    from ..profiles import RaceProfile
else:  # imported on first use (tracker.startup): `tracker resolve` needs no icepool
    odds = lazy("tracker.core.odds")


class FireParams(Params):
    actor: str | None = param(None, "firing unit", kind="actor")
    target: str | None = param(None, "target unit", kind="target", unlike="actor")
    bfp: int | None = param(None, "Basic Firing Percentage (default: from the profile sheet)", ge=0)
    mods: tuple[int, ...] = param((), "further modifiers in percent, e.g. -1,3,4")
    named: tuple[str, ...] = param((), "firing modifiers of the profile by key (none: no modifier)")
    figures: int = param(help="figures firing at this target", ge=0,
                         at_most=AtMost("actor", "strength", "figures"))
    range: str = param("auto", "range band (auto: from distance=)", choices=("auto", *RANGES))
    distance: float | None = param(None, "cm to the target (default: not measured)", ge=0)
    race: str | None = param(None, "firer's race on the profile sheet")
    weapon: str | None = param(None, "firer's weapon on the BFP chart")
    armour: str | None = param(None, "target's armour class")
    target_ranks: int = param(1, "ranks of the target (per-rank modifiers)", ge=0)
    target_figures: int | None = param(
        None, "figures of the target still standing (default: no cap)", ge=0
    )
    eligible: int | None = param(None, "figures that may still fire (default: not checked)", ge=0)
    done: str = param("auto", "take the fire order counter off after this fire",
                   choices=("auto", "yes", "no"))
    remainder_rounding: str = param(help="rounding of the remainder for the d100",
                                 choices=ROUNDINGS, setting=REMAINDER_ROUNDING)
    profiles: str = param(help="profile sheet TOML (empty: the sample sheet)", setting=PROFILES)
    actor_name: str | None = param(None, "unit's name for the log (from the encounter)",
                                   name_of="actor")
    target_name: str | None = param(None, "target's name for the log (from the encounter)",
                                    name_of="target")


@dataclass(slots=True)
class Volley:
    """One unit's fire at one target, worked out before the d100."""

    bfp: int
    bfp_source: str
    modifiers: list[tuple[str, int]]
    mfp: int
    figures: int
    ffp: int
    range: str
    divisor: int
    effective: Fraction
    sure_kills: int
    remainder: Fraction
    chance: int
    cap: int | None
    notes: list[str] = field(default_factory=list)

    @property
    def capped(self) -> bool:
        return self.cap is not None and self.sure_kills >= self.cap

    @property
    def rolls_d100(self) -> bool:
        return not self.capped and 0 < self.chance < 100


def _modifiers(p: FireParams, profile: RaceProfile | None) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    named = [n for n in p.named if n.lower() != "none"]
    if named and profile is None:
        raise RuleError("named modifiers need the firer's race= (or give numbers in mods=)")
    for key in named:
        assert profile is not None
        mods.append(profile.modifier(key).label(p.target_ranks))
    mods += [("modifier", v) for v in p.mods]
    return mods


def _bfp(p: FireParams) -> tuple[int, str, RaceProfile | None]:
    """The BFP, where it comes from, and the firer's profile when its race is given."""
    profile = None
    sheet = None
    if p.race:
        sheet = profiles.load_sheet(p.profiles)
        profile = sheet.race(p.race)
        if p.weapon:
            profile.weapon(p.weapon)
    if p.bfp is not None:
        return p.bfp, "given", profile
    if sheet is None or not p.race or not p.weapon or not p.armour:
        raise RuleError("give bfp= or the firer's race= and weapon= and the target's armour=")
    bfp, source = sheet.bfp(p.race, p.weapon, p.armour)
    return bfp, source, profile


def _band(p: FireParams, profile: RaceProfile | None, notes: list[str]) -> str:
    band = p.range
    if p.distance is not None:
        if profile is None or not p.weapon:
            raise RuleError("distance= needs the firer's race= and weapon= for the range bands")
        found = profile.weapon(p.weapon).band(p.distance)
        if band == "auto":
            band = found
        elif band != found:
            notes.append(f"range {band} given, the sheet says {found} at {p.distance:g} cm")
    if band == "auto":
        raise RuleError("give range=short|medium|long, or distance= with race= and weapon=")
    return band


def compute(p: FireParams) -> Volley:
    """Work out the volley (BFP to the d100 chance); RuleError if it may not be fired."""
    bfp, bfp_source, profile = _bfp(p)
    mods = _modifiers(p, profile)
    mfp = bfp + sum(v for _, v in mods)
    if p.figures < 1:
        raise RuleError(f"figures={p.figures}: at least one figure must fire")
    if p.eligible is not None and p.eligible < p.figures:
        raise RuleError(
            f"figures={p.figures}: only {p.eligible} figures can still fire "
            "(ranks for firing, each figure once a turn)"
        )
    ffp = mfp * p.figures
    notes: list[str] = []
    band = _band(p, profile, notes)
    divisor = range_divisor(band)
    effective = Fraction(ffp, divisor)
    if effective < 0:
        notes.append("MFP below zero: no chance to kill")
        effective = Fraction(0)
    per = tables().kills.per
    sure_kills = math.floor(effective / per)
    remainder = effective - per * sure_kills
    chance = round_remainder(remainder, p.remainder_rounding)
    if bfp_source == "sample":
        notes.append("BFP is sample data from the profile sheet")
    return Volley(bfp, bfp_source, mods, mfp, p.figures, ffp, band, divisor, effective,
                  sure_kills, remainder, chance, p.target_figures, notes)


def kills_word(n: int) -> str:
    return f"{n} killed"


def d100_count(p: FireParams) -> int | None:
    """One d100 when a remainder is left to roll for, none otherwise (None: not known)."""
    try:
        return 1 if compute(p).rolls_d100 else 0
    except RuleError:
        return None


def fire_odds(p: FireParams) -> Odds:
    """Exact chance of each number of figures killed."""
    v = compute(p)
    if v.capped:
        return [(kills_word(v.cap or 0), 1.0)]
    miss, kill = odds.binomial(1, Fraction(min(max(v.chance, 0), 100), 100))
    out: Odds = []
    if miss > 0:
        out.append((kills_word(v.sure_kills), miss))
    if kill > 0:
        out.append((kills_word(v.sure_kills + 1), kill))
    return out

