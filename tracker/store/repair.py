"""`tracker repair`: make a damaged save whole, keeping every whole record of its journal.

A record is whole when its JSON parses and its checksum holds (a last line that lost
only its line break included). Where one line in the middle of the journal is damaged
(a flipped bit) and the state is whole and names a whole record after it, repair keeps
the state as it is and starts a new journal from it with its log: every entry but the
one that line held, if it held one of the log's, and in its place an entry that says so,
where undo stops (what came before it cannot be taken back across the changes lost).
Otherwise it keeps the journal's whole records from the first up to the first damage (or
the first record that does not apply), in the same journal, cut back there; it keeps the
state when that is what those records rebuild at the record it names, and otherwise
rebuilds the state from them. When the journal has no whole first record it starts a
new journal, from the state as it is or from a backup, with as much of the log as still
reads. It says what it keeps and what it drops, in log entries and rounds, before it
acts, and keeps a copy of every file it replaces or cuts in ``.tracker-backups/``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tracker.core import history
from tracker.core.log import Log, LogError
from tracker.core.model import Encounter, LogEntry

from . import chain, fs, journal
from .journal import JournalError, Record
from .toml_store import (
    BACKUP_DIR,
    REBUILD_HINT,
    JournalLink,
    ModelFor,
    SaveError,
    _log_table,
    apply_record,
    backup_folder,
    backup_paths,
    bind_log,
    journal_folder,
    jump_of,
    log_on_journal,
    parse_body,
    read_state,
    save_encounter,
    save_table,
    snapshot,
    write_snapshot,
)
from .verify import Diagnosis, _check_legacy, diagnose, entries, legacy, summary


@dataclass
class Plan:
    steps: list[str]
    act: Callable[[], list[str]] | None = None
    """Carries the plan out; returns what it did. None: nothing to do, or nothing can."""


def keep_copy(path: Path, what: str) -> Path:
    """A copy of ``path`` in the backups folder, before repair replaces or cuts it."""
    folder = backup_folder(path if path.parent.name != BACKUP_DIR else path.parent)
    fs.ensure_folder(folder, BACKUP_DIR)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{path.name}.{what}-{stamp}"
    k = 2
    while target.exists() or target.is_symlink():
        target, k = folder / f"{path.name}.{what}-{stamp}-{k}", k + 1
    fs.write_new(target, fs.read_regular(path))
    return target


def rounds(rnds: list[int]) -> str:
    """"round 2" or "rounds 1–3" for the rounds of some log entries ("" for none)."""
    if not rnds:
        return ""
    low, high = min(rnds), max(rnds)
    return f"round {low}" if low == high else f"rounds {low}–{high}"


def _held(n: int, rnds: list[int]) -> str:
    """"5 log entries, rounds 1–3"."""
    return entries(n) + (f", {rounds(rnds)}" if rnds else "")


def span(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}–{last}"


def plan_repair(path: Path, model_for: ModelFor, from_journal: bool = False) -> Plan:
    """What repair would do to ``path``, and the function that does it."""
    try:
        old = legacy(path)
    except SaveError:
        old = False
    if old:
        rep = _check_legacy(path, model_for)
        if rep.ok:
            return Plan([f"{path}: schema 2 and whole; nothing to repair (the tracker "
                         "gives it a checksummed journal at its next save)"])
        return Plan([f"{path}: {rep.problems[0]}; a schema 2 save has no journal records "
                     "to rebuild from: `tracker restore` puts back a backup"])
    d = diagnose(path, model_for)
    sv, rp = d.survey, d.replay
    if sv is None or rp is None or rp.enc is None:
        return _new_journal(path, d, model_for)
    damaged = bool(sv.damage) or bool(rp.error)
    if d.state_matches and not damaged and not from_journal:
        return Plan([f"{path}: whole; nothing to repair"])
    gap = None if from_journal else _gap(d)
    kept = _keep_state(path, d, gap, model_for) if gap is not None else None
    if kept is not None:
        return kept
    return _cut_back(path, d, keep_state=bool(d.state_matches) and not from_journal)


def _cut_back(path: Path, d: Diagnosis, keep_state: bool) -> Plan:
    """Keep the journal's usable records, cut it back after them, and keep or rebuild
    the state."""
    sv, rp = d.survey, d.replay
    assert sv is not None and rp is not None and rp.enc is not None and d.jpath is not None
    jpath, usable, enc = d.jpath, d.usable, rp.enc
    total = len(usable) + len(sv.records) - rp.records + len(sv.lines)
    steps = [f"keep {span(1, len(usable))} of {jpath.name}, its whole records: "
             f"{_held(len(enc.log), [e.round for e in enc.log])}; the fight at round "
             f"{enc.position.round}"]
    dropped = sv.records[rp.records:]
    if total > len(usable):
        why = rp.error or str(sv.damage[0])
        steps.append(f"cut off {span(len(usable) + 1, total)} ({_dropped(dropped, sv.lines)}), "
                     f"kept in a copy: {why.removeprefix(str(jpath) + ' ')}")
    elif sv.unended:
        steps.append(f"put back the line break that line {len(usable)} lost (nothing is "
                     "dropped)")
    c = d.claims
    if keep_state:
        assert c.enc is not None
        later = len(usable) - 1 - d.state_at
        steps.append(f"keep {path.name} as it is: it is what line {d.state_at + 1} rebuilds"
                     + (f"; the {later} record(s) after it apply when it is next opened"
                        if later else ""))
    else:
        steps.append(f"rebuild {path.name} from the records kept; the state there "
                     f"({_was(d)}) is kept in a copy")

    def act() -> list[str]:
        done = []
        if total > len(usable) or sv.unended:
            kept = keep_copy(jpath, "before-repair")
            journal.trim(jpath, usable[-1].position)
            done.append(f"{jpath.name} cut back to its {len(usable)} whole records; the "
                        f"whole file was kept in {kept}")
        if not keep_state:
            if fs.exists(path):
                done.append(f"the old state was kept in {keep_copy(path, 'before-repair')}")
            _write_rebuilt(path, jpath, sv.enc_id, usable[-1], enc)
            done.insert(0, f"{path.name} rebuilt from {len(usable)} journal records "
                        f"({summary(enc)})")
        return done

    return Plan(steps, act)


def _dropped(records: list[Record], lines: list[tuple[int, bytes]]) -> str:
    """What the lines repair cuts off held, in log entries and rounds."""
    held = [(r.kind, r.data["e"].get("round") if r.kind == "entry" else None)
            for r in records]
    held += [chain.said(line) for _, line in lines]
    n = len(held)
    found = [rnd for kind, rnd in held if kind == "entry" and rnd is not None]
    count = sum(1 for kind, _ in held if kind == "entry")
    unknown = sum(1 for kind, _ in held if kind not in journal.KINDS)
    parts = []
    if n > unknown:
        parts.append(f"{n - unknown} record{'s' if n - unknown != 1 else ''}: "
                     f"{_held(count, found)}")
    if unknown:
        parts.append(f"{unknown} line{'s' if unknown != 1 else ''} too damaged to say what "
                     f"{'it' if unknown == 1 else 'they'} held")
    return "; ".join(parts)


def _was(d: Diagnosis) -> str:
    c = d.claims
    if c.error is not None:
        why = c.error.expected.replace(REBUILD_HINT, "")
        return f"unreadable: {c.error.key + ': ' if c.error.key else ''}{why}"
    assert c.enc is not None
    said = f"round {c.enc.position.round}, {entries(c.count)}"
    if d.survey is not None and c.enc_id != d.survey.enc_id:
        return f"{said}, of another encounter"
    if d.state_at < 0:
        return f"{said}, naming a record past the last whole one"
    return f"{said}, not what the journal rebuilds"


def _write_rebuilt(path: Path, jpath: Path, enc_id: str, last: Record, enc: Encounter) -> None:
    # the state on disk names another record (or none): it is written whatever it holds
    link = JournalLink(path, jpath, enc_id, last.position, journal.Position(), enc.cursor,
                      jump=jump_of(enc))
    bind_log(enc.log, link)
    enc.log.source = journal.JournalReader(jpath, enc_id)
    write_snapshot(snapshot(enc, path), path, backups=0)


# --- no whole first record: a new journal ----------------------------------------------------


def _new_journal(path: Path, d: Diagnosis, model_for: ModelFor) -> Plan:
    """The journal has no whole first record (or cannot be read): a new journal from the
    state as it is, or else from the newest backup that reads."""
    name = d.jpath.name if d.jpath is not None else "its journal"
    if d.jpath is None:
        why = "no journal beside it"
    elif d.journal_error is not None:
        why = f"{name} cannot be read: {d.journal_error.what}"
    elif d.survey is not None and d.survey.size == 0:
        why = f"{name} is empty"
    elif d.survey is not None and d.survey.damage:
        first = d.survey.damage[0]
        why = f"{name} has no whole first record: line 1, byte 0: {first.what}"
    else:
        why = f"{name} has no state record to start from"
    source, got = path, _readable(path, model_for) if d.claims.enc is not None else None
    if got is None:
        for candidate in backup_paths(path, 20):
            got = _readable(candidate, model_for) if fs.exists(candidate) else None
            if got is not None:
                source = candidate
                break
    if got is None:
        lead = f"{d.claims.error}; " if d.claims.error else f"{path}: "
        return Plan([f"{lead}{why}, and no backup reads: nothing to rebuild from"])
    enc, taken = got
    start = "the state as it is" if source == path else f"the backup {source.name}"
    if taken:
        start += f" and the {taken} journal record(s) after it"
    there = [p for p in (d.jpath, path) if p is not None and fs.exists(p)]
    steps = [f"{why}: start a new journal from {start}: the fight at round "
             f"{enc.position.round}; of its log, "
             f"{_held(len(enc.log), [e.round for e in enc.log])} still read"]
    if there:
        steps.append("keep a copy of " + " and ".join(p.name for p in there)
                     + (f" ({name} itself stays as it is)" if d.jpath in there else ""))

    def act() -> list[str]:
        done = []
        for old in there:
            done.append(f"{old.name} kept in {keep_copy(old, 'before-repair')}")
        save_encounter(enc, path, backups=0)
        return [f"{path.name} starts a new journal from {start}", *done]

    return Plan(steps, act)


def _readable(path: Path, model_for: ModelFor,
              gap: Gap | None = None) -> tuple[Encounter, int] | None:
    """A state file's encounter with as much of its log as still reads (each record
    checked on its own) and the journal's later records that follow on from the record
    it names, bound to nothing; and how many of those records it took. None if the
    state itself does not read. With ``gap`` (one damaged line before the record the
    state names), the log is read back across it (:func:`_log_across`), and None where
    it cannot be."""
    try:
        data, _ = read_state(path)
        enc = parse_body(data, path, model_for)
        enc_id, pos = save_table(data, path)
        count, head, name = _log_table(data.get("log"), path)
    except SaveError:
        return None
    jpath = journal_folder(path) / name
    link = JournalLink(path, jpath, enc_id, pos, pos, enc.cursor, jump=jump_of(enc))
    reader = journal.JournalReader(jpath, enc_id)
    try:
        if gap is not None:
            across = _log_across(reader, count, head, enc.cursor, gap)
            if across is None:
                return None
            enc.log = across
            enc.jump = None  # a rewind's start may lie before the lost entry
        else:
            enc.log = log_on_journal(reader, name, count, head)
            enc.log.load_all()
    except (JournalError, LogError, OSError):
        if gap is not None:
            return None
        enc.log = Log()
        enc.cursor = min(enc.cursor, 0)
        return enc, 0
    bind_log(enc.log, link)
    taken = 0
    try:
        journal.verify_position(jpath, pos, enc_id)
        later = journal.scan(jpath, enc_id, pos).records
    except (JournalError, OSError):
        if gap is not None:
            return None
        later = []
    for rec in later:
        try:
            nxt = apply_record(enc, rec, link, model_for)
        except (ValueError, LogError, history.HistoryError, SaveError, LookupError):
            break
        assert nxt is not None
        enc, taken = nxt, taken + 1
    enc.log.load_all()
    bind_log(enc.log, None)
    return enc, taken


# --- one damaged line before a whole state: the state kept, and its log across it --------


@dataclass(frozen=True)
class Gap:
    """One damaged line in the middle of a journal whose state names a whole record
    after it."""

    offset: int
    line: int
    known: list[LogEntry]
    """The log as the whole records before the damaged line rebuild it."""


def _gap(d: Diagnosis) -> Gap | None:
    """The damaged line, where the journal has only one, the records after it are whole
    and chained to one another, and the state is whole and names one of them; None
    otherwise."""
    sv, rp, c = d.survey, d.replay, d.claims
    if sv is None or rp is None or rp.enc is None or c.enc is None or c.error is not None \
            or d.state_at >= 0 or c.enc_id != sv.enc_id or len(sv.damage) != 1 \
            or rp.records != len(sv.records) or rp.error or len(sv.lines) < 2:
        return None
    (offset, _), *after = sv.lines
    if sv.damage[0].offset not in (-1, offset):
        return None
    before = sv.records[-1] if sv.records else None
    seq = before.seq + 2 if before is not None else 1
    prev = ""
    for at, line in after:
        try:
            rec = journal.decode(line, at, unended=not line.endswith(b"\n"))
            journal.check_fields(rec)
        except ValueError:
            return None
        if rec.data["id"] != sv.enc_id or rec.seq != seq or (prev and rec.prev != prev):
            return None
        seq, prev = seq + 1, rec.hash
    return Gap(offset, len(sv.records) + 1, list(rp.enc.log))


def _log_across(reader: journal.JournalReader, count: int, head: int, cursor: int,
                gap: Gap) -> Log | None:
    """The state's log read back from its newest entry. Where the walk comes to the
    damaged line, the entry it held is lost: one entry stands in its place (undo stops
    there), and the entries before it are those the whole records before it rebuild
    (they were the log when it was written). None where the log cannot be put together
    so (the lost entry undone when the state was written, or the records before the
    damage holding fewer entries than it follows)."""
    read: list[LogEntry] = []
    at, n = head, count - 1
    while n >= 0 and at != gap.offset:
        got, before, entry = reader.read(at)
        if got != n:
            return None
        read.append(entry)
        at, n = before, n - 1
    read.reverse()
    if n < 0:  # the damaged line held none of the log's entries
        return Log(read)
    if len(gap.known) < n or cursor <= n:
        return None
    near = read[0] if read else gap.known[n - 1] if n else None
    lost = LogEntry(text=f"an entry lost to damage in the journal (its line {gap.line}, "
                         f"repaired {time.strftime('%Y-%m-%d')}): the changes before it "
                         "cannot be undone",
                    kind=history.LOST, round=near.round if near else 1,
                    phase=near.phase if near else 0, side=near.side if near else 0)
    return Log([*gap.known[:n], lost, *read])


def _keep_state(path: Path, d: Diagnosis, gap: Gap, model_for: ModelFor) -> Plan | None:
    """Keep the state as it is and start a new journal from it, with every entry of its
    log but the one the damaged line held; None where the log cannot be read across."""
    got = _readable(path, model_for, gap)
    if got is None:
        return None
    enc, taken = got
    assert d.jpath is not None and d.survey is not None
    jname = d.jpath.name
    lost = sum(1 for e in enc.log if e.kind == history.LOST)
    kept = [e for e in enc.log if e.kind != history.LOST]
    what = d.survey.damage[0].what
    steps = [f"{jname} line {gap.line} is damaged ({what}); {path.name} is whole and names "
             f"a whole record after it: the fight at round {enc.position.round}"
             + (f", and the {taken} journal record(s) after it" if taken else "")]
    held = _held(len(kept), [e.round for e in kept])
    if lost:
        steps.append(f"keep {path.name} as it is and start a new journal from it, with its "
                     f"log: {held} still read; the entry line {gap.line} held is lost, and "
                     "undo will stop where it was")
    else:
        steps.append(f"keep {path.name} as it is and start a new journal from it, with its "
                     f"whole log: {held} (line {gap.line} held none of them)")
    steps.append(f"keep a copy of {jname} and {path.name} ({jname} itself stays as it is)")

    def act() -> list[str]:
        done = [f"{old.name} kept in {keep_copy(old, 'before-repair')}"
                for old in (d.jpath, path) if old is not None and fs.exists(old)]
        save_encounter(enc, path, backups=0)
        return [f"{path.name} kept as it was, in a new journal with {held}"
                + (" and one entry lost" if lost else ""), *done]

    return Plan(steps, act)
