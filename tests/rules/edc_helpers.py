"""Running edc actions in tests as the tracker does, with dice entered by role.

``resolve`` is `tracker resolve`: parse, resolve, no encounter. ``run`` is what the
session does in an encounter: parse what was given, fill the rest from the encounter,
resolve, apply and commit one log entry. Both insist every entered die was used.
"""

from __future__ import annotations

from tracker import rules
from tracker.core.dice import Dice
from tracker.core.history import Transaction
from tracker.rules.base import Resolution
from tracker.rules.edc import EdcEncounter

EDC = rules.get("edc")


def resolve(action: str, rolls: dict[str, list[int]] | None = None, **raw: object) -> Resolution:
    act = EDC.action(action)
    params = act.parse_params({k: str(v) for k, v in raw.items()})
    d = Dice.from_spec(rolls or {}, seed=1, roll_rest=True)
    res = act.resolve(params, d)
    d.check_all_used()
    return res


def run(enc: EdcEncounter, action: str, rolls: dict[str, list[int]] | None = None,
        **raw: object) -> Resolution:
    act = EDC.action(action)
    given = act.parse_params({k: str(v) for k, v in raw.items()}, partial=True)
    given = {k: given[k] for k in raw}
    filled = {**given, **(act.fill(enc, dict(given)) if act.fill else {})}
    params = act.parse_params(filled)
    d = Dice.from_spec(rolls or {}, seed=1, roll_rest=True)
    tx = Transaction(enc)
    with tx:
        res = act.resolve(params, d)
        if act.apply:
            act.apply(enc, params, res, tx)
        d.check_all_used()
        tx.commit(res.text, kind=action, rolls=d.rolls)
    return res
