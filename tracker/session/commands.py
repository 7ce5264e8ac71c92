"""The command language shared by the `:` line and `tracker exec`, read into typed commands.

A line is a verb, then words, ``name=value`` pairs and options::

    add combatant "Sir Roland" side=party initiative=12
    shoot archers knights attacks=6 --dice hit=1,2,4,5,6,6 save=2,4,5,6
    next round
    roll 6d10>=7

Quotes group words with spaces. ``--dice ROLE=V1,V2 ...`` enters physical dice by role;
``--roll-rest`` lets the tracker roll the dice of the stages not entered (without it, an
action given some dice must be given all); ``--seed N`` fixes the tracker's own dice for
that one action. These three are taken by an action, ``next`` (a duty's dice) and ``roll``.

A line is read once, here, into one of the commands below; the session runs a command
by its type. A word that is no verb of the language names a ruleset's action (:class:`Act`),
which the session looks up in its ruleset.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from tracker.core.dice import DiceError, Source, parse_dice_spec

GENERIC_HELP: dict[str, str] = {
    "add": "add combatant|unit NAME [field=value ...]   "
    "e.g. add combatant Goblin side=foes initiative=9",
    "set": "set NAME field=value ... [+condition] [-condition]   "
    "e.g. set goblin initiative=12 +prone",
    "remove": "remove NAME   take a combatant or unit out of the encounter (undo brings it back)",
    "next": "next [turn|phase|round]   advance the acting order (default: turn)",
    "undo": "undo   take back the last change",
    "redo": "redo   put back the last undone change",
    "roll": "roll EXPR [ROLE]   any dice: d100, 3d6+2, 6d10>=7 (successes), 4d6kh3",
    "note": "note TEXT   add a line to the log (note! TEXT keeps it from the player view)",
    "effect": "effect NAME EFFECT [rounds=N] [turn=yes] [until=WHO] [at=start|end]   "
    "a timed effect: ends with round N from now, or as its own (turn=yes) or WHO's next "
    "turn starts (or ends); with either, rounds=N counts N of those turns. "
    "set NAME -EFFECT ends it early",
    "wound": "wound NAME LOCATION [level=N kind=K impact=N shock=N pain=N blood_loss=N]",
    "heal": "heal NAME N   remove wound number N (1 is the first listed)",
    "setting": "setting [NAME=VALUE ...]   show or change the ruleset's open rule decisions",
    "army": "army FILE [NAME=COUNT|NAME ...] [side=NAME]   add an army list (.toml), a "
    "BattleScribe roster (.ros, .rosz), or units named from a catalogue (.cat)",
    "rewind": "rewind round N [phase P] | rewind entry K   go back to that point in one step "
    "(undo or redo takes it back)",
    "help": "help [COMMAND|ACTION]   list commands, or explain one",
}
"""The generic commands and how each is typed (``help`` and the help screen show these)."""

REWIND_USAGE = "rewind round N [phase P] or rewind entry K"

Step = Literal["turn", "phase", "round"]
"""How far ``next`` goes."""
STEPS: tuple[Step, ...] = ("turn", "phase", "round")


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


# --- the commands -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One command, read from a line or made by a key or a dialog."""

    verb: ClassVar[str] = ""

    def words(self) -> list[str]:
        """The command as words, as the shell would split the line."""
        return [self.verb]

    def text(self) -> str:
        """The command as a GM would type it at the `:` line."""
        return shlex.join(self.words())


def _pairs(params: dict[str, str]) -> list[str]:
    return [f"{k}={v}" for k, v in params.items()]


@dataclass(frozen=True, slots=True, kw_only=True)
class WithDice(Command):
    """A command that may roll: dice entered by role, where they came from, the seed of
    the tracker's own dice, and whether it rolls the stages not entered."""

    dice: dict[str, list[int]] = field(default_factory=dict)
    sources: dict[str, list[Source]] = field(default_factory=dict)
    """Where each die of ``dice`` came from, by role (the app's dice step: typed in or
    rolled by the tracker at the GM's word); empty: every die given was entered."""
    seed: int | None = None
    roll_rest: bool = False
    """``--roll-rest``: the tracker rolls the dice of every stage not entered."""

    def dice_words(self) -> list[str]:
        words: list[str] = []
        if self.dice:
            words += ["--dice", *(f"{r}={','.join(map(str, v))}" for r, v in self.dice.items())]
        if self.roll_rest:
            words.append("--roll-rest")
        if self.seed is not None:
            words += ["--seed", str(self.seed)]
        return words


@dataclass(frozen=True, slots=True)
class Add(Command):
    """``add combatant|unit NAME [field=value ...]``"""

    verb: ClassVar[str] = "add"
    kind: Literal["combatant", "unit"]
    name: str
    params: dict[str, str] = field(default_factory=dict)

    def words(self) -> list[str]:
        return [self.verb, self.kind, self.name, *_pairs(self.params)]


