"""Forms to add and edit combatants and units, and the ruleset's settings."""

from __future__ import annotations

from typing import Any

from tracker.core.model import Combatant, Unit
from tracker.rules.base import Setting
from tracker.session import bestiary, commands
from tracker.session.commands import Add, Command, CommandError, Set, parse_pairs
from tracker.session.session import Session
from tracker.ui.screens.form import Field, FormScreen, Submit, show_value

SKIP = {"id", "stats", "pools", "wounds", "effects", "conditions", "notes"}
FIRST = ("name", "side", "initiative", "kind", "strength", "strength_start")


def _scalar_fields(model: type[Any]) -> list[str]:
    names = []
    for name, info in model.model_fields.items():
        if name in SKIP or name in getattr(model, "kept", {}):
            continue
        text = str(info.annotation)
        if any(t in text for t in ("list", "dict", "tuple", "BaseModel")) or (
            isinstance(info.annotation, type) and issubclass(info.annotation, (Combatant, Unit))
        ):
            continue
        if hasattr(info.annotation, "model_fields"):
            continue
        names.append(name)
    return sorted(names, key=lambda n: (FIRST.index(n) if n in FIRST else len(FIRST), 0))


def table_fields(model: type[Any], kind: str, order_stat: str = "initiative") -> list[str]:
    """The fields an add form shows first: name, side, strength (or the acting order's
    value), then the ruleset's own fields a GM fills in at the table (its model's
    ``table_fields``, else every field the ruleset adds)."""
    base = Unit if kind == "unit" else Combatant
    scalar = _scalar_fields(model)
    own = getattr(model, "table_fields", None)
    if own is None:
        own = [n for n in scalar if n not in base.model_fields]
    first = ["name", "side", "strength" if kind == "unit" else order_stat]
    return [n for n in first if n in scalar] + [n for n in own if n in scalar
                                                  and n not in first]


def _pairs(text: str) -> dict[str, str]:
    """``reflex=5 toughness=4`` as typed in a stats field, read by the command parser."""
    try:
        return parse_pairs(text)
    except CommandError as exc:
        raise ValueError(str(exc)) from None


def add_form(session: Session, kind: str, submit: Submit) -> FormScreen:
    model = session.ruleset.unit_model if kind == "unit" else session.ruleset.combatant_model
    defaults = model.model_construct()
    fields = [Field("name", "", "required")]
    sides = [x.side for x in session.enc.everyone]
    first = table_fields(model, kind, session.ruleset.order_stat)
    rest = [n for n in _scalar_fields(model) if n not in first]
    # most additions join a side already on the table
    side = sides[0] if sides else show_value(getattr(defaults, "side", ""))
    for name in [*first, *rest]:
        if name == "name":
            continue
        value = side if name == "side" else show_value(getattr(defaults, name, ""))
        fields.append(Field(name, value, "", more=name not in first))
    if kind == "combatant":
        fields.append(Field("stats", "", "e.g. reflex=5 toughness=4", label="other stats",
                            more=True))
    def build(values: dict[str, str]) -> Command:
        name = values.pop("name", "")
        if not name:
            raise ValueError("a name is required")
        params = _pairs(values.pop("stats", ""))
        params.update({k: v for k, v in values.items()
                       if v != show_value(getattr(defaults, k, "")) or k == "side"})
        if params.get("side") == side and _own_side(session, kind, name):
            del params["side"]  # the side offered, untouched: the creature's own stands
        return Add("unit" if kind == "unit" else "combatant", name, params)

    return FormScreen(f"Add a {kind}", fields, build, submit,
                      hint="only changed fields are sent; the rules check every value")


def _own_side(session: Session, kind: str, name: str) -> bool:
    """Whether a combatant of this name joins from the bestiary with a side of its own."""
    if kind != "combatant" or "hp" not in session.ruleset.combatant_model.model_fields:
        return False
    found, _ = bestiary.creature(name, session.path)
    return found is not None and "side" in found


def edit_form(session: Session, kind: str, key: str, submit: Submit) -> FormScreen:
    enc = session.enc
    who: Combatant | Unit = enc.find_combatant(key) if kind == "combatant" else enc.find_unit(key)
    model = type(who)
    first = table_fields(model, kind, session.ruleset.order_stat)
    defaults = model.model_construct()
    fields = []
    for n in [*first, *(n for n in _scalar_fields(model) if n not in first)]:
        value = show_value(getattr(who, n))
        if n in getattr(model, "names_another", ()):  # the one it names, as shown
            value = next((c.name for c in enc.combatants if c.id == value), value)
        # what the table set, and anything that differs from a fresh one, shows at once
        more = n not in first and value == show_value(getattr(defaults, n, None))
        fields.append(Field(n, value, more=more))
    if isinstance(who, Combatant):
        stats = " ".join(f"{k}={v}" for k, v in who.stats.items())
        fields.append(Field("stats", stats, "name=value ...", label="other stats",
                            more=not stats))
        fields.append(Field("conditions", " ".join(who.conditions), "+prone -stunned",
                            label="conditions"))
    before = {f.name: f.value for f in fields}

    def build(values: dict[str, str]) -> Command:
        params: dict[str, str] = {}
        marks: list[str] = []
        for k, v in values.items():
            if v == before.get(k):
                continue
            if k == "stats":
                params.update(_pairs(v))
            elif k == "conditions":
                old, new = set(before[k].split()), set(v.split())
                marks += [f"+{c}" for c in sorted(new - old)]
                marks += [f"-{c}" for c in sorted(old - new)]
            else:
                params[k] = v
        if not marks and not params:
            raise ValueError("nothing changed")
        return Set(who.id, params, marks)

    return FormScreen(f"Edit {who.name}", fields, build, submit)


def setting_help(setting: Setting) -> str:
    """What a setting decides, its choices and its default, for the settings dialog."""
    text = setting.help
    if setting.choices and not all(choice in text for choice in setting.choices):
        text += f" ({' | '.join(setting.choices)})"
    return f"{text}; default {show_value(setting.default) or 'blank'}"


def settings_form(session: Session, submit: Submit) -> FormScreen:
    rs = session.ruleset
    fields = [
        Field(s.name, show_value(s.of(session.enc)), s.help[:70],
              help=setting_help(s))
        for s in rs.settings
    ]
    before = {f.name: f.value for f in fields}

    def build(values: dict[str, str]) -> Command:
        changed = {k: v for k, v in values.items() if v != before[k]}
        if not changed:
            raise ValueError("nothing changed")
        return commands.Setting(changed)

    return FormScreen(f"{rs.name}: settings", fields, build, submit,
                      hint="rule decisions the text leaves open; each has a default")
