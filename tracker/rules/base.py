"""The rules kit: actions, their dice stages, their typed figures, and the Ruleset.

An :class:`Action` is a class with a typed, frozen parameter model
(:class:`~tracker.rules.params.Params`). Its pure ``resolve(params, dice)`` is what
`tracker resolve` calls with no encounter; ``fill`` draws parameter defaults from an
encounter (the shooter's stands, the target's armour); ``apply`` writes a resolution into
an encounter through a :class:`~tracker.core.history.Transaction`; ``odds`` gives the exact
chance of each outcome before any die is rolled. An action also declares its dice as
ordered :class:`Stage` s, the phases it may be taken in and how often an actor may take it.

The kit lives in :mod:`tracker.rules.action` (actions, stages, figures, resolutions),
:mod:`tracker.rules.params` (parameter models) and :mod:`tracker.rules.ruleset`; rulesets
import it from here.
"""

from __future__ import annotations

from tracker.rules.action import Action, Figures, Odds, Omit, Resolution, Scope, Stage
from tracker.rules.errors import RuleError
from tracker.rules.params import REQUIRED, Param, ParamKind, Params, param
from tracker.rules.ruleset import ROUND_RESETS, LazyActions, Pane, Ruleset, lazy_models
from tracker.rules.setting import Setting

__all__ = [
    "REQUIRED", "ROUND_RESETS", "Action", "Figures", "LazyActions", "Odds", "Omit", "Pane",
    "Param", "ParamKind", "Params", "Resolution", "RuleError", "Ruleset", "Scope", "Setting",
    "Stage", "lazy_models", "param",
]
