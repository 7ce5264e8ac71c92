"""History: every change is a log entry of reversible ops; undo, redo and replay walk it.

A :class:`Transaction` applies each op as it is made (so later steps of an action see
the state the earlier ones left), and either commits them as one log entry or rolls
them all back. Ops carry both the value before and after, so an entry can be undone
after a restart, and the state at the start of the log can be rebuilt by undoing
everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter

from .dice import Roll
from .model import Combatant, Encounter, Jump, LogEntry, Op, Resolved, RollRecord, Unit


class HistoryError(RuntimeError):
    """An op does not fit the encounter (a bad path, a stale log)."""


# --- walking paths -----------------------------------------------------------------------


def _child(obj: Any, seg: str | int) -> Any:
    if isinstance(obj, BaseModel):
        if not isinstance(seg, str) or seg not in type(obj).model_fields:
            raise HistoryError(f"no field '{seg}' on {type(obj).__name__}")
        return getattr(obj, seg)
    if isinstance(obj, list):
        return obj[_list_index(obj, seg)]
    if isinstance(obj, dict):
        if seg not in obj:
            raise HistoryError(f"no key '{seg}'")
        return obj[seg]
    raise HistoryError(f"cannot walk into {type(obj).__name__} with '{seg}'")


_HINTS: dict[tuple[int, str], int] = {}
"""Where an id was last found in a list: checked before use, so a stale hint only costs a
scan. Keeps an op on unit 900 of 1,000 from walking the roster every time."""


def _list_index(items: list[Any], seg: str | int) -> int:
    if isinstance(seg, int):
        if not -len(items) <= seg < len(items):
            raise HistoryError(f"index {seg} out of range")
        return seg
    key = (id(items), seg)
    hint = _HINTS.get(key)
    if hint is not None and hint < len(items) and getattr(items[hint], "id", None) == seg:
        return hint
    for i, item in enumerate(items):  # an id first: ids are unique, names need not be
        if getattr(item, "id", None) == seg:
            if len(_HINTS) > 100_000:
                _HINTS.clear()
            _HINTS[key] = i
            return i
    for i, item in enumerate(items):
        if getattr(item, "name", None) == seg:
            return i
    raise HistoryError(f"no item '{seg}'")


def resolve(enc: Encounter, path: Iterable[str | int]) -> Any:
    obj: Any = enc
    for seg in path:
        obj = _child(obj, seg)
    return obj


def touched_units(enc: Encounter, entry: LogEntry) -> set[str] | None:
    """Ids of the units whose fields ``entry``'s ops change, as the encounter stands now.

    None when an op adds or removes units, or names one the encounter no longer has:
    then anything about the roster may have changed.
    """
    ids: set[str] = set()
    for op in entry.ops:
        path = op.path
        if not path or path[0] != "units":
            continue
        if len(path) < 2:
            return None
        try:
            unit = enc.units[_list_index(enc.units, path[1])]
        except HistoryError:
            return None
        ids.add(unit.id)
    return ids


def touched(enc: Encounter, ops: Iterable[Op]) -> list[Combatant | Unit]:
    """The combatants and units ``ops`` change or add, as the encounter holds them now
    (an op names one by id, name or index, as :func:`touched_units` reads them); one that
    is no longer there is left out."""
    found: dict[tuple[str, str], Combatant | Unit] = {}
    for op in ops:
        path = op.path
        if not path or path[0] not in ("combatants", "units"):
            continue
        kind = str(path[0])
        items: list[Any] = getattr(enc, kind)
        added = op.after.get("id") if isinstance(op.after, dict) else None
        key = path[1] if len(path) > 1 else added
        if key is None:
            continue
        try:
            who = items[_list_index(items, key)]
        except HistoryError:
            continue
        found[(kind, who.id)] = who
    return list(found.values())


@lru_cache(maxsize=512)
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def _field_annotation(parent: BaseModel, name: str) -> Any:
    return type(parent).model_fields[name].annotation


def _coerce(annotation: Any, value: Any) -> Any:
    """Turn a logged value (plain data) back into what the field holds."""
    if value is None or isinstance(value, BaseModel):
        return value
    if isinstance(value, (dict, list)) or get_origin(annotation) is not None:
        return _adapter(annotation).validate_python(value)
    return value


def _item_annotation(parent: Any, list_name: str | int) -> Any:
    if isinstance(parent, BaseModel) and isinstance(list_name, str):
        args = get_args(_field_annotation(parent, list_name))
        if args:
            return args[0]
    return Any


def _plain(value: Any) -> Any:
    """Values as the log keeps them: plain data, no None inside (TOML has no null)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _set(enc: Encounter, path: list[str | int], value: Any) -> None:
    parent = resolve(enc, path[:-1])
    last = path[-1]
    if isinstance(parent, BaseModel):
        assert isinstance(last, str)
        if last not in type(parent).model_fields:
            raise HistoryError(f"no field '{last}' on {type(parent).__name__}")
        setattr(parent, last, _coerce(_field_annotation(parent, last), value))
    elif isinstance(parent, dict):
        if value is None:
            parent.pop(last, None)
        else:
            parent[last] = value
    elif isinstance(parent, list):
        parent[_list_index(parent, last)] = value
    else:
        raise HistoryError(f"cannot set {path}")


