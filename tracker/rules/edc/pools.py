"""The Combat Pool (CP) and its refresh, spending dice, the Missile Pool (MP) upkeep and the
start-of-round upkeep.

CP = Reflex + proficiency - max(Pain, spilled Shock) + higher footing (+2) + mounted
height (+2 against ground opponents) - reach (1 per step against a longer weapon, until
the shorter one lands a damaging strike) - a carried fumble penalty, then lighting (dim -1,
moonlight -1/4, darkness -1/2), on the ground -1/2, and Health 1 halves it. Posture is not
a pool modifier: it changes the dice of the first attack or defence (see ``exchange``).
The numbers are in ``tables.toml`` ([pool], [reach]).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.core.dice import Dice
from tracker.rules.base import RuleError

from .common import CP, MP
from .later import model, tables
from .settings import FRACTION_ROUNDING, PAIN_RESIST
from .wounds import effective_pain

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter

    from .model import EdcCombatant
    from .tables import Cut


def _loss(total: int, cut: Cut, rounding: str) -> int:
    """Dice a cut takes off ``total``: its ``less`` dice, or 1/``fraction`` of it."""
    if total <= 0:
        return 0
    if not cut.fraction:
        return min(cut.less, total)
    den = cut.fraction
    return -(-total // den) if rounding == "loss_up" else total // den


def opponent_of(enc: Encounter, c: EdcCombatant) -> EdcCombatant | None:
    if not c.opponent:
        return None
    for o in enc.combatants:
        if o.id == c.opponent:
            return o  # type: ignore[return-value]
    return None


def reach_penalty(mine: int, theirs: int, inside: bool) -> int:
    """Dice lost against a longer weapon, until the shorter one has landed a damaging strike."""
    if inside or theirs <= mine:
        return 0
    return (theirs - mine) * tables.tables().reach.penalty_per_step


def combat_pool(c: EdcCombatant, enc: Encounter) -> tuple[int, list[str]]:
    """The CP ``c`` refreshes to, with one breakdown line per term."""
    t = tables.tables().pool
    rounding = str(FRACTION_ROUNDING.of(enc))
    lines = [f"Reflex {c.reflex}", f"Proficiency {c.proficiency}"]
    total = c.reflex + c.proficiency
    pain = effective_pain(c, str(PAIN_RESIST.of(enc)))
    if pain or c.shock_spill:
        if c.shock_spill > pain:
            lines.append(f"Shock carried -{c.shock_spill} (Pain {pain})")
        else:
            lines.append(f"Pain -{pain}")
        total -= max(pain, c.shock_spill)
    if c.footing == "higher":
        lines.append(f"Higher footing +{t.higher_footing}")
        total += t.higher_footing
    opp = opponent_of(enc, c)
    if c.mounted and c.mount_height and not (opp is not None and opp.mounted):
        lines.append(f"Mounted height +{c.mount_height}")
        total += c.mount_height
    steps = reach_penalty(c.reach, opp.reach, c.inside_reach) if opp is not None else 0
    if opp is not None and steps:
        lines.append(f"Reach {c.reach} vs {opp.reach} -{steps}")
        total -= steps
    if c.cp_modifier:
        lines.append(f"Other {c.cp_modifier:+d}")
        total += c.cp_modifier
    if c.fumble_penalty:
        lines.append(f"Fumble -{c.fumble_penalty}")
        total -= c.fumble_penalty
    total = max(total, 0)
    cuts: list[tuple[str, tables.Cut]] = []
    if not c.dark_sight and c.lighting in t.lighting:
        cuts.append((c.lighting.capitalize(), t.lighting[c.lighting]))
    if c.prone:
        cuts.append(("On the ground", tables.Cut(fraction=t.prone_fraction)))
    if c.health == 1:
        cuts.append(("Health 1 halves", tables.Cut(fraction=t.health_one_fraction)))
    for label, cut in cuts:
        lost = _loss(total, cut, rounding)
        if lost:
            lines.append(f"{label} -{lost}")
            total -= lost
    return total, lines


def refresh(enc: Encounter, c: EdcCombatant, tx: Transaction) -> str:
    """Refresh the CP for a new round; spilled Shock and a carried fumble are used up."""
    size, lines = combat_pool(c, enc)
    base: list[str | int] = ["combatants", c.id]
    tx.set([*base, "pools", CP, "size"], size)
    tx.set([*base, "pools", CP, "spent"], 0)
    tx.set([*base, "pools", CP, "breakdown"], lines)
    tx.set([*base, "shock_spill"], 0)
    tx.set([*base, "fumble_penalty"], 0)
    return f"{c.name} CP {size}"


def spend(c: EdcCombatant, n: int, tx: Transaction, what: str, pool: str = CP) -> None:
    """Spend ``n`` dice of ``pool``; refuses more dice than are left."""
    if n <= 0:
        return
    p = c.pool(pool)
    if n > p.left:
        raise RuleError(f"{c.name} has {max(p.left, 0)} {pool} left; {what} needs {n}")
    tx.set(["combatants", c.id, "pools", pool, "spent"], p.spent + n)
    if pool == CP:
        pos = tx.enc.position
        before = c.spent_in_exchange(pos.round, pos.phase)
        tx.set(["combatants", c.id, "exchange_mark"], f"{pos.round}.{pos.phase + 1}")
        tx.set(["combatants", c.id, "exchange_spent"], before + n)


def reduce_now(c: EdcCombatant, n: int, tx: Transaction, why: str, pool: str = CP) -> int:
    """Take up to ``n`` dice off what is left of ``pool`` this round."""
    p = c.pool(pool)
    cut = min(max(n, 0), max(p.left, 0))
    if cut:
        path: list[str | int] = ["combatants", c.id, "pools", pool]
        tx.set([*path, "size"], p.size - cut)
        tx.set([*path, "breakdown"], [*p.breakdown, f"{why} -{cut}"])
    return cut


def missile_upkeep(enc: Encounter, c: EdcCombatant, tx: Transaction) -> str:
    """The MP at the start of a round: preparation counts down, proficiency dice when it is
    done, Aim dice after a round without firing (pool max = Aim + proficiency)."""
    mp = c.pool(MP)
    path: list[str | int] = ["combatants", c.id]
    cap = c.aim + c.missile_proficiency
    dice = max(mp.left, 0)
    lines = [f"Carried {dice}"] if dice else []
    note = ""
    if c.preparing:
        left = max(c.missile_prep - 1, 0)
        tx.set([*path, "missile_prep"], left)
        if left == 0:
            gain = c.missile_proficiency - c.missile_prep_cost
            dice = min(max(dice + gain, 0), cap)
            lines.append(f"Proficiency {c.missile_proficiency:+d}")
            if c.missile_prep_cost:
                lines.append(f"Shortened preparation -{c.missile_prep_cost}")
            tx.set([*path, "preparing"], False)
            tx.set([*path, "missile_ready"], True)
            tx.set([*path, "missile_prep_cost"], 0)
            note = f"{c.name} ready to loose, MP {dice}"
        else:
            note = f"{c.name} preparing, {left} round{'s' if left > 1 else ''} to go"
    elif c.missile_ready and not c.fired and c.aim:
        before = dice
        dice = min(dice + c.aim, cap)
        if dice > before:
            lines.append(f"Aim +{dice - before}")
            note = f"{c.name} aims, MP {dice}"
    if c.fired:
        tx.set([*path, "fired"], False)
    if dice or mp.size or mp.spent:
        tx.set([*path, "pools", MP, "size"], dice)
        tx.set([*path, "pools", MP, "spent"], 0)
        tx.set([*path, "pools", MP, "breakdown"], lines + ([f"Max {cap}"] if cap else []))
    return note


def start_round(enc: Encounter, tx: Transaction, dice: Dice) -> list[str]:
    """Upkeep, by Reflex: refresh CP, missile upkeep. The blood loss tests come before it
    (the first exchange's start duty), so a fighter they leave at Health 1 refreshes to
    half a pool and one they put in a coma refreshes none."""
    lines: list[str] = []
    fighters = sorted(
        (c for c in enc.combatants if isinstance(c, model.EdcCombatant) and not c.out),
        key=lambda c: (-c.reflex, c.name.lower()),
    )
    for c in fighters:
        lines.append(refresh(enc, c, tx))
        line = missile_upkeep(enc, c, tx)
        if line:
            lines.append(line)
    return lines
