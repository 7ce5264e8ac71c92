"""``exchange``: an exchange of blows, with pressing and the wound (edc).

Both sides roll the dice they spent from their Combat Pool (CP) against their target
numbers (ATN / DTN): successes are dice at or above the TN, the margin of success (MoS)
is attacker's minus defender's successes. The winner holds the initiative next exchange
(keeps it if he held it, else takes it); a tie goes to the attacker (the blow is turned
aside). A roll with no successes and two or more 1s is a botch (fumble): the CP is cut by
half the dice used on the next exchange.

Pressing: press dice roll against TN 3 (attacking) or 4 (defending); the exchange winner
adds the MoS to his press successes; the most press successes moves the fight that many
feet more than the other side's (the press MoS). Without press dice the loser gives
ground one foot per point of MoS.

Each combatant gets a single action per exchange (the text): the attacker's is the attack,
the defender's the defence, so both take this once per exchange, in either exchange of
the round (a defender who declares an attack instead rolls no defence, and then attacks).
Who may attack whom, and when, is ``acting``'s: the holder of the initiative first, no
attack while hesitating, a shield blocks once an exchange, a ride-by's single exchange.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.core.dice import Dice
from tracker.rules.base import Action, Odds, Resolution

from ..acting import exchange_refusals
from ..common import check, d10s, successes_word
from ..later import chances
from ..wounds import wound_calls, wound_figures, wound_level, wound_summary
from .exchange_fill import apply_exchange, fill_exchange
from .exchange_params import ExchangeFigures, ExchangeParams

if TYPE_CHECKING:
    from tracker.core.history import Transaction
    from tracker.core.model import Encounter


class Exchange(Action[ExchangeParams]):
    name = "exchange"
    help = ("An exchange of blows: attack dice vs ATN against defence dice vs DTN, "
            "MoS, initiative, botches, pressing and the wound")
    phases = ("exchange 1", "exchange 2")
    once_per = "exchange"
    stages = (
        d10s("attack", "attack dice", "to attack", lambda p: p.attack_dice),
        d10s("defense", "defence dice", "to defend", lambda p: p.defense_dice),
        d10s("press", "attacker's press dice", "to press", lambda p: p.press_dice),
        d10s("defense_press", "defender's press dice", "to press", lambda p: p.defense_press_dice),
    )
    detail = (
        "figures: attack_successes, defense_successes, mos, winner (attacker on a tie), "
        "initiative (who holds it next), hit, attack_botch, defense_botch, "
        "attack_fumble_penalty, defense_fumble_penalty, attack_cp_spent, defense_cp_spent; "
        "drive_feet (no press) or press_successes, defense_press_successes, press_total, "
        "defense_press_total, press_feet, press_by; on a hit wound_level, location, "
        "damage_type, shock, pain, blood_loss, wound_note, knockdown_tn, knockout_roll, "
        "ride_check_penalty (and cp_now, spill when defender_cp is known).\n"
        "Roland's press: exchange attack_dice=6 atn=6 defense_dice=4 dtn=6 press_dice=6 "
        "--dice attack=... defense=... press=... -> press_feet 6."
    )

    def resolve(self, p: ExchangeParams, dice: Dice) -> Resolution:
        rule = p.tn_above_ten
        a_name = p.attacker or "attacker"
        d_name = p.defender or "defender"
        a_succ, a_botch = check(dice, "attack", p.attack_dice, p.atn, rule, why=a_name)
        d_succ, d_botch = check(dice, "defense", p.defense_dice, p.dtn, rule, why=d_name)
        mos = a_succ - d_succ
        winner = "attacker" if mos >= 0 else "defender"
        hit = mos > 0
        f = ExchangeFigures(
            attack_successes=a_succ, defense_successes=d_succ, mos=mos, winner=winner,
            initiative=winner, hit=hit, attack_botch=a_botch, defense_botch=d_botch,
            attack_fumble_penalty=p.attack_dice // 2 if a_botch else 0,
            defense_fumble_penalty=p.defense_dice // 2 if d_botch else 0,
            attack_cp_spent=p.attack_cp(), defense_cp_spent=p.defense_cp(),
        )
        maneuver = f" ({p.maneuver})" if p.maneuver else ""
        at = f" at {p.location}" if p.location else ""
        defense = f"defends ({p.defense})" if p.defense else "defends"
        parts = [
            f"{a_name} attacks{maneuver}{at} with {p.attack_dice} vs ATN {p.atn}: "
            f"{successes_word(a_succ)}" + (" (botch)" if a_botch else ""),
            f"{d_name} {defense} with {p.defense_dice} vs DTN {p.dtn}: "
            f"{successes_word(d_succ)}" + (" (botch)" if d_botch else ""),
        ]
        a_gets, d_gets = _gets(p.holder == "attacker"), _gets(p.holder == "defender")
        if hit:
            parts.append(f"MoS {mos}, hit; {a_name} {a_gets} the initiative")
        elif mos == 0:
            parts.append(f"tie, turned aside; {a_name} {a_gets} the initiative")
        else:
            parts.append(f"MoS {mos}, {d_name} wins and {d_gets} the initiative")
        parts += _press(p, f, dice, a_name, d_name)
        if hit:
            parts.append(_wound(p, f))
        for who, botch, pen in ((a_name, a_botch, f.attack_fumble_penalty),
                                (d_name, d_botch, f.defense_fumble_penalty)):
            if botch:
                parts.append(f"{who} fumbles: -{pen} CP next exchange")
        outcome = "hit" if hit else "tie" if mos == 0 else "defended"
        return Resolution("exchange", outcome, "; ".join(parts), f, dice.rolls)

    def odds(self, p: ExchangeParams) -> Odds:
        dist = chances.mos_odds(p.attack_dice, p.atn, p.defense_dice, p.dtn, p.tn_above_ten)
        out: Odds = []
        for m in sorted(dist, reverse=True):
            if m > 0:
                label = f"MoS {m}: hit"
            elif m == 0:
                label = f"MoS 0: turned aside, attacker {_gets(p.holder == 'attacker')} " \
                    "initiative"
            else:
                label = f"MoS {m}: defender wins"
            out.append((label, dist[m]))
        return out

    def actors(self, p: ExchangeParams) -> list[str]:
        """The attacker, and the defender when he rolls a defence: each has his single
        action of the exchange. A defender who attacks instead rolls no defence dice, and
        may then take his own exchange."""
        who = [p.attacker] if p.attacker else []
        if p.defender and (p.defense_dice or p.defense_press_dice):
            who.append(p.defender)
        return who

    def refusals(self, enc: Encounter, p: ExchangeParams) -> list[str]:
        return exchange_refusals(enc, p)

    def fill(self, enc: Encounter, given: dict[str, Any]) -> dict[str, Any]:
        return fill_exchange(enc, given)

    def apply(self, enc: Encounter, p: ExchangeParams, res: Resolution,
              tx: Transaction) -> None:
        apply_exchange(enc, p, res, tx)


def _gets(holds: bool) -> str:
    """The winner "takes or retains initiative for the next exchange" (the text)."""
    return "keeps" if holds else "takes"


def _press(p: ExchangeParams, f: ExchangeFigures, dice: Dice, a_name: str,
           d_name: str) -> list[str]:
    """The press: press successes plus the winner's MoS; without press dice the loser
    gives a foot per point of MoS."""
    mos = f.mos
    if not (p.press_dice or p.defense_press_dice):
        f.drive_feet = abs(mos)
        loser = d_name if mos > 0 else a_name
        return [f"{loser} gives {abs(mos)} ft"] if mos else []
    rule = p.tn_above_ten
    # the press counts successes only: a 1 there is no botch
    pa = check(dice, "press", p.press_dice, p.press_tn, rule, why=a_name, botch=False).successes
    pd = check(dice, "defense_press", p.defense_press_dice, p.defense_press_tn, rule,
               why=d_name, botch=False).successes
    a_total, d_total = pa + max(mos, 0), pd + max(-mos, 0)
    feet = abs(a_total - d_total)
    by = "attacker" if a_total > d_total else "defender" if d_total > a_total else "none"
    f.press_successes, f.defense_press_successes = pa, pd
    f.press_total, f.defense_press_total = a_total, d_total
    f.press_feet, f.press_by = feet, by
    if by == "none":
        return [f"press {a_total} vs {d_total}: the fight stays put"]
    mover = a_name if by == "attacker" else d_name
    return [f"press {a_total} vs {d_total}: {mover} moves the fight up to {feet} ft"]


def _wound(p: ExchangeParams, f: ExchangeFigures) -> str:
    """The wound of a hit: its level, the table's row, and the rolls it calls for."""
    mos = f.mos
    level = wound_level(p.wound_level, mos, p.weapon_damage, p.toughness, p.armour)
    cp_left = -1
    if p.defender_cp >= 0:
        cp_left = max(p.defender_cp - p.defense_cp(), -1)
    wf = wound_figures(level=level, location=p.location, damage_type=p.damage_type,
                       table=p.damage_table, mos=mos, cp_left=cp_left)
    f.take_wound(wf)
    f.ride_check_penalty = mos if p.defender_mounted else 0
    if level > 0 and not p.location:
        return f"level {level} wound (no location given: enter it with hit)"
    if level <= 0:
        return "no wound (level 0)"
    w = wound_summary(wf)
    if wf.spill:
        w += f"; {wf.spill} Shock spills into next round"
    w += wound_calls(wf)
    if p.defender_mounted:
        w += f"; ride check at -{mos} dice to stay mounted"
    if wf.wound_note and p.location:
        w += f" ({wf.wound_note})"
    return w


EXCHANGE = Exchange()
