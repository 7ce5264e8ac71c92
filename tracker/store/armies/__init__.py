"""Army lists a GM adds to an encounter in one step, from the files players already have.

- the tracker's own TOML lists (``saves/armies/*.toml``);
- BattleScribe / New Recruit rosters: ``.ros`` (XML in the roster schema) or ``.rosz``
  (a zip holding one ``.ros``), every selected unit with its count and profile;
- BattleScribe catalogues (``.cat``, ``.catz``) with the units to take named by the GM
  (``Halberdiers=2 Crossbowmen``).

:func:`read_army` reads the whole file and checks every unit against the ruleset's unit
model, each value in its domain, before anything is added: a file that does not read
gives one line (file, element, what was expected). What a profile does not give is
filled from the ruleset's own defaults where its text has them (Warmaster: the pace of
the unit's type) and named for the GM to set where it has none. :func:`find_army` finds
a file where a GM keeps them, and :func:`keep_beside` keeps a copy in the ``armies/``
folder beside the save (which the save listings skip).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tracker.core.domains import checking
from tracker.core.invalid import first, shown
from tracker.core.model import Scalar, Unit

from .. import fs
from ..paths import samples_dir
from . import battlescribe
from .files import ArmyError, read_bytes, unzip_one
from .profiles import map_profile
from .toml_list import looks_like_army_list, read_toml_list

__all__ = ["ARMIES_DIR", "Army", "ArmyError", "find_army", "keep_beside", "looks_like_army_list",
           "parse_picks", "read_army", "unique_names"]

ARMIES_DIR = "armies"
"""The folder beside the encounters where army lists are kept."""
SUFFIXES = (".toml", ".ros", ".rosz", ".cat", ".catz")
MAX_COUNT = 100
"""The most units of one name taken from a catalogue in one go."""


@dataclass
class Army:
    """An army file read whole: units ready to add (plain data, no ids) and what was not
    taken from it."""

    file: Path
    data: bytes
    """The bytes read, for the copy kept beside the save."""
    name: str
    units: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    """What was not mapped or not read, in words, for the command's message."""

    @property
    def sides(self) -> list[str]:
        return sorted({u["side"] for u in self.units})


def _check_kind(path: Path) -> None:
    """ArmyError unless ``path`` names a kind of file an army is read from."""
    if path.suffix.lower() not in SUFFIXES:
        raise ArmyError(path.name, "", "a .toml army list, a .ros/.rosz roster or a .cat catalogue")


# --- reading ------------------------------------------------------------------------------


def read_army(
    path: Path,
    model: type[Unit],
    side: str | None = None,
    picks: Sequence[tuple[str, int]] = (),
    settings: Mapping[str, Scalar] | None = None,
) -> Army:
    """Read an army file for ``model`` (the ruleset's unit model, its defaults from the
    encounter's ``settings``); ArmyError if it does not read whole."""
    file = path.name
    ready = _Arrival(model, settings or {})
    suffix = path.suffix.lower()
    _check_kind(path)
    if picks and suffix not in (".cat", ".catz"):
        raise ArmyError(file, "", "no unit names (they pick units from a catalogue, .cat)")
    data = read_bytes(path)
    if suffix == ".toml":
        return ready.noted(_from_toml(path, data, ready, side))
    if suffix in (".rosz", ".catz"):
        inner = (".ros",) if suffix == ".rosz" else (".cat",)
        body = unzip_one(file, data, inner)
    else:
        body = data
    if suffix in (".ros", ".rosz"):
        read = battlescribe.read_roster(file, body)
        entries, others = read.entries, read.others
        name = read.name
    else:
        cat = battlescribe.read_catalogue(file, body)
        if not picks:
            names = ", ".join(e.name for e in list(cat.entries.values())[:8])
            raise ArmyError(file, "", f"the units to take, e.g. {_example(cat)} (units: {names})")
        entries, others = battlescribe.pick(file, cat, list(picks)), []
        name = cat.name
    return ready.noted(_from_entries(path, data, name, entries, others, ready, side))


def _example(cat: battlescribe.Catalogue) -> str:
    first = next(iter(cat.entries.values())).name
    return f"{first}=2" if " " not in first else f"\"{first}\"=2"


@dataclass
class _Arrival:
    """Units made ready as they are read: what the ruleset's text gives filled in, each
    checked against the unit model; what is still to be asked for, kept by unit."""

    model: type[Unit]
    settings: Mapping[str, Scalar]
    asked: dict[str, list[str]] = field(default_factory=dict)

    def check(self, file: str, where: str, item: dict[str, Any]) -> None:
        for what in self.model.arrive(item, self.settings):
            self.asked.setdefault(what, []).append(item["name"])
        _check(file, where, item, self.model, self.settings)

    def noted(self, army: Army) -> Army:
        army.notes += [f"set {what} for {', '.join(dict.fromkeys(names))}"
                       for what, names in self.asked.items()]
        return army


def _check(file: str, where: str, item: dict[str, Any], model: type[Unit],
           settings: Mapping[str, Scalar] | None = None) -> None:
    """ArmyError unless ``item`` is a unit of ``model``, every value in its domain (against
    the encounter's ``settings``, where one names what a field may be)."""
    try:
        model.model_validate({**item, "id": "check"}, context=checking(settings=settings))
    except ValidationError as exc:
        found = first(exc)
        said = found.expected
        if found.loc and not (found.missing or found.unknown):
            said = f"{shown(found.value)}: {said}"
        key = found.key
        raise ArmyError(file, f"{where}.{key}" if key else where, said) from None


