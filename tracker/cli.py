"""The `tracker` command: open the app, or work on saves and rules from the shell.

Only ``open`` and ``watch`` import Textual; every other command stays light, so
``tracker resolve`` answers fast and works where there is no terminal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # argparse (with shutil and gettext) loads only for the commands using it
    import argparse

SUBCOMMANDS = (
    "open", "new", "list", "check", "exec", "resolve", "replay", "watch", "restore", "serve",
    "army",
    "repair", "report", "completion",
)

EPILOG = """commands:
  tracker [FILE]                 open FILE, or the most recent encounter, or a sample
  tracker new NAME --ruleset ID  start an encounter in the data folder and open it in the
                                 app (--no-open: only create the file; --sample NAME
                                 instead of --ruleset: start from a shipped sample)
  tracker list                   encounters in the data folder, newest first
  tracker check [FILE|FOLDER...] validate saves (default: the data folder)
  tracker exec FILE COMMAND...   run command lines against a save, print the log lines
  tracker army FILE [NAME=COUNT ...] --into ENCOUNTER [--side NAME]
                                 add an army list, a BattleScribe roster or catalogue units
  tracker resolve RULESET ACTION [name=value ...] [--dice ROLE=V1,V2 ...] [--seed N] [--json]
  tracker replay FILE            rebuild the state from the log alone and compare
  tracker report FILE [--format md|csv|json] [--out PATH] [--side NAME]
                                 the battle report: every action, losses, the luck ledger
  tracker watch FILE             read-only player view of an encounter another tracker runs
  tracker restore FILE [N]       put back backup N (1 = newest) of a save
  tracker repair FILE            make a damaged save whole again (says what it will do)
  tracker completion bash|zsh|fish   print the shell's completion script

