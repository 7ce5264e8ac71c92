"""Shell completion: ``tracker completion bash|zsh|fish`` prints a script that shtab makes
from the command's own argparse parser: its subcommands and flags as the parser has them.

The parser marks what an argument takes with ``offers`` (encounter files, any file, a
ruleset, a sample, a theme, an action of the ruleset before it). The marks name shell
functions; the script defines them, with the words that come from the tracker itself
(the rulesets, each one's actions for ``tracker resolve``, the shipped samples and
themes) written in when the script is made. Nothing here loads until a script is asked
for, except the marks, which are plain data.
"""

from __future__ import annotations

from shlex import quote
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

SHELLS = ("bash", "zsh", "fish")

Completion = dict[str, Any]
"""What shtab reads from an argument's ``complete``: a pattern for each shell."""


def _calls(name: str) -> Completion:
    """A completion by the script's function ``_tracker_<name>``."""
    return {"bash": f"_tracker_{name}", "zsh": f"_tracker_{name}", "fish": f"(_tracker_{name})"}


ENCOUNTER: Completion = {
    "bash": "_tracker_glob_toml",  # "glob": shtab's bash then completes them as file names
    "zsh": "_files -g '*.toml'",
    "fish": "(__fish_complete_suffix .toml)",
}
"""Encounter files: ``*.toml``, and folders to look in."""

ANY_FILE: Completion = {
    "bash": "_tracker_glob_any",
    "zsh": "_files",
    "fish": "(__fish_complete_path (commandline -ct))",
}
RULESET = _calls("rulesets")
SAMPLE = _calls("samples")
THEME = _calls("themes")
ACTION = _calls("actions")
"""The actions of the ruleset named before it (``tracker resolve RULESET ACTION``)."""


def offers(action: argparse.Action, completion: Completion) -> argparse.Action:
    """Mark what the shell offers for this argument (shtab reads ``complete``)."""
    action.complete = completion  # type: ignore[attr-defined]
    return action


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell``."""
    import shtab

    return str(shtab.complete(parser, shell=shell, preamble=_functions(shell, *_words())))


def _words() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The word lists the script carries, and each ruleset's action names."""
    from tracker import rules
    from tracker.store.paths import encounter_files, samples_dir, themes_dir

    actions: dict[str, list[str]] = {}
    for rid in rules.RULESETS:
        try:
            names = list(rules.get(rid).actions)
        except (ImportError, rules.RuleError):
            continue
        if names:
            actions[rid] = names
    from textual.theme import BUILTIN_THEMES

    samples, themes = samples_dir(), themes_dir()
    lists = {
        "rulesets": list(rules.RULESETS),
        "samples": [p.stem for p in encounter_files(samples)] if samples else [],
        "themes": sorted(p.stem for p in themes.glob("*.toml")) if themes else [],
    }
    lists["themes"] += sorted(set(BUILTIN_THEMES) - set(lists["themes"]))
    return lists, actions


def _join(words: list[str]) -> str:
    return " ".join(quote(w) for w in words)


def _functions(shell: str, lists: dict[str, list[str]], actions: dict[str, list[str]]) -> str:
    """The script's ``_tracker_*`` functions for ``shell``."""
    if shell == "bash":  # shtab calls each with the word being completed
        out = [f'_tracker_{name}() {{ compgen -W {quote(_join(words))} -- "$1"; }}'
               for name, words in lists.items()]
        out += [
            '_tracker_glob_toml() { compgen -f -X "!*.toml" -- "$1"; compgen -d -- "$1"; }',
            '_tracker_glob_any() { compgen -f -- "$1"; }',
            '_tracker_actions() {\n  case "${COMP_WORDS[2]}" in',  # tracker resolve RULESET
            *(f'    {quote(rid)}) compgen -W {quote(_join(names))} -- "$1" ;;'
              for rid, names in actions.items()),
            "  esac\n}",
        ]
    elif shell == "zsh":  # called by _arguments; $line holds the words before, options out
        out = [f"_tracker_{name}() {{ compadd -- {_join(words)} }}"
               for name, words in lists.items()]
        out += [
            "_tracker_actions() {\n  case $line[1] in",
            *(f"    {quote(rid)}) compadd -- {_join(names)} ;;" for rid, names in actions.items()),
            "  esac\n}",
        ]
    elif shell == "fish":
        out = [f"function _tracker_{name}\n  printf '%s\\n' {_join(words)}\nend"
               for name, words in lists.items()]
        out += [
            "function _tracker_actions\n  set -l words (commandline -opc)",
            "  set -l at (contains -i -- resolve $words)\n  or return",
            "  set -l ruleset $words[(math $at + 1)]\n  switch \"$ruleset\"",
            *(f"    case {quote(rid)}\n      printf '%s\\n' {_join(names)}"
              for rid, names in actions.items()),
            "  end\nend",
        ]
    else:
        raise ValueError(f"shell '{shell}': expected {', '.join(SHELLS)}")
    return "\n".join(out)
