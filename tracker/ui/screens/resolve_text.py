"""What the resolve dialog says: chances, the odds line, and what an empty box means."""

from __future__ import annotations

import re

from tracker.core.words import percent
from tracker.rules.base import Odds
from tracker.rules.params import Param


def odds_text(odds: Odds, limit: int = 12) -> str:
    """The outcomes in the resolver's order; impossible ones are left out."""
    possible = [(label, p) for label, p in odds if p > 0]
    parts = [f"{label} {percent(p)}" for label, p in possible[:limit]]
    if len(possible) > limit:
        parts.append("…")
    return " · ".join(parts)


def left_open(p: Param) -> str | None:
    """What a parameter's "not given" value means, for one whose default says so: none
    (the roster fills it in) or -1 where its help reads "(-1: what happens)"."""
    if p.default is None:
        return "from the roster"
    if p.default == -1 and "(-1: " in p.help:
        return p.help.split("(-1: ", 1)[1].split(")", 1)[0]
    return None


def field_hint(p: Param) -> str:
    """What an empty box says: a value left open says what is used instead, after what
    the value is where its help does not say where it comes from ("feet to the target,
    or from the roster"); a help that says what an empty box means ("(default: not
    measured)", "(none: open sky)") is the hint itself."""
    instead = left_open(p)
    if instead == "from the roster" and _empty_means(p.help):
        return p.help[:60]
    said = any(w in p.help.lower() for w in ("default", "roster", "encounter"))
    if instead == "from the roster" and p.help and not said:
        hint = f"{_head(p.help)}, or {instead}"
        return hint if len(hint) <= 44 else instead  # whole in the box at 80 columns
    return instead or p.help[:60] or p.kind


def field_help(p: Param) -> str:
    """What a field is, as the line under the form says it while the field has the focus:
    its help, and the words it takes where the help does not name them all ("what the
    test gave: passed or failed")."""
    text = p.help or p.kind
    words = [c for c in p.choices if c]
    if not words or all(w in text for w in words):
        return text
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    if "" in p.choices:
        listed += ", or empty"
    return f"{text}: {listed}"


def roster_hint(p: Param) -> str:
    """What an empty box says once the one acting (and their target) are named. The box
    shows the roster's value where it has one, so for a value the roster fills in it says
    first that the roster has none ("none on the roster: feet to the target"); where the
    help says what else an empty box means, the help ("cm to the target (default: not
    measured)")."""
    if left_open(p) != "from the roster" or _empty_means(p.help):
        return field_hint(p)
    help_ = re.sub(r"\s*\(default: from the (roster|encounter)\)", "", p.help)
    head = _head(help_)
    return f"none on the roster: {head}" if head else "none on the roster"


def _empty_means(help_: str) -> str:
    """What a help says an empty value means, other than the roster's or the
    encounter's value: "not measured" of "cm to the target (default: not measured)",
    "open sky" of "(none: open sky)"; "" where it says none."""
    found = re.search(r"\((?:default|none): ([^)]*)\)", help_)
    if found is None or found.group(1).startswith(("from the roster", "from the encounter")):
        return ""
    return found.group(1)


def _head(help_: str) -> str:
    """A help without the aside it ends with ("cm to the target (default: not measured)"
    reads "cm to the target"; "A (actor): armour parts" keeps its own)."""
    return re.sub(r"\s*\([^()]*\)$", "", help_)


def is_records(value: object) -> bool:
    """A list of records the encounter fills in (the units an end of phase drives back)."""
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(v, dict) for v in value)


def record_rows(name: str, records: list[dict[str, object]]) -> str:
    """Records as rows, one a line, in words: ``Halberdiers: hits 3 · pace 20 · defended``
    (a flag that is set by its name, one that is not left out; no ids)."""
    lines = [f"{name} (from the roster; type in the box to give others):"]
    for record in records:
        bits = []
        for key, value in record.items():
            if key in ("id", "name") or value is None or value is False:
                continue
            bits.append(key if value is True else
                        str(value) if isinstance(value, str) else f"{key} {value}")
        lines.append(f"  {record.get('name', '?')}: {' · '.join(bits)}")
    return "\n".join(lines)
