"""The command language's words: how a line splits into its verb, words, ``name=value``
pairs and options, how each generic command is typed, and the error a line that cannot
be understood raises.

Reading words needs no command class: ``tracker resolve`` reads an action's words with
:func:`read_words` alone, and the typed commands (:mod:`tracker.session.commands`) load
after the app's first screen.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from tracker.core.dice import DiceError, parse_dice_spec
from tracker.core.invalid import CONTROL

GENERIC_HELP: dict[str, str] = {
    "add": "add combatant|unit NAME [field=value ...]   "
    "e.g. add combatant Goblin side=foes initiative=9",
    "set": "set NAME field=value ... [+condition] [-condition]   "
    "e.g. set goblin initiative=12 +prone",
    "remove": "remove NAME   take a combatant or unit out of the encounter (undo brings it back)",
    "next": "next [turn|phase|round]   advance the acting order (default: turn)",
    "undo": "undo   take back the last change",
    "redo": "redo   put back the last undone change",
    "roll": "roll EXPR [ROLE] [--dice V1,V2 ...]   any dice: d100, 3d6+2, 6d10>=7 "
    "(successes), 4d6kh3; --dice takes the dice as rolled at the table",
    "note": "note TEXT   add a line to the log (note! TEXT keeps it from the player view)",
    "effect": "effect NAME EFFECT [rounds=N] [turn=yes] [until=WHO] [at=start|end]   "
    "a timed effect: ends with round N from now, or as its own (turn=yes) or WHO's next "
    "turn starts (or ends); with either, rounds=N counts N of those turns. "
    "set NAME -EFFECT ends it early",
    "wound": "wound NAME LOCATION [level=N kind=K impact=N shock=N pain=N blood_loss=N]   "
    "(wound NAME remove=N: wound number N heals, 1 the first listed)",
    "damage": "damage NAME N [NAME ...]   N damage to each (temporary hit points first; at 0 "
    "down)",
    "heal": "heal NAME N [NAME ...]   N hit points back to each, up to its maximum",
    "setting": "setting [NAME=VALUE ...]   show or change the ruleset's open rule decisions",
    "army": "army FILE [NAME=COUNT|NAME ...] [side=NAME]   add an army list (.toml), a "
    "BattleScribe roster (.ros, .rosz), or units named from a catalogue (.cat)",
    "rewind": "rewind round N [phase P] | rewind entry K   go back to that point in one step "
    "(undo or redo takes it back)",
    "help": "help [COMMAND|ACTION]   list commands, or explain one",
}
"""The generic commands and how each is typed (``help`` and the help screen show these)."""

REWIND_USAGE = "rewind round N [phase P] or rewind entry K"

class CommandError(ValueError):
    """A command line that cannot be understood; the message says what to type.

    The message is one line for the status line: a line break, tab or other control
    character quoted from what was typed is shown escaped (``\\n``).
    """

    def __init__(self, message: str) -> None:
        super().__init__("".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
            for c in message
        ))


YES = {"yes", "y", "true", "1", "on"}


_PAIR = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)=(?P<value>.*)$", re.S)
_VERB = re.compile(r"^[a-z][a-z0-9_\-!?]*$")
_WORDS_ONLY = {"note", "note!", "roll", "help", "?", "save-as"}
"""Verbs whose ``name=value`` words are text, not pairs."""
_TEXT_ONLY = {"note", "note!"}
"""Verbs whose every word is text: a note may say ``--`` or ``--dice``."""


@dataclass(slots=True)
class Words:
    """A line split into its verb, words, ``name=value`` pairs and options."""

    verb: str
    raw: list[str]
    """Every word after the verb, as typed."""
    args: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    dice: dict[str, list[int]] = field(default_factory=dict)
    seed: int | None = None
    roll_rest: bool = False
    options: list[str] = field(default_factory=list)
    """The options given (``--dice``, ``--seed``, ``--roll-rest``), in the order typed."""
    flags: set[str] = field(default_factory=set)

    def refuse_dice(self) -> None:
        """A command that rolls no dice is given none of their options."""
        if self.options:
            raise CommandError(f"{self.verb}: {self.options[0]} is for actions, next and roll")

    def nothing_more(self, usage: str, *, words: int = 0) -> None:
        """Only ``words`` words are expected, and no pairs."""
        extra = self.args[words:] + pairs(self.params)
        if extra:
            raise CommandError(f"{self.verb}: did not expect '{' '.join(extra)}' ({usage})")
        self.refuse_dice()


def pairs(params: dict[str, str]) -> list[str]:
    """``name=value`` words, as typed."""
    return [f"{k}={v}" for k, v in params.items()]


def split(line: str) -> list[str]:
    """The words of a line (a leading ``:`` dropped); CommandError if it has none or its
    quotes do not close."""
    text = line.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    if not text:
        raise CommandError("empty command: type help for the list")
    control = CONTROL.search(text)
    if control is not None:
        raise CommandError(f"the line holds a control character (U+{ord(control[0]):04X}): "
                           "type text only")
    head, _, rest = text.partition(" ")
    if head.lower() in _TEXT_ONLY:  # a note is its text as typed ("Tam's sword breaks")
        return [head, rest.strip()] if rest.strip() else [head]
    try:
        return shlex.split(text)
    except ValueError as exc:
        if "quotation" in str(exc):  # an apostrophe, most often: Tam's dog
            raise CommandError("cannot read the line: a quote is not closed (a word with an "
                               "apostrophe goes in double quotes: \"Tam's dog\")") from None
        raise CommandError(f"cannot read the line: {exc}") from None


def read_words(words: list[str], flags: tuple[str, ...] = ()) -> Words:
    """Split a command's words into verb, words, pairs and options; ``flags`` are further
    options allowed on their own (``--json``)."""
    if not words:
        raise CommandError("empty command: type help for the list")
    verb = words[0].lower()
    if verb != "?" and not _VERB.match(verb):
        raise CommandError(f"'{words[0]}' is not a command: type help for the list")
    out = Words(verb, list(words[1:]))
    if verb in _TEXT_ONLY:
        out.args = list(words[1:])
        return out
    i = 1
    mode = ""
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--dice":
            mode = "dice"
            out.options.append(word)
            continue
        if word == "--seed":
            if i >= len(words):
                raise CommandError("--seed needs a whole number")
            try:
                out.seed = int(words[i])
            except ValueError:
                raise CommandError(f"--seed {words[i]}: expected a whole number") from None
            i += 1
            mode = ""
            out.options.append(word)
            continue
        if word == "--roll-rest":
            out.roll_rest, mode = True, ""
            out.options.append(word)
            continue
        if word in flags:
            out.flags.add(word)
            mode = ""
            continue
        if word.startswith("--"):
            known = ", ".join(("--dice", "--roll-rest", "--seed", *flags))
            raise CommandError(f"unknown option {word} (options: {known})")
        if mode == "dice" and verb == "roll" and re.fullmatch(r"\d+(,\d+)*", word):
            out.dice.setdefault("", []).extend(int(v) for v in word.split(","))
            continue  # roll d20 --dice 14: the roll's own dice, whatever its role
        if mode == "dice":
            try:
                for role, values in parse_dice_spec([word]).items():
                    out.dice.setdefault(role, []).extend(values)
            except DiceError as exc:
                hint = " (name=value words go before --dice)" if _PAIR.match(word) else ""
                raise CommandError(f"{exc}{hint}") from None
            continue
        m = _PAIR.match(word)
        if m and verb not in _WORDS_ONLY:
            key = m["key"].lower().replace("-", "_")
            if key in out.params:
                raise CommandError(f"{key}= given twice")
            out.params[key] = m["value"]
        else:
            out.args.append(word)
    return out


LONGEST_NUMBER = 9
"""Digits of the longest whole number a command takes (a count, a round, a score): a
longer one is a slip of the keys, and past 18 a save could not hold it as TOML."""
_LONG = re.compile(rf"(?:^|=|,)[+-]?\d{{{LONGEST_NUMBER + 1},}}(?=$|,)")


def refuse_long_numbers(words: list[str]) -> None:
    """CommandError naming the first word (or ``name=value``) whose value is a whole
    number of more than :data:`LONGEST_NUMBER` digits; a note's words are text."""
    if not words or words[0] in _TEXT_ONLY:
        return
    for word in words[1:]:
        if _LONG.search(word):
            raise CommandError(f"{word}: too large a number (at most {LONGEST_NUMBER} "
                               "digits)")