@dataclass(frozen=True, slots=True)
class Set(Command):
    """``set NAME field=value ... [+condition] [-condition]``"""

    verb: ClassVar[str] = "set"
    who: str
    params: dict[str, str] = field(default_factory=dict)
    marks: list[str] = field(default_factory=list)
    """``+condition`` and ``-condition``, in the order typed."""

    def words(self) -> list[str]:
        return [self.verb, self.who, *_pairs(self.params), *self.marks]


@dataclass(frozen=True, slots=True)
class Remove(Command):
    """``remove NAME``"""

    verb: ClassVar[str] = "remove"
    who: str

    def words(self) -> list[str]:
        return [self.verb, self.who]


@dataclass(frozen=True, slots=True)
class Next(WithDice):
    """``next [turn|phase|round] [force]``; a pending duty's dice with ``--dice``."""

    verb: ClassVar[str] = "next"
    what: Step = "turn"
    force: bool = False
    """Leave a duty still pending undone (logged)."""

    def words(self) -> list[str]:
        return [self.verb, self.what, *(["force"] if self.force else []), *self.dice_words()]


@dataclass(frozen=True, slots=True)
class Undo(Command):
    verb: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Redo(Command):
    verb: ClassVar[str] = "redo"


@dataclass(frozen=True, slots=True)
class Roll(WithDice):
    """``roll EXPR [ROLE]``"""

    verb: ClassVar[str] = "roll"
    expr: str
    role: str = "roll"

    def words(self) -> list[str]:
        role = [self.role] if self.role != "roll" else []
        return [self.verb, self.expr, *role, *self.dice_words()]


@dataclass(frozen=True, slots=True)
class Note(Command):
    """``note TEXT``, or ``note! TEXT`` (kept from the player view)."""

    verb: ClassVar[str] = "note"
    body: str
    secret: bool = False

    def words(self) -> list[str]:
        return ["note!" if self.secret else "note", *self.body.split(" ")]


@dataclass(frozen=True, slots=True)
class Effect(Command):
    """``effect NAME EFFECT [rounds=N] [turn=yes] [until=WHO] [at=start|end]``"""

    verb: ClassVar[str] = "effect"
    who: str
    name: str
    params: dict[str, str] = field(default_factory=dict)

    def words(self) -> list[str]:
        return [self.verb, self.who, self.name, *_pairs(self.params)]


@dataclass(frozen=True, slots=True)
class Wound(Command):
    """``wound NAME LOCATION [field=value ...]``"""

    verb: ClassVar[str] = "wound"
    who: str
    location: str
    params: dict[str, str] = field(default_factory=dict)

    def words(self) -> list[str]:
        return [self.verb, self.who, self.location, *_pairs(self.params)]


@dataclass(frozen=True, slots=True)
class Heal(Command):
    """``heal NAME N``: wound number N (1 is the first listed) heals."""

    verb: ClassVar[str] = "heal"
    who: str
    number: int

    def words(self) -> list[str]:
        return [self.verb, self.who, str(self.number)]


@dataclass(frozen=True, slots=True)
class Setting(Command):
    """``setting [NAME=VALUE ...]``: show the ruleset's settings, or change some."""

    verb: ClassVar[str] = "setting"
    params: dict[str, str] = field(default_factory=dict)

    def words(self) -> list[str]:
        return [self.verb, *_pairs(self.params)]


@dataclass(frozen=True, slots=True)
class Army(Command):
    """``army FILE [NAME=COUNT|NAME ...] [side=NAME]``: unit names keep their case."""

    verb: ClassVar[str] = "army"
    file: str
    picks: list[str] = field(default_factory=list)
    side: str | None = None

    def words(self) -> list[str]:
        side = [f"side={self.side}"] if self.side else []
        return [self.verb, self.file, *self.picks, *side]


@dataclass(frozen=True, slots=True)
class Rewind(Command):
    """``rewind entry K``, or ``rewind round N [phase P]`` (the phase by name or number,
    which the session reads against its ruleset)."""

    verb: ClassVar[str] = "rewind"
    entry: int | None = None
    round: int | None = None
    phase: str | None = None

    def words(self) -> list[str]:
        if self.entry is not None:
            return [self.verb, "entry", str(self.entry)]
        phase = ["phase", self.phase] if self.phase is not None else []
        return [self.verb, "round", str(self.round), *phase]


@dataclass(frozen=True, slots=True)
class Help(Command):
    """``help [COMMAND|ACTION]``; the app shows its help screen for ``help`` alone."""

    verb: ClassVar[str] = "help"
    topic: str | None = None

    def words(self) -> list[str]:
        return [self.verb, *([self.topic] if self.topic else [])]


