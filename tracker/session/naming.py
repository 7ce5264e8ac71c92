"""Names typed as words: ``damage goblin 1 goblin 2 7`` names Goblin 1 and Goblin 2.

A name of several words may be typed without quotes: the longest run of words that is
exactly the name of a combatant or unit (in any case) is taken as one name; any other
word is a name on its own (an id, a name, or the unique start of one).
"""

from __future__ import annotations

from tracker.core.model import Encounter

LONGEST = 6
"""The most words a name typed without quotes is looked for in."""


def phrases(enc: Encounter, words: list[str]) -> list[str]:
    """The names ``words`` make, in order."""
    known = {x.name.lower() for x in enc.everyone}
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + LONGEST), i + 1, -1):
            phrase = " ".join(words[i:j])
            if phrase.lower() in known:
                out.append(phrase)
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out
