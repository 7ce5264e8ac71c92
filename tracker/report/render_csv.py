"""The battle report as CSV: one row per die, with its action and whether it was entered
or rolled by the tracker (``source``)."""

from __future__ import annotations

import csv
import io

from tracker.report.gather import Gathered

COLUMNS = ("entry", "round", "phase", "turn", "actor", "action", "target", "role", "stage",
           "sides", "value", "source", "target_number", "success", "outcome",
           "happened", "pre_roll_chance")


def render_csv(g: Gathered) -> str:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(COLUMNS)
    for line in g.lines:
        for die in line.dice:
            number = (f"{die.need}+" if die.need is not None
                      else f"<={die.under}" if die.under is not None else "")
            success = "" if die.success is None else ("yes" if die.success else "no")
            chance = "" if line.chance is None else f"{line.chance:.6f}"
            out.writerow((line.index, line.round, line.phase, line.turn, line.actor,
                          line.action or line.kind, line.target, die.role, die.stage,
                          die.sides, die.value, die.source, number, success, line.outcome,
                          line.happened, chance))
    return buf.getvalue()