def _insert(enc: Encounter, path: list[str | int], index: int, value: Any) -> None:
    parent = resolve(enc, path[:-1])
    items = _child(parent, path[-1])
    if not isinstance(items, list):
        raise HistoryError(f"{path} is not a list")
    items.insert(index, _coerce(_item_annotation(parent, path[-1]), value))


def _delete(enc: Encounter, path: list[str | int], index: int) -> None:
    items = resolve(enc, path)
    if not isinstance(items, list) or not 0 <= index < len(items):
        raise HistoryError(f"cannot remove item {index} of {path}")
    del items[index]


def apply_op(enc: Encounter, op: Op) -> None:
    if op.op == "set":
        _set(enc, op.path, op.after)
    elif op.op == "add":
        _insert(enc, op.path, op.index if op.index is not None else 0, op.after)
    else:
        _delete(enc, op.path, op.index if op.index is not None else 0)


def revert_op(enc: Encounter, op: Op) -> None:
    if op.op == "set":
        _set(enc, op.path, op.before)
    elif op.op == "add":
        _delete(enc, op.path, op.index if op.index is not None else 0)
    else:
        _insert(enc, op.path, op.index if op.index is not None else 0, op.before)


# --- transactions -----------------------------------------------------------------------


class Transaction:
    """Changes to one encounter that become one log entry, or none at all."""

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.ops: list[Op] = []

    def set(self, path: list[str | int], value: Any) -> None:
        """Set a field (or dict key); a no-op change is not recorded."""
        before = resolve(self.enc, path) if _exists(self.enc, path) else None
        before_plain, after_plain = _plain(before), _plain(value)
        if before_plain == after_plain:
            return
        op = Op(op="set", path=list(path), before=before_plain, after=after_plain)
        apply_op(self.enc, op)
        self.ops.append(op)

    def add(self, path: list[str | int], item: Any, index: int | None = None) -> None:
        items = resolve(self.enc, path)
        pos = len(items) if index is None else index
        op = Op(op="add", path=list(path), after=_plain(item), index=pos)
        apply_op(self.enc, op)
        self.ops.append(op)

    def remove(self, path: list[str | int], key: str | int) -> None:
        items = resolve(self.enc, path)
        pos = _list_index(items, key)
        op = Op(op="remove", path=list(path), before=_plain(items[pos]), index=pos)
        apply_op(self.enc, op)
        self.ops.append(op)

    def rollback(self) -> None:
        for op in reversed(self.ops):
            revert_op(self.enc, op)
        self.ops.clear()

    @contextmanager
    def as_before(self) -> Iterator[Encounter]:
        """The encounter as it stood before this transaction's changes, for a look; the
        changes are made again as the block ends."""
        for op in reversed(self.ops):
            revert_op(self.enc, op)
        try:
            yield self.enc
        finally:
            for op in self.ops:
                apply_op(self.enc, op)

    def commit(
        self,
        text: str,
        kind: str = "note",
        rolls: Iterable[Roll] = (),
        actor: str = "",
        secret: bool = False,
        resolved: Resolved | None = None,
        parts: list[LogEntry] | None = None,
    ) -> LogEntry:
        pos = self.enc.position
        entry = LogEntry(
            text=text,
            kind=kind,
            round=pos.round,
            phase=pos.phase,
            side=pos.side,
            actor=actor,
            rolls=[RollRecord(**r.to_dict()) for r in rolls],  # type: ignore[arg-type]
            ops=list(self.ops),
            secret=secret,
            resolved=resolved,
            parts=parts,
        )
        enc = self.enc
        del enc.log[enc.cursor :]  # a new change drops the undone tail
        enc.log.append(entry)
        enc.cursor = len(enc.log)
        enc.jump = None
        self.ops = []
        return entry

    def __enter__(self) -> Transaction:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is not None:
            self.rollback()


def _exists(enc: Encounter, path: list[str | int]) -> bool:
    try:
        resolve(enc, path)
    except (HistoryError, KeyError, IndexError):
        return False
    return True


# --- undo, redo, replay -----------------------------------------------------------------


