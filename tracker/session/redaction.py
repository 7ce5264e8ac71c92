"""What a player may see: the one place that decides what leaves the GM's encounter.

A view is made for a set of *own* sides (one side's player, or none for a spectator):

- hidden combatants and units are not in it, and neither is any text that names them,
  in any case (log lines, the actor of an entry, a condition, an opponent field);
- log entries the GM made secret (``note!``) are not in it;
- the own sides keep their pools, wounds, notes and stats; every other side shows its
  public state only (name, strength, conditions, the fields the table can see). One
  rule, :class:`FieldRule`, says which field of whom a view shows, for the panes and the
  log alike: a log entry is built from its typed changes (its ops), and one that changes
  a field the view may not show is told again from those changes, per viewer: the
  changes it may see as they are ("Grak: now prone"), a wound as only who was touched
  ("Grak: wounded"), a note as "notes changed", and nothing of a stat or a secret field
  (pool dice spent or refreshed stay in the line: the table sees them rolled);
  an entry with nothing left to tell is not in the view at all; an action naming
  someone of another side whose secret fields hold a value (a monster's AC and attack)
  is told by what happened, and someone of another side joining with such values by
  their name and side;
- no entry keeps its ops (the before and after of a change can hold any of the above),
  and the seed of the tracker's dice is not passed on.

Nothing here imports Textual: the SSH and browser views, ``tracker watch`` and the
tests all ask :func:`player_view` (or ``Session.player_view``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from tracker.core.model import Combatant, Encounter, LogEntry, Op, Resolved, Unit
from tracker.core.sequence import sides
from tracker.core.turns import acting_order, current_actor
from tracker.rules.plain.health import WORDS, health_word
from tracker.rules.ruleset import ALWAYS_SECRET

SHOWN = 200
"""The newest applied log entries a view carries (what the log pane draws)."""

HIDDEN_TURN = -1
"""A view's turn index while someone the players cannot see acts."""

FACES = {"wounds": ("wounded", "a wound healed", "wounds changed"),
         "notes": ("notes changed",) * 3}
"""What a line says of a change to another side's hidden field that the table sees
happen (a wound taken, a note written); a change to any other hidden field says nothing."""

HEALTH = ("hp", "max_hp", "temp_hp", "health", "health_max")
"""Hit points (plain's hp, edc's Health): another side's are shown as the
``player_health`` setting says (words by default: unhurt, hurt, bloodied, down, in the
view's conditions and log lines)."""

FULL = {"hp": "max_hp", "health": "health_max"}
"""Each field of hit points, with the one holding its most."""

ROLLED = ("pools",)
"""Another side's fields whose change a line keeps as it was written: pool dice spent and
refreshed are dice the table sees rolled (the panes still do not show the pools)."""


@dataclass(frozen=True)
class FieldRule:
    """Which field of whom a view shows: everything of the own sides; of every other
    side, all but the secret fields, and of its stats only the order stat."""

    own: frozenset[str]
    secret: frozenset[str]
    keep: frozenset[str]
    words: bool = False
    """Another side's hit points are told in words."""
    numbers: frozenset[str] = frozenset()
    """The secret fields the save names beyond those always secret and the hit points
    (``ac``, ``attack``, ``init_bonus`` by default in plain): an action's line may say
    them (a bonus added to a die, a defence hit), so one that names someone of another
    side who has any of them is told from what happened."""

    @classmethod
    def of(cls, enc: Encounter, own: Collection[str], order_stat: str) -> FieldRule:
        health = str(enc.settings.get("player_health", "words"))
        hidden = HEALTH if health != "numbers" else ()
        named = frozenset(enc.secret_fields) - {*ALWAYS_SECRET, *HEALTH}
        return cls(frozenset(own), frozenset({*enc.secret_fields, *ALWAYS_SECRET, *hidden}),
                   frozenset({order_stat}), health == "words", named)

    def shows(self, side: str | None, name: str, key: str | None = None) -> bool:
        """Does the view show field ``name`` (``key`` of it, for stats) of someone of
        ``side``?"""
        if side in self.own:
            return True
        if name == "stats" and key is not None:
            return key in self.keep
        return name not in self.secret


