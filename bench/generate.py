"""Large encounters for the benchmarks: a Warmaster battle with N units and a long log.

The log is made the way the GM makes it at the table, through ``Session.execute``:
shots from one side at the other, rolls and notes, the end of each Shooting phase with
its drive backs, and the march of phases and rounds. Every entry carries the rolls and
the before/after ops the real commands record, so the save has the shape of a real one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tracker.core import history
from tracker.rules.warmaster import WarmasterEncounter, WarmasterUnit
from tracker.session.session import Session
from tracker.store import save_encounter

SIDES = ("High Elves", "Orcs")
KINDS = ("infantry", "infantry", "infantry", "cavalry", "artillery", "chariots")
NAMES = ("Spearmen", "Archers", "Knights", "Bolt Throwers", "Chariots", "Warriors")


def units_for(count: int, rng: random.Random) -> list[WarmasterUnit]:
    units = []
    for i in range(count):
        side = SIDES[i % 2]
        n = i % len(NAMES)
        kind = KINDS[n]
        strength = 3 if kind != "artillery" else 2
        units.append(
            WarmasterUnit(
                id=f"u{i:05d}",
                name=f"{NAMES[n]} {i}",
                side=side,
                kind=kind,
                strength=strength,
                strength_start=strength,
                close_attacks=rng.choice((2, 3, 3, 4)),
                shoot_attacks=rng.choice((0, 1, 1, 2)) if kind != "cavalry" else 0,
                armour=rng.choice((None, 6, 5, 4)),
                hits_per_stand=3,
                pace=rng.choice((20, 30)),
                position=rng.choice(("open", "open", "open", "defended")),
            )
        )
    return units


@contextmanager
def indexed_lists() -> Iterator[None]:
    """Find list items by id through a cached index while the log is generated.

    ``history`` walks a list for every op path; ``endphase`` sets a few fields on every
    unit, so with a thousand units one call takes seconds. The index gives the same
    answers (it is checked on every hit and falls back to the walk) in a fraction of it.
    """
    walk = history._list_index
    cache: dict[int, tuple[list[Any], dict[str, int]]] = {}

    def find(items: list[Any], seg: str | int) -> int:
        if isinstance(seg, int):
            return walk(items, seg)
        held = cache.get(id(items))
        if held is None or held[0] is not items:
            held = (items, {getattr(x, "id", None): i for i, x in enumerate(items)})
            cache[id(items)] = held
        i = held[1].get(seg)
        if i is not None and i < len(items) and getattr(items[i], "id", None) == seg:
            return i
        cache.pop(id(items), None)
        return walk(items, seg)

    history._list_index = find  # type: ignore[assignment]
    try:
        yield
    finally:
        history._list_index = walk  # type: ignore[assignment]


def large_encounter(units: int = 1000, events: int = 10_000, seed: int = 1) -> WarmasterEncounter:
    """A Warmaster battle of ``units`` units with a log of ``events`` entries."""
    rng = random.Random(seed)
    enc = WarmasterEncounter(
        name=f"Benchmark battle ({units} units)",
        ruleset="warmaster",
        seed=seed,
        units=units_for(units, rng),
    )
    enc.position.phase = 2  # shooting
    session = Session(enc)
    shots_per_phase = max(2, min(40, units // 4))
    with indexed_lists():
        _play(session, events, shots_per_phase, rng)
    return enc


def _play(session: Session, events: int, shots_per_phase: int, rng: random.Random) -> None:
    enc = session.enc
    shot_in_phase = 0
    while len(enc.log) < events:
        phase = enc.position.phase
        if phase != 2:
            session.execute("next phase")
            continue
        if shot_in_phase >= shots_per_phase:
            session.execute("endphase")
            session.execute("next phase")  # on to the Combat phase, then the next turn
            shot_in_phase = 0
            continue
        shot_in_phase += 1
        pick = rng.random()
        if pick < 0.08:
            session.execute(f"note volley {len(enc.log)} held back by the wind")
            continue
        if pick < 0.14:
            session.execute(f"roll {rng.choice(('2d6', 'd6', '3d6'))} morale")
            continue
        live = [u for u in enc.units if u.active]
        side = session.play.where().side  # the side whose turn it is shoots
        shooters = [u for u in live if u.side == side and u.shoot_attacks > 0 and not u.shot]
        if not shooters:
            shot_in_phase = shots_per_phase
            continue
        actor = rng.choice(shooters)
        targets = [u for u in live if u.side != actor.side]
        if not targets:
            return
        target = rng.choice(targets)
        session.execute(f"shoot {actor.id} {target.id}")


def write_large(path: Path, units: int = 1000, events: int = 10_000) -> Path:
    save_encounter(large_encounter(units, events), path, backups=0)
    return path


if __name__ == "__main__":
    import sys
    import time

    t = time.perf_counter()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    ev = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    enc = large_encounter(n, ev)
    print(f"built {len(enc.units)} units, {len(enc.log)} entries in {time.perf_counter() - t:.1f}s")
    ops = sum(len(e.ops) for e in enc.log)
    rolls = sum(len(e.rolls) for e in enc.log)
    print(f"ops {ops} rolls {rolls}")
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("/tmp/bench-large.toml")
    t = time.perf_counter()
    save_encounter(enc, out, backups=0)
    print(f"saved {out} {out.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - t:.2f}s")
