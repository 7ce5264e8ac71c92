"""What a plain combatant's numbers and an action's may be, declared once: the fields'
domains, and the bounds the actions' parameters and ``add``'s ``count`` take from them."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tracker.core.domains import Domain

HP = Domain(ge=0)
"""Hit points now: 0 is down."""
MAX_HP = Domain(ge=1)
"""Hit points at most."""
TEMP_HP = Domain(ge=0)
"""Temporary hit points, lost first."""
DEFENCE = Domain(ge=0, le=100)
"""A defence an attack is made against (AC 15)."""
INIT_BONUS = Domain(ge=-20, le=30)
"""Added to the initiative die."""
BONUS = Domain(ge=-30, le=50)
"""Added to an attack's or a save's d20."""
DC = Domain(ge=1, le=60)
"""A save's difficulty: the total to reach."""
CRIT = Domain(ge=2, le=20)
"""The lowest d20 that is a critical hit."""
COUNT = Domain(ge=1, le=50)
"""How many join at once with ``add combatant NAME count=N``."""
POINTS = Domain(ge=1, le=9999)
"""The hit points one ``damage`` or ``heal`` moves."""

InitBonus = Annotated[int, Field(ge=INIT_BONUS.ge, le=INIT_BONUS.le)]
"""One initiative bonus of a list (a parameter's item)."""
Bonus = Annotated[int, Field(ge=BONUS.ge, le=BONUS.le)]
"""One d20 bonus of a list (a parameter's item)."""