def player_view(
    enc: Encounter, side: str | None, order_stat: str = "initiative", shown: int = SHOWN
) -> Encounter:
    """The encounter as the player of ``side`` sees it (``None``: a spectator)."""
    return redact(enc, () if side is None else (side,), order_stat, shown)


def table_view(enc: Encounter, order_stat: str = "initiative", shown: int = SHOWN) -> Encounter:
    """The shared table screen of ``tracker watch``: every side but the GM's is a player's
    (no ``gm_side`` in the save: no side's details are shown)."""
    return redact(enc, table_sides(enc), order_stat, shown)


def table_sides(enc: Encounter) -> list[str]:
    """The sides whose details the shared table screen shows: every side but the GM's."""
    return [s for s in sides(enc) if s != enc.gm_side] if enc.gm_side else []


def redact(
    enc: Encounter, own: Collection[str], order_stat: str = "initiative", shown: int = SHOWN
) -> Encounter:
    """A copy of ``enc`` with everything the players of the ``own`` sides may not see
    removed. The turn is kept by who holds it: while a hidden combatant acts the view
    marks no one (``position.turn == HIDDEN_TURN``)."""
    rule = FieldRule.of(enc, own, order_stat)
    actor = current_actor(enc, order_stat)
    hidden_ids, tokens, window = _window(enc, rule, shown)
    view = enc.model_copy()  # shallow: every part the view changes is copied below
    view.position = enc.position.model_copy()
    view.settings = dict(enc.settings)
    view.secret_fields = list(enc.secret_fields)
    view.combatants = [c.model_copy(deep=True) for c in enc.combatants if not c.hidden]
    view.units = [u.model_copy(deep=True) for u in enc.units if not u.hidden]
    view.seed = 0
    for who in view.everyone:
        _clear(who, rule)
        if tokens:
            _scrub(who, tokens)
    view.log = window
    view.cursor = len(view.log)
    order = acting_order(view, order_stat)
    view.position.turn = order.index(actor) if actor in order else HIDDEN_TURN
    return view


def visible_log(
    enc: Encounter, own: Collection[str], order_stat: str = "initiative"
) -> list[tuple[int, LogEntry]]:
    """Every applied entry of the whole log that the players of the ``own`` sides may see,
    each with its index in the log, as their view shows it (the battle report for a side).
    An entry the view shows whole also keeps where it stood (phase, turn) and its action's
    record (parameters, odds, dice stages), unless that record names something hidden."""
    rule = FieldRule.of(enc, own, order_stat)
    entries = enc.log[: enc.cursor]
    hidden_ids, tokens = _hidden(enc, entries)
    who = _Who(enc, rule)
    out: list[tuple[int, LogEntry]] = []
    for i, entry in enumerate(entries):
        shown = _entry(entry, rule, hidden_ids, tokens, who)
        if shown is None:
            continue
        shown.phase, shown.side = entry.phase, entry.side
        record = entry.resolved
        if (record is not None and shown.text == entry.text
                and not _names_any(_said(record), tokens)):
            shown.resolved = record
        if entry.parts and shown.text == entry.text:
            shown.parts = [_part(part, tokens) for part in entry.parts]
        out.append((i, shown))
    return out


def _part(part: LogEntry, tokens: list[str]) -> LogEntry:
    """An action the tracker took inside an entry shown whole: shown as it is, without
    its record where that names something hidden."""
    record = part.resolved
    if record is not None and _names_any(_said(record), tokens):
        return part.model_copy(update={"resolved": None})
    return part


def _said(record: Resolved) -> str:
    """The words of an action's record (its values, not its keys)."""
    words = [record.target, record.outcome, record.happened, record.forced,
             *(str(v) for v in record.params.values()), *(label for label, _ in record.odds),
             *(stage.why for stage in record.stages)]
    return " ".join(words)


# --- who and what is hidden ---------------------------------------------------------------


