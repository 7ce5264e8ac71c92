"""An action's dice stages as far as they are known before any die falls."""

from __future__ import annotations

from typing import Any

from tracker.core.dice import Dice, NeedDice, Request
from tracker.rules.base import Action


def known_stages(action: Action[Any], params: Any) -> list[dict[str, Any]]:
    """Each declared stage with its count, or None when an earlier stage decides it (or,
    with ``params`` None, when a parameter the count needs is not given yet); the first
    stage the rules ask for also with its target (``4+``, ``≤ 85``), as the rules work it
    out from the parameters."""
    out: list[dict[str, Any]] = []
    for st in action.stages:
        count = st.count(params) if st.count is not None and params is not None else None
        out.append(
            {"role": st.role, "die": st.die, "label": st.label, "help": st.help, "count": count}
        )
    first = _first_request(action, params)
    for known in out:
        if first is not None and known["role"] == first.role:
            known.update(count=first.count, die=f"d{first.sides}", target=first.target)
            break
    return out


def _first_request(action: Action[Any], params: Any) -> Request | None:
    try:
        action.resolve(params, Dice(mode="ask"))
    except NeedDice as need:
        return need.request
    except Exception:  # parameters the rules refuse: the declared stages are all there is
        return None
    return None