Each command has --help.
"""


def _rulesets_text() -> str:
    from tracker.rules import RULESETS

    return "rulesets:\n" + "".join(f"  {key:<30} {title}\n" for key, title in RULESETS.items())


class UsageError(Exception):
    """A bad request from the shell: printed as one line, exit status 2."""


def _fail(message: str, code: int = 2) -> int:
    print(f"tracker: {message}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `tracker resolve ... | head`: the reader left, that is fine
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] not in SUBCOMMANDS and args[0] not in ("-h", "--help", "--version"):
        if not args[0].startswith("-") or args[0] == "--theme":
            args.insert(0, "open")
    if not args:
        args = ["open"]
    if args[0] == "resolve":  # before argparse: `tracker resolve` starts light
        return cmd_resolve(args[1:])
    ns = build_parser().parse_args(args)
    from tracker.core.log import LogError

    try:
        return int(ns.func(ns) or 0)
    except UsageError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # every file error of every command: one line, never a traceback
        from tracker.store.fs import describe

        return _fail(describe(exc))
    except LogError as exc:
        return _fail(str(exc))
    except Exception as exc:
        from tracker.store import SaveError

        if isinstance(exc, SaveError):
            return _fail(str(exc))
        raise


def build_parser() -> argparse.ArgumentParser:
    import argparse

    from tracker import __version__
    from tracker.completion import ACTION, ANY_FILE, ENCOUNTER, RULESET, SAMPLE, SHELLS, THEME
    from tracker.completion import offers as o

    parser = argparse.ArgumentParser(
        prog="tracker",
        description="A keyboard-driven terminal combat tracker for game masters.",
        epilog=EPILOG + "\n" + _rulesets_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tracker {__version__}")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("open", help="open an encounter in the app")
    o(p.add_argument("file", nargs="?", help="save file (default: most recent, or a sample)"),
      ENCOUNTER)
    o(p.add_argument("--theme", help="colour theme name (see themes/)"), THEME)
    p.add_argument("--read-only", action="store_true", help="open without writing")
    p.add_argument("--take-over", action="store_true",
                   help="if another tracker writes it, ask it to save and let go, and take "
                   "it over after 10 s")
    p.set_defaults(func=cmd_open)

    from tracker.rules import RULESETS

    p = sub.add_parser("new", help="start an encounter and open it in the app",
                       description="Start an encounter and open it in the app "
                       "(--no-open: only create the file and print where it is).")
    p.add_argument("name")
    o(p.add_argument("--ruleset", help=", ".join(RULESETS)), RULESET)
    o(p.add_argument("--sample", help="start from a shipped sample: its name, or the start "
                     "of it (warmaster, harn-nolora-volley); the ruleset is the sample's"), SAMPLE)
    o(p.add_argument("--file", help="where to save (default: the data folder)"), ENCOUNTER)
    p.add_argument("--seed", type=int, help="seed for the tracker's dice (default 0, or the "
                   "sample's)")
    p.add_argument("--no-open", action="store_true",
                   help="only create the file and print its path; do not open the app")
    o(p.add_argument("--theme", help="colour theme name"), THEME)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("list", help="list encounters in the data folder")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "check",
        help="validate save files",
        description="Validate saves: each FILE, the saves in each FOLDER, or with neither "
        "the data folder. Army lists (in an armies/ folder) are not saves and are skipped.",
    )
    o(p.add_argument("files", nargs="*", metavar="FILE|FOLDER"), ENCOUNTER)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "army",
        help="add an army to an encounter",
        description="Add the units of an army file to ENCOUNTER: a TOML army list, a "
        "BattleScribe or New Recruit roster (.ros, .rosz: every selected unit), or a "
        "BattleScribe catalogue (.cat) with the units to take named after it "
        "(Halberdiers=2 Crossbowmen). FILE is looked for as given, in the encounter's "
        "folder and its armies/, then in the shipped saves/armies/; a copy is kept in "
        "armies/ beside the encounter. Nothing is added unless the whole file reads.",
    )
    o(p.add_argument("file"), ANY_FILE)
    p.add_argument("units", nargs="*", metavar="NAME=COUNT|NAME",
                   help="units to take from a catalogue (COUNT defaults to 1)")
    o(p.add_argument("--into", required=True, metavar="ENCOUNTER", help="the save to add to"),
      ENCOUNTER)
    p.add_argument("--side", help="the side of every unit added")
    p.set_defaults(func=cmd_army)

    p = sub.add_parser(
        "exec",
        help="run command lines against a save",
        description="Run each COMMAND (one argument each, or ';'-separated) against FILE, "
        "print the log lines, and save atomically. Nothing is saved if a command fails.",
    )
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("commands", nargs="+", help="command lines, e.g. 'next round'")
    p.add_argument("--dry-run", action="store_true", help="print but do not save")
    p.add_argument("--wait", type=float, default=5.0, metavar="SECONDS",
                   help="wait this long for another tracker to let go (default 5)")
    p.set_defaults(func=cmd_exec)

    p = sub.add_parser(
        "repair", help="make a damaged save whole again",
        description="Rebuild the state from the journal (or from a backup and the journal's "
        "later records), or cut the journal back to its last whole record. Says what it "
        "will do first, and keeps a copy of whatever it replaces in .tracker-backups/.")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("--yes", action="store_true", help="do it without asking")
    p.add_argument("--from-journal", action="store_true",
                   help="rebuild the state from the journal even when the state is whole")
    p.set_defaults(func=cmd_repair)

    p = sub.add_parser("replay", help="rebuild an encounter's state from its journal")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("-q", "--quiet", action="store_true", help="only report the check")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "report", help="the battle report: every action, losses and the luck ledger",
        description="Write the battle report of FILE from its journal: round by round and "
        "phase by phase every action with its actor, target, parameters, dice (entered or "
        "rolled by the tracker) and the pre-roll odds of what happened; casualties and "
        "losses per side over the rounds; and the luck ledger (expected against actual "
        "hits, kills and successes, and the chance of doing at least that well).",
    )
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("--format", choices=("md", "csv", "json"),
                   help="Markdown (default), CSV (one row per die) or JSON; by default "
                   "taken from the --out file's ending")
    o(p.add_argument("--out", metavar="PATH", help="write here instead of to the screen"),
      ANY_FILE)
    p.add_argument("--side", metavar="NAME",
                   help="only what the player of this side may see (as the player view)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("watch", help="read-only player view of a running encounter")
    o(p.add_argument("file"), ENCOUNTER)
    o(p.add_argument("--theme", help="colour theme name"), THEME)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--side", help="show what this side's player may see")
    who.add_argument("--public", action="store_true", help="the spectators' view")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("restore", help="put back a backup of a save")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("n", nargs="?", type=int, default=1, help="1 = newest backup")
    p.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long for another tracker to let go")
    p.set_defaults(func=cmd_restore)

    p = sub.add_parser(
        "serve",
        help="serve the table: the GM's app and each side's view over SSH (or in a browser)",
        description="Serve FILE to the table, or every encounter of FOLDER that has an "
        "access file beside it (NAME.access.toml). Over SSH, each key in the access file "
        "gets its role: the GM's app, a side's player view, or the public view. In a "
        "browser, each role has an address with its own token, printed at start. Both "
        "listen on 127.0.0.1 unless a host is given.",
    )
    o(p.add_argument("file", metavar="FILE|FOLDER"), ENCOUNTER)
    p.add_argument("--ssh", metavar="[HOST:]PORT", help="serve over SSH, e.g. 2222")
    o(p.add_argument("--access", metavar="ACCESS.toml", help="public keys by role (see README)"),
      ENCOUNTER)
    p.add_argument("--web", metavar="[HOST:]PORT", help="serve in a browser (textual-serve)")
    p.add_argument("--web-gm", action="store_true", help="offer the GM's app in the browser too")
    p.add_argument("--max-sessions", type=int, default=32, metavar="N",
                   help="players and spectators at once, SSH and browser together; the GM "
                   "always has a seat (default 32)")
    p.add_argument("--max-per-key", type=int, default=4, metavar="N",
                   help="sessions at once for one key or browser address (default 4)")
    p.add_argument("--max-size", default="500x200", metavar="COLSxROWS",
                   help="the largest terminal a session gets (default 500x200)")
    p.add_argument("--keepalive", type=float, default=15.0, metavar="SECONDS",
                   help="SSH keepalive interval; a silent connection is dropped after "
                   "three (default 15)")
    p.set_defaults(func=cmd_serve)

    # `tracker resolve` reads its own words (it starts before argparse loads): these
    # arguments are here for its help line and the shell's completion.
    p = sub.add_parser("resolve", help="resolve one action without an encounter")
    o(p.add_argument("ruleset", help="the ruleset"), RULESET)
    o(p.add_argument("action", help="the action (tracker resolve RULESET --help lists them)"),
      ACTION)
    p.add_argument("params", nargs="*", metavar="name=value")
    p.add_argument("--dice", nargs="+", metavar="ROLE=V1,V2", help="physical dice by role")
    p.add_argument("--roll-rest", action="store_true", help="roll the dice not given")
    p.add_argument("--seed", type=int, help="seed for the tracker's dice")
    p.add_argument("--stages", action="store_true", help="list the dice stages")
    p.add_argument("--json", action="store_true", help="print the result as JSON")

    p = sub.add_parser("completion", help="print a shell completion script",
                       description="Print the completion script for SHELL (subcommands, "
                       "flags, rulesets, encounter files, the actions of tracker resolve): "
                       "see the README for where each shell reads it.")
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(func=cmd_completion)
    return parser


# --- commands ---------------------------------------------------------------------------


def _load(path: str):  # type: ignore[no-untyped-def]
    from tracker.session.opening import load
    from tracker.store import SaveError

    try:
        return load(path)
    except SaveError as exc:
        raise UsageError(str(exc)) from None


def cmd_open(ns: argparse.Namespace) -> int:
    import gc

    # Start-up makes many objects that live as long as the app and almost no garbage;
    # the collector would scan them again and again. run_app freezes them and turns
    # it back on.
    gc.disable()
    try:
        return _open(ns)
    finally:
        gc.enable()


def _open(ns: argparse.Namespace) -> int:
    from tracker.session.opening import default_save, working_copy

    notice = ""
    if ns.file:
        path, notice = working_copy(Path(ns.file))
    else:
        try:
            path = default_save()
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
    from tracker.session.opening import open_encounter
    from tracker.store import SaveError

    try:  # a bad file is reported here, before the screen opens, and loaded only once
        if ns.take_over and not ns.read_only:
            print(f"asking whoever writes {path.name} to save and let go ...", file=sys.stderr)
        opened = open_encounter(path, read_only=ns.read_only,
                                take_over=ns.take_over and not ns.read_only)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    from tracker.ui.app import run_app

    return run_app(opened, theme=ns.theme, notice=notice)


def cmd_new(ns: argparse.Namespace) -> int:
    from tracker.rules import RuleError
    from tracker.session.opening import find_sample, new_encounter
    from tracker.store.paths import save_path_for

    if not ns.ruleset and not ns.sample:
        raise UsageError("new: say which game with --ruleset ID, or start from --sample NAME")
    path = Path(ns.file) if ns.file else save_path_for(ns.name)
    try:
        sample = find_sample(ns.sample) if ns.sample else None
        new_encounter(ns.name, ns.ruleset or "", path, seed=ns.seed, sample=sample)
    except (RuleError, FileExistsError, LookupError) as exc:
        raise UsageError(str(exc)) from None
    print(path)
    if ns.no_open:
        return 0
    from tracker.session.opening import open_encounter
    from tracker.ui.app import run_app

    return run_app(open_encounter(path), theme=ns.theme)


def _army_list(path: Path) -> bool:
    """An army list rather than a save: kept in an armies/ folder, or TOML that has
    [[units]] and no schema."""
    from tracker.store.armies import ARMIES_DIR, ArmyError, looks_like_army_list
    from tracker.store.armies.files import read_bytes

    if path.parent.name == ARMIES_DIR:
        return True
    try:
        return looks_like_army_list(read_bytes(path))
    except ArmyError:
        return False


def cmd_list(ns: argparse.Namespace) -> int:
    from tracker.session.opening import load
    from tracker.store import SaveError
    from tracker.store.paths import encounters_dir, list_saves

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


def _saves_to_check(names: list[str]) -> list[tuple[str, bool]]:
    """Each save named, or found in a folder named, and whether it is an army list."""
    from tracker.store.paths import encounters_dir, list_saves

    out: list[tuple[str, bool]] = []
    for name in names or [str(encounters_dir())]:
        path = Path(name)
        if path.is_dir():
            out += [(str(p), _army_list(p)) for p in reversed(list_saves(path))]
        else:
            out.append((name, path.is_file() and _army_list(path)))
    return out


def cmd_check(ns: argparse.Namespace) -> int:
    from tracker.session.opening import model_for
    from tracker.store.verify import check_save

    bad = 0
    for name, army in _saves_to_check(ns.files):
        if army:
            print(f"{name}: an army list, not a save (skipped)")
            continue
        report = check_save(Path(name), model_for)
        for line in report.problems:
            print(f"tracker: {line}", file=sys.stderr)
        for line in report.notes:
            print(f"{name}: note: {line}")
        if report.ok:
            print(f"{name}: ok ({report.summary})")
        else:
            bad += 1
    return 1 if bad else 0


def _locked(path: Path, wait: float):  # type: ignore[no-untyped-def]
    from tracker.store import Lock, LockHeld

    lock = Lock(path)
    try:
        lock.acquire(wait)
    except LockHeld as held:
        raise UsageError(f"{path.name} is open for writing by {held.owner}; "
                         "not changed") from None
    return lock


def cmd_exec(ns: argparse.Namespace) -> int:
    from tracker.session.commands import split_lines

    lines = [line for arg in ns.commands for line in split_lines(arg)]
    return _run_lines(ns.file, lines, dry_run=ns.dry_run, quote=True, wait=ns.wait)


def _run_lines(file: str, lines: list[str], dry_run: bool = False, quote: bool = False,
               wait: float = 5.0) -> int:
    """Run command lines against a save and save it once all have worked."""
    from tracker.session.commands import CommandError
    from tracker.session.opening import open_encounter
    from tracker.store import SaveError

    path = Path(file)
    try:
        opened = open_encounter(path, read_only=dry_run, wait=wait)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    session = opened.session
    if session.read_only and not dry_run:
        raise UsageError(opened.notice)
    session.keep_armies = not dry_run
    try:
        messages = []
        for line in lines:
            try:
                outcome = session.execute(line)
            except CommandError as exc:
                raise UsageError(f"{line}: {exc}" if quote else str(exc)) from None
            messages.append(outcome.message)
        if not dry_run:
            # printed once saved: a line on the screen is a change on the disk
            from tracker.store.toml_store import commit, snapshot, write_state

            snap = snapshot(session.enc, session.path or path)
            commit(snap)
            try:
                write_state(snap)
            except OSError as exc:
                from tracker.store.fs import describe

                if snap.full:
                    raise
                for message in messages:
                    print(message)
                raise UsageError(f"{describe(exc)}: the state file was not rewritten; the "
                                 "changes are committed to the journal and apply when the "
                                 "save is next opened") from None
        for message in messages:
            print(message)
    finally:
        if opened.lock is not None:
            opened.lock.release()
    return 0


def cmd_army(ns: argparse.Namespace) -> int:
    """``tracker army FILE [NAME=COUNT ...] --into ENC``: the ``army`` command, saved."""
    import shlex

    words = ["army", ns.file, *ns.units] + ([f"side={ns.side}"] if ns.side else [])
    return _run_lines(ns.into, [shlex.join(words)])


def cmd_replay(ns: argparse.Namespace) -> int:
    from tracker.core import history
    from tracker.core.log import LogError
    from tracker.session.opening import model_for
    from tracker.store import SaveError
    from tracker.store.verify import replay_save

    enc = _load(ns.file)
    try:
        rebuilt, entries, start = replay_save(Path(ns.file), model_for)
    except (LogError, SaveError) as exc:
        return _fail(f"{ns.file}: {exc}", 1)
    if not ns.quiet:
        print(f"from {start}:")
        for i, entry in enumerate(entries, 1):
            print(f"{i:>4}  r{entry.round}  {entry.text}")
    if history.state_of(rebuilt) != history.state_of(enc) or rebuilt.cursor != enc.cursor:
        return _fail(f"{ns.file}: the journal does not rebuild the saved state", 1)
    count = "1 entry" if len(entries) == 1 else f"{len(entries)} entries"
    print(f"{ns.file}: {count} replayed from {start}; the state matches the save")
    return 0


def cmd_report(ns: argparse.Namespace) -> int:
    """``tracker report FILE``: the battle report, read from the save and its journal."""
    from tracker.report import render

    fmt = ns.format
    if fmt is None and ns.out:
        fmt = {".csv": "csv", ".json": "json"}.get(Path(ns.out).suffix.lower(), "md")
    enc = _load(ns.file)
    side = ns.side
    if side is not None:
        from tracker.core.sequence import sides

        known = sides(enc)
        match = [s for s in known if s.lower() == side.lower()]
        if not match:
            raise UsageError(f"--side {side}: no such side in {Path(ns.file).name} "
                             f"(sides: {', '.join(known) or 'none'})")
        side = match[0]
    text = render(enc, fmt or "md", side)
    if not ns.out:
        sys.stdout.write(text)
        return 0
    out = Path(ns.out)
    if out.resolve() == Path(ns.file).resolve():
        raise UsageError(f"--out {ns.out}: that is the save itself; not written")
    out.write_text(text, encoding="utf-8")
    print(f"{out}: the {fmt or 'md'} report of {enc.name}")
    return 0


def cmd_repair(ns: argparse.Namespace) -> int:
    from tracker.session.opening import model_for
    from tracker.store.verify import plan_repair

    path = Path(ns.file)
    lock = _locked(path, 0.0)
    try:
        plan = plan_repair(path, model_for, from_journal=ns.from_journal)
        if plan.act is None:
            if "nothing to repair" in " ".join(plan.steps):
                print(" ".join(plan.steps))
                return 0
            return _fail(" ".join(plan.steps), 1)
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
    finally:
        lock.release()
    return 0


def cmd_watch(ns: argparse.Namespace) -> int:
    _load(ns.file)
    from tracker.ui.app import run_watch

    return run_watch(Path(ns.file), theme=ns.theme, side=ns.side, public=ns.public)


def cmd_restore(ns: argparse.Namespace) -> int:
    from tracker.session.opening import model_for
    from tracker.store import SaveError
    from tracker.store.verify import restore_backup

    path = Path(ns.file)
    lock = _locked(path, ns.wait)
    try:
        print(restore_backup(path, ns.n, model_for))
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    finally:
        lock.release()
    return 0


def cmd_serve(ns: argparse.Namespace) -> int:
    from tracker.table.serve import ServeError, options, serve

    try:
        opts = options(ns, _load)
    except ServeError as exc:
        raise UsageError(str(exc)) from None
    return serve(opts)


def cmd_completion(ns: argparse.Namespace) -> int:
    from tracker.completion import script

    sys.stdout.write(script(build_parser(), ns.shell))
    return 0


# --- resolve ----------------------------------------------------------------------------

RESOLVE_USAGE = (
    "usage: tracker resolve RULESET ACTION [name=value ...] "
    "[--dice ROLE=V1,V2 [ROLE=...]] [--roll-rest] [--seed N] [--stages] [--json]"
)


def _stage_params(action: Any, raw: dict[str, str]) -> Any:
    """The parameters for ``--stages``: checked as given; None while a required one is
    missing (the stages are then listed with their counts unknown)."""
    given = action.parse_params(raw, partial=True)
    if any(p.required and p.name not in given for p in action.params):
        return None
    return action.parse_params(raw)


def cmd_resolve(argv: list[str]) -> int:
    """Resolve one action with no encounter and print the result."""
    from tracker import rules
    from tracker.core.dice import Dice, DiceError
    from tracker.rules import RuleError
    from tracker.session.commands import CommandError, parse_words

    if not argv or argv[0] in ("-h", "--help"):
        print(RESOLVE_USAGE)
        print("\nRulesets and their actions (tracker resolve RULESET ACTION --help for one):")
        for rid in rules.RULESETS:
            try:
                rs = rules.get(rid)
            except (ImportError, RuleError):
                continue
            print(f"  {rid}: {', '.join(rs.actions) or '(none yet)'}")
        return 0
    try:
        ruleset = rules.get(argv[0])
        if len(argv) < 2 or argv[1] in ("-h", "--help"):
            print(RESOLVE_USAGE)
            print(f"\n{ruleset.id} actions:")
            for action in ruleset.actions.values():
                print(f"  {action.name}: {action.help}")
            return 0 if len(argv) >= 2 else 2
        action = ruleset.action(argv[1])
        if any(w in ("-h", "--help") for w in argv[2:]):
            print(action.help_text())
            return 0
        cmd = parse_words([action.name, *argv[2:]], flags=("--json", "--stages"))
        if cmd.args:
            raise UsageError(f"'{cmd.args[0]}': expected name=value ({RESOLVE_USAGE})")
        if "--stages" in cmd.flags:
            from tracker.rules.stages import known_stages

            stages = known_stages(action, _stage_params(action, cmd.params))
            if "--json" in cmd.flags:
                print(json.dumps({"action": action.name, "stages": stages}))
            else:
                for st in stages:
                    count = "?" if st["count"] is None else st["count"]
                    target = f" ({st['target']})" if st.get("target") else ""
                    print(f"{st['role']}: {count} {st['die']} {st['label']}".rstrip() + target)
            return 0
        params = action.parse_params(cmd.params)
        dice = Dice.from_spec(cmd.dice, seed=cmd.seed, roll_rest=cmd.roll_rest)
        resolution = action.resolve(params, dice)
        dice.check_all_used()
    except (RuleError, DiceError, UsageError, LookupError, CommandError) as exc:
        from tracker.session.session import message_of

        return _fail(message_of(exc))
    if "--json" in cmd.flags:
        print(json.dumps(resolution.as_json()))
    else:
        print(resolution.text)
        for key, value in resolution.figures.items():
            print(f"  {key}: {value}")
        for roll in resolution.rolls:
            print(f"  die {roll.role} d{roll.sides}: {roll.value} ({roll.source})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
