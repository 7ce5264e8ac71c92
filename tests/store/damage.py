"""Damage done to a played save (cut at a byte, a bit flipped), and what must hold after:
never accepted silently; `tracker repair` keeps every entry before the damage in the
log (the report and a replay say the same), `check` passes, and a copy of what it
replaced or cut is kept."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import journal_of, skirmish
from tracker.core import history
from tracker.core.log import LogError
from tracker.report.render import render
from tracker.session.opening import load, model_for, open_encounter
from tracker.store import SaveError, chain, fs, journal, save_encounter
from tracker.store.repair import plan_repair
from tracker.store.toml_store import BACKUP_DIR, JournalLink
from tracker.store.verify import check_save, replay_records, replay_save

PLAY = ("note one", "set aldo initiative=3", "next", "undo", "note two",
        "wound bree arm level=2", "undo", "redo", "next round")


def play(path: Path, lines: Iterable[str]) -> None:
    """Open a save for writing, as the app does, and make each change, saved."""
    opened = open_encounter(path)
    for line in lines:
        opened.session.execute(line)
        save_encounter(opened.session.enc, path)
    assert opened.lock is not None
    opened.lock.release()


def played(path: Path) -> None:
    """A save with a state record, entries, undo and redo records, saved after each."""
    save_encounter(skirmish(), path)
    play(path, PLAY)


def accepted(path: Path) -> bool:
    """Whether the damaged save gets through: it opens and `check` passes."""
    try:
        enc = load(path)
        enc.log.load_all()
    except (SaveError, LogError):
        return False
    return check_save(path, model_for).ok


@dataclass(frozen=True)
class Standing:
    """The log and cursor as the journal leaves them after one record."""

    texts: tuple[str, ...]
    cursor: int


def standings(path: Path) -> list[tuple[int, Standing]]:
    """After each record of the journal (by where it ends): the log and the cursor."""
    jpath = journal_of(path)
    records = chain.survey(jpath).records
    out: list[tuple[int, Standing]] = []

    def step(rec: journal.Record, enc) -> None:  # type: ignore[no-untyped-def]
        out.append((rec.end, Standing(tuple(e.text for e in enc.log), enc.cursor)))

    link = JournalLink(path, jpath, records[0].data["id"], journal.Position(),
                      journal.Position(), 0)
    replay_records(records, link, model_for, step=step)
    return out


def expected_after_journal_damage(marks: list[tuple[int, Standing]], first_bad: int,
                                  ends: int) -> Standing | None:
    """What repair must keep when the journal's bytes from ``first_bad`` on are damaged
    (a cut: ``first_bad`` is where it now ends, ``ends`` one byte further when only the
    last line break is gone): every record ending before the damage. None when the
    first record is damaged: there is no entry before the damage to keep."""
    kept = [s for end, s in marks if end <= first_bad or end == ends]
    return kept[-1] if kept else None


def copies(path: Path) -> list[str]:
    folder = path.parent / BACKUP_DIR
    return sorted(p.name for p in folder.iterdir() if ".before-repair-" in p.name)


def repaired(path: Path, want: Standing | None) -> str | None:
    """Repair the save; None if everything that must hold after does, else what did not
    (``want``: the log and cursor it must keep; None: any, as long as it holds together).
    Whatever file repair changed must be kept, as it was, in a copy."""
    plan = plan_repair(path, model_for)
    if plan.act is None:
        return f"no repair offered: {plan.steps}"
    text = " ".join(plan.steps)
    if "log entr" not in text or "round" not in text:
        return f"the plan does not say what it keeps in entries and rounds: {plan.steps}"
    jpath = journal_of(path)
    was = {p: p.read_bytes() for p in (path, jpath) if p.exists()}
    plan.act()
    report = check_save(path, model_for)
    if not report.ok:
        return f"check fails after repair: {report.problems}"
    for old, data in was.items():
        if old.read_bytes() != data:
            kept = [c for c in copies(path) if c.startswith(f"{old.name}.before-repair-")]
            if not any((path.parent / BACKUP_DIR / c).read_bytes() == data for c in kept):
                return f"{old.name} changed and no copy of it as it was is kept"
    enc = load(path)
    got = Standing(tuple(LOST if e.kind == history.LOST else e.text for e in enc.log),
                   enc.cursor)
    if want is not None and got != want:
        return f"after repair the log is {got}, expected {want}"
    rebuilt, entries, _ = replay_save(path, model_for)
    shown = [line["text"] for line in json.loads(render(enc, "json"))["lines"]]
    texts = [e.text for e in enc.log]
    if [e.text for e in entries] != texts[: got.cursor] or \
            [e.text for e in rebuilt.log] != texts:
        return f"replay says {[e.text for e in entries]}, the log {got}"
    if shown != texts[: got.cursor] and shown != texts:
        return f"the report says {shown}, the log {got}"
    return None


class NoSync(fs.Files):
    """The real file system without fsync: these suites test what is kept, not what a
    power cut would leave (tests/store/test_faults.py does that)."""

    def fsync(self, fd: int) -> None:
        pass

    def fsync_dir(self, path: Path) -> None:
        pass


def positions(data: bytes, stride: int) -> list[int]:
    """Every ``stride``-th byte, and the two bytes either side of every line break."""
    near = {at + d for at, byte in enumerate(data) if byte == 0x0A for d in (-2, -1, 0, 1)}
    return sorted({*range(0, len(data), stride), *near} & set(range(len(data))))


@dataclass
class Outcome:
    cases: int = 0
    accepted: list[int] | None = None
    """Bytes whose damage got through silently (opened and passed `check`)."""
    failed: list[str] | None = None
    """Cases after which repair did not leave what it must."""

    def __post_init__(self) -> None:
        self.accepted, self.failed = [], []


def run_damage(path: Path, which: str, how: str, stride: int = 1) -> Outcome:
    """Damage a played save's state or journal (``which``) at each position in turn, by
    a cut there or (``how="flip"``) every bit of its byte flipped in turn (only bit
    ``byte % 8`` unless ``stride`` is 1); each time, check it is not accepted, repair
    it and check what repair left. The save is put back between cases."""
    jpath = journal_of(path)
    state, whole = path.read_bytes(), jpath.read_bytes()
    marks = standings(path)
    full = marks[-1][1]
    target = jpath if which == "journal" else path
    data = whole if which == "journal" else state
    out = Outcome()
    assert out.accepted is not None and out.failed is not None
    with fs.use(NoSync()):
        for at in positions(data, stride):
            bits = range(8) if stride == 1 else (at % 8,)
            for bit in bits if how == "flip" else (None,):
                if bit is None:
                    damaged = data[:at]
                else:
                    damaged = data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1 :]
                _reset(path, state, whole)
                target.write_bytes(damaged)
                out.cases += 1
                if accepted(path):
                    out.accepted.append(at)
                    continue
                if which == "state":
                    want: Standing | None = full
                elif bit is None:
                    want = expected_after_journal_damage(marks, at, at + 1)
                else:
                    want = expected_before(marks, data, at)
                why = repaired(path, want)
                if why is not None:
                    out.failed.append(f"{how} at byte {at}" + (f" bit {bit}" if bit is not None
                                                                  else "") + f": {why}")
    _reset(path, state, whole)
    return out


def expected_before(marks: list[tuple[int, Standing]], data: bytes, at: int,
                    shifted: bool = False) -> Standing | None:
    """What repair keeps when byte ``at`` of the journal is altered: where the line it
    is on keeps its line break and its length (``shifted``: it does not) and lies before
    the last (the one the state names), the state as it is, its log whole but for the
    entry that line held, if any (``LOST``); elsewhere every record that ends before the
    line (a line of another length moves every record after it from where the state and
    the links name them)."""
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    if data[at] != 0x0A and 0 <= end < len(data) - 1 and start > 0 and not shifted:
        full = marks[-1][1]
        texts = list(full.texts)
        held = log_lines(data, full).get(start)
        if held is not None:
            texts[held] = LOST
        return Standing(tuple(texts), full.cursor)
    kept = [s for end, s in marks if end <= start]
    return kept[-1] if kept else None


LOST = "<an entry lost to damage>"
"""How :func:`repaired` names the entry that stands for one lost to damage."""


def log_lines(data: bytes, full: Standing) -> dict[int, int]:
    """Where each entry of the log as it stands at the end starts in the whole journal
    ``data``, and its index: read back from the newest entry through each one's link."""
    records = [json.loads(line) for line in data.split(b"\n")[:-1]]
    starts = [0]
    for line in data.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    at_offset = dict(zip(starts, records, strict=False))
    newest = max((k for k, r in at_offset.items()
                  if r["k"] == "entry" and r["n"] == len(full.texts) - 1), default=None)
    out: dict[int, int] = {}
    at = newest if newest is not None else -1
    while at >= 0:
        rec = at_offset[at]
        out[at] = rec["n"]
        at = rec["p"]
    return out


def _reset(path: Path, state: bytes, whole: bytes) -> None:
    """The played save as it was: its state and journal, and nothing repair added."""
    folder = path.parent
    for extra in folder.glob("*.jsonl"):
        extra.unlink()
    backups = folder / BACKUP_DIR
    if backups.exists():
        for copy in backups.iterdir():
            if ".before-repair-" in copy.name:
                copy.unlink()
    path.write_bytes(state)
    journal_of(path).write_bytes(whole)


def assert_never_accepted_and_repaired(tmp_path: Path, which: str, how: str,
                                       stride: int) -> None:
    """The suites: a played save damaged at each position in turn, never accepted, and
    every case repaired as it must be."""
    path = tmp_path / "ford.toml"
    played(path)
    assert accepted(path)
    got = run_damage(path, which, how, stride)
    assert got.accepted == [], f"{how} at byte(s) {(got.accepted or [])[:5]} accepted"
    assert got.failed == [], (got.failed or [])[:3]
    assert got.cases > (50 if which == "state" else 200)
