"""An action's dice stages as far as they are known before any die falls."""

from __future__ import annotations

from typing import Any

from tracker.rules.base import Action


def known_stages(action: Action[Any], params: Any) -> list[dict[str, Any]]:
    """Each declared stage with its count, or None when an earlier stage decides it (or,
    with ``params`` None, when a parameter the count needs is not given yet)."""
    out: list[dict[str, Any]] = []
    for st in action.stages:
        count = st.count(params) if st.count is not None and params is not None else None
        out.append(
            {"role": st.role, "die": st.die, "label": st.label, "help": st.help, "count": count}
        )
    return out
