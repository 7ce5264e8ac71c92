"""The battle report as JSON: every line, the losses and the luck ledger, as data."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tracker.report.gather import Gathered
from tracker.report.ledger import ledger
from tracker.report.losses import FIELDS
from tracker.report.words import unrecorded_words


def as_data(g: Gathered) -> dict[str, Any]:
    lines = []
    for line in g.lines:
        data = dataclasses.asdict(line)
        data["stages"] = [s.model_dump() for s in line.stages]
        data["dice"] = [{**dataclasses.asdict(d), "success": d.success} for d in line.dice]
        lines.append(data)
    losses = {
        side: {
            "by_round": {str(r): _loss(g.losses.of(side, r)) for r in g.rounds},
            "total": _loss(g.losses.total(side)),
        }
        for side in g.sides
    }
    tallies = [{"side": t.side, "who": t.who, "measure": t.measure, "dice": t.dice,
                "actions": t.actions,
                "expected": round(t.expected, 6), "actual": t.actual,
                "chance_at_least": round(t.chance, 6)} for t in ledger(g.lines)]
    return {"name": g.name, "ruleset": g.ruleset, "side": g.side, "sides": g.sides,
            "rounds": g.rounds, "unrecorded": g.unrecorded,
            "note": unrecorded_words(g.unrecorded, g.actions), "lines": lines,
            "losses": losses, "ledger": tallies}


def _loss(loss: Any) -> dict[str, int]:
    return {name: int(getattr(loss, name)) for name in FIELDS}


def render_json(g: Gathered) -> str:
    return json.dumps(as_data(g), indent=2, ensure_ascii=False) + "\n"
