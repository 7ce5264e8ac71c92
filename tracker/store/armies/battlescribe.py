"""BattleScribe (and New Recruit) files: rosters (``.ros``) and catalogues (``.cat``).

A roster is XML in the roster schema: ``<roster>`` holds ``<forces>``, each force its
``<selections>``; a selected unit carries copies of its profiles (a profile of type
"Unit" with its characteristics) and a ``number``. A catalogue, in the catalogue schema,
lists ``<selectionEntry>`` elements (also under ``<sharedSelectionEntries>``, and linked
from ``<entryLinks>``) whose profiles are inline or ``<infoLink>`` s to
``<sharedProfiles>``.

XML is parsed by the standard library's expat parser with any document type
declaration refused: no DTD, so no entity can be declared, expanded or fetched.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from .files import ArmyError

ROSTER_NS = "http://www.battlescribe.net/schema/rosterSchema"
CATALOGUE_NS = "http://www.battlescribe.net/schema/catalogueSchema"
SCHEMAS = {
    ROSTER_NS: "the roster schema",
    CATALOGUE_NS: "the catalogue schema",
    "http://www.battlescribe.net/schema/gameSystemSchema": "the game system schema",
    "http://www.battlescribe.net/schema/dataIndexSchema": "the data index schema",
}
UNIT_ENTRY_TYPES = ("unit", "model")
"""Selection types that are bodies of troops; "upgrade" entries ride on a unit."""


@dataclass
class Entry:
    """A unit read from a roster or catalogue, before its profile becomes fields."""

    name: str
    where: str
    """The element it came from, for messages: ``selection 'Halberdiers'``."""
    characteristics: dict[str, str]
    profile_type: str = "Unit"
    count: int = 1
    side: str = ""
    upgrades: list[str] = field(default_factory=list)
    """Names of selections chosen on the unit (magic items, extra stands) not applied."""


@dataclass
class Read:
    """What a roster or catalogue holds: its name, its units and what is not a unit."""

    name: str
    entries: list[Entry]
    others: list[str] = field(default_factory=list)
    """Selections that are not units (characters ...), as "General (Character)"."""


class _NoDoctype(ET.TreeBuilder):
    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise ArmyError("", "DOCTYPE", "no document type declaration (no DTD or entities)")


def parse_xml(file: str, data: bytes) -> ET.Element:
    """The root element of ``data``; one ArmyError line for anything that is not XML."""
    parser = ET.XMLParser(target=_NoDoctype())
    try:
        parser.feed(data)
        return parser.close()
    except ArmyError as exc:
        raise ArmyError(file, exc.where, exc.expected) from None
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise ArmyError(file, f"line {line}, column {col}", f"well-formed XML ({reason})") from None
    except (ValueError, LookupError, RecursionError, MemoryError) as exc:
        raise ArmyError(file, "", f"XML the parser can read ({type(exc).__name__})") from None


def _split(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        ns, _, local = tag[1:].partition("}")
        return ns, local
    return "", tag


def check_root(file: str, root: ET.Element, ns: str, local: str, what: str) -> None:
    got_ns, got_local = _split(root.tag)
    if (got_ns, got_local) == (ns, local):
        return
    found = f"<{got_local}>" + (f" of {SCHEMAS[got_ns]}" if got_ns in SCHEMAS
                                else f" in namespace {got_ns or '(none)'}")
    raise ArmyError(file, f"<{got_local}>", f"{what} (<{local}> in {SCHEMAS[ns]}), found {found}")


def _kids(el: ET.Element, ns: str, *path: str) -> list[ET.Element]:
    """Children along ``path`` (``"selections", "selection"``), in the file's order."""
    found = [el]
    for step in path:
        found = [k for f in found for k in f if k.tag == f"{{{ns}}}{step}"]
    return found