def _hidden(enc: Encounter, window: Iterable[LogEntry]) -> tuple[set[str], list[str]]:
    """Ids of hidden combatants and units (also those that left while hidden, as far as
    the shown entries tell), and the lower-case words that name them."""
    ids: set[str] = set()
    tokens: set[str] = set()
    visible = {x.id for x in enc.everyone if not x.hidden}
    for who in enc.everyone:
        if who.hidden:
            ids.add(who.id)
            tokens.update((who.id.lower(), who.name.lower()))
    for entry in window:
        for op in entry.ops:
            for data in (op.before, op.after):
                if isinstance(data, dict) and data.get("hidden") is True:
                    wid, name = str(data.get("id", "")), str(data.get("name", ""))
                    if wid and wid not in visible:
                        ids.add(wid)
                        tokens.update((wid.lower(), name.lower()))
    return ids, sorted(t for t in tokens if t)


def _window(
    enc: Encounter, rule: FieldRule, shown: int
) -> tuple[set[str], list[str], list[LogEntry]]:
    """The hidden ids and names, and the newest ``shown`` entries the view shows (counted
    among those it shows: an entry it does not show moves nothing in it)."""
    who = _Who(enc, rule)
    start = max(0, enc.cursor - 2 * shown)
    while True:
        hidden_ids, tokens = _hidden(enc, enc.log[start : enc.cursor])
        kept = [e for e in (_entry(e, rule, hidden_ids, tokens, who)
                            for e in enc.log[start : enc.cursor]) if e is not None]
        if len(kept) >= shown or start == 0:
            return hidden_ids, tokens, kept[len(kept) - shown :] if shown else []
        start = 0


def _names_any(text: str, tokens: Iterable[str]) -> bool:
    low = text.lower()
    return any(t in low for t in tokens)


# --- combatants and units -----------------------------------------------------------------


def _clear(who: Combatant | Unit, rule: FieldRule) -> None:
    """The fields the view may not show go back to their defaults."""
    if who.side in rule.own:
        return
    fields = type(who).model_fields
    for points, most in FULL.items():
        word = health_word(getattr(who, points, None), getattr(who, most, None))
        if rule.words and word and points in rule.secret:
            who.conditions = [word, *who.conditions]
    cleared: set[str] = set()
    for name in rule.secret:
        if name not in fields or name in ("id", "name", "side", "hidden"):
            continue
        cleared.add(name)
        if name == "stats" and isinstance(who, Combatant):
            who.stats = {k: v for k, v in who.stats.items() if rule.shows(who.side, name, k)}
            continue
        setattr(who, name, fields[name].get_default(call_default_factory=True))
    if isinstance(who, Combatant):
        who.leave_out(frozenset(cleared))
    for effect in who.effects:
        effect.note = ""


def _scrub(who: Combatant | Unit, tokens: list[str]) -> None:
    """Drop anything in a visible combatant or unit that names a hidden one."""
    fields = type(who).model_fields
    for name in fields:
        if name in ("id", "name"):
            continue
        value = getattr(who, name)
        if isinstance(value, str):
            if _names_any(value, tokens):
                setattr(who, name, fields[name].get_default(call_default_factory=True))
        elif isinstance(value, list):
            kept = [v for v in value if not _names_any(_text(v), tokens)]
            if len(kept) != len(value):
                setattr(who, name, kept)
        elif isinstance(value, dict):
            kept_d = {k: v for k, v in value.items() if not _names_any(f"{k} {v}", tokens)}
            if len(kept_d) != len(value):
                setattr(who, name, kept_d)
        elif isinstance(value, BaseModel) and _names_any(_text(value), tokens):
            setattr(who, name, fields[name].get_default(call_default_factory=True))


def _text(value: Any) -> str:
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return str(value)


# --- log entries --------------------------------------------------------------------------


class _Who:
    """Names and sides by id, of everyone the encounter has; and, by name, those of
    another side whose numbers the view hides (an action naming them is told from what
    happened)."""

    def __init__(self, enc: Encounter, rule: FieldRule) -> None:
        self.side = {x.id: x.side for x in enc.everyone}
        self.name = {x.id: x.name for x in enc.everyone}
        self.full = {(x.id, points): getattr(x, most, None) for x in enc.combatants
                     for points, most in FULL.items()}
        self.secretive = {x.name for x in enc.everyone if x.side not in rule.own
                          and _holds(x.model_dump(), rule.numbers)} if rule.numbers else set()


def _holds(data: dict[str, Any], names: Collection[str]) -> bool:
    """Whether ``data`` (someone's fields) has a value in any field of ``names``."""
    return any(data.get(name) not in (None, "", 0, [], {}) for name in names)


