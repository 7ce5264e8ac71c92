"""Saves from the shell: new, list, check, exec, army, replay, repair, restore."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tracker import rules, startup
from tracker.core import history
from tracker.core.log import LogError
from tracker.core.model import Encounter, LogEntry
from tracker.core.words import dice_marks
from tracker.rules import RuleError
from tracker.session import bestiary
from tracker.session.commands import Army, Command, CommandError, parse, split_lines
from tracker.session.domains import file_settings, out_of_domain, out_of_place, side_notes
from tracker.session.opening import find_sample, load, model_for, new_encounter, open_encounter
from tracker.session.save_news import SaveFailed
from tracker.session.saving import Saving
from tracker.shell.errors import UsageError, fail
from tracker.store import Lock, LockHeld, SaveError
from tracker.store.armies import ARMIES_DIR, ArmyError, looks_like_army_list
from tracker.store.armies.files import read_bytes
from tracker.store.paths import encounters_dir, list_saves, save_path_for
from tracker.store.repair import plan_repair
from tracker.store.toml_store import COMMITTED
from tracker.store.verify import check_save, replay_save, restore_backup


def load_save(path: str) -> Encounter:
    """The save at ``path``; a bad one is a UsageError naming what is wrong."""
    try:
        return load(path)
    except SaveError as exc:
        raise UsageError(str(exc)) from None


def cmd_new(ns: argparse.Namespace) -> int:
    if not ns.ruleset and not ns.sample:
        raise UsageError("new: say which game with --ruleset ID, or start from --sample NAME")
    if not ns.name.strip():
        raise UsageError("new: give the encounter a name (tracker new \"The ford\" ...)")
    ns.name = ns.name.strip()
    path = Path(ns.file) if ns.file else save_path_for(ns.name)
    try:
        sample = find_sample(ns.sample) if ns.sample else None
        new_encounter(ns.name, ns.ruleset or "", path, seed=ns.seed, sample=sample)
    except (RuleError, FileExistsError, LookupError) as exc:
        raise UsageError(str(exc)) from None
    print(path)
    if ns.no_open:
        return 0
    return startup.command("tracker.shell.app:open_new")(path, ns.theme)


def _army_list(path: Path) -> bool:
    """An army list rather than a save: kept in an armies/ folder, or TOML that has
    [[units]] and no schema."""
    if path.parent.name == ARMIES_DIR:
        return True
    try:
        return looks_like_army_list(read_bytes(path))
    except ArmyError:
        return False


def cmd_list(ns: argparse.Namespace) -> int:
    saves = list_saves()
    if not saves:
        print(f"no encounters in {encounters_dir()}")
    for path in saves:
        try:
            enc = load(path)
            print(f"{path}  {enc.name} ({enc.ruleset}, round {enc.position.round})")
        except SaveError as exc:
            if _army_list(path):
                print(f"{path}  an army list, not an encounter (keep it in armies/)")
            else:
                print(f"{path}  unreadable: {exc.expected}")
    return 0


def _saves_to_check(names: list[str]) -> tuple[list[tuple[str, bool]], list[str]]:
    """Each save named, or found in a folder named, and whether it is an army list; and
    the folders named that hold no save."""
    out: list[tuple[str, bool]] = []
    empty: list[str] = []
    for name in names or [str(encounters_dir())]:
        path = Path(name)
        if path.is_dir() and path.suffix != ".toml":  # a folder named as a save is checked
            found = [(str(p), _army_list(p)) for p in reversed(list_saves(path))]
            out += found
            if not found and names:
                empty.append(name)
        else:
            out.append((name, path.is_file() and _army_list(path)))
    return out, empty


def cmd_check(ns: argparse.Namespace) -> int:
    saves, empty = _saves_to_check(ns.files)
    if not saves and not empty:
        print(f"tracker: no saves in {encounters_dir()} (nothing checked)", file=sys.stderr)
        return 1
    for name in empty:
        print(f"tracker: {name}: a folder with no saves in it (nothing checked)",
              file=sys.stderr)
    bad = len(empty)
    for name, army in saves:
        if army:
            print(f"{name}: an army list, not a save (skipped)")
            continue
        if Path(name).name == bestiary.FILE:  # the creatures `add` takes, beside the saves
            try:
                creatures = bestiary.read(Path(name))
            except ValueError as exc:
                print(f"tracker: {name}: a bestiary that does not read: {exc}", file=sys.stderr)
                bad += 1
            else:
                print(f"{name}: a bestiary, not a save: ok ({len(creatures)} creatures)")
            continue
        report = check_save(Path(name), model_for)
        for line in report.problems:
            print(f"tracker: {line}", file=sys.stderr)
        notes = [*report.notes, *(side_notes(report.enc) if report.enc is not None else [])]
        for line in notes:
            print(f"{name}: note: {line}")
        outside = out_of_domain(report.enc, file_settings(
            report.enc, rules.get(report.enc.ruleset), Path(name).parent)) \
            if report.enc is not None else []
        for line in outside:
            print(f"tracker: {name}: {line} (it opens; `set` corrects it)", file=sys.stderr)
        misplaced = out_of_place(report.enc, rules.get(report.enc.ruleset)) \
            if report.enc is not None else []
        for line in misplaced:
            print(f"tracker: {name}: {line}", file=sys.stderr)
        outside += misplaced
        if report.ok and not outside:
            print(f"{name}: ok ({report.summary})")
        else:
            bad += 1
    return 1 if bad else 0


@contextmanager
def _held(path: Path, wait: float) -> Iterator[None]:
    """The save's lock, held while the block runs (UsageError if another tracker holds
    it for longer than ``wait`` seconds)."""
    lock = Lock(path)
    try:
        lock.acquire(wait)
    except LockHeld as held:
        raise UsageError(f"{path.name} is open for writing by {held.owner}; "
                         "not changed") from None
    try:
        yield
    finally:
        lock.release()


def cmd_exec(ns: argparse.Namespace) -> int:
    lines = [line for arg in ns.commands for line in split_lines(arg)]
    return run_commands(ns.file, lines, dry_run=ns.dry_run, quote=True, wait=ns.wait)


def cmd_army(ns: argparse.Namespace) -> int:
    """``tracker army FILE [NAME=COUNT ...] --into ENC``: the ``army`` command, saved."""
    return run_commands(ns.into, [Army(ns.file, ns.units, ns.side or None)])


def run_commands(file: str, given: Sequence[str | Command], dry_run: bool = False,
                 quote: bool = False, wait: float = 5.0) -> int:
    """Run commands (lines, read one by one, or typed) against a save and save it once all
    have worked; a line is printed for each once it is saved. With ``dry_run`` they run on
    a copy in memory (no lock taken, nothing written) and their lines are printed."""
    try:
        opened = open_encounter(Path(file), read_only=dry_run, wait=wait)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    session = opened.session
    if dry_run:
        session.read_only = False  # the copy in memory takes the commands; it is never saved
    elif session.read_only:
        raise UsageError(opened.notice)
    session.keep_armies = not dry_run
    saving = Saving(opened, autosave=not dry_run)
    try:
        messages = []
        for n, each in enumerate(given, 1):
            line = each if isinstance(each, str) else each.text()
            try:
                outcome = session.run(parse(each) if isinstance(each, str) else each)
                if outcome.pending is not None:
                    raise CommandError(outcome.message)
            except CommandError as exc:
                raise UsageError(_failed(n, len(given), line if quote else "", str(exc),
                                         dry_run)) from None
            entry = outcome.entry
            messages.append(entry_line(entry, outcome.message) if entry else outcome.message)
        if dry_run:
            messages.append(f"dry run: {Path(file).name} not changed")
        else:
            # printed once saved: a line on the screen is a change on the disk
            saving.changed()
            news = saving.save_now()
            if isinstance(news, SaveFailed):
                if not news.committed:
                    raise UsageError(news.message)
                for message in messages:
                    print(message)
                raise UsageError(f"{news.message}; {COMMITTED}")
        for message in messages:
            print(message)
    finally:
        saving.release()
    return 0


def entry_line(entry: LogEntry, message: str = "") -> str:
    """A log entry as the log pane shows it: its round, its words (or the message that
    said it, with what it adds), its dice (``*``: rolled by the tracker)."""
    dice = f"  {dice_marks(entry.rolls)}" if entry.rolls else ""
    return f"r{entry.round} {message or entry.text}{dice}"


def _failed(n: int, count: int, line: str, why: str, dry_run: bool) -> str:
    """Which command of the call failed, why, and that none of the call was saved (a
    call of one command: the command and why, as it changed nothing)."""
    if count == 1:
        return f"{line}: {why}" if line else why
    said = f"command {n} of {count}" + (f" ({line})" if line else "")
    if dry_run or n == 1:
        return f"{said} failed: {why}" + ("" if dry_run else "; nothing saved")
    before = "the command" if n == 2 else f"the {n - 1} commands"
    return f"{said} failed: {why}; nothing saved: {before} before it not kept either"


def cmd_replay(ns: argparse.Namespace) -> int:
    enc = load_save(ns.file)
    try:
        rebuilt, entries, start = replay_save(Path(ns.file), model_for)
    except (LogError, SaveError) as exc:
        return fail(f"{ns.file}: {exc}", 1)
    if not ns.quiet:
        print(f"from {start}:")
        for i, entry in enumerate(entries, 1):
            print(f"{i:>4}  r{entry.round}  {entry.text}")
    if history.state_of(rebuilt) != history.state_of(enc) or rebuilt.cursor != enc.cursor:
        return fail(f"{ns.file}: the journal does not rebuild the saved state", 1)
    count = "1 entry" if len(entries) == 1 else f"{len(entries)} entries"
    print(f"{ns.file}: {count} replayed from {start}; the state matches the save")
    return 0


def cmd_repair(ns: argparse.Namespace) -> int:
    path = Path(ns.file)
    with _held(path, 0.0):
        plan = plan_repair(path, model_for, from_journal=ns.from_journal)
        if plan.act is None:
            if "nothing to repair" in " ".join(plan.steps):
                print(" ".join(plan.steps))
                return 0
            return fail(" ".join(plan.steps), 1)
        print(f"tracker repair {path} will:")
        for step in plan.steps:
            print(f"  - {step}")
        if not ns.yes:
            if not sys.stdin.isatty():
                print("run again with --yes to do it")
                return 1
            if input("Go ahead? [y/N] ").strip().lower() not in ("y", "yes"):
                print("nothing changed")
                return 1
        for line in plan.act():
            print(line)
    return 0


def cmd_restore(ns: argparse.Namespace) -> int:
    path = Path(ns.file)
    with _held(path, ns.wait):
        try:
            print(restore_backup(path, ns.n, model_for))
        except SaveError as exc:
            raise UsageError(str(exc)) from None
    return 0
