"""The one error the rules raise: a request they refuse, with the reason in words; and
its kind that no ``force=yes`` passes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


class RuleError(ValueError):
    """A request the rules refuse: out of range, an illegal action, a bad parameter."""


class Impossible(RuleError):
    """An action that who acts cannot take with what they have, as the action is filled
    in for them: no ``force=yes`` passes it (a bow is neither spanned nor thrown), where
    it passes a rule's limit (once a round, not loaded yet)."""


def find_named(
    items: Iterable[T], key: str, key_of: Callable[[T], str], refuse: Callable[[str], str]
) -> T:
    """The item whose key is ``key``; else a RuleError worded by ``refuse`` from the keys
    there are, comma separated ("none" where there are none)."""
    listed = list(items)
    for item in listed:
        if key_of(item) == key:
            return item
    have = ", ".join(key_of(item) for item in listed) or "none"
    raise RuleError(refuse(have))
