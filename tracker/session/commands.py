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

A line is read once, here, into one of the commands below (its words split by
:mod:`tracker.session.language`); the session runs a command by its type. A word that is
no verb of the language names a ruleset's action (:class:`Act`), which the session looks
up in its ruleset.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import ClassVar, Literal

from tracker.core.dice import Source
from tracker.core.words import digits
from tracker.session.language import (
    GENERIC_HELP,
    REWIND_USAGE,
    YES,
    Words,
    pairs,
    read_words,
    split,
    whole,
)
from tracker.session.language import CommandError as CommandError  # raised by the readers
from tracker.session.language import split_lines as split_lines

Step = Literal["turn", "phase", "round"]
"""How far ``next`` goes."""
STEPS: tuple[Step, ...] = ("turn", "phase", "round")


# --- the commands -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One command, read from a line or made by a key or a dialog."""

    verb: ClassVar[str] = ""
    """The word that starts the command (``class Quit(Command, verb="quit")``); none for
    a ruleset's action, which its own name starts."""

    def __init_subclass__(cls, verb: str | None = None) -> None:
        if verb is not None:
            cls.verb = verb

    def words(self) -> list[str]:
        """The command as words, as the shell would split the line: the verb, then each
        field in order (a list word by word, a dict as ``name=value``, None as nothing)."""
        words = [self.verb]
        for f in fields(self):
            words += _field_words(getattr(self, f.name))
        return words

    def text(self) -> str:
        """The command as a GM would type it at the `:` line."""
        return shlex.join(self.words())


def _field_words(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, dict):
        return pairs(value)
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)]


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
class Add(Command, verb="add"):
    """``add combatant|unit NAME [field=value ...]``"""

    kind: Literal["combatant", "unit"]
    name: str
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Set(Command, verb="set"):
    """``set NAME field=value ... [+condition] [-condition]``"""

    who: str
    params: dict[str, str] = field(default_factory=dict)
    marks: list[str] = field(default_factory=list)
    """``+condition`` and ``-condition``, in the order typed."""


@dataclass(frozen=True, slots=True)
class Remove(Command, verb="remove"):
    """``remove NAME``"""

    who: str


@dataclass(frozen=True, slots=True)
class Next(WithDice, verb="next"):
    """``next [turn|phase|round] [force]``; a pending duty's dice with ``--dice``."""

    what: Step = "turn"
    force: bool = False
    """Leave a duty still pending undone (logged)."""

    def words(self) -> list[str]:
        return [self.verb, self.what, *(["force"] if self.force else []), *self.dice_words()]


@dataclass(frozen=True, slots=True)
class Undo(Command, verb="undo"):
    """``undo``: take back the last change."""


@dataclass(frozen=True, slots=True)
class Redo(Command, verb="redo"):
    """``redo``: put back the last undone change."""


@dataclass(frozen=True, slots=True)
class Roll(WithDice, verb="roll"):
    """``roll EXPR [ROLE]``"""

    expr: str
    role: str = "roll"

    def words(self) -> list[str]:
        role = [self.role] if self.role != "roll" else []
        return [self.verb, self.expr, *role, *self.dice_words()]


@dataclass(frozen=True, slots=True)
class Note(Command, verb="note"):
    """``note TEXT``, or ``note! TEXT`` (kept from the player view)."""

    body: str
    secret: bool = False

    def words(self) -> list[str]:
        return ["note!" if self.secret else "note", self.body]

    def text(self) -> str:
        """A note's text is read as typed, quotes and all: no quoting added."""
        return " ".join(self.words())


@dataclass(frozen=True, slots=True)
class Effect(Command, verb="effect"):
    """``effect NAME EFFECT [rounds=N] [turn=yes] [until=WHO] [at=start|end]``"""

    who: str
    name: str
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Wound(Command, verb="wound"):
    """``wound NAME LOCATION [field=value ...]``, or ``wound NAME remove=N``: wound number
    N (1 is the first listed) heals and is removed."""

    who: str
    location: str = ""
    params: dict[str, str] = field(default_factory=dict)
    remove: int | None = None

    def words(self) -> list[str]:
        if self.remove is not None:
            return [self.verb, self.who, f"remove={self.remove}"]
        return [self.verb, self.who, self.location, *pairs(self.params)]


@dataclass(frozen=True, slots=True)
class Damage(Command, verb="damage"):
    """``damage NAME N [NAME ...]``: N damage to each (temporary hit points first)."""

    names: list[str]
    amount: int


@dataclass(frozen=True, slots=True)
class Heal(Damage, verb="heal"):
    """``heal NAME N [NAME ...]``: N hit points back to each, up to its maximum."""



