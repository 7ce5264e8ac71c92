"""The shell's arguments read (argparse), the command they ask for run, and any error it
ends in said in one line with its exit status. Not for `tracker resolve`, which starts
lighter (``tracker.cli``)."""

from __future__ import annotations

import argparse

from tracker import __version__, startup
from tracker.completion import (
    ACTION,
    ANY_FILE,
    ENCOUNTER,
    RULESET,
    SAMPLE,
    SHELLS,
    THEME,
)
from tracker.completion import offers as o
from tracker.core.log import LogError
from tracker.rules import RULESETS
from tracker.shell.errors import UsageError, fail
from tracker.store import SaveError
from tracker.store.fs import describe

EPILOG = """commands:
  tracker [FILE]                 open FILE, or the most recent encounter, or a sample
  tracker --take-over FILE       open FILE that another tracker writes: it is asked to save
                                 and let go, and is taken over after 10 s
  tracker --read-only FILE       open FILE without writing to it
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
    return "rulesets:\n" + "".join(f"  {key:<30} {title}\n" for key, title in RULESETS.items())


def run(args: list[str]) -> int:
    """Carry out the command ``args`` ask for (the subcommand first)."""
    ns = plain_open(args) or read(args)
    try:
        with startup.collector_held(getattr(ns, "hold", False)):
            return int(startup.command(ns.run)(ns) or 0)
    except UsageError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # every file error of every command: one line, never a traceback
        return fail(describe(exc))
    except (LogError, SaveError) as exc:
        return fail(str(exc))


def plain_open(args: list[str]) -> argparse.Namespace | None:
    """``tracker`` or ``tracker FILE`` (no option), read as the parser reads it without
    building the parser (every command's options, some 19 M instructions at each start);
    None for anything else, which the parser reads (see ``tracker.startup``)."""
    if args == ["open"] or (len(args) == 2 and args[0] == "open"
                            and not args[1].startswith("-")):
        return argparse.Namespace(command="open", file=args[1] if args[1:] else None,
                                  theme=None, read_only=False, take_over=False,
                                  run="tracker.shell.app:cmd_open", hold=True)
    return None


def read(args: list[str]) -> argparse.Namespace:
    """The command ``args`` ask for. A command whose last argument is a list of words
    (``army``'s units, ``exec``'s command lines) takes them before and after its options
    alike: ``army FILE --into ENC Halberdiers=2`` as ``army FILE Halberdiers=2 --into
    ENC``; anything else argparse does not know is its error, as it words it."""
    parser = build_parser()
    ns, extra = parser.parse_known_args(args)
    rest = getattr(ns, "rest", None)
    if extra and rest and not any(word.startswith("-") for word in extra):
        getattr(ns, rest).extend(extra)
    elif extra:
        parser.parse_args(args)  # exits with argparse's message
    return ns


DAY = 86_400.0


def seconds(text: str) -> float:
    """A wait typed in seconds: a number from 0 up to a day."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= DAY:
        raise argparse.ArgumentTypeError(f"{text}: expected seconds from 0 to {DAY:.0f}")
    return value


def build_parser() -> argparse.ArgumentParser:
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
    p.set_defaults(run="tracker.shell.app:cmd_open", hold=True)


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
    p.set_defaults(run="tracker.shell.saves:cmd_new")

    p = sub.add_parser("list", help="list encounters in the data folder")
    p.set_defaults(run="tracker.shell.saves:cmd_list")

    p = sub.add_parser(
        "check",
        help="validate save files",
        description="Validate saves: each FILE, the saves in each FOLDER, or with neither "
        "the data folder. Army lists (in an armies/ folder) are not saves and are skipped.",
    )
    o(p.add_argument("files", nargs="*", metavar="FILE|FOLDER"), ENCOUNTER)
    p.set_defaults(run="tracker.shell.saves:cmd_check")

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
    p.set_defaults(run="tracker.shell.saves:cmd_army", rest="units")

    p = sub.add_parser(
        "exec",
        help="run command lines against a save",
        description="Run each COMMAND (one argument each, or ';'-separated) against FILE, "
        "print the log lines, and save atomically. Nothing is saved if a command fails.",
    )
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("commands", nargs="+", help="command lines, e.g. 'next round'")
    p.add_argument("--dry-run", action="store_true",
                   help="run the commands on a copy in memory and print what they would "
                   "do; nothing is saved")
    p.add_argument("--wait", type=seconds, default=5.0, metavar="SECONDS",
                   help="wait this long for another tracker to let go (default 5)")
    p.set_defaults(run="tracker.shell.saves:cmd_exec", rest="commands")

    p = sub.add_parser(
        "repair", help="make a damaged save whole again",
        description="Rebuild the state from the journal (or from a backup and the journal's "
        "later records), or cut the journal back to its last whole record. Says what it "
        "will do first, and keeps a copy of whatever it replaces in .tracker-backups/.")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("--yes", action="store_true", help="do it without asking")
    p.add_argument("--from-journal", action="store_true",
                   help="rebuild the state from the journal even when the state is whole")
    p.set_defaults(run="tracker.shell.saves:cmd_repair")

    p = sub.add_parser("replay", help="rebuild an encounter's state from its journal")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("-q", "--quiet", action="store_true", help="only report the check")
    p.set_defaults(run="tracker.shell.saves:cmd_replay")

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
    p.set_defaults(run="tracker.shell.report:cmd_report")

    p = sub.add_parser("watch", help="read-only player view of a running encounter")
    o(p.add_argument("file"), ENCOUNTER)
    o(p.add_argument("--theme", help="colour theme name"), THEME)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--side", help="show what this side's player may see")
    who.add_argument("--public", action="store_true", help="the spectators' view")
    p.set_defaults(run="tracker.shell.app:cmd_watch")

    p = sub.add_parser("restore", help="put back a backup of a save")
    o(p.add_argument("file"), ENCOUNTER)
    p.add_argument("n", nargs="?", type=int, default=1, help="1 = newest backup")
    p.add_argument("--wait", type=seconds, default=0.0, metavar="SECONDS",
                   help="wait this long for another tracker to let go")
    p.set_defaults(run="tracker.shell.saves:cmd_restore")

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
    p.set_defaults(run="tracker.shell.serve:cmd_serve")

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
    p.set_defaults(run="tracker.shell.completion:cmd_completion")
    return parser