def _characteristics(profile: ET.Element, ns: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for ch in _kids(profile, ns, "characteristics", "characteristic"):
        name = (ch.get("name") or "").strip()
        if name:
            out[name] = (ch.text or "").strip()
    return out


def _is_unit_profile(profile: ET.Element) -> bool:
    return (profile.get("typeName") or "").strip().casefold() == "unit"


# --- rosters ------------------------------------------------------------------------------


def read_roster(file: str, data: bytes) -> Read:
    root = parse_xml(file, data)
    check_root(file, root, ROSTER_NS, "roster", "a BattleScribe roster")
    ns = ROSTER_NS
    forces = _forces(root, ns)
    if not forces:
        raise ArmyError(file, "<roster>/<forces>", "at least one <force> with its selections")
    read = Read(name=root.get("name") or file, entries=[])
    for force in forces:
        side = force.get("catalogueName") or force.get("name") or ""
        for sel in _kids(force, ns, "selections", "selection"):
            _roster_selection(file, sel, ns, side, read)
    if not read.entries:
        only = f" (found only {', '.join(read.others[:5])})" if read.others else ""
        raise ArmyError(file, "<selections>", f"at least one selected unit{only}")
    return read


def _forces(root: ET.Element, ns: str) -> list[ET.Element]:
    out: list[ET.Element] = []
    todo = _kids(root, ns, "forces", "force")
    while todo:
        force = todo.pop(0)
        out.append(force)
        todo[:0] = _kids(force, ns, "forces", "force")
    return out


def _roster_selection(file: str, sel: ET.Element, ns: str, side: str, read: Read) -> None:
    name = (sel.get("name") or "").strip()
    where = f"selection '{name}'"
    if not name:
        raise ArmyError(file, "<selection>", "a name= on every selection")
    profiles = _kids(sel, ns, "profiles", "profile")
    chosen = next((p for p in profiles if _is_unit_profile(p)), None)
    inner = _kids(sel, ns, "selections", "selection")
    used: ET.Element | None = None
    if chosen is None:
        # a unit whose stats sit on the models inside it (as some game systems do)
        for kid in inner:
            found = next((p for p in _kids(kid, ns, "profiles", "profile")
                          if _is_unit_profile(p)), None)
            if found is not None:
                chosen, used = found, kid
                break
    if chosen is None and (sel.get("type") or "") == "unit" and profiles:
        chosen = profiles[0]
    if chosen is None:
        kind = profiles[0].get("typeName") if profiles else None
        read.others.append(f"{name} ({kind})" if kind else name)
        return
    raw = (sel.get("number") or "1").strip()
    try:
        count = int(float(raw))
    except ValueError:
        count = 0
    if count < 1 or count != float(raw):
        raise ArmyError(file, where, f"number= a whole number from 1, found {raw!r}")
    read.entries.append(Entry(
        name=name,
        where=where,
        characteristics=_characteristics(chosen, ns),
        profile_type=chosen.get("typeName") or "",
        count=count,
        side=side,
        upgrades=[k.get("name") or "?" for k in inner if k is not used],
    ))


# --- catalogues ---------------------------------------------------------------------------


@dataclass
class Catalogue:
    name: str
    entries: dict[str, Entry]
    """Units by name, casefolded."""
    not_units: dict[str, str]
    """Entries that cannot be taken as units, by casefolded name: why not."""


def read_catalogue(file: str, data: bytes) -> Catalogue:
    root = parse_xml(file, data)
    check_root(file, root, CATALOGUE_NS, "catalogue", "a BattleScribe catalogue")
    ns = CATALOGUE_NS
    shared_profiles = {p.get("id"): p for p in _kids(root, ns, "sharedProfiles", "profile")}
    shared = {e.get("id"): e for e in _kids(root, ns, "sharedSelectionEntries", "selectionEntry")}
    top = _kids(root, ns, "selectionEntries", "selectionEntry")
    for link in _kids(root, ns, "entryLinks", "entryLink"):
        target = shared.get(link.get("targetId"))
        if target is not None and target not in top:
            top.append(target)
    side = root.get("name") or file
    cat = Catalogue(name=side, entries={}, not_units={})
    for entry in [*top, *(e for e in shared.values() if e not in top)]:
        name = (entry.get("name") or "").strip()
        if not name:
            continue
        profiles = _kids(entry, ns, "profiles", "profile") + [
            shared_profiles[link.get("targetId")]
            for link in _kids(entry, ns, "infoLinks", "infoLink")
            if link.get("type") == "profile" and link.get("targetId") in shared_profiles
        ]
        kind = (entry.get("type") or "").strip()
        unit_profile = next((p for p in profiles if _is_unit_profile(p)), None)
        key = name.casefold()
        if kind not in UNIT_ENTRY_TYPES:
            cat.not_units.setdefault(key, f"an {kind or 'entry'} that rides on a unit")
        elif unit_profile is None:
            found = profiles[0].get("typeName") if profiles else None
            cat.not_units.setdefault(
                key, f"a {found}" if found else "no profile in this catalogue")
        elif key not in cat.entries:
            cat.entries[key] = Entry(
                name=name,
                where=f"selectionEntry '{name}'",
                characteristics=_characteristics(unit_profile, ns),
                profile_type=unit_profile.get("typeName") or "",
                side=side,
            )
    if not cat.entries:
        raise ArmyError(file, "<selectionEntries>", "at least one unit entry with a Unit profile")
    return cat


def pick(file: str, cat: Catalogue, picks: list[tuple[str, int]]) -> list[Entry]:
    """The catalogue's units named on the command line, each with its count."""
    out: list[Entry] = []
    names = ", ".join(e.name for e in cat.entries.values())
    for wanted, count in picks:
        key = wanted.strip().casefold()
        entry = cat.entries.get(key)
        if entry is None:
            hits = [e for k, e in cat.entries.items() if k.startswith(key)] if key else []
            if len(hits) == 1:
                entry = hits[0]
            elif key in cat.not_units:
                raise ArmyError(file, f"selectionEntry '{wanted}'",
                                f"a unit, found {cat.not_units[key]}")
            elif hits:
                raise ArmyError(file, "", f"one unit named '{wanted}', found "
                                f"{', '.join(h.name for h in hits)}")
            else:
                raise ArmyError(file, "", f"a unit named '{wanted}' (units: {names})")
        out.append(Entry(entry.name, entry.where, dict(entry.characteristics),
                         entry.profile_type, count, entry.side))
    return out