def _named(entry: LogEntry) -> set[str]:
    """Who an action's entry names: its actor, its target and the names among its
    parameters."""
    record = entry.resolved
    if record is None:
        return set()
    values = [entry.actor, record.target, *record.params.values()]
    return {v for value in values for v in (value if isinstance(value, list) else [value])
            if isinstance(v, str)}


def _lead(entry: LogEntry) -> str:
    """An action told from what happened: its words up to the first colon, and its
    outcome (``Goblin 3 attacks Tam: hit``)."""
    record = entry.resolved
    assert record is not None
    return f"{entry.text.split(':', 1)[0]}: {record.happened or record.outcome}"


def _entry(
    entry: LogEntry,
    rule: FieldRule,
    hidden_ids: set[str],
    tokens: list[str],
    who: _Who,
) -> LogEntry | None:
    """The entry as the view shows it, or None when the view shows nothing of it."""
    if entry.secret or _names_any(entry.text, tokens) or _names_any(entry.actor, tokens):
        return None
    told: dict[str, list[str]] = {}
    hidden = bool(_named(entry) & who.secretive)
    for op in entry.ops:
        path = op.path
        if not path or path[0] not in ("combatants", "units"):
            continue
        if len(path) == 1:  # someone joins: the line may list what with (from the bestiary)
            data = op.after if op.op == "add" and isinstance(op.after, dict) else {}
            joined = str(data.get("side", ""))
            if data and joined not in rule.own and _holds(data, rule.secret - set(ROLLED)):
                hidden = True
                told.setdefault(str(data.get("name", "")), []).append(f"joins ({joined})")
            continue
        wid = str(path[1])
        if wid in hidden_ids:
            return None
        if len(path) < 3:
            continue  # someone coming or going: the line says so, and they are visible
        name = str(path[2])
        key = str(path[3]) if name == "stats" and len(path) > 3 else None
        side = who.side.get(wid)
        words = told.setdefault(who.name.get(wid, wid), [])
        if rule.shows(side, name, key) or name in ROLLED:
            words += _change(op, name, key)
            continue
        hidden = True
        if name == "stats" and key is None and _only_kept(op, rule):
            continue
        if name in FULL and rule.words and isinstance(op.after, int):
            words.append(health_word(op.after, who.full.get((wid, name))))
        face = FACES.get(name)
        if face is not None:
            word = face[0] if op.op == "add" and len(path) == 3 else (
                face[1] if op.op == "remove" and len(path) == 3 else face[2])
            words.append(word)
    if not hidden:
        return LogEntry(text=entry.text, kind=entry.kind, round=entry.round,
                        actor=entry.actor, rolls=list(entry.rolls))
    said = {name: list(dict.fromkeys(_health_said(words))) for name, words in told.items()
            if words}
    lines = [_lead(entry)] if _named(entry) & who.secretive else []
    lines += [f"{name}: {', '.join(words)}" for name, words in said.items()]
    if not lines:
        return None
    return LogEntry(text="; ".join(lines), kind=entry.kind, round=entry.round,
                    actor=entry.actor)


def _health_said(words: list[str]) -> list[str]:
    """Health in words says what going out of the fight (or back) would."""
    if not set(words) & set(WORDS):
        return words
    return [w for w in words if w not in ("out yes", "out no")]


def _only_kept(op: Op, rule: FieldRule) -> bool:
    """A whole stats table set where only the stats the view shows differ."""
    before = op.before if isinstance(op.before, dict) else {}
    after = op.after if isinstance(op.after, dict) else {}
    changed = {k for k in {*before, *after} if before.get(k) != after.get(k)}
    return changed <= rule.keep


def _change(op: Op, name: str, key: str | None) -> list[str]:
    """A change the view may see, in the words of a `set` line."""
    if len(op.path) > 4 or (len(op.path) == 4 and key is None):
        return []
    if name == "conditions" and isinstance(op.before, list) and isinstance(op.after, list):
        return ([f"now {c}" for c in op.after if c not in op.before]
                + [f"no longer {c}" for c in op.before if c not in op.after])
    if op.op != "set" or isinstance(op.after, (dict, list)):
        return []
    return [f"{key or name} {_value(op.after)}"]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
