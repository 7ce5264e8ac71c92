"""``tracker resolve RULESET ACTION ...``: one action resolved with no encounter.

It starts light: neither argparse, nor Textual, nor pydantic, nor the store, nor the
typed commands (the action's words are read by ``tracker.session.language``); only the
ruleset and the action asked for (the tests hold it to that).
"""

from __future__ import annotations

import json
from typing import Any

from tracker import rules
from tracker.core.dice import Dice, DiceError
from tracker.rules import RuleError
from tracker.rules.stages import check_dice_roles, known_stages
from tracker.session.language import CommandError, message_of, read_words
from tracker.shell.errors import UsageError, fail

USAGE = (
    "usage: tracker resolve RULESET ACTION [name=value ...] "
    "[--dice ROLE=V1,V2 [ROLE=...]] [--roll-rest] [--seed N] [--stages] [--json]"
)


def _stage_params(action: Any, raw: dict[str, str]) -> Any:
    """The parameters for ``--stages``: checked as given; None while a required one is
    missing (the stages are then listed with their counts unknown)."""
    given = action.parse_params(raw, partial=True)
    if any(p.required and p.name not in given for p in action.params):
        return None
    return action.parse_params(raw)


def main(argv: list[str]) -> int:
    """Resolve one action with no encounter and print the result."""
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        print("\nRulesets and their actions (tracker resolve RULESET ACTION --help for one):")
        for rid in rules.RULESETS:
            try:
                rs = rules.get(rid)
            except (ImportError, RuleError):
                continue
            print(f"  {rid}: {', '.join(rs.actions) or '(none yet)'}")
        return 0
    try:
        ruleset = rules.get(argv[0])
        if len(argv) < 2 or argv[1] in ("-h", "--help"):
            print(USAGE)
            print(f"\n{ruleset.id} actions:")
            for action in ruleset.actions.values():
                print(f"  {action.name}: {action.help}")
            return 0 if len(argv) >= 2 else 2
        action = ruleset.action(argv[1])
        if any(w in ("-h", "--help") for w in argv[2:]):
            print(action.help_text())
            return 0
        cmd = read_words([action.name, *argv[2:]], flags=("--json", "--stages"))
        if cmd.args:
            raise UsageError(f"'{cmd.args[0]}': expected name=value ({USAGE})")
        if "--stages" in cmd.flags:
            stages = known_stages(action, _stage_params(action, cmd.params))
            if "--json" in cmd.flags:
                print(json.dumps({"action": action.name, "stages": stages}))
            else:
                roles = [st["role"] for st in stages]
                for st in stages:
                    count = "?" if st["count"] is None else st["count"]
                    target = f" ({st['target']})" if st.get("target") else ""
                    # a role asked for more than once (a unit each) says whose it is
                    why = f" - {st['why']}" if st.get("why") and roles.count(st["role"]) > 1 else ""
                    print(f"{st['role']}: {count} {st['die']} {st['label']}".rstrip()
                          + target + why)
            return 0
        check_dice_roles(action, cmd.dice)
        params = action.parse_params(cmd.params)
        dice = Dice.from_spec(cmd.dice, seed=cmd.seed, roll_rest=cmd.roll_rest)
        resolution = action.resolve(params, dice)
        dice.check_all_used()
    except (RuleError, DiceError, UsageError, LookupError, CommandError) as exc:
        return fail(message_of(exc))
    if "--json" in cmd.flags:
        print(json.dumps(resolution.as_json()))
    else:
        print(resolution.text)
        for key, value in resolution.figures.items():
            print(f"  {key}: {value}")
        for roll in resolution.rolls:
            print(f"  die {roll.role} d{roll.sides}: {roll.value} ({roll.source})")
        if cmd.dice:
            for role in dice.certain_rolled():
                print(f"  {role}: no die can change it, rolled by the tracker")
    return 0