@dataclass(frozen=True, slots=True)
class Quit(Command):
    """``q`` or ``quit`` (the app only): save, then leave."""

    verb: ClassVar[str] = "quit"


@dataclass(frozen=True, slots=True)
class SaveAs(Command):
    """``save-as FILE`` (the app only): write the encounter to FILE and go on there."""

    verb: ClassVar[str] = "save-as"
    file: str

    def words(self) -> list[str]:
        return [self.verb, self.file]


@dataclass(frozen=True, slots=True)
class Act(WithDice):
    """A ruleset's action: the words naming its actor and target (in the order of its
    parameters), ``name=value`` parameters, and its dice."""

    action: str
    names: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    """Other options the caller allowed (``--json`` for `tracker resolve`)."""

    def words(self) -> list[str]:
        return [self.action, *self.names, *_pairs(self.params), *self.dice_words(),
                *sorted(self.flags)]


APP_ONLY: tuple[type[Command], ...] = (Quit, SaveAs)
"""Commands the app carries out itself; the session refuses them."""


# --- reading a line ---------------------------------------------------------------------


_PAIR = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)=(?P<value>.*)$", re.S)
_VERB = re.compile(r"^[a-z][a-z0-9_\-!?]*$")
_WORDS_ONLY = {"note", "note!", "roll", "help", "?", "save-as"}
"""Verbs whose ``name=value`` words are text, not pairs."""


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
        extra = self.args[words:] + _pairs(self.params)
        if extra:
            raise CommandError(f"{self.verb}: did not expect '{' '.join(extra)}' ({usage})")
        self.refuse_dice()


def split(line: str) -> list[str]:
    """The words of a line (a leading ``:`` dropped); CommandError if it has none or its
    quotes do not close."""
    text = line.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    if not text:
        raise CommandError("empty command: type help for the list")
    try:
        return shlex.split(text)
    except ValueError as exc:
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
        if mode == "dice":
            try:
                for role, values in parse_dice_spec([word]).items():
                    out.dice.setdefault(role, []).extend(values)
            except DiceError as exc:
                raise CommandError(str(exc)) from None
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


def parse(line: str) -> Command:
    """Read one command line; raise CommandError with a one-line reason."""
    return parse_words(split(line))


def parse_words(words: list[str]) -> Command:
    """Read a command already split into words (as the shell gives them)."""
    w = read_words(words)
    build = VERBS.get(w.verb)
    return build(w) if build is not None else _act(w)


def parse_action(words: list[str], flags: tuple[str, ...] = ()) -> Act:
    """Read an action's words (its name first) whatever the name, with ``flags`` allowed
    (`tracker resolve`)."""
    return _act(read_words(words, flags))


def parse_pairs(text: str) -> dict[str, str]:
    """``reflex=5 toughness=4`` as typed in a form's field; CommandError for a word
    that is not ``name=value``."""
    if not text.strip():
        return {}
    w = read_words(["set", *text.split()])
    if w.args:
        raise CommandError(f"'{w.args[0]}': expected name=value")
    w.refuse_dice()
    return w.params


def _act(w: Words) -> Act:
    return Act(action=w.verb, names=w.args, params=w.params, dice=w.dice, seed=w.seed,
               roll_rest=w.roll_rest, flags=frozenset(w.flags))


def _add(w: Words) -> Add:
    if len(w.args) < 2 or w.args[0].lower() not in ("combatant", "unit", "c", "u"):
        raise CommandError("add combatant NAME [field=value ...] or add unit NAME [...]")
    w.refuse_dice()
    kind: Literal["combatant", "unit"] = "unit" if w.args[0].lower() in ("unit", "u") \
        else "combatant"
    return Add(kind, " ".join(w.args[1:]), w.params)


def _set(w: Words) -> Set:
    if not w.args:
        raise CommandError("set NAME field=value ... [+condition] [-condition]")
    w.refuse_dice()
    names = [a for a in w.args if not a.startswith(("+", "-"))]
    marks = [a for a in w.args if a.startswith(("+", "-"))]
    return Set(" ".join(names), w.params, marks)


def _remove(w: Words) -> Remove:
    if not w.args:
        raise CommandError("remove NAME")
    w.nothing_more(GENERIC_HELP["remove"], words=len(w.args))
    return Remove(" ".join(w.args))


def _next(w: Words) -> Next:
    words = [a.lower() for a in w.args]
    force = "force" in words or w.params.pop("force", "").lower() in YES
    words = [x for x in words if x != "force"]
    step = step_of(words[0] if words else "turn")
    if step is None or len(words) > 1:
        raise CommandError(f"next {' '.join(words)}: expected turn, phase or round"
                           " (and force to skip what is pending)")
    if w.params:
        raise CommandError(f"next: did not expect '{_pairs(w.params)[0]}' "
                           f"({GENERIC_HELP['next']})")
    return Next(step, force, dice=w.dice, seed=w.seed, roll_rest=w.roll_rest)


