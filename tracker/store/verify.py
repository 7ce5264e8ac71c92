"""Checking a save through and through, rebuilding it from its journal, and repairing it.

``check_save`` verifies the state's checksum, every journal record (checksum,
encounter, number, chain), that the state is what the journal's records rebuild at the
record it names, and that the records after it apply. ``replay_save`` rebuilds the
encounter from the journal's first record (the encounter as created: empty for
``tracker new``). ``plan_repair`` says what it would do to make a damaged save whole
and does it when asked, keeping a copy of whatever it replaces.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tracker.core import history
from tracker.core.log import Log, LogError
from tracker.core.model import Encounter, LogEntry

from . import fs, journal
from .journal import JournalError, Position, Record, json_fields
from .toml_store import (
    JournalLink,
    ModelFor,
    SaveError,
    _log_table,
    apply_record,
    backup_folder,
    backup_paths,
    bind_log,
    body_json,
    commit,
    journal_folder,
    link_of,
    load_encounter,
    parse_body,
    read_state,
    save_encounter,
    save_table,
    snapshot,
    write_snapshot,
    write_state,
)


@dataclass
class Report:
    ok: bool
    summary: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _schema(path: Path) -> int:
    data, _ = read_state(path)
    v = data.get("schema")
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def summary(enc: Encounter, extra: str = "") -> str:
    who = len(enc.combatants) or len(enc.units)
    entries = "1 log entry" if len(enc.log) == 1 else f"{len(enc.log)} log entries"
    return f"{enc.ruleset}, {who} in play, {entries}{extra}"


@dataclass
class Replay:
    """An encounter rebuilt record by record from a journal."""

    enc: Encounter | None
    at: dict[int, Encounter] = field(default_factory=dict)
    """The encounter as it stood after the record at each offset (only those asked for)."""
    records: int = 0


def replay_records(records: list[Record], link: JournalLink, model_for: ModelFor,
                   keep: set[int] | None = None,
                   step: Callable[[Record, Encounter | None], None] | None = None) -> Replay:
    """Apply ``records`` from nothing: the first ``state`` record gives the encounter."""
    entries: dict[int, tuple[int, int, LogEntry]] = {}

    def make_log(count: int, head: int) -> Log:
        chain: list[tuple[int, LogEntry]] = []
        at = head
        while at >= 0 and len(chain) < count:
            if at not in entries:
                raise ValueError(f"names a log entry at byte {at} that is not a whole record")
            n, before, entry = entries[at]
            chain.append((at, entry))
            at = before
        if len(chain) != count:
            raise ValueError(f"names {count} log entries, the journal links {len(chain)}")
        log = Log()
        for offset, entry in reversed(chain):
            log.append_written(entry, offset)
        log.journal = link.journal.name
        return log

    out = Replay(None)
    for rec in records:
        if rec.kind == "entry":
            entries[rec.offset] = (rec.data["n"], rec.data["p"], rec.entry())
        out.enc = apply_record(out.enc, rec, link, model_for, make_log)
        out.records += 1
        if keep is not None and rec.offset in keep and out.enc is not None:
            out.at[rec.offset] = out.enc.model_copy(deep=True)
        if step is not None:
            step(rec, out.enc)
    return out


def same_state(a: Encounter, b: Encounter) -> bool:
    return (history.state_of(a) == history.state_of(b) and a.cursor == b.cursor
            and len(a.log) == len(b.log) and getattr(a, "jump", None) == getattr(b, "jump", None))


@dataclass
class Diagnosis:
    """What is whole in a save and what is not."""

    path: Path
    state_error: SaveError | None = None
    enc_id: str = ""
    position: Position | None = None
    jpath: Path | None = None
    count: int = 0
    head: int = -1
    records: list[Record] = field(default_factory=list)
    problem: JournalError | None = None
    torn: bool = False
    state_matches: bool | None = None
    mismatch: str = ""
    size: int = 0

    @property
    def good_end(self) -> Position:
        return self.records[-1].position if self.records else Position()

    @property
    def position_found(self) -> bool:
        pos = self.position
        return pos is not None and any(
            r.offset == pos.at and r.hash == pos.last and r.seq == pos.records - 1
            for r in self.records)


def diagnose(path: Path, model_for: ModelFor) -> Diagnosis:
    """Read everything of a schema 3 save and note what is wrong (nothing is written)."""
    d = Diagnosis(path)
    state: Encounter | None = None
    try:
        data, _ = read_state(path)
        d.enc_id, d.position = save_table(data, path)
        d.count, d.head, name = _log_table(data.get("log"), path)
        d.jpath = journal_folder(path) / name if name else None
        state = parse_body(data, path, model_for)
    except SaveError as exc:
        d.state_error = exc
    if d.jpath is None:
        d.jpath = _guess_journal(path)
    if d.jpath is None:
        return d
    try:
        got = journal.scan(d.jpath, d.enc_id or None)
    except JournalError as exc:
        d.problem = exc
        return d
    d.records, d.problem, d.torn, d.size = got.records, got.problem, got.torn, got.size
    if not d.enc_id and d.records:
        d.enc_id = d.records[0].data["id"]
    if state is None or not d.position_found:
        return d
    link = JournalLink(path, d.jpath, d.enc_id, Position(), Position(), 0)
    assert d.position is not None
    try:
        rebuilt = replay_records(d.records, link, model_for, keep={d.position.at})
    except (ValueError, LogError, history.HistoryError, SaveError, LookupError) as exc:
        d.state_matches = False
        d.mismatch = f"the journal's records do not apply: {exc}"
        return d
    at_state = rebuilt.at.get(d.position.at)
    if at_state is None:
        d.state_matches = False
        d.mismatch = "the journal has no encounter before the record the state names"
        return d
    head = at_state.log.head() if len(at_state.log) else -1
    if not same_state(at_state, _with_log_size(state, d.count)) or head != d.head:
        d.state_matches = False
        d.mismatch = ("the state is not what its journal rebuilds at the record it names "
                      f"(record {d.position.records})")
        return d
    d.state_matches = True
    return d


def _with_log_size(enc: Encounter, count: int) -> Encounter:
    enc.log = Log([LogEntry(text="")] * count)
    return enc


def _guess_journal(path: Path) -> Path | None:
    candidate = path.with_name(journal.journal_name(path))
    return candidate if candidate.exists() else None


def check_save(path: Path, model_for: ModelFor) -> Report:
    """Verify a save through and through; problems name the file and key or line."""
    try:
        version = _schema(path)
    except SaveError as exc:
        return Report(False, problems=[str(exc)])
    if version < 3:
        return _check_legacy(path, model_for)
    d = diagnose(path, model_for)
    rep = Report(True)
    if d.state_error is not None:
        rep.problems.append(str(d.state_error))
    if d.problem is not None:
        if d.torn and d.position_found:
            rep.notes.append(f"{d.problem}: an unfinished record after the last whole one (a "
                             "save cut short by a crash, never committed); set aside at the "
                             "next open")
        else:
            rep.problems.append(f"{d.problem}; not applied")
    if d.state_error is None and not d.position_found and d.problem is None:
        assert d.position is not None
        there = [r for r in d.records if r.seq == d.position.records - 1]
        if there:
            line = journal.line_number(d.jpath, there[0].offset) if d.jpath else None
            rep.problems.append(f"{d.jpath} line {line}: not the record the state names "
                                "(it was altered or replaced)")
        else:
            rep.problems.append(f"{path} at save: the journal {d.jpath} has no record "
                                f"{d.position.records} as the state names")
    elif d.state_error is None and not d.position_found and d.problem is not None:
        rep.problems.append(f"{path} at save: the record the state names is past the "
                            "journal's last whole record")
    if d.state_matches is False:
        rep.problems.append(f"{path}: {d.mismatch}")
    rep.ok = not rep.problems
    if rep.ok:
        try:
            enc = load_encounter(path, model_for)
            enc.log.load_all()
        except (SaveError, LogError) as exc:
            rep.ok = False
            rep.problems.append(str(exc))
            return rep
        later = len(d.records) - (d.position.records if d.position else 0)
        extra = f", {len(d.records)} journal records"
        if later:
            extra += f", {later} committed after the state and applied on opening"
        rep.summary = summary(enc, extra)
    return rep


def _check_legacy(path: Path, model_for: ModelFor) -> Report:
    try:
        enc = load_encounter(path, model_for)
        enc.log.load_all()
    except SaveError as exc:
        return Report(False, problems=[str(exc)])
    except LogError as exc:
        return Report(False, problems=[f"{path} at log: {exc}"])
    return Report(True, summary(enc, "; schema 2, no checksums: the tracker gives it a "
                                "checksummed journal at its next save"))


def replay_save(path: Path, model_for: ModelFor) -> tuple[Encounter, list[LogEntry], str]:
    """Rebuild a save from its journal's first record; returns the encounter, the
    entries it applies (oldest first) and where it started. LogError or SaveError if
    the journal has a problem."""
    if _schema(path) < 3:
        enc = load_encounter(path, model_for)
        rebuilt, entries = history.replay(enc)
        return rebuilt, entries, "the saved state, every entry undone (schema 2)"
    d = diagnose(path, model_for)
    if d.state_error is not None:
        raise d.state_error
    if d.problem is not None and not d.torn:
        raise d.problem
    assert d.jpath is not None
    link = JournalLink(path, d.jpath, d.enc_id, Position(), Position(), 0)
    got = replay_records(d.records, link, model_for)
    if got.enc is None:
        raise LogError(f"{d.jpath}: no state record to start from")
    enc = got.enc
    first = d.records[0]
    where = ("the empty encounter it was created as" if first.kind == "state"
             and not first.data["b"].get("combatants") and not first.data["b"].get("units")
             else "the encounter as it stood when its journal began")
    return enc, list(enc.log)[: enc.cursor], where


# --- repair ---------------------------------------------------------------------------------


@dataclass
class Plan:
    steps: list[str]
    act: Callable[[], list[str]] | None = None
    """Carries the plan out; returns what it did. None: nothing to do, or nothing can."""


def keep_copy(path: Path, what: str) -> Path:
    """A copy of ``path`` in the backups folder, before repair replaces or cuts it."""
    folder = backup_folder(path if path.parent.name != ".tracker-backups" else path.parent)
    fs.ensure_folder(folder, ".tracker-backups")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{path.name}.{what}-{stamp}"
    k = 2
    while target.exists():
        target, k = folder / f"{path.name}.{what}-{stamp}-{k}", k + 1
    fs.write_atomic(target, fs.read_regular(path))
    return target


def plan_repair(path: Path, model_for: ModelFor, from_journal: bool = False) -> Plan:
    version = _schema_or_none(path)
    if version is not None and version < 3:
        rep = _check_legacy(path, model_for)
        if rep.ok:
            return Plan([f"{path}: schema 2 and whole; nothing to repair (the tracker "
                         "gives it a checksummed journal at its next save)"])
        return Plan([f"{path}: {rep.problems[0]}; a schema 2 save has no journal records "
                     "to rebuild from: `tracker restore` puts back a backup"])
    d = diagnose(path, model_for)
    bad_tail = d.problem is not None
    state_ok = d.state_error is None and d.state_matches is True
    if state_ok and not bad_tail:
        return Plan([f"{path}: whole; nothing to repair"])
    jpath = d.jpath
    if jpath is None:
        return Plan([f"{path}: {d.state_error}; no journal to rebuild it from "
                     "(`tracker restore` puts back a backup)"])
    steps: list[str] = []
    good = len(d.records)
    cut_line = d.problem.line if d.problem is not None else None
    if state_ok and bad_tail:
        steps.append(f"cut {jpath.name} back to its last whole record (record {good}, "
                     f"line {good}); from line {cut_line} on it is not a whole record of this "
                     "encounter ({}) and is kept in a copy".format(d.problem.what
                                                                    if d.problem else ""))
        return Plan(steps, lambda: _trim(jpath, d))
    if d.state_error is None and not d.position_found and not from_journal:
        steps.append(f"{jpath.name} stops before the record {path.name} names "
                     f"({d.problem.what if d.problem else 'it is not there'}): start a new "
                     f"journal at the state as it is (the fight stands as saved; the undo "
                     f"history up to now stays in {jpath.name}, which is kept, and a copy)")
        steps.append("(or `tracker repair --from-journal` rebuilds the state from the "
                     f"journal's {good} whole records instead)")
        return Plan(steps, lambda: _new_journal_at_state(path, jpath, model_for))
    start_ok = any(r.kind == "state" for r in d.records)
    why = d.state_error or d.mismatch or "the state is past the journal's last whole record"
    if start_ok:
        steps.append(f"rebuild {path.name} from {jpath.name}: its {good} whole records"
                     + (f" (up to line {cut_line})" if cut_line else "")
                     + f"; the state there is kept in a copy ({why})")
        if bad_tail:
            steps.append(f"cut {jpath.name} back to record {good}; the rest is kept in a copy")
        return Plan(steps, lambda: _rebuild(path, jpath, d, model_for))
    backup = _usable_backup(path, jpath, model_for)
    if backup is None:
        return Plan([f"{path}: {why}; the journal's first record is damaged and no backup "
                     "matches it: nothing to rebuild from"])
    steps.append(f"rebuild {path.name} from the backup {backup.name} and the journal's "
                 f"records after it; the state there is kept in a copy ({why})")
    return Plan(steps, lambda: _from_backup(path, backup, model_for))


def _schema_or_none(path: Path) -> int | None:
    try:
        return _schema(path)
    except SaveError:
        return None


def _trim(jpath: Path, d: Diagnosis) -> list[str]:
    kept = keep_copy(jpath, "before-repair")
    journal.trim(jpath, d.good_end)
    return [f"{jpath.name} cut back to record {len(d.records)}; the whole file was kept in "
            f"{kept}"]


def _new_journal_at_state(path: Path, jpath: Path, model_for: ModelFor) -> list[str]:
    data, _ = read_state(path)
    enc = parse_body(data, path, model_for)
    enc.cursor = 0
    kept = keep_copy(jpath, "before-repair")
    save_encounter(enc, path)  # a new journal, and the old state joins the backups
    return [f"{path.name} starts a new journal at the state as it was; the old journal "
            f"stays as {jpath.name} (copy in {kept}); the replaced state is backup 1"]


def _rebuild(path: Path, jpath: Path, d: Diagnosis, model_for: ModelFor) -> list[str]:
    done = []
    if path.exists():
        done.append(f"the old state was kept in {keep_copy(path, 'before-repair')}")
    if d.problem is not None:
        done += _trim(jpath, d)
    link = JournalLink(path, jpath, d.enc_id, d.good_end, Position(), 0)
    got = replay_records(d.records, link, model_for)
    assert got.enc is not None
    enc = got.enc
    link.cursor = enc.cursor
    bind_log(enc.log, link)
    enc.log.source = journal.JournalReader(jpath, d.enc_id)
    write_snapshot(snapshot(enc, path), path)
    done.insert(0, f"{path.name} rebuilt from {len(d.records)} journal records "
                f"({summary(enc)})")
    return done


def _usable_backup(path: Path, jpath: Path, model_for: ModelFor) -> Path | None:
    for candidate in backup_paths(path, 20):
        if not candidate.exists():
            continue
        try:
            load_encounter(candidate, model_for, roll=False)
            return candidate
        except SaveError:
            continue
    return None


def _from_backup(path: Path, backup: Path, model_for: ModelFor) -> list[str]:
    done = []
    if path.exists():
        done.append(f"the old state was kept in {keep_copy(path, 'before-repair')}")
    enc = load_encounter(backup, model_for, roll=False)
    b = link_of(enc)
    assert b is not None
    b.path = path
    got = journal.scan(b.journal, b.enc_id, b.position)
    applied = 0
    for rec in got.records:
        try:
            nxt = apply_record(enc, rec, b, model_for)
        except (ValueError, LogError, history.HistoryError, SaveError, LookupError):
            got.problem = got.problem or JournalError(b.journal, "does not apply")
            break
        assert nxt is not None
        enc = nxt
        b.position = rec.position
        applied += 1
    if got.problem is not None or applied < len(got.records):
        kept = keep_copy(b.journal, "before-repair")
        journal.trim(b.journal, b.position)
        done.append(f"{b.journal.name} cut back after the last record that applies; the whole "
                    f"file was kept in {kept}")
    b.cursor = enc.cursor
    b.writer = None
    write_snapshot(snapshot(enc, path), path)
    return [f"{path.name} rebuilt from {backup.name} and {applied} later journal records",
            *done]


def restore_backup(path: Path, n: int, model_for: ModelFor) -> str:
    """Put back backup ``n`` (1 = newest) as the save's state: a ``state`` record in the
    journal (so the records after the backup's are not applied again), then the state,
    whose old self joins the backups. The caller holds the lock."""
    ring = backup_paths(path, max(n, 1))
    backup = ring[-1]
    if not backup.exists() and not backup.is_symlink():
        raise SaveError(path, "", f"no backup {n} (looked for {backup})")
    fs.refuse_link(backup, "the backup")
    old = load_encounter(backup, model_for, roll=False)
    cur = load_encounter(path, model_for)
    b, ob = link_of(cur), link_of(old)
    assert b is not None and ob is not None
    if b.legacy or ob.legacy or ob.enc_id != b.enc_id or ob.journal != b.journal:
        old.log.load_all()
        bind_log(old.log, None)
        save_encounter(old, path)
        return f"{path}: restored from {backup} (with a journal of its own)"
    head = old.log.head() if len(old.log) else -1
    body = body_json(old)
    writer = b.ensure_writer()
    recs = writer.append([("state", json_fields(b=body, c=len(old.log), hd=head, why="restore"))])
    b.position = writer.pos
    restored = apply_record(cur, recs[0] if recs[0].data else _reread(b, recs[0]), b, model_for)
    assert restored is not None
    b.cursor = restored.cursor
    snap = snapshot(restored, path)
    commit(snap)
    write_state(snap)
    return f"{path}: restored from {backup}; the state it replaced is now backup 1"


def _reread(b: JournalLink, rec: Record) -> Record:
    return journal.read_record(b.journal, rec.offset, b.enc_id)
