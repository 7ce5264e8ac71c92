"""Warmaster Revolution: the Shooting phase (WM).

Units of stands. Attack values read close/shooting (3/1); the attack dice of a shot are
the shooting Attacks of the stands in range, summed over every unit shooting the target
in one batch. To hit 4+; 5+ against infantry/artillery in a defended position, 6 in a
fortified one. Armour (6+ to 3+) saves one hit per die. A stand is removed each time the
unit's Hits (hits per stand) are reached; leftover hits stay on the unit until the end of
the phase. At the end of the phase every unit hit is driven back one die per hit (a
defended unit ignores the first hit, a fortified one the first two): any 6 confuses,
a total above full pace routs and removes the unit. Chargers shot in the enemy's turn
lose stands at once, are not driven back, and carry the hits into the first combat round.

Actions (one a file in ``actions/``): ``shoot``, ``driveback``, ``endphase``. Tables:
``tables.toml``. The unit model (``model.py``) carries the Warmaster fields.

Settings (rule decisions the text leaves to the table):
- ``split_batches`` (default yes): when some stands of the target are protected and some
  exposed, the shot is rolled in batches so that the exposed stands are hit at 4+ until
  they are all destroyed and the rest at the position's score. The batches are sized so
  no hit spills past the last exposed stand, which is what rolling die by die would give.
  With ``no`` every die is rolled at 4+ while any stand is exposed (a table shortcut).
- ``confusion_ends`` (default own_turn): a unit confused by a drive back is "unable to
  move in their following turn"; the Confusion section the text refers to is not in it,
  so it recovers at the end of that turn (own_turn) or of its next movement phase
  (movement). The tracker keeps no moves: its movement phase names the units that may
  not move, and the roster marks them "confused: no move".
- ``confused_shoot`` (default no): whether a confused unit shoots, which the text does not
  say; by default its shot is refused (``force=yes`` takes it).

Readings of the text the tracker makes (not settings):
- Leftover hits from earlier shots this phase count against the exposed stands first,
  since unprotected stands are removed first.
- Hits on chargers and on engaged units count as struck in the first combat round: they
  are kept on the unit as ``carried_hits`` until the end of that combat phase; a charger's
  odd hits are those carried hits short of a stand (a second charge shot counts them).
- Who shoots when: in its own Shooting phase, once; at chargers in the enemy's movement
  phase only (as many times as it is charged, with its stands not yet engaged); not at
  all in the command or combat phase, nor once the drive backs are worked out.
- A unit routed by a drive back is removed whole; its stands are not counted as
  casualties of the shooting (the roster shows it routed).
"""

from __future__ import annotations

from tracker.rules.ruleset import Ruleset, lazy_models

ACTIONS = ("shoot", "driveback", "endphase")

RULESET = Ruleset.of_package(__name__, "WarmasterEncounter", ACTIONS,
                             name="Warmaster Revolution shooting", scale="mass")


__getattr__ = lazy_models(__name__, ("WarmasterEncounter", "WarmasterUnit"))
