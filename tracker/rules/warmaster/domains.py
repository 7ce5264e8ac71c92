"""What a Warmaster unit's position, troop type and armour may be: the choices the
actions' parameters offer and the domains of the unit's fields, declared once."""

from __future__ import annotations

from tracker.core.domains import Domain

POSITIONS = ("open", "defended", "fortified")
"""A unit's position (the parameter choices; the table gives their scores)."""
KINDS = ("infantry", "cavalry", "chariots", "artillery", "monster", "machine", "other")
"""A unit's troop type, as its profile gives it: Table 1 reads it (infantry and
artillery are harder to hit in cover), and the paces by type are settings."""
ARMOUR = Domain(ge=3, le=6, said="Warmaster armour is 3 to 6 (a save of 3+ to 6+), or none")
"""Armour 6+, 5+, 4+ or 3+: the score that saves a hit; a unit may have none."""