def message_of(exc: Exception) -> str:
    """The one-line message of an error (a KeyError's str() adds quotes around it)."""
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc)


def whole(key: str, raw: str) -> int:
    """A whole number typed for ``key``; CommandError naming it if it is not one."""
    try:
        return int(raw)
    except ValueError:
        raise CommandError(f"{key}={raw}: expected a whole number") from None


def split_lines(script: str) -> list[str]:
    """Command lines of a script: one per line or separated by ';' (followed by a space
    or the line's end, outside quotes: ``damage "Rear; guard" 3`` is one line); '#'
    starts a comment."""
    lines: list[str] = []
    for raw in script.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines.extend(part.strip() for part in _parts(stripped) if part.strip())
    return lines


def _parts(line: str) -> list[str]:
    """``line`` cut at each ';' that ends a command: followed by a space or the line's
    end, and outside quotes as the words are read (a backslash keeps the next character,
    but not within single quotes); a note's text has no quotes (its apostrophes are
    its own)."""
    parts: list[str] = []
    start, quote, escaped = 0, "", False
    text = _is_note(line)
    for i, ch in enumerate(line):
        if text and ch != ";":
            continue
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";" and (i + 1 == len(line) or line[i + 1].isspace()):
            parts.append(line[start:i])
            start = i + 1
            text = _is_note(line[start:])
    parts.append(line[start:])
    return parts


def _is_note(line: str) -> bool:
    return line.lstrip().partition(" ")[0].lower() in _TEXT_ONLY