LOST = "lost"
"""The kind of the entry that stands in a repaired log for entries lost to damage in the
journal: their changes are in the state but cannot be taken back, so undo stops there."""


def undo(enc: Encounter) -> LogEntry | None:
    if enc.cursor == 0:
        return None
    entry = enc.log[enc.cursor - 1]
    if entry.kind == LOST:
        raise HistoryError(f"undo stops here: {entry.text}")
    for op in reversed(entry.ops):
        revert_op(enc, op)
    enc.cursor -= 1
    enc.jump = None
    return entry


def redo(enc: Encounter) -> LogEntry | None:
    if enc.cursor >= len(enc.log):
        return None
    entry = enc.log[enc.cursor]
    for op in entry.ops:
        apply_op(enc, op)
    enc.cursor += 1
    enc.jump = None
    return entry


def state_of(enc: Encounter) -> dict[str, Any]:
    """The encounter's state without its history, for comparisons."""
    return enc.model_dump(mode="json", exclude={"log", "cursor", "jump"})


# --- rewind: a jump through the log in one step -------------------------------------------


def move_to(enc: Encounter, index: int) -> None:
    """Undo or redo until ``index`` entries are applied, all or nothing.

    The entries on the way are read from the journal first, so a journal that cannot be
    read changes nothing; an op that does not fit puts back what was already moved.
    """
    if not 0 <= index <= len(enc.log):
        raise HistoryError(f"no point {index} in a log of {len(enc.log)} entries")
    start = enc.cursor
    enc.log.load_back_to(min(index, start))
    try:
        while enc.cursor > index:
            undo(enc)
        while enc.cursor < index:
            redo(enc)
    except Exception:
        while enc.cursor < start:
            redo(enc)
        while enc.cursor > start:
            undo(enc)
        raise


def jump(enc: Encounter, index: int) -> int:
    """Go to the point where ``index`` entries are applied in one step (a rewind when it
    lies back). Returns how many entries moved (below zero: undone). Undo right after it,
    or redo right after a jump back, takes it back with :func:`take_back`."""
    start = enc.cursor
    if index == start:
        return 0
    held = enc.jump
    move_to(enc, index)
    # a rewind straight after a rewind is taken back to where the first one started
    origin = held.start if held is not None and held.end == start else start
    enc.jump = Jump(start=origin, end=index) if origin != index else None
    return index - start


def take_back(enc: Encounter, how: str) -> int | None:
    """Take back the jump made last, if ``how`` ("undo" or "redo") comes right after it:
    undo takes back any jump, redo a jump back. Returns the entries moved, or None."""
    held = enc.jump
    if held is None or held.end != enc.cursor or not 0 <= held.start <= len(enc.log):
        return None
    if how == "redo" and held.start < held.end:
        return None
    move_to(enc, held.start)
    enc.jump = None
    return held.start - held.end


def points(enc: Encounter, stop_round: int | None = None) -> list[tuple[int, int, int]]:
    """Where the fight stood after each applied entry, newest first, back to the start of
    the log (or to the first point before round ``stop_round``): (entries applied,
    round, phase). Read from the ops on the position, so nothing is changed."""
    pos = enc.position.model_dump()
    out = [(enc.cursor, pos["round"], pos["phase"])]
    for i in range(enc.cursor - 1, -1, -1):
        if stop_round is not None and pos["round"] < stop_round:
            break
        for op in reversed(enc.log[i].ops):
            if not op.path or op.path[0] != "position":
                continue
            if len(op.path) == 1 and isinstance(op.before, dict):
                pos = {**pos, **op.before}
            elif len(op.path) == 2 and op.path[1] in pos and isinstance(op.before, int):
                pos[op.path[1]] = op.before
        out.append((i, pos["round"], pos["phase"]))
    return out


def point_of(enc: Encounter, round_: int, phase: int | None = None) -> int:
    """The earliest point in the applied log where the fight stands at ``round_`` (and
    ``phase``): how many entries are applied there."""
    found = [n for n, r, p in points(enc, round_)
             if r == round_ and (phase is None or p == phase)]
    if not found:
        raise HistoryError("not in the log")
    return min(found)


def replay(enc: Encounter) -> tuple[Encounter, list[LogEntry]]:
    """Rebuild the state from the log alone.

    Undo every applied entry on a copy to reach the state at the start of the log, then
    apply the entries again one by one. Returns the rebuilt encounter and the entries
    replayed; the caller compares ``state_of`` both to check the log is whole.
    """
    work = enc.model_copy(deep=True)
    while undo(work) is not None:
        pass
    replayed: list[LogEntry] = []
    for _ in range(enc.cursor):
        entry = redo(work)
        assert entry is not None
        replayed.append(entry)
    return work, replayed
