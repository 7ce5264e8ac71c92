"""The binomial of tracker.core.odds against icepool's ``n @ coin``, and the d6battle odds
that lean on it, each worked out from cold (caches cleared before every run).

usage: python -m bench.binomial [--repeats N]

The two binomials give the same floats (both divide whole-number weights once); the
table says how long each takes.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from tracker.core import odds

CASES = [(12, Fraction(1, 2)), (30, Fraction(7, 54)), (60, Fraction(10, 81)),
         (60, Fraction(1, 3)), (200, Fraction(35, 216))]


def icepool_binomial(n: int, p: Fraction) -> tuple[float, ...]:
    coin = icepool.Die({1: p.numerator, 0: p.denominator - p.numerator})
    total = coin.denominator() ** n
    out = [0.0] * (n + 1)
    for outcome, weight in (n @ coin).items():
        out[int(outcome)] = weight / total
    return tuple(out)


def cold(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        odds._binomial.cache_clear()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def d6battle_cases() -> list[tuple[str, Callable[[], Any]]]:
    from tracker import rules

    rs = rules.get("d6battle")
    shoot, combat = rs.action("shoot"), rs.action("combat")
    volley = shoot.parse_params({"figures": "30", "sa": "3", "weapon": "slings",
                                 "durability": "6", "unit_size": "40"})
    fight = combat.parse_params({
        "figures_a": "30", "ca_a": "3", "ka_a": "3", "durability_a": "4", "mo_a": "7",
        "ranks_a": "3", "figures_b": "30", "ca_b": "4", "ka_b": "3", "durability_b": "4",
        "mo_b": "7", "facings_b": "2"})
    return [("d6battle shoot, 60 shots at a unit of 40", lambda: shoot.odds(volley)),
            ("d6battle combat, 30 figures a side", lambda: combat.odds(fight))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.binomial", description=__doc__)
    ap.add_argument("--repeats", type=int, default=5)
    ns = ap.parse_args(argv)
    print("| binomial | icepool `n @ coin` | tracker.core.odds | same floats |")
    print("|---|---:|---:|---|")
    for n, p in CASES:
        same = icepool_binomial(n, p) == tuple(odds.binomial(n, p))
        ice = cold(functools.partial(icepool_binomial, n, p), ns.repeats)
        ours = cold(functools.partial(odds.binomial, n, p), ns.repeats)
        print(f"| {n} dice at {p} | {ice * 1e3:.2f} ms | {ours * 1e3:.3f} ms | {same} |")
    print()
    print("| odds, from cold | with icepool's binomial | with tracker.core.odds |")
    print("|---|---:|---:|")
    hand = odds._binomial
    for label, fn in d6battle_cases():
        ours = cold(fn, ns.repeats)
        odds._binomial = _cached(icepool_binomial)
        try:
            ice = cold(fn, ns.repeats)
        finally:
            odds._binomial = hand
        print(f"| {label} | {ice * 1e3:.1f} ms | {ours * 1e3:.1f} ms |")
    return 0


def _cached(fn: Callable[[int, Fraction], tuple[float, ...]]) -> Any:
    return functools.lru_cache(maxsize=1024)(fn)


if __name__ == "__main__":
    raise SystemExit(main())
