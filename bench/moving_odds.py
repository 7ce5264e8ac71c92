"""The moving odds of the dice step: each way the dice left can fall walked by the
action's own resolver, before (every set of faces, nothing kept between walks) and now
(stages read by kind walked as how many dice fall of each kind, the resolver's answers
kept between walks).

usage: python -m bench.moving_odds [--repeats N] [--cap SECONDS]

For each case: the walk before any die, and after the first die of the first stage,
cold (nothing kept) and warm (after the walk before it, as the dice step does), with
the resolver runs each took. The walk of every set of faces is stopped at ``--cap``
seconds; the dice step gave it 3,000 resolver runs and then showed the odds before any
die instead. Ratios, not gates: nothing fails on a time.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from tracker import rules
from tracker.core.dice import Dice, NeedDice
from tracker.rules.stage_odds import Memo, TooMany, exact_odds

OLD_BUDGET = 3000

CASES: list[tuple[str, str, str, dict[str, str]]] = [
    ("Warmaster shoot, 6 dice (saves 4+, 3 hits a stand)", "warmaster", "shoot",
     {"attacks": "6", "armour": "4", "hits_per_stand": "3", "stands": "3"}),
    ("Warmaster shoot, 12 dice (saves 4+, 3 hits a stand)", "warmaster", "shoot",
     {"attacks": "12", "armour": "4", "hits_per_stand": "3", "stands": "4"}),
    ("edc exchange, 4d10 vs 3d10", "edc", "exchange",
     {"attack_dice": "4", "atn": "6", "defense_dice": "3", "dtn": "6"}),
    ("edc exchange, 6d10 vs 6d10", "edc", "exchange",
     {"attack_dice": "6", "atn": "7", "defense_dice": "6", "dtn": "7"}),
    ("edc exchange, 6 vs 4, press 6 (Roland's press)", "edc", "exchange",
     {"attack_dice": "6", "atn": "6", "defense_dice": "4", "dtn": "6", "press_dice": "6"}),
    ("d6battle shoot, 20 shots (hit 4+, save 3+, kill 2+)", "d6battle", "shoot",
     {"figures": "20", "sa": "3", "weapon": "bow", "durability": "5", "save": "4"}),
    ("Harn missile shot (d100, count, impact, zone)", "harn", "missile",
     {"ml": "75", "range": "20", "br": "40", "target": "still"}),
    ("Warlord fire (d100)", "warlord", "fire",
     {"bfp": "18", "mods": "-1,3,4", "figures": "10", "range": "medium"}),
]


def first_die(act: Any, params: Any) -> dict[str, list[int]]:
    """The first die of the first stage, as a middling face."""
    try:
        act.resolve(params, Dice(mode="ask"))
    except NeedDice as need:
        req = need.request
        return {req.role: [min(req.sides, max(1, req.need or (req.sides + 1) // 2))]}
    return {}


def timed(fn: Any, repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def old_walk(act: Any, params: Any, answers: dict[str, list[int]], cap: float) -> str:
    """Every set of faces, nothing kept: the time, or how far it got by ``cap``."""
    memo: Memo = {}
    start = time.perf_counter()
    try:
        exact_odds(act, params, answers, budget=10**9, by_kind=False, memo=memo,
                   stale=lambda: time.perf_counter() - start > cap)
    except TooMany:
        return f"> {cap:.0f} s ({len(memo):,}+ runs)"
    took = time.perf_counter() - start
    shown = "moved" if len(memo) <= OLD_BUDGET else "not shown (past 3,000)"
    return f"{_ms(took)} ({len(memo):,} runs, {shown})"


def new_walk(act: Any, params: Any, answers: dict[str, list[int]], repeats: int,
             warm_from: dict[str, list[int]] | None) -> str:
    def cold() -> int:
        memo: Memo = {}
        exact_odds(act, params, answers, budget=10**9, memo=memo)
        return len(memo)

    took, runs = timed(cold, repeats)
    text = f"{_ms(took)} ({runs:,} runs)"
    if warm_from is not None:
        def warm() -> float:
            memo: Memo = {}
            exact_odds(act, params, warm_from, budget=10**9, memo=memo)
            start = time.perf_counter()
            exact_odds(act, params, answers, budget=10**9, memo=memo)
            return time.perf_counter() - start

        again = statistics.median(warm() for _ in range(repeats))
        text += f"; after the walk before it {_ms(again)}"
    return text


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cap", type=float, default=20.0)
    args = ap.parse_args()
    print("| case | dice in | before: every set of faces | now: by kind, kept |")
    print("|---|---|---|---|")
    for title, rid, name, raw in CASES:
        act = rules.get(rid).action(name)
        params = act.parse_params(raw)
        one = first_die(act, params)
        for answers, warm_from in (({}, None), (one, {})):
            shown = ", ".join(f"{r}={v[0]}" for r, v in answers.items()) or "none"
            before = old_walk(act, params, answers, args.cap)
            now = new_walk(act, params, answers, args.repeats, warm_from)
            print(f"| {title} | {shown} | {before} | {now} |", flush=True)


if __name__ == "__main__":
    main()
