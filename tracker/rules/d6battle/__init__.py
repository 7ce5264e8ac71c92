"""d6battle: a d6 mass-battle game: shooting (d6 + SA >= 7), the weapon table, armour
saves, kill rolls against Durability, morale from casualties, close combat with rank and
push & shove bonuses, combat results and routs.

Abbreviations: SA Shooting Ability, CA Combat Ability, Mo Morale, D Durability, KA Killing
Ability, AP Armour Penetration, ROF rate of fire.

Phases: shoot (the player whose round it is shoots, selecting each unit and resolving it
before the next), combat (the side with Strategic Advantage selects the order of the
combats), resolution (units that failed a morale test from shooting flee).

Actions (one a file in ``actions/``): ``shoot``, ``combat``, ``morale`` (the test queued
by shooting casualties), ``command`` (a unit charged in the flank). Tables (TOML beside
this file): ``weapons``, ``armour``, ``shooting`` (its modifiers as rows), ``morale``,
``combat`` (bonuses and results as rows). Settings (the decisions the text leaves open):
``settings.py``. Units: ``model.py``; the roster: ``roster.py``.

Readings of the text the tracker makes (not settings): a battle formation is every
formation but skirmish; the impact bonus is the charge impact bonus (charge_X=yes means a
charge on a target in the frontal attack zone); cavalry get no rank bonus but the other
combat bonuses; the combat bonuses (push & shove too) need the minimum size at the end of
the combat; mass shooting changes no die, it is a legality check (the GM counts the
figures that fire); the morale table is extended past 40 figures at one casualty per 5
figures.
"""

from __future__ import annotations

from tracker.rules.ruleset import Ruleset, lazy_models

ACTIONS = ("shoot", "combat", "morale", "command")

RULESET = Ruleset.of_package(__name__, "D6Encounter", ACTIONS, name="d6 mass battle",
                             scale="mass")

__all__ = ["RULESET", "D6Encounter", "D6Unit"]


__getattr__ = lazy_models(__name__, ("D6Encounter", "D6Unit"))
