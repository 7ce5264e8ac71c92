"""Checking a save through and through, rebuilding it from its journal, restoring a backup.

``diagnose`` reads everything of a save without trusting any of it: what the state says
(as far as it can be read), every line of its journal (the chain of whole records from
the first, and every damage after it, with line and byte), and whether the whole
records rebuild the state at the record it names. ``check_save`` reports it;
``replay_save`` rebuilds the encounter from the journal's first record (the encounter as
created: empty for ``tracker new``); ``repair.plan_repair`` makes a damaged save whole;
``restore_backup`` puts a backup back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tracker.core import history
from tracker.core.log import Log, LogError
from tracker.core.model import Encounter, LogEntry

from . import fs, journal
from .chain import Survey, survey
from .journal import JournalError, Position, Record, json_fields
from .toml_store import (
    COMMITTED,
    JournalLink,
    ModelFor,
    SaveError,
    _log_table,
    apply_record,
    backup_paths,
    bind_log,
    body_json,
    commit,
    journal_beside,
    journal_folder,
    link_of,
    load_encounter,
    parse_body,
    read_state,
    roll_forward,
    save_encounter,
    save_table,
    snapshot,
    write_state,
)

DAMAGE_SHOWN = 10
"""Damaged lines listed one by one by `check`; the rest are counted."""


@dataclass
class Report:
    ok: bool
    summary: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    enc: Encounter | None = None
    """The encounter as the save opens, where it does."""


def legacy(path: Path) -> bool:
    """Whether a save is of schema 1 or 2 (SaveError if it cannot be read)."""
    data, _ = read_state(path)
    v = data.get("schema")
    return not isinstance(v, int) or isinstance(v, bool) or v < 3


def summary(enc: Encounter, extra: str = "") -> str:
    who = len(enc.combatants) or len(enc.units)
    return f"{enc.ruleset}, {who} in play, {entries(len(enc.log))}{extra}"


def entries(n: int) -> str:
    return "1 log entry" if n == 1 else f"{n} log entries"


@dataclass
class Replay:
    """An encounter rebuilt record by record from a journal."""

    enc: Encounter | None
    at: dict[int, Encounter] = field(default_factory=dict)
    """The encounter as it stood after the record at each offset (only those asked for)."""
    records: int = 0
    """How many records applied."""
    error: str = ""
    """Why the next record did not apply ("" when all did)."""


def replay_records(records: list[Record], link: JournalLink, model_for: ModelFor,
                   keep: set[int] | None = None,
                   step: Callable[[Record, Encounter | None], None] | None = None,
                   stop: bool = False) -> Replay:
    """Apply ``records`` from nothing: the first ``state`` record gives the encounter.
    A record that does not apply raises ValueError (or, with ``stop``, ends the replay
    there with ``error`` set)."""
    found: dict[int, tuple[int, int, LogEntry]] = {}

    def make_log(count: int, head: int) -> Log:
        chain: list[tuple[int, LogEntry]] = []
        at = head
        while at >= 0 and len(chain) < count:
            if at not in found:
                raise ValueError(f"names a log entry at byte {at} that is not a whole record")
            n, before, entry = found[at]
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
        try:
            if rec.kind == "entry":
                found[rec.offset] = (rec.data["n"], rec.data["p"], rec.entry())
            applied = apply_record(out.enc, rec, link, model_for, make_log)
        except (ValueError, LogError, history.HistoryError, SaveError, LookupError) as exc:
            if not stop:
                raise ValueError(str(exc)) from None
            out.error = str(JournalError(link.journal, f"the record does not apply ({exc})",
                                         journal.line_number(link.journal, rec.offset),
                                         rec.offset))
            return out
        out.enc = applied
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
class Claims:
    """What a schema 3 state says about itself, as far as it can be read."""

    error: SaveError | None = None
    enc: Encounter | None = None
    enc_id: str = ""
    position: Position | None = None
    count: int = 0
    head: int = -1
    jpath: Path | None = None


def read_claims(path: Path, model_for: ModelFor) -> Claims:
    c = Claims()
    try:
        data, _ = read_state(path)
        c.enc_id, c.position = save_table(data, path)
        c.count, c.head, name = _log_table(data.get("log"), path)
        c.jpath = journal_folder(path) / name if name else None
        c.enc = parse_body(data, path, model_for)
    except SaveError as exc:
        c.error, c.enc = exc, None
    return c


@dataclass
class Diagnosis:
    """What is whole in a save and what is not."""

    path: Path
    claims: Claims
    jpath: Path | None = None
    survey: Survey | None = None
    journal_error: JournalError | None = None
    """The journal cannot be read at all (missing, not a regular file)."""
    replay: Replay | None = None
    """The whole records replayed from the first, up to the first that does not apply."""
    state_at: int = -1
    """Which of the whole records the state names (-1: none of them)."""
    state_matches: bool | None = None
    mismatch: str = ""

    @property
    def usable(self) -> list[Record]:
        """The records a rebuild keeps: whole, chained from the first, and applying."""
        if self.survey is None or self.replay is None:
            return []
        return self.survey.records[: self.replay.records]

    @property
    def torn_tail(self) -> bool:
        """The only damage is an unfinished last line after the state's record (a crash
        while appending: never committed, set aside at the next opening)."""
        sv, rp = self.survey, self.replay
        if sv is None or rp is None or len(sv.damage) != 1 or self.state_matches is not True \
                or rp.records < len(sv.records):
            return False
        if sv.unended:
            return self.state_at < len(sv.records) - 1
        return len(sv.lines) == 1 and not sv.lines[0][1].endswith(b"\n")


def diagnose(path: Path, model_for: ModelFor) -> Diagnosis:
    """Read everything of a schema 3 save and note what is wrong (nothing is written)."""
    d = Diagnosis(path, read_claims(path, model_for))
    c = d.claims
    d.jpath = c.jpath or journal_beside(path)
    if d.jpath is None:
        return d
    try:
        d.survey = sv = survey(d.jpath)
    except JournalError as exc:
        d.journal_error = exc
        return d
    link = JournalLink(path, d.jpath, sv.enc_id, Position(), Position(), 0)
    pos = c.position
    named = -1
    if pos is not None and c.enc_id == sv.enc_id:
        named = next((i for i, r in enumerate(sv.records) if r.offset == pos.at
                      and r.hash == pos.last and r.seq == pos.records - 1), -1)
    d.replay = replay_records(sv.records, link, model_for,
                              keep={sv.records[named].offset} if named >= 0 else None,
                              stop=True)
    if named < 0 or c.enc is None:
        return d
    d.state_at = named
    at_state = d.replay.at.get(sv.records[named].offset)
    if at_state is None:
        d.state_matches = False
        d.mismatch = ("the journal's records do not rebuild an encounter up to the record "
                      f"the state names ({d.replay.error or 'no state record before it'})")
        return d
    head = at_state.log.head() if len(at_state.log) else -1
    if not same_state(at_state, _with_log_size(c.enc, c.count)) or head != c.head:
        d.state_matches = False
        d.mismatch = ("the state is not what its journal rebuilds at the record it names "
                      f"(record {named + 1})")
        return d
    d.state_matches = True
    return d


def _with_log_size(enc: Encounter, count: int) -> Encounter:
    enc = enc.model_copy()
    enc.log = Log([LogEntry(text="")] * count)
    return enc


def check_save(path: Path, model_for: ModelFor) -> Report:
    """Verify a save through and through; problems name the file and key or line."""
    try:
        old = legacy(path)
    except SaveError as exc:
        old = False
        if journal_beside(path) is None:
            return Report(False, problems=[str(exc)])
    if old:
        return _check_legacy(path, model_for)
    d = diagnose(path, model_for)
    rep = Report(True)
    c, sv = d.claims, d.survey
    if c.error is not None:
        rep.problems.append(str(c.error))
    if d.journal_error is not None:
        rep.problems.append(str(d.journal_error))
    if sv is not None:
        if d.torn_tail:
            rep.notes.append(f"{sv.damage[0]}: an unfinished record after the last whole "
                             "one (a save cut short by a crash, never committed); set aside "
                             "at the next open")
        else:
            rep.problems += [f"{err}; not applied" for err in sv.damage[:DAMAGE_SHOWN]]
            if len(sv.damage) > DAMAGE_SHOWN:
                rep.problems.append(f"{sv.path}: and {len(sv.damage) - DAMAGE_SHOWN} more "
                                    "damaged lines")
        if d.replay is not None and d.replay.error:
            rep.problems.append(f"{d.replay.error}; not applied")
    if c.error is None and sv is not None and d.state_at < 0:
        rep.problems.append(_not_found(path, d))
    if d.state_matches is False:
        rep.problems.append(f"{path}: {d.mismatch}")
    if rep.problems and d.jpath is None:
        rep.problems.append(f"{path}: no journal beside it to rebuild from")
    rep.ok = not rep.problems
    if rep.ok:
        try:
            enc = load_encounter(path, model_for)
            enc.log.load_all()
        except (SaveError, LogError) as exc:
            rep.ok = False
            rep.problems.append(str(exc))
            return rep
        assert sv is not None and c.position is not None
        later = len(d.usable) - c.position.records
        extra = f", {len(d.usable)} journal records"
        if later:
            extra += f", {later} committed after the state and applied on opening"
        rep.summary = summary(enc, extra)
        rep.enc = enc
    return rep


def _not_found(path: Path, d: Diagnosis) -> str:
    c, sv = d.claims, d.survey
    assert c.position is not None and sv is not None and d.jpath is not None
    if c.enc_id != sv.enc_id and sv.enc_id:
        return (f"{path} at save.id: the encounter {c.enc_id}, but {d.jpath.name} is the "
                f"journal of {sv.enc_id} (a state of another encounter?)")
    there = [r for r in sv.records if r.seq == c.position.records - 1]
    if there:
        return (f"{d.jpath} line {there[0].seq + 1}, byte {there[0].offset}: not the record "
                "the state names (it was altered or replaced)")
    if sv.damage:
        return (f"{path} at save: the record the state names is past the journal's last "
                "whole record")
    return (f"{path} at save: the journal {d.jpath} has no record {c.position.records} as "
            "the state names")


def _check_legacy(path: Path, model_for: ModelFor) -> Report:
    try:
        enc = load_encounter(path, model_for)
        enc.log.load_all()
    except SaveError as exc:
        return Report(False, problems=[str(exc)])
    except LogError as exc:
        return Report(False, problems=[f"{path} at log: {exc}"])
    return Report(True, summary(enc, "; schema 2, no checksums: the tracker gives it a "
                                "checksummed journal at its next save"), enc=enc)


def replay_save(path: Path, model_for: ModelFor) -> tuple[Encounter, list[LogEntry], str]:
    """Rebuild a save from its journal's first record; returns the encounter, the
    entries it applies (oldest first) and where it started. LogError or SaveError if
    the journal has a problem."""
    if legacy(path):
        start, applied = history.replay(load_encounter(path, model_for))
        return start, applied, "the saved state, every entry undone (schema 2)"
    d = diagnose(path, model_for)
    if d.claims.error is not None:
        raise d.claims.error
    if d.journal_error is not None:
        raise d.journal_error
    sv = d.survey
    assert sv is not None and d.replay is not None
    if sv.damage and not d.torn_tail:
        raise sv.damage[0]
    if d.replay.error:
        raise LogError(d.replay.error)
    rebuilt = d.replay.enc
    if rebuilt is None:
        raise LogError(f"{sv.path}: no state record to start from")
    first = sv.records[0]
    where = ("the empty encounter it was created as" if first.kind == "state"
             and not first.data["b"].get("combatants") and not first.data["b"].get("units")
             else "the encounter as it stood when its journal began")
    return rebuilt, list(rebuilt.log)[: rebuilt.cursor], where


def restore_backup(path: Path, n: int, model_for: ModelFor) -> str:
    """Put back backup ``n`` (1 = newest) as the save's state: a ``state`` record in the
    journal (so the records after the backup's are not applied again), then the state,
    whose old self joins the backups. A state that cannot be read is replaced all the
    same (its journal is followed from the backup's record). The caller holds the lock."""
    if n < 1:
        raise SaveError(path, "", f"no backup {n}: backups count from 1, the newest")
    ring = backup_paths(path, n)
    backup = ring[-1]
    if not backup.exists() and not backup.is_symlink():
        raise SaveError(path, "", f"no backup {n} (looked for {backup})")
    fs.refuse_link(backup, "the backup")
    old = load_encounter(backup, model_for, roll=False)
    try:
        cur = load_encounter(path, model_for)
    except SaveError:
        cur = _from_backup_on(path, backup, model_for)
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
    rec = journal.read_record(b.journal, recs[0].offset, b.enc_id)
    restored = apply_record(cur, rec, b, model_for)
    assert restored is not None
    b.cursor = restored.cursor
    snap = snapshot(restored, path)
    try:
        commit(snap)
        write_state(snap)
    except OSError as exc:
        raise SaveError(path, "", f"the state could not be written ({fs.describe(exc)}); "
                        f"{COMMITTED}") from None
    return f"{path}: restored from {backup}; the state it replaced is now backup 1"


def _from_backup_on(path: Path, backup: Path, model_for: ModelFor) -> Encounter:
    """The encounter as the journal leaves it after the backup's record, bound to
    ``path`` (for a state that cannot be read)."""
    enc = load_encounter(backup, model_for, roll=False)
    b = link_of(enc)
    assert b is not None
    b.path = path
    if b.legacy:
        return enc
    enc = roll_forward(enc, b, model_for)
    if b.torn is not None:
        raise SaveError(path, "save", f"{b.torn.problem}: an unfinished record ends the "
                        "journal (`tracker repair` sets it aside)")
    return enc