def _from_toml(path: Path, data: bytes, ready: _Arrival, side: str | None) -> Army:
    file = path.name
    name, units, default_side = read_toml_list(file, data)
    for i, item in enumerate(units):
        item.setdefault("side", side or default_side or "army")
        if side:
            item["side"] = side
        ready.check(file, f"units[{i}:{item['name']}]", item)
    return Army(path, data, name, units)


def _from_entries(
    path: Path,
    data: bytes,
    name: str,
    entries: list[battlescribe.Entry],
    others: list[str],
    ready: _Arrival,
    side: str | None,
) -> Army:
    file = path.name
    units: list[dict[str, Any]] = []
    unread: list[str] = []
    unmapped: dict[str, None] = {}
    upgrades: list[str] = []
    for entry in entries:
        mapped = map_profile(entry.characteristics, ready.model)
        unread += [f"{entry.name} {u}" for u in mapped.unread]
        unmapped.update(dict.fromkeys(mapped.unmapped))
        upgrades += [f"{u} ({entry.name})" for u in entry.upgrades]
        item = {"name": entry.name, "side": side or entry.side or "army", **mapped.fields}
        ready.check(file, entry.where, item)
        units.extend(dict(item) for _ in range(entry.count))
    army = Army(path, data, name, units)
    if unread:
        army.notes.append("not read: " + "; ".join(dict.fromkeys(unread)))
    if unmapped:
        army.notes.append("no field for: " + ", ".join(unmapped))
    if upgrades:
        army.notes.append("upgrades not applied: " + ", ".join(dict.fromkeys(upgrades)))
    if others:
        army.notes.append("not units: " + ", ".join(others))
    return army


def parse_picks(words: Iterable[str]) -> list[tuple[str, int]]:
    """``Halberdiers=2``, ``Crossbowmen`` (one), ``"Steam Tank"=1``: names and counts."""
    picks: list[tuple[str, int]] = []
    for word in words:
        name, eq, raw = word.rpartition("=")
        if not eq:
            name, raw = word, "1"
        name = name.strip()
        if not name:
            raise ArmyError(word, "", "a unit name before =")
        if not re.fullmatch(r"\d+", raw.strip()) or not 1 <= int(raw) <= MAX_COUNT:
            raise ArmyError(word, "", f"a count from 1 to {MAX_COUNT} after the name")
        picks.append((name, int(raw)))
    return picks


def unique_names(units: list[dict[str, Any]], taken: Iterable[str]) -> None:
    """Number units that share a name, so each can be named in a command: two Halberdiers
    become Halberdiers 1 and Halberdiers 2, or Halberdiers 2 and 3 when the encounter has
    Halberdiers already."""
    used = {n.casefold() for n in taken}
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit["name"].casefold()] = counts.get(unit["name"].casefold(), 0) + 1
    for unit in units:
        base = unit["name"]
        if counts[base.casefold()] == 1 and base.casefold() not in used:
            used.add(base.casefold())
            continue
        n = 2 if base.casefold() in used else 1  # the unit already there is the first
        while f"{base} {n}".casefold() in used:
            n += 1
        unit["name"] = f"{base} {n}"
        used.add(unit["name"].casefold())


# --- where army lists are kept ------------------------------------------------------------


def shipped_armies() -> Path | None:
    """The shipped army lists (``saves/armies/``), when the install has them."""
    folder = samples_dir()
    return folder / ARMIES_DIR if folder is not None else None


def find_army(name: str, save: Path | None, cwd: Path | None = None) -> Path:
    """The army file ``name`` means: as given (relative to the current folder), then in
    the save's folder and its ``armies/``, then in the shipped ``saves/armies/``."""
    if not name.strip():
        raise ArmyError("army", "", "a file name")
    given = Path(name).expanduser()
    _check_kind(given)  # the kind first: a wrong kind is refused wherever it is
    if given.is_absolute():
        return given
    here = cwd if cwd is not None else Path.cwd()
    places = [here / given]
    if save is not None:
        places += [save.parent / given, save.parent / ARMIES_DIR / given]
    shipped = shipped_armies()
    if shipped is not None:
        places += [shipped / given, shipped / given.name]
    for place in places:
        if place.exists() or place.is_symlink():
            return place
    looked = "the current folder" + (", the save's folder and its armies/" if save else "")
    raise ArmyError(name, "", f"no such file (looked in {looked} and the shipped saves/armies/)")


def keep_beside(army: Army, save: Path) -> Path | None:
    """Keep a copy of the army file in ``armies/`` beside the save: the path of the new
    copy, or None when it is there already. Another file of that name is never
    overwritten: the copy takes the next free name."""
    folder = save.parent / ARMIES_DIR
    try:
        if army.file.resolve().parent == folder.resolve():
            return None
    except OSError:
        pass
    fs.ensure_folder(folder, f"{ARMIES_DIR}/")
    stem, suffix = army.file.stem, army.file.suffix
    target, n = folder / army.file.name, 2
    while True:
        if fs.exists(target):
            try:
                if fs.read_regular(target) == army.data:
                    return None
            except OSError:
                pass
        else:
            try:
                fs.write_new(target, army.data)  # 0600, never over a file made meanwhile
                return target
            except FileExistsError:
                pass
        target, n = folder / f"{stem}-{n}{suffix}", n + 1
