"""Which of an action's pre-roll odds is the outcome that happened.

An action's odds name its outcomes in the game's words ("2 kills", "1 stand removed",
"MoS 3: hit", "CS: strike", "failed, flees"); its resolution names what happened by an
outcome word and its figures (``kills = 2``, ``success = "CS"``). When an action is
resolved the action says which of its labels is what happened (``Action.happened``:
by default :func:`label_of`, the label its ``outcome_labels`` give the outcome word, else
the one :func:`which` finds), and the journal keeps it, so a report reads the chance of
what happened and never works it out again. Where no label matches clearly, none is
kept (the report says the odds did not name it).

Pure Python, no imports beyond the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tracker.core.words import digits

if TYPE_CHECKING:
    from tracker.rules.base import Resolution

_COUNT = re.compile(r"^(\d+)(?:\s*[-–]\s*(\d+))?\s+([a-z][a-z ]*?)\s*(?:[,;(:]|$)")
"""``2 kills``, ``0-2 kills (mean ...)``, ``1 stand removed``: a number (or range), a noun."""
_SCORE = re.compile(r"\b([A-Za-z]+)\s+(-?\d+)\b")
"""``MoS 3: hit``, ``hit, MoS 3``: a figure's name and its value."""
_CODE = re.compile(r"^([A-Z]+\d*)\s*:\s*(.+)$")
"""``CS: strike``: a success level and what follows from it."""
_WORD = re.compile(r"[a-z0-9]+")


def head(label: str) -> str:
    """A label without its note in brackets ("0 kills (mean 2.50 kills)" -> "0 kills")."""
    return label.split(" (", 1)[0].strip()


def which(labels: Sequence[str], outcome: str, figures: Mapping[str, Any]) -> int | None:
    """The index of the label that names what happened, or None when none clearly does."""
    heads = [head(label) for label in labels]
    low = outcome.strip().lower()
    exact = [i for i, h in enumerate(heads) if h.lower() == low]
    if len(exact) == 1:
        return exact[0]
    first = [i for i, h in enumerate(heads) if re.split(r"[,:;]", h.lower())[0] == low]
    if len(first) == 1:
        return first[0]
    for match in (_by_count, _by_score, _by_code):
        found = match(heads, low, figures)
        if found is not None:
            return found
    return _by_words(heads, low, figures)


def label_of(odds: Sequence[tuple[str, float]], res: Resolution,
             named: Mapping[str, str] | None = None) -> str:
    """The label of ``odds`` that is the outcome ``res`` resolved ("" where none is):
    the one ``named`` gives its outcome word, else the one :func:`which` finds."""
    labels = [label for label, _ in odds]
    given = (named or {}).get(res.outcome)
    if given is not None:
        return given if given in labels else ""
    try:
        index = which(labels, res.outcome, res.as_json())
    except (TypeError, ValueError, AttributeError):  # figures a ruleset keeps its own way
        return ""
    return "" if index is None else labels[index]


def _number(figures: Mapping[str, Any], key: str) -> int | None:
    value = figures.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _stem(word: str) -> str:
    for ending in ("ed", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


def _count_key(noun: str, figures: Mapping[str, Any]) -> str | None:
    """The figure a label's noun counts: ``stand removed`` -> ``stands_removed``,
    ``kills`` or ``killed`` -> ``kills``, ``unsaved hits`` -> ``unsaved``."""
    words = noun.split()
    counts = [key for key in figures if _number(figures, key) is not None]
    for tried in (words, *([w] for w in words)):
        stems = tuple(_stem(w) for w in tried)
        for key in counts:
            if tuple(_stem(w) for w in key.split("_")) == stems:
                return key
    return None


def _by_count(heads: Sequence[str], low: str, figures: Mapping[str, Any]) -> int | None:
    parsed = [_COUNT.match(h.lower()) for h in heads]
    if not any(parsed):
        return None
    for i, m in enumerate(parsed):
        if m is None:
            continue
        key = _count_key(m.group(3), figures)
        value = None if key is None else _number(figures, key)
        if value is None:
            continue
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if lo <= value <= hi:
            return i
    # a label with no number ("destroyed") that a true figure of the same name names
    for i, (h, m) in enumerate(zip(heads, parsed, strict=True)):
        if m is None and figures.get(h.lower().replace(" ", "_")) is True:
            return i
    return None


def _by_score(heads: Sequence[str], low: str, figures: Mapping[str, Any]) -> int | None:
    hits = []
    for i, h in enumerate(heads):
        pairs = [(m.group(1).lower(), int(m.group(2))) for m in _SCORE.finditer(h)]
        named = [(k, v) for k, v in pairs if _number(figures, k) is not None]
        if named and all(_number(figures, k) == v for k, v in named):
            hits.append(i)
    if len(hits) > 1:
        hits = [i for i in hits if low in _WORD.findall(heads[i].lower())]
    return hits[0] if len(hits) == 1 else None


def _coded(code: str, codes: set[str]) -> bool:
    """A label's code is a figure's (``CS``), or one with a digit added (``CF0`` of ``CF``)."""
    return code in codes or any(code.startswith(c) and digits(code[len(c):]) for c in codes)


def _by_code(heads: Sequence[str], low: str, figures: Mapping[str, Any]) -> int | None:
    codes = {str(v) for v in figures.values() if isinstance(v, str)}
    words = {low, *(str(v).lower() for v in figures.values() if isinstance(v, str))}
    hits = []
    for i, h in enumerate(heads):
        m = _CODE.match(h)
        if m and _coded(m.group(1), codes) and m.group(2).strip().lower() in words:
            hits.append(i)
    return hits[0] if len(hits) == 1 else None


def _evidence(low: str, figures: Mapping[str, Any]) -> set[str]:
    words = set(_WORD.findall(low.replace("_", " ")))
    for key, value in figures.items():
        if isinstance(value, str) and key not in ("text", "action"):
            words.update(_WORD.findall(value.lower().replace("_", " ")))
        elif value is True:
            words.update(_WORD.findall(key.lower().replace("_", " ")))
    return words


def _by_words(heads: Sequence[str], low: str, figures: Mapping[str, Any]) -> int | None:
    """The label most of whose words the outcome and the figures say, if one stands out
    and the outcome word is among them."""
    seen = _evidence(low, figures)
    own = set(_WORD.findall(low.replace("_", " ")))
    scores: list[tuple[float, int]] = []
    for i, h in enumerate(heads):
        words = _WORD.findall(h.lower())
        if not words or not own & {_stem(w) for w in words} | own & set(words):
            continue
        said = sum(1 for w in words if w in seen or _stem(w) in seen)
        scores.append((said / len(words), i))
    scores.sort(reverse=True)
    if not scores or scores[0][0] < 0.5:
        return None
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        return None
    return scores[0][1]
