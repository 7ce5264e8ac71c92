"""The rules kit, as rulesets import it: actions, their dice stages and typed figures
(:mod:`tracker.rules.action`), parameter models (:mod:`tracker.rules.params`) and the
Ruleset (:mod:`tracker.rules.ruleset`).
"""

from __future__ import annotations

from typing import Any

from tracker.rules.action import Action, Figures, Odds, Omit, Resolution, Scope, Stage
from tracker.rules.errors import Impossible, RuleError
from tracker.rules.params import REQUIRED, Param, ParamKind, Params, param
from tracker.rules.relations import AtMost
from tracker.rules.ruleset import ROUND_RESETS, LazyActions, Pane, Ruleset, lazy_models
from tracker.rules.setting import Setting

__all__ = [
    "REQUIRED", "ROUND_RESETS", "Action", "AtMost", "Figures", "Impossible", "LazyActions",
    "Odds", "Omit",
    "Pane", "Param", "ParamKind", "Params", "Resolution", "RuleError", "Ruleset", "Scope",
    "Setting", "Stage", "lazy_models", "param", "setting_param",
]


def setting_param(setting: Setting) -> Any:
    """A parameter that carries a setting: the setting's default, help and choices."""
    return param(help=setting.help, setting=setting, choices=setting.choices)
