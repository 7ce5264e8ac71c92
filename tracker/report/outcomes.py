"""Results counted by an action's own odds: kills, stands removed, figures killed.

Where every label of an action's pre-roll odds is a count of one thing ("0 kills",
"1 kill", "2 kills, morale test"; "0 stands removed", "1 stand removed"; "0 killed"),
the odds the journal kept are the distribution of that count, and the label of what
happened says how many came. The ledger adds these up per side as it adds up dice.
"""

from __future__ import annotations

import re

from tracker.report.gather import Line
from tracker.rules.happened import head

_COUNT = re.compile(r"^(\d+)\s+([a-z][a-z ]*?)\s*(?:[,;(:]|$)")

NOUNS = {"kill": "kills", "kills": "kills", "killed": "kills", "stand removed":
         "stands removed", "stands removed": "stands removed", "unsaved hit": "unsaved hits",
         "unsaved hits": "unsaved hits"}
"""What the ledger calls the count a label names (other nouns are kept as written)."""


def counted(line: Line, odds: list[tuple[str, float]]) -> tuple[str, list[float], int] | None:
    """What the action's odds count, their distribution, and how many came (None when
    its odds are not counts of one thing, or what happened is not among them)."""
    if not odds or not line.happened:
        return None
    dist: dict[int, float] = {}
    nouns: set[str] = set()
    actual = None
    for label, p in odds:
        m = _COUNT.match(head(label).lower())
        if m is not None:
            n, noun = int(m.group(1)), m.group(2).strip()
            nouns.add(NOUNS.get(noun, noun))
        elif head(label).lower() == "destroyed" and isinstance(line.params.get("stands"), int):
            n = line.params["stands"]  # every stand removed (Warmaster names it so)
        else:
            return None
        dist[n] = dist.get(n, 0.0) + p
        if label == line.happened:
            actual = n
    if actual is None or len(nouns) != 1:
        return None
    out = [0.0] * (max(dist) + 1)
    for n, p in dist.items():
        out[n] = p
    return nouns.pop(), out, actual