@dataclass(frozen=True, slots=True)
class Setting(Command, verb="setting"):
    """``setting [NAME=VALUE ...]``: show the ruleset's settings, or change some."""

    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Army(Command, verb="army"):
    """``army FILE [NAME=COUNT|NAME ...] [side=NAME]``: unit names keep their case."""

    file: str
    picks: list[str] = field(default_factory=list)
    side: str | None = None

    def words(self) -> list[str]:
        side = [f"side={self.side}"] if self.side else []
        return [self.verb, self.file, *self.picks, *side]


@dataclass(frozen=True, slots=True)
class Rewind(Command, verb="rewind"):
    """``rewind entry K``, or ``rewind round N [phase P]`` (the phase by name or number,
    which the session reads against its ruleset)."""

    entry: int | None = None
    round: int | None = None
    phase: str | None = None

    def words(self) -> list[str]:
        if self.entry is not None:
            return [self.verb, "entry", str(self.entry)]
        phase = ["phase", self.phase] if self.phase is not None else []
        return [self.verb, "round", str(self.round), *phase]


@dataclass(frozen=True, slots=True)
class Help(Command, verb="help"):
    """``help [COMMAND|ACTION]``; the app shows its help screen for ``help`` alone."""

    topic: str | None = None

    def words(self) -> list[str]:
        return [self.verb, *([self.topic] if self.topic else [])]


@dataclass(frozen=True, slots=True)
class Quit(Command, verb="quit"):
    """``q`` or ``quit`` (the app only): save, then leave."""



@dataclass(frozen=True, slots=True)
class SaveAs(Command, verb="save-as"):
    """``save-as FILE`` (the app only): write the encounter to FILE and go on there."""

    file: str


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
        return [self.action, *self.names, *pairs(self.params), *self.dice_words(),
                *sorted(self.flags)]


APP_ONLY: tuple[type[Command], ...] = (Quit, SaveAs)
"""Commands the app carries out itself; the session refuses them."""


# --- reading a line ---------------------------------------------------------------------


def parse(line: str) -> Command:
    """Read one command line; raise CommandError with a one-line reason."""
    return parse_words(split(line))


def parse_words(words: list[str]) -> Command:
    """Read a command already split into words (as the shell gives them)."""
    w = read_words(words)
    build = VERBS.get(w.verb)
    return build(w) if build is not None else _act(w)


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
    blank = next((m for m in marks if not m[1:].strip()), None)
    if blank is not None:
        raise CommandError(f"set: '{blank}' names no condition (+prone adds one, -prone "
                           "takes it away)")
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
        raise CommandError(f"next: did not expect '{pairs(w.params)[0]}' "
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
    dice = dict(w.dice)
    if "" in dice:  # --dice 3,5,6 with no role: this roll's
        dice.setdefault(role, []).extend(dice.pop(""))
    return Roll(w.args[0], role, dice=dice, seed=w.seed, roll_rest=w.roll_rest)


def _note(w: Words) -> Note:
    w.refuse_dice()
    text = " ".join(w.args).strip()
    if not text:
        raise CommandError("note TEXT: the note is empty")
    return Note(text, secret=w.verb == "note!")


def _name_and_words(w: Words, what: str) -> tuple[str, str]:
    """``VERB NAME WORDS ...``: the name, and the words after it (``what`` they say: the
    effect, the location), which may not be empty."""
    if len(w.args) < 2:
        raise CommandError(GENERIC_HELP[w.verb])
    w.refuse_dice()
    words = " ".join(w.args[1:])
    if not words.strip():
        raise CommandError(f"{w.verb} NAME {what.upper()}: the {what} is empty")
    return w.args[0], words


def _effect(w: Words) -> Effect:
    return Effect(*_name_and_words(w, "effect"), w.params)


def _wound(w: Words) -> Wound:
    if "remove" in w.params:
        raw = w.params.pop("remove")
        w.nothing_more(GENERIC_HELP["wound"], words=1)
        if len(w.args) != 1:
            raise CommandError(GENERIC_HELP["wound"])
        return Wound(w.args[0], remove=whole("remove", raw))
    return Wound(*_name_and_words(w, "location"), w.params)


def _points(w: Words) -> Damage:
    """``damage NAME N [NAME ...]`` and ``heal``: the last whole number typed is the
    amount, the other words name who (a name of several words needs no quotes)."""
    usage = GENERIC_HELP[w.verb]
    w.nothing_more(usage, words=len(w.args))
    numbers = [i for i, word in enumerate(w.args) if digits(word)]
    if not numbers or len(w.args) < 2:
        raise CommandError(usage)
    at = numbers[-1]
    names = w.args[:at] + w.args[at + 1:]
    return (Heal if w.verb == "heal" else Damage)(names, int(w.args[at]))


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
    "wound": _wound, "damage": _points, "heal": _points, "setting": _setting, "settings": _setting,
    "army": _army, "rewind": _rewind, "help": _help, "?": _help, "q": _quit,
    "quit": _quit, "save-as": _save_as,
}
"""Each verb of the command language and how its words are read; any other word names
an action of the ruleset."""

