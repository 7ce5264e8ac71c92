"""The command language shared by the `:` line and `tracker exec`.

A line is a verb, then words, ``name=value`` pairs and options::

    add combatant "Sir Roland" side=party initiative=12
    shoot archers knights attacks=6 --dice hit=1,2,4,5,6,6 save=2,4,5,6
    next round
    roll 6d10>=7

Quotes group words with spaces. ``--dice ROLE=V1,V2 ...`` enters physical dice by role;
``--roll-rest`` lets the tracker roll the dice of the stages not entered (without it, an
action given some dice must be given all); ``--seed N`` fixes the tracker's own dice for
that one action.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from tracker.core.dice import DiceError, Source, parse_dice_spec


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


_PAIR = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)=(?P<value>.*)$", re.S)


@dataclass(slots=True)
class Command:
    verb: str
    args: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    dice: dict[str, list[int]] = field(default_factory=dict)
    seed: int | None = None
    line: str = ""
    roll_rest: bool = False
    """``--roll-rest``: the tracker rolls the dice of every stage not entered."""
    flags: set[str] = field(default_factory=set)
    """Other options the caller allowed (``--json`` for `tracker resolve`)."""
    sources: dict[str, list[Source]] = field(default_factory=dict)
    """Where each die of ``dice`` came from, by role (the app's dice step: typed in or
    rolled by the tracker at the GM's word); empty: every die given was entered."""

    def text(self) -> str:
        """The command as a GM would type it at the `:` line."""
        words = [self.verb, *self.args, *(f"{k}={v}" for k, v in self.params.items())]
        if self.dice:
            words += ["--dice", *(f"{r}={','.join(map(str, v))}" for r, v in self.dice.items())]
        if self.roll_rest:
            words.append("--roll-rest")
        if self.seed is not None:
            words += ["--seed", str(self.seed)]
        return shlex.join(words)


def parse(line: str) -> Command:
    """Parse one command line; raise CommandError with a one-line reason."""
    text = line.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    if not text:
        raise CommandError("empty command: type help for the list")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise CommandError(f"cannot read the line: {exc}") from None
    return parse_words(words, line=text)


def parse_words(words: list[str], *, line: str = "", flags: tuple[str, ...] = ()) -> Command:
    """Parse a command already split into words (as the shell gives them); ``flags`` are
    further options allowed on their own (``--json``)."""
    if not words:
        raise CommandError("empty command: type help for the list")
    verb = words[0].lower()
    if not re.match(r"^[a-z][a-z0-9_\-!?]*$", verb):
        raise CommandError(f"'{words[0]}' is not a command: type help for the list")
    cmd = Command(verb=verb, line=line or shlex.join(words))
    i = 1
    mode = ""
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--dice":
            mode = "dice"
            continue
        if word == "--seed":
            if i >= len(words):
                raise CommandError("--seed needs a whole number")
            try:
                cmd.seed = int(words[i])
            except ValueError:
                raise CommandError(f"--seed {words[i]}: expected a whole number") from None
            i += 1
            mode = ""
            continue
        if word == "--roll-rest":
            cmd.roll_rest, mode = True, ""
            continue
        if word in flags:
            cmd.flags.add(word)
            mode = ""
            continue
        if word.startswith("--"):
            known = ", ".join(("--dice", "--roll-rest", "--seed", *flags))
            raise CommandError(f"unknown option {word} (options: {known})")
        if mode == "dice":
            try:
                for role, values in parse_dice_spec([word]).items():
                    cmd.dice.setdefault(role, []).extend(values)
            except DiceError as exc:
                raise CommandError(str(exc)) from None
            continue
        m = _PAIR.match(word)
        if m and verb not in ("note", "roll", "help"):
            key = m["key"].lower().replace("-", "_")
            if key in cmd.params:
                raise CommandError(f"{key}= given twice")
            cmd.params[key] = m["value"]
        else:
            cmd.args.append(word)
    return cmd


def split_lines(script: str) -> list[str]:
    """Command lines of a script: one per line or separated by ';', '#' starts a comment."""
    lines: list[str] = []
    for raw in script.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = re.split(r";(?=\s|$)", stripped)
        lines.extend(part.strip() for part in parts if part.strip())
    return lines
