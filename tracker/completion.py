"""Shell completion: ``tracker completion bash|zsh|fish`` prints a script that shtab makes
from the command's own argparse parser: its subcommands and flags as the parser has them.

The parser marks what an argument takes with ``offers`` (encounter files, any file, a
ruleset, a sample, a theme, an action of the ruleset before it). The marks name shell
functions; the script defines them, with the words that come from the tracker itself
(the rulesets, each one's actions for ``tracker resolve``, the shipped samples and
themes) written in when the script is made (:mod:`tracker.shell.completion`). This
module holds only the marks, plain data the parser reads.
"""

from __future__ import annotations

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
