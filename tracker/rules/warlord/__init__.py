"""Fantasy Warlord (1990) missile fire, phase eight of the game turn.

All missile fire is simultaneous: each unit with a fire order (``order``) fires at up to
three targets, each figure once (``fire``: BFP + modifiers = MFP, × figures = FFP, medium
range halves it and long range divides it by three, each full 100% kills one figure and
the remainder is a d100 roll-under for one more). The kills are held on the targets until
every unit has fired; ``endphase`` then removes them together and flags the units that
lost figures for morale tests (``morale`` records each, in the morale tests phase). The
phase's end removes what is still held even where the GM left fire orders unfired (the
sequence's lifetimes). ``holdfire`` takes a fire order counter off; ``movefire`` works out
how far a unit may move and fire, and ``fire`` refuses foot that moved further this turn.

Actions (one a file in ``actions/``); the game turn (``sequence.py``); the roster
(``roster.py``); units (``model.py``). Tables, TOML beside this file: ``tables.toml``
(range divisors, targets, kills per 100%) and ``profiles.toml``, a sample profile sheet
(ranks for firing, weapons with range bands, the weapon × armour BFP chart, firing
modifiers as rows); only the values it lists as ``printed`` come from the rules text.

Settings (what the text leaves open or does not print, ``settings.py``):
- ``remainder_rounding``: down (default) / nearest / up: how the remainder left after
  dividing the FFP is rounded to the whole percent the d100 is rolled against. The exact
  fraction is always kept and shown.
- ``morale_test_when``: any_loss (default: every unit that lost figures tests) or
  class_threshold (a unit tests when its loss reaches its class's percentage).
- ``morale_thresholds``: CLASS:PERCENT list for class_threshold; the morale classes and
  thresholds are not printed in the fire rules, so the default A:50 ... E:10 is sample data.
- ``require_fire_order``: a unit may only fire while it holds a fire order counter.
- ``profiles``: the profile sheet TOML to use (empty: the sample sheet).
"""

from __future__ import annotations

from tracker.rules.ruleset import Ruleset, lazy_models

from .units import target_problem, valid_targets

ACTIONS = ("fire", "endphase", "order", "holdfire", "movefire", "morale")

RULESET = Ruleset.of_package(__name__, "WarlordEncounter", ACTIONS,
                             name="Fantasy Warlord missile fire", scale="mass")


__all__ = ["RULESET", "WarlordEncounter", "WarlordUnit", "target_problem", "valid_targets"]


__getattr__ = lazy_models(__name__, ("WarlordEncounter", "WarlordUnit"))
