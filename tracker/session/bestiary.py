"""Who joins with ``add combatant``: a creature of the bestiary by name, and monsters by
the dozen (``count=6``: Goblin 1 to Goblin 6).

A bestiary is a TOML file of creatures, each a table of the fields and stats a
combatant joins with (``[Goblin]`` with ``hp = 7``, ``ac = 15``, ``attack = "+4 1d6+2"``):
``bestiary.toml`` beside the save is read first, then the shipped ``saves/bestiary.toml``.
What the GM types wins over what the bestiary says. A bestiary that does not read is
skipped, and the message says why.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tracker.core.model import Encounter
from tracker.core.words import digits
from tracker.rules.plain.domains import COUNT
from tracker.session.language import CommandError, whole
from tracker.store.fs import read_regular
from tracker.store.paths import samples_dir

FILE = "bestiary.toml"
LARGEST = 1 << 20
"""A bestiary larger than this (1 MiB) is not read."""


@dataclass(slots=True)
class Joining:
    """Who joins: their names, the fields and stats they join with (as typed), and what
    the message adds (a creature found, a bestiary skipped)."""

    names: list[str]
    params: dict[str, str]
    said: list[str] = field(default_factory=list)


def places(save: Path | None) -> list[Path]:
    """The bestiaries looked in, first first."""
    shipped = samples_dir()
    found = [*([save.parent / FILE] if save is not None else []),
             *([shipped / FILE] if shipped is not None else [])]
    return list({p.resolve(): p for p in reversed(found)}.values())[::-1]


def read(path: Path) -> dict[str, dict[str, Any]]:
    """A bestiary's creatures by name; ValueError says what does not read."""
    try:
        data = tomllib.loads(read_regular(path, LARGEST).decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(getattr(exc, "strerror", None) or str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"not valid TOML ({exc})") from None
    for name, creature in data.items():
        if not isinstance(creature, dict):
            raise ValueError(f"{name}: expected a table of fields ([{name}] with hp = 7 ...)")
        for key, value in creature.items():
            if not isinstance(value, (int, str, bool)):
                raise ValueError(f"{name}.{key}: expected a number, a word or yes/no")
    return data


def creature(name: str, save: Path | None) -> tuple[dict[str, str] | None, list[str]]:
    """The fields (as typed) of the creature ``name`` in the first bestiary that has it,
    and what to say of those that do not read."""
    said: list[str] = []
    for path in places(save):
        if not path.exists() and not path.is_symlink():
            continue
        try:
            creatures = read(path)
        except ValueError as exc:
            said.append(f"{path.name} skipped: {exc}")
            continue
        found = next((c for n, c in creatures.items() if n.lower() == name.lower()), None)
        if found is not None:
            return {k.lower(): _text(v) for k, v in found.items()}, said
    return None, said


def joining(enc: Encounter, name: str, params: dict[str, str], save: Path | None,
            creatures: bool = True) -> Joining:
    """Who ``add combatant NAME [count=N] [field=value ...]`` brings in; the bestiary is
    looked in where ``creatures`` (combatants with hit points: plain's)."""
    params = dict(params)
    count = whole("count", params.pop("count", "1"))
    if not COUNT.allows(count):
        raise CommandError(f"count={count}: {COUNT.words()}")
    found, said = creature(name, save) if creatures else (None, [])
    if found is not None:
        taken = {k: v for k, v in found.items() if k not in params}
        params = {**found, **params}
        if taken:  # what was typed stands: only what the bestiary gave is named
            said.insert(0, f"from the bestiary: {', '.join(f'{k}={v}' for k, v in taken.items())}")
    if count == 1:
        return Joining([enc.free_name(name)], params, said)
    params.setdefault("group", name)  # they act together where group_initiative says so
    return Joining(numbered(enc, name, count), params, said)


def numbered(enc: Encounter, name: str, count: int) -> list[str]:
    """``Goblin 1`` to ``Goblin 6``, going on after any Goblin N already there."""
    head = f"{name.lower()} "
    there = [int(x.name[len(head):]) for x in enc.everyone
             if x.name.lower().startswith(head) and digits(x.name[len(head):])]
    first = max(there, default=0) + 1
    return [f"{name} {n}" for n in range(first, first + count)]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
