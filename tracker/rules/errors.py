"""The one error the rules raise: a request they refuse, with the reason in words."""

from __future__ import annotations


class RuleError(ValueError):
    """A request the rules refuse: out of range, an illegal action, a bad parameter."""
