"""Values typed for the encounter, read and checked against their domains in one place.

``set``, ``add``, ``army``, ``wound`` and ``effect`` (and the forms, which send ``add``
and ``set``) read what the GM typed here: pydantic reads the text as the field's type
and checks the domain each field declares (:mod:`tracker.core.domains`); a value
outside it is refused in one line naming the field, the value and what is allowed
(``armour=9: Warmaster armour is 3 to 6 (a save of 3+ to 6+), or none``), and nothing
is changed.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tracker.core import sequence as seqs
from tracker.core.domains import checking
from tracker.core.invalid import first, shown
from tracker.core.words import plural
from tracker.rules.errors import RuleError
from tracker.session.language import CommandError
from tracker.session.play import Play
from tracker.store.paths import safe_child

if TYPE_CHECKING:
    from tracker.core.model import Combatant, Encounter, Unit
    from tracker.rules.ruleset import Ruleset

M = TypeVar("M", bound=BaseModel)

NONE_WORDS = frozenset({"none", "null", "-"})
BOOL_WORDS = frozenset({"yes", "no", "y", "n", "on", "off", "true", "false"})


def typed_text(model: type[BaseModel], key: str, raw: str) -> Any:
    """A field's text as pydantic is to read it: ``none`` where the field may be None,
    yes/no in lower case; anything else as typed."""
    info = model.model_fields[key]
    low = raw.strip().lower()
    if low in NONE_WORDS and type(None) in get_args(info.annotation):
        return None
    if low in BOOL_WORDS and info.annotation is bool:
        return low
    return raw.strip()


def checked(model: type[M], data: Mapping[str, Any], typed: Mapping[str, str],
            fields: Collection[str] | Literal["*"] = "*",
            settings: Mapping[str, Any] | None = None) -> M:
    """``data`` as a ``model``, the domains of ``fields`` checked (against the encounter's
    ``settings``, where one names what a field may be); CommandError names the first
    value that does not fit (as the GM typed it, from ``typed``)."""
    try:
        return model.model_validate(dict(data), context=checking(fields, settings))
    except ValidationError as exc:
        raise CommandError(refusal(exc, typed)) from None


def changed(who: M, typed: Mapping[str, str],
            settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The values ``typed`` (field: text) gives ``who``'s fields, each read and checked
    as the whole record would be with them: field: value."""
    model = type(who)
    values = {k: typed_text(model, k, v) for k, v in typed.items()}
    record = checked(model, {**who.model_dump(), **values}, typed, fields=list(values),
                     settings=settings)
    return {k: getattr(record, k) for k in values}


def nested(who: BaseModel, head: str, typed: Mapping[str, str]) -> BaseModel:
    """What a field holding a record (a HârnMaster weapon) becomes with some of its own
    fields typed (``weapon.br=180``), each read and checked against its domain; a field
    left empty takes the record's defaults."""
    info = type(who).model_fields[head]
    sub = next((a for a in (info.annotation, *get_args(info.annotation))
                if isinstance(a, type) and issubclass(a, BaseModel)), None)
    if sub is None:
        raise CommandError(f"{head}.{next(iter(typed))}: {head} has no fields of its own")
    unknown = [k for k in typed if k not in sub.model_fields]
    if unknown:
        raise CommandError(f"{head} has no field '{unknown[0]}' (fields: "
                           f"{', '.join(sub.model_fields)})")
    current = getattr(who, head)
    base = current.model_dump() if isinstance(current, BaseModel) else {}
    values = {k: typed_text(sub, k, v) for k, v in typed.items()}
    try:
        return sub.model_validate({**base, **values}, context=checking(list(values)))
    except ValidationError as exc:
        raise CommandError(f"{head}.{refusal(exc, typed)}") from None


