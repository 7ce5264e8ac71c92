"""``tracker completion bash|zsh|fish``: the completion script shtab makes from the
command's own parser, with the functions its marks (:mod:`tracker.completion`) name and the
words they offer (the rulesets, each one's actions, the shipped samples and themes)."""

from __future__ import annotations

import argparse
import sys
from shlex import quote

import shtab
from textual.theme import BUILTIN_THEMES

from tracker import rules
from tracker.completion import SHELLS
from tracker.shell.parser import build_parser
from tracker.store.paths import encounter_files, samples_dir, themes_dir


def cmd_completion(ns: argparse.Namespace) -> int:
    sys.stdout.write(script(build_parser(), ns.shell))
    return 0


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell``."""
    return str(shtab.complete(parser, shell=shell, preamble=_functions(shell, *_words())))


def _words() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The word lists the script carries, and each ruleset's action names."""
    actions: dict[str, list[str]] = {}
    for rid in rules.RULESETS:
        try:
            names = list(rules.get(rid).actions)
        except (ImportError, rules.RuleError):
            continue
        if names:
            actions[rid] = names
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