def step_of(word: str) -> Step | None:
    """The step ``next`` takes that ``word`` names, if any."""
    return next((step for step in STEPS if step == word), None)


def _undo(w: Words) -> Undo:
    w.nothing_more(GENERIC_HELP["undo"])
    return Undo()


def _redo(w: Words) -> Redo:
    w.nothing_more(GENERIC_HELP["redo"])
    return Redo()


def _roll(w: Words) -> Roll:
    if not w.args:
        raise CommandError("roll EXPR: e.g. roll d100, roll 3d6+2, roll 6d10>=7")
    if len(w.args) > 2:
        raise CommandError(f"roll: did not expect '{' '.join(w.args[2:])}' "
                           f"({GENERIC_HELP['roll']})")
    role = w.args[1] if len(w.args) > 1 else "roll"
    return Roll(w.args[0], role, dice=w.dice, seed=w.seed, roll_rest=w.roll_rest)


def _note(w: Words) -> Note:
    w.refuse_dice()
    text = " ".join(w.args).strip()
    if not text:
        raise CommandError("note TEXT: the note is empty")
    return Note(text, secret=w.verb == "note!")


def _effect(w: Words) -> Effect:
    if len(w.args) < 2:
        raise CommandError(GENERIC_HELP["effect"])
    w.refuse_dice()
    return Effect(w.args[0], " ".join(w.args[1:]), w.params)


def _wound(w: Words) -> Wound:
    if len(w.args) < 2:
        raise CommandError(GENERIC_HELP["wound"])
    w.refuse_dice()
    return Wound(w.args[0], " ".join(w.args[1:]), w.params)


def _heal(w: Words) -> Heal:
    if len(w.args) != 2:
        raise CommandError(GENERIC_HELP["heal"])
    w.nothing_more(GENERIC_HELP["heal"], words=2)
    return Heal(w.args[0], whole("wound number", w.args[1]))


def _setting(w: Words) -> Setting:
    if w.args:
        raise CommandError(f"{w.verb}: did not expect '{' '.join(w.args)}' "
                           f"({GENERIC_HELP['setting']})")
    w.refuse_dice()
    return Setting(w.params)


def _army(w: Words) -> Army:
    """Words as typed: unit names keep their case and spaces, which the ``name=value``
    pairs would not."""
    side: str | None = None
    rest: list[str] = []
    for word in w.raw:
        if word.lower().startswith("side="):
            side = word[5:].strip() or None
        elif word.startswith("--"):
            raise CommandError(f"army: unknown option {word} (use side=NAME)")
        else:
            rest.append(word)
    if not rest:
        raise CommandError(GENERIC_HELP["army"])
    return Army(rest[0], rest[1:], side)


def _rewind(w: Words) -> Rewind:
    words = [x.lower() for x in w.args]
    if w.params or not words:
        raise CommandError(REWIND_USAGE)
    w.refuse_dice()
    if words[0] == "entry":
        if len(words) != 2:
            raise CommandError(REWIND_USAGE)
        return Rewind(entry=whole("entry", words[1]))
    if words[0] == "round":
        words = words[1:]
    if len(words) not in (1, 3) or (len(words) == 3 and words[1] != "phase"):
        raise CommandError(REWIND_USAGE)
    return Rewind(round=whole("round", words[0]), phase=words[2] if len(words) == 3 else None)


def _help(w: Words) -> Help:
    w.refuse_dice()
    return Help(w.args[0].lower() if w.args else None)


def _quit(w: Words) -> Quit:
    w.nothing_more("q or quit: save and leave")
    return Quit()


def _save_as(w: Words) -> SaveAs:
    w.refuse_dice()
    if not w.args:
        raise CommandError("save-as FILE: where to write the encounter")
    return SaveAs(" ".join(w.args))


VERBS: dict[str, Callable[[Words], Command]] = {
    "add": _add, "set": _set, "remove": _remove, "next": _next, "undo": _undo,
    "redo": _redo, "roll": _roll, "note": _note, "note!": _note, "effect": _effect,
    "wound": _wound, "heal": _heal, "setting": _setting, "settings": _setting,
    "army": _army, "rewind": _rewind, "help": _help, "?": _help, "q": _quit,
    "quit": _quit, "save-as": _save_as,
}
"""Each verb of the command language and how its words are read; any other word names
an action of the ruleset."""

YES = {"yes", "y", "true", "1", "on"}


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
    """Command lines of a script: one per line or separated by ';', '#' starts a comment."""
    lines: list[str] = []
    for raw in script.splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = re.split(r";(?=\s|$)", stripped)
        lines.extend(part.strip() for part in parts if part.strip())
    return lines