def another(enc: Encounter, who: str | None, model: type[BaseModel],
            values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each field that names another combatant (the model's
    ``names_another``) read as that combatant's id: its name as shown, in any case, or its
    id; blank names no one. A value naming no one else is refused in one line naming who
    can be picked (``who``: the id of the one the value is for, not among them)."""
    out = dict(values)
    others = [c for c in enc.combatants if c.id != who]
    for key in getattr(model, "names_another", ()):
        raw = str(out.get(key, "")).strip()
        if key not in out or not raw:
            continue
        found = next((c for c in others if c.id == raw), None) or next(
            (c for c in others if c.name.casefold() == raw.casefold()), None)
        if found is None:
            raise CommandError(f"{key}={raw}: {_pick(others)}")
        out[key] = found.id
    return out


def _pick(others: list[Combatant]) -> str:
    """Who a field naming another combatant may name, in words."""
    if not others:
        return "leave it blank (no one else is in the encounter)"
    names = [c.name for c in others]
    if len(names) > 6:
        names = [*names[:5], f"{len(names) - 5} more"]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"name {listed}, or leave it blank"


def misnamed(enc: Encounter) -> list[str]:
    """Each field naming another combatant that names no one else in the encounter (a hand
    edit may leave one), in a refusal's words."""
    out: list[str] = []
    for who in enc.combatants:
        others = [c for c in enc.combatants if c.id != who.id]
        for key in type(who).names_another:
            value = str(getattr(who, key, "") or "")
            if value and all(c.id != value for c in others):
                ids = ", ".join(c.id for c in others) or "none"
                out.append(f"{who.name}: {key}={value}: must be the id of another combatant "
                           f"({ids}), or empty")
        for key in type(who).notes_on_others:
            for note in getattr(who, key):
                if all(c.id != note.id for c in others):
                    ids = ", ".join(c.id for c in others) or "none"
                    out.append(f"{who.name}: {key} id={note.id}: must be the id of another "
                               f"combatant ({ids})")
    return out


STAT_PREFIX = "stats."


def stat_name(model: type[BaseModel], key: str) -> str:
    """The stat of its own a combatant is given by a name that is none of its fields
    (``reflex=5`` in plain, ``str=16``). ``stats.NAME`` names one outright; a name that
    is a near miss of a field (``archry`` for ``archery``) is refused naming the field,
    since a slip would otherwise be kept as a stat that nothing reads."""
    if key.startswith(STAT_PREFIX):
        name = key[len(STAT_PREFIX):].strip()
        if not name or "." in name:
            raise CommandError(f"{key}: a stat needs a name of its own (stats.str=16)")
        return name
    fields = [f for f in model.model_fields if f not in _NOT_A_FIELD]
    near = difflib.get_close_matches(key, fields, n=1, cutoff=0.75)
    if near:
        raise CommandError(f"{key}: no field of that name; did you mean {near[0]}? (a stat "
                           f"of your own by that name: {STAT_PREFIX}{key}=…)")
    if "." in key:  # a record's part where there is no such record
        head = key.partition(".")[0]
        raise CommandError(f"{key}: no field {head} (a stat of your own: "
                           f"{STAT_PREFIX}{key.replace('.', '_')}=…)")
    return key


_NOT_A_FIELD = frozenset({"id", "stats", "pools", "wounds", "effects", "conditions"})
"""Fields no one names with ``name=value`` (a stat's near miss is not one of them)."""


def not_kept(model: type[BaseModel], typed: Mapping[str, str]) -> None:
    """Refuse a field the tracker keeps for itself (the model's ``kept``), naming what
    keeps it: ``last_action=dance: kept by the tracker (...); not set by hand``."""
    kept: Mapping[str, str] = getattr(model, "kept", {})
    for key, raw in typed.items():
        if key.partition(".")[0] in kept:
            raise CommandError(f"{key}={raw}: kept by the tracker ({kept[key.partition('.')[0]]}"
                               "); not set by hand")


def out_of_domain(enc: Encounter, settings: Mapping[str, Any] | None = None) -> list[str]:
    """Each combatant's or unit's first value outside its domain, in a refusal's words
    (``Wood elf guards: strength=40: must be at most strength_start (10)``): a save is
    read without the domain checks, so a hand edit or an older tracker may have left
    one."""
    return [f"{who.name}: {problem}" for who in enc.everyone
            if (problem := outside(who, settings))]


def outside(who: Combatant | Unit, settings: Mapping[str, Any] | None = None) -> str:
    """``who``'s first value outside its domain, in a refusal's words
    (``spanned=yes: only a crossbow is spanned``); "" where every value is inside."""
    try:
        type(who).model_validate(who.model_dump(), context=checking(settings=settings))
    except ValidationError as exc:
        return refusal(exc, {})
    return ""


def file_settings(enc: Encounter, ruleset: Ruleset, folder: Path) -> dict[str, Any]:
    """The encounter's settings as a domain that depends on one reads them: a setting
    that names a file (a profile sheet) as that file in the save's ``folder``, as the
    actions read it (one outside the folder is left out, and so not checked against)."""
    out = dict(enc.settings)
    for spec in ruleset.settings:
        if spec.path and out.get(spec.name):
            try:
                out[spec.name] = str(safe_child(folder, str(out[spec.name])))
            except ValueError:
                del out[spec.name]
    return out


def still_fit(enc: Encounter, keys: Collection[str], typed: Mapping[str, str],
              settings: Mapping[str, Any]) -> None:
    """CommandError unless every unit still fits the settings just changed (``keys``),
    where a setting names what some of its fields may be (``profiles``: the races)."""
    for who in enc.units:
        fields = [f for key in keys for f in type(who).by_setting.get(key, ())]
        if not fields:
            continue
        try:
            type(who).model_validate(who.model_dump(),
                                     context=checking(fields, settings=settings))
        except ValidationError as exc:
            key = next(k for k in keys if type(who).by_setting.get(k))
            raise CommandError(f"{key}={typed[key]}: {who.name} no longer fits: "
                               f"{refusal(exc, {})}") from None


def side_notes(enc: Encounter) -> list[str]:
    """What ``tracker check`` notes of a save without refusing it: a ``gm_side`` that no
    one in the encounter is on (a typo, or a side whose last member left), since the
    shared table screen then shows every side's details."""
    if not enc.gm_side:
        return []
    present = seqs.sides(enc)
    if enc.gm_side in present:
        return []
    near = [s for s in present if s.casefold() == enc.gm_side.casefold()]
    hint = f"; did you mean {near[0]}?" if near else ""
    listed = ", ".join(present) or "none"
    return [f"gm_side={enc.gm_side}: no one in the encounter is on that side (sides: {listed})"
            f"{hint}; the shared table screen shows every side's details"]


def out_of_place(enc: Encounter, ruleset: Ruleset) -> list[str]:
    """What a hand edit left that the tracker could not have written, in a refusal's
    words: a place in the fight that is none, one id on two, an effect ending on the turn
    of someone the encounter does not have, a setting its rule cannot use."""
    out = [f"position.{key}={value}: must be at least {low}"
           for key, low in (("round", 1), ("turn", 0), ("phase", 0), ("side", 0))
           if (value := getattr(enc.position, key)) < low]
    out += beyond(enc, ruleset)
    out += misnamed(enc)
    seen: dict[str, str] = {}
    lists: tuple[tuple[str, list[Combatant | Unit]], ...] = (
        ("combatants", [*enc.combatants]), ("units", [*enc.units]))
    for kind, items in lists:
        for i, who in enumerate(items):
            if who.id in seen:
                out.append(f"{kind}[{i}].id={who.id}: the id of {seen[who.id]} as well "
                           "(each needs its own)")
            seen.setdefault(who.id, who.name)
    holders = set(seen) | {s for x in enc.everyone for s in (x.side, f"side:{x.side}")}
    holders |= {f"group:{c.group}" for c in enc.combatants if c.group}
    for who in enc.everyone:
        for i, e in enumerate(who.effects):
            if e.ends is not None and e.ends.of == "turn" and e.ends.who \
                    and e.ends.who not in holders:
                out.append(f"{who.name}: effects[{i}:{e.name}].ends.who={e.ends.who}: no "
                           "combatant, unit, group or side of the encounter")
    for key, value in enc.settings.items():
        shown_value = shown(value)
        try:
            spec = ruleset.setting_spec(key)
            named = spec.named(enc, spec.parse(shown_value if not isinstance(value, bool)
                                               else str(value)))
            if spec.names_side and named != value:
                raise RuleError(f"{key}={shown_value}: the side is spelled {named}")
        except (RuleError, KeyError, LookupError) as exc:
            said = str(exc).split(": ", 1)[-1] if ": " in str(exc) else str(exc)
            out.append(f"settings.{key}={shown_value}: {said}")
    return out


def beyond(enc: Encounter, ruleset: Ruleset) -> list[str]:
    """A phase, a side's turn or a turn past the last there is (the tracker would read
    it as the last one, or as no one acting): each with the most it may be."""
    pos, seq = enc.position, ruleset.sequence
    if seq is None or min(pos.phase, pos.side, pos.turn) < 0:
        return []
    out: list[str] = []
    phases = len(seq.phases)
    if pos.phase >= phases:
        out.append(f"position.phase={pos.phase}: must be at most {phases - 1} "
                   f"({ruleset.id} has {plural(phases, 'phase')})")
    everyone = seqs.sides(enc)
    if seq.turns_by != "side" and pos.side > 0:
        out.append(f"position.side={pos.side}: must be 0 (in {ruleset.id} the sides do "
                   "not take turns)")
    elif everyone and pos.side >= len(everyone):
        out.append(f"position.side={pos.side}: must be at most {len(everyone) - 1} "
                   f"(the encounter has {plural(len(everyone), 'side')})")
    order = Play(enc, ruleset).order()
    if order and pos.turn > len(order):
        out.append(f"position.turn={pos.turn}: must be at most {len(order)} "
                   f"({plural(len(order), 'turn')} in the order; {len(order)}: all taken)")
    return out


def refusal(exc: ValidationError, typed: Mapping[str, str]) -> str:
    """``key=value: what is allowed`` for the first error of ``exc``."""
    found = first(exc, bools="yes or no")
    if not found.loc:
        return found.expected
    name = str(found.loc[0])
    value = typed.get(name, shown(found.value)) if len(found.loc) == 1 else shown(found.value)
    return f"{found.key}={value}: {found.expected}"


class EffectOptions(BaseModel):
    """What ``effect NAME EFFECT`` takes after its words."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rounds: int = Field(0, ge=0)
    """Rounds it lasts, this one included (0: no round limit)."""
    turn: bool = False
    """It ends as its bearer's next turn starts (or ends)."""
    until: str = ""
    """It ends as this one's next turn starts (or ends)."""
    at: Literal["start", "end"] = "start"


def effect_options(typed: Mapping[str, str]) -> EffectOptions:
    """The options of an ``effect`` command, read and checked."""
    values = {k: v.strip().lower() if k in ("turn", "at") else v for k, v in typed.items()}
    try:
        return EffectOptions.model_validate(values)
    except ValidationError as exc:
        raise CommandError(refusal(exc, typed)) from None
